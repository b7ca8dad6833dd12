"""Game flow: deal, lead, play, bazaar, knock, round end and game end (RULES §1–§3, §9).

`new_game` → state; `legal_moves(state)`; `apply(state, move)` → (new state, events).
Knocks are automatic, and so is drawing with `auto_draw`: after every move the turn passes
to the next seat that has a decision to make, so the seat to move always has a legal move.
"""

from __future__ import annotations

from bot.game.bazaar import PASS_CIRCLES, draw, pass_turn, resolve_turn, turn_state
from bot.game.deal import new_game, next_resting, next_round, rest_first
from bot.game.ending import abandon, end_round, leave, time_up
from bot.game.events import (
    DoublesPlayed,
    Event,
    Knocked,
    PublicEvent,
    RoundEnd,
    Scored,
    TilePlayed,
    WentOut,
)
from bot.game.illegal import Illegal, IllegalMoveError
from bot.game.legal import DRAW, PASS, legal_moves, may_draw, moves_for
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.order import gone_out, next_in_circle, next_seat, seats_in
from bot.game.scoring import Tally
from bot.game.state import GameState, Phase, from_fields
from bot.game.table import (
    Spread,
    attach,
    ends_sum,
    fitting,
    is_blocked,
    lead,
    line_after,
    line_spread,
)

__all__ = [
    "DRAW",
    "PASS",
    "PASS_CIRCLES",
    "Illegal",
    "IllegalMoveError",
    "abandon",
    "apply",
    "leave",
    "legal_moves",
    "moves_for",
    "new_game",
    "next_resting",
    "next_round",
    "rest_first",
    "time_up",
]


def apply(
    state: GameState, move: Move, seat: int | None = None
) -> tuple[GameState, tuple[Event, ...]]:
    """Play `move` for the seat to move (for `seat`, if given, which must be that seat)."""
    if state.phase is not Phase.PLAYING:
        raise IllegalMoveError(Illegal(state.phase.value), "the round is over, no moves now")
    if seat is not None and seat != state.to_move:
        raise IllegalMoveError(
            Illegal.NOT_YOUR_TURN, f"it is seat {state.to_move}'s turn, not {seat}'s"
        )
    if isinstance(move, Play):
        return _on_line(state, move) or _lay(state, move)
    if isinstance(move, PlayDoubles):
        return _play_doubles(state, move)
    if isinstance(move, Draw):
        return draw(state)
    if isinstance(move, Pass):
        return pass_turn(state)
    raise IllegalMoveError(Illegal.UNKNOWN_MOVE, f"not a move: {move!r}")


def _on_line(state: GameState, move: Play) -> tuple[GameState, tuple[Event, ...]] | None:
    """`_lay` spelled out for the engine's hot path: a tile on a line without a spinner
    (`plain_line` rules), the lead included. None where `_lay` must decide: a closed double,
    a move it refuses. `tests/game/test_engine_line.py` plays random games both ways."""
    rules, ends = state.rules, state.ends
    seat, tile, end = state.to_move, move.tile, move.end
    hand = state.hands[seat]
    if not (
        rules.plain_line
        and 0 <= end < (len(ends) or 1)  # a line's two ends, or the lead's one
        and tile >= 0
        and hand >> tile & 1  # a hand holds no tile past the set
        and not move.closed
    ):
        return None
    tiles = rules.tiles
    line: tuple[int, ...] | None
    if ends:
        line = line_after(tiles, ends, tile, end)
        if line is None:
            return None
        spread = state.spread
        if spread.doubled or tiles.doubles_mask >> tile & 1:  # else the spread stays
            spread = line_spread(tiles, spread, tile, end)
    elif state.lead_tile is None or tile == state.lead_tile:
        line, spread = lead(tiles, rules.spinner, tile)
    else:
        return None
    size = tiles.size
    played = _PLAYED.get(rules.players << 8 | size) or _plays_of(rules.players, size)
    return _on_line_after(
        state, hand ^ 1 << tile, played[(seat * size + tile) * 2 + end], line, spread
    )


_PLAYED: dict[int, tuple[TilePlayed, ...]] = {}
"""Every open play on a line (`TilePlayed` by seat, tile and end), by the number of seats
and tiles: the hot path shares these events instead of making one a move."""


def _plays_of(players: int, size: int) -> tuple[TilePlayed, ...]:
    plays = _PLAYED[players << 8 | size] = tuple(
        TilePlayed(seat, tile, end, False)
        for seat in range(players)
        for tile in range(size)
        for end in range(2)
    )
    return plays


def _on_line_after(
    state: GameState, hand: int, event: TilePlayed, line: tuple[int, ...], spread: Spread
) -> tuple[GameState, tuple[Event, ...]]:
    """`_after_play` spelled out for the hot path: points in play, out, the target, a fish,
    the knocks that follow (`_knocks`), or the next seat's turn."""
    rules, seat, placed = state.rules, event.seat, 1 << event.tile
    a, b = line
    suits = rules.tiles.suit_masks
    fits = (suits[a] if a >= 0 else 0) | (suits[b] if b >= 0 else 0)
    on_table = state.on_table | placed
    held = [*state.hands]
    held[seat] = hand
    players = rules.players
    following = seat + 1 if seat + 1 < players else 0
    if state.resting or state.tally.out:
        following = next_seat(state, seat)
    history: tuple[PublicEvent, ...] = (*state.history, event)
    events: tuple[Event, ...] = (event,)
    tally = state.tally
    if rules.format.scores_in_play:
        tally, scored = _points(state, seat, hand, line, spread, placed, on_table)
        if scored is not None:
            history += (scored,)
            events += (scored,)
    reached = tally is not state.tally and max(tally.scores) >= rules.goal
    ended = not hand or reached
    fish = not ended and (a == b or a < 0 or b < 0) and is_blocked(rules.dead_ends, line, on_table)
    idle = 0
    if not (ended or fish or held[following] & fits or state.resting or state.tally.out):
        following, knocks = _knocks(state, held, fits, line, following)
        if knocks:
            history += knocks
            events += knocks
            idle = len(knocks)
    after = from_fields(
        GameState,
        (
            rules, state.seats, state.seed, state.round_no, Phase.PLAYING, tuple(held),
            state.bazaar, line, on_table, fits, following, None, 0, idle, seat, history,
            tally, state.next_leader, state.last_round, None, state.left, spread, state.resting,
        ),
    )  # fmt: skip
    if ended or fish:
        why = RoundEnd.OUT if not hand else RoundEnd.TARGET if reached else RoundEnd.FISH
        return end_round(after, why, seat, placed, [*events])
    if held[following] & fits:
        return after, events
    return resolve_turn(after, [*events])


def _points(
    state: GameState,
    seat: int,
    hand: int,
    ends: tuple[int, ...],
    spread: Spread,
    placed: int,
    on_table: int,
) -> tuple[Tally, Scored | None]:
    """What the open ends score for the seat that put `placed` down (Телефон, Muggins, Fives
    and Threes): the sheet after it, and the event, if they score."""
    rules, tally = state.rules, state.tally
    lone = placed.bit_length() - 1 if on_table == placed else None
    total = ends_sum(rules.tiles, ends, spread, lone)
    side = rules.seat_sides[seat]
    points = rules.format.move_points(rules, tally.scores[side], total, not hand)
    if not points:
        return tally, None
    scores = [*tally.scores]
    scores[side] += points
    return from_fields(Tally, (tuple(scores), *tally[1:])), from_fields(
        Scored, (seat, side, total, points)
    )


def _knocks(
    state: GameState, held: list[int], fits: int, line: tuple[int, ...], following: int
) -> tuple[int, tuple[Knocked, ...]]:
    """`resolve_turn`'s knocks spelled out for the hot path, where a seat that cannot play
    can only knock (nobody draws, passes or sits out): the seat to move after them and the
    knocks in a row, short of a full circle (`resolve_turn` ends that)."""
    rules = state.rules
    if rules.voluntary_pass or may_draw(rules, len(state.bazaar), 0):
        return following, ()
    players = rules.players
    knocks: list[Knocked] = []
    while not held[following] & fits and len(knocks) + 1 < players:
        knocks.append(from_fields(Knocked, (following, line)))
        following = following + 1 if following + 1 < players else 0
    return following, tuple(knocks)


def _lay(state: GameState, move: Play) -> tuple[GameState, tuple[Event, ...]]:
    """A tile to the table, whatever the game and the moment."""
    seat, tile, end = state.to_move, move.tile, move.end
    tiles = state.rules.tiles
    hand = state.hands[seat]
    if not (0 <= tile < tiles.size and hand >> tile & 1):
        raise IllegalMoveError(Illegal.NOT_IN_HAND, "that tile is not in your hand")
    if move.closed and not (state.rules.closed_doubles and state.ends and tiles.is_double(tile)):
        raise IllegalMoveError(
            Illegal.CANNOT_CLOSE, "only a double, not as the lead, lies face down"
        )
    if state.ends:
        after = attach(tiles, state.rules.spinner, state.ends, state.spread, tile, end, move.closed)
        if after is None:
            raise IllegalMoveError(
                Illegal.DOES_NOT_FIT, f"{tiles.name(tile)} does not fit that end"
            )
    elif state.lead_tile is not None and tile != state.lead_tile:
        raise IllegalMoveError(
            Illegal.MUST_LEAD, f"the round opens with {tiles.name(state.lead_tile)}"
        )
    elif end != 0:
        raise IllegalMoveError(Illegal.BAD_END, "the first tile opens the line")
    else:
        after = lead(tiles, state.rules.spinner, tile)
    ends, spread = after
    event = from_fields(TilePlayed, (seat, tile, end, move.closed))
    return _after_play(state, seat, hand ^ 1 << tile, ends, spread, 1 << tile, event)


def _play_doubles(state: GameState, move: PlayDoubles) -> tuple[GameState, tuple[Event, ...]]:
    seat, rules = state.to_move, state.rules
    tiles, hand, count = rules.tiles, state.hands[seat], len(move.tiles)
    closed = move.closed or (False,) * count
    if not (
        2 <= count <= rules.most_doubles
        and len(move.ends) == len(closed) == count
        and (rules.closed_doubles or not any(closed))
        and len(set(move.tiles)) == len(set(move.ends)) == count
        and all(
            0 <= tile < tiles.size
            and hand >> tile & 1
            and tiles.is_double(tile)
            and 0 <= end < len(state.ends)
            and state.ends[end] == tiles.pips[tile][0]
            for tile, end in zip(move.tiles, move.ends, strict=True)
        )
    ):
        raise IllegalMoveError(Illegal.NO_DOUBLES, "those doubles do not go on those ends at once")
    ends, spread = state.ends, state.spread
    for tile, end, face_down in zip(move.tiles, move.ends, closed, strict=True):
        laid = attach(tiles, rules.spinner, ends, spread, tile, end, face_down)
        assert laid is not None  # each double matches its own end
        ends, spread = laid
    placed = tiles.mask(move.tiles)
    event = DoublesPlayed(seat, move.tiles, move.ends, move.closed)
    return _after_play(state, seat, hand ^ placed, ends, spread, placed, event)


def _after_play(
    state: GameState,
    seat: int,
    hand: int,
    ends: tuple[int, ...],
    spread: Spread,
    placed: int,
    event: TilePlayed | DoublesPlayed,
) -> tuple[GameState, tuple[Event, ...]]:
    """The tiles in `placed` went to the table: points for the ends, out, fish, or the next
    seat's turn."""
    rules = state.rules
    held = [*state.hands]
    held[seat] = hand
    hands = tuple(held)
    on_table = state.on_table | placed
    fits = fitting(rules.tiles, ends)
    following = next_seat(state, seat)
    history: tuple[PublicEvent, ...] = (*state.history, event)
    tally = state.tally
    fmt = rules.format
    events: list[Event] = [event]
    if fmt.scores_in_play:
        tally, scored = _points(state, seat, hand, ends, spread, placed, on_table)
        if scored is not None:
            history += (scored,)
            events.append(scored)
    after = turn_state(
        state, hands, state.bazaar, ends, on_table, fits, following, 0, 0, seat, history, spread,
        tally,
    )  # fmt: skip
    if fmt.finishes_circle:
        return _circle_after(after, seat, placed, events)
    if not hand:
        return end_round(after, RoundEnd.OUT, seat, placed, events)
    if tally is not state.tally and max(tally.scores) >= rules.goal:
        return end_round(after, RoundEnd.TARGET, seat, placed, events)
    if is_blocked(rules.dead_ends_on(on_table), ends, on_table):
        return end_round(after, RoundEnd.FISH, seat, placed, events)
    if hands[following] & fits:
        return after, tuple(events)
    return resolve_turn(after, events)


def _circle_after(
    state: GameState, seat: int, placed: int, events: list[Event]
) -> tuple[GameState, tuple[Event, ...]]:
    """After `seat` put tiles down where the circle is finished (Bykovo): out first (the
    circle is finished up to the seat before the round's leader), out later in that
    circle, the circle's last turn, a fish — or the next seat with tiles."""
    gone = gone_out(state)
    if not state.hands[seat]:
        if gone is None:
            leader = next(e.seat for e in state.history if isinstance(e, TilePlayed))
            active = seats_in(state)
            last = active[active.index(leader) - 1]
        else:
            last = gone.last
        if seat == last:
            return end_round(state, RoundEnd.OUT, gone.seat if gone else seat, placed, events)
        went = WentOut(seat, last)
        state = state._replace(history=(*state.history, went))
        events = [*events, went]
        gone = gone or went
    if gone is not None and seat == gone.last:
        return end_round(state, RoundEnd.OUT, gone.seat, placed, events)
    if is_blocked(state.rules.dead_ends_on(state.on_table), state.ends, state.on_table):
        winner = gone.seat if gone is not None else seat
        return end_round(state, RoundEnd.OUT if gone else RoundEnd.FISH, winner, placed, events)
    state = state._replace(to_move=next_in_circle(state, seat))
    return resolve_turn(state, events)
