"""How well a sampled deal explains the other seats' plays, if they play like the normal
heuristic with some noise: a tile a sensible player would not have played from that hand
makes the deal less likely. Used to weight the hard level's worlds.

The model: a seat plays the move the softmax of the normal scores picks (`BETA`), mixed
with a uniform choice (`FLOOR`), so any opponent is covered, only less sharply. A seat's
earlier hand is its sampled hand plus the tiles it played since; moves before its last
trip to the bazaar are skipped (which tiles it drew then is unknown). A voluntary pass
(Bykovo) says a tile fitted — with none the seat would have knocked — so a deal without
one is all but ruled out (`KNOCKED`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.ai.knowledge import dealt, end_suits
from bot.ai.policy import normal_scores
from bot.ai.position import Position
from bot.game.engine import moves_for
from bot.game.events import (
    DoublesPlayed,
    Knocked,
    Passed,
    PublicEvent,
    Scored,
    TilePlayed,
    TilesDrawn,
    WentOut,
    plays_of,
    points_in_play,
)
from bot.game.moves import Move, Pass, Play, PlayDoubles
from bot.game.rules import FirstLead, NextLead
from bot.game.table import LINE, attach, fitting, lead
from bot.game.view import SeatView

BETA = 1.0  # how sharply the modelled seats prefer better-scored moves
FLOOR = 0.2  # the share of moves modelled as picked at random
KNOCKED = 1e-3  # a voluntary pass (§4) from a hand with nothing that fits: it would knock


def _chosen(move: Move, observed: Move) -> bool:
    if isinstance(observed, Play):
        return isinstance(move, Play) and move.tile == observed.tile
    return move == observed


def _probability(scores: Sequence[float], moves: Sequence[Move], observed: Move) -> float:
    top = max(scores)  # a move that goes out takes the whole softmax share
    exps = [math.exp(BETA * (s - top)) for s in scores]
    total = sum(exps)
    picked = sum(e for e, m in zip(exps, moves, strict=True) if _chosen(m, observed))
    matching = sum(1 for m in moves if _chosen(m, observed))
    return (1 - FLOOR) * picked / total + FLOOR * matching / len(moves)


def _earlier_hands(view: SeatView, hands: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per seat, the event of its last trip to the bazaar (-1 if none: the decisions after
    it are the ones explained), and the hand it held since: `hands` plus what it played."""
    tiles = view.rules.tiles
    history = view.history
    known_from = [-1] * view.rules.players
    for i, event in enumerate(history):
        if isinstance(event, TilesDrawn):
            known_from[event.seat] = i
    held = list(hands)
    for i, event in enumerate(history):
        if isinstance(event, TilePlayed) and i > known_from[event.seat]:
            held[event.seat] |= 1 << event.tile
        elif isinstance(event, DoublesPlayed) and i > known_from[event.seat]:
            held[event.seat] |= tiles.mask(event.tiles)
    return known_from, held


def _observed(event: PublicEvent) -> Move | None:
    """The decision an event shows (a play, doubles played, a pass), if any."""
    if isinstance(event, TilePlayed):
        return Play(event.tile, event.end, event.closed)
    if isinstance(event, DoublesPlayed):
        return PlayDoubles(event.tiles, event.ends, event.closed)
    return Pass() if isinstance(event, Passed) else None


def _chance(position: Position, observed: Move, bazaar: int) -> float:
    """The modelled chance that the position's seat decides `observed` (`bazaar`: the tiles
    left in it); 1 with no choice."""
    rules, hand, ends = position.rules, position.hand, position.ends
    fits = fitting(rules.tiles, ends)
    if isinstance(observed, Pass) and not hand & fits:
        return KNOCKED  # with nothing that fits the seat would have knocked
    moves = moves_for(rules, hand, ends, fits, None, bazaar, 0)
    if len(moves) < 2:
        return 1.0
    return _probability(normal_scores(position, moves), moves, observed)


def _plus(scores: tuple[int, ...], side: int, points: int) -> tuple[int, ...]:
    """`scores` with `points` more for `side`."""
    return (*scores[:side], scores[side] + points, *scores[side + 1 :])


def _round_start_scores(view: SeatView) -> tuple[int, ...]:
    """The sheet before this round's points scored in play (the races')."""
    played = points_in_play(view.history, len(view.tally.scores))
    return tuple(s - p for s, p in zip(view.tally.scores, played, strict=True))


def _forced_lead(view: SeatView) -> bool:
    """Whether the round's lead was the rules' choice, not the leader's (nothing to explain)."""
    rules = view.rules
    return rules.first_lead is not FirstLead.LOT and (
        view.round_no == 1 or rules.next_lead is NextLead.FIRST_RULE
    )


def likelihood(view: SeatView, hands: Sequence[int]) -> float:
    """The modelled chance of the other seats' decisions this round given `hands`."""
    rules = view.rules
    tiles = rules.tiles
    known_from, held = _earlier_hands(view, hands)
    forced_lead = _forced_lead(view)
    sizes = list(dealt(view))
    bazaar = tiles.size - sum(sizes)
    voids = [0] * rules.players
    ends: tuple[int, ...] = ()
    spread = LINE
    on_table = 0
    last: int | None = None
    gone = False
    scores = _round_start_scores(view)  # a race's sheet as the seat saw it when it moved
    p = 1.0
    for i, event in enumerate(view.history):
        seat = event.seat
        if seat != view.seat and i > known_from[seat] and (ends or not forced_lead):
            observed = _observed(event)
            if observed is not None:
                position = Position(
                    rules=rules,
                    seat=seat,
                    hand=held[seat],
                    ends=ends,
                    spread=spread,
                    on_table=on_table,
                    sizes=sizes,
                    voids=voids,
                    scores=scores,
                    last=last,
                    gone=gone,
                    wins=view.tally.wins,
                )
                p *= _chance(position, observed, bazaar)
        if isinstance(event, WentOut):
            gone = True
        elif isinstance(event, Scored):
            scores = _plus(scores, event.side, event.points)
        if isinstance(event, TilePlayed | DoublesPlayed):
            last = seat
            for tile, end, closed in plays_of((event,)):
                if ends:
                    ends, spread = attach(
                        tiles, rules.spinner, ends, spread, tile, end, closed
                    ) or (ends, spread)
                else:
                    ends, spread = lead(tiles, rules.spinner, tile)
                on_table |= 1 << tile
                held[seat] &= ~(1 << tile)
                sizes[seat] -= 1
        elif isinstance(event, Knocked):
            voids[seat] |= end_suits(event.ends)
        elif isinstance(event, TilesDrawn):
            voids[seat] = end_suits(event.ends)
            sizes[seat] += event.number
            bazaar -= event.number
    return p
