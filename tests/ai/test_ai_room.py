"""The computers in the game room (RULES §9.1): whole games with 2 to 10 players, teams of
any size, out seats that hold nothing and never move, and the hard level's room judgement."""

from __future__ import annotations

import random

import pytest

from bot.ai import HARD_BUDGET_S, ROOM_BUDGET_S, Level, choose
from bot.ai.knowledge import infer
from bot.ai.position import next_in_play, partners
from bot.ai.sampling import sample_world
from bot.ai.search import room_value
from bot.game import (
    Phase,
    Play,
    SeatView,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
    seat_view,
)
from bot.game.scoring import fresh_tally
from tests.helpers import crafted, play_chain, seats, tile

LEVELS = list(Level)
GAMES = [
    ("room", 2),
    ("room", 6),
    ("room", 10),
    ("room set=12", 2),
    ("room set=12", 6),
    ("room set=12", 10),
    ("room teams=yes", 6),
]


@pytest.mark.parametrize("config", GAMES, ids=[f"{c[0]}/{c[1]}" for c in GAMES])
def test_every_level_plays_room_games_to_the_end(config: tuple[str, int]) -> None:
    """Seats of every level finish the game with legal moves; out seats never move, and
    the hard level's worlds deal them nothing."""
    rules = parse_rules(config[0], players=config[1])
    rng = random.Random(config[1])
    state, _ = new_game(rules, seats(rules.players), seed=rules.max_pip)
    levels = [LEVELS[s % len(LEVELS)] for s in range(rules.players)]
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            continue
        seat = state.to_move
        assert not state.tally.out[rules.side_of(seat)]
        view = seat_view(state, seat)
        world = sample_world(view, infer(view), rng)
        assert all(world.hands[s] for s in range(rules.players) if state.hands[s])
        assert not any(world.hands[s] for s in range(rules.players) if not state.hands[s])
        move = choose(view, levels[seat], rng, samples=2)
        assert move in legal_moves(state)
        state, _ = apply(state, move)
    assert state.outcome is not None
    assert {p.place for p in state.outcome.places} == set(range(1, rules.sides + 1))


def test_partners_are_the_other_seats_of_the_side_still_in() -> None:
    rules = parse_rules("room teams=yes", players=6)  # sides: 0, 3 / 1, 4 / 2, 5
    sizes = [5, 5, 5, 5, 5, 5]
    assert [partners(rules, seat, sizes) for seat in range(6)] == [[3], [4], [5], [0], [1], [2]]
    threes = parse_rules("room teams=yes team_size=2", players=6)
    assert partners(threes, 2, [5, 5, 0, 5, 5, 5]) == [5]
    trios = parse_rules("room teams=yes team_size=3", players=9)  # 3 sides of 3
    assert partners(trios, 1, [6] * 9) == [4, 7]
    assert partners(parse_rules("room", players=6), 0, sizes) == []
    out_side_1 = [5, 0, 5, 5, 0, 5]
    assert next_in_play(0, out_side_1) == 2
    assert next_in_play(5, out_side_1) == 0


def test_hard_dumps_the_heavy_tile_when_the_next_seat_is_about_to_go_out() -> None:
    """Seat 1 leads 1-8 and holds one more tile; seat 0 can keep 9-8 (17) or 1-0 (1)."""
    rules = parse_rules("room", players=2)
    state = crafted(rules, [["9-8", "1-0"], ["1-8", "0-9"]], to_move=1)
    state, _ = play_chain(state, [("1-8", 0)])
    view = seat_view(state, 0)
    assert len(view.legal_moves()) == 2
    move = choose(view, Level.HARD, random.Random(1), samples=40)
    assert isinstance(move, Play)
    assert move.tile == tile(rules, "9-8")


def test_the_room_value_dislikes_own_points_and_going_out_most() -> None:
    rules = parse_rules("room", players=3)
    state, _ = new_game(rules, seats(3), seed=1)
    blank = fresh_tally(3, eliminating=True)

    def value(scores: tuple[int, ...], out: tuple[int, ...] = (0, 0, 0)) -> float:
        return room_value(rules, 0, state._replace(tally=blank._replace(scores=scores, out=out)))

    assert value((10, 40, 40)) > value((30, 40, 40)) > value((50, 40, 40))
    assert value((30, 40, 40)) > value((30, 20, 20))
    near = value((80, 60, 60)) - value((90, 60, 60))
    assert near > value((10, 60, 60)) - value((20, 60, 60))  # a point weighs more near the limit
    assert value((99, 60, 60)) > value((105, 60, 60), (1, 0, 0))


def test_the_room_searches_unweighted_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """With five hidden hands the weights would settle on a few worlds (`bot.ai.search`):
    the room never weighs its worlds by the other seats' plays; Козёл does."""
    calls: list[str] = []

    def counted(view: SeatView, hands: tuple[int, ...]) -> float:
        calls.append(view.rules.preset)
        return 1.0

    monkeypatch.setattr("bot.ai.search.likelihood", counted)
    for preset, players in (("room", 6), ("goat", 4)):
        rules = parse_rules(preset, players=players)
        state, _ = new_game(rules, seats(players), seed=3)
        rng = random.Random(3)
        while len(legal_moves(state)) < 2 or not state.ends:
            state, _ = apply(state, choose(seat_view(state, state.to_move), Level.NORMAL, rng))
        choose(seat_view(state, state.to_move), Level.HARD, rng, samples=4)
    assert set(calls) == {"goat"}


def test_the_room_thinks_longer_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five or more hidden hands need more worlds: the room's default budget is its own,
    a budget given by the caller wins."""
    budgets: list[float | None] = []

    def recorded(view: SeatView, rng: random.Random, budget: float | None, _: object) -> Play:
        budgets.append(budget)
        return next(m for m in view.legal_moves() if isinstance(m, Play))

    monkeypatch.setattr("bot.ai.hard_move", recorded)
    for preset, players in (("room", 6), ("goat", 4), ("room", 6)):
        state, _ = new_game(parse_rules(preset, players=players), seats(players), seed=3)
        budget = 0.05 if budgets == [ROOM_BUDGET_S, HARD_BUDGET_S] else None
        choose(seat_view(state, state.to_move), Level.HARD, random.Random(3), budget_s=budget)
    assert budgets == [ROOM_BUDGET_S, HARD_BUDGET_S, 0.05]
