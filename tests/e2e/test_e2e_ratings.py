"""Ratings and stats over whole games, as a group and a private chat see them: every number
/rating and /stats show is recomputed here from the replayed move logs (RULES §2.6–§2.7
places and points, openskill's Plackett–Luce model for the skill rating)."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.game.engine import apply
from bot.game.rules import PRESETS
from bot.game.state import GameState
from bot.playground import FakeTelegram, Supergroup
from bot.telegram.buttons import RatingPage
from tests.e2e.actions import (
    ask,
    dealt,
    forged_refused,
    join,
    open_lobby,
    play_moves,
    play_planned,
    play_until,
    press,
    replies_to,
    say,
    start_game,
    wait_text,
)
from tests.e2e.checks import (
    RATING_ROW,
    Rated,
    check_end_message,
    check_finished_game,
    check_rating,
    expected_rating,
    expected_skill,
    half_up_tenth,
    names_by_id,
    plan_fish,
    rated,
    round_ends,
    shown_rating,
    skill_shown,
    without_badges,
)
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, NAMES, RU, SHORT, START
from tests.e2e.stored import DB_NAME, fresh_state, games_in, query, replay_game

NOW = RU("season-now-button")  # under the all-time table: the season running now
PROVISIONAL = 5  # fewer games than this: a provisional rating, marked «*»


def mark(games: int) -> str:
    return "*" if games < PROVISIONAL else ""


def winner(state: GameState) -> int:
    """The user in first place (RULES §2.6) of a finished individual game."""
    (first,) = [user for user, line in rated(state).items() if line.wins]
    return first


# -- /stats, recomputed from the replayed games -------------------------------------------


@dataclass(frozen=True)
class Stats:
    games: int
    wins: int
    goats: int
    fish: int
    bald: int
    streak: int
    preset: str
    by_preset: tuple[str, ...]


def preset_line(preset: str, games: int, wins: int, points: list[int]) -> str:
    """A points game's line of /stats: its games, wins and mean round points."""
    higher = PRESETS[preset].rules.format.higher_wins
    return RU(
        "stats-line-points",
        name=RU(f"preset-name-{preset}"),
        games=games,
        wins=wins,
        per_round=f"{sum(points) / len(points):.1f}" if points else "—",
        better="higher" if higher else "lower",
    )


def expected_stats(folder: Path, user_id: int, chat_id: int | None = None) -> Stats:
    """A person's finished games (rated or not: computers too) in a chat or everywhere, in
    the order they were played: places from RULES §2.6, fish they made («рыбак»), their
    longest run of wins, the preset they played most, and per preset the mean of their
    round points."""
    sql = (
        "SELECT g.id, g.rules, g.end_reason FROM games g JOIN players p ON p.game_id = g.id "
        "WHERE g.status = 'finished' AND p.user_id = ?"
    )
    params: tuple[int, ...] = (user_id,)
    if chat_id is not None:
        sql += " AND g.chat_id = ?"
        params += (chat_id,)
    games = query(folder, sql + " ORDER BY g.id", *params)
    wins = goats = bald = fish = streak = best = 0
    points: dict[str, list[int]] = {}
    won: Counter[str] = Counter()
    presets: Counter[str] = Counter()
    last: dict[str, int] = {}
    for game in games:
        state = replay_game(folder, game["id"])
        seat = state.seats.index(str(user_id))
        line = rated(state)[user_id]
        preset = json.loads(game["rules"])["preset"]
        wins += line.wins
        won[preset] += line.wins
        goats += line.goats
        bald += line.goats and game["end_reason"] == "bald_goat"
        streak = streak + 1 if line.wins else 0
        best = max(best, streak)
        for ended in round_ends(folder, game["id"]):
            fish += ended.reason == "fish" and ended.seat == seat
            points.setdefault(preset, [])
            points[preset] += [r.round_points for r in ended.results if r.seat == seat]
        presets[preset] += 1
        last[preset] = game["id"]
    order = sorted(presets, key=lambda p: (-presets[p], -last[p]))
    return Stats(
        games=len(games),
        wins=wins,
        goats=goats,
        fish=fish,
        bald=bald,
        streak=best,
        preset=RU(f"preset-name-{order[0]}") if order else "—",
        by_preset=tuple(preset_line(p, presets[p], won[p], points.get(p, [])) for p in order),
    )


def counts(shown: str | None) -> str:
    """A group's /stats without the rating lines under the counts (test_e2e_seasons)."""
    return (shown or "").split("\n\n")[0]


def stats_text(name: str, chat: str | None, stats: Stats) -> str:
    where = RU("stats-where-chat", chat=chat) if chat else ""
    if not stats.games:
        return RU("stats-none", name=name, where=where)
    body = RU(
        "stats-body",
        games=stats.games,
        wins=stats.wins,
        goats=stats.goats,
        fish=stats.fish,
        bald=stats.bald,
        streak=stats.streak,
        preset=stats.preset,
    )
    title = RU("stats-title", name=name, where=where)
    return "\n".join([title, body, RU("stats-by-game"), *stats.by_preset])


# -- 1. several games, varying winners ---------------------------------------------------


async def test_rating_follows_several_games_with_different_winners(tmp_path: Path) -> None:
    """Games among different sets of 3–4 players: after each, /rating's skill numbers, §2.7
    sums and order equal an independent recomputation. Games go on (at most 6) until at
    least two different players have won one."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES]
        masha, serge, olya, alex, dima = users
        group = fake.add_group("Двор", users)
        tables = [
            [masha, serge, olya],
            [olya, alex, serge],
            [alex, masha, serge, olya],
            [serge, olya, masha],
            [masha, alex, olya],
            [olya, serge, alex, masha],
        ]
        winners: list[int] = []
        async with running_bot(fake, tmp_path) as bot:
            for number, players in enumerate(tables):
                if number >= 3 and len(set(winners)) >= 2:
                    break
                await start_game(fake, group, players, SHORT)
                game = games_in(tmp_path, group.id)[-1]
                await play_until(fake, group, players, random.Random(100 + number))
                state = await check_finished_game(fake, bot, group, dima, game["id"])
                winners.append(winner(state))
                # the rows as shown, against the sums of every game so far
                rows = await check_rating(fake, bot, group, players[0])
                assert len(rows) == len({u.id for table in tables[: number + 1] for u in table})
            assert len(set(winners)) >= 2, f"one winner in {len(winners)} games"
            # the skill rating moved: the best shown is above the worst one
            skills = expected_skill(tmp_path, group.id)
            assert max(skills.values()) > min(skills.values())
            # one page: a title with the places, no line of the asker's own, no ◀ ▶
            answer = await ask(fake, bot, dima, group, "/rating all")
            lines = (answer.content or "").splitlines()
            assert lines[0] == RU("rating-title", chat="Двор", first=1, last=4, total=4)
            assert not any(line.startswith("Вы:") for line in lines), answer.content
            assert lines[-1] == RU("rating-provisional-note", games=PROVISIONAL)
            assert answer.buttons == [[NOW]]  # and the season running now


# -- 2. a 2×2 game -----------------------------------------------------------------------


def team_lines(state: GameState) -> dict[int, tuple[Rated, int]]:
    """RULES §2.6–§2.7 for a finished «Козёл» 2×2 game, from the engine's tally per side:
    each person gets their side's line, and the side's place (for the skill update)."""
    assert state.outcome is not None and state.outcome.reason == "target"
    rules, tally = state.rules, state.tally
    sides = range(2)
    goats = {s for s in sides if tally.scores[s] >= rules.target}
    order = sorted(sides, key=lambda s: (s in goats, tally.scores[s], tally.remembered[s], s))
    result = {}
    for place, side in enumerate(order, start=1):
        goat = side in goats
        points = 0 if goat else max(1, half_up_tenth(100 - tally.scores[side]))
        line = Rated(1, int(place == 1), int(goat), points)
        for seat, user in enumerate(state.seats):
            if seat % 2 == side:  # partners sit opposite
                result[int(user)] = (line, place)
    return result


async def test_partners_in_a_2x2_game_are_rated_together(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:4]]
        group = fake.add_group("Двор", users)
        names = {u.id: u.name for u in users}
        model = PlackettLuce()
        skills: dict[int, Any] = {}
        totals: dict[int, Rated] = {}
        async with running_bot(fake, tmp_path) as bot:
            # partners: seats 0 and 2, 1 and 3; the second game mixes the pairs
            for number, order in enumerate(([0, 1, 2, 3], [0, 2, 1, 3])):
                players = [users[i] for i in order]
                await start_game(fake, group, players, f"goat_teams {SHORT}")
                game = games_in(tmp_path, group.id)[-1]
                await play_until(fake, group, players, random.Random(20 + number))
                state = replay_game(tmp_path, game["id"])
                assert state.rules.teams
                lines = team_lines(state)
                pairs = [
                    [players[0].id, players[2].id],
                    [players[1].id, players[3].id],
                ]
                teams = [[skills.get(u) or model.rating() for u in pair] for pair in pairs]
                new = model.rate(teams, ranks=[lines[pair[0]][1] for pair in pairs])
                for pair, ratings in zip(pairs, new, strict=True):
                    skills.update(zip(pair, ratings, strict=True))
                for user, (line, _) in lines.items():
                    totals[user] = totals.get(user, Rated()) + line

                answer = await ask(fake, bot, players[0], group, "/rating all")
                rows = {
                    name: (skill, row) for name, skill, row in shown_rating(answer.content or "")
                }
                shown = {
                    names[u]: (skill_shown(r.mu, r.sigma), totals[u]) for u, r in skills.items()
                }
                assert rows == shown, answer.content
                # the harness's own recomputation (sides and places from the engine) agrees
                assert {names[u]: s for u, s in expected_skill(tmp_path, group.id).items()} == {
                    name: skill for name, (skill, _) in rows.items()
                }
                # both partners' rows changed by the same line, and one beat the other
                for pair in pairs:
                    assert lines[pair[0]] == lines[pair[1]]
                assert {lines[pair[0]][1] for pair in pairs} == {1, 2}
                if number == 0:
                    for pair in pairs:
                        assert rows[names[pair[0]]] == rows[names[pair[1]]], answer.content
                    first, second = (rows[names[pair[0]]] for pair in pairs)
                    assert first != second
            end = await wait_text(fake, group, GAME_OVER)
            assert "🐐" in (end.content or "")


# -- 3. what does not count ---------------------------------------------------------------


async def test_cancelled_and_computer_games_change_no_rating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(n) for n in NAMES[:3])
        group = fake.add_group("Двор", [masha, serge, olya])
        players = [masha, serge]
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players, SHORT)
            (game,) = games_in(tmp_path, group.id)
            await play_until(fake, group, players, random.Random(31))
            await check_finished_game(fake, bot, group, olya, game["id"])
            before = (await ask(fake, bot, olya, group, "/rating all")).content
            stats_before = {
                u.id: counts(
                    without_badges((await ask(fake, bot, u, group, "/stats")).content or "")
                )
                for u in players
            }
            for user in players:
                assert stats_before[user.id] == stats_text(
                    user.name, "Двор", expected_stats(tmp_path, user.id, group.id)
                )

            # a game ended by /endgame: not rated, not in the stats
            await start_game(fake, group, players, SHORT)
            cancelled = games_in(tmp_path, group.id)[-1]
            await play_moves(fake, players, random.Random(32), 3)
            question = await ask(fake, bot, masha, group, "/endgame")
            assert await press(fake, masha, question, RU("end-yes")) == RU("cancelled")
            await fake.wait_until(lambda: question.content == RU("ended-by", name=masha.name))
            assert games_in(tmp_path, group.id)[-1]["status"] == "cancelled"
            assert (await ask(fake, bot, olya, group, "/rating all")).content == before
            for user in players:
                shown = (await ask(fake, bot, user, group, "/stats")).content or ""
                assert counts(without_badges(shown)) == stats_before[user.id]
            assert not query(
                tmp_path, "SELECT * FROM game_results WHERE game_id = ?", cancelled["id"]
            )

            # a game with a computer player: finished, in the stats, but not rated
            lobby = await open_lobby(fake, group, masha, SHORT)
            for user in players:
                await join(fake, group, user, lobby)
            computer = RU("add-computer", level=RU("computer-easy"))
            assert await press(fake, masha, lobby, computer) == ""
            computer_name = RU("computer-name", level=RU("computer-easy").capitalize(), number=1)
            await fake.wait_until(lambda: computer_name in (lobby.content or ""))
            assert await press(fake, masha, lobby, START) == RU("dealing")
            await dealt(fake, group, lobby, players)
            with_computer = games_in(tmp_path, group.id)[-1]
            await play_until(fake, group, players, random.Random(33))
            end = await wait_text(fake, group, GAME_OVER)
            assert computer_name in (end.content or "")
            shown_end = without_badges(end.content or "")
            assert shown_end.splitlines()[-1] == RU("game-unrated-computers")
            assert games_in(tmp_path, group.id)[-1]["status"] == "finished"
            assert (await ask(fake, bot, olya, group, "/rating all")).content == before
            assert len(query(tmp_path, "SELECT * FROM ratings")) == 2
            state = replay_game(tmp_path, with_computer["id"])
            for user in players:
                stats = expected_stats(tmp_path, user.id, group.id)
                assert stats.games == 2
                shown = counts(
                    without_badges((await ask(fake, bot, user, group, "/stats")).content or "")
                )
                assert shown == stats_text(user.name, "Двор", stats)
                assert shown != stats_before[user.id]
                assert user.id in rated(state)


async def test_a_game_with_a_computer_says_it_is_not_rated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end of a game with a computer shows RULES §2.7's game points — not the chat's
    rating — and says in one line that the game is not rated; /rating then says what the
    rating counts, instead of contradicting it."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        masha = fake.add_user(NAMES[0])
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path) as bot:
            lobby = await open_lobby(fake, group, masha, SHORT)
            await join(fake, group, masha, lobby)
            computer = RU("add-computer", level=RU("computer-easy"))
            assert await press(fake, masha, lobby, computer) == ""
            computer_name = RU("computer-name", level=RU("computer-easy").capitalize(), number=1)
            await fake.wait_until(lambda: computer_name in (lobby.content or ""))
            assert await press(fake, masha, lobby, START) == RU("dealing")
            await dealt(fake, group, lobby, [masha])
            (game,) = games_in(tmp_path, group.id)
            await play_until(fake, group, [masha], random.Random(35))
            end = await wait_text(fake, group, GAME_OVER)
            text = end.content or ""
            assert without_badges(text).splitlines()[-1] == RU("game-unrated-computers"), text
            assert "очки партии +" in text and "рейтинг +" not in text, text
            state = replay_game(tmp_path, game["id"])
            computers = {int(u): computer_name for u in state.seats if int(u) < 0}
            check_end_message(text, state, names_by_id(fake) | computers)
            score = (await ask(fake, bot, masha, group, "/score")).content or ""
            assert score.endswith(f"\n{without_badges(text)}"), score
            rating = (await ask(fake, bot, masha, group, "/rating all")).content or ""
            assert rating == RU("no-rating-yet"), rating
            assert rating.startswith("Рейтинг считается по партиям без компьютеров: "), rating
            assert not query(tmp_path, "SELECT * FROM ratings")


# -- 4. paging -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seeded:
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    goats: int
    points: int

    @property
    def shown(self) -> int:
        return skill_shown(self.mu, self.sigma)

    def line(self, rank: int, key: str = "rating-row") -> str:
        return RU(
            key,
            rank=rank,
            name=self.name,
            rating=self.shown,
            provisional=mark(self.games),
            games=self.games,
            wins=self.wins,
            goats=self.goats,
            points=self.points,
        )


def seed_ratings(folder: Path, chat_id: int, rows: list[Seeded]) -> None:
    """Rated players written straight into the running bot's database (WAL: it reads
    them with the next /rating)."""
    with contextlib.closing(sqlite3.connect(folder / DB_NAME, timeout=10)) as db, db:
        for r in rows:
            db.execute(
                "INSERT INTO users (id, name) VALUES (?, ?) "
                "ON CONFLICT (id) DO UPDATE SET name = excluded.name",
                (r.user_id, r.name),
            )
            db.execute(
                "INSERT INTO ratings (chat_id, user_id, games, wins, goats, rating_points, "
                "mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, r.user_id, r.games, r.wins, r.goats, r.points, r.mu, r.sigma),
            )


def page_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if RATING_ROW.match(line)]


async def test_rating_pages_and_your_own_line(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        asker, third = fake.add_user("Яна"), fake.add_user("Тимур")
        group = fake.add_group("Двор", [asker, third])
        async with running_bot(fake, tmp_path) as bot:
            assert (await ask(fake, bot, asker, group, "/rating")).content == RU("no-rating-yet")
            others = [
                # ties on the shown rating are broken by points, then wins, then fewer goats
                Seeded(900_000_001, "Аня", 40.0, 2.0, 30, 12, 2, 190),
                Seeded(900_000_002, "Боря", 38.0, 2.5, 25, 10, 3, 150),
                Seeded(third.id, third.name, 35.0, 3.0, 12, 5, 2, 80),
                Seeded(900_000_004, "Вика", 33.0, 3.0, 9, 4, 1, 60),
                Seeded(900_000_005, "Гоша", 33.0, 3.0, 9, 4, 1, 70),
                Seeded(900_000_006, "Даша", 30.0, 4.0, 6, 2, 1, 40),
                Seeded(900_000_007, "Егор", 30.0, 4.0, 6, 3, 1, 40),
                Seeded(900_000_008, "Женя", 30.0, 4.0, 6, 3, 2, 40),
                Seeded(900_000_009, "Зоя", 27.0, 5.0, 4, 1, 1, 20),
                Seeded(900_000_010, "Игорь", 26.0, 6.0, 3, 1, 1, 12),
                Seeded(900_000_011, "Кира", 25.0, 7.0, 2, 0, 1, 5),
                Seeded(asker.id, asker.name, 24.0, 7.5, 2, 0, 2, 1),
            ]
            seed_ratings(tmp_path, group.id, others)
            order = sorted(others, key=lambda r: (-r.shown, -r.points, -r.wins, r.goats, r.user_id))
            names = [r.name for r in order]
            assert names[:3] == ["Аня", "Боря", "Тимур"]
            assert names[3:5] == ["Гоша", "Вика"]  # same rating: more points first
            assert names[5:8] == ["Егор", "Женя", "Даша"]  # then more wins, then fewer goats
            assert names[-1] == "Яна"

            first_page = [
                RU("rating-title", chat="Двор", first=1, last=10, total=12),
                RU("rating-columns"),
                *(row.line(rank) for rank, row in enumerate(order[:10], start=1)),
                order[11].line(12, "rating-you"),
                RU("rating-provisional-note", games=PROVISIONAL),
            ]
            answer = await ask(fake, bot, asker, group, "/rating all")
            assert answer.content == "\n".join(first_page)
            assert answer.content is not None and "Вы: 12. Яна — " in answer.content
            assert answer.buttons == [[RU("page-next")], [NOW]]
            assert len(page_lines(answer.content)) == 10

            assert await press(fake, asker, answer, RU("page-next")) == ""
            second_page = [
                RU("rating-title", chat="Двор", first=11, last=12, total=12),
                RU("rating-columns"),
                *(row.line(rank) for rank, row in enumerate(order[10:], start=11)),
                RU("rating-provisional-note", games=PROVISIONAL),
            ]
            await fake.wait_until(lambda: answer.content == "\n".join(second_page))
            assert "Вы:" not in answer.content
            assert answer.buttons == [[RU("page-prev")], [NOW]]

            assert await press(fake, asker, answer, RU("page-prev")) == ""
            await fake.wait_until(lambda: answer.content == "\n".join(first_page))
            assert answer.buttons == [[RU("page-next")], [NOW]]

            # someone on the first page sees no line of their own, and no provisional
            # mark goes with 5 games or more
            answer = await ask(fake, bot, third, group, "/rating all")
            assert answer.content == "\n".join(first_page[:-2] + first_page[-1:])
            assert f"3. Тимур — {order[2].shown} · 12 · 5 · 2 · 80" in answer.content

            # a forged page number past the end: refused, and the page stays as it is
            # (docs/operations.md: forged buttons get a short answer and change nothing)
            beyond = RatingPage(page=5).pack()
            assert await forged_refused(fake, third, answer, beyond)
            await bot.idle()
            assert answer.content == "\n".join(first_page[:-2] + first_page[-1:])
            assert answer.buttons == [[RU("page-next")], [NOW]]


# -- 5. /stats and private /rating --------------------------------------------------------


async def test_stats_in_groups_as_a_reply_and_in_private(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya, dima = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля", "Дима"))
        yard = fake.add_group("Двор", [masha, serge, olya, dima])
        club = fake.add_group("Клуб", [masha, olya])
        async with running_bot(fake, tmp_path) as bot:
            # Двор, game 1: the first round steered into a fish, then played out
            pair = [masha, serge]
            await start_game(fake, yard, pair, SHORT)
            (game,) = games_in(tmp_path, yard.id)
            state = fresh_state(tmp_path, game["id"])
            after = -1
            for move in plan_fish(state):
                _, after = await play_planned(fake, pair, state.rules, move, after)
                state, _ = apply(state, move)
            assert state.last_round is not None and state.last_round.reason == "fish"
            fisher = int(state.seats[state.last_round.seat])
            await play_until(fake, yard, pair, random.Random(51), after=after)
            await check_finished_game(fake, bot, yard, dima, game["id"])
            # Двор, game 2 with three; Клуб, one game
            three = [olya, masha, serge]
            await start_game(fake, yard, three, SHORT)
            await play_until(fake, yard, three, random.Random(52))
            await check_finished_game(fake, bot, yard, dima, games_in(tmp_path, yard.id)[-1]["id"])
            await start_game(fake, club, [olya, masha], SHORT)
            await play_until(fake, club, [olya, masha], random.Random(53))
            await check_finished_game(fake, bot, club, olya, games_in(tmp_path, club.id)[-1]["id"])

            stats = {u.id: expected_stats(tmp_path, u.id, yard.id) for u in (masha, serge, olya)}
            assert stats[fisher].fish >= 1
            assert stats[masha.id].games == stats[serge.id].games == 2
            assert stats[olya.id].games == 1
            assert sum(s.wins for s in stats.values()) == 2
            assert sum(s.goats for s in stats.values()) >= 2
            for s in stats.values():
                assert s.streak <= s.wins and (s.streak > 0) == (s.wins > 0)

            # your own stats in the group: only this chat's games
            for user in (masha, serge, olya):
                shown = counts(
                    without_badges((await ask(fake, bot, user, yard, "/stats")).content or "")
                )
                assert shown == stats_text(user.name, "Двор", stats[user.id]), shown
            # as a reply: the stats of the person replied to
            said = fake.user_sends(serge, yard, "ну что, ещё партию?")
            shown = (await ask(fake, bot, dima, yard, "/stats", reply_to=said)).content or ""
            assert counts(without_badges(shown)) == stats_text(serge.name, "Двор", stats[serge.id])
            said = fake.user_sends(dima, yard, "я только смотрю")
            shown = (await ask(fake, bot, masha, yard, "/stats", reply_to=said)).content
            assert shown == RU("stats-none", name="Дима", where=RU("stats-where-chat", chat="Двор"))
            # in Клуб: Клуб's game only
            shown = counts(
                without_badges((await ask(fake, bot, olya, club, "/stats")).content or "")
            )
            assert shown == stats_text("Оля", "Клуб", expected_stats(tmp_path, olya.id, club.id))

            # in private: every chat
            for user in (masha, olya):
                everywhere = expected_stats(tmp_path, user.id)
                assert everywhere.games == stats[user.id].games + 1
                shown = without_badges((await ask(fake, bot, user, user, "/stats")).content or "")
                assert shown == stats_text(user.name, None, everywhere), shown
                lines = []
                for chat in (yard, club):
                    line = expected_rating(tmp_path, chat.id)[user.id]
                    skill = expected_skill(tmp_path, chat.id)[user.id]
                    lines.append((-skill, -line.points, -line.wins, line.goats, chat.title, line))
                expected = [
                    RU("rating-private-title"),
                    *(
                        RU(
                            "rating-private-row",
                            chat=title,
                            rating=-minus_skill,
                            provisional=mark(line.games),
                            games=line.games,
                            points=line.points,
                        )
                        for minus_skill, _, _, _, title, line in sorted(lines, key=lambda x: x[:5])
                    ),
                    RU("rating-provisional-note", games=PROVISIONAL),
                ]
                shown = (await ask(fake, bot, user, user, "/rating")).content
                assert shown == "\n".join(expected), shown
            # Дима has played nowhere
            await say(fake, bot, dima, dima, "/start")
            assert (await ask(fake, bot, dima, dima, "/rating")).content == RU("no-rating-anywhere")
            assert (await ask(fake, bot, dima, dima, "/stats")).content == RU(
                "stats-none", name="Дима", where=""
            )


async def test_stats_in_a_forum_topic_are_the_askers_own(tmp_path: Path) -> None:
    """Telegram marks every message in a forum topic as a reply to the topic's first
    (service) message: a plain /stats there is still a question about oneself."""
    async with FakeTelegram() as fake:
        masha, serge = fake.add_user("Маша"), fake.add_user("Серёжа")
        forum = fake.add_group("Клуб", [masha, serge], supergroup=Supergroup(forum=True))
        topic = fake.add_topic(forum, "Стол", by=masha)
        where = RU("stats-where-chat", chat="Клуб")
        async with running_bot(fake, tmp_path) as bot:
            asked = await say(fake, bot, serge, forum, "/stats", topic=topic.thread_id)
            (answer,) = replies_to(fake, forum, asked)
            assert answer.content == RU("stats-none", name="Серёжа", where=where)
            # a real reply in the topic still asks about the person replied to
            said = fake.user_sends(masha, forum, "кто со мной?", topic=topic.thread_id)
            asked = await say(fake, bot, serge, forum, "/stats", reply_to=said)
            (answer,) = replies_to(fake, forum, asked)
            assert answer.content == RU("stats-none", name="Маша", where=where)
