"""Fixed example scenes for the benchmark, the golden-image tests and the README picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from render.scene import (
    EndsCount,
    Pips,
    ScoreRow,
    ScoreSheet,
    SeatScene,
    SheetKind,
    SheetLabels,
    TableScene,
)

FULL_LINE = (3, 3, 0, 0, 2, 2, 1, 1, 3, 6, 6, 2, 3, 5, 5, 6, 4, 4, 5, 0, 6, 1, 4, 2, 5, 1, 0, 4, 3)
"""All 28 double-six tiles as one line, given by the values along it from left to right."""

FULL_LINE_12 = (
    2, 5, 5, 9, 9, 2, 2, 1, 1, 8, 11, 2, 0, 3, 1, 10, 5, 1, 12, 6, 6, 1, 11, 11, 3, 5, 11, 6, 9, 0,
    12, 5, 7, 7, 1, 0, 7, 6, 4, 11, 7, 8, 2, 10, 12, 8, 10, 11, 0, 0, 10, 10, 3, 8, 8, 5, 4, 4, 10,
    6, 2, 12, 11, 9, 8, 6, 0, 4, 1, 9, 12, 12, 3, 9, 10, 7, 12, 4, 7, 3, 3, 6, 5, 0, 8, 4, 3, 2, 7,
    9, 4, 2,
)  # fmt: skip
"""All 91 double-twelve tiles as one line; its middle 61 hold 10-10, 11-11 and 12-12 and end
on 10 and 12."""

FULL_LINE_9 = (
    8, 0, 0, 2, 1, 1, 3, 0, 4, 1, 5, 0, 6, 1, 7, 0, 9, 1, 8, 2, 2, 4, 3, 3, 5, 2, 6, 3, 7, 2, 9, 3,
    8, 4, 4, 6, 5, 5, 7, 4, 9, 5, 8, 6, 6, 9, 7, 7, 8, 8, 9, 9,
)  # fmt: skip
"""51 of the 55 double-nine tiles as one line (0-1, 2-3, 4-5 and 6-7 left out)."""

FULL_LINES = {6: FULL_LINE, 9: FULL_LINE_9, 12: FULL_LINE_12}

NAMES = (
    "Маша",
    "Серёжа",
    "Ольга Константиновна",
    "Alex 🐟",
    "Дима",
    "Катя",
    "Фёдор Михайлович",
    "Zoë",
    "🤖 Любитель 2",
    "Анна-Мария",
)
SCORES = (
    (0, 9, False),
    (37, 0, True),
    (12, 4, False),
    (64, 0, True),
    (101, 0, True),
    (25, 0, True),
    (8, 3, False),
    (112, 0, True),
    (49, 6, True),
    (77, 0, True),
)
"""Score, remembered points and whether the account is opened, per seat."""
BAZAAR = "базар"
LABELS = SheetLabels(
    "игрок",
    "было",
    "раунд",
    "итого",
    "рыба 🐟",
    "козёл",
    "яйца переходят в следующий раунд",
    "выбыл",
    "в игре",
)
"""The Russian words of the samples (the bot takes them from its catalogs)."""
STANDINGS_LABELS = replace(LABELS, limit="лимит", next="дальше", plays="играет", sits="сидит")
"""The words of the Bykovo standings too."""


def split_line(values: Sequence[int], first: int) -> tuple[Pips, tuple[tuple[Pips, ...], ...]]:
    """The line `values` (tile i is `values[i]-values[i+1]`) as first tile `first` and arms."""
    left = tuple((values[i + 1], values[i]) for i in range(first - 1, -1, -1))
    right = tuple((values[i], values[i + 1]) for i in range(first + 1, len(values) - 1))
    return (values[first], values[first + 1]), (left, right)


def table(
    line: int,
    hands: Sequence[int],
    *,
    teams: int = 0,
    round_end: bool = False,
    max_pip: int = 6,
    out: Sequence[int] = (),
) -> TableScene:
    """A table with the middle `line` tiles of `FULL_LINES[max_pip]` down and `len(hands)` seats.

    Hands take the other tiles in order (the rest is the bazaar); with `teams` seat `i` plays
    in team `i % teams`, and the seats `out` have left the game (give them empty hands). Seat 1
    is to move; at the round end seat 0 has gone out and every hand is shown with its points.
    """
    full = FULL_LINES[max_pip]
    start = (len(full) - 1 - line) // 2
    values = full[start : start + line + 1]
    first, arms = split_line(values, line // 2)
    down = {tuple(sorted(pair)) for pair in pairwise(values)}
    spare = [
        (a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1) if (a, b) not in down
    ]
    seats = []
    for seat, size in enumerate(hands):
        hand = tuple(spare[:size])
        del spare[:size]
        score, remembered, opened = SCORES[seat]
        note = ""
        if round_end and seat not in out:
            note = f"+{sum(a + b for a, b in hand)}" if hand else "вышла"
        seats.append(
            SeatScene(
                name=NAMES[seat],
                tiles_left=size,
                score=score,
                remembered=remembered,
                opened=opened,
                to_move=not round_end and seat == 1,
                team=seat % teams if teams else None,
                revealed=hand if round_end else None,
                note=note,
                out=seat in out,
            )
        )
    return TableScene(
        first,
        arms,
        tuple(seats),
        bazaar=len(spare),
        last_played=arms[1][-1] if arms[1] else first,
        caption="Маша вышла · раунд 4" if round_end else "Раунд 4 · ходит Серёжа",
        max_pip=max_pip,
        bazaar_label=BAZAAR,
    )


SPINNER_TABLES: dict[str, tuple[tuple[int, ...], ...]] = {
    "donkey": (
        (1, 2, 0, 0, 5),
        (1, 5, 4, 4),
        (1, 0, 3, 2, 2, 6, 6, 4, 0),
        (1, 6, 3, 4, 1, 3, 5, 6, 0),
    ),
    "telephone": (
        (1, 0, 3, 2, 5, 4, 3, 1, 6, 0, 0, 4, 4),
        (1, 4, 2, 6, 3, 5),
        (1, 2, 0, 5, 6, 6),
        (1, 5, 5),
    ),
    "muggins": ((2, 4, 5, 5), (2, 3, 0, 6, 4, 4), (2, 5), (2, 6, 6)),
    "muggins_two_arms": ((3, 1, 1, 6, 2), ()),
}
"""Spinner tables met in play (`new_game` with random legal moves), as the values along each
arm from the spinner out: Осёл's crowded table whose east arm ends in a closed 4-4, Телефон's
and Muggins' four arms, and Muggins' spinner before both its long sides hold a tile."""


def spinner_arms(values: Sequence[int], spinner: int) -> tuple[tuple[int, ...], ...]:
    """The closed line `values` (it ends where it starts) laid round its double `spinner`:
    cut there and at every return to its value, the pieces dealt to the four arms in turn."""
    at = next(i for i in range(len(values) - 1) if values[i] == values[i + 1] == spinner)
    walk = (*values[at + 1 :], *values[1 : at + 1])  # every other tile, from `spinner` round to it
    cuts = [i for i, value in enumerate(walk) if value == spinner]
    arms: list[tuple[int, ...]] = [(spinner,)] * 4
    for n, (start, stop) in enumerate(pairwise(cuts)):
        arms[n % 4] += walk[start + 1 : stop + 1]
    return tuple(arms)


def spinner_table(
    arms: Sequence[Sequence[int]],
    hands: Sequence[int],
    *,
    closed: Sequence[int] = (),
    count: EndsCount | None = None,
    max_pip: int = 6,
) -> TableScene:
    """A spinner table: `arms` give the values along each arm from the spinner out (tile i
    of an arm is `values[i]-values[i+1]`); hands take the other tiles in order, the rest is the
    bazaar. The last tile of the longest arm was played last; seat 1 is to move."""
    spinner = arms[0][0]
    laid = tuple(tuple(pairwise(values)) for values in arms)
    down = {tuple(sorted(pair)) for arm in laid for pair in arm} | {(spinner, spinner)}
    spare = [
        (a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1) if (a, b) not in down
    ]
    seats = []
    for seat, size in enumerate(hands):
        score, _, _ = SCORES[seat]
        seat_scene = SeatScene(NAMES[seat], size, score, 0, False, seat == 1, None, None)
        seats.append(seat_scene)
        del spare[:size]
    longest = max(laid, key=len)
    return TableScene(
        (spinner, spinner),
        laid,
        tuple(seats),
        bazaar=len(spare),
        last_played=longest[-1] if longest else (spinner, spinner),
        caption="Раунд 3 · ходит Серёжа",
        max_pip=max_pip,
        bazaar_label=BAZAAR,
        spinner=True,
        closed=tuple(closed),
        count=count,
    )


def largest_spinner_table() -> TableScene:
    """Every double-twelve tile down round the 12-12 spinner, two players with empty hands."""
    return spinner_table(spinner_arms(FULL_LINE_12, 12), (0, 0), max_pip=12)


def room_sheet() -> ScoreSheet:
    """A game room after round 7: Дима has just reached the limit (the goat), Zoë before him."""
    rows = (
        ScoreRow("Маша", 40, 0, 40, 0, True, False),
        ScoreRow("Серёжа", 64, 13, 77, 0, True, False),
        ScoreRow("Ольга Константиновна", 12, 8, 20, 4, False, False),
        ScoreRow("Дима", 96, 9, 105, 0, True, True, out=True),
        ScoreRow("Катя", 25, 0, 25, 0, True, False),
        ScoreRow("Zoë", 112, 0, 112, 0, True, False, out=True),
    )
    return ScoreSheet(rows, "Раунд 7", fish=False, carry=0, labels=LABELS)


def race_sheet() -> ScoreSheet:
    """Телефон to 72: Маша reaches it in play, so the game ends before the hands are counted."""
    rows = (
        ScoreRow("Маша", 61, 0, 72, 0, False, False, play_points=11),
        ScoreRow("Серёжа", 58, 0, 61, 0, False, False, play_points=3),
        ScoreRow("Ольга Константиновна", 40, 0, 40, 0, False, False),
    )
    return ScoreSheet(
        rows, "Маша набирает 72 — игра окончена", False, 0, LABELS, kind=SheetKind.RACE
    )


def score_sheet(eggs: bool = False) -> ScoreSheet:
    """After a fish: Серёжа takes it all and becomes the goat, or (`eggs`) a tie carries on."""
    if eggs:
        rows = (
            ScoreRow("Маша", 0, 0, 0, 9, False, False),
            ScoreRow("Серёжа", 37, 0, 37, 0, True, False),
            ScoreRow("Ольга Константиновна", 12, 0, 12, 4, False, False),
            ScoreRow("Alex 🐟", 64, 0, 64, 0, True, False),
        )
        return ScoreSheet(rows, "Раунд 5", fish=True, carry=23, labels=LABELS)
    rows = (
        ScoreRow("Маша", 0, 0, 0, 0, False, False),
        ScoreRow("Серёжа", 88, 17, 105, 0, True, True),
        ScoreRow("Ольга Константиновна", 12, 0, 12, 0, False, False),
        ScoreRow("Alex 🐟", 64, 0, 64, 0, True, False),
    )
    return ScoreSheet(rows, "Раунд 6 · конец игры", fish=True, carry=0, labels=LABELS)


def standings_sheet() -> ScoreSheet:
    """Bykovo «вприсядку», six people, limit 60, after round 6: Катя went out first, Ольга and
    Маша held 5 each and drew lots for 2nd and 3rd, Дима reached 64 and is out; Серёжа and
    Alex sat the round out, so they play the next one with Маша and Ольга (the worst placed),
    and Катя sits it out. Rows by standing, the lowest total first."""
    rows = (
        ScoreRow("Катя", 20, 0, 20, 0, False, False, place=1, plays_next=False),
        ScoreRow("Ольга Константиновна", 27, 5, 32, 0, False, False, place=2, lot=True,
                 plays_next=True),
        ScoreRow("Серёжа", 38, 0, 38, 0, False, False, plays_next=True),
        ScoreRow("Alex 🐟", 47, 0, 47, 0, False, False, plays_next=True),
        ScoreRow("Маша", 44, 5, 49, 0, False, False, place=3, lot=True, plays_next=True),
        ScoreRow("Дима", 41, 23, 64, 0, False, False, out=True, place=4),
    )  # fmt: skip
    return ScoreSheet(
        rows, "Раунд 6: вышла Катя", False, 0, STANDINGS_LABELS, kind=SheetKind.PLACES, limit=60
    )


GENERALS_LABELS = replace(LABELS, generals="генералы", wins="победы", general="генерал")


def generals_sheet() -> ScoreSheet:
    """«Генерал», three teams, after round 9: Маша and Ольга won it, Ольга out on 6-6 (their
    second General); the others wait with what they won before."""
    rows = (
        ScoreRow("Маша и Ольга Константиновна", 1, 1, 2, 0, False, False, wins=5, general=True),
        ScoreRow("Серёжа и Alex 🐟", 0, 0, 0, 0, False, False, wins=3),
        ScoreRow("Дима и Катя", 1, 0, 1, 0, False, False, wins=1),
    )
    note = "Генерал: матч 30 мин; побеждает команда с большим числом генералов, потом раундов"
    return ScoreSheet(
        rows, "Раунд 9: вышла Ольга", False, 0, GENERALS_LABELS, SheetKind.GENERALS, note=note
    )


def no_bazaar_table() -> TableScene:
    """Four players in two teams of a game without a bazaar: the header shows none."""
    scene = table(20, (2, 2, 1, 3), teams=2)
    return replace(scene, bazaar=None, bazaar_label="", caption="Генерал · раунд 4")
