"""What the database keeps, as typed records: games and their seats, results, ratings, stats
and chat settings. A game's rules and state are decoded once, when it is read."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from bot.ai import Level
from bot.core import ratings as skills
from bot.core.ratings import Skill
from bot.game.deal import Dealt
from bot.game.events import EndReason, Place
from bot.game.rules import RuleSet
from bot.game.serial import JSON
from bot.game.state import GameState


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN = (GameStatus.LOBBY, GameStatus.ACTIVE)


class SeasonLength(StrEnum):
    """How long a chat's rating season runs (`bot.core.seasons`)."""

    MONTH = "month"
    QUARTER = "quarter"
    NONE = "none"  # one season for ever


MOSCOW = "Europe/Moscow"  # a chat's time zone until /settings says otherwise


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    user_id: int  # negative for a computer player
    name: str
    hand_message_id: int | None = None
    computer: Level | None = None  # the computer's level, None for a person
    missed: int = 0  # turns in a row the clock ran out and the computer played
    away: bool = False  # the computer plays the seat until the person presses a button
    team: int | None = None  # the team picked in the lobby (0-based), None: joining order

    @property
    def human(self) -> bool:
        return self.computer is None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A lobby or game as stored; `state` is None until it starts."""

    id: int
    chat_id: int
    thread_id: int
    creator_id: int
    status: GameStatus
    rules: RuleSet
    seed: int
    state: GameState | None
    version: int
    lobby_message_id: int | None
    table_message_id: int | None
    end_reason: EndReason | None
    players: tuple[Player, ...]
    deadline: float | None = None  # when the person to move runs out of time (epoch s)
    end_announced: bool = True  # the chat has been told the finished game's end
    join_token: str | None = None  # the random part of the lobby's deep link
    owner: str | None = None  # the worker whose duty the game is (`crew`)
    ends_at: float | None = None  # «Генерал»: when the match's time is up (epoch s)
    dealt_from: str | None = None  # the deal code its first round was dealt (`deal=CODE`)

    def seat_of(self, user_id: int) -> int | None:
        return next((p.seat for p in self.players if p.user_id == user_id), None)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def is_open(self) -> bool:
        return self.status in OPEN


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    name: str
    games: int
    wins: int
    goats: int
    rating_points: int
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        """The number shown to players (`bot.core.ratings.display`)."""
        return skills.display(Skill(self.mu, self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < skills.PROVISIONAL_GAMES

    def order(self) -> tuple[int, int, int, int, int]:
        """Leaderboard order: rating, then rating points, wins, fewer goats."""
        return (-self.rating, -self.rating_points, -self.wins, self.goats, self.user_id)


@dataclass(frozen=True, slots=True)
class Standing:
    """One person's result of a finished game, for the stats and the chat's ratings."""

    user_id: int
    seat: int
    side: int
    place: int
    win: bool
    goat: bool
    score: int
    rating_points: int


def standings_of(places: Sequence[Place], players: Sequence[Player]) -> tuple[Standing, ...]:
    """Every person's standing from a finished game's places (a computer has none)."""
    seated = {p.seat: p for p in players}
    return tuple(
        Standing(
            user_id=seated[p.seat].user_id,
            seat=p.seat,
            side=p.side,
            place=p.place,
            win=p.place == 1,
            goat=p.goat,
            score=p.score,
            rating_points=p.rating_points,
        )
        for p in places
        if seated[p.seat].human
    )


@dataclass(frozen=True, slots=True)
class PresetStats:
    """A person's finished games of one preset: what means something there depends on the
    game (low points are good in «Козёл», high in the races), so they are kept apart."""

    preset: str
    games: int = 0
    wins: int = 0
    points: int = 0  # their side's points over all their rounds, in play too
    rounds: int = 0
    podiums: int = 0  # games finished in places 1–3


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's finished games (rated or not) in a chat or everywhere."""

    games: int = 0
    wins: int = 0
    goats: int = 0
    bald_goats: int = 0
    fish_made: int = 0  # fish rounds they closed («рыбак»)
    best_streak: int = 0  # most wins in a row
    favourite_preset: str | None = None  # the most played; a tie goes to the most recent
    presets: tuple[PresetStats, ...] = ()  # by preset, the favourite first


@dataclass(frozen=True, slots=True)
class ChatSettings:
    options: str = ""  # the chat's default /newgame preset and options
    language: str = "ru"
    computers: bool = True  # computer players allowed
    shows_deals: bool = False  # its names may show in /deal beside a shared deal
    season_length: SeasonLength = SeasonLength.MONTH
    time_zone: str = MOSCOW  # its seasons' calendar


class Languages(NamedTuple):
    """A person's languages: the one picked for the private chat (None: follow Telegram)
    and the last language code Telegram sent."""

    chosen: str | None = None
    telegram: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a game's move log: who made it (None: the game itself) and what, as
    `bot.game.serial` encodes a move or a note."""

    user_id: int | None
    entry: JSON


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round's result, kept until it has been told the chat."""

    round_no: int
    result: JSON  # the `RoundEnded` event, encoded


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended: why, a standing for every person's seat, whether the chat's
    ratings change (no computer played) and when (epoch seconds, by the service's clock:
    the season it counts in)."""

    reason: EndReason
    standings: tuple[Standing, ...]
    rated: bool
    at: float


class Dealing(NamedTuple):
    """A round that was dealt a code's tiles: which game, which round, in which chat."""

    game_id: int
    round_no: int
    chat_id: int


class SharedDeal(NamedTuple):
    """A deal code's deal: the rules it was dealt under and the tiles."""

    rules: RuleSet
    dealt: Dealt


class DealAtTable(NamedTuple):
    """How one table played a shared deal: the round dealt it, the game's preset, whether
    its chat lets its names show, the names, and the round as its record has it."""

    dealing: Dealing
    preset: str
    shown: bool
    names: tuple[str, ...]
    round: dict[str, Any]


CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""A deal code's letters: no 0/O or 1/I to mistake."""
CODE_LENGTH = 6


def deal_code() -> str:
    """A new random deal code (`/newgame deal=CODE`): a key to a stored deal, drawn apart
    from any seed, one of 32⁶ ≈ 10⁹."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
