"""Game flow: deal, lead, play, bazaar, knock, round end and game end (RULES §1–§3, §9).

`new_game` → state; `legal_moves(state)`; `apply(state, move)` → (new state, events).
Knocks are automatic, and so is drawing with `auto_draw`: after every move the turn passes
to the next seat that has a decision to make, so the seat to move always has a legal move.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations, product

from bot.game.events import (
    DoublesPlayed,
    EndReason,
    Event,
    GameEnded,
    Knocked,
    Passed,
    Place,
    PublicEvent,
    Redeal,
    RoundEnd,
    RoundEnded,
    RoundStarted,
    Scored,
    SeatResult,
    TilePlayed,
    TilesDrawn,
    WentOut,
)
from bot.game.formats import RoundFacts, Settled
from bot.game.kinds import DrawMode, FirstLead, NextLead
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.scoring import Settlement, Tally
from bot.game.shuffle import below, shuffled
from bot.game.state import GameState, Phase
from bot.game.table import (
    Spread,
    attach,
    ends_sum,
    fitting,
    is_blocked,
    lead,
    line_spread,
)
from bot.game.tiles import Tile, TileSet, tiles_of

MAX_REDEALS = 100  # after this many the deal stands, so a strange rule set cannot loop
PASS_CIRCLES = 3  # with voluntary passes: full circles of passes in a row that end a round
DRAW = Draw()
PASS = Pass()
_new_record = tuple.__new__  # a record from its fields, without `__new__`'s argument binding


class Illegal(StrEnum):
    """Why a move (or a step between rounds) is refused; the texts' `illegal-…` keys."""

    NOT_YOUR_TURN = "not_your_turn"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"
    UNKNOWN_MOVE = "unknown_move"
    NOT_IN_HAND = "not_in_hand"
    CANNOT_CLOSE = "cannot_close"
    DOES_NOT_FIT = "does_not_fit"
    MUST_LEAD = "must_lead"
    BAD_END = "bad_end"
    NO_DOUBLES = "no_doubles"
    MUST_PLAY = "must_play"
    CANNOT_DRAW = "cannot_draw"
    NO_PASS = "no_pass"
    NO_REST = "no_rest"
    BAD_REST = "bad_rest"
    NOT_ROUND_OVER = "not_round_over"
    NO_TIME_UP = "no_time_up"
    LEFT = "left"
    OUT = "out"


class IllegalMoveError(ValueError):
    """The move is not allowed now (`reason`), the state is unchanged."""

    def __init__(self, reason: Illegal, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@cache
def _lead_order(first_lead: FirstLead, tiles: TileSet) -> tuple[Tile, ...]:
    """Tiles in the order they are looked for to open the game (§2.2, §9, §4.1)."""
    top = tiles.max_pip
    doubles = {
        FirstLead.ONE_ONE: [*range(1, top + 1), 0],
        FirstLead.HIGHEST_DOUBLE: list(range(top, -1, -1)),
        FirstLead.ZERO_ZERO: list(range(top + 1)),
        FirstLead.LOT: [],
    }[first_lead]
    plain = sorted(
        (t for t, (a, b) in enumerate(tiles.pips) if a != b),
        key=lambda t: (-tiles.values[t], -min(tiles.pips[t])),  # 5-6, 4-6, 4-5, 3-6 …
    )
    return (*(tiles.tile(v, v) for v in doubles), *plain)


# -- seats in play --------------------------------------------------------------------------


def _seats_in(state: GameState) -> Sequence[int]:
    """The seats that play this round (all of them, unless the room or Bykovo has put some
    out, or they sit this round out)."""
    if not state.resting and not any(state.tally.out):
        return range(state.rules.players)
    return [s for s in range(state.rules.players) if not state.sits_out(s)]


def _next_seat(state: GameState, seat: int) -> int:
    """The next seat clockwise that plays this round."""
    players = state.rules.players
    seat = seat + 1 if seat + 1 < players else 0
    if not state.resting and not any(state.tally.out):  # everyone plays: the hot path
        return seat
    while state.sits_out(seat):
        seat = seat + 1 if seat + 1 < players else 0
    return seat


# -- starting rounds ---------------------------------------------------------------------


def new_game(
    rules: RuleSet, seats: Sequence[str], seed: int
) -> tuple[GameState, tuple[Event, ...]]:
    """A new game for `seats` (player ids in seating order); everything follows from `seed`."""
    if len(seats) != rules.players:
        raise ValueError(f"the rules are for {rules.players} players, not {len(seats)}")
    tally = rules.format.fresh_tally(rules)
    state = GameState(
        rules, tuple(seats), seed, 0, Phase.ROUND_OVER, (), (), (), 0, 0, 0, None, 0, 0,
        None, (), tally, None, None, None, (),
    )  # fmt: skip
    return next_round(state)


def rest_first(state: GameState, seats: Sequence[int]) -> tuple[GameState, tuple[Event, ...]]:
    """Bykovo: deal the first round again with `seats` sitting it out — the chat's rating
    leaders (§4.2) — before anyone has moved."""
    rules = state.rules
    if not rules.format.seats_by_lot or state.round_no != 1 or state.history:
        raise IllegalMoveError(
            Illegal.NO_REST, "only the first round, before any move, is reseated"
        )
    if len(set(seats)) != rules.players - rules.at_table or not all(
        0 <= s < rules.players for s in seats
    ):
        raise IllegalMoveError(Illegal.BAD_REST, f"{rules.players - rules.at_table} seats sit out")
    before = state._replace(round_no=0, phase=Phase.ROUND_OVER)
    return next_round(before, tuple(sorted(set(seats))))


def next_resting(state: GameState) -> tuple[int, ...]:
    """Who will sit the next round out, once this one has ended: Bykovo's (§4.2), for the
    standings, or the waiting teams of «Генерал» (§8)."""
    return state.rules.format.next_resting(state)


def next_round(
    state: GameState, resting: tuple[int, ...] | None = None
) -> tuple[GameState, tuple[Event, ...]]:
    """Deal the next round once the last one has ended (§1.3, §1.7, §2.2); Bykovo seats
    four and rests the others (§4.2), or rests `resting`."""
    if state.phase is not Phase.ROUND_OVER:
        raise IllegalMoveError(Illegal.NOT_ROUND_OVER, f"no next round: the game is {state.phase}")
    rules = state.rules
    round_no = state.round_no + 1
    resting = next_resting(state) if resting is None else resting
    if resting != state.resting:
        state = state._replace(resting=resting)
    active = _seats_in(state)
    hands, bazaar, redeals = _deal(rules, f"{state.seed}:{round_no}", active)
    leader, lead_tile = state.next_leader, None
    if leader is None or rules.next_lead is NextLead.FIRST_RULE:
        leader, lead_tile = _first_lead(rules, hands, active, f"{state.seed}:{round_no}:lead")
    elif state.is_out(leader):
        leader = _next_seat(state, leader)
    after = GameState(
        rules, state.seats, state.seed, round_no, Phase.PLAYING, hands, bazaar, (), 0,
        rules.tiles.all_mask, leader, lead_tile, 0, 0, None, (), state.tally, None,
        state.last_round, None, state.left, resting=state.resting,
    )  # fmt: skip
    return after, (RoundStarted(round_no, leader, lead_tile, redeals, state.resting),)


def _redeal_reason(rules: RuleSet, hand: int) -> Redeal | None:
    tiles = rules.tiles
    if rules.redeal_doubles and (hand & tiles.doubles_mask).bit_count() >= rules.redeal_doubles:
        return Redeal.DOUBLES
    if rules.redeal_suit:
        for suit in tiles.suit_masks:
            if (hand & suit).bit_count() >= rules.redeal_suit:
                return Redeal.SUIT
    return None


def _deal(
    rules: RuleSet, key: str, active: Sequence[int]
) -> tuple[tuple[int, ...], tuple[Tile, ...], tuple[Redeal, ...]]:
    """Shuffle and deal to the `active` seats, redealing while a hand breaks a redeal
    condition (§1.3); seats out of the game get nothing."""
    size = rules.hand_for(len(active))
    redeals: list[Redeal] = []
    while True:
        deck = shuffled(range(rules.tiles.size), f"{key}:{len(redeals)}")
        hands = [0] * rules.players
        reason = None
        for i, seat in enumerate(active):
            hand = 0
            for tile in deck[i * size : (i + 1) * size]:
                hand |= 1 << tile
            hands[seat] = hand
            reason = reason or _redeal_reason(rules, hand)
        if reason is None or len(redeals) == MAX_REDEALS:
            return tuple(hands), tuple(deck[len(active) * size :]), tuple(redeals)
        redeals.append(reason)


def _first_lead(
    rules: RuleSet, hands: Sequence[int], active: Sequence[int], key: str
) -> tuple[int, Tile | None]:
    if rules.first_lead is FirstLead.LOT:
        return active[below(len(active), key)], None
    for tile in _lead_order(rules.first_lead, rules.tiles):
        for seat, hand in enumerate(hands):
            if hand >> tile & 1:
                return seat, tile
    raise AssertionError("every deal gives the players at least one tile")


# -- legal moves ---------------------------------------------------------------------------


def _may_draw(rules: RuleSet, bazaar: int, drawn: int) -> bool:
    """Whether a seat that cannot play may (still) draw from a bazaar of `bazaar` tiles."""
    if rules.draw is DrawMode.NONE or bazaar <= rules.keep:
        return False
    return rules.draw is DrawMode.UNTIL_PLAYABLE or drawn == 0


def _doubles_moves(rules: RuleSet, hand: int, ends: tuple[int, ...]) -> list[PlayDoubles]:
    """Every way to put 2 … `most_doubles` doubles down at once, one per open end (§3, §5,
    §6): the doubles in the order of their first arm, each end and face (Осёл) chosen."""
    tiles = rules.tiles
    by_double: dict[Tile, list[int]] = {}
    for arm, value in enumerate(ends):
        if value >= 0 and hand >> tiles.tile(value, value) & 1:
            by_double.setdefault(tiles.tile(value, value), []).append(arm)
    choices = list(by_double.items())
    faces = (False, True) if rules.closed_doubles else (False,)
    moves: list[PlayDoubles] = []
    for size in range(2, min(rules.most_doubles, len(choices)) + 1):
        for chosen in combinations(choices, size):
            doubles = tuple(tile for tile, _ in chosen)
            for arms in product(*(arms for _, arms in chosen)):
                for closed in product(faces, repeat=size):
                    moves.append(PlayDoubles(doubles, arms, closed if any(closed) else ()))
    return moves


@cache
def _plays_at(
    tiles: TileSet, ends: tuple[int, ...], closable: bool
) -> tuple[tuple[Play, ...], ...]:
    """Per tile, its `Play`s at these open ends (shared objects: listing allocates little);
    `closable`: a double may also go face down (Осёл, never as the lead)."""
    if not ends:
        return tuple((Play(t, 0),) for t in range(tiles.size))
    return tuple(
        tuple(
            Play(t, end, closed)
            for end, value in enumerate(ends)
            if value >= 0 and tiles.follow[t][value] >= 0
            for closed in ((False, True) if closable and tiles.is_double(t) else (False,))
        )
        for t in range(tiles.size)
    )


def moves_for(
    rules: RuleSet,
    hand: int,
    ends: tuple[int, ...],
    fits: int,
    lead_tile: Tile | None,
    bazaar: int,
    drawn: int,
) -> list[Move]:
    """Legal moves of a seat holding `hand` — from a state or from a seat's own view."""
    by_tile = _plays_at(rules.tiles, ends, rules.closed_doubles)
    if lead_tile is not None:
        return [*by_tile[lead_tile]]
    moves: list[Move] = []
    playable = hand & fits
    while playable:
        low = playable & -playable
        moves += by_tile[low.bit_length() - 1]
        playable ^= low
    if moves:
        # two doubles or more that fit: the only hands that may put several down at once
        if (hand & fits & rules.tiles.doubles_mask).bit_count() > 1 and rules.most_doubles > 1:
            moves += _doubles_moves(rules, hand, ends)
    elif _may_draw(rules, bazaar, drawn):
        moves.append(DRAW)
    if rules.voluntary_pass and ends:
        moves.append(PASS)
    return moves


def legal_moves(state: GameState) -> list[Move]:
    """Everything the seat to move may do now (nothing once the round is over)."""
    if state.phase is not Phase.PLAYING:
        return []
    return moves_for(
        state.rules,
        state.hands[state.to_move],
        state.ends,
        state.fits,
        state.lead_tile,
        len(state.bazaar),
        state.drawn,
    )


# -- applying moves ------------------------------------------------------------------------


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
        return _draw(state)
    if isinstance(move, Pass):
        return _pass(state)
    raise IllegalMoveError(Illegal.UNKNOWN_MOVE, f"not a move: {move!r}")


def _on_line(state: GameState, move: Play) -> tuple[GameState, tuple[Event, ...]] | None:
    """`_play` spelled out for the engine's hot path: a tile on a plain line (`plain_line`
    rules), the round going on. None where `_play` must decide:
    the lead, a closed double, the last tile, a move it refuses. `tests/game/test_engine_line.py`
    plays random games both ways."""
    rules, ends = state.rules, state.ends
    seat, tile, end = state.to_move, move.tile, move.end
    hand = state.hands[seat]
    if not (
        rules.plain_line
        and ends  # a line's two, once the lead lies
        and 0 <= end <= 1
        and 0 <= tile < rules.tiles.size
        and hand >> tile & 1
        and ends[end] >= 0
        and not move.closed
    ):
        return None
    tiles = rules.tiles
    value = tiles.follow[tile][ends[end]]
    hand ^= 1 << tile
    if value < 0 or not hand:
        return None
    a, b = (value, ends[1]) if end == 0 else (ends[0], value)
    suits = tiles.suit_masks
    fits = (suits[a] if a >= 0 else 0) | (suits[b] if b >= 0 else 0)
    spread = line_spread(tiles, state.spread, tile, end)
    on_table = state.on_table | 1 << tile
    held = [*state.hands]
    held[seat] = hand
    following = seat + 1 if seat + 1 < rules.players else 0
    if state.resting or state.tally.out:
        following = _next_seat(state, seat)
    event = _new_record(TilePlayed, (seat, tile, end, False))
    after = _new_record(
        GameState,
        (
            rules, state.seats, state.seed, state.round_no, Phase.PLAYING, tuple(held),
            state.bazaar, (a, b), on_table, fits, following, None, 0, 0, seat,
            (*state.history, event), state.tally, state.next_leader, state.last_round, None,
            state.left, spread, state.resting,
        ),
    )  # fmt: skip
    if (a == b or a < 0 or b < 0) and is_blocked(rules.dead_ends, after.ends, on_table):
        return _end_round(after, RoundEnd.FISH, seat, 1 << tile, [event])
    if held[following] & fits:
        return after, (event,)
    return _resolve_turn(after, [event])


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
    event = TilePlayed(seat, tile, end, move.closed)
    return _after_play(state, seat, hand ^ 1 << tile, *after, 1 << tile, event)


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
    following = _next_seat(state, seat)
    history: tuple[PublicEvent, ...] = (*state.history, event)
    tally = state.tally
    fmt = rules.format
    events: list[Event] = [event]
    if fmt.scores_in_play:
        lone = placed.bit_length() - 1 if on_table == placed else None
        total = ends_sum(rules.tiles, ends, spread, lone)
        side = rules.seat_sides[seat]
        points = fmt.move_points(rules, tally.scores[side], total, not hand)
        if points:
            scored = Scored(seat, side, total, points)
            history, events = (*history, scored), [*events, scored]
            scores = [*tally.scores]
            scores[side] += points
            tally = Tally(tuple(scores), *tally[1:])
    after = _turn_state(
        state, hands, state.bazaar, ends, on_table, fits, following, 0, 0, seat, history, spread,
        tally,
    )  # fmt: skip
    if fmt.finishes_circle:
        return _circle_after(after, seat, placed, events)
    if not hand:
        return _end_round(after, RoundEnd.OUT, seat, placed, events)
    if tally is not state.tally and max(tally.scores) >= rules.goal:
        return _end_round(after, RoundEnd.TARGET, seat, placed, events)
    if is_blocked(rules.dead_ends, ends, on_table):
        return _end_round(after, RoundEnd.FISH, seat, placed, events)
    if hands[following] & fits:
        return after, tuple(events)
    return _resolve_turn(after, events)


def _turn_state(
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
    return _new_record(
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


def _draw(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    seat = state.to_move
    if state.hands[seat] & state.fits:
        raise IllegalMoveError(Illegal.MUST_PLAY, "a tile fits: play it")
    if not _may_draw(state.rules, len(state.bazaar), state.drawn):
        raise IllegalMoveError(Illegal.CANNOT_DRAW, "nothing more may be drawn")
    state, event = _take_from_bazaar(state, seat, 1)
    return _resolve_turn(state, [event])


def _pass(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
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
    after = _turn_state(
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


def _resolve_turn(state: GameState, events: list[Event]) -> tuple[GameState, tuple[Event, ...]]:
    """Draw or knock automatically until a seat has a decision to make."""
    rules = state.rules
    while True:
        seat = state.to_move
        if state.hands[seat] & state.fits:
            return state, tuple(events)
        if _may_draw(rules, len(state.bazaar), state.drawn):
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
    state = _turn_state(
        state,
        state.hands,
        state.bazaar,
        state.ends,
        state.on_table,
        state.fits,
        _next_in_circle(state, seat) if finishing else _next_seat(state, seat),
        0,
        state.idle + 1,
        state.last_player,
        (*state.history, event),
        state.spread,
    )
    gone = _gone_out(state) if finishing else None
    if gone is not None:
        if seat == gone.last:
            return _end_round(state, RoundEnd.OUT, gone.seat, 0, events)
        return _resolve_turn(state, events)
    seats = len(_seats_in(state))
    circles = state.idle / seats
    if circles < 1:  # nothing ends before a full circle
        return _resolve_turn(state, events)
    circle = state.history[-seats:]
    forced = not rules.voluntary_pass or all(isinstance(e, Knocked) for e in circle)
    blocked = circles >= 1 and forced and not _may_draw(rules, len(state.bazaar), 0)
    if blocked or (rules.voluntary_pass and circles >= PASS_CIRCLES):
        assert state.last_player is not None
        reason = RoundEnd.SORTIR if finishing and not blocked else RoundEnd.FISH
        return _end_round(state, reason, state.last_player, 0, events)
    return _resolve_turn(state, events)


# -- a circle finished after the first goes out (Bykovo, §4.1) ----------------------------


def _gone_out(state: GameState) -> WentOut | None:
    """The first player out this round, whose circle is being finished."""
    return next((e for e in state.history if isinstance(e, WentOut)), None)


def _next_in_circle(state: GameState, seat: int) -> int:
    """The next seat that plays this round and still holds tiles."""
    following = _next_seat(state, seat)
    while not state.hands[following] and following != seat:
        following = _next_seat(state, following)
    return following


def _circle_after(
    state: GameState, seat: int, placed: int, events: list[Event]
) -> tuple[GameState, tuple[Event, ...]]:
    """After `seat` put tiles down where the circle is finished (Bykovo): out first (the
    circle is finished up to the seat before the round's leader), out later in that
    circle, the circle's last turn, a fish — or the next seat with tiles."""
    gone = _gone_out(state)
    if not state.hands[seat]:
        if gone is None:
            leader = next(e.seat for e in state.history if isinstance(e, TilePlayed))
            active = _seats_in(state)
            last = active[active.index(leader) - 1]
        else:
            last = gone.last
        if seat == last:
            return _end_round(state, RoundEnd.OUT, gone.seat if gone else seat, placed, events)
        went = WentOut(seat, last)
        state = state._replace(history=(*state.history, went))
        events = [*events, went]
        gone = gone or went
    if gone is not None and seat == gone.last:
        return _end_round(state, RoundEnd.OUT, gone.seat, placed, events)
    if is_blocked(state.rules.dead_ends, state.ends, state.on_table):
        winner = gone.seat if gone is not None else seat
        return _end_round(state, RoundEnd.OUT if gone else RoundEnd.FISH, winner, placed, events)
    state = state._replace(to_move=_next_in_circle(state, seat))
    return _resolve_turn(state, events)


# -- round and game end --------------------------------------------------------------------


def _end_round(
    state: GameState, reason: RoundEnd, seat: int, placed: int, events: list[Event]
) -> tuple[GameState, tuple[Event, ...]]:
    """Settle the round that `seat` ended (went out with `placed`, or closed the fish)."""
    rules = state.rules
    fmt = rules.format
    hands = state.hands
    values = tuple([fmt.hand_value(rules, hand) for hand in hands])
    seat_sides = rules.seat_sides
    side_values = [0] * rules.sides
    for s, value in enumerate(values):
        side_values[seat_sides[s]] += value
    out_side = rules.side_of(seat) if reason is RoundEnd.OUT else None
    before = state.tally
    play_points = [0] * rules.sides
    for event in state.history if fmt.scores_in_play else ():
        if isinstance(event, Scored):
            play_points[event.side] += event.points
    if reason is RoundEnd.TARGET:  # reached in play: the game ends before the hands are counted
        settled = Settled(Settlement((0,) * rules.sides, before, False, None, False))
    else:
        facts = RoundFacts(
            state=state,
            reason=reason,
            seat=seat,
            placed=placed,
            values=values,
            side_values=tuple(side_values),
        )
        settled = fmt.settle_round(facts)
    settlement = settled.settlement
    after = settlement.tally
    results = tuple(
        [
            SeatResult(
                seat=s,
                side=side,
                hand=tuple(tiles_of(hand)),
                hand_value=values[s],
                round_points=settlement.points[side],
                remembered_before=before.remembered[side],
                remembered_after=after.remembered[side],
                score_before=before.scores[side] - play_points[side],
                score_after=after.scores[side],
                opened=after.opened[side],
                took_carry=settlement.carry_taker == side,
                play_points=play_points[side],
            )
            for s, (hand, side) in enumerate(zip(hands, seat_sides, strict=True))
        ]
    )
    ended = RoundEnded(
        round_no=state.round_no,
        reason=reason,
        seat=seat,
        eggs=settlement.eggs,
        written_off=settlement.written_off,
        carry_before=before.carry,
        carry_after=after.carry,
        results=results,
        out=tuple(
            s
            for s, (was, now) in enumerate(zip(before.out, after.out, strict=True))
            if now and not was
        ),
        order=settled.order,
        lots=settled.lots,
    )
    events.append(ended)
    bald = out_side if out_side is not None and fmt.is_bald(rules, placed, values, seat) else None
    why, goats = fmt.ending(rules, after, bald)
    outcome = None
    if why is not None:
        outcome = _game_ended(rules, after, goats, why, state.left, state.seed)
        events.append(outcome)
    state = state._replace(
        phase=Phase.ROUND_OVER if outcome is None else Phase.GAME_OVER,
        tally=after,
        next_leader=fmt.next_leader(state, seat),
        last_round=ended,
        outcome=outcome,
    )
    return state, tuple(events)


def _game_ended(
    rules: RuleSet,
    tally: Tally,
    goats: Sequence[int],
    reason: EndReason,
    left: Sequence[int] = (),
    seed: int = 0,
) -> GameEnded:
    """The places; the sides of seats that `left` are settled by §2.7's timeout rule
    (last, goats, nothing gained); ties the format draws by lot come from the `seed`."""
    leaver_sides = list(dict.fromkeys(rules.side_of(seat) for seat in left))
    places = tuple(
        Place(
            seat=seat,
            side=side,
            place=place,
            score=tally.scores[side],
            goat=goat,
            rating_points=points,
        )
        for side, place, goat, points in rules.format.standings(
            rules, tally, goats, leaver_sides, seed
        )
        for seat in range(rules.players)
        if rules.side_of(seat) == side
    )
    return GameEnded(reason, places, left[0] if left else None)


def time_up(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    """«Генерал»: the match's time is up and its last round has been played (§8) — places
    by Generals, then rounds won, then lot."""
    if not state.rules.format.timed or state.phase is not Phase.ROUND_OVER:
        raise IllegalMoveError(Illegal.NO_TIME_UP, "only a «Генерал» match between rounds ends so")
    outcome = _game_ended(state.rules, state.tally, (), EndReason.TIME, state.left, state.seed)
    return state._replace(phase=Phase.GAME_OVER, outcome=outcome), (outcome,)


def _check_leaving(state: GameState, seat: int) -> None:
    if state.phase is Phase.GAME_OVER:
        raise IllegalMoveError(Illegal.GAME_OVER, "the game is already over")
    if seat in state.left:
        raise IllegalMoveError(Illegal.LEFT, f"seat {seat} has already left")
    if state.is_out(seat):
        raise IllegalMoveError(Illegal.OUT, f"seat {seat} is out of the game: its place stands")


def leave(state: GameState, seat: int) -> GameState:
    """`seat`'s person leaves (or is removed); the computer plays the seat to the end, when
    the game is settled for them by §2.7's timeout rule: last, goat, nothing gained."""
    _check_leaving(state, seat)
    return state._replace(left=(*state.left, seat))


def abandon(state: GameState, seat: int) -> tuple[GameState, tuple[Event, ...]]:
    """End the game now because `seat` left or timed out (§2.7 timeout rule)."""
    _check_leaving(state, seat)
    left = (*state.left, seat)
    outcome = _game_ended(state.rules, state.tally, (), EndReason.TIMEOUT, left, state.seed)
    return state._replace(phase=Phase.GAME_OVER, outcome=outcome, left=left), (outcome,)
