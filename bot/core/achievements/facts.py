"""What an achievement is judged on: a finished game's record (docs/RECORD.md) read for
one seat, and the person's earlier games in the chat."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.game.events import RoundEnd
from bot.game.record import Record

Move = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Game:
    """A finished game's record, as the achievements ask it."""

    record: Record

    @property
    def format(self) -> str:
        return str(self.record["format"])

    def option(self, name: str) -> Any:
        return self.record["rules"].get(name)

    @property
    def seats(self) -> list[Record]:
        return list(self.record["seats"])

    @property
    def computers(self) -> list[str | None]:
        """Each seat's computer level, None for a person."""
        return [s["computer"] for s in self.record["seats"]]

    @property
    def has_computers(self) -> bool:
        return any(level is not None for level in self.computers)

    @property
    def rounds(self) -> list[Record]:
        return list(self.record["rounds"])

    @property
    def end(self) -> Record:
        return dict(self.record["end"] or {"reason": None, "places": []})

    def side(self, seat: int) -> int:
        return int(self.record["seats"][seat]["side"])

    def place(self, seat: int) -> Record | None:
        return next((p for p in self.end["places"] if p["seat"] == seat), None)

    def won(self, seat: int) -> bool:
        """First place (partners share it)."""
        place = self.place(seat)
        return place is not None and place["place"] == 1

    def goat(self, seat: int) -> bool:
        place = self.place(seat)
        return place is not None and bool(place["goat"])

    def results(self) -> Iterator[Record]:
        """Each finished round's result, in order."""
        return (r["result"] for r in self.record["rounds"] if r["result"] is not None)

    def round_winner(self, round_: Record) -> int | None:
        """The side that went out in the round, if one did."""
        result = round_["result"]
        if result is None or result["reason"] != RoundEnd.OUT:
            return None
        return self.side(result["seat"])

    def went_out(self, round_: Record, seat: int) -> bool:
        result = round_["result"]
        return result is not None and result["reason"] == RoundEnd.OUT and result["seat"] == seat


def tiles_of(move: Move) -> list[str]:
    """The tiles a move put on the table."""
    if "play" in move:
        return [move["play"]]
    return list(move.get("doubles", ()))


def moves_of(round_: Record, seat: int) -> list[Move]:
    return [m for m in round_["moves"] if m.get("seat") == seat]


@dataclass(frozen=True, slots=True)
class Past:
    """One of the person's earlier finished games in the chat: won, goat, which game of
    the family, and whether computers played (so it does not count for some)."""

    win: bool
    goat: bool
    format: str
    computers: bool


def counted(past: Sequence[Past], computers: bool) -> list[Past]:
    """The earlier games an achievement counts: those with computers only if it does."""
    return [p for p in past if computers or not p.computers]
