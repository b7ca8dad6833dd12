"""After a move: the next seat with a decision to make, drawing from the bazaar and
knocking on the way (automatic), and a round that ends when nobody can move (RULES §1.4)."""

from __future__ import annotations

from bot.game.ending import end_round
from bot.game.events import (
    Event,
    Knocked,
    Passed,
    PublicEvent,
    RoundEnd,
    TilesDrawn,
)
from bot.game.illegal import Illegal, IllegalMoveError
from bot.game.kinds import DrawMode
from bot.game.legal import may_draw
from bot.game.order import gone_out, next_in_circle, next_seat, seats_in
from bot.game.scoring import Tally
from bot.game.state import GameState, Phase, from_fields
from bot.game.table import (
    Spread,
)
from bot.game.tiles import Tile

PASS_CIRCLES = 3  # with voluntary passes: full circles of passes in a row that end a round


def turn_state(
    state: GameState,
    hands: tuple[int, ...],
    bazaar: tuple[Tile, ...],
    ends: tuple[int, ...],
    on_table: int,
    fits: int,
    to_move: int,
    drawn: int,
    idle: int,
    last_player: int | None,
    history: tuple[PublicEvent, ...],
    spread: Spread,
    tally: Tally | None = None,
) -> GameState:
    """The round goes on with `to_move` to decide (built directly: this is the hot path);
    `tally`: the sheet after points scored in play."""
    return from_fields(
        GameState,
        (
            state.rules,
            state.seats,
            state.seed,
            state.round_no,
            Phase.PLAYING,
            hands,
            bazaar,
            ends,
            on_table,
            fits,
            to_move,
            None,
            drawn,
            idle,
            last_player,
            history,
            state.tally if tally is None else tally,
            state.next_leader,
            state.last_round,
            None,
            state.left,
            spread,
            state.resting,
        ),
    )


def draw(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    seat = state.to_move
    if state.hands[seat] & state.fits:
        raise IllegalMoveError(Illegal.MUST_PLAY, "a tile fits: play it")
    if not may_draw(state.rules, len(state.bazaar), state.drawn):
        raise IllegalMoveError(Illegal.CANNOT_DRAW, "nothing more may be drawn")
    state, event = _take_from_bazaar(state, seat, 1)
    return resolve_turn(state, [event])


def pass_turn(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    if not state.rules.voluntary_pass or not state.ends:
        raise IllegalMoveError(Illegal.NO_PASS, "passing is not allowed here")
    return _turn_without_play(state, Passed(state.to_move), [])


def _take_from_bazaar(state: GameState, seat: int, limit: int) -> tuple[GameState, TilesDrawn]:
    """Draw up to `limit` tiles, stopping at the first that fits."""
    hand = state.hands[seat]
    count = 0
    for tile in state.bazaar[: min(limit, state.drawable())]:
        count += 1
        hand |= 1 << tile
        if state.fits >> tile & 1:
            break
    after = turn_state(
        state,
        (*state.hands[:seat], hand, *state.hands[seat + 1 :]),
        state.bazaar[count:],
        state.ends,
        state.on_table,
        state.fits,
        seat,
        state.drawn + count,
        state.idle,
        state.last_player,
        (*state.history, TilesDrawn(seat, count, state.ends)),
        state.spread,
    )
    return after, TilesDrawn(seat, count, state.ends, state.bazaar[:count])


def resolve_turn(state: GameState, events: list[Event]) -> tuple[GameState, tuple[Event, ...]]:
    """Draw or knock automatically until a seat has a decision to make."""
    rules = state.rules
    while True:
        seat = state.to_move
        if state.hands[seat] & state.fits:
            return state, tuple(events)
        if may_draw(rules, len(state.bazaar), state.drawn):
            if not rules.auto_draw:
                return state, tuple(events)
            limit = state.drawable() if rules.draw is DrawMode.UNTIL_PLAYABLE else 1
            state, drawn = _take_from_bazaar(state, seat, limit)
            events.append(drawn)
            continue
        return _turn_without_play(state, Knocked(seat, state.ends), events)


def _turn_without_play(
    state: GameState, event: Knocked | Passed, events: list[Event]
) -> tuple[GameState, tuple[Event, ...]]:
    """A knock or a pass; a full circle of knocks blocks the round if the bazaar can't
    help (of knocks and passes, without voluntary passes), and with voluntary passes
    `PASS_CIRCLES` circles end it whatever the bazaar holds (§4.1)."""
    events.append(event)
    rules, seat = state.rules, state.to_move
    finishing = rules.format.finishes_circle
    state = turn_state(
        state,
        state.hands,
        state.bazaar,
        state.ends,
        state.on_table,
        state.fits,
        next_in_circle(state, seat) if finishing else next_seat(state, seat),
        0,
        state.idle + 1,
        state.last_player,
        (*state.history, event),
        state.spread,
    )
    gone = gone_out(state) if finishing else None
    if gone is not None:
        if seat == gone.last:
            return end_round(state, RoundEnd.OUT, gone.seat, 0, events)
        return resolve_turn(state, events)
    seats = len(seats_in(state))
    circles = state.idle / seats
    if circles < 1:  # nothing ends before a full circle
        return resolve_turn(state, events)
    circle = state.history[-seats:]
    forced = not rules.voluntary_pass or all(isinstance(e, Knocked) for e in circle)
    blocked = circles >= 1 and forced and not may_draw(rules, len(state.bazaar), 0)
    if blocked or (rules.voluntary_pass and circles >= PASS_CIRCLES):
        assert state.last_player is not None
        reason = RoundEnd.SORTIR if finishing and not blocked else RoundEnd.FISH
        return end_round(state, reason, state.last_player, 0, events)
    return resolve_turn(state, events)
