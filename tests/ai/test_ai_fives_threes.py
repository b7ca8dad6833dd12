"""Computer players in Fives and Threes (docs/RULES.md §11): every level plays whole games
legally (2–4 players, teams, `exact`); normal takes the points on the table, leaves the next
seat none it need not and lands on the target exactly where it must; hard counts the go
point, a blocked round by the points alone, and the race won."""

from __future__ import annotations

import random

import pytest

from bot.ai import Level, choose, inference
from bot.ai.position import Position
from bot.ai.search import RACE_GAME, candidates, outcome_value
from bot.game import (
    GameState,
    Move,
    Phase,
    Play,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
    seat_view,
)
from bot.game.events import RoundEnd, Scored
from tests.helpers import (
    check_hidden_tiles_change_nothing,
    computers_play,
    crafted,
    one_against,
    play_chain,
    seats,
    tile,
)

CONFIGS = [
    ("fives_threes", 2),
    ("fives_threes", 3),
    ("fives_threes", 4),
    ("fives_threes teams=yes", 4),
    ("fives_threes exact=yes", 2),
    ("fives_threes exact=yes", 3),
    ("fives_threes exact=yes teams=yes", 4),
]
GAMES = {Level.EASY: 3, Level.NORMAL: 3, Level.HARD: 1}


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}/{c[1]}")
def test_every_level_plays_whole_games_legally(config: tuple[str, int], level: Level) -> None:
    text, players = config
    rules = parse_rules(text, players=players)
    for game in range(GAMES[level]):
        state = computers_play(
            rules, one_against(level, players, game % players), 10 * game + players
        )
        assert state.outcome is not None
        if rules.own.exact:
            assert rules.goal in state.tally.scores  # only landing on it exactly wins
        else:
            assert max(state.tally.scores) >= rules.goal


def test_hidden_tiles_do_not_change_the_move() -> None:
    """Two states that differ only in what the seat cannot see (the other hands, the tiles
    set aside) give the same move."""
    check_hidden_tiles_change_nothing(parse_rules("fives_threes", players=3), checks=6)


def decide(state: GameState, level: Level = Level.NORMAL) -> Move:
    return choose(seat_view(state, state.to_move), level, random.Random(0), samples=16)


def test_normal_takes_eight_points_over_one() -> None:
    """Ends 3 and 6: 6-6 makes 3 + 12 = 15, 5 + 3 = 8 points; 2-6 makes 3 + 2 = 5, one."""
    rules = parse_rules("fives_threes", players=2)
    mine = ["6-6", "2-6", "0-1", "1-1", "0-0", "1-4", "0-4"]
    state = crafted(rules, [mine, ["3-6", "0-2", "2-2", "4-4", "2-4", "0-5", "1-5"]], to_move=1)
    state, _ = play_chain(state, [("3-6", 0)])
    assert decide(state) == Play(tile(rules, "6-6"), 1)


def test_normal_does_not_leave_the_next_seat_fifteen() -> None:
    """Ends 4 and 6: 3-4 leaves 3 + 6 and 5-6 leaves 4 + 5, 9 and 3 points either way, and
    blind to the next seat normal would play 3-4; but on 3 and 6 the unseen 6-6 makes
    3 + 12 = 15, 8 points for the next seat, while on 4 and 5 no tile makes more than 2.
    Normal plays 5-6."""
    rules = parse_rules("fives_threes", players=2)
    mine = ["0-0", "0-1", "1-3", "3-4", "5-6"]
    state = crafted(rules, [mine, ["4-6", "2-5", "4-4", "3-6", "0-5"]], to_move=1)
    state, _ = play_chain(state, [("4-6", 0)])
    assert decide(state) == Play(tile(rules, "5-6"), 1)


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
@pytest.mark.parametrize(("exact", "lands"), [("no", "6-6"), ("yes", "3-3")])
def test_exact_lands_on_the_target(level: Level, exact: str, lands: str) -> None:
    """At 57 of 61 on ends 3 and 6: 6-6 makes 15 (8 points) and 3-3 makes 6 + 6 = 12 (4).
    Either wins; with `exact` 6-6 would pass 61 and score nothing, so 3-3 it is."""
    rules = parse_rules(f"fives_threes exact={exact}", players=2)
    mine = ["6-6", "3-3", "0-1", "1-1", "0-0", "1-4", "0-4"]
    state = crafted(rules, [mine, ["3-6", "0-2", "2-2", "4-4", "2-4", "0-5", "1-5"]], to_move=1)
    state = state._replace(tally=state.tally._replace(scores=(57, 0)))
    state, _ = play_chain(state, [("3-6", 0)])
    move = decide(state, level)
    assert move == Play(tile(rules, lands), 1 if lands == "6-6" else 0)
    after, _ = apply(state, move)
    assert after.outcome is not None
    assert next(p.place for p in after.outcome.places if p.side == 0) == 1


def test_hard_searches_both_ends_where_a_double_lies_across_one() -> None:
    """Ends 5 (5-5 across) and 5: 5-0 on the double leaves 0 + 5, one point; on the other
    end 10 + 0, two. The same ends whichever way round, yet not the same position."""
    rules = parse_rules("fives_threes", players=2)
    state = crafted(rules, [["3-5", "3-4", "0-5", "1-1"], ["5-5", "4-5", "2-2"]])
    state, _ = play_chain(state, [("3-5", 0), ("5-5", 1), ("3-4", 0), ("4-5", 0)])
    points = {}
    for move in candidates(seat_view(state, 0)):
        assert isinstance(move, Play) and move.tile == tile(rules, "0-5")
        points[move.end] = sum(e.points for e in apply(state, move)[1] if isinstance(e, Scored))
    assert points == {0: 2, 1: 1}


def test_hard_counts_the_go_point_and_a_blocked_round_by_the_points_alone() -> None:
    """Chipping out with nothing on the ends is one point ahead; a round blocked after the
    6-6 lead (12: 4 points) is four points to its leader, whatever the hands hold: more
    than one, and as good for one seat as it is bad for the other."""
    rules = parse_rules("fives_threes", players=2)
    state = crafted(rules, [["0-1"], ["1-1", "2-3"]], to_move=1)
    out, _ = play_chain(state, [("1-1", 0), ("0-1", 0)])
    assert out.last_round is not None and out.last_round.reason is RoundEnd.OUT
    out = out._replace(next_leader=None)
    go = outcome_value(rules, 0, out)
    assert go > 0
    assert go == pytest.approx(-outcome_value(rules, 1, out))

    state = crafted(rules, [["0-1", "2-3"], ["6-6", "5-5", "4-5"]], to_move=1)
    blocked, _ = play_chain(state, [("6-6", 0)])
    while blocked.phase is Phase.PLAYING:
        (knock,) = legal_moves(blocked)
        blocked, _ = apply(blocked, knock)
    assert blocked.last_round is not None and blocked.last_round.reason is RoundEnd.FISH
    blocked = blocked._replace(next_leader=None)
    four = outcome_value(rules, 1, blocked)
    assert four > go  # four points against one
    assert four == pytest.approx(-outcome_value(rules, 0, blocked))


def test_hard_counts_the_race_won_as_a_win() -> None:
    rules = parse_rules("fives_threes", players=2)
    state = computers_play(rules, [Level.NORMAL, Level.NORMAL], seed=4)
    assert state.outcome is not None
    winner = next(p.side for p in state.outcome.places if p.place == 1)
    assert outcome_value(rules, winner, state) > RACE_GAME / 2
    assert outcome_value(rules, 1 - winner, state) < -RACE_GAME / 2


def test_hard_weighs_a_point_more_the_nearer_the_target_and_the_win_most() -> None:
    """Hard judges a round by the chance to win the race it leaves: level scores are even,
    five points ahead are worth more at 55 than at 15, and no lead is worth the race won."""
    rules = parse_rules("fives_threes", players=2)
    state = crafted(rules, [["0-1"], ["1-1"]])

    def at(mine: int, theirs: int) -> float:
        tally = state.tally._replace(scores=(mine, theirs))
        return outcome_value(rules, 0, state._replace(tally=tally))

    assert at(10, 10) == pytest.approx(0.0)
    assert 0 < at(15, 10) - at(10, 10) < at(55, 50) - at(50, 50)
    assert at(15, 10) == pytest.approx(-at(10, 15))
    assert -RACE_GAME < at(0, 60) < at(60, 0) < RACE_GAME


def test_the_plays_are_explained_at_the_scores_of_their_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Weighting a world, hard models each earlier play of the other seat at the sheet as it
    was when the seat moved (a race's heuristic reaches for the target), not as it is now."""
    rules = parse_rules("fives_threes", players=2)
    rng = random.Random(3)
    state, _ = new_game(rules, seats(2), 3)
    seen_then: list[tuple[int, ...]] = []  # the sheet before each of seat 1's plays
    while state.round_no < 2 or len(seen_then) < 4:
        assert state.phase is not Phase.GAME_OVER
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            continue
        move = choose(seat_view(state, state.to_move), Level.NORMAL, rng)
        if state.round_no == 2 and state.to_move == 1 and isinstance(move, Play):
            seen_then.append(state.tally.scores)
        state, _ = apply(state, move)
    assert state.phase is Phase.PLAYING and seen_then[0] != state.tally.scores
    explained: list[tuple[int, ...]] = []

    def scores(position: Position, moves: list[Move]) -> list[float]:
        explained.append(tuple(position.scores))
        return [0.0] * len(moves)

    monkeypatch.setattr(inference, "normal_scores", scores)
    monkeypatch.setattr(inference, "moves_for", lambda *_: [Play(0, 0), Play(1, 0)])
    inference.likelihood(seat_view(state, 0), state.hands)
    assert explained == seen_then
