"""Every achievement's id (a badge a person earns in a chat with a finished game), and
what a game earned and a person holds, as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Achievement(StrEnum):
    """An achievement, by the id it is stored and worded under (`badge-<id>` in the
    catalogs)."""

    FIRST_WIN = "first_win"
    FIRST_GOAT = "first_goat"
    FISHERMAN = "fisherman"
    EGGS = "eggs"
    GENERAL = "general"
    BALD_GOAT_MADE = "bald_goat_made"
    BALD_GOAT = "bald_goat"
    THREE_ROUNDS = "three_rounds"
    NO_BAZAAR = "no_bazaar"
    DOUBLE_PAIR = "double_pair"
    MUGGINS_25 = "muggins_25"
    EXACT_61 = "exact_61"
    CLEAN_WIN = "clean_win"
    COMEBACK = "comeback"
    THREE_HARD = "three_hard"
    FULL_TABLE = "full_table"
    WIN_STREAK = "win_streak"
    TEN_WINS = "ten_wins"
    FIFTY_GAMES = "fifty_games"
    WHOLE_FAMILY = "whole_family"


@dataclass(frozen=True, slots=True)
class Earned:
    """What a person earned with one game: their seat's name and the achievements."""

    name: str
    achievements: tuple[Achievement, ...]


@dataclass(frozen=True, slots=True)
class Held:
    """An achievement a person holds: how many games earned it, and how many people of all
    the bot has seen hold it (`seen`)."""

    achievement: Achievement
    times: int
    holders: int
    seen: int
