"""The spinner games (RULES §5–§7): the four-way table, closed doubles, several doubles in
one move, points for the open ends, and races to a target. Worked examples are named."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.game import (
    IllegalMoveError,
    Phase,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
)
from bot.game.events import Event, GameEnded, RoundEnded, Scored, TilesDrawn
from bot.game.moves import Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.game.table import CLOSED, attach, ends_sum, sum_after
from tests import helpers
from tests.helpers import crafted, fives, round_fives, tile

TELEPHONE = parse_rules("telephone", players=2)
MUGGINS = parse_rules("muggins", players=2)
DONKEY = parse_rules("donkey", players=2)


def play(state: GameState, text: str, end: int, closed: bool = False) -> GameState:
    return helpers.play(state, text, end, closed)[0]


def scored(state: GameState) -> list[tuple[int, int, int]]:
    """`(seat, ends sum, points)` of this round's scoring moves."""
    return [(e.seat, e.ends_sum, e.points) for e in state.history if isinstance(e, Scored)]


def doubles(state: GameState, *placed: tuple[str, int, bool]) -> GameState:
    tiles = tuple(tile(state.rules, text) for text, _, _ in placed)
    ends = tuple(end for _, end, _ in placed)
    closed = tuple(c for _, _, c in placed)
    return apply(state, PlayDoubles(tiles, ends, closed if any(closed) else ()))[0]


# -- Телефон (§6) --------------------------------------------------------------------------


def telephone_house() -> GameState:
    state = crafted(
        TELEPHONE, [["4-4", "6-6", "4-5", "0-1"], ["4-6", "3-4", "0-2", "1-4"]], bazaar=[]
    )
    state = play(state, "4-4", 0)  # the house: four sides at once
    assert state.ends == (4, 4, 4, 4)
    state = play(state, "4-6", 0)
    return play(state, "6-6", 0)


def test_telephone_6_6_plus_3_is_15_scores_3():
    state = play(telephone_house(), "3-4", 1)
    assert state.ends == (6, 3, 4, 4)
    assert scored(state) == [(1, 15, 3)]
    assert state.tally.scores == (0, 3)


def test_telephone_6_6_plus_3_plus_5_is_20_scores_4():
    state = play(play(telephone_house(), "3-4", 1), "4-5", 2)
    assert scored(state)[-1] == (0, 20, 4)
    assert state.tally.scores == (4, 3)


def test_telephone_a_lone_house_counts_both_halves():
    state = crafted(TELEPHONE, [["5-5", "0-1"], ["5-6", "0-2"]], bazaar=[])
    state = play(state, "5-5", 0)
    assert scored(state) == [(0, 10, 2)]
    state = play(state, "5-6", 3)  # the other three sides are bare: they count nothing
    assert ends_sum(TELEPHONE.tiles, state.ends, state.spread, None) == 6


def test_telephone_a_house_laid_on_the_line_opens_four_sides_and_counts_nothing_bare():
    state = crafted(TELEPHONE, [["2-3", "3-3", "0-0"], ["2-5", "0-1", "1-1"]], bazaar=[])
    state = play(play(play(state, "2-3", 0), "2-5", 0), "3-3", 1)
    assert state.ends == (5, 3, 3, 3)
    assert state.table.first == tile(TELEPHONE, "3-3")
    assert state.table.arms[0] == (tile(TELEPHONE, "2-3"), tile(TELEPHONE, "2-5"))
    assert scored(state) == [(0, 5, 1), (0, 5, 1)]  # the lead 2-3; then 5 + three bare sides


def test_telephone_going_out_scores_the_others_pips_over_5_rounded_up():
    state = crafted(TELEPHONE, [["1-2"], ["5-6"]], bazaar=["0-0"])
    state = play(state, "1-2", 0)
    ended = state.last_round
    assert ended is not None and ended.reason == "out"
    assert ended.results[0].round_points == 3  # 11 / 5 = 2.2 → 3
    assert ended.results[0].play_points == 0  # 1 + 2 = 3: no multiple of 5
    assert state.tally.scores == (3, 0)


@pytest.mark.parametrize(("pips", "points"), [(0, 0), (1, 1), (5, 1), (6, 2), (10, 2), (11, 3)])
def test_telephone_round_points_are_rounded_up(pips, points):
    assert round_fives(TELEPHONE, pips) == points


def test_telephone_a_blocked_round_the_lowest_hand_scores_the_differences():
    rules = parse_rules("telephone draw=none", players=3)
    state = crafted(rules, [["0-0", "1-2"], ["6-6", "5-6"], ["1-3", "4-4"]], bazaar=[])
    state = play(state, "0-0", 0)  # the house 0-0: nobody holds another 0
    ended = state.last_round
    assert ended is not None and ended.reason == "fish"
    # hands 3, 23, 12: seat 0 scores (23 - 3) + (12 - 3) = 29 → 6 (rounded up)
    assert [r.round_points for r in ended.results] == [6, 0, 0]


def test_telephone_a_blocked_round_with_a_tie_for_the_lowest_scores_nothing():
    rules = parse_rules("telephone draw=none", players=3)
    state = crafted(rules, [["0-0", "3-3"], ["6-6", "5-6"], ["1-5"]], bazaar=[])
    state = play(state, "0-0", 0)
    ended = state.last_round
    assert ended is not None and ended.reason == "fish"
    assert [r.round_points for r in ended.results] == [0, 0, 0]


def test_telephone_ends_the_game_the_moment_someone_reaches_72():
    state = play(telephone_house(), "3-4", 1)._replace(
        tally=Tally((70, 3), (0, 0), (False,) * 2, 0)
    )
    state = play(state, "4-5", 2)  # +4: 74
    assert state.phase is Phase.GAME_OVER
    assert state.last_round is not None and state.last_round.reason == "target"
    assert state.outcome is not None and state.outcome.reason == "target"
    assert [(p.seat, p.place, p.score, p.goat) for p in state.outcome.places] == [
        (0, 1, 74, False),
        (1, 2, 3, False),
    ]
    assert all(p.rating_points == 0 for p in state.outcome.places)


def test_telephone_up_to_four_doubles_in_one_move_score_once():
    rules = parse_rules("telephone doubles=4", players=2)
    state = crafted(rules, [["3-4", "0-0"], ["3-3", "4-4", "1-2"]], bazaar=[])
    state = play(state, "3-4", 0)
    state = doubles(state, ("3-3", 0, False), ("4-4", 1, False))
    assert state.table.first == tile(rules, "3-3")  # the first open double is the house
    assert state.ends == (3, 4, 3, 3)
    assert scored(state) == []  # the house's sides are bare, 4-4 counts both halves: 8
    assert ends_sum(rules.tiles, state.ends, state.spread, None) == 8  # 4-4 counts both halves


# -- Muggins (§7) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pips", "points"),
    [(0, 0), (1, 0), (2, 0), (3, 5), (5, 5), (7, 5), (8, 10), (12, 10), (13, 15), (27, 25)],
)
def test_muggins_rounding_bands(pips, points):
    """1–2 → 0, 3–7 → 5, 8–12 → 10, … (§7)."""
    assert round_fives(MUGGINS, pips) == points


@pytest.mark.parametrize(("total", "points"), [(5, 5), (10, 10), (15, 15), (20, 20), (12, 0)])
def test_muggins_scores_the_sum_when_it_is_a_multiple_of_5(total, points):
    assert fives(MUGGINS, total) == points
    assert fives(TELEPHONE, total) == points // 5


def test_muggins_spinner_opens_its_sides_only_once_both_long_sides_hold_a_tile():
    state = crafted(MUGGINS, [["5-5", "5-6", "0-0"], ["0-5", "2-5", "1-1"]], bazaar=[])
    state = play(state, "5-5", 0)
    assert state.ends == (5, 5)
    assert scored(state) == [(0, 10, 10)]  # a lone spinner counts both halves
    state = play(state, "0-5", 0)
    assert state.ends == (0, 5)  # the bare long side still counts both halves: 0 + 10
    assert scored(state)[-1] == (1, 10, 10)
    state = play(state, "5-6", 1)
    assert state.ends == (0, 6, 5, 5)  # both long sides hold a tile: the other two open
    assert ends_sum(MUGGINS.tiles, state.ends, state.spread, None) == 6
    state = play(state, "2-5", 2)
    assert ends_sum(MUGGINS.tiles, state.ends, state.spread, None) == 8


def test_muggins_going_out_scores_the_opponents_pips_rounded_to_5():
    state = crafted(MUGGINS, [["1-3"], ["2-6", "0-0"]], bazaar=["4-4"])
    state = play(state, "1-3", 0)
    ended = state.last_round
    assert ended is not None and ended.reason == "out"
    assert ended.results[0].round_points == 10  # 8 → 10
    assert scored(state) == []  # 1 + 3 = 4


def test_muggins_teams_score_the_opponents_pips_not_the_partners():
    rules = parse_rules("muggins teams=yes", players=4)
    state = crafted(rules, [["1-3"], ["2-6"], ["5-6"], ["0-1"]], bazaar=[])
    state = play(state, "1-3", 0)
    ended = state.last_round
    assert ended is not None
    # seats 1 and 3 (8 + 1 = 9 → 10); the partner's 11 does not count
    assert [r.round_points for r in ended.results] == [10, 0, 10, 0]
    assert state.tally.scores == (10, 0)


def test_muggins_a_blocked_round_scores_the_differences_rounded():
    rules = parse_rules("muggins draw=none", players=3)
    state = crafted(rules, [["0-0", "1-1"], ["6-6", "4-5"], ["1-2", "3-3"]], bazaar=[])
    state = play(state, "0-0", 0)
    ended = state.last_round
    assert ended is not None and ended.reason == "fish"
    # hands 2, 21, 9: seat 0 scores 19 + 7 = 26 → 25
    assert [r.round_points for r in ended.results] == [25, 0, 0]


def test_going_out_on_the_target_counts_the_move_and_the_round():
    """The race Decision (docs/RULES.md, before §7): a lone 5-5 scores 10 → 2 and empties
    the hand: 70 + 2 reaches 72, and the going-out settlement adds the other's 7 pips / 5
    rounded up = 2 — both count, 74, and the game ends at once."""
    state = crafted(TELEPHONE, [["5-5"], ["2-3", "1-1"]], bazaar=[])
    state = state._replace(tally=Tally((70, 0), (0, 0), (False, False), 0))
    state, events = apply(state, Play(tile(TELEPHONE, "5-5"), 0))
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert ended.reason == "out"
    assert (ended.results[0].play_points, ended.results[0].round_points) == (2, 2)
    assert state.tally.scores == (74, 0)
    assert isinstance(events[-1], GameEnded)
    assert [(p.seat, p.place, p.score) for p in events[-1].places] == [(0, 1, 74), (1, 2, 0)]


def test_muggins_plays_to_250_with_two_and_200_with_more():
    assert parse_rules("muggins", players=2).goal == 250
    assert parse_rules("muggins", players=3).goal == 200
    assert parse_rules("muggins target=150", players=2).goal == 150
    assert parse_rules("muggins").hand_for(2) == 7
    assert parse_rules("muggins").hand_for(3) == 5


def test_muggins_the_target_is_checked_in_play_and_ties_below_share_a_place():
    rules = parse_rules("muggins", players=3)
    state = crafted(rules, [["5-5", "0-1"], ["2-3", "1-1"], ["4-6", "2-2"]], bazaar=[])
    state = state._replace(tally=Tally((195, 40, 40), (0,) * 3, (False,) * 3, 0))
    state, events = apply(state, Play(tile(rules, "5-5"), 0))
    assert isinstance(events[-1], GameEnded)
    assert [(p.seat, p.place) for p in events[-1].places] == [(0, 1), (1, 2), (2, 2)]
    assert state.last_round is not None and state.last_round.results[0].play_points == 10


def test_muggins_the_first_leader_is_drawn_by_lot_and_leads_any_tile():
    leaders = set()
    for seed in range(12):
        state, _ = new_game(MUGGINS, ("a", "b"), seed)
        assert state.lead_tile is None
        leaders.add(state.to_move)
    assert leaders == {0, 1}


# -- Осёл (§5) ------------------------------------------------------------------------------


def test_donkey_the_first_open_double_opens_four_sides_at_once():
    state = crafted(DONKEY, [["2-3", "3-3", "0-0"], ["2-5", "3-6", "1-1"]], bazaar=[])
    state = play(play(state, "2-3", 0), "2-5", 0)
    state = play(state, "3-3", 1)
    assert state.ends == (5, 3, 3, 3)
    assert {m.end for m in legal_moves(state) if isinstance(m, Play)} == {1, 2, 3}


def test_donkey_the_lead_is_never_closed():
    state = crafted(DONKEY, [["3-3", "0-0"], ["2-5", "3-6"]], bazaar=[])
    assert Play(tile(DONKEY, "3-3"), 0, True) not in legal_moves(state)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Play(tile(DONKEY, "3-3"), 0, True))
    assert error.value.reason == "cannot_close"


def test_donkey_a_closed_double_ends_its_arm_and_never_becomes_the_spinner():
    state = crafted(DONKEY, [["2-3", "5-5", "0-1"], ["2-5", "3-3", "3-6"]], bazaar=[])
    state = play(play(state, "2-3", 0), "2-5", 0)
    state = play(state, "5-5", 0, closed=True)
    assert state.ends == (CLOSED, 3)
    assert state.spread.spinner is None
    assert state.table.closed == 1 << tile(DONKEY, "5-5")
    assert all(m.end == 1 for m in legal_moves(state) if isinstance(m, Play))
    state = play(state, "3-3", 1)  # open: the spinner, opening its sides
    assert state.ends == (CLOSED, 3, 3, 3)


def test_donkey_only_doubles_may_be_closed_and_only_where_they_fit():
    state = crafted(DONKEY, [["2-3", "0-1"], ["2-5", "3-3"]], bazaar=[])
    state = play(state, "2-3", 0)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Play(tile(DONKEY, "2-5"), 0, True))
    assert error.value.reason == "cannot_close"
    with pytest.raises(IllegalMoveError):
        apply(state, Play(tile(DONKEY, "3-3"), 0, True))  # 3-3 fits the east end only


def test_donkey_several_doubles_in_one_move_one_per_end_any_of_them_closed():
    state = crafted(DONKEY, [["3-3", "3-6", "0-1"], ["3-5", "5-5", "6-6", "1-2"]], bazaar=[])
    assert not any(isinstance(m, PlayDoubles) for m in legal_moves(state))  # not as the lead
    state = play(play(play(state, "3-3", 0), "3-5", 0), "3-6", 1)
    assert state.ends == (5, 6, 3, 3)
    pairs = [m for m in legal_moves(state) if isinstance(m, PlayDoubles)]
    assert len(pairs) == 4  # 5-5 west and 6-6 east, each open or closed
    state = doubles(state, ("5-5", 0, False), ("6-6", 1, True))
    assert state.ends == (5, CLOSED, 3, 3)
    assert state.hands[1] == DONKEY.tiles.mask([tile(DONKEY, "1-2")])


def test_donkey_builds_three_doubles_at_once_and_the_first_open_one_is_the_spinner():
    state = crafted(DONKEY, [["2-4", "0-1"], ["2-2", "4-4", "1-1", "0-6"]], bazaar=[])
    state = play(state, "2-4", 0)
    move = PlayDoubles((tile(DONKEY, "2-2"), tile(DONKEY, "4-4")), (0, 1), (True, False))
    assert move in legal_moves(state)
    state = apply(state, move)[0]
    assert state.ends == (CLOSED, 4, 4, 4)
    assert state.spread.spinner == tile(DONKEY, "4-4")
    assert state.table.first == tile(DONKEY, "4-4")
    assert state.table.arms[0] == (tile(DONKEY, "2-4"), tile(DONKEY, "2-2"))


def test_donkey_two_closed_doubles_before_the_first_open_double_end_the_round_as_a_fish():
    state = crafted(DONKEY, [["2-4", "6-6"], ["2-2", "4-4", "5-6", "1-1"]], bazaar=["0-0"])
    state = play(state, "2-4", 0)
    state, events = apply(
        state, PlayDoubles((tile(DONKEY, "2-2"), tile(DONKEY, "4-4")), (0, 1), (True, True))
    )
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert (ended.reason, ended.seat) == ("fish", 1)
    # counted as a Козёл fish on one: the bigger hand (6-6 = 12 against 5-6 + 1-1 = 13) pays
    assert [r.round_points for r in ended.results] == [0, 25]


def test_donkey_closing_the_last_open_end_blocks_the_round():
    state = crafted(DONKEY, [["2-4", "4-4", "0-1"], ["2-2", "5-6", "3-3"]], bazaar=["1-1"])
    state = play(state, "2-4", 0)
    state = play(state, "2-2", 0, closed=True)
    state, events = apply(state, Play(tile(DONKEY, "4-4"), 1, True))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert (ended.reason, ended.seat) == ("fish", 0)


def test_doubles_at_once_need_the_option_distinct_ends_and_matching_doubles():
    rules: RuleSet = parse_rules("goat", players=2)
    state = crafted(rules, [["2-4", "0-1"], ["2-2", "4-4", "1-1"]], bazaar=[])
    state = play(state, "2-4", 0)
    pair = PlayDoubles((tile(rules, "2-2"), tile(rules, "4-4")), (0, 1))
    assert pair not in legal_moves(state)
    with pytest.raises(IllegalMoveError):
        apply(state, pair)
    donkey = crafted(DONKEY, [["2-4", "0-1"], ["2-2", "4-4", "1-1"]], bazaar=[])
    donkey = play(donkey, "2-4", 0)
    for bad in (
        PlayDoubles((tile(DONKEY, "2-2"), tile(DONKEY, "4-4")), (1, 0)),
        PlayDoubles((tile(DONKEY, "2-2"), tile(DONKEY, "1-1")), (0, 1)),
        PlayDoubles((tile(DONKEY, "2-2"),), (0,)),
    ):
        with pytest.raises(IllegalMoveError) as error:
            apply(donkey, bad)
        assert error.value.reason == "no_doubles"


def test_closed_doubles_need_the_option():
    state = crafted(TELEPHONE, [["2-4", "0-1"], ["2-2", "1-1"]], bazaar=[])
    state = play(state, "2-4", 0)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Play(tile(TELEPHONE, "2-2"), 0, True))
    assert error.value.reason == "cannot_close"


# -- a spinner layout's fish (§1.6, §5) ----------------------------------------------------

TELEPHONE_2902 = (
    "1-1 0, 1-4 2, 1-3 3, 3-3 3, 1-5 1, 5-6 1, 3-6 3, 6-6 3, 1-6 1, 1-2 0, 2-5 0, 4-4 2, "
    "0-4 2, 0-1 1, 5-5 0, 0-6 2, 0-0 1, 4-6 3, 0-5 0, 0-2 1, 2-4 3, 2-6 2, 0-3 0, 2-3 0"
)
DONKEY_5959 = (
    "1-1 0, 1-2 2, 0-2 2, 0-0 2 closed, 0-1 1, 1-4 0, 0-3 1, 4-6 0, 6-6 0 closed, 2-3 1, "
    "2-6 1, 5-6 1, 2-5 1, 1-3 3, 3-4 3, 2-4 3"
)
"""The issue's reproductions: round 1 of `new_game(rules, seats, seed)`, a move each."""


def replayed(rules: RuleSet, seed: int, moves: str) -> GameState:
    state = new_game(rules, [str(s) for s in range(rules.players)], seed)[0]
    for move in moves.split(", "):
        name, end, *closed = move.split()
        state = apply(state, Play(tile(rules, name), int(end), bool(closed)))[0]
    return state


@pytest.mark.parametrize(
    ("preset", "players", "seed", "moves", "ends"),
    [
        ("telephone", 4, 2902, TELEPHONE_2902, (2, 2, 2, 2)),
        ("donkey", 3, 5959, DONKEY_5959, (CLOSED, 2, CLOSED, 2)),
    ],
)
def test_a_spinner_round_is_no_fish_while_the_double_can_go(
    preset: str, players: int, seed: int, moves: str, ends: tuple[int, ...]
) -> None:
    """Every plain 2 is down and every open end shows 2, but 2-2 is still in a hand: on a
    spinner layout that is no fish (§5) — it goes on until 2-2 goes out."""
    rules = parse_rules(preset, players=players)
    state = replayed(rules, seed, moves)
    assert state.ends == ends
    assert state.phase is Phase.PLAYING
    double = tile(rules, "2-2")
    holder = next(seat for seat, hand in enumerate(state.hands) if hand >> double & 1)
    while state.to_move != holder:
        (knock,) = legal_moves(state)  # nobody else can move: knock (or draw) on
        state = apply(state, knock)[0]
    move = next(m for m in legal_moves(state) if isinstance(m, Play) and not m.closed)
    assert move.tile == double
    state, events = apply(state, move)
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert (ended.reason, ended.seat) == ("out", holder)


@pytest.mark.parametrize(
    ("preset", "players", "seed", "moves"),
    [
        ("telephone", 4, 2902, TELEPHONE_2902),
        ("donkey", 3, 5959, DONKEY_5959),
    ],
)
def test_games_of_the_first_edition_replay_to_their_fish(
    preset: str, players: int, seed: int, moves: str
) -> None:
    """Rules stored before editions (no `edition` key) are the first edition's, whose fish
    ended those rounds at once: a finished game's log replays to what it was."""
    options = parse_rules(preset, players=players).options()
    del options["edition"]
    old = RuleSet.from_options(options)
    assert old.edition == 1
    state = replayed(old, seed, moves)
    assert state.phase is Phase.ROUND_OVER
    assert state.last_round is not None and state.last_round.reason == "fish"


@pytest.mark.parametrize("preset", ["telephone", "muggins", "donkey", "fives_threes", "goat"])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
@example(seed=845237)  # Fives and Threes, two players: the lead 2-2 is a fish at once
def test_the_sum_after_a_tile_is_the_sum_of_the_table_it_leaves(preset: str, seed: int) -> None:
    """`sum_after` (the race heuristic's replies) against `attach` and `ends_sum`, for
    every tile at every arm of every table of random games."""
    rules = parse_rules(preset, players=2 if preset != "goat" else 4)
    tiles, chooser = rules.tiles, random.Random(seed)
    state, _ = new_game(rules, [f"p{i}" for i in range(rules.players)], seed)
    checked = 0
    while True:  # the round's last table too: a round may end on its lead (a fish at once)
        ends, spread = state.ends, state.spread
        if ends:
            now = ends_sum(tiles, ends, spread, None)
            for tile in range(tiles.size):
                for arm in range(len(ends) + 1):
                    laid = attach(tiles, rules.spinner, ends, spread, tile, arm)
                    want = None if laid is None else ends_sum(tiles, *laid, None)
                    assert sum_after(tiles, rules.spinner, ends, spread, now, tile, arm) == want
                    checked += 1
        if state.phase is not Phase.PLAYING:
            break
        moves = legal_moves(state)
        state, _ = apply(state, moves[chooser.randrange(len(moves))])
    assert checked


# -- a spinner game's line before its spinner (§1.6, edition 4) -----------------------------

MUGGINS_LINE = [
    ("1-4", 0), ("4-5", 1), ("0-1", 0), ("5-6", 1), ("0-4", 0), ("2-4", 0), ("4-6", 1),
    ("2-3", 0), ("3-4", 0),
]  # fmt: skip
"""A line led with 1-4 to the ends 4 and 4, no double played: 4-4 is the only 4 not down."""


def muggins_line(rules: RuleSet) -> tuple[GameState, tuple[Event, ...]]:
    state = crafted(
        rules,
        [
            ["1-4", "0-1", "0-4", "4-6", "3-4", "6-6", "1-5"],
            ["4-5", "5-6", "2-4", "2-3", "0-0", "1-6", "3-5"],
        ],
    )
    events: tuple[Event, ...] = ()
    for name, end in MUGGINS_LINE:
        state, events = helpers.play(state, name, end)
    return state, events


def test_muggins_line_before_its_spinner_is_fish_at_once():
    """The worked example of §1.6 (Muggins, 2 players): ends 4 and 4, all six plain 4s
    down, 4-4 in the bazaar — a fish right after the tile that made the ends 4/4, and its
    player is the fisherman. Played, 4-4 would only be a spinner whose every arm shows 4."""
    state, events = muggins_line(MUGGINS)
    assert state.ends == (4, 4) and state.spread.spinner is None
    assert tile(MUGGINS, "4-4") in state.bazaar
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert (ended.reason, ended.seat) == ("fish", 0)
    assert state.phase is not Phase.PLAYING


def test_before_edition_4_the_line_of_a_spinner_game_played_on_to_its_double():
    """Edition 3 played the example on: the other player drew until 4-4 came."""
    state, events = muggins_line(replace(MUGGINS, edition=3))
    assert state.phase is Phase.PLAYING and state.to_move == 1
    assert not any(isinstance(e, RoundEnded) for e in events)
    assert any(isinstance(e, TilesDrawn) and e.seat == 1 for e in events)
    assert state.hands[1] >> tile(MUGGINS, "4-4") & 1
    assert legal_moves(state) == [Play(tile(MUGGINS, "4-4"), 0), Play(tile(MUGGINS, "4-4"), 1)]


MUGGINS_1824051650 = (
    "0-3 0, 1-3 1, 0-4 0, 2-4 0, 1-4 1, 2-6 0, 4-6 1, 5-6 0, 0-5 0, 0-1 0, 3-6 1, 1-2 0, "
    "2-5 0, 4-5 0, 3-4 1"
)
TELEPHONE_2078207323 = (
    "0-5 0, 0-3 0, 3-4 0, 1-5 1, 1-4 1, 0-4 0, 4-5 1, 0-6 0, 3-5 1, 5-6 0, 2-3 1, 2-5 1"
)
"""The issue's games, 2 players each: round 8 of seed 1824051650 (Muggins) and round 13 of
seed 2078207323 (Телефон) as `next_round` deals them, seat 0 leading, played to a line
whose ends show 4 (5) with every plain 4 (5) down and the double still in the bazaar."""


def dealt_and_played(rules: RuleSet, seed: int, round_no: int, moves: str) -> GameState:
    state = new_game(rules, ["0", "1"], seed)[0]
    state = state._replace(round_no=round_no - 1, phase=Phase.ROUND_OVER, next_leader=0)
    state = next_round(state)[0]
    for move in moves.split(", "):
        name, end = move.split()
        state = apply(state, Play(tile(rules, name), int(end)))[0]
    return state


@pytest.mark.parametrize(
    ("preset", "seed", "round_no", "moves", "fisherman"),
    [
        ("muggins", 1824051650, 8, MUGGINS_1824051650, 0),
        ("telephone", 2078207323, 13, TELEPHONE_2078207323, 1),
    ],
)
def test_the_issues_lines_before_their_spinners_are_fish_and_were_drawn_on(
    preset: str, seed: int, round_no: int, moves: str, fisherman: int
) -> None:
    """Edition 4 ends each round at the tile that closed the line; edition 3 (a game stored
    before) replays as it was played: the other seat draws towards the double."""
    rules = parse_rules(preset, players=2)
    state = dealt_and_played(rules, seed, round_no, moves)
    assert state.spread.spinner is None and state.ends[0] == state.ends[1]
    value = state.ends[0]
    assert tile(rules, f"{value}-{value}") in state.bazaar
    assert state.last_round is not None
    assert (state.last_round.reason, state.last_round.seat) == ("fish", fisherman)
    old = dealt_and_played(replace(rules, edition=3), seed, round_no, moves)
    assert old.phase is Phase.PLAYING and old.to_move != fisherman
    assert isinstance(old.history[-1], TilesDrawn) and old.history[-1].seat == old.to_move
