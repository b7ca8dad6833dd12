"""The Telegram side of a game: the lobby, the table picture, the private hands.

Nothing here waits for Telegram: each message is posted to its chat's lane in the `Outbox`
(paced, and coalesced so that the table and each hand show only their newest state), and
the job reads the game as stored when it runs (message ids, names). A job sends a fresh
message when an old one cannot be edited, follows a group that became a supergroup, and
turns a 403 from a player's private chat into one notice in the group.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat
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
from bot.outbox import Outbox
from bot.scenes import score_sheet, table_scene
from bot.service import LOBBY_IDLE, Turn, game_rules, game_state
from bot.storage import GameRow, Player, Storage
from render import render_score_sheet, render_table

log = logging.getLogger(__name__)
T = TypeVar("T")
ATTEMPTS = 3  # for moves to a supergroup
GONE = ("message to edit not found", "message can't be edited", "message to delete not found")
LEFT = "hand-left"
"""What the hand of someone who left the game says from then on."""
AT_THE_TABLE = 120.0
"""Seconds after a person's own move during which their next turn is shown in place (they
are playing: their hand is in front of them); later it comes as a new message, which
notifies."""


def names_of(game: GameRow) -> list[str]:
    return [p.name for p in game.players]


async def _edited(edit: Awaitable[object]) -> bool:
    """Whether an edit went through; False when its message is gone or too old to edit
    (then a new message is sent instead)."""
    try:
        await edit
    except TelegramBadRequest as error:
        if any(reason in error.message for reason in GONE):
            return False
        raise
    return True


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a supergroup message (basic groups have none)."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"


@dataclass(frozen=True, slots=True)
class TableNews:
    """What the table message of a round should show; a newer one replaces it while it
    waits (its notes are kept, and a fresh message stays fresh)."""

    state: GameState
    events: tuple[Event, ...]
    notes: tuple[str, ...] = ()
    fresh: bool = False  # a new message (a new round, or after a restart's owed results)

    def then(self, newer: TableNews) -> TableNews:
        notes = self.notes + tuple(n for n in newer.notes if n not in self.notes)
        return TableNews(newer.state, newer.events, notes, self.fresh or newer.fresh)


@dataclass(frozen=True, slots=True)
class HandNews:
    """What a player's hand message should show: their hand at `version`, or (`closing`)
    a last text without buttons. A waiting one takes the newer state, keeps the tiles drawn
    in the same round, and a fresh message (their turn: it notifies) stays fresh."""

    state: GameState | None
    version: int
    drawn: tuple[int, ...] = ()
    fresh: bool = False
    closing: str | None = None

    def then(self, newer: HandNews) -> HandNews:
        if newer.closing is not None or self.state is None or newer.state is None:
            return newer
        same_round = self.state.round_no == newer.state.round_no
        drawn = self.drawn + newer.drawn if same_round else newer.drawn
        return HandNews(newer.state, newer.version, drawn, self.fresh or newer.fresh)


class Messenger:
    """Posts and edits a game's messages; shared through the dispatcher."""

    def __init__(self, bot: Bot, storage: Storage, username: str, outbox: Outbox) -> None:
        self.bot = bot
        self.storage = storage
        self.username = username
        self.outbox = outbox
        self._moved_at: dict[tuple[int, int], float] = {}  # (game, seat) → their last move

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

    async def _api(self, make: Callable[[], Awaitable[T]]) -> T:
        """Call Telegram (paced and retried by the session's `Pacing`); a group that became
        a supergroup is followed there."""
        moves = 0
        while True:
            try:
                return await make()
            except TelegramMigrateToChat as error:
                moves += 1
                if moves > ATTEMPTS:
                    raise
                make = await self._moved(make, error.migrate_to_chat_id)

    async def _moved(
        self, make: Callable[[], Awaitable[T]], new_id: int
    ) -> Callable[[], Awaitable[T]]:
        """The group became a supergroup: move its games and send there instead."""
        if not isinstance(make, partial) or "chat_id" not in make.keywords:
            raise RuntimeError(f"cannot follow a chat to {new_id}")
        await self.storage.migrate_chat(make.keywords["chat_id"], new_id)
        return partial(make.func, *make.args, **{**make.keywords, "chat_id": new_id})

    # -- lobby -------------------------------------------------------------------------

    def show_lobby(self, game: GameRow, settings: bool = False) -> None:
        """Post the lobby, or edit it in place (its newest state)."""
        job = partial(self._lobby, game.id)
        self.outbox.post(game.chat_id, job, settings, key=("lobby", game.id))

    async def _lobby(self, game_id: int, settings: bool) -> None:
        game = await self.storage.game(game_id)
        if game is None or game.status != "lobby":
            return
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

    def call_waiters(self, game: GameRow, title: str) -> None:
        """Tell everyone who asked with /nextgame, once, that a table is being gathered
        (after the lobby message is out, so the ping links to it)."""
        self.outbox.post(game.chat_id, partial(self._call_waiters, game.id), title)

    async def _call_waiters(self, game_id: int, title: str) -> None:
        game = await self.storage.game(game_id)
        if game is None:
            return
        link = message_link(game.chat_id, game.lobby_message_id)
        for user_id in await self.storage.take_waiters(game.chat_id):
            self.outbox.post(user_id, partial(self._ping, user_id, link), title)

    async def _ping(self, user_id: int, link: str | None, title: str) -> None:
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

    def close_lobby(self, game: GameRow, key: str, **values: str | int) -> None:
        """The lobby message says what happened (catalog text `key`) and loses its buttons."""
        job = partial(self._close_lobby, game.id)
        self.outbox.post(game.chat_id, job, (key, values), key=("lobby", game.id))

    async def _close_lobby(self, game_id: int, text: tuple[str, dict[str, str | int]]) -> None:
        game = await self.storage.game(game_id)
        if game is None or game.lobby_message_id is None:
            return
        key, values = text
        said = (await self.group_texts(game.chat_id))(key, **values)
        try:
            await self._api(self._edit_text(game.chat_id, game.lobby_message_id, said))
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

    def show_table(self, game: GameRow, news: TableNews) -> None:
        """The round's table message: edited in place, or a new one when `news.fresh`."""
        key = ("table", game.id, news.state.round_no)
        job = partial(self._table, game.id)
        self.outbox.post(game.chat_id, job, news, key=key, merge=TableNews.then, urgent=news.fresh)

    async def _table(self, game_id: int, news: TableNews) -> None:
        game = await self.storage.game(game_id)
        if game is None:
            return
        t = await self.group_texts(game.chat_id)
        scene = table_scene(t, news.state, names_of(game))
        photo = BufferedInputFile(await asyncio.to_thread(render_table, scene), "table.png")
        caption = texts.table_caption(t, news.state, names_of(game), news.events, news.notes)
        if not news.fresh and game.table_message_id is not None:
            media = InputMediaPhoto(media=photo, caption=caption)
            edit = partial(
                self.bot.edit_message_media,
                chat_id=game.chat_id,
                message_id=game.table_message_id,
                media=media,
            )
            if await _edited(self._api(edit)):
                return
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
                job = partial(self._unreachable, game.id)
                self.outbox.post(game.chat_id, job, name)
            return None

    async def _unreachable(self, game_id: int, name: str) -> None:
        game = await self.storage.game(game_id)
        if game is None:
            return
        t = await self.group_texts(game.chat_id)
        button = InlineKeyboardButton(text=t("open-bot"), url=self.start_url())
        await self._group_text(
            game,
            t("unreachable", name=name, url=self.start_url()),
            InlineKeyboardMarkup(inline_keyboard=[[button]]),
        )

    def show_hands(
        self,
        game: GameRow,
        state: GameState,
        before: GameState | None,
        drawn: dict[int, tuple[int, ...]],
    ) -> None:
        """The hands that changed. The seat to move gets a new message, which notifies —
        unless they made a move in the last `AT_THE_TABLE` seconds: then it is edited in
        place like every other hand."""
        for player in game.players:
            seat = player.seat
            if not player.human or seat in state.left:
                continue
            moving = state.phase is Phase.PLAYING and state.to_move == seat
            changed = (
                before is None
                or before.round_no != state.round_no
                or before.hands[seat] != state.hands[seat]
                or seat in (before.to_move, state.to_move)
            )
            if changed:
                fresh = (
                    moving
                    and (
                        before is None
                        or before.to_move != seat
                        or before.round_no != state.round_no
                    )
                    and not self._at_the_table(game.id, seat)
                )
                news = HandNews(state, game.version, drawn.get(seat, ()), fresh)
                self.show_hand(game, seat, news)

    def _note_move(self, game: GameRow, seat: int, timed_out: int | None) -> None:
        """Remember when a person moved (not the clock, not the computer of an away seat)."""
        mover = game.players[seat]
        if timed_out is None and mover.human and not mover.away:
            self._moved_at[game.id, seat] = asyncio.get_running_loop().time()

    def _at_the_table(self, game_id: int, seat: int) -> bool:
        moved = self._moved_at.get((game_id, seat))
        return moved is not None and asyncio.get_running_loop().time() - moved < AT_THE_TABLE

    def show_hand(self, game: GameRow, seat: int, news: HandNews) -> None:
        """Post one player's hand message (its newest state)."""
        user_id = game.players[seat].user_id
        job = partial(self._hand, game.id, seat)
        state = news.state
        to_move = state is None or (state.phase is Phase.PLAYING and state.to_move == seat)
        key = ("hand", game.id, seat)
        self.outbox.post(user_id, job, news, key=key, merge=HandNews.then, urgent=to_move)

    async def _hand(self, game_id: int, seat: int, news: HandNews) -> None:
        """One player's hand message: tiles as buttons, legal ones marked on their turn; or
        the closing text without buttons."""
        game = await self.storage.game(game_id)
        if game is None:
            return
        player = game.players[seat]
        user_id, old = player.user_id, player.hand_message_id
        t = await self.user_texts(user_id)
        if news.closing is not None or news.state is None:
            if old is not None:
                edit = self._edit_text(user_id, old, t(news.closing or "game-over-private"))
                await self._private(game, user_id, edit)
            return
        if game.status != "active":
            return
        view = seat_view(news.state, seat)
        hand = list(tiles_of(view.hand))
        keyboard = hand_keyboard(
            t, game.id, news.version, news.state.rules, hand, view.legal_moves()
        )
        text = texts.hand(t, news.state, seat, news.drawn)
        if old is not None and not news.fresh:
            edit = self._edit_text(user_id, old, text, keyboard)
            if await _edited(self._private(game, user_id, edit)):
                return
        quiet = news.state.phase is not Phase.PLAYING or news.state.to_move != seat
        send = partial(
            self.bot.send_message,
            chat_id=user_id,
            text=text,
            reply_markup=keyboard,
            disable_notification=quiet,
        )
        sent = await self._private(game, user_id, send)
        if sent is None:
            return  # the old hand stays: its buttons still answer (stale ones say so)
        await self.storage.set_hand_message(game.id, seat, sent.message_id)
        if old is not None:
            await self._delete(user_id, old)

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self._api(
                partial(self.bot.delete_message, chat_id=chat_id, message_id=message_id)
            )
        except (TelegramBadRequest, TelegramForbiddenError) as error:
            log.info("message %s in %s not deleted: %s", message_id, chat_id, error)

    def show_choice(
        self, game: GameRow, user_id: int, message_id: int, keyboard: InlineKeyboardMarkup
    ) -> None:
        """Swap a hand's buttons (asking which end) without touching the game."""
        swap = partial(
            self.bot.edit_message_reply_markup,
            chat_id=user_id,
            message_id=message_id,
            reply_markup=keyboard,
        )
        self.outbox.post(user_id, partial(self._private, game, user_id), swap)

    # -- after every accepted action ---------------------------------------------------

    async def show_turn(self, turn: Turn) -> None:
        """Post the table, round results, game end and hands after `turn` (stored)."""
        game, names = turn.game, names_of(turn.game)
        if turn.before is None:
            self.close_lobby(game, "game-started-players", names=", ".join(names))
        elif turn.left is None:
            self._note_move(game, turn.before.to_move, turn.timed_out)
        else:
            self.show_hand(game, turn.left, HandNews(None, game.version, closing=LEFT))
        closed = turn.closed
        t = await self.group_texts(game.chat_id)
        notes = self._notes(t, turn)
        self.show_table(game, TableNews(closed or turn.state, turn.events, notes))
        for ended in turn.rounds:
            self._tell_round(game, ended, closed)
        outcome = turn.ended
        if outcome is not None:
            self._tell_end(game, outcome)
            return
        if closed is not None:
            self.show_table(game, TableNews(turn.state, turn.events, fresh=True))
        self.show_hands(game, turn.state, turn.before, turn.drawn)

    def _tell_round(self, game: GameRow, ended: RoundEnded, closed: GameState | None) -> None:
        """A round's result: the score sheet picture with the hands (as plain text when the
        round's last state is gone, after a restart); marked as told once it is sent."""
        self.outbox.post(game.chat_id, partial(self._round_result, game.id, ended), closed)

    async def _round_result(
        self, game_id: int, ended: RoundEnded, closed: GameState | None
    ) -> None:
        game = await self.storage.game(game_id)
        if game is None:
            return
        t = await self.group_texts(game.chat_id)
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

    def _tell_end(self, game: GameRow, outcome: GameEnded) -> None:
        """The game's end: places and goats in the group, the hands closed."""
        self.outbox.post(game.chat_id, partial(self._game_end, game.id), outcome)
        self.close_hands(game, "game-over-private")

    async def _game_end(self, game_id: int, outcome: GameEnded) -> None:
        game = await self.storage.game(game_id)
        if game is None:
            return
        t = await self.group_texts(game.chat_id)
        sent = await self._group_text(game, texts.game_end(t, outcome, names_of(game)))
        if sent is not None:
            await self.storage.set_announced(game.id)

    async def catch_up(self, game: GameRow) -> bool:
        """After a restart: tell the chat what a crash cut off — round results, the game's
        end. Whether anything was owed."""
        owed = [decode(result) for result in await self.storage.owed_rounds(game.id)]
        ended = game.status == "finished" and not game.end_announced
        for result in owed:
            self._tell_round(game, result, None)
        outcome = game_state(game).outcome if ended else None
        if outcome is not None:
            self._tell_end(game, outcome)
        return bool(owed) or ended

    @staticmethod
    def _notes(t: Texts, turn: Turn) -> tuple[str, ...]:
        """The table says when someone left, when the computer moved for someone, and when
        they are away."""
        if turn.left is not None and turn.ended is None:
            return (t("left-game-note", name=turn.game.players[turn.left].name),)
        if turn.timed_out is None:
            return ()
        player = turn.game.players[turn.timed_out]
        notes = (t("timed-out", name=player.name),)
        return (*notes, t("away", name=player.name)) if player.away else notes

    async def warn(self, game_id: int, version: int, seconds: int) -> None:
        """The person to move at `version` has `seconds` left (a message of its own: it
        notifies; not sent once the turn is over)."""
        moving = await self._mover_at(game_id, version)
        if moving is not None:
            user_id = moving[1].user_id
            self.outbox.post(user_id, partial(self._warning, game_id, version), seconds)

    async def _warning(self, game_id: int, version: int, seconds: int) -> None:
        moving = await self._mover_at(game_id, version)
        if moving is None:
            return
        game, player = moving
        t = await self.user_texts(player.user_id)
        send = partial(
            self.bot.send_message, chat_id=player.user_id, text=t("turn-warning", seconds=seconds)
        )
        await self._private(game, player.user_id, send)

    async def _mover_at(self, game_id: int, version: int) -> tuple[GameRow, Player] | None:
        """The game and its player to move, while the game is still at `version`."""
        game = await self.storage.game(game_id)
        if game is None or game.status != "active" or game.version != version:
            return None
        return game, game.players[game_state(game).to_move]

    def hands_again(self, game: GameRow, user_id: int) -> None:
        """A player opened the private chat again (e.g. after blocking): resend their hand."""
        seat = game.seat_of(user_id)
        if game.state is None or seat is None or seat in game_state(game).left:
            return
        self.show_hand(game, seat, HandNews(game_state(game), game.version, fresh=True))

    async def resync(self, game: GameRow) -> None:
        """After a restart: show the stored state, in case it outran the last messages (a
        round told only now gets a fresh table below its result; the player to move gets
        their hand anew, which notifies)."""
        if game.state is None:
            self.show_lobby(game)
            return
        state = game_state(game)
        owed = await self.catch_up(game)
        self.show_table(game, TableNews(state, (), fresh=owed))
        for player in game.players:
            if not player.human:
                continue
            if player.seat in state.left:
                news = HandNews(None, game.version, closing=LEFT)
            else:  # the mover's anew: below any hand a crash left unrecorded
                moving = state.phase is Phase.PLAYING and state.to_move == player.seat
                news = HandNews(state, game.version, fresh=moving)
            self.show_hand(game, player.seat, news)

    def close_hands(self, game: GameRow, key: str) -> None:
        """Every hand message says `key` (in its reader's language) and loses its buttons."""
        for player in game.players:
            self._moved_at.pop((game.id, player.seat), None)
            if player.human:
                self.show_hand(game, player.seat, HandNews(None, game.version, closing=key))
