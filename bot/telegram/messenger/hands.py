"""Each player's private hand message: tiles as buttons, the legal ones marked on their
turn; its questions (which end, open or closed, a move of several doubles as it is built);
the turn clock's warning; a last text once they are out."""

from __future__ import annotations

import asyncio
from typing import Any

from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup

from bot.core.presence import Presence
from bot.core.rows import GameRow, GameStatus, Player
from bot.game.state import GameState, Phase
from bot.game.tiles import tiles_of
from bot.game.view import seat_view
from bot.telegram.keyboards import hand_keyboard, review_keyboard
from bot.telegram.messenger.gateway import Gateway
from bot.telegram.messenger.hand_news import HandNews
from bot.telegram.private_sends import later_message, unheard
from bot.ui import texts
from bot.ui.farewell import PLAIN, farewell
from bot.ui.sheet_kinds import WAITING, sheet_of

LEFT = "hand-left"
"""What the hand of someone who left the game says from then on."""
AT_THE_TABLE = 120.0
"""Seconds after a person's own move during which their next turn is shown in place (they
are playing: their hand is in front of them); later it comes as a new message, which
notifies."""
COMING_BACK = 60.0
"""Seconds after a person left the app during which their hand counts as on its way (the
watchdog, which looks every 30 s, leaves it to the job bringing it up to date)."""


class Hands:
    """Each player's hand message. A person following the game in the table app
    (`Presence`) is spared its edits and fresh messages while they are there: the moment
    they leave it (their phone put the app away, or they closed it) it is brought up to
    date — as a fresh message, which notifies, if it is their turn."""

    def __init__(self, gateway: Gateway, presence: Presence) -> None:
        self.gateway = gateway
        self.storage = gateway.storage
        self.presence = presence
        self._moved_at: dict[tuple[int, int], float] = {}  # (game, seat) → their last move
        # (game, seat) → the move number whose buttons the hand shows, or is on its way with
        self._shown: dict[tuple[int, int], int] = {}
        self._posted: dict[tuple[int, int], int] = {}
        # (game, user) → when they left the app, their hand not yet brought up to date here
        self._coming_back: dict[tuple[int, int], float] = {}
        # (game, seat) → the move number and tiles drawn its hand last told of
        self._drawn: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        courier = gateway.courier
        courier.kind("hand", self._hand, _newer)
        courier.kind("choice", self._swap)
        courier.kind("warning", self._warning)
        courier.kind("notice", self._notice)
        courier.kind("below", self._below, _later)
        courier.kind("back", self._back)
        presence.on_left(self._left_the_app)

    def show_changed(
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
            if state.is_out(seat):
                if before is not None and not before.is_out(seat):
                    self.show(game, seat, HandNews(None, game.version, closing=_out(state)))
                continue
            if seat in state.resting:
                if before is None or before.round_no != state.round_no:
                    self.show(game, seat, HandNews(None, game.version, closing=_waiting(state)))
                continue
            if before is not None and seat in before.resting and before.round_no != state.round_no:
                self.gateway.courier.post(
                    player.user_id, "notice", (game.id, player.user_id, "plays-again")
                )
            if self.presence.here(game.id, player.user_id):
                continue  # they see it in the app; their hand follows when they leave it
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
                self.show(game, seat, news)

    def note_move(self, game: GameRow, seat: int, timed_out: int | None) -> None:
        """Remember when a person moved (not the clock, not the computer of an away seat)."""
        mover = game.players[seat]
        if timed_out is None and mover.human and not mover.away:
            self._moved_at[game.id, seat] = asyncio.get_running_loop().time()

    def _at_the_table(self, game_id: int, seat: int) -> bool:
        moved = self._moved_at.get((game_id, seat))
        return moved is not None and asyncio.get_running_loop().time() - moved < AT_THE_TABLE

    def show(self, game: GameRow, seat: int, news: HandNews) -> None:
        """Post one player's hand message (its newest state)."""
        user_id = game.players[seat].user_id
        state = news.state
        to_move = state is None or (state.phase is Phase.PLAYING and state.to_move == seat)
        if news.closing is None:
            key = (game.id, seat)
            self._posted[key] = max(self._posted.get(key, -1), news.version)
        self.gateway.courier.post(
            user_id, "hand", (game.id, seat, news), ("hand", game.id, seat), to_move
        )

    def is_live(self, game: GameRow) -> bool:
        """Whether the person to move has a hand with buttons for the game's move number,
        shown or on its way, or has the game open in the app (or just left it: their hand
        is being brought up to date)."""
        assert game.state is not None
        key = (game.id, game.state.to_move)
        user_id = game.players[game.state.to_move].user_id
        if self.presence.here(game.id, user_id) or self._is_coming_back(game.id, user_id):
            return True
        return max(self._shown.get(key, -1), self._posted.get(key, -1)) >= game.version

    def _is_coming_back(self, game_id: int, user_id: int) -> bool:
        """Whether the person left the app lately and their hand is on its way (for at
        most `COMING_BACK` seconds: another worker may be the one bringing it)."""
        left = self._coming_back.get((game_id, user_id))
        return left is not None and asyncio.get_running_loop().time() - left < COMING_BACK

    def _left_the_app(self, game_id: int, user_id: int) -> None:
        now = asyncio.get_running_loop().time()
        for key, left in list(self._coming_back.items()):
            if now - left >= COMING_BACK:
                del self._coming_back[key]
        self._coming_back[game_id, user_id] = now
        self.gateway.courier.post(user_id, "back", (game_id, user_id), ("back", game_id, user_id))

    async def _back(self, job: tuple[int, int]) -> None:
        """A person left the app: their hand as the game is now, if it shows an older move
        (fresh if it is their turn, so that it notifies; else edited in place)."""
        game_id, user_id = job
        try:
            await self._bring_back(game_id, user_id)
        finally:  # its hand is posted, or needs none (a failure: the watchdog's to repair)
            self._coming_back.pop((game_id, user_id), None)

    async def _bring_back(self, game_id: int, user_id: int) -> None:
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE or game.state is None:
            return
        state, seat = game.state, game.seat_of(user_id)
        if seat is None or seat in state.left or state.is_out(seat) or seat in state.resting:
            return
        if self._shown.get((game_id, seat), -1) >= game.version or (
            await self.presence.confirmed(game_id, user_id)
        ):
            return  # the hand is current, or they are back in the app already
        moving = state.phase is Phase.PLAYING and state.to_move == seat
        self.show(game, seat, HandNews(state, game.version, fresh=moving))

    async def _hand(self, job: tuple[int, int, HandNews]) -> None:
        game_id, seat, news = job
        try:
            with unheard():  # what the others are followed by
                await self._draw(game_id, seat, news)
        finally:  # done, or failed: no longer on its way (a retry posts it again)
            if self._posted.get((game_id, seat), -1) <= news.version:
                self._posted.pop((game_id, seat), None)

    async def _draw(self, game_id: int, seat: int, news: HandNews) -> None:
        """One player's hand message: tiles as buttons, legal ones marked on their turn; or
        the closing text without buttons."""
        game = await self.storage.games.game(game_id)
        if game is None:
            return
        player = game.players[seat]
        user_id, old = player.user_id, player.hand_message_id
        t = await self.gateway.user_texts(user_id)
        if news.closing is not None or news.state is None:
            over = news.closing in (None, PLAIN)  # the game's end: its result for this seat
            text = farewell(t, game.state, seat) if over else t(news.closing or PLAIN)
            finished = over and game.status is GameStatus.FINISHED
            markup = review_keyboard(t, game.id) if finished else None
            if old is not None:
                edit = EditMessageText(
                    chat_id=user_id, message_id=old, text=text, reply_markup=markup
                )
                await self.gateway.private(game, user_id, edit)
            elif news.closing in WAITING:  # the first round sat out: a quiet word
                send = SendMessage(chat_id=user_id, text=text, disable_notification=True)
                sent = await self.gateway.private(game, user_id, send)
                if sent is not None:
                    await self.gateway.references.set_hand_message(game.id, seat, sent.message_id)
            return
        shown = self._shown.get((game_id, seat), -1)
        if game.status is not GameStatus.ACTIVE or news.version < shown:
            return  # over, or older news than the hand shows (told late by another worker)
        if self.presence.here(game_id, user_id):
            return  # they opened the app since: it follows them when they leave
        view = seat_view(news.state, seat)
        hand = list(tiles_of(view.hand))
        keyboard = hand_keyboard(
            t, game.id, news.version, news.state.rules, hand, view.legal_moves()
        )
        text = texts.hand(t, news.state, seat, news.drawn)
        self._drawn[game.id, seat] = (news.version, news.drawn)
        if old is not None and not news.fresh and not news.below:
            edit = EditMessageText(
                chat_id=user_id, message_id=old, text=text, reply_markup=keyboard
            )
            done = await self.gateway.private(game, user_id, edit)
            if done:
                self._shown[game.id, seat] = news.version
            if done is not False:
                return  # edited (or the chat is closed: nothing else would reach it)
        moving = news.state.phase is Phase.PLAYING and news.state.to_move == seat
        quiet = not moving or (news.below and not news.fresh)
        send = SendMessage(
            chat_id=user_id, text=text, reply_markup=keyboard, disable_notification=quiet
        )
        sent = await self.gateway.private(game, user_id, send)
        if sent is None:  # they closed the chat: the group has been told, the clock goes on
            self._shown[game.id, seat] = news.version  # (and /start sends the hand again)
            return  # the old hand stays: its buttons still answer (stale ones say so)
        await self.gateway.references.set_hand_message(game.id, seat, sent.message_id)
        self._shown[game.id, seat] = news.version
        if old is not None:
            await self.gateway.delete(user_id, old)

    def show_choice(
        self,
        game: GameRow,
        seat: int,
        pressed: int,
        keyboard: InlineKeyboardMarkup,
        building: str | None = None,
    ) -> None:
        """Swap a hand's buttons (a question: which end, open or closed, the doubles of a
        move) without touching the game, with the move `building` under the hand's text: on
        the hand as stored when the swap goes out, behind any hand job before it in the lane
        (a hand sent anew while the tile was pressed is the one the person has; `pressed`
        only if none is stored). Not once the game has moved on."""
        user_id = game.players[seat].user_id
        self.gateway.courier.post(
            user_id, "choice", (game.id, seat, game.version, pressed, keyboard, building)
        )

    async def _swap(self, job: tuple[Any, ...]) -> None:
        # an older version's swap has no move being built
        game_id, seat, version, pressed, keyboard, building = (*job, None)[:6]
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE or game.version != version:
            return  # the turn is over: the hand shows what came of it
        assert game.state is not None
        user_id = game.players[seat].user_id
        message_id = game.players[seat].hand_message_id or pressed
        t = await self.gateway.user_texts(user_id)
        told, drawn = self._drawn.get((game_id, seat), (-1, ()))
        tiles_shown = building is None  # else the buttons ask a question, told below
        text = texts.hand(t, game.state, seat, drawn if told == version else (), tiles_shown)
        if building is not None:
            text = f"{text}\n\n{building}"
        swap = EditMessageText(
            chat_id=user_id, message_id=message_id, text=text, reply_markup=keyboard
        )
        await self.gateway.private(game, user_id, swap)

    def again(self, game: GameRow, user_id: int) -> None:
        """A player opened the private chat again (e.g. after blocking): resend their hand."""
        seat = game.seat_of(user_id)
        if game.state is None or seat is None or seat in game.state.left:
            return
        if game.state.is_out(seat):
            self.show(game, seat, HandNews(None, game.version, closing=_out(game.state)))
            return
        if seat in game.state.resting:
            self.show(game, seat, HandNews(None, game.version, closing=_waiting(game.state)))
            return
        self.show(game, seat, HandNews(game.state, game.version, fresh=True))

    def below(self, user_id: int, message_id: int | None) -> None:
        """Something else went to a person's private chat (`PrivateSends`): the hands of
        their running games follow it."""
        self.gateway.courier.post(user_id, "below", (user_id, message_id), ("below", user_id))

    async def _below(self, job: tuple[int, int | None]) -> None:
        """Each hand with buttons of the person's running games that `message_id` (None:
        not known) went below is sent anew, quietly — the one whose turn it is last."""
        user_id, message_id = job
        games = await self.storage.games.open_games_of(user_id)
        for game in sorted(games, key=lambda game: _moving(game, user_id)):
            seat, state = game.seat_of(user_id), game.state
            if game.status is not GameStatus.ACTIVE or state is None or seat is None:
                continue
            if seat in state.left or state.is_out(seat) or seat in state.resting:
                continue
            if self.presence.here(game.id, user_id):
                continue  # it follows them when they leave the app
            old = game.players[seat].hand_message_id
            if old is None or (message_id is not None and old > message_id):
                continue  # none yet (it comes below anyway), or below already
            told, drawn = self._drawn.get((game.id, seat), (-1, ()))
            same = drawn if told == game.version else ()
            self.show(game, seat, HandNews(state, game.version, same, below=True))

    def close(self, game: GameRow, key: str) -> None:
        """Every hand message says `key` (in its reader's language) and loses its buttons."""
        for player in game.players:
            for known in (self._moved_at, self._shown, self._posted, self._drawn):
                known.pop((game.id, player.seat), None)
            if player.human:
                self.show(game, player.seat, HandNews(None, game.version, closing=key))

    async def warn(self, game_id: int, version: int, seconds: int) -> None:
        """The person to move at `version` has `seconds` left (a message of its own: it
        notifies; not sent once the turn is over)."""
        moving = await self._mover_at(game_id, version)
        if moving is not None:
            user_id = moving[1].user_id
            self.gateway.courier.post(user_id, "warning", (game_id, version, seconds))

    async def _warning(self, job: tuple[int, int, int]) -> None:
        game_id, version, seconds = job
        moving = await self._mover_at(game_id, version)
        if moving is None:
            return
        game, player = moving
        t = await self.gateway.user_texts(player.user_id)
        send = SendMessage(chat_id=player.user_id, text=t("turn-warning", seconds=seconds))
        await self.gateway.private(game, player.user_id, send)

    async def _notice(self, job: tuple[int, int, str]) -> None:
        """A short private message of its own (it notifies), e.g. «you play next round»."""
        game_id, user_id, key = job
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE:
            return
        t = await self.gateway.user_texts(user_id)
        await self.gateway.private(game, user_id, SendMessage(chat_id=user_id, text=t(key)))

    async def _mover_at(self, game_id: int, version: int) -> tuple[GameRow, Player] | None:
        """The game and its player to move, while the game is still at `version`."""
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE or game.version != version:
            return None
        assert game.state is not None
        return game, game.players[game.state.to_move]


def _newer(
    older: tuple[int, int, HandNews], newer: tuple[int, int, HandNews]
) -> tuple[int, int, HandNews]:
    return newer[0], newer[1], older[2].then(newer[2])


def _later(older: tuple[int, int | None], newer: tuple[int, int | None]) -> tuple[int, int | None]:
    """Two waiting `below` jobs: one for the later message."""
    return newer[0], later_message(older[1], newer[1])


def _moving(game: GameRow, user_id: int) -> bool:
    state = game.state
    return state is not None and game.players[state.to_move].user_id == user_id


def _out(state: GameState) -> str:
    """What the hand of someone the game put out says from then on."""
    return sheet_of(state.rules).hand_out


def _waiting(state: GameState) -> str:
    """What the hand of someone sitting a round out says during it."""
    return sheet_of(state.rules).hand_waiting
