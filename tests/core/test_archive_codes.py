"""`Archive.code`'s memory of deal codes: the least recently asked for goes first, so a
busy game's code (asked for at every move) stays kept however many others are looked up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from bot.core.archive import CODES_KEPT, Archive
from bot.core.database import Database


class CountedCodes:
    """A database that gives every round a code and counts the lookups."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[str]]:
        game_id, round_no = params
        self.asked.append((game_id, round_no))
        return [(f"CODE{game_id}-{round_no}",)]


async def test_the_busiest_games_code_stays_kept() -> None:
    database = CountedCodes()
    archive = Archive(cast(Database, database))
    assert await archive.code(1, 3) == "CODE1-3"
    for other in range(2, CODES_KEPT + 2):  # as many others as are kept, the busy one between
        assert await archive.code(other, 1) == f"CODE{other}-1"
        assert await archive.code(1, 3) == "CODE1-3"
    assert database.asked.count((1, 3)) == 1
    assert await archive.code(2, 1) == "CODE2-1"  # the least recently asked for went
    assert database.asked.count((2, 1)) == 2
