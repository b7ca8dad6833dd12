"""Small shared helpers for the engine tests: crafted rounds, tiles by pips, random play."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from bot.ai import Level, choose
from bot.ai.knowledge import infer
from bot.ai.sampling import sample_deal
from bot.game import GameState, Phase, apply, legal_moves, new_game, next_round, seat_view
from bot.game.events import Event, RoundEnded, TilesDrawn
from bot.game.formats.fives import Fives
from bot.game.moves import Move, Pass, Play
from bot.game.rules import RuleSet
from bot.game.scoring import RoundScores, Tally
from bot.game.tiles import Tile


def seats(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(n))


def tile(rules: RuleSet, text: str) -> Tile:
    """A tile written `2-4`."""
    return rules.tiles.parse(text)


def mask(rules: RuleSet, texts: Iterable[str]) -> int:
    return rules.tiles.mask(tile(rules, text) for text in texts)


def crafted(
    rules: RuleSet,
    hands: Sequence[Sequence[str]],
    bazaar: Sequence[str] | None = None,
    to_move: int = 0,
    tally: Tally | None = None,
) -> GameState:
    """A fresh round with chosen hands: empty table, `to_move` leads with any tile.

    Without `bazaar` the tiles nobody holds form it (in index order), so the set is whole.
    """
    state, _ = new_game(rules, seats(rules.players), seed=1)
    masks = tuple(mask(rules, hand) for hand in hands)
    held = 0
    for m in masks:
        assert not held & m, "a tile is in two hands"
        held |= m
    if bazaar is None:
        pile = tuple(t for t in range(rules.tiles.size) if not held >> t & 1)
    else:
        pile = tuple(tile(rules, text) for text in bazaar)
        assert not held & rules.tiles.mask(pile), "a bazaar tile is also in a hand"
    return state._replace(
        hands=masks,
        bazaar=pile,
        to_move=to_move,
        lead_tile=None,
        tally=tally if tally is not None else state.tally,
    )


def play(
    state: GameState, text: str, end: int, closed: bool = False
) -> tuple[GameState, tuple[Event, ...]]:
    """The seat to move plays `text` on arm `end` (closed: Осёл's closed double); it must
    be legal."""
    move = Play(tile(state.rules, text), end, closed)
    assert move in legal_moves(state), f"{text} at {end} is not legal here"
    return apply(state, move)


def play_chain(
    state: GameState, plays: Sequence[tuple[str, int]]
) -> tuple[GameState, list[tuple[Event, ...]]]:
    """Play `("2-4", arm)` in order, each by the seat to move; the events of every move."""
    history = []
    for text, end in plays:
        state, events = play(state, text, end)
        history.append(events)
    return state, history


def plays(state: GameState, *moves: tuple[str, int]) -> tuple[GameState, tuple[Event, ...]]:
    """`play_chain`, with the events of the last play only."""
    state, history = play_chain(state, moves)
    return state, history[-1] if history else ()


def round_ended(events: Iterable[object]) -> RoundEnded:
    """The one `RoundEnded` among a move's events."""
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) == 1, ended
    return ended[0]


def redealt(state: GameState, hands: Mapping[int, Sequence[str]], lead: str | None) -> GameState:
    """The round under way dealt again: `hands` by seat (the other seats hold nothing), no
    bazaar; the holder of `lead` leads with it (None: the first seat dealt, with any tile)."""
    rules = state.rules
    masks = tuple(mask(rules, hands.get(s, ())) for s in range(rules.players))
    lead_tile = tile(rules, lead) if lead else None
    leader = next(s for s, m in enumerate(masks) if m and (lead_tile is None or m >> lead_tile & 1))
    return state._replace(hands=masks, bazaar=(), to_move=leader, lead_tile=lead_tile)


def drew(events: Iterable[Event]) -> bool:
    return any(isinstance(e, TilesDrawn) for e in events)


def random_states(rules: RuleSet, seed: int, moves: int, plays: float = 0.0) -> Iterator[GameState]:
    """The states of a game of random legal moves where a seat is to move (`moves` of them);
    with `plays`, that often a tile or a draw is picked over a voluntary pass (Bykovo)."""
    rng = random.Random(seed)
    state, _ = new_game(rules, seats(rules.players), seed)
    for _ in range(moves):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            continue
        yield state
        choices = legal_moves(state)
        if plays and rng.random() < plays:
            choices = [m for m in choices if not isinstance(m, Pass)] or choices
        state, _ = apply(state, rng.choice(choices))


class Step(NamedTuple):
    before: GameState
    move: Move | None  # None: `next_round`
    after: GameState
    events: tuple[Event, ...]


MAX_STEPS = 20_000  # far above any game seen (sea_goat teams: ~2 400 moves)


def random_game(rules: RuleSet, seed: int, choice_seed: int) -> Iterator[Step]:
    """A whole game from `seed` with moves picked at random among the legal ones.

    Fails the test if the game is not over after `MAX_STEPS` moves.
    """
    rng = random.Random(choice_seed)
    state, events = new_game(rules, seats(rules.players), seed)
    yield Step(state, None, state, events)
    for _ in range(MAX_STEPS):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            after, events = next_round(state)
            yield Step(state, None, after, events)
        else:
            move = rng.choice(legal_moves(state))
            after, events = apply(state, move)
            yield Step(state, move, after, events)
        state = after
    raise AssertionError(f"game not over after {MAX_STEPS} moves")


# -- a format's scoring, called as the engine calls it ---------------------------------------


def hand_value(rules: RuleSet, hand: int) -> int:
    return rules.format.hand_value(rules, hand)


def settle(
    rules: RuleSet, values: Sequence[int], out_side: int | None, tally: Tally
) -> RoundScores:
    return rules.format.settle(rules, values, out_side, tally)


def goat_sides(rules: RuleSet, tally: Tally, bald_side: int | None) -> tuple[int, ...]:
    """The goats once the game ends after a round (none while it goes on)."""
    return rules.format.ending(rules, tally, bald_side)[1]


def standings(
    rules: RuleSet, tally: Tally, goats: Sequence[int], leaver_sides: Sequence[int] = ()
) -> list[tuple[int, int, bool, int]]:
    return rules.format.standings(rules, tally, goats, leaver_sides, 0)


def fives(rules: RuleSet, total: int) -> int:
    """What open ends adding up to `total` score in play."""
    return rules.format.move_points(rules, 0, total, False)


def round_fives(rules: RuleSet, pips: int) -> int:
    """Pips won at a round's end, rounded as the race rounds them (§6, §7)."""
    fmt = rules.format
    assert isinstance(fmt, Fives)
    return fmt.rounded(pips)


def one_against(level: Level, players: int, seat: int) -> list[Level]:
    """`level` at `seat`, the others normal against hard and the same level otherwise."""
    others = Level.NORMAL if level is Level.HARD else level
    return [level if s == seat else others for s in range(players)]


def check_hidden_tiles_change_nothing(rules: RuleSet, checks: int) -> None:
    """Along a random 3-seat game: two states that differ only in what the seat to move
    cannot see (the other hands, the bazaar or the tiles set aside) give every level the
    same move."""
    rng = random.Random(2)
    state, _ = new_game(rules, seats(3), seed=7)
    checked = 0
    while state.phase is Phase.PLAYING and checked < checks:
        seat = state.to_move
        view = seat_view(state, seat)
        hands, bazaar = sample_deal(view, infer(view), random.Random(checked))
        other = state._replace(hands=hands, bazaar=bazaar)
        assert seat_view(other, seat) == view
        for level in Level:
            moves = [
                choose(seat_view(s, seat), level, random.Random(9), samples=3)
                for s in (state, other)
            ]
            assert moves[0] == moves[1], level
        checked += 1
        state, _ = apply(state, rng.choice(legal_moves(state)))


def computers_play(rules: RuleSet, levels: Sequence[Level], seed: int) -> GameState:
    """A whole game of computers at `levels` (hard with one world a move), every move
    checked legal; its final state."""
    rng = random.Random(seed)
    state, _ = new_game(rules, seats(rules.players), seed)
    made = 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            continue
        seat = state.to_move
        move = choose(seat_view(state, seat), levels[seat], rng, samples=1)
        assert move in legal_moves(state)
        state, _ = apply(state, move)
        made += 1
        assert made < 5_000, "the game does not end"
    return state
