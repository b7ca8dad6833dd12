"""A round's end and the game's: settling the round through its format, the game's end and
places, time up, a seat leaving (RULES §2.5–§2.7)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.events import (
    EndReason,
    Event,
    GameEnded,
    Place,
    RoundEnd,
    RoundEnded,
    SeatResult,
    points_in_play,
)
from bot.game.formats import RoundFacts, RoundOutcome
from bot.game.illegal import Illegal, IllegalMoveError
from bot.game.rules import RuleSet
from bot.game.scoring import RoundScores, Tally
from bot.game.state import GameState, Phase, from_fields
from bot.game.tiles import tiles_of


def end_round(
    state: GameState, reason: RoundEnd, seat: int, placed: int, events: list[Event]
) -> tuple[GameState, tuple[Event, ...]]:
    """Settle the round that `seat` ended (went out with `placed`, or closed the fish)."""
    rules = state.rules
    fmt = rules.format
    values = tuple([fmt.hand_value(rules, hand) for hand in state.hands])
    settled = _settled(state, reason, seat, placed, values)
    settlement = settled.settlement
    before, after = state.tally, settlement.tally
    ended = RoundEnded(
        round_no=state.round_no,
        reason=reason,
        seat=seat,
        eggs=settlement.eggs,
        written_off=settlement.written_off,
        carry_before=before.carry,
        carry_after=after.carry,
        results=_results(state, values, settlement),
        out=_newly_out(before.out, after.out) if after.out else (),
        order=settled.order,
        lots=settled.lots,
    )
    events.append(ended)
    out_side = rules.side_of(seat) if reason is RoundEnd.OUT else None
    bald = out_side if out_side is not None and fmt.is_bald(rules, placed, values, seat) else None
    why, goats = fmt.ending(rules, after, bald)
    outcome = None
    if why is not None:
        outcome = game_ended(rules, after, goats, why, state.left, state.lots)
        events.append(outcome)
    leader = fmt.next_leader(state, seat)
    return _over(state, after, leader, ended, outcome), tuple(events)


def _newly_out(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    """The sides the round put out (the room, Bykovo)."""
    return tuple(
        s for s, (was, now) in enumerate(zip(before, after, strict=True)) if now and not was
    )


def _over(
    state: GameState,
    tally: Tally,
    next_leader: int | None,
    ended: RoundEnded,
    outcome: GameEnded | None,
) -> GameState:
    """The state once the round has ended (built directly: every round ends so)."""
    return from_fields(
        GameState,
        (
            state.rules, state.seats, state.seed, state.round_no,
            Phase.ROUND_OVER if outcome is None else Phase.GAME_OVER,
            state.hands, state.bazaar, state.ends, state.on_table, state.fits, state.to_move,
            state.lead_tile, state.drawn, state.idle, state.last_player, state.history,
            tally, next_leader, ended, outcome, state.left, state.spread, state.resting,
        ),
    )  # fmt: skip


def _settled(
    state: GameState, reason: RoundEnd, seat: int, placed: int, values: tuple[int, ...]
) -> RoundOutcome:
    """The round's settlement, by its format (nothing when the target was reached in play:
    the game ends before the hands are counted)."""
    rules = state.rules
    if reason is RoundEnd.TARGET:
        return RoundOutcome(RoundScores((0,) * rules.sides, state.tally, False, None, False))
    side_values = [0] * rules.sides
    for s, value in enumerate(values):
        side_values[rules.seat_sides[s]] += value
    facts = RoundFacts(
        state=state,
        reason=reason,
        seat=seat,
        placed=placed,
        values=values,
        side_values=tuple(side_values),
    )
    return rules.format.settle_round(facts)


def _results(
    state: GameState, values: tuple[int, ...], settlement: RoundScores
) -> tuple[SeatResult, ...]:
    """Each seat's hand and its side's scores before and after the round."""
    rules = state.rules
    before, after = state.tally, settlement.tally
    history = state.history if rules.format.scores_in_play else ()
    play_points = points_in_play(history, rules.sides)
    results = []
    for s, (hand, side) in enumerate(zip(state.hands, rules.seat_sides, strict=True)):
        result = (
            s, side, tuple(tiles_of(hand)), values[s], settlement.points[side],
            before.remembered[side], after.remembered[side],
            before.scores[side] - play_points[side], after.scores[side],
            after.opened[side], settlement.carry_taker == side, play_points[side],
        )  # fmt: skip
        results.append(from_fields(SeatResult, result))
    return tuple(results)


def game_ended(
    rules: RuleSet,
    tally: Tally,
    goats: Sequence[int],
    reason: EndReason,
    left: Sequence[int] = (),
    lots: int = 0,
) -> GameEnded:
    """The places; the sides of seats that `left` are settled by §2.7's timeout rule
    (last, goats, nothing gained); ties the format draws by lot come from `lots`
    (`GameState.lots`)."""
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
            rules, tally, goats, leaver_sides, lots
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
    outcome = game_ended(state.rules, state.tally, (), EndReason.TIME, state.left, state.lots)
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
    outcome = game_ended(state.rules, state.tally, (), EndReason.TIMEOUT, left, state.lots)
    return state._replace(phase=Phase.GAME_OVER, outcome=outcome, left=left), (outcome,)
