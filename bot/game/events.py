"""What happened, for the bot to show: every `apply` returns these.

Events are named tuples: immutable, and cheap enough to make on every move.

`TilesDrawn.tiles` is private to the drawer; `public()` gives the version everyone may see.
The public events of a round form its history (`GameState.history`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import NamedTuple

from bot.game.tiles import Tile


class RoundEnd(StrEnum):
    """How a round ended (`RoundEnded.seat` is who did it)."""

    OUT = "out"  # `seat` went out
    FISH = "fish"  # nobody could move: `seat` is the fisherman («рыбак»)
    TARGET = "target"  # `seat` reached the target during play, which ends the game at once
    SORTIR = "sortir"  # Bykovo's «сортир», three circles of passes: `seat` placed the last tile


class EndReason(StrEnum):
    """Why a game is over: played to its end (the engine's reasons), or cancelled (the
    bot's)."""

    TARGET = "target"  # someone reached the target: the goats are known
    BALD_GOAT = "bald_goat"  # Sea Goat: out with 0-0 (or 6-6)
    LAST_IN = "last_in"  # the room, Bykovo: one side is left in
    TIMEOUT = "timeout"  # a player left; settled by the timeout rule (RULES §2.7)
    TIME = "time"  # «Генерал»: the match's time is up (§8)
    CANCELLED = "cancelled"  # the lobby's ✖ (creator or admin)
    ENDED = "ended"  # /endgame, confirmed
    IDLE = "idle"  # a lobby where nothing happened for too long
    BOT_REMOVED = "bot_removed"  # the bot left the group


class Redeal(StrEnum):
    """Why a deal was discarded (§1.3)."""

    DOUBLES = "doubles"  # a hand held `redeal_doubles` doubles
    SUIT = "suit"  # … or `redeal_suit` tiles of one suit


class RoundStarted(NamedTuple):
    round_no: int
    leader: int
    lead_tile: Tile | None  # the tile the leader must open with, or None for any
    redeals: tuple[Redeal, ...]  # why each discarded deal was redealt
    resting: tuple[int, ...] = ()  # Bykovo, «Генерал»: the seats that sit this round out


class TilePlayed(NamedTuple):
    seat: int
    tile: Tile
    end: int  # the arm; 0 for the tile that opens the round
    closed: bool = False  # Осёл: a double played face down, ending its arm


class DoublesPlayed(NamedTuple):
    seat: int
    tiles: tuple[Tile, ...]
    ends: tuple[int, ...]  # the arms they went to
    closed: tuple[bool, ...] = ()  # per tile, whether it lies face down (none if empty)


class Scored(NamedTuple):
    """The open ends made a multiple of 5 after `seat`'s move (Телефон, Muggins)."""

    seat: int
    side: int
    ends_sum: int
    points: int


class TilesDrawn(NamedTuple):
    """A trip to the bazaar («на базар»); `ends` are the open ends nothing fitted."""

    seat: int
    number: int  # how many tiles: public
    ends: tuple[int, ...]
    tiles: tuple[Tile, ...] = ()  # which tiles: private, empty in the public version


class Knocked(NamedTuple):
    """The seat could not play and the bazaar could not help («стучит»)."""

    seat: int
    ends: tuple[int, ...]


class Passed(NamedTuple):
    """A voluntary pass although something fitted."""

    seat: int


class WentOut(NamedTuple):
    """Bykovo: `seat` emptied its hand; the circle is played on up to `last` (§4.1)."""

    seat: int
    last: int


class SeatResult(NamedTuple):
    """One seat's line of the round's score sheet; score fields are its side's."""

    seat: int
    side: int
    hand: tuple[Tile, ...]
    hand_value: int
    round_points: int
    remembered_before: int
    remembered_after: int
    score_before: int
    score_after: int
    opened: bool
    took_carry: bool
    play_points: int = 0  # what the side scored during the round's play (Телефон, Muggins)


class RoundEnded(NamedTuple):
    round_no: int
    reason: RoundEnd
    seat: int
    eggs: bool  # a tie on a fish: nobody scores, the total is carried («яйца»)
    written_off: bool  # Sea Goat: the points on the table were written off
    carry_before: int
    carry_after: int
    results: tuple[SeatResult, ...]
    out: tuple[int, ...] = ()  # the room, Bykovo: the sides this round put out of the game
    order: tuple[int, ...] = ()  # Bykovo: the round's places, seats best first (§4.1)
    lots: tuple[int, ...] = ()  # Bykovo: seats whose order among equal hands was drawn by lot


class Place(NamedTuple):
    seat: int
    side: int
    place: int  # 1 is best; partners share a place
    score: int
    goat: bool  # «козёл»: lost the game
    rating_points: int  # RULES §2.7


class GameEnded(NamedTuple):
    reason: EndReason  # one the engine gives: target, bald_goat, last_in, time or timeout
    places: tuple[Place, ...]  # best first
    leaver: int | None = None  # the first seat that left: the leavers are settled by §2.7


Event = (
    RoundStarted
    | TilePlayed
    | DoublesPlayed
    | TilesDrawn
    | Knocked
    | Passed
    | WentOut
    | Scored
    | RoundEnded
    | GameEnded
)
PublicEvent = TilePlayed | DoublesPlayed | TilesDrawn | Knocked | Passed | WentOut | Scored


def plays_of(history: Iterable[Event]) -> Iterator[tuple[Tile, int, bool]]:
    """`(tile, arm, closed)` of every tile put on the table, in order."""
    for event in history:
        if isinstance(event, TilePlayed):
            yield event.tile, event.end, event.closed
        elif isinstance(event, DoublesPlayed):
            closed = event.closed or (False,) * len(event.tiles)
            yield from zip(event.tiles, event.ends, closed, strict=True)


def points_in_play(history: Iterable[Event], sides: int) -> list[int]:
    """Per side, the points its moves scored in these events (Телефон, Muggins, Fives and
    Threes)."""
    points = [0] * sides
    for event in history:
        if isinstance(event, Scored):
            points[event.side] += event.points
    return points


def public(event: Event) -> Event:
    """The event as the whole group may see it."""
    if isinstance(event, TilesDrawn) and event.tiles:
        return event._replace(tiles=())
    return event
