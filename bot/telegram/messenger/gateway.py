"""The messenger's one door to Telegram: method objects sent through the bot (paced and
retried by the session's `Pacing`), a group followed to its supergroup, an edit that would
change nothing never sent, and a player's closed private chat told to the group once."""

from __future__ import annotations

import hashlib
import logging
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat
from aiogram.methods import (
    DeleteMessage,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)
from aiogram.utils.deep_linking import create_deep_link

from bot.core.chats import Chats
from bot.core.rows import GameRow
from bot.core.storage import Storage
from bot.telegram.courier import Courier
from bot.telegram.references import MessageReferences
from bot.ui.i18n import Texts, language_of, texts_for

log = logging.getLogger(__name__)
T = TypeVar("T")
MOVES = 3  # how many times a request follows a group to a supergroup
GONE = ("message to edit not found", "message can't be edited", "message to delete not found")

Edit = EditMessageText | EditMessageMedia | EditMessageReplyMarkup | EditMessageCaption
Send = SendMessage | SendPhoto


def _hash(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def _markup(method: Any) -> str:
    markup = getattr(method, "reply_markup", None)
    return markup.model_dump_json(exclude_none=True) if markup is not None else ""


def _photo(photo: object) -> object:
    return photo.data if isinstance(photo, BufferedInputFile) else photo


def _content(method: Send | Edit) -> str | None:
    """A digest of the text (or picture and caption) a send or edit shows; None for an edit
    of the buttons alone."""
    if isinstance(method, (SendMessage, EditMessageText)):
        return _hash("text", method.text)
    if isinstance(method, SendPhoto):
        return _hash("photo", _photo(method.photo), method.caption)
    if isinstance(method, EditMessageMedia):
        return _hash("photo", _photo(method.media.media), method.media.caption)
    if isinstance(method, EditMessageCaption):
        return _hash("caption", method.caption)
    return None


class Gateway:
    """Shared by the lobby, table and hands; see the module's docstring."""

    def __init__(
        self, bot: Bot, storage: Storage, courier: Courier, username: str, app: str | None = None
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.references = MessageReferences(storage.database)
        self.chats = Chats(storage)
        self.courier = courier
        courier.kind("unreachable", self._unreachable)
        self.username = username
        self.app = app  # the table app's short name (@BotFather's /newapp), if there is one

    # -- links and languages ------------------------------------------------------------

    def start_link(self, payload: str) -> str:
        return create_deep_link(self.username, "start", payload)

    def app_link(self, game: GameRow) -> str | None:
        """The direct link that opens the table app on `game` (None without the app)."""
        if not self.app or not game.join_token:
            return None
        return f"https://t.me/{self.username}/{self.app}?startapp=g{game.join_token}"

    def add_to_group_link(self) -> str:
        return create_deep_link(self.username, "startgroup", "new")

    async def group_texts(self, chat_id: int) -> Texts:
        """The texts of a group: its language from /settings."""
        return texts_for((await self.storage.people.chat_settings(chat_id)).language)

    async def user_texts(self, user_id: int) -> Texts:
        """The texts of a private chat: the user's choice, else their Telegram language."""
        return texts_for(language_of(*await self.storage.people.user_language(user_id)))

    # -- calls ---------------------------------------------------------------------------

    async def call(self, method: TelegramMethod[T]) -> T:
        """Call Telegram; a group that became a supergroup is followed there."""
        for _ in range(MOVES):
            try:
                return await self.bot(method)
            except TelegramMigrateToChat as error:
                old = getattr(method, "chat_id", None)
                if not isinstance(old, int):
                    raise
                await self.storage.people.migrate_chat(old, error.migrate_to_chat_id)
                method = method.model_copy(update={"chat_id": error.migrate_to_chat_id})
        return await self.bot(method)

    async def send(self, method: Send) -> Message:
        """A new message; what it shows is remembered."""
        sent = await self.call(method)
        await self._remember(sent.chat.id, sent.message_id, _content(method), _markup(method))
        return sent

    async def edit(self, method: Edit) -> bool:
        """Edit a message unless it already shows exactly that; False when the message is
        gone or too old to edit (then a new one is sent instead)."""
        chat_id, message_id = method.chat_id, method.message_id
        assert isinstance(chat_id, int) and message_id is not None
        content, markup = _content(method), _markup(method)
        before = await self.references.shown(chat_id, message_id)
        old_content, _, old_markup = (before or "").partition("|")
        if before is not None and (content or old_content, markup) == (old_content, old_markup):
            return True
        try:
            await self.call(method)
        except TelegramBadRequest as error:
            if any(reason in error.message for reason in GONE):
                await self.references.set_shown(chat_id, message_id, None)
                return False
            raise
        await self._remember(chat_id, message_id, content or old_content or None, markup)
        return True

    async def delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self.call(DeleteMessage(chat_id=chat_id, message_id=message_id))
        except (TelegramBadRequest, TelegramForbiddenError) as error:
            log.info("message %s in %s not deleted: %s", message_id, chat_id, error)
        await self.references.set_shown(chat_id, message_id, None)

    async def _remember(
        self, chat_id: int, message_id: int, content: str | None, markup: str
    ) -> None:
        if content is not None:
            await self.references.set_shown(chat_id, message_id, f"{content}|{markup}")

    # -- the game's chats ----------------------------------------------------------------

    async def group_text(
        self, game: GameRow, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> Message:
        return await self.send(
            SendMessage(
                chat_id=game.chat_id,
                text=text,
                reply_markup=markup,
                message_thread_id=game.thread_id or None,
            )
        )

    async def private(
        self, game: GameRow | None, user_id: int, method: TelegramMethod[T]
    ) -> T | None:
        """A call into a person's private chat. A 403 marks them unreachable (told once to
        the group of `game`, if the call is for one); from then on nothing is sent there
        (None) until they write to the bot again or unblock it."""
        if await self.storage.people.is_blocked(user_id):
            return None
        try:
            if isinstance(method, (SendMessage, SendPhoto)):
                return await self.send(method)  # type: ignore[return-value]
            if isinstance(method, (EditMessageText, EditMessageReplyMarkup)):
                return await self.edit(method)  # type: ignore[return-value]
            return await self.call(method)
        except TelegramForbiddenError:
            if await self.storage.people.set_blocked(user_id) and game is not None:
                self.unreachable(game, user_id)
            return None

    def unreachable(self, game: GameRow, user_id: int) -> None:
        """Tell the game's group that the bot cannot write to this player."""
        name = next(p.name for p in game.players if p.user_id == user_id)
        self.courier.post(game.chat_id, "unreachable", (game.id, name))

    async def _unreachable(self, news: tuple[int, str]) -> None:
        game_id, name = news
        game = await self.storage.games.game(game_id)
        if game is None:
            return
        t = await self.group_texts(game.chat_id)
        url = self.start_link("hi")
        button = InlineKeyboardButton(text=t("open-bot"), url=url)
        await self.group_text(
            game,
            t("unreachable", name=name, url=url),
            InlineKeyboardMarkup(inline_keyboard=[[button]]),
        )
