"""What a picture shows: plain values, independent of the game engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

Pips = tuple[int, int]


class SheetKind(StrEnum):
    """What decides the game, and so what its score sheet shows."""

    POINTS = "points"  # previous / round / total, remembered points (Козёл, classic)
    RACE = "race"  # … and the points scored in play, up to the target (Телефон, Muggins)
    OUT = "out"  # previous / round / total, and who is out at the limit (the room)
    PLACES = "places"  # the standings: round places, bars up to the `limit` (Bykovo)
    GENERALS = "generals"  # this round won, Generals and rounds won per team («Генерал»)


@dataclass(frozen=True, slots=True)
class SeatScene:
    """One seat at the table.

    `revealed` lists the hand face up (round end) instead of `tiles_left` backs, those in
    `marked` framed in gold (a review's better move); `note` is a short result such as "+13"
    or "🐟 30". `team` is 0 … 4 (or None without teams); `out`
    marks a seat that has left the game (it reached the score limit): dimmed, without a hand.
    """

    name: str
    tiles_left: int
    score: int
    remembered: int
    opened: bool
    to_move: bool
    team: int | None
    revealed: tuple[Pips, ...] | None
    note: str = ""
    out: bool = False
    marked: tuple[Pips, ...] = ()


@dataclass(frozen=True, slots=True)
class EndsCount:
    """The open ends added up (Телефон, Muggins): `label` is the word before the `total`;
    `points` is what the last move scored, for `scorer` (0 and "" if it scored nothing)."""

    label: str
    total: int
    points: int = 0
    scorer: str = ""


@dataclass(frozen=True, slots=True)
class TableScene:
    """The table: `first` tile `(a, b)`; arm 0 grows from `a`, arm 1 from `b`.

    Each arm lists `(inner, outer)` halves outward from the first tile; an arm's last outer
    value is its open end. Seats go clockwise from the bottom of the picture. `max_pip` is the
    set's highest value: double-six (6) up to double-twelve (12).

    With `spinner` the first tile is a spinner («дом»): its arms are west, east, north and
    south (two or four of them), every arm starts from its value and each open end is
    labelled with the arm's arrow. `closed` lists the arms whose outermost tile is a double
    played face down (Осёл): it ends the arm. `count` is shown in race games. `bazaar` is
    None in a game without one (the header then shows no stock).
    """

    first: Pips | None
    arms: tuple[tuple[Pips, ...], ...]
    seats: tuple[SeatScene, ...]
    bazaar: int | None
    last_played: Pips | None
    caption: str = ""
    max_pip: int = 6
    bazaar_label: str = field(default="", kw_only=True)  # the word for the stock of tiles left
    spinner: bool = field(default=False, kw_only=True)
    closed: tuple[int, ...] = field(default=(), kw_only=True)
    count: EndsCount | None = field(default=None, kw_only=True)

    @property
    def face_down(self) -> set[tuple[int, int]]:
        """The tiles lying face down, as `(arm, index)`: each closed arm's outermost."""
        return {(arm, len(self.arms[arm]) - 1) for arm in self.closed}


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One player's (or team's) line of the score sheet after a round; `out`: left the game;
    `play_points`: scored during the round's play (race games).

    Standings (`SheetKind.PLACES`): `place` in this round, 1 best, 0 for a player who did
    not play it (shown as «—»); `lot`: that place was drawn by lot; `plays_next`: whether
    the player plays the next round (None: no next round, or out of the game).

    «Генерал» (`SheetKind.GENERALS`): `round_points` is 1 for the team that won the round,
    `total` its Generals, `wins` its rounds won; `general`: it made a General this round.
    """

    name: str
    previous: int
    round_points: int
    total: int
    remembered: int
    opened: bool
    goat: bool
    out: bool = False
    play_points: int = 0
    place: int = 0
    lot: bool = False
    plays_next: bool | None = None
    wins: int = 0
    general: bool = False


@dataclass(frozen=True, slots=True)
class SheetLabels:
    """The score sheet's words, in the reader's language; `eggs` follows "🥚🥚 +N — ".

    `out` marks a player (or team) that has left the game; `play` heads the points scored
    in play (race games). Standings: `limit` heads the limit bars, `next` the next round's
    status, which is `plays` or `sits`. «Генерал»: `generals` and `wins` head its columns,
    `general` marks the team that made one this round.
    """

    player: str
    previous: str
    round: str
    total: str
    fish: str
    goat: str
    eggs: str
    out: str
    play: str = ""
    limit: str = ""
    next: str = ""
    plays: str = ""
    sits: str = ""
    generals: str = ""
    wins: str = ""
    general: str = ""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The score after a round; `fish` marks a blocked round, `carry` the eggs carried on;
    `note`, a last line, says what decides the game.

    The `kind` sets the columns: a race (Телефон, Muggins: highest wins) adds the points
    scored in play; the standings (the Bykovo tournament: reaching the `limit` puts a player
    out) show each row's round place, a bar of its total against the limit and whether it
    plays the next round; «Генерал» shows the round won, the Generals and the rounds won.
    """

    rows: tuple[ScoreRow, ...]
    title: str
    fish: bool
    carry: int
    labels: SheetLabels
    kind: SheetKind = SheetKind.POINTS
    limit: int = 0
    note: str = ""
