"""A player's stats from their finished games: counts, streaks, and per preset the points
per round (they mean opposite things in different games, so they are never mixed)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.rows import PlayerStats, PresetStats
from bot.game.events import RoundEnd
from bot.game.formats import Sheet
from bot.game.rules import PRESETS

RACES = frozenset(
    name for name, preset in PRESETS.items() if preset.rules.format.sheet is Sheet.RACE
)
"""The presets where the highest score wins the race: no goats, no §2.7 rating points."""
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
    """One round of those games: its game, the player's seat and the stored round result."""

    game_id: int
    seat: int
    result: dict[str, Any]


def _points(played: RoundPlayed) -> list[int]:
    """The player's side's points of the round (Телефон, Muggins: in play too)."""
    return [
        s["round_points"] + s.get("play_points", 0)
        for s in played.result["results"]
        if s["seat"] == played.seat
    ]


def _by_preset(games: Sequence[GamePlayed], rounds: Sequence[RoundPlayed]) -> list[PresetStats]:
    """Games, wins, points, rounds and podiums per preset, the most played (then the most
    recently played) first."""
    preset_of = {game.game_id: game.preset for game in games}
    points: defaultdict[str, list[int]] = defaultdict(list)
    for played in rounds:
        points[preset_of[played.game_id]] += _points(played)
    last = {game.preset: game.game_id for game in games}
    played_games = Counter(game.preset for game in games)
    return [
        PresetStats(
            preset=preset,
            games=count,
            wins=sum(g.win for g in games if g.preset == preset),
            points=sum(points[preset]),
            rounds=len(points[preset]),
            podiums=sum(g.preset == preset and 0 < g.place <= PODIUM for g in games),
        )
        for preset, count in sorted(played_games.items(), key=lambda p: (-p[1], -last[p[0]]))
    ]


def player_stats(games: Sequence[GamePlayed], rounds: Sequence[RoundPlayed]) -> PlayerStats:
    if not games:
        return PlayerStats()
    fish_made = sum(
        played.result["reason"] == RoundEnd.FISH and played.result["seat"] == played.seat
        for played in rounds
    )
    streak = best_streak = 0
    for game in games:
        streak = streak + 1 if game.win else 0
        best_streak = max(best_streak, streak)
    presets = _by_preset(games, rounds)
    return PlayerStats(
        games=len(games),
        wins=sum(game.win for game in games),
        goats=sum(game.goat for game in games),
        bald_goats=sum(game.bald for game in games),
        fish_made=fish_made,
        best_streak=best_streak,
        favourite_preset=presets[0].preset,
        presets=tuple(presets),
    )
