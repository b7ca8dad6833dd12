"""Computer players: every game has its knobs, they see only a `SeatView`, always move
legally under every preset and option mix, are deterministic with a seed and a sample
budget, sample hidden hands that respect everything public, and the normal level beats the
easy one."""

from __future__ import annotations

import inspect
import random
import typing
from dataclasses import fields

import pytest

from bot.ai import Level, choose, heaviest
from bot.ai.inference import likelihood
from bot.ai.knobs import KNOBS, Heuristic, Valuation, read
from bot.ai.knowledge import Knowledge, allowed_tiles, infer
from bot.ai.sampling import sample_deal, sample_world
from bot.game import (
    GameState,
    Phase,
    SeatView,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
    seat_view,
)
from bot.game.events import Knocked
from bot.game.formats import FORMATS
from bot.game.formats.base import ComputerSettings
from bot.game.moves import Play
from bot.game.rules import RuleSet
from tests.helpers import random_states, seats

CONFIGS = [
    ("goat", 2),
    ("goat", 3),
    ("goat", 4),
    ("goat_teams", 4),
    ("sea_goat", 2),
    ("sea_goat teams=yes", 4),
    ("classic", 2),
    ("classic", 4),
    ("goat auto_draw=no", 3),
    ("goat draw=one keep=1", 2),
    ("goat draw=one voluntary_pass=yes", 3),
    ("goat draw=none voluntary_pass=yes", 4),
    ("goat fish=all", 3),
    ("goat_teams fish=all open_threshold=0", 4),
    ("sea_goat auto_draw=no", 2),
    ("classic draw=one", 3),
]
RULES = {config: parse_rules(config[0], players=config[1]) for config in CONFIGS}
LEVELS = list(Level)


def fits_slots(rules: RuleSet, hand: int, slots: tuple[int, ...]) -> bool:
    """Whether the hand's tiles can be matched one to one with slots whose voids they obey."""
    tiles = [t for t in range(rules.tiles.size) if hand >> t & 1]
    if len(tiles) != len(slots):
        return False
    owner: dict[int, int] = {}  # slot -> index into tiles

    def place(i: int, tried: set[int]) -> bool:
        for s, void in enumerate(slots):
            if s in tried or not allowed_tiles(rules.tiles, void) >> tiles[i] & 1:
                continue
            tried.add(s)
            if s not in owner or place(owner[s], tried):
                owner[s] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(tiles)))


def plain(value: object) -> bool:
    """Strings, numbers, flags, nothing, or tuples of them: data `bot.game` may hold."""
    if isinstance(value, tuple):
        return all(plain(item) for item in value)
    return value is None or isinstance(value, str | int | float | bool)


def test_every_game_has_its_knobs() -> None:
    """Every format says its computers as plain data, which reads into its `Knobs`; the
    races, and they alone, play and value the race."""
    assert set(KNOBS) == set(FORMATS.values())
    for fmt in FORMATS.values():
        assert isinstance(fmt.computers, ComputerSettings), fmt.id
        assert all(plain(getattr(fmt.computers, f.name)) for f in fields(ComputerSettings)), fmt.id
        knobs = read(fmt.computers)
        assert knobs == KNOBS[fmt]
        race = fmt.scores_in_play
        assert (knobs.heuristic is Heuristic.RACE) == race
        assert (knobs.valuation in {Valuation.RACE, Valuation.CHANCE}) == race


# -- the player sees one seat's information set only ---------------------------------------


def test_choose_takes_a_seat_view_and_nothing_of_the_state() -> None:
    hints = typing.get_type_hints(choose)
    assert hints["view"] is SeatView
    assert all(hint is not GameState for hint in hints.values())
    assert list(inspect.signature(heaviest).parameters) == ["view"]


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_tiles_do_not_change_the_move(level: Level) -> None:
    """Two states that differ only in what the seat cannot see give the same move."""
    rules = parse_rules("goat", players=3)
    changed = 0
    for state in list(random_states(rules, 5, 40))[3:40:6]:
        seat = state.to_move
        view = seat_view(state, seat)
        hands, bazaar = sample_deal(view, infer(view), random.Random(1))
        shuffled = state._replace(hands=hands, bazaar=bazaar)
        assert seat_view(shuffled, seat) == view
        changed += shuffled != state
        moves = [
            choose(seat_view(s, seat), level, random.Random(9), samples=4)
            for s in (state, shuffled)
        ]
        assert moves[0] == moves[1]
    assert changed


# -- legal, deterministic ------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{c[0]}/{c[1]}" for c in CONFIGS])
def test_every_level_plays_legal_moves(config: tuple[str, int]) -> None:
    rules = RULES[config]
    rng = random.Random(config[1])
    state, _ = new_game(rules, seats(rules.players), seed=len(config[0]))
    levels = [LEVELS[s % len(LEVELS)] for s in range(rules.players)]
    rounds = 0
    while state.phase is not Phase.GAME_OVER and rounds < 2:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            rounds += 1
            continue
        seat = state.to_move
        view = seat_view(state, seat)
        move = choose(view, levels[seat], rng, samples=2)
        assert move in legal_moves(state)
        assert heaviest(view) in legal_moves(state)
        state, _ = apply(state, move)


def test_no_move_when_it_is_not_the_seats_turn() -> None:
    state, _ = new_game(parse_rules("goat", players=2), seats(2), seed=3)
    with pytest.raises(ValueError, match="no move"):
        choose(seat_view(state, 1 - state.to_move), Level.NORMAL, random.Random(0))


def test_hard_is_deterministic_with_a_seed_and_a_sample_budget() -> None:
    rules = parse_rules("goat", players=4)
    for state in list(random_states(rules, 11, 30))[2:30:4]:
        view = seat_view(state, state.to_move)
        runs = [choose(view, Level.HARD, random.Random(4), samples=6) for _ in range(2)]
        assert runs[0] == runs[1]
        assert choose(view, Level.HARD, random.Random(4), budget_s=0.05) in view.legal_moves()


def test_heaviest_plays_the_biggest_tile() -> None:
    rules = parse_rules("goat", players=4)
    for state in random_states(rules, 2, 30):
        view = seat_view(state, state.to_move)
        move = heaviest(view)
        plays = [m for m in view.legal_moves() if isinstance(m, Play)]
        assert isinstance(move, Play)
        assert rules.tiles.values[move.tile] == max(rules.tiles.values[m.tile] for m in plays)


# -- sampling respects the public information ----------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{c[0]}/{c[1]}" for c in CONFIGS])
def test_samples_respect_sizes_voids_and_seen_tiles(config: tuple[str, int]) -> None:
    rules = RULES[config]
    tiles = rules.tiles
    rng = random.Random(7)
    for state in random_states(rules, 21, 300):
        seat = state.to_move
        view = seat_view(state, seat)
        know: Knowledge = infer(view)
        assert know.unseen == tiles.all_mask & ~view.hand & ~view.on_table
        for s in range(rules.players):  # the inference is sound: the real hands obey it
            assert fits_slots(rules, state.hands[s], know.slots[s])
        world = sample_world(view, know, rng)
        assert world.hands[seat] == view.hand
        assert world.hand_sizes() == view.hand_sizes
        assert len(world.bazaar) == view.bazaar_size
        held = 0
        for s, hand in enumerate(world.hands):
            assert not held & hand
            held |= hand
            if s != seat:
                assert not hand & (view.on_table | view.hand)
                assert fits_slots(rules, hand, know.slots[s])
        assert held | tiles.mask(world.bazaar) | view.on_table == tiles.all_mask
        assert seat_view(world, seat) == view


def test_a_knock_makes_a_void() -> None:
    rules = parse_rules("goat", players=4)
    for state in random_states(rules, 4, 400):
        view = seat_view(state, state.to_move)
        voids = infer(view).voids()
        for event in view.history:
            if isinstance(event, Knocked):
                for end in event.ends:
                    assert voids[event.seat] >> end & 1
                    assert not state.hands[event.seat] & rules.tiles.suit_masks[end]


# -- strength ------------------------------------------------------------------------------


def goat_rate(candidate: Level, opponent: Level, deals: int) -> float:
    """Four-player Козёл, the candidate in every seat of each deal in turn."""
    rules = parse_rules("goat", players=4)
    goats = 0
    for game in range(deals * 4):
        mine = game % 4
        rng = random.Random(game)
        state, _ = new_game(rules, seats(4), seed=game // 4)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROUND_OVER:
                state, _ = next_round(state)
                continue
            seat = state.to_move
            level = candidate if seat == mine else opponent
            state, _ = apply(state, choose(seat_view(state, seat), level, rng))
        assert state.outcome is not None
        goats += any(p.goat and p.seat == mine for p in state.outcome.places)
    return goats / (deals * 4)


def test_normal_beats_easy() -> None:
    assert goat_rate(Level.NORMAL, Level.EASY, 15) <= 0.2


def test_weighting_by_the_plays_finds_the_hidden_tiles_more_often() -> None:
    """Against normal players, weighted samples put more mass on the true hands."""
    rules = parse_rules("goat", players=4)
    rng = random.Random(3)
    plain = weighted = 0.0
    for game in range(4):
        state, _ = new_game(rules, seats(4), seed=100 + game)
        for _ in range(14):
            view = seat_view(state, state.to_move)
            state, _ = apply(state, choose(view, Level.NORMAL, rng))
        view = seat_view(state, state.to_move)
        know = infer(view)
        deals = [sample_deal(view, know, rng)[0] for _ in range(100)]
        weights = [likelihood(view, hands) for hands in deals]
        assert all(0 < w <= 1 for w in weights)
        for hands, w in zip(deals, weights, strict=True):
            hits = sum((hands[s] & state.hands[s]).bit_count() for s in range(4) if s != view.seat)
            plain += hits / len(deals)
            weighted += w * hits / sum(weights)
    assert weighted > plain * 1.05
