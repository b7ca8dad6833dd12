"""Starting rounds: the deal (with its redeals), who rests, and who leads (RULES §1, §2.2)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from bot.game.events import (
    Event,
    Redeal,
    RoundStarted,
)
from bot.game.illegal import Illegal, IllegalMoveError
from bot.game.kinds import FirstLead, NextLead
from bot.game.order import next_seat, seats_in
from bot.game.rules import RuleSet
from bot.game.shuffle import below, shuffled
from bot.game.state import GameState, Phase, from_fields
from bot.game.table import LINE
from bot.game.tiles import Tile, TileSet, tiles_of

MAX_REDEALS = 100  # after this many the deal stands, so a strange rule set cannot loop


class Dealt(NamedTuple):
    """A round's deal as given: each seat's hand (a mask; 0 for a seat sitting out), the
    bazaar from the top, who leads (with which tile, if the rules say), the redeals it
    followed and who rests."""

    hands: tuple[int, ...]
    bazaar: tuple[Tile, ...]
    leader: int
    lead_tile: Tile | None
    redeals: tuple[Redeal, ...] = ()
    resting: tuple[int, ...] = ()


def dealt(state: GameState, started: RoundStarted) -> Dealt:
    """The deal of the round `started` began, from the state right after it."""
    return Dealt(
        hands=state.hands,
        bazaar=state.bazaar,
        leader=started.leader,
        lead_tile=started.lead_tile,
        redeals=started.redeals,
        resting=started.resting,
    )


def deal_given(state: GameState, given: Dealt) -> tuple[GameState, tuple[Event, ...]]:
    """Deal the round just begun again with `given`'s tiles — a record's replay, or
    `/newgame deal=CODE` — before anyone has moved."""
    rules = state.rules
    if state.phase is not Phase.PLAYING or state.history or state.drawn:
        raise IllegalMoveError(Illegal.NO_DEAL, "only a round nobody has moved in is dealt again")
    tiles = [t for hand in given.hands for t in tiles_of(hand)] + list(given.bazaar)
    if (
        len(given.hands) != rules.players
        or sorted(tiles) != list(range(rules.tiles.size))
        or not 0 <= given.leader < rules.players
        or given.leader in given.resting
        or not given.hands[given.leader]
        or (given.lead_tile is not None and not given.hands[given.leader] >> given.lead_tile & 1)
    ):
        raise IllegalMoveError(Illegal.BAD_DEAL, "not a deal of these rules' tiles")
    after = state._replace(
        hands=given.hands,
        bazaar=given.bazaar,
        to_move=given.leader,
        lead_tile=given.lead_tile,
        resting=given.resting,
    )
    started = RoundStarted(
        state.round_no, given.leader, given.lead_tile, given.redeals, given.resting
    )
    return after, (started,)


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
    active = seats_in(state)
    hands, bazaar, redeals = _deal(rules, f"{state.seed}:{round_no}", active)
    leader, lead_tile = state.next_leader, None
    if leader is None or rules.next_lead is NextLead.FIRST_RULE:
        leader, lead_tile = _first_lead(rules, hands, active, f"{state.seed}:{round_no}:lead")
    elif state.is_out(leader):
        leader = next_seat(state, leader)
    after = from_fields(
        GameState,
        (
            rules, state.seats, state.seed, round_no, Phase.PLAYING, hands, bazaar, (), 0,
            rules.tiles.all_mask, leader, lead_tile, 0, 0, None, (), state.tally, None,
            state.last_round, None, state.left, LINE, state.resting,
        ),
    )  # fmt: skip
    return after, (RoundStarted(round_no, leader, lead_tile, redeals, state.resting),)


def _redeal_reason(rules: RuleSet, hand: int) -> Redeal | None:
    """Why a deal with `hand` in it is redealt: too many doubles, or too many tiles of one
    suit (§1.3); None if it stands."""
    most_doubles, most_of_suit = rules.redeal_doubles, rules.redeal_suit
    if most_doubles and (hand & rules.tiles.doubles_mask).bit_count() >= most_doubles:
        return Redeal.DOUBLES
    if most_of_suit:
        for suit in rules.tiles.suit_masks:
            if (hand & suit).bit_count() >= most_of_suit:
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
