"""A player's stats from their finished games: counts, streaks, points per round."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.records import PlayerStats
from bot.game.events import RoundEnd
from bot.game.rules import PRESETS

RACES = frozenset(name for name, preset in PRESETS.items() if preset.rules.format.scores_in_play)
"""The presets where the highest score wins: no goats, no §2.7 rating points."""
CLUBS = frozenset(
    name
    for name, preset in PRESETS.items()
    if preset.rules.format.at_table(preset.rules) < preset.rules.format.most_players(preset.rules)
    and preset.rules.format.fewest_players(preset.rules) > 2
)
"""The club formats (§4, §8): more people than seats, places 1–3 count."""
PODIUM = 3


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """One finished game of the player, in the order played."""

    game_id: int
    win: bool
    goat: bool
    bald: bool
    preset: str
    place: int = 0


@dataclass(frozen=True, slots=True)
class RoundPlayed:
    """One round of those games: the player's seat and the stored round result."""

    seat: int
    result: dict[str, Any]


def player_stats(games: Sequence[GamePlayed], rounds: Sequence[RoundPlayed]) -> PlayerStats:
    if not games:
        return PlayerStats()
    fish_made = 0
    points: list[int] = []
    for played in rounds:
        result, seat = played.result, played.seat
        fish_made += result["reason"] == RoundEnd.FISH and result["seat"] == seat
        points += [
            s["round_points"] + s.get("play_points", 0)  # Телефон, Muggins: points in play
            for s in result["results"]
            if s["seat"] == seat
        ]
    streak = best_streak = 0
    for game in games:
        streak = streak + 1 if game.win else 0
        best_streak = max(best_streak, streak)
    presets = Counter(game.preset for game in games)
    last = {game.preset: game.game_id for game in games}
    return PlayerStats(
        games=len(games),
        wins=sum(game.win for game in games),
        goats=sum(game.goat for game in games),
        bald_goats=sum(game.bald for game in games),
        fish_made=fish_made,
        best_streak=best_streak,
        points_per_round=sum(points) / len(points) if points else None,
        favourite_preset=max(presets, key=lambda p: (presets[p], last[p])),
        races=sum(presets[name] for name in RACES),
        clubs=sum(presets[name] for name in CLUBS),
        podiums=sum(game.preset in CLUBS and 0 < game.place <= PODIUM for game in games),
    )
