"""The lobby message in the group (its rules and presets views for the creator), and the
private pings of those who asked for the chat's next game."""

from __future__ import annotations

import logging
from enum import StrEnum

from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters

from bot.core.guarded import LOBBY_IDLE
from bot.core.rows import GameRow, GameStatus
from bot.telegram.keyboards import lobby_keyboard, presets_keyboard, settings_keyboard
from bot.telegram.messenger.gateway import Gateway
from bot.ui import texts
from bot.ui.games import presets_text
from bot.ui.i18n import Texts

log = logging.getLogger(__name__)


class LobbyView(StrEnum):
    MAIN = "main"  # who sits, join, start
    SETTINGS = "settings"  # the rules that apply to the chosen preset
    PRESETS = "presets"  # every preset with its description


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a supergroup message (basic groups have none)."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"


class Lobby:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.storage = gateway.storage
        courier = gateway.courier
        courier.kind("lobby", self._lobby)
        courier.kind("lobby-closed", self._close)
        courier.kind("waiters", self._call_waiters)
        courier.kind("ping", self._ping)
        courier.kind("point", self._point)

    def join_url(self, game: GameRow) -> str:
        return self.gateway.start_link(f"j{game.join_token}")

    def show(self, game: GameRow, view: LobbyView = LobbyView.MAIN) -> None:
        """Post the lobby, or edit it in place (its newest state)."""
        self.gateway.courier.post(game.chat_id, "lobby", (game.id, view), ("lobby", game.id))

    async def _lobby(self, news: tuple[int, LobbyView]) -> None:
        game_id, view = news
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.LOBBY:
            return
        humans = [p for p in game.players if p.human]
        started = await self.storage.people.started_users([p.user_id for p in humans])
        waiting = [p.name for p in humans if p.user_id not in started]
        chat = await self.storage.people.chat_settings(game.chat_id)
        t = await self.gateway.group_texts(game.chat_id)
        picks = [p.team for p in game.players]
        text = texts.lobby(
            t, game.rules, game.names, waiting, chat.computers, LOBBY_IDLE // 60, picks
        )
        if game.dealt_from is not None:
            text = f"{text}\n{t('deal-lobby', code=game.dealt_from)}"
        markup: InlineKeyboardMarkup
        if view is LobbyView.SETTINGS:
            markup = settings_keyboard(t, game.id, game.rules)
        elif view is LobbyView.PRESETS:
            text = f"{text}\n\n{presets_text(t)}"
            markup = presets_keyboard(t, game.id, game.rules)
        else:
            app_url = self.gateway.app_link(game)
            markup = lobby_keyboard(t, game, self.join_url(game), chat.computers, app_url)
        if game.lobby_message_id is None:
            sent = await self.gateway.group_text(game, text, markup)
            await self.gateway.references.set_lobby_message(game.id, sent.message_id)
            return
        await self.gateway.edit(
            EditMessageText(
                chat_id=game.chat_id,
                message_id=game.lobby_message_id,
                text=text,
                reply_markup=markup,
            )
        )

    def close(self, game: GameRow, key: str, **values: str | int) -> None:
        """The lobby message says what happened (catalog text `key`) and loses its buttons."""
        news = (game.id, key, values)
        self.gateway.courier.post(game.chat_id, "lobby-closed", news, ("lobby", game.id))

    def started(self, game: GameRow) -> None:
        """The game started: the lobby says who plays and loses its buttons — behind the
        first table in the group's lane (a lobby edit still waiting there finds the game
        started and sends nothing, giving its place to the table)."""
        news = (game.id, "game-started-players", {"names": ", ".join(game.names)})
        self.gateway.courier.post(game.chat_id, "lobby-closed", news)

    async def _close(self, news: tuple[int, str, dict[str, str | int]]) -> None:
        game_id, key, values = news
        game = await self.storage.games.game(game_id)
        if game is None or game.lobby_message_id is None:
            return
        said = (await self.gateway.group_texts(game.chat_id))(key, **values)
        edit = EditMessageText(chat_id=game.chat_id, message_id=game.lobby_message_id, text=said)
        try:
            await self.gateway.edit(edit)
        except TelegramBadRequest as error:
            log.warning("lobby of game %s not closed: %s", game.id, error.message)

    def point(self, game: GameRow) -> None:
        """«A game is already here»: a reply to the game's lobby or table as it is when it
        goes out (with a link in a supergroup); nothing once the game is over."""
        self.gateway.courier.post(game.chat_id, "point", (game.id,), urgent=False)

    async def _point(self, news: tuple[int]) -> None:
        (game_id,) = news
        game = await self.storage.games.game(game_id)
        if game is None or not game.is_open:
            return
        t = await self.gateway.group_texts(game.chat_id)
        where, markup = to_game(t, game)
        await self.gateway.send(
            SendMessage(
                chat_id=game.chat_id,
                message_thread_id=game.thread_id or None,
                text=t("already-running"),
                reply_markup=markup,
                reply_parameters=(
                    ReplyParameters(message_id=where, allow_sending_without_reply=True)
                    if where
                    else None
                ),
            )
        )

    def call_waiters(self, game: GameRow, title: str) -> None:
        """Tell everyone who asked with /nextgame, once, that a table is being gathered
        (after the lobby message is out, so the ping links to it)."""
        self.gateway.courier.post(game.chat_id, "waiters", (game.id, title))

    async def _call_waiters(self, news: tuple[int, str]) -> None:
        game_id, title = news
        game = await self.storage.games.game(game_id)
        if game is None:
            return
        link = message_link(game.chat_id, game.lobby_message_id)
        for user_id in await self.storage.people.take_waiters(game.chat_id):
            self.gateway.courier.post(user_id, "ping", (user_id, link, title))

    async def _ping(self, news: tuple[int, str | None, str]) -> None:
        user_id, link, title = news
        t = await self.gateway.user_texts(user_id)
        text = (
            t("next-game-ping", chat=title, link=link)
            if link
            else t("next-game-ping-plain", chat=title)
        )
        await self.gateway.private(None, user_id, SendMessage(chat_id=user_id, text=text))


def to_game(t: Texts, game: GameRow) -> tuple[int | None, InlineKeyboardMarkup | None]:
    """The game's lobby or table message, and a «to the game» link to it (in a supergroup)."""
    where = game.lobby_message_id if game.state is None else game.table_message_id
    link = message_link(game.chat_id, where)
    button = InlineKeyboardButton(text=t("to-game"), url=link) if link else None
    return where, InlineKeyboardMarkup(inline_keyboard=[[button]]) if button else None
