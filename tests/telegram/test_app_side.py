"""The Telegram side of the table app: «📱 За стол» on the lobby and the table only with an
app, and Telegram's word on a watcher's membership asked once a minute."""

from __future__ import annotations

from typing import Any

from aiogram.enums import ChatMemberStatus
from aiogram.types import ChatMemberLeft, ChatMemberMember, User

from bot.telegram.app_side import MEMBER_SECONDS, AppSide
from bot.telegram.keyboards import app_keyboard, lobby_keyboard
from bot.ui.i18n import texts_for
from tests.lobbies import lobby_row

URL = "https://t.me/kozel_bot/table?startapp=gAbCdEfGhIjKlMnOp"


def test_the_app_button_comes_only_with_an_app() -> None:
    for language, label in (("ru", "📱 За стол"), ("en", "📱 Open the table")):
        t = texts_for(language)
        with_app = lobby_keyboard(t, lobby_row(), "https://t.me/kozel_bot?start=j1", True, URL)
        first = with_app.inline_keyboard[0]
        assert [b.text for b in first] == [t("join"), label] and first[1].url == URL
        table = app_keyboard(t, URL)
        assert table is not None and table.inline_keyboard[0][0].url == URL
        without = lobby_keyboard(t, lobby_row(), "https://t.me/kozel_bot?start=j1", True)
        assert all(b.url != URL for row in without.inline_keyboard for b in row)
        assert app_keyboard(t, None) is None


class Asked:
    """A bot whose `getChatMember` says who is in the chat, counting the questions."""

    def __init__(self, members: set[int]) -> None:
        self.members = members
        self.asked = 0

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        self.asked += 1
        user = User(id=user_id, is_bot=False, first_name="x")
        if user_id in self.members:
            return ChatMemberMember(status=ChatMemberStatus.MEMBER, user=user)
        return ChatMemberLeft(status=ChatMemberStatus.LEFT, user=user)


async def test_membership_is_asked_once_a_minute() -> None:
    now = [1000.0]
    bot = Asked({7})
    side = AppSide(bot, None, lambda: now[0])  # type: ignore[arg-type]
    assert await side.is_member(-100, 7) and await side.is_member(-100, 7)
    assert not await side.is_member(-100, 8)
    assert bot.asked == 2
    bot.members = set()  # they left the group
    now[0] += MEMBER_SECONDS + 1
    assert not await side.is_member(-100, 7) and bot.asked == 3
