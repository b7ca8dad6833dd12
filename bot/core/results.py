"""What a finished game leaves behind, written in the transaction that stores its last
move: every person's result (for the stats) and, for a rated game, the chat's ratings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.core import ratings as skills
from bot.core.database import Transaction
from bot.core.ratings import Skill
from bot.core.rows import Ending, GameRow, Standing
from bot.game.events import EndReason


async def keep_results(db: Transaction, game: GameRow, ending: Ending) -> None:
    """Every person's result; if the game is rated, their counters and skills in the
    chat."""
    reason, standings = ending.reason, ending.standings
    preset = game.rules.preset
    await db.executemany(
        "INSERT INTO game_results (game_id, chat_id, user_id, seat, side, place, win, goat, "
        "bald, score, rating_points, rated, preset) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game.id,
                game.chat_id,
                s.user_id,
                s.seat,
                s.side,
                s.place,
                int(s.win),
                int(s.goat),
                int(s.goat and reason is EndReason.BALD_GOAT),
                s.score,
                s.rating_points,
                int(ending.rated),
                preset,
            )
            for s in standings
        ],
    )
    if ending.rated:
        await _rate(db, game.chat_id, standings)


async def _rate(db: Transaction, chat_id: int, standings: Sequence[Standing]) -> None:
    """Counters and skills of a rated game's players: each side a team at its place."""
    users = [s.user_id for s in standings]
    marks = ", ".join("?" * len(users))
    rows = await db.fetch(
        f"SELECT user_id, mu, sigma FROM ratings WHERE chat_id = ? AND user_id IN ({marks})",
        (chat_id, *users),
    )
    after = rate_standings({row[0]: Skill(row[1], row[2]) for row in rows}, standings)
    await count_rated(db, "ratings", {"chat_id": chat_id}, standings, after)


async def count_rated(
    db: Transaction,
    table: str,
    key: Mapping[str, int],
    standings: Sequence[Standing],
    after: Mapping[int, Skill],
    starts: Mapping[int, Skill] | None = None,
) -> None:
    """Counts a rated game in its players' rows of `table` (`ratings` or `season_ratings`,
    a row's key `key`'s columns and `user_id`): one more game, its win, goat and rating
    points added, the skill `after` it; a row's first game also keeps `starts` (its
    `start_mu`, `start_sigma`)."""
    keyed = ", ".join([*key, "user_id"])
    first = ", start_mu, start_sigma" if starts is not None else ""
    marks = "?, " * len(key) + "?, 1, ?, ?, ?, ?, ?" + ", ?, ?" * bool(first)
    await db.executemany(
        f"INSERT INTO {table} ({keyed}, games, wins, goats, rating_points, mu, sigma{first}) "
        f"VALUES ({marks}) ON CONFLICT ({keyed}) DO UPDATE SET "
        f"games = {table}.games + 1, wins = {table}.wins + excluded.wins, "
        f"goats = {table}.goats + excluded.goats, "
        f"rating_points = {table}.rating_points + excluded.rating_points, "
        "mu = excluded.mu, sigma = excluded.sigma",
        [
            (
                *key.values(),
                s.user_id,
                int(s.win),
                int(s.goat),
                s.rating_points,
                after[s.user_id].mu,
                after[s.user_id].sigma,
                *((starts[s.user_id].mu, starts[s.user_id].sigma) if starts is not None else ()),
            )
            for s in standings
        ],
    )


def rate_standings(before: Mapping[int, Skill], standings: Sequence[Standing]) -> dict[int, Skill]:
    """The players' skills after a rated game, from `before` (a newcomer's if missing):
    each side a team at its place."""
    sides: dict[int, list[Standing]] = {}
    for s in standings:
        sides.setdefault(s.side, []).append(s)
    teams = [sides[side] for side in sorted(sides)]
    return skills.rated(
        before, [[s.user_id for s in team] for team in teams], [team[0].place for team in teams]
    )
