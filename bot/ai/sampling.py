"""Possible worlds: the hidden hands and the bazaar dealt at random from the unseen tiles,
consistent with everything public, and turned into an engine state to search from.

Only a `SeatView` goes in, so a world can never reveal the real hands.
"""

from __future__ import annotations

import random

from bot.ai.knobs import KNOBS
from bot.ai.knowledge import Knowledge, allowed_tiles, dealt
from bot.game.events import DoublesPlayed, Knocked, Passed, TilePlayed
from bot.game.state import GameState, Phase
from bot.game.table import fitting
from bot.game.tiles import Tile
from bot.game.view import SeatView

MAX_TRIES = 64  # filling attempts before constraints are dropped (never seen in practice)
BAZAAR = -1


def _pick(mask: int, rng: random.Random) -> Tile:
    """A uniformly random tile of a non-empty bitmask."""
    k = rng.randrange(mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def sample_deal(
    view: SeatView, know: Knowledge, rng: random.Random
) -> tuple[tuple[int, ...], tuple[Tile, ...]]:
    """Every seat's hand (the own one as it is) and a bazaar order, dealt from the unseen
    tiles so that each seat has its public size and no tile breaks a known void."""
    tiles = view.rules.tiles
    demands: list[tuple[int, int]] = [
        (allowed_tiles(tiles, void) & know.unseen, seat)
        for seat, seat_slots in enumerate(know.slots)
        if seat != view.seat
        for void in seat_slots
    ]
    demands += [(know.unseen, BAZAAR)] * view.bazaar_size
    for attempt in range(MAX_TRIES + 1):
        relax = attempt == MAX_TRIES
        order = sorted(demands, key=lambda d: (d[0].bit_count(), rng.random()))
        left = know.unseen
        hands = [0] * len(view.hand_sizes)
        bazaar: list[Tile] = []
        for allowed, seat in order:
            options = left if relax else left & allowed
            if not options:
                break
            tile = _pick(options, rng)
            left &= ~(1 << tile)
            if seat == BAZAAR:
                bazaar.append(tile)
            else:
                hands[seat] |= 1 << tile
        else:
            hands[view.seat] = view.hand
            rng.shuffle(bazaar)
            return tuple(hands), tuple(bazaar)
    raise AssertionError("the unseen tiles do not match the public hand sizes")


def world_state(view: SeatView, hands: tuple[int, ...], bazaar: tuple[Tile, ...]) -> GameState:
    """The engine state of the view's round with these hands and this bazaar."""
    idle, last_player = 0, None
    for event in reversed(view.history):
        if isinstance(event, TilePlayed | DoublesPlayed):
            last_player = event.seat
            break
        if isinstance(event, Knocked | Passed):
            idle += 1
    rules = view.rules
    resting: tuple[int, ...] = ()
    if KNOBS[rules.format].rests:  # the seats dealt nothing sit this round out (Bykovo §4.2)
        resting = tuple(seat for seat, size in enumerate(dealt(view)) if not size)
    return GameState(
        rules, tuple(str(s) for s in range(rules.players)), 0, view.round_no, Phase.PLAYING,
        hands, bazaar, view.ends, view.on_table, fitting(rules.tiles, view.ends), view.to_move,
        view.lead_tile, view.drawn, idle, last_player, view.history, view.tally, None, None, None,
        (), view.spread, resting,
    )  # fmt: skip


def sample_world(view: SeatView, know: Knowledge, rng: random.Random) -> GameState:
    """One possible world of the view's round."""
    hands, bazaar = sample_deal(view, know, rng)
    return world_state(view, hands, bazaar)
