"""Tables: the moves of running games — a press, a timeout, a player leaving — each
stored with the round it ends and the next one dealt."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.core import journal
from bot.core.errors import GameError, OvertakenError, engine_refusals, first_writer_wins
from bot.core.guarded import AWAY_AFTER, LockedGames, game_state
from bot.core.rows import Ending, GameRow, GameStatus, LogEntry, RoundResult, standings_of
from bot.core.screen import Turn
from bot.game.choosing import Asking, Choice, meaning
from bot.game.engine import abandon, apply, leave, next_round, time_up
from bot.game.events import Event, RoundEnded
from bot.game.illegal import IllegalMoveError
from bot.game.moves import Move
from bot.game.serial import NEXT_ROUND, TIME_UP, abandon_entry, encode, leave_entry, rules_entry
from bot.game.state import GameState, Phase

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Moved:
    """The choice made a move, now stored."""

    move: Move


@dataclass(frozen=True, slots=True)
class Pending:
    """The choice asks something first (`asking`), of the game as it is (`state`)."""

    game: GameRow
    state: GameState
    asking: Asking


@dataclass(frozen=True, slots=True)
class Returned:
    """The person had been away: their seat is theirs again (as `game` is now)."""

    game: GameRow


Acted = Moved | Pending | Returned
"""What a person's choice at the hand did (`Tables.act`)."""


def _turn_of(game: GameRow, state: GameState, seat: int, version: int) -> None:
    """Refuses unless `seat` is to move in `game` at `version`."""
    if state.to_move != seat or state.phase is not Phase.PLAYING:
        raise GameError("not-your-turn")
    if version != game.version:
        raise GameError("stale")


class Tables(LockedGames):
    """Running games: every turn stored in one transaction, then moved on (`onward.after`)
    under the game's lock, so its messages, computer moves and clock follow even when
    answering the press fails."""

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
        _turn_of(game, state, seat, version)
        return game, state, seat

    async def act(self, game_id: int, user_id: int, version: int, choice: Choice) -> Acted:
        """The one door for what a person does at their hand, any shell alike: `choice` at
        the game's `version`, read once under the game's lock. The move it means is played
        (`Moved`, the game moving on), or the hand asks first (`Pending`, the game unchanged).
        A person back from away gets their seat back instead (`Returned`): nothing played."""
        async with self.lock(game_id):
            game, state, seat = await self._seated(game_id, user_id)
            player = game.players[seat]
            if player.missed or player.away:
                game = await self._present(game, seat)
                if player.away:  # the computer played for them: the seat is theirs again
                    self.onward.follow(game)
                    return Returned(game)
            _turn_of(game, state, seat, version)
            try:
                meant = meaning(state, choice)
            except IllegalMoveError:
                raise GameError("does-not-fit") from None
            if isinstance(meant, Asking):
                return Pending(game, state, meant)
            await self._move(game, state, user_id, meant)
            return Moved(meant)

    async def play(self, game_id: int, user_id: int, version: int, move: Move) -> None:
        """`move` for the seat of `user_id` at `version` (a computer's, an away person's)."""
        async with self.lock(game_id):
            game, state, _ = await self._my_turn(game_id, user_id, version)
            await self._move(game, state, user_id, move)

    async def _move(self, game: GameRow, state: GameState, user_id: int, move: Move) -> None:
        """Play and store `move`, then move the game on (under the game's lock). One read
        of the game before: a press is the busiest path."""
        with engine_refusals():
            after, events = apply(state, move)
        entries = [LogEntry(user_id, encode(move))]
        await self.onward.after(await self._commit(game, state, after, events, entries))

    async def _present(self, game: GameRow, seat: int) -> GameRow:
        """The seat's person pressed one of their buttons, with turns timed out or away
        (under the game's lock): the count starts again, and an away seat is theirs again
        (on their turn their clock starts now). Someone who left the game stays out. The
        game as it is now."""
        if seat in game_state(game).left:
            raise GameError("left-game")
        away = game.players[seat].away
        game = with_missed(game, seat, 0, False)
        state = game_state(game)
        clock = away and state.to_move == seat  # their clock starts now
        deadline = self._deadline(game, state) if clock else None
        await self.storage.games.back(game.id, seat, clock, game.version, deadline)
        return replace(game, deadline=deadline, owner=self.storage.worker) if clock else game

    async def time_out(
        self,
        game_id: int,
        version: int,
        move: Callable[[GameState, int], Move],
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
            game = with_missed(game, seat, missed, missed >= AWAY_AFTER)
            entries = [LogEntry(None, encode(chosen))]
            try:
                turn = await self._commit(game, state, after, events, entries)
            except OvertakenError:
                log.info("game %s: another worker moved turn %s on first", game_id, version)
                return
            await self.onward.after(replace(turn, timed_out=seat))

    async def leave_game(self, game_id: int, user_id: int) -> None:
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
            game = with_missed(game, seat, 0, True)
            turn = await self._commit(game, state, after, events, [LogEntry(user_id, entry)])
            await self.onward.after(replace(turn, left=seat))

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
            standings = standings_of(after.outcome.places, game.players)
            rated = all(p.human for p in game.players)  # computers: kept, but not rated
            ending = Ending(after.outcome.reason, standings, rated, at=self.clock())
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


def with_missed(game: GameRow, seat: int, missed: int, away: bool) -> GameRow:
    """`game` as read, with the seat's count of timed-out turns and its away flag as just
    stored: not read again, so the turn is stored only if the game is still at the version
    its move was made from (a reload would hide another worker's turn in between)."""
    player = replace(game.players[seat], missed=missed, away=away)
    return replace(game, players=(*game.players[:seat], player, *game.players[seat + 1 :]))
