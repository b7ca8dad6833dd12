"""The Telegram side of a game: the lobby, the table picture, the private hands.

Every call goes through `_api`, which waits out a 429, treats "message is not modified" as
done, sends a fresh message when an old one cannot be edited, and turns a 403 from a
player's private chat into one notice in the group.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

from bot import texts
from bot.game.events import Event, GameEnded, RoundEnded
from bot.game.serial import decode
from bot.game.state import GameState, Phase
from bot.game.tiles import tiles_of
from bot.game.view import seat_view
from bot.i18n import Texts, language_of, texts_for
from bot.keyboards import hand_keyboard, lobby_keyboard, settings_keyboard
from bot.scenes import score_sheet, table_scene
from bot.service import LOBBY_IDLE, Turn, game_rules, game_state
from bot.storage import GameRow, Storage
from render import render_score_sheet, render_table

log = logging.getLogger(__name__)
T = TypeVar("T")
ATTEMPTS = 3  # for moves to a supergroup
PATIENCE = 120  # seconds of 429 waits a call may add up before it is given up (and logged)
BACKOFF = (0.5, 1.0, 2.0, 4.0)  # waits before retrying after a 5xx or a network error
GONE = ("message to edit not found", "message can't be edited", "message to delete not found")


def names_of(game: GameRow) -> list[str]:
    return [p.name for p in game.players]


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a supergroup message (basic groups have none)."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"


class Messenger:
    """Sends and edits a game's messages; shared through the dispatcher."""

    def __init__(self, bot: Bot, storage: Storage, username: str) -> None:
        self.bot = bot
        self.storage = storage
        self.username = username

    def join_url(self, game_id: int) -> str:
        return f"https://t.me/{self.username}?start=j{game_id}"

    def start_url(self) -> str:
        return f"https://t.me/{self.username}?start=hi"

    def add_to_group_url(self) -> str:
        return f"https://t.me/{self.username}?startgroup=new"

    async def group_texts(self, chat_id: int) -> Texts:
        """The texts of a group: its language from /settings."""
        return texts_for((await self.storage.chat_settings(chat_id)).language)

    async def user_texts(self, user_id: int) -> Texts:
        """The texts of a private chat: the user's choice, else their Telegram language."""
        return texts_for(language_of(*await self.storage.user_language(user_id)))

    async def _api(self, make: Callable[[], Awaitable[T]]) -> T | None:
        """Call Telegram; None when there was nothing to change (or, logged, when flood
        control kept refusing it for `PATIENCE` seconds). A 429 is waited out in full; a 5xx
        or a network error is retried after growing waits (`BACKOFF`)."""
        moves = waited = failures = 0
        while True:
            try:
                return await make()
            except (TelegramServerError, TelegramNetworkError) as error:
                if failures == len(BACKOFF):
                    raise
                log.info("Telegram failed (%s), again in %s s", error.message, BACKOFF[failures])
                await asyncio.sleep(BACKOFF[failures])
                failures += 1
            except TelegramRetryAfter as error:
                if waited + error.retry_after > PATIENCE:
                    log.warning(
                        "gave up %s after %s s of flood control",
                        type(error.method).__name__,
                        waited,
                    )
                    return None
                waited += error.retry_after
                await asyncio.sleep(error.retry_after)
            except TelegramMigrateToChat as error:
                moves += 1
                if moves > ATTEMPTS:
                    raise
                make = await self._moved(make, error.migrate_to_chat_id)
            except TelegramBadRequest as error:
                if "message is not modified" in error.message:
                    return None
                raise

    async def _moved(
        self, make: Callable[[], Awaitable[T]], new_id: int
    ) -> Callable[[], Awaitable[T]]:
        """The group became a supergroup: move its games and send there instead."""
        if not isinstance(make, partial) or "chat_id" not in make.keywords:
            raise RuntimeError(f"cannot follow a chat to {new_id}")
        await self.storage.migrate_chat(make.keywords["chat_id"], new_id)
        return partial(make.func, *make.args, **{**make.keywords, "chat_id": new_id})

    # -- lobby -------------------------------------------------------------------------

    async def show_lobby(self, game: GameRow, settings: bool = False) -> None:
        """Post the lobby, or edit it in place."""
        rules = game_rules(game)
        humans = [p for p in game.players if p.human]
        started = await self.storage.started_users([p.user_id for p in humans])
        waiting = [p.name for p in humans if p.user_id not in started]
        chat = await self.storage.chat_settings(game.chat_id)
        t = texts_for(chat.language)
        text = texts.lobby(t, rules, names_of(game), waiting, chat.computers, LOBBY_IDLE // 60)
        markup = (
            settings_keyboard(t, game.id, rules)
            if settings
            else lobby_keyboard(t, game.id, self.join_url(game.id), chat.computers)
        )
        if game.lobby_message_id is None:
            sent = await self._group_text(game, text, markup)
            if sent is not None:
                await self.storage.set_lobby_message(game.id, sent.message_id)
            return
        await self._api(self._edit_text(game.chat_id, game.lobby_message_id, text, markup))

    def _edit_text(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> Callable[[], Awaitable[Message | bool]]:
        """An edit of a message's text (without `markup` its buttons go)."""
        return partial(
            self.bot.edit_message_text,
            text=text,
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=markup,
        )

    async def call_waiters(self, game: GameRow, title: str) -> None:
        """Tell everyone who asked with /nextgame, once, that a table is being gathered."""
        game = await self._reloaded(game)  # with the lobby message just sent
        link = message_link(game.chat_id, game.lobby_message_id)
        for user_id in await self.storage.take_waiters(game.chat_id):
            t = await self.user_texts(user_id)
            text = (
                t("next-game-ping", chat=title, link=link)
                if link
                else t("next-game-ping-plain", chat=title)
            )
            try:
                await self._api(partial(self.bot.send_message, chat_id=user_id, text=text))
            except TelegramForbiddenError:
                await self.storage.set_blocked(user_id)

    async def close_lobby(self, game: GameRow, key: str, **values: str | int) -> None:
        """The lobby message says what happened (catalog text `key`) and loses its buttons."""
        if game.lobby_message_id is None:
            return
        text = (await self.group_texts(game.chat_id))(key, **values)
        try:
            await self._api(self._edit_text(game.chat_id, game.lobby_message_id, text))
        except TelegramBadRequest as error:
            log.warning("lobby of game %s not closed: %s", game.id, error.message)

    async def _group_text(
        self, game: GameRow, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> Message | None:
        return await self._api(
            partial(
                self.bot.send_message,
                chat_id=game.chat_id,
                text=text,
                reply_markup=markup,
                message_thread_id=game.thread_id or None,
            )
        )

    # -- the table ---------------------------------------------------------------------

    async def _table_photo(self, t: Texts, state: GameState, game: GameRow) -> bytes:
        scene = table_scene(t, state, names_of(game))
        return await asyncio.to_thread(render_table, scene)

    async def send_table(
        self, game: GameRow, state: GameState, events: Sequence[Event], notes: Sequence[str] = ()
    ) -> None:
        """A new table message for a new round."""
        t = await self.group_texts(game.chat_id)
        photo = BufferedInputFile(await self._table_photo(t, state, game), "table.png")
        caption = texts.table_caption(t, state, names_of(game), events, notes)
        sent = await self._api(
            partial(
                self.bot.send_photo,
                chat_id=game.chat_id,
                photo=photo,
                caption=caption,
                message_thread_id=game.thread_id or None,
            )
        )
        if sent is not None:
            await self.storage.set_table_message(game.id, sent.message_id)

    async def edit_table(
        self, game: GameRow, state: GameState, events: Sequence[Event], notes: Sequence[str] = ()
    ) -> None:
        """Edit the table message in place (a fresh one if it cannot be edited)."""
        if game.table_message_id is None:
            await self.send_table(game, state, events, notes)
            return
        message_id = game.table_message_id
        t = await self.group_texts(game.chat_id)
        photo = BufferedInputFile(await self._table_photo(t, state, game), "table.png")
        media = InputMediaPhoto(
            media=photo, caption=texts.table_caption(t, state, names_of(game), events, notes)
        )
        try:
            await self._api(
                partial(
                    self.bot.edit_message_media,
                    chat_id=game.chat_id,
                    message_id=message_id,
                    media=media,
                )
            )
        except TelegramBadRequest as error:
            if not any(reason in error.message for reason in GONE):
                raise
            await self.send_table(game, state, events, notes)

    # -- private hands -----------------------------------------------------------------

    async def _private(
        self, game: GameRow, user_id: int, make: Callable[[], Awaitable[T]]
    ) -> T | None:
        """A call into a player's private chat; a 403 is told to the group once."""
        try:
            return await self._api(make)
        except TelegramForbiddenError:
            if await self.storage.set_blocked(user_id):
                name = next(p.name for p in game.players if p.user_id == user_id)
                t = await self.group_texts(game.chat_id)
                button = InlineKeyboardButton(text=t("open-bot"), url=self.start_url())
                await self._group_text(
                    game,
                    t("unreachable", name=name, url=self.start_url()),
                    InlineKeyboardMarkup(inline_keyboard=[[button]]),
                )
            return None

    async def show_hands(
        self,
        game: GameRow,
        state: GameState,
        before: GameState | None,
        drawn: dict[int, tuple[int, ...]],
    ) -> None:
        """The hands that changed: the seat to move gets a fresh message (it notifies)."""
        for player in game.players:
            seat = player.seat
            if not player.human:
                continue
            moving = state.phase is Phase.PLAYING and state.to_move == seat
            changed = (
                before is None
                or before.round_no != state.round_no
                or before.hands[seat] != state.hands[seat]
                or seat in (before.to_move, state.to_move)
            )
            if changed:
                fresh = moving and (
                    before is None or before.to_move != seat or before.round_no != state.round_no
                )
                await self.show_hand(game, state, seat, drawn.get(seat, ()), fresh)

    async def show_hand(
        self,
        game: GameRow,
        state: GameState,
        seat: int,
        drawn: Sequence[int] = (),
        fresh: bool = False,
    ) -> None:
        """One player's hand message: tiles as buttons, legal ones marked on their turn."""
        player = game.players[seat]
        t = await self.user_texts(player.user_id)
        view = seat_view(state, seat)
        legal = view.legal_moves()
        hand = list(tiles_of(view.hand))
        keyboard = hand_keyboard(t, game.id, game.version, state.rules, hand, legal)
        text = texts.hand(t, state, seat, drawn)
        old = player.hand_message_id
        await self._hand(game, player.user_id, seat, old, text, keyboard, fresh)

    async def _hand(
        self,
        game: GameRow,
        user_id: int,
        seat: int,
        message_id: int | None,
        text: str,
        keyboard: InlineKeyboardMarkup,
        fresh: bool,
    ) -> None:
        if message_id is not None and not fresh:
            try:
                await self._private(
                    game, user_id, self._edit_text(user_id, message_id, text, keyboard)
                )
                return
            except TelegramBadRequest as error:
                if not any(reason in error.message for reason in GONE):
                    raise
        sent = await self._private(
            game,
            user_id,
            partial(self.bot.send_message, chat_id=user_id, text=text, reply_markup=keyboard),
        )
        if sent is None:
            return  # the old hand stays: its buttons still answer (stale ones say so)
        await self.storage.set_hand_message(game.id, seat, sent.message_id)
        if message_id is not None:
            await self._delete(user_id, message_id)

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self._api(
                partial(self.bot.delete_message, chat_id=chat_id, message_id=message_id)
            )
        except (TelegramBadRequest, TelegramForbiddenError) as error:
            log.info("message %s in %s not deleted: %s", message_id, chat_id, error)

    async def show_choice(
        self, game: GameRow, user_id: int, message_id: int, keyboard: InlineKeyboardMarkup
    ) -> None:
        """Swap a hand's buttons (asking which end) without touching the game."""
        await self._private(
            game,
            user_id,
            partial(
                self.bot.edit_message_reply_markup,
                chat_id=user_id,
                message_id=message_id,
                reply_markup=keyboard,
            ),
        )

    # -- after every accepted action ---------------------------------------------------

    async def show_turn(self, turn: Turn) -> None:
        """Table, round results, game end and hands after `turn` (already stored)."""
        game, names = turn.game, names_of(turn.game)
        if turn.before is None:
            await self.close_lobby(game, "game-started-players", names=", ".join(names))
        closed = turn.closed
        t = await self.group_texts(game.chat_id)
        notes = self._clock_notes(t, turn)
        if closed is None:
            await self.edit_table(game, turn.state, turn.events, notes)
        else:
            await self.edit_table(game, closed, turn.events, notes)
            for ended in turn.rounds:
                await self._tell_round(game, t, ended, closed)
        outcome = turn.ended
        if outcome is not None:
            await self._tell_end(game, t, outcome)
            return
        if closed is not None:
            game = await self._reloaded(game)
            await self.send_table(game, turn.state, turn.events)
        await self.show_hands(await self._reloaded(game), turn.state, turn.before, turn.drawn)

    async def _tell_round(
        self, game: GameRow, t: Texts, ended: RoundEnded, closed: GameState | None
    ) -> None:
        """A round's result: the score sheet picture with the hands (as plain text when the
        round's last state is gone, after a restart); marked as told once it is sent."""
        names, rules = names_of(game), game_rules(game)
        caption = texts.round_result(t, ended, rules, names)
        if closed is None:
            sent = await self._group_text(game, caption)
        else:
            sheet = await asyncio.to_thread(render_score_sheet, score_sheet(t, closed, names))
            sent = await self._api(
                partial(
                    self.bot.send_photo,
                    chat_id=game.chat_id,
                    photo=BufferedInputFile(sheet, "score.png"),
                    caption=caption[:1024],
                    message_thread_id=game.thread_id or None,
                )
            )
        if sent is not None:
            await self.storage.set_announced(game.id, ended.round_no)

    async def _tell_end(self, game: GameRow, t: Texts, outcome: GameEnded) -> None:
        """The game's end: places and goats in the group, the hands closed."""
        sent = await self._group_text(game, texts.game_end(t, outcome, names_of(game)))
        await self.close_hands(game, "game-over-private")
        if sent is not None:
            await self.storage.set_announced(game.id)

    async def catch_up(self, game: GameRow) -> bool:
        """After a restart: tell the chat what a crash cut off — round results, the game's
        end. Whether anything was owed."""
        owed = [decode(result) for result in await self.storage.owed_rounds(game.id)]
        ended = game.status == "finished" and not game.end_announced
        if not owed and not ended:
            return False
        t = await self.group_texts(game.chat_id)
        for result in owed:
            await self._tell_round(game, t, result, None)
        outcome = game_state(game).outcome
        if ended and outcome is not None:
            await self._tell_end(game, t, outcome)
        return True

    @staticmethod
    def _clock_notes(t: Texts, turn: Turn) -> list[str]:
        """The table says when the computer moved for someone, and when they are away."""
        if turn.timed_out is None:
            return []
        player = turn.game.players[turn.timed_out]
        notes = [t("timed-out", name=player.name)]
        return [*notes, t("away", name=player.name)] if player.away else notes

    async def warn(self, game_id: int, version: int, seconds: int) -> None:
        """The person to move at `version` has `seconds` left (a fresh message: it notifies)."""
        game = await self.storage.game(game_id)
        if game is None or game.status != "active" or game.version != version:
            return
        player = game.players[game_state(game).to_move]
        t = await self.user_texts(player.user_id)
        text = t("turn-warning", seconds=seconds)
        await self._private(
            game, player.user_id, partial(self.bot.send_message, chat_id=player.user_id, text=text)
        )

    async def hands_again(self, game: GameRow, user_id: int) -> None:
        """A player opened the private chat again (e.g. after blocking): resend their hand."""
        seat = game.seat_of(user_id)
        if game.state is None or seat is None:
            return
        await self.show_hand(game, game_state(game), seat, fresh=True)

    async def resync(self, game: GameRow) -> None:
        """After a restart: show the stored state, in case it outran the last messages (a
        round told only now gets a fresh table below its result)."""
        if game.state is None:
            await self.show_lobby(game)
            return
        state = game_state(game)
        if await self.catch_up(game):
            await self.send_table(game, state, ())
        else:
            await self.edit_table(game, state, ())
        for player in game.players:
            if player.human:
                await self.show_hand(game, state, player.seat)

    async def close_hands(self, game: GameRow, key: str) -> None:
        """Every hand message says `key` (in its reader's language) and loses its buttons."""
        for player in game.players:
            if player.human and player.hand_message_id is not None:
                text = (await self.user_texts(player.user_id))(key)
                edit = self._edit_text(player.user_id, player.hand_message_id, text)
                await self._private(game, player.user_id, edit)

    async def _reloaded(self, game: GameRow) -> GameRow:
        fresh = await self.storage.game(game.id)
        return fresh if fresh is not None else game
