"""Rounds played through the engine: the §1.6 fish example, leads, redeals, round and game
end for Козёл, teams, Sea Goat and classic, and deal determinism."""

from __future__ import annotations

import json
import random

import pytest

from bot.game import (
    Draw,
    Phase,
    Play,
    PlayDoubles,
    abandon,
    apply,
    leave,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
    serial,
)
from bot.game.deal import _first_lead
from bot.game.engine import IllegalMoveError
from bot.game.events import (
    DoublesPlayed,
    GameEnded,
    Knocked,
    RoundEnded,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
)
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.game.table import oriented
from bot.game.tiles import tiles_of
from tests.helpers import crafted, drew, mask, play_chain, random_game, round_ended, seats, tile

GOAT2 = parse_rules("goat", players=2)
GOAT3 = parse_rules("goat", players=3)
GOAT4 = parse_rules("goat", players=4)


def line_pips(state: GameState) -> list[tuple[int, int]]:
    """The line read from left to right as (left half, right half) pairs."""
    first, (left, right) = oriented(state.table, state.rules.tiles)
    return [(b, a) for a, b in reversed(left)] + [first] + right


def names(rules: RuleSet, hand: int) -> set[str]:
    return {rules.tiles.name(t) for t in tiles_of(hand)}


# -- §1.6 the fish example -------------------------------------------------------------

# RULES §1.6: (2|4)(4|1)(1|2)(2|6)(6|0)(0|2)(2|3)(3|5)(5|2): both ends 2, every plain 2 out.
FISH_LINE = [(2, 4), (4, 1), (1, 2), (2, 6), (6, 0), (0, 2), (2, 3), (3, 5), (5, 2)]
# the same line built from its middle tile, one tile per turn in seat order
FISH_PLAYS = [
    ("0-6", 0),
    ("0-2", 0),
    ("2-6", 1),
    ("2-3", 0),
    ("1-2", 1),
    ("3-5", 0),
    ("1-4", 1),
    ("2-4", 1),
    ("2-5", 0),
]


def check_fish_example(rules: RuleSet, hands: list[list[str]], fisherman: int) -> RoundEnded:
    state = crafted(rules, hands)
    state, history = play_chain(state, FISH_PLAYS[:-1])
    assert state.phase is Phase.PLAYING
    assert state.ends == (5, 2)
    assert not any(drew(events) for events in history)
    before = state
    state, events = apply(state, Play(tile(rules, "2-5"), 0))
    ended = round_ended(events)
    assert ended.reason == "fish"
    assert ended.seat == fisherman == before.to_move
    assert state.phase is Phase.ROUND_OVER
    assert state.ends == (2, 2)
    assert line_pips(state) in (FISH_LINE, [(b, a) for a, b in reversed(FISH_LINE)])
    assert legal_moves(state) == []
    assert state.next_leader == fisherman
    assert events[0] == TilePlayed(fisherman, tile(rules, "2-5"), 0)
    assert not drew(events)
    return ended


def test_fish_example_1_2_2_6_0_2_2_3_2_4_5_2_with_2_2_in_a_hand():
    hands = [
        ["0-6", "2-6", "1-2", "1-4", "2-5", "3-3", "0-1"],
        ["0-2", "2-3", "3-5", "2-4", "2-2", "4-4", "5-6"],
    ]
    ended = check_fish_example(GOAT2, hands, fisherman=0)
    assert tile(GOAT2, "2-2") in ended.results[1].hand
    assert [r.hand_value for r in ended.results] == [7, 23]
    # fish on one: the larger hand takes T = 30, the other's remembered is cleared
    assert [r.round_points for r in ended.results] == [0, 30]
    assert [r.score_after for r in ended.results] == [0, 30]


def test_fish_example_1_2_2_6_0_2_2_3_2_4_5_2_with_2_2_in_the_bazaar():
    hands = [
        ["0-6", "2-6", "1-2", "1-4", "2-5", "3-3", "0-1"],
        ["0-2", "2-3", "3-5", "2-4", "0-0", "4-4", "5-6"],
    ]
    state = crafted(GOAT2, hands)
    assert tile(GOAT2, "2-2") in state.bazaar
    ended = check_fish_example(GOAT2, hands, fisherman=0)
    assert [r.hand_value for r in ended.results] == [7, 19]  # 0-0 among others counts 0


def test_fish_example_with_three_players_fisherman_takes_the_total():
    hands = [
        ["0-6", "2-3", "1-4", "3-3", "0-1", "4-4", "5-5"],
        ["0-2", "1-2", "2-4", "2-2", "6-6", "0-3", "1-1"],
        ["2-6", "3-5", "2-5", "1-6", "0-4", "3-4", "5-6"],
    ]
    ended = check_fish_example(GOAT3, hands, fisherman=2)
    assert tile(GOAT3, "2-2") in ended.results[1].hand
    assert [r.hand_value for r in ended.results] == [25, 21, 29]
    assert [r.round_points for r in ended.results] == [0, 0, 75]


def test_fish_is_not_called_while_a_plain_tile_of_the_suit_is_out():
    # ends 2 and 2 after the third tile, but 2-3, 1-2, 2-4, 2-5 are still in hands
    hands = [
        ["0-6", "2-6", "1-2", "1-4", "2-5", "3-3", "0-1"],
        ["0-2", "2-3", "3-5", "2-4", "2-2", "4-4", "5-6"],
    ]
    state, _ = play_chain(crafted(GOAT2, hands), FISH_PLAYS[:3])
    assert state.ends == (2, 2)
    assert state.phase is Phase.PLAYING


def test_tied_fish_is_eggs_and_the_fisherman_leads_next():
    hands = [
        ["0-6", "2-6", "1-2", "1-4", "2-5", "3-3", "0-1"],
        ["0-2", "2-3", "3-5", "2-4", "0-0", "0-3", "0-4"],
    ]
    ended = check_fish_example(GOAT2, hands, fisherman=0)
    assert ended.eggs
    assert ended.carry_after == 14
    assert all(r.round_points == 0 and r.score_after == 0 for r in ended.results)


def test_next_round_is_led_by_the_fisherman_with_any_tile():
    hands = [
        ["0-6", "2-6", "1-2", "1-4", "2-5", "3-3", "0-1"],
        ["0-2", "2-3", "3-5", "2-4", "2-2", "4-4", "5-6"],
    ]
    state, _ = play_chain(crafted(GOAT2, hands), FISH_PLAYS)
    assert state.phase is Phase.ROUND_OVER
    state, events = next_round(state)
    assert events == (RoundStarted(2, 0, None, events[0].redeals),)
    assert state.to_move == 0
    assert state.lead_tile is None
    assert legal_moves(state) == [Play(t, 0) for t in tiles_of(state.hands[0])]


def test_line_with_different_ends_always_has_a_playable_tile_once_bazaar_is_empty():
    """§1.6: with ends a ≠ b each end value shows an odd number of halves on the table,
    so one of the 8 halves of that suit is in a hand once the bazaar is empty."""
    checked = 0
    for n, seed in [(4, s) for s in range(40)] + [(2, s) for s in range(20)]:
        for step in random_game(GOAT4.with_players(n), seed, seed):
            state = step.after
            if state.phase is not Phase.PLAYING or len(state.ends) != 2:
                continue
            a, b = state.ends
            if a == b:
                continue
            off_table = state.rules.tiles.all_mask & ~state.on_table
            assert off_table & state.fits
            if not state.bazaar:
                assert any(hand & state.fits for hand in state.hands)
                checked += 1
    assert checked > 1000


# -- §2.2 first lead ----------------------------------------------------------------------

SPEC_DOUBLES = ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0"]


def find_deal(rules: RuleSet, wanted, limit: int = 30_000) -> tuple[GameState, RoundStarted]:
    """The first seed's deal (round 1) for which `wanted(held)` is true; held = union of hands."""
    for seed in range(limit):
        state, (started,) = new_game(rules, seats(rules.players), seed)
        held = 0
        for hand in state.hands:
            held |= hand
        if wanted(held):
            return state, started
    raise AssertionError("no seed gives such a deal")


def holder(state: GameState, t: int) -> int:
    (seat,) = [s for s, hand in enumerate(state.hands) if hand >> t & 1]
    return seat


def check_lead(state: GameState, started: RoundStarted, text: str) -> None:
    t = tile(state.rules, text)
    assert started.lead_tile == t
    assert started.leader == holder(state, t) == state.to_move
    assert state.lead_tile == t
    assert legal_moves(state) == [Play(t, 0)]


def test_first_lead_1_1_holder_leads_with_it():
    one = mask(GOAT3, ["1-1"])
    state, started = find_deal(GOAT3, lambda held: bool(held & one))
    check_lead(state, started, "1-1")
    # whoever holds it: some seed deals 1-1 to each seat
    leaders = set()
    for seed in range(200):
        state, (started,) = new_game(GOAT3, seats(3), seed)
        if started.lead_tile == tile(GOAT3, "1-1"):
            leaders.add(started.leader)
    assert leaders == {0, 1, 2}


@pytest.mark.parametrize("index", range(1, len(SPEC_DOUBLES)))
def test_first_lead_next_double_when_the_earlier_ones_are_in_the_bazaar(index):
    """1-1 in the bazaar → 2-2 leads, …, then 6-6, then 0-0 after 6-6."""
    rules = GOAT2
    earlier = mask(rules, SPEC_DOUBLES[:index])
    this = mask(rules, SPEC_DOUBLES[index : index + 1])
    state, started = find_deal(rules, lambda held: not held & earlier and bool(held & this))
    check_lead(state, started, SPEC_DOUBLES[index])


def test_first_lead_without_doubles_is_5_6():
    doubles = GOAT2.tiles.doubles_mask
    top = mask(GOAT2, ["5-6"])
    state, started = find_deal(GOAT2, lambda held: not held & doubles and bool(held & top))
    check_lead(state, started, "5-6")


def test_first_lead_without_doubles_or_5_6_is_4_6():
    gone = GOAT2.tiles.doubles_mask | mask(GOAT2, ["5-6"])
    top = mask(GOAT2, ["4-6"])
    state, started = find_deal(GOAT2, lambda held: not held & gone and bool(held & top))
    check_lead(state, started, "4-6")


def test_first_lead_order_of_plain_tiles_by_value():
    """Crafted hands without doubles: 5-6, then 4-6, then the higher value."""
    rules = GOAT2
    hands = [mask(rules, ["0-1", "4-6", "4-5"]), mask(rules, ["5-6", "0-2", "3-6"])]
    assert _first_lead(rules, hands, range(len(hands)), "k") == (1, tile(rules, "5-6"))
    hands = [mask(rules, ["0-1", "4-6", "4-5"]), mask(rules, ["1-6", "0-2", "3-6"])]
    assert _first_lead(rules, hands, range(len(hands)), "k") == (0, tile(rules, "4-6"))
    hands = [mask(rules, ["0-1", "2-4"]), mask(rules, ["1-2", "0-2", "2-5"])]
    assert _first_lead(rules, hands, range(len(hands)), "k") == (1, tile(rules, "2-5"))


def test_first_lead_without_doubles_4_5_before_3_6():
    rules = GOAT2
    hands = [mask(rules, ["0-1", "3-6"]), mask(rules, ["0-2", "4-5"])]
    assert _first_lead(rules, hands, range(len(hands)), "k") == (1, tile(rules, "4-5"))


def test_first_lead_follows_the_spec_order_for_many_deals():
    order = [tile(GOAT4, text) for text in SPEC_DOUBLES]
    for n in (2, 3, 4):
        rules = GOAT4.with_players(n)
        for seed in range(300):
            state, (started,) = new_game(rules, seats(n), seed)
            held = [t for hand in state.hands for t in tiles_of(hand)]
            doubles = [t for t in order if t in held]
            if doubles:
                assert started.lead_tile == doubles[0]
            else:
                values = rules.tiles.values
                assert values[started.lead_tile] == max(values[t] for t in held)
            assert started.leader == holder(state, started.lead_tile)


def test_classic_first_lead_is_the_highest_double_every_round():
    for n in (2, 3, 4):
        rules = parse_rules("classic", players=n)
        for seed in range(100):
            state, (started,) = new_game(rules, seats(n), seed)
            held = [t for hand in state.hands for t in tiles_of(hand)]
            doubles = [t for t in held if rules.tiles.is_double(t)]
            best = max(doubles, key=lambda t: rules.tiles.pips[t][0]) if doubles else None
            if best is not None:
                assert started.lead_tile == best
            assert started.leader == holder(state, started.lead_tile)
    # the later rounds follow the same rule (next_lead=first_rule)
    rules = parse_rules("classic", players=2)
    seen = 0
    for step in random_game(rules, 5, 5):
        for event in step.events:
            if isinstance(event, RoundStarted):
                assert event.lead_tile is not None
                held = [t for hand in step.after.hands for t in tiles_of(hand)]
                doubles = [t for t in held if rules.tiles.is_double(t)]
                if doubles:
                    assert event.lead_tile == max(doubles, key=rules.tiles.pips.__getitem__)
                seen += 1
    assert seen >= 2


def test_classic_hands_are_5_tiles_with_3_or_4_players():
    for n, size in [(2, 7), (3, 5), (4, 5)]:
        state, _ = new_game(parse_rules("classic", players=n), seats(n), 3)
        assert state.hand_sizes() == (size,) * n
        assert len(state.bazaar) == 28 - n * size


# -- §1.3 redeal ---------------------------------------------------------------------------

NO_REDEAL = parse_rules("goat redeal_doubles=0 redeal_suit=0", players=2)


def worst(rules: RuleSet, hands: tuple[int, ...]) -> tuple[int, int]:
    """The most doubles and the most tiles of one suit in any hand."""
    tiles = rules.tiles
    doubles = max((h & tiles.doubles_mask).bit_count() for h in hands)
    suit = max((h & s).bit_count() for h in hands for s in tiles.suit_masks)
    return doubles, suit


@pytest.mark.parametrize(("reason", "limit_index"), [("doubles", 0), ("suit", 1)])
def test_redeal_when_a_hand_breaks_the_condition(reason, limit_index):
    for seed in range(20_000):
        state, (started,) = new_game(GOAT2, seats(2), seed)
        if started.redeals[:1] == (reason,):
            break
    else:
        raise AssertionError(f"no seed redeals for {reason}")
    assert worst(GOAT2, state.hands)[0] < 5
    assert worst(GOAT2, state.hands)[1] < 6
    # without redeals the same seed keeps the deal that was thrown away
    kept, (none,) = new_game(NO_REDEAL, seats(2), seed)
    assert none.redeals == ()
    assert worst(NO_REDEAL, kept.hands)[limit_index] >= (5, 6)[limit_index]
    assert kept.hands != state.hands


def test_no_dealt_hand_breaks_a_redeal_condition():
    redealt = 0
    for n in (2, 3, 4):
        rules = GOAT4.with_players(n)
        for seed in range(700):
            state, (started,) = new_game(rules, seats(n), seed)
            doubles, suit = worst(rules, state.hands)
            assert doubles < 5
            assert suit < 6
            assert set(started.redeals) <= {"doubles", "suit"}
            redealt += bool(started.redeals)
    assert redealt > 0


# -- §2.4 / §2.8 scoring through the engine ---------------------------------------------


def test_remembered_points_masha_alex_olya_serg_through_the_engine():
    tally = Tally((0, 0, 0, 0), (19, 0, 7, 4), (False,) * 4, 0)
    hands = [["3-4"], ["1-2"], ["6-6", "0-1"], ["2-3"]]
    state = crafted(GOAT4, hands, bazaar=(), tally=tally)
    state, events = apply(state, Play(tile(GOAT4, "3-4"), 0))  # Masha leads her last tile
    ended = round_ended(events)
    assert ended.reason == "out"
    assert ended.seat == 0
    assert [r.hand_value for r in ended.results] == [0, 3, 13, 5]
    assert [r.remembered_after for r in ended.results] == [0, 3, 0, 9]
    assert [r.score_after for r in ended.results] == [0, 0, 20, 0]
    assert state.tally.remembered == (0, 3, 0, 9)
    assert state.tally.opened == (False, False, True, False)
    # the player who went out leads the next round, with any tile
    state, (started,) = next_round(state)
    assert (started.leader, started.lead_tile) == (0, None)
    assert state.tally.remembered == (0, 3, 0, 9)


def test_teams_losing_team_scores_both_members_through_the_engine():
    rules = parse_rules("goat_teams")
    tally = Tally((0, 0), (5, 4), (False, False), 0)
    hands = [["3-4"], ["1-2", "0-3"], ["6-6"], ["2-3", "1-1", "0-4"]]
    state = crafted(rules, hands, bazaar=(), tally=tally)
    state, events = apply(state, Play(tile(rules, "3-4"), 0))
    ended = round_ended(events)
    assert [r.side for r in ended.results] == [0, 1, 0, 1]
    assert [r.round_points for r in ended.results] == [0, 17, 0, 17]
    assert [r.score_after for r in ended.results] == [0, 21, 0, 21]
    assert state.tally.remembered == (0, 0)
    assert state.tally.scores == (0, 21)


def test_teams_game_end_partners_share_places():
    rules = parse_rules("goat_teams")
    tally = Tally((30, 95), (0, 0), (True, True), 0)
    hands = [["3-4"], ["1-2", "0-3"], ["6-6"], ["2-3", "1-1", "0-4"]]
    state = crafted(rules, hands, bazaar=(), tally=tally)
    state, events = apply(state, Play(tile(rules, "3-4"), 0))
    assert state.phase is Phase.GAME_OVER
    (outcome,) = [e for e in events if isinstance(e, GameEnded)]
    assert outcome == state.outcome
    assert outcome.reason == "target"
    places = {p.seat: (p.side, p.place, p.goat, p.score, p.rating_points) for p in outcome.places}
    assert places == {
        0: (0, 1, False, 30, 7),
        2: (0, 1, False, 30, 7),
        1: (1, 2, True, 112, 0),
        3: (1, 2, True, 112, 0),
    }
    with pytest.raises(IllegalMoveError) as error:
        next_round(state)
    assert error.value.reason == "not_round_over"


def test_goat_game_end_places_and_rating_through_the_engine():
    tally = Tally((90, 0, 50), (0, 8, 0), (True, False, True), 0)
    hands = [["5-6", "0-1"], ["3-4"], ["1-2"]]
    state = crafted(GOAT3, hands, tally=tally, to_move=1)
    state, events = apply(state, Play(tile(GOAT3, "3-4"), 0))
    assert state.phase is Phase.GAME_OVER
    assert events[-1] == state.outcome
    assert state.tally.scores == (102, 0, 53)
    assert state.tally.remembered == (0, 0, 0)
    places = [(p.seat, p.place, p.goat, p.rating_points) for p in state.outcome.places]
    assert places == [(1, 1, False, 10), (2, 2, False, 5), (0, 3, True, 0)]
    assert legal_moves(state) == []


def test_goat_game_goes_on_below_the_target():
    tally = Tally((88, 0, 50), (0, 0, 0), (True, False, True), 0)
    state = crafted(GOAT3, [["5-6", "0-1"], ["3-4"], ["1-2"]], tally=tally, to_move=1)
    state, events = apply(state, Play(tile(GOAT3, "3-4"), 0))
    assert state.phase is Phase.ROUND_OVER
    assert state.outcome is None
    assert not any(isinstance(e, GameEnded) for e in events)
    assert state.tally.scores == (100, 0, 53)


# -- §3 Sea Goat through the engine ------------------------------------------------------

SEA = parse_rules("sea_goat")


def test_sea_goat_double_pair_is_one_move():
    hands = [["3-5", "1-1", "0-1"], ["3-3", "5-5", "2-4"]]
    state, _ = play_chain(crafted(SEA, hands), [("3-5", 0)])
    pair = PlayDoubles((tile(SEA, "3-3"), tile(SEA, "5-5")), (0, 1))
    moves = legal_moves(state)
    assert pair in moves
    assert Play(tile(SEA, "3-3"), 0) in moves
    assert Play(tile(SEA, "5-5"), 1) in moves
    state, events = apply(state, pair)
    assert events[0] == DoublesPlayed(1, pair.tiles, (0, 1))
    assert names(SEA, state.hands[1]) == {"2-4"}
    assert state.ends == (3, 5)
    assert state.table.arms == ((tile(SEA, "3-3"),), (tile(SEA, "5-5"),))
    assert state.on_table == mask(SEA, ["3-5", "3-3", "5-5"])


def test_double_pair_is_only_offered_with_the_option():
    hands = [["3-5", "1-1", "0-1"], ["3-3", "5-5", "2-4"]]
    state, _ = play_chain(crafted(GOAT2, hands), [("3-5", 0)])
    assert not any(isinstance(m, PlayDoubles) for m in legal_moves(state))


def test_bald_goat_out_with_0_0_wins_the_game():
    hands = [["0-3", "1-2"], ["0-0"]]
    state, _ = play_chain(crafted(SEA, hands), [("0-3", 0)])
    state, events = apply(state, Play(tile(SEA, "0-0"), 0))
    assert round_ended(events).reason == "out"
    assert state.phase is Phase.GAME_OVER
    assert state.outcome.reason == "bald_goat"
    assert [(p.seat, p.place, p.goat) for p in state.outcome.places] == [
        (1, 1, False),
        (0, 2, True),
    ]


def test_bald_goat_out_with_6_6_wins_if_a_loser_holds_25():
    hands = [["3-6", "5-6", "4-6", "4-5"], ["6-6"]]  # 30 left after the lead
    state, _ = play_chain(crafted(SEA, hands), [("3-6", 0)])
    state, _ = apply(state, Play(tile(SEA, "6-6"), 1))
    assert state.phase is Phase.GAME_OVER
    assert state.outcome.reason == "bald_goat"
    assert state.outcome.places[0].seat == 1


def test_out_with_6_6_is_an_ordinary_win_if_no_loser_holds_25():
    hands = [["3-6", "5-6", "4-6", "0-1"], ["6-6"]]  # 22 left after the lead
    state, _ = play_chain(crafted(SEA, hands), [("3-6", 0)])
    state, events = apply(state, Play(tile(SEA, "6-6"), 1))
    assert state.phase is Phase.ROUND_OVER
    assert state.outcome is None
    assert round_ended(events).reason == "out"
    assert state.tally.scores == (0, 0)  # 22 < 25: not recorded


def test_bald_goat_out_with_the_pair_0_0_and_6_6():
    hands = [["0-6", "1-2"], ["0-0", "6-6"]]
    state, _ = play_chain(crafted(SEA, hands), [("0-6", 0)])
    pair = PlayDoubles((tile(SEA, "0-0"), tile(SEA, "6-6")), (0, 1))
    assert pair in legal_moves(state)
    state, _ = apply(state, pair)
    assert state.phase is Phase.GAME_OVER
    assert state.outcome.reason == "bald_goat"
    assert state.outcome.places[0].seat == 1


def test_bald_goat_is_off_without_the_option():
    rules = parse_rules("sea_goat bald_goat=no")
    state, _ = play_chain(crafted(rules, [["0-3", "1-2"], ["0-0"]]), [("0-3", 0)])
    state, _ = apply(state, Play(tile(rules, "0-0"), 0))
    assert state.phase is Phase.ROUND_OVER


@pytest.mark.parametrize(("before", "over"), [(99, False), (100, True)])
def test_sea_goat_target_125_through_the_engine(before, over):
    tally = Tally((before, 0), (0, 0), (False, False), 0)
    hands = [["1-2"], ["5-6", "4-6", "1-3"]]  # seat 1 is left with 25
    state = crafted(SEA, hands, tally=tally)
    state, _ = apply(state, Play(tile(SEA, "1-2"), 0))
    assert state.tally.scores == (before + 25, 0)
    assert (state.phase is Phase.GAME_OVER) is over
    if over:
        assert state.outcome.reason == "target"
        assert [(p.seat, p.goat) for p in state.outcome.places] == [(0, False), (1, True)]


def test_sea_goat_write_off_through_the_engine():
    tally = Tally((30, 0), (0, 0), (False, False), 0)
    hands = [["5-6", "4-6", "1-3"], ["1-2"]]
    state = crafted(SEA, hands, tally=tally, to_move=1)
    state, events = apply(state, Play(tile(SEA, "1-2"), 0))
    ended = round_ended(events)
    assert ended.written_off
    assert state.tally.scores == (0, 0)
    assert [r.round_points for r in ended.results] == [0, 0]


def test_classic_winner_collects_through_the_engine():
    rules = parse_rules("classic", players=3)
    tally = Tally((10, 20, 0), (0, 0, 0), (False,) * 3, 0)
    state = crafted(rules, [["5-6", "0-1"], ["3-4"], ["1-2", "0-0"]], tally=tally, to_move=1)
    state, events = apply(state, Play(tile(rules, "3-4"), 0))
    assert round_ended(events).reason == "out"
    assert state.tally.scores == (10, 35, 0)
    # classic: the next round is led by the first-lead rule again, not by the winner
    state, (started,) = next_round(state)
    assert started.lead_tile is not None
    assert state.lead_tile == started.lead_tile


# -- §1.5 drawing -------------------------------------------------------------------------


def test_until_playable_draws_until_a_tile_fits_and_keeps_the_drawn_tiles():
    hands = [["1-2", "0-0", "6-6"], ["3-4", "5-5"]]
    state = crafted(GOAT2, hands, bazaar=["3-3", "4-4", "1-5", "0-6"])
    state, events = apply(state, Play(tile(GOAT2, "1-2"), 0))
    assert [type(e) for e in events] == [TilePlayed, TilesDrawn]
    assert events[1].number == 3
    assert events[1].tiles == tuple(tile(GOAT2, t) for t in ("3-3", "4-4", "1-5"))
    assert state.to_move == 1
    assert names(GOAT2, state.hands[1]) == {"3-4", "5-5", "3-3", "4-4", "1-5"}
    assert state.bazaar == (tile(GOAT2, "0-6"),)
    assert state.history[-1] == TilesDrawn(1, 3, (1, 2))  # the public record hides tiles
    assert legal_moves(state) == [Play(tile(GOAT2, "1-5"), 0)]


def test_manual_draw_with_auto_draw_off():
    rules = parse_rules("goat auto_draw=no", players=2)
    hands = [["1-2", "0-0", "6-6"], ["3-4", "5-5"]]
    state = crafted(rules, hands, bazaar=["3-3", "1-5", "0-6"])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert [type(e) for e in events] == [TilePlayed]
    assert legal_moves(state) == [Draw()]
    state, events = apply(state, Draw())
    assert events == (TilesDrawn(1, 1, (1, 2), (tile(rules, "3-3"),)),)
    assert legal_moves(state) == [Draw()]
    state, _ = apply(state, Draw())
    assert legal_moves(state) == [Play(tile(rules, "1-5"), 0)]


def test_knock_when_the_bazaar_cannot_help():
    rules = parse_rules("goat keep=1", players=2)
    hands = [["1-2", "0-0", "2-6"], ["3-4", "5-5"]]
    state = crafted(rules, hands, bazaar=["3-3", "1-5"])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert [type(e) for e in events] == [TilePlayed, TilesDrawn, Knocked]
    assert events[2] == Knocked(1, (1, 2))
    assert state.bazaar == (tile(rules, "1-5"),)  # the kept tile is never drawn
    assert state.to_move == 0


def test_draw_one_round_is_not_blocked_while_the_bazaar_can_help():
    rules = parse_rules("goat draw=one", players=2)
    hands = [["1-2", "0-0", "6-6"], ["3-4", "5-5"]]
    state = crafted(rules, hands, bazaar=["3-3", "4-4", "1-5", "0-6"])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    # seat 1 draws 3-3 and knocks; seat 0 draws 4-4 and knocks; 1-5 and 0-6 are still there
    assert [type(e) for e in events[:5]] == [TilePlayed, TilesDrawn, Knocked, TilesDrawn, Knocked]
    assert state.phase is Phase.PLAYING
    assert not any(isinstance(e, RoundEnded) for e in events)


def test_draw_one_draws_a_single_tile_then_knocks():
    rules = parse_rules("goat draw=one", players=2)
    hands = [["1-2", "0-0", "1-6"], ["3-4", "5-5"]]
    state = crafted(rules, hands, bazaar=["3-3", "4-4", "1-5"])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert [type(e) for e in events] == [TilePlayed, TilesDrawn, Knocked]
    assert events[1].number == 1
    assert state.to_move == 0
    assert state.phase is Phase.PLAYING


# -- determinism ----------------------------------------------------------------------------


def test_same_seed_same_deal():
    for text, n in [("goat", 4), ("goat", 2), ("classic", 3), ("sea_goat", 2)]:
        rules = parse_rules(text, players=n)
        for seed in (0, 1, 12345, 2**40 + 7):
            assert new_game(rules, seats(n), seed) == new_game(rules, seats(n), seed)


def test_different_seeds_different_deals():
    deals = {new_game(GOAT2, seats(2), seed)[0].hands for seed in range(50)}
    assert len(deals) == 50


def test_different_round_numbers_different_deals():
    for seed in range(15):
        first, _ = new_game(GOAT2, seats(2), seed)
        dealt = first.hands, first.bazaar
        rng = random.Random(seed)
        state = first
        while state.phase is Phase.PLAYING:
            state, _ = apply(state, rng.choice(legal_moves(state)))
        second, (started,) = next_round(state)
        assert started.round_no == 2
        assert (second.hands, second.bazaar) != dealt
        # and round 2 of the same seed is dealt the same whatever happened in round 1
        other = first
        rng = random.Random(seed + 1000)
        while other.phase is Phase.PLAYING:
            other, _ = apply(other, rng.choice(legal_moves(other)))
        if other.phase is Phase.ROUND_OVER:
            assert next_round(other)[0].hands == second.hands


def test_timeout_rating_through_abandon():
    """§2.7: leaver Alex 32; Masha 30 gains 1, Olya 13 gains 2; the leaver gains nothing."""
    state, _ = new_game(GOAT4, seats(4), 7)
    state = state._replace(tally=Tally((30, 32, 13, 50), (0, 0, 0, 0), (True,) * 4, 0))
    state, (outcome,) = abandon(state, 1)
    assert state.phase is Phase.GAME_OVER
    assert state.outcome == outcome
    assert (outcome.reason, outcome.leaver) == ("timeout", 1)
    places = {p.seat: (p.place, p.goat, p.rating_points) for p in outcome.places}
    assert places == {2: (1, False, 2), 0: (2, False, 1), 3: (3, False, 1), 1: (4, True, 0)}
    assert legal_moves(state) == []


def test_a_seat_left_to_the_computer_is_settled_by_the_timeout_rule_at_the_end():
    """Alex leaves at 32 and the game is played on (the computer has his seat): when Masha
    reaches the target, the leaver — not Masha — is the goat and gains nothing; the others
    gain by the distance to his final score (§2.7)."""
    dealt, _ = new_game(GOAT4, seats(4), 7)
    state = leave(dealt, 1)
    assert state.left == (1,) and state.phase is Phase.PLAYING
    assert serial.step(dealt, json.loads(json.dumps(serial.leave_entry(1)))) == state  # the log
    assert serial.state_from_json(json.loads(json.dumps(serial.state_to_json(state)))) == state
    with pytest.raises(IllegalMoveError):
        leave(state, 1)
    state = state._replace(tally=Tally((99, 40, 13, 50), (0, 0, 0, 0), (True,) * 4, 0))
    rng = random.Random(3)
    while state.outcome is None:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            assert state.left == (1,)
        state, _ = apply(state, rng.choice(legal_moves(state)))
    outcome = state.outcome
    assert outcome.reason == "target" and outcome.leaver == 1
    scores = state.tally.scores
    last = outcome.places[-1]
    assert (last.seat, last.goat, last.rating_points) == (1, True, 0)
    for place in outcome.places[:-1]:
        assert not place.goat
        assert place.rating_points == max(1, (scores[1] - scores[place.seat] + 5) // 10)


def test_the_last_person_to_leave_ends_the_game_with_every_leaver_a_goat():
    state, _ = new_game(GOAT4, seats(4), 7)
    state = state._replace(tally=Tally((30, 32, 13, 50), (0, 0, 0, 0), (True,) * 4, 0))
    state, (outcome,) = abandon(leave(state, 1), 3)
    assert state.left == (1, 3) and (outcome.reason, outcome.leaver) == ("timeout", 1)
    places = {p.seat: (p.place, p.goat, p.rating_points) for p in outcome.places}
    assert places == {2: (1, False, 2), 0: (2, False, 1), 1: (3, True, 0), 3: (4, True, 0)}


def test_three_full_circles_of_passes_end_a_round_whatever_the_bazaar_holds():
    """RULES §1.6, Decision: with voluntary passes a round ends after 3 full circles of
    passes in a row (a fish, its fisherman whoever placed the last tile) — before, two
    players could pass for ever with tiles left to draw."""
    rules = parse_rules("goat voluntary_pass=yes", players=2)
    state = crafted(rules, [["1-1", "1-2", "3-4"], ["1-3", "5-6", "0-0"]])
    state, _ = apply(state, Play(tile(rules, "1-1"), 0))
    assert state.bazaar  # tiles are left to draw: no fish by the bazaar rule
    pass_ = next(m for m in legal_moves(state) if not isinstance(m, (Play, Draw)))
    for _ in range(3 * rules.players - 1):
        state, events = apply(state, pass_)
        assert state.phase is Phase.PLAYING
        assert not any(isinstance(e, RoundEnded) for e in events)
    state, events = apply(state, pass_)
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert (ended.reason, ended.seat) == ("fish", 0)
    assert state.phase is not Phase.PLAYING
