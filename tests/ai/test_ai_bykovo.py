"""Computer players in the Bykovo tournament (docs/RULES.md §4): every level moves legally
with 4–7 participants, resting seats and players gone out; normal passes voluntarily only
for a reason (a locked table it placed the last tile on) and not when playing sheds points;
worlds the hard level searches rest the same seats as the real round."""

from __future__ import annotations

import random

import pytest

from bot.ai import Level, choose
from bot.ai.inference import KNOCKED, likelihood
from bot.ai.knobs import KNOBS, TRUST
from bot.ai.knowledge import dealt, infer
from bot.ai.policy import normal_move
from bot.ai.position import Position
from bot.ai.sampling import sample_world
from bot.ai.search import Estimates
from bot.game import (
    GameState,
    Phase,
    apply,
    legal_moves,
    parse_rules,
    seat_view,
)
from bot.game.events import Knocked, Passed, RoundEnded, WentOut
from bot.game.formats.bykovo import BYKOVO_TRUST
from bot.game.moves import Move, Pass, Play
from bot.game.rules import RuleSet
from bot.game.table import LINE
from tests.helpers import crafted, mask, random_states, tile

BYKOVO = parse_rules("bykovo")
ALL_THREES = ["3-3", "0-3", "1-3", "2-3", "3-4", "3-5", "3-6"]


def bykovo(players: int) -> RuleSet:
    return parse_rules("bykovo", players=players)


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_every_level_moves_legally_and_resting_seats_are_never_asked(players: int) -> None:
    rules = bykovo(players)
    rng = random.Random(players)
    asked = 0
    for i, state in enumerate(random_states(rules, players, 150, plays=0.9)):
        playing = [s for s in range(players) if not state.sits_out(s)]
        assert len(playing) == 4
        for seat in range(players):
            if state.sits_out(seat):
                view = seat_view(state, seat)
                assert not view.hand and not view.legal_moves()
                assert dealt(view)[seat] == 0
                with pytest.raises(ValueError):
                    choose(view, Level.NORMAL, rng)
        view = seat_view(state, state.to_move)
        legal = legal_moves(state)
        for level in (Level.EASY, Level.NORMAL):
            assert choose(view, level, rng) in legal
        if i % 10 == 0:
            assert choose(view, Level.HARD, rng, samples=4) in legal
            asked += 1
    assert asked >= 5


def test_worlds_rest_the_seats_that_sit_out_and_keep_the_sizes() -> None:
    rules = bykovo(6)
    for state in random_states(rules, 3, 40, plays=0.9):
        view = seat_view(state, state.to_move)
        know = infer(view)
        world = sample_world(view, know, random.Random(1))
        assert set(world.resting) == {s for s in range(6) if state.sits_out(s)}
        assert world.hand_sizes() == state.hand_sizes()
        assert world.hands[view.seat] == view.hand
        assert likelihood(view, world.hands) > 0


def test_after_someone_went_out_every_level_plays_the_circle_out() -> None:
    found = 0
    for seed in range(40):
        for state in random_states(BYKOVO, seed, 200, plays=0.9):
            if not any(isinstance(e, WentOut) for e in state.history):
                continue
            found += 1
            view = seat_view(state, state.to_move)
            legal = legal_moves(state)
            rng = random.Random(seed)
            assert choose(view, Level.NORMAL, rng) in legal
            assert not isinstance(choose(view, Level.NORMAL, rng), Pass)  # pointless now
            assert choose(view, Level.HARD, rng, samples=4) in legal
        if found >= 3:
            return
    pytest.fail("no round saw a player go out before others")


def locked() -> GameState:
    """Seat 0 holds every 3 and leads 3-3: nobody else can play, the others knock, and it
    is seat 0's turn again, having placed the last tile."""
    state = crafted(
        BYKOVO,
        [
            ALL_THREES,
            ["0-0", "0-1", "0-2", "0-4", "0-5", "0-6", "1-1"],
            ["1-2", "1-4", "1-5", "1-6", "2-2", "2-4", "2-5"],
            ["2-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
        ],
    )
    state, events = apply(state, Play(tile(BYKOVO, "3-3"), 0))
    assert [e.seat for e in events if isinstance(e, Knocked)] == [1, 2, 3]
    assert state.to_move == 0 and Pass() in legal_moves(state)
    return state


def test_normal_passes_to_keep_the_ends_on_a_suit_it_holds_alone() -> None:
    """Any play opens a suit the others hold; the pass keeps the 3s nobody else has, and the
    «сортир» after three circles of passes is the seat's, its hand counting nothing."""
    state = locked()
    rng = random.Random(0)
    assert choose(seat_view(state, 0), Level.NORMAL, rng) == Pass()
    while state.phase is Phase.PLAYING:
        state, _ = apply(state, choose(seat_view(state, state.to_move), Level.NORMAL, rng))
    ended = state.last_round
    assert isinstance(ended, RoundEnded)
    assert (ended.reason, ended.seat, ended.order[0]) == ("sortir", 0, 0)
    assert ended.results[0].round_points == 0


def test_hard_passes_on_the_locked_table_too() -> None:
    state = locked()
    assert choose(seat_view(state, 0), Level.HARD, random.Random(0), samples=16) == Pass()


def after_2_6() -> GameState:
    """Seat 3 led 2-6; seat 0, to move, holds heavy tiles that fit (the sixes)."""
    state = crafted(
        BYKOVO,
        [
            ["6-6", "5-6", "4-6", "5-5", "4-5", "4-4", "3-6"],
            ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
            ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"],
            ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
        ],
        to_move=3,
    )
    return apply(state, Play(tile(BYKOVO, "2-6"), 0))[0]


def test_normal_does_not_pass_when_playing_sheds_points() -> None:
    """Seat 3 led; seat 0 holds heavy tiles that fit, nobody is about to go out and the
    last tile is not its own: a pass would only keep points in its hand (its score)."""
    state = after_2_6()
    assert state.to_move == 0 and Pass() in legal_moves(state)
    view = seat_view(state, 0)
    rng = random.Random(0)
    assert isinstance(choose(view, Level.NORMAL, rng), Play)
    assert isinstance(choose(view, Level.HARD, rng, samples=16), Play)


def holding(next_holds: int) -> tuple[Position, list[Move]]:
    """Ends 3|3; seat 0 can only play 3-6, opening the 6s; seat 1, next, knocked on 3s
    before and holds `next_holds` tiles; seat 3 placed the last tile."""
    rules = BYKOVO
    position = Position(
        rules, 0, mask(rules, ["3-6", "2-2"]), (3, 3), LINE, mask(rules, ["3-3"]),
        (2, next_holds, 5, 5), (0, 1 << 3, 0, 0), (0, 0, 0, 0), 3, False,
    )  # fmt: skip
    moves: list[Move] = [Play(tile(rules, "3-6"), 0), Play(tile(rules, "3-6"), 1), Pass()]
    return position, moves


def test_normal_holds_back_a_next_seat_about_to_go_out() -> None:
    """With one tile and no 3, the next seat cannot go out on 3|3; after 3-6 it may (a 6):
    the pass holds it back."""
    assert normal_move(*holding(1)) == Pass()
    assert isinstance(normal_move(*holding(4)), Play)  # nobody about to go out: play


def test_a_voluntary_pass_says_something_fitted() -> None:
    """Seat 0 passes on 2|6 rather than play: a world where it holds no 2 and no 6 would
    have seen it knock, so it hardly counts; one where it holds a 6 counts as usual."""
    state = after_2_6()
    state, events = apply(state, Pass())
    assert [type(e) for e in events] == [Passed]
    view = seat_view(state, 1)
    fitted = likelihood(view, state.hands)
    no_fit = ["1-1", "1-3", "1-4", "1-5", "3-3", "3-4", "3-5"]
    swapped = (mask(BYKOVO, no_fit), *state.hands[1:])
    assert fitted > 0.01
    assert likelihood(view, swapped) <= KNOCKED


def test_hard_trusts_its_search_more_readily_in_bykovo() -> None:
    """A candidate leading the heuristic's move by one standard error is played in Bykovo
    and the room, not in Козёл."""
    estimates = Estimates(2)
    for lead in (3.0, -2.0, 4.0, -1.0, 2.0, -1.0, 1.0, 0.0):
        estimates.add(1.0, [0.0, lead])
    gain, error = estimates.lead(1, 0)
    assert BYKOVO_TRUST * error < gain < TRUST * error
    assert estimates.choice(0, KNOBS[BYKOVO.format].trust) == 1
    assert estimates.choice(0, KNOBS[parse_rules("goat").format].trust) == 0
    assert KNOBS[parse_rules("room").format].trust == 0.0
