"""The legal moves of the seat to move: plays at each open end, several doubles at once,
drawing from the bazaar, passing."""

from __future__ import annotations

from itertools import combinations, product

from bot.game.kinds import DrawMode
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.state import GameState, Phase
from bot.game.tiles import Tile, TileSet

DRAW = Draw()


PASS = Pass()


def may_draw(rules: RuleSet, bazaar: int, drawn: int) -> bool:
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


_PLAYS: dict[TileSet, tuple[dict[tuple[int, ...], tuple[tuple[Play, ...], ...]], ...]] = {}
"""`_new_plays`', once made, by tile set, then `closable`, then the open ends: dicts, not
`functools.cache`, which the mypyc build calls the slow way (its wrapper takes no
vectorcall), and keyed by the ends alone, which hash fast."""


def _new_plays(
    tiles: TileSet, ends: tuple[int, ...], closable: bool
) -> tuple[tuple[Play, ...], ...]:
    """Per tile, its `Play`s at these open ends (shared objects: listing allocates little);
    `closable`: a double may also go face down (Осёл, never as the lead). Made once and kept
    in `_PLAYS`, where `moves_for` looks first."""
    plays = _PLAYS.setdefault(tiles, ({}, {}))[closable][ends] = tuple(
        tuple(
            Play(t, end, closed)
            for end, value in enumerate(ends)
            if value >= 0 and tiles.follow[t][value] >= 0
            for closed in ((False, True) if closable and tiles.is_double(t) else (False,))
        )
        if ends
        else (Play(t, 0),)
        for t in range(tiles.size)
    )
    return plays


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
    known = _PLAYS.get(rules.tiles)
    by_tile = known[rules.closed_doubles].get(ends) if known is not None else None
    if by_tile is None:
        by_tile = _new_plays(rules.tiles, ends, rules.closed_doubles)
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
        if rules.most_doubles > 1 and (hand & fits & rules.tiles.doubles_mask).bit_count() > 1:
            moves += _doubles_moves(rules, hand, ends)
    elif may_draw(rules, bazaar, drawn):
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
