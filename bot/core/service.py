"""Game service: lobby and play on top of the engine and the storage.

Every change runs under the game's lock and is committed in one transaction before the
caller sends any message about it. Bad input raises `GameError` with a short answer for
the user; nothing is changed then.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import replace

from bot.ai import Level
from bot.core import journal
from bot.core.errors import (
    GameError,
    RulesError,
    StaleVersionError,
    engine_refusals,
    first_writer_wins,
)
from bot.core.records import (
    Ending,
    GameRow,
    GameStatus,
    LogEntry,
    Player,
    RoundResult,
    Standing,
)
from bot.core.scores import Scores
from bot.core.screen import AfterTurn, Turn
from bot.core.storage import Storage
from bot.core.teams import seating, team_slots
from bot.game.engine import abandon, apply, leave, new_game, next_round, rest_first, time_up
from bot.game.events import EndReason, Event, RoundEnded
from bot.game.moves import Move
from bot.game.rules import RuleError, RuleSet, parse_rules
from bot.game.serial import (
    NEXT_ROUND,
    TIME_UP,
    abandon_entry,
    encode,
    leave_entry,
    rest_entry,
    rules_entry,
)
from bot.game.shuffle import shuffled
from bot.game.state import GameState, Phase


def game_state(game: GameRow) -> GameState:
    """The running game's state (a lobby has none), under today's edition of its rules (a
    game stored by an older version goes on under them: `_commit` logs the change)."""
    state = game.state
    if state is None:
        raise GameError("no-such-game")
    rules = state.rules.current()
    return state if rules is state.rules else state._replace(rules=rules)


AWAY_AFTER = 3
"""Turns in a row timed out after which the seat is away: the computer plays it at once."""
LOBBY_IDLE = 600
"""Seconds a lobby waits without anything happening before it is closed (/extend: more)."""
LOBBY_TRIES = 3
"""Times a lobby change is read and made again when another worker changed the seats."""


class GameService:
    """Lobbies and games of every chat; one instance shared by the handlers.

    `clock` gives the time (epoch seconds) for turn deadlines. Every method that stores a
    turn runs `then` (the after-turn path) under the game's lock once it is committed, so
    its messages, computer moves and clock follow even when answering the press fails.
    """

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        # a lock lives while someone holds it or waits for it: no game's lock is kept after
        # its last press, and a forged id adds nothing that stays
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: presses from different private chats arrive at once."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # -- reading -----------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        return await self.storage.games.game(game_id)

    async def open_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The lobby or running game of a chat (topic)."""
        return await self.storage.games.open_game(chat_id, thread_id)

    async def running_games_of(self, user_id: int) -> list[GameRow]:
        """The running games the user sits in, each read between two turns."""
        running = []
        for game in await self.storage.games.open_games_of(user_id):
            async with self.lock(game.id):
                fresh = await self.storage.games.game(game.id)
            if fresh is not None and fresh.status is GameStatus.ACTIVE:
                running.append(fresh)
        return running

    async def running_ids(self) -> list[int]:
        return await self.storage.games.running_ids()

    @property
    def worker(self) -> str:
        """This worker among those sharing the database (`crew`)."""
        return self.storage.worker

    # -- lobby -------------------------------------------------------------------------

    async def new_lobby(
        self, chat_id: int, thread_id: int, creator: Player, options: str, defaults: str = ""
    ) -> tuple[GameRow, bool]:
        """A lobby for the topic, or (the open game, False) if there is one already.

        `options` as typed after /newgame go on top of the chat's `defaults`; naming a preset
        starts from that preset instead.
        """
        words = options.split()
        if not words or "=" in words[0]:
            options = f"{defaults} {options}"
        try:
            rules = parse_rules(options)
        except RuleError as error:
            raise RulesError(error) from None
        seed = secrets.randbits(48)
        deadline = self._idle_until()
        games = self.storage.games
        game = await games.create_lobby(chat_id, thread_id, creator, rules, seed, deadline)
        if game is not None:
            return game, True
        existing = await self.storage.games.open_game(chat_id, thread_id)
        if existing is None:  # it ended between the two statements
            return await self.new_lobby(chat_id, thread_id, creator, options, defaults)
        return existing, False

    async def lobby(self, game_id: int) -> GameRow:
        """The lobby `game_id`; a game that has started (or ended) refuses lobby actions."""
        return only_lobby(await self.storage.games.game(game_id))

    async def lobby_of(self, game_id: int, user_id: int) -> GameRow:
        """The lobby, for its creator (its settings)."""
        game = await self.lobby(game_id)
        if user_id != game.creator_id:
            raise GameError("not-creator")
        return game

    def _idle_until(self) -> float:
        """A lobby where something just happened waits `LOBBY_IDLE` seconds from now."""
        return self.clock() + LOBBY_IDLE

    async def extend(self, chat_id: int, thread_id: int) -> float:
        """/extend: the topic's lobby waits `LOBBY_IDLE` seconds more; its new deadline."""
        game = await self.storage.games.open_game(chat_id, thread_id)
        if game is None or game.status is not GameStatus.LOBBY:
            raise GameError("no-open-lobby")
        async with self.lock(game.id):
            game = await self.lobby(game.id)
            deadline = max(game.deadline or 0.0, self.clock()) + LOBBY_IDLE
            await self.storage.games.set_deadline(game.id, 0, deadline)
            return deadline

    async def close_idle(self, game_id: int) -> GameRow | None:
        """Cancel the lobby if its time is up; the cancelled game, None if it lives on."""
        async with self.lock(game_id):
            game = await self.storage.games.game(game_id)
            if game is None or game.status is not GameStatus.LOBBY or game.deadline is None:
                return None
            if game.deadline > self.clock():
                return None
            await self.storage.games.cancel(game_id, EndReason.IDLE)
            journal.ended(game, EndReason.IDLE)
            return await self._reload(game_id)

    async def lobby_by_token(self, token: str, user_id: int) -> GameRow:
        """The lobby a deep link names for `user_id` (the game, once it has started, says
        so)."""
        return only_lobby(await self.storage.games.game_by_token(token), user_id)

    async def _reseat(self, game_id: int, change: Callable[[], Awaitable[GameRow]]) -> GameRow:
        """`change()` — read the lobby, write its seats — under the game's lock; read and
        tried again when another worker changed the seats in between."""
        async with self.lock(game_id):
            for _ in range(LOBBY_TRIES - 1):
                with suppress(StaleVersionError):
                    return await change()
            with first_writer_wins():
                return await change()

    async def join(self, game_id: int, player: Player) -> GameRow:
        async def join() -> GameRow:
            game = only_lobby(await self.storage.games.game(game_id), player.user_id)
            seated = list(game.players)
            if game.seat_of(player.user_id) is not None:
                return game
            if len(seated) >= game.rules.most_players:
                raise GameError("lobby-full")
            await self.storage.games.set_seats(game, [*seated, player], self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, join)

    async def add_computer(
        self, game_id: int, user_id: int, level: Level, naming: Callable[[int], str]
    ) -> GameRow:
        """The creator seats a computer player at `level`, named `naming(number)`."""

        async def add() -> GameRow:
            game = await self.lobby_of(game_id, user_id)
            if not (await self.storage.people.chat_settings(game.chat_id)).computers:
                raise GameError("computers-off")
            if len(game.players) >= game.rules.most_players:
                raise GameError("lobby-full")
            computer_id = min([p.user_id for p in game.players] + [0]) - 1
            name = naming(-computer_id)
            computer = Player(len(game.players), computer_id, name, computer=level)
            await self.storage.games.set_seats(game, [*game.players, computer], self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, add)

    async def pick_team(self, game_id: int, user_id: int, team: int) -> GameRow:
        """A seated person picks a team (0-based) in a lobby with teams; again: joining order."""

        async def pick() -> GameRow:
            game = only_lobby(await self.storage.games.game(game_id), user_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise GameError("not-seated")
            if not game.rules.teams or not 0 <= team < team_slots(game.rules):
                raise GameError("no-teams")
            player = game.players[seat]
            picked = None if player.team == team else team
            seats = [replace(p, team=picked) if p.seat == seat else p for p in game.players]
            await self.storage.games.set_seats(game, seats, self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, pick)

    async def leave_lobby(self, game_id: int, user_id: int) -> GameRow:
        async def leave() -> GameRow:
            game = await self.lobby(game_id)
            if game.seat_of(user_id) is None:
                raise GameError("not-seated")
            seats = [p for p in game.players if p.user_id != user_id]
            await self.storage.games.set_seats(game, seats, self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, leave)

    async def set_option(self, game_id: int, user_id: int, key: str, value: str) -> GameRow:
        """The creator changes the preset or an option in the lobby."""
        async with self.lock(game_id):
            game = await self.lobby_of(game_id, user_id)
            text = value if key == "preset" else f"{game.rules.summary()} {key}={value}"
            try:
                rules = parse_rules(text)
            except RuleError as error:
                raise RulesError(error) from None
            await self.storage.games.set_rules(game_id, rules, self._idle_until())
            return await self._reload(game_id)

    async def start(self, game_id: int, user_id: int, then: AfterTurn) -> None:
        """Deal the first round for the players seated now."""
        async with self.lock(game_id):
            game = await self.lobby_of(game_id, user_id)
            humans = [p for p in game.players if p.human]
            if not humans:
                raise GameError("need-a-human")
            started = await self.storage.people.started_users([p.user_id for p in humans])
            waiting = [p.name for p in humans if p.user_id not in started]
            if waiting:
                raise GameError("waiting-for", names=", ".join(waiting))
            try:
                rules = game.rules.with_players(len(game.players)).current()
            except RuleError as error:
                raise RulesError(error, "cannot-start") from None
            with first_writer_wins():  # the seats changed since: «Начать» again
                if rules.teams:
                    game = await self._seat_teams(game, rules)
                tournament = rules.format.seats_by_lot
                if tournament:
                    game = await self._seat_by_lot(game)
                seats = [str(p.user_id) for p in game.players]
                state, events = new_game(rules, seats, game.seed)
                entries: list[LogEntry] = []
                leaders = await self._rating_leaders(game, rules) if tournament else []
                if leaders:
                    state, events = rest_first(state, leaders)
                    entries.append(LogEntry(None, rest_entry(leaders)))
                await self.storage.games.set_rules(game_id, rules)
                game = replace(game, rules=rules)
                clock = rules.minutes * 60 if rules.format.timed else None
                game = await self.storage.games.record(
                    game,
                    entries,
                    state,
                    deadline=self._deadline(game, state),
                    ends_at=None if clock is None else self.clock() + clock,
                )
            journal.started(game)
            await then(Turn(game, None, state, events))

    async def _seat_teams(self, game: GameRow, rules: RuleSet) -> GameRow:
        """The lobby's players reseated so the teams they picked alternate round the table."""
        order = seating([p.team for p in game.players], rules.sides, rules.team_size)
        if order != list(range(len(order))):
            await self.storage.games.set_seats(game, [game.players[i] for i in order])
            game = await self._reload(game.id)
        return game

    async def _seat_by_lot(self, game: GameRow) -> GameRow:
        """The tournament's seating order, fixed for all of it, by lot (§4.2)."""
        order = shuffled(range(len(game.players)), f"{game.seed}:seating")
        await self.storage.games.set_seats(game, [game.players[i] for i in order])
        return await self._reload(game.id)

    async def _rating_leaders(self, game: GameRow, rules: RuleSet) -> list[int]:
        """The seats that sit the tournament's first round out: the chat's rating leaders,
        unrated participants below rated ones, in lot order (§4.2); none (the lot) when no
        participant is rated."""
        resting = rules.players - rules.at_table
        ranked = [row.user_id for row in await Scores(self.storage).ratings(game.chat_id)]
        seats = {p.user_id: p.seat for p in game.players if p.human}
        if resting <= 0 or not any(user in seats for user in ranked):
            return []
        lot = shuffled(range(rules.players), f"{game.seed}:rest-lot")
        rated = [seats[user] for user in ranked if user in seats]
        rest = [seat for seat in lot if seat not in rated]
        return sorted((rated + rest)[:resting])

    async def cancel_lobby(self, game_id: int, user_id: int, admin: bool) -> GameRow:
        """The lobby's ✖ (its creator or a chat admin); a game that has started is ended
        only through /endgame's confirmation."""
        async with self.lock(game_id):
            game = await self.lobby(game_id)
            return await self._cancel(game, user_id, admin, EndReason.CANCELLED)

    async def end_game(self, game_id: int, user_id: int, admin: bool) -> GameRow:
        """/endgame, confirmed: the lobby or running game ends unrated."""
        async with self.lock(game_id):
            game = await self.storage.games.game(game_id)
            if game is None or not game.is_open:
                raise GameError("no-such-game")
            return await self._cancel(game, user_id, admin, EndReason.ENDED)

    async def _cancel(self, game: GameRow, user_id: int, admin: bool, why: EndReason) -> GameRow:
        if user_id != game.creator_id and not admin:
            raise GameError("not-creator-or-admin")
        await self.storage.games.cancel(game.id, why)
        journal.ended(game, why)
        return await self._reload(game.id)

    async def bot_removed(self, chat_id: int) -> list[GameRow]:
        """The bot left the group: its open games are cancelled (and returned)."""
        ended = []
        for game in await self.storage.games.open_games_in(chat_id):
            async with self.lock(game.id):
                if await self.storage.games.cancel(game.id, EndReason.BOT_REMOVED):
                    ended.append(await self._reload(game.id))
        return ended

    async def topic_game(self, chat_id: int, thread_id: int) -> GameRow:
        """The topic's open game (for /endgame, /kick, /leave)."""
        game = await self.storage.games.open_game(chat_id, thread_id)
        if game is None:
            raise GameError("no-open-game")
        return game

    async def remove(self, game: GameRow, user_id: int, then: AfterTurn) -> GameRow | None:
        """The user leaves the lobby (the lobby as it is now), or the running game, where
        the computer takes the seat (None)."""
        if game.status is GameStatus.LOBBY:
            return await self.leave_lobby(game.id, user_id)
        await self.leave_game(game.id, user_id, then)
        return None

    # -- play --------------------------------------------------------------------------

    async def _seated(self, game_id: int, user_id: int) -> tuple[GameRow, GameState, int]:
        """A running game and the user's seat in it."""
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE:
            raise GameError("no-such-game")
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError("not-a-player")
        return game, game_state(game), seat

    async def _my_turn(
        self, game_id: int, user_id: int, version: int
    ) -> tuple[GameRow, GameState, int]:
        game, state, seat = await self._seated(game_id, user_id)
        if state.to_move != seat or state.phase is not Phase.PLAYING:
            raise GameError("not-your-turn")
        if version != game.version:
            raise GameError("stale")
        return game, state, seat

    async def play(
        self, game_id: int, user_id: int, version: int, move: Move, then: AfterTurn
    ) -> None:
        await self.press(game_id, user_id, version, lambda _: move, then)

    async def press(
        self,
        game_id: int,
        user_id: int,
        version: int,
        choose: Callable[[GameState], Move | None],
        then: AfterTurn,
    ) -> GameRow | None:
        """The person to move pressed a button of their hand at `version`; `choose` says
        which move it means in the game's state. The move is played (`then` runs under the
        game's lock) and None returned; a button that means no move yet (which end?) gets
        the game back, unchanged. One read of the game: a press is the busiest path."""
        async with self.lock(game_id):
            game, state, _ = await self._my_turn(game_id, user_id, version)
            move = choose(state)
            if move is None:
                return game
            with engine_refusals():
                after, events = apply(state, move)
            entries = [LogEntry(user_id, encode(move))]
            await then(await self._commit(game, state, after, events, entries))
            return None

    async def present(self, game_id: int, user_id: int) -> GameRow | None:
        """The person pressed one of their buttons: the count of their timed-out turns starts
        again. The game when they had been away (on their turn their clock starts now).
        Someone who left the game stays out."""
        if not await self.storage.games.absent(game_id, user_id):  # every press asks: a small read
            return None
        async with self.lock(game_id):
            game = await self._reload(game_id)
            seat = game.seat_of(user_id)
            assert seat is not None
            if game.state is not None and seat in game.state.left:
                raise GameError("left-game")
            player = game.players[seat]
            back = replace(player, missed=0, away=False)
            players = (*game.players[:seat], back, *game.players[seat + 1 :])
            game = replace(game, players=players)
            moving = game.status is GameStatus.ACTIVE and game_state(game).to_move == seat
            clock = player.away and moving  # their clock starts now
            deadline = self._deadline(game, game_state(game)) if clock else None
            await self.storage.games.back(game_id, seat, clock, game.version, deadline)
            if not player.away:
                return None
            return replace(game, deadline=deadline, owner=self.storage.worker) if clock else game

    async def time_out(
        self,
        game_id: int,
        version: int,
        move: Callable[[GameState, int], Move],
        then: AfterTurn,
    ) -> None:
        """The person to move at `version` ran out of time: `move(state, seat)` is played for
        them; after `AWAY_AFTER` such turns in a row their seat is away."""
        async with self.lock(game_id):
            game = await self.storage.games.game(game_id)
            if game is None or game.status is not GameStatus.ACTIVE or game.version != version:
                return  # they moved, or the game ended, in the meantime
            state = game_state(game)
            seat = state.to_move
            player = game.players[seat]
            if state.phase is not Phase.PLAYING or not player.human:
                return
            chosen = move(state, seat)
            after, events = apply(state, chosen)
            missed = player.missed + 1
            await self.storage.games.set_missed(game_id, seat, missed, missed >= AWAY_AFTER)
            game = await self._reload(game_id)
            entries = [LogEntry(None, encode(chosen))]
            turn = await self._commit(game, state, after, events, entries)
            await then(replace(turn, timed_out=seat))

    async def leave_game(self, game_id: int, user_id: int, then: AfterTurn) -> None:
        """A player leaves a running game (or is removed): the computer plays their seat to
        the end, where the timeout rule settles it (RULES §2.7). When no other person is
        left at the table, the game ends now by that rule."""
        async with self.lock(game_id):
            game, state, seat = await self._seated(game_id, user_id)
            staying = [
                p for p in game.players if p.human and p.seat != seat and p.seat not in state.left
            ]
            events: tuple[Event, ...] = ()
            with engine_refusals():  # e.g. they have left already
                if staying:
                    after, entry = leave(state, seat), leave_entry(seat)
                else:  # nobody would watch the computers finish it
                    (after, events), entry = abandon(state, seat), abandon_entry(seat)
            # the computer plays an away seat; `present` keeps someone who left from coming back
            await self.storage.games.set_missed(game_id, seat, 0, True)
            game = await self._reload(game_id)
            turn = await self._commit(game, state, after, events, [LogEntry(user_id, entry)])
            await then(replace(turn, left=seat))

    async def _commit(
        self,
        game: GameRow,
        before: GameState,
        after: GameState,
        events: tuple[Event, ...],
        entries: list[LogEntry],
    ) -> Turn:
        """Deal on after a round, then store everything in one transaction."""
        kept = game.state
        if kept is not None and kept.rules.edition != before.rules.edition:
            # before the move it allowed
            entries.insert(0, LogEntry(None, rules_entry(before.rules)))
        rounds = [RoundResult(e.round_no, encode(e)) for e in events if isinstance(e, RoundEnded)]
        closed = after if rounds else None
        if after.phase is Phase.ROUND_OVER and self._time_is_up(game):
            after, over = time_up(after)  # «Генерал»: the last round has been played (§8)
            events = (*events, *over)
            entries.append(LogEntry(None, TIME_UP))
        elif after.phase is Phase.ROUND_OVER:
            after, dealt = next_round(after)
            events = (*events, *dealt)
            entries.append(LogEntry(None, NEXT_ROUND))
        ending = None
        if after.outcome is not None:
            seated = {p.seat: p for p in game.players}
            standings = tuple(
                Standing(
                    user_id=seated[p.seat].user_id,
                    seat=p.seat,
                    side=p.side,
                    place=p.place,
                    win=p.place == 1,
                    goat=p.goat,
                    score=p.score,
                    rating_points=p.rating_points,
                )
                for p in after.outcome.places
                if seated[p.seat].human
            )
            rated = all(p.human for p in game.players)  # computers: kept, but not rated
            ending = Ending(after.outcome.reason, standings, rated)
        deadline = self._deadline(game, after)
        with first_writer_wins():
            stored = await self.storage.games.record(game, entries, after, rounds, ending, deadline)
        journal.rounds(stored, events)
        if ending is not None:
            journal.ended(stored, ending.reason)
        return Turn(stored, before, after, events, closed)

    def _time_is_up(self, game: GameRow) -> bool:
        """Whether a match played against the clock («Генерал») has run out of time."""
        return game.ends_at is not None and self.clock() >= game.ends_at

    def _deadline(self, game: GameRow, state: GameState) -> float | None:
        """When the person now to move runs out of time; None when nobody is timed."""
        timeout = state.rules.turn_timeout
        if state.phase is not Phase.PLAYING or not timeout:
            return None
        player = game.players[state.to_move]
        return None if not player.human or player.away else self.clock() + timeout

    async def _reload(self, game_id: int) -> GameRow:
        game = await self.storage.games.game(game_id)
        assert game is not None
        return game


def only_lobby(game: GameRow | None, user_id: int | None = None) -> GameRow:
    """`game` if it is an open lobby; a game that has started (or ended) refuses lobby
    actions, telling `user_id`, when they are seated in it, that they play."""
    if game is None or not game.is_open:
        raise GameError("no-such-game")
    if game.status is not GameStatus.LOBBY:
        seated = user_id is not None and game.seat_of(user_id) is not None
        raise GameError("game-started-seated" if seated else "game-started")
    return game
