"""Rating seasons through the real bot, its clock moved by the test (`TEST_CLOCK_FILE`,
read at the start, heeded against the fake's loopback Bot API only): a chat plays a game,
the clock goes past the month's end, the next game ends the season — the group gets exactly
one picture of it — and the new season starts every player as docs/playing.md says;
/rating, /rating all and /season 1 show each table, across a restart and with two webhook
workers on PostgreSQL."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bot.core.ratings import DEFAULT_SIGMA, Skill
from bot.playground import Chat, FakeTelegram, Message, User
from bot.telegram.buttons import RatingPage, SeasonPage
from render.season import MIN_TEXT, PHONE, SIZE, WIDTH
from tests.e2e.actions import forge_press, play_until, press, replies_to, start_game
from tests.e2e.process import BotProcess, previous_version, running_bot
from tests.e2e.shown import NAMES, RU, SHORT, bot_messages
from tests.e2e.stored import query
from tests.e2e.test_e2e_webapp_workers import webhook_worker
from tests.playground.launch import free_port
from tests.postgres import PostgresServer

PREVIOUS = "34aec45b39d2192458c7d6d31ddc6f9b6a3bd4a4"
"""The last commit before seasons: its database (schema 14) and ratings go on."""


def move_clock(path: Path, seconds: float) -> None:
    """The bot's clock, `seconds` ahead of the system's from its next start."""
    path.write_text(str(seconds), encoding="utf-8")


UNSAID = "SELECT 1 FROM outbox WHERE kind = 'season'"  # a season's end still to be said


def season_pictures(fake: FakeTelegram, group: Chat) -> list[str]:
    """The captions of the season pictures the group was sent."""
    said = [m for m in bot_messages(fake, group) if m.photo and (m.content or "").startswith("🏁")]
    return [m.content or "" for m in said]


async def play_game(fake: FakeTelegram, group: Chat, players: list[User], seed: int) -> None:
    await start_game(fake, group, players, SHORT)
    await play_until(fake, group, players, random.Random(seed))


def seasons_of(folder: Path, chat: int) -> list[dict[str, object]]:
    rows = query(folder, "SELECT * FROM seasons WHERE chat_id = ? ORDER BY number", chat)
    return [dict(row) for row in rows]


def season_rows(folder: Path, chat: int, season: int) -> dict[int, dict[str, object]]:
    rows = query(
        folder, "SELECT * FROM season_ratings WHERE chat_id = ? AND season = ?", chat, season
    )
    return {row["user_id"]: dict(row) for row in rows}


def past_the_season(folder: Path, chat: int) -> float:
    """How far the bot's clock must go to be an hour into the next month."""
    (season,) = seasons_of(folder, chat)
    assert season["length"] == "month" and season["ends_at"] is not None
    return float(season["ends_at"]) + 3600 - time.time()  # type: ignore[arg-type]


def check_new_season(folder: Path, chat: int, veterans: dict[int, Skill], newcomer: int) -> None:
    """Season 2 started each player from their season-1 end, `mu` kept and `sigma` halfway
    back to a newcomer's; a newcomer from a newcomer's rating."""
    rows = season_rows(folder, chat, 2)
    for user, end in veterans.items():
        assert rows[user]["start_mu"] == pytest.approx(end.mu)
        assert rows[user]["start_sigma"] == pytest.approx((end.sigma + DEFAULT_SIGMA) / 2)
        assert rows[user]["games"] == 1
    assert rows[newcomer]["start_mu"] == pytest.approx(Skill().mu)
    assert rows[newcomer]["start_sigma"] == pytest.approx(DEFAULT_SIGMA)


async def ask(fake: FakeTelegram, user: User, group: Chat, text: str) -> Message:
    """The bot's one answer to `text`, whichever worker heard it."""
    sent = fake.user_sends(user, group, text)
    (answer,) = await fake.wait_until(lambda: replies_to(fake, group, sent), 20)
    return answer


async def check_tables(fake: FakeTelegram, group: Chat, asker: User) -> None:
    """/rating: season 2 with its two players; /rating all: everybody; /season 1: the old
    season; the /rating page button of before seasons (`r:0`) still shows the all-time one."""
    now = (await ask(fake, asker, group, "/rating")).content or ""
    assert now.splitlines()[0].startswith("«Двор» · Сезон 2 · "), now
    assert now.count("(+") + now.count("(-") + now.count("(±0)") == 2, now
    everybody = await ask(fake, asker, group, "/rating all")
    assert (everybody.content or "").splitlines()[0] == RU(
        "rating-title", chat="Двор", first=1, last=3, total=3
    )
    old = (await ask(fake, asker, group, "/season 1")).content or ""
    assert old.splitlines()[0].startswith("«Двор» · Сезон 1 · "), old
    assert " · 1 · " in old and "Сезон идёт" not in old, old
    season = await ask(fake, asker, group, "/season 1")
    forge_press(fake, asker, season, RatingPage(page=0).pack())
    await fake.wait_until(lambda: season.content == everybody.content, 20)
    forge_press(fake, asker, season, SeasonPage(season=1, page=0).pack())
    await fake.wait_until(lambda: season.content == old, 20)
    stats = (await ask(fake, asker, group, "/stats")).content or ""  # both ratings
    assert RU("stats-season-none", season=now.split(" · ", 1)[1].split(" — ")[0]) in stats
    assert RU("stats-all-time", rating="", provisional="", games=1, wins="", goats="")[:20] in stats
    assert (await ask(fake, asker, group, "/season 7")).content == RU(
        "season-unknown", number=7, count=2
    )


async def check_settings(fake: FakeTelegram, folder: Path, group: Chat, admin: User) -> None:
    """/settings: each press of the season's button, the next length kept (a month again
    after a quarter and none); of the time zone's, the next zone."""
    menu = await ask(fake, admin, group, "/settings")
    for length in ("quarter", "none", "month"):
        (button,) = [b for row in menu.buttons for b in row if b.startswith("📅")]
        assert await press(fake, admin, menu, button) == RU("settings-saved")
        shown = RU("settings-season-button", length=RU(f"season-length-{length}"))
        await fake.wait_until(lambda shown=shown: shown in str(menu.buttons), 20)  # type: ignore[misc]
        (kept,) = query(folder, "SELECT season_length FROM chat_settings")
        assert kept["season_length"] == length
    (zone,) = [b for row in menu.buttons for b in row if b.startswith("🕒")]
    assert zone == RU("settings-zone-button", zone="Europe/Moscow (UTC+3)")
    assert await press(fake, admin, menu, zone) == RU("settings-saved")
    minsk = RU("settings-zone-button", zone="Europe/Minsk (UTC+3)")  # the same months
    await fake.wait_until(lambda: minsk in str(menu.buttons), 20)
    assert query(folder, "SELECT time_zone FROM chat_settings")[0]["time_zone"] == "Europe/Minsk"


def check_picture(fake: FakeTelegram, group: Chat) -> None:
    """One picture, as wide as a table's, the rows' text readable on a phone."""
    (picture,) = [m for m in bot_messages(fake, group) if (m.content or "").startswith("🏁")]
    assert picture.photo is not None
    assert picture.photo.width == WIDTH and SIZE * PHONE / WIDTH >= MIN_TEXT
    assert RU("season-name", number=1) in (picture.content or "")


async def test_a_season_ends_once_across_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = tmp_path / "clock"
    move_clock(clock, 0)
    monkeypatch.setenv("TEST_CLOCK_FILE", str(clock))
    folder = tmp_path / "bot"
    folder.mkdir()
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(name) for name in NAMES[:3])
        group = fake.add_group("Двор", [masha, serge, olya], admins=[masha])
        async with running_bot(fake, folder) as bot:
            await check_settings(fake, folder, group, masha)
            await play_game(fake, group, [masha, serge], 1)
            assert [s["number"] for s in seasons_of(folder, group.id)] == [1]
            ended = season_rows(folder, group.id, 1)
        move_clock(clock, past_the_season(folder, group.id))
        async with running_bot(fake, folder) as bot:  # a restart, the clock a month on
            waiting = (await ask(fake, masha, group, "/rating")).content or ""
            assert waiting.splitlines()[0].startswith("«Двор» · Сезон 2 · "), waiting
            await play_game(fake, group, [masha, olya], 2)
            await fake.wait_until(lambda: season_pictures(fake, group), 30)
            await bot.idle()
            veterans = {masha.id: Skill(ended[masha.id]["mu"], ended[masha.id]["sigma"])}
            check_new_season(folder, group.id, veterans, olya.id)  # type: ignore[arg-type]
            await check_tables(fake, group, serge)
            old = (await ask(fake, serge, group, "/season 1")).content
            upgraded = fake.migrate_group_to_supergroup(group)  # its seasons go with it
            await bot.idle()
            assert (await ask(fake, serge, upgraded, "/season 1")).content == old
        async with running_bot(fake, folder) as bot:  # nothing is said twice after another
            await ask(fake, masha, upgraded, "/rating")
        assert not query(folder, UNSAID)
        assert len(season_pictures(fake, group)) == 1
        check_picture(fake, group)
        assert [s["announced"] for s in seasons_of(folder, upgraded.id)] == [1, 0]


async def test_the_first_season_starts_at_the_upgrade(tmp_path: Path) -> None:
    """A chat rated by the version before seasons: its all-time table keeps those games,
    and its first season starts with the first game after the upgrade, each player from
    their all-time rating pulled toward the start."""
    folder = tmp_path / "bot"
    folder.mkdir()
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(name) for name in NAMES[:3])
        group = fake.add_group("Двор", [masha, serge, olya])
        bot = BotProcess(fake, folder, source=previous_version(PREVIOUS, tmp_path / "previous"))
        await bot.start()
        try:
            await play_game(fake, group, [masha, serge], 5)
            await bot.idle()
        finally:
            await bot.stop()
        assert query(folder, "PRAGMA user_version")[0][0] == 14
        (before,) = query(folder, "SELECT * FROM ratings WHERE user_id = ?", masha.id)
        async with running_bot(fake, folder):
            waiting = (await ask(fake, olya, group, "/rating")).content or ""
            assert waiting.splitlines()[0].startswith("«Двор» · Сезон 1 · "), waiting
            assert RU("rating-title", chat="Двор", first=1, last=2, total=2) not in waiting
            await play_game(fake, group, [masha, olya], 6)
            (start,) = query(folder, "SELECT * FROM season_ratings WHERE user_id = ?", masha.id)
            assert start["season"] == 1 and start["start_mu"] == pytest.approx(before["mu"])
            assert start["start_sigma"] == pytest.approx((before["sigma"] + DEFAULT_SIGMA) / 2)
            everybody = (await ask(fake, olya, group, "/rating all")).content or ""
            assert everybody.startswith(RU("rating-title", chat="Двор", first=1, last=3, total=3))


async def test_two_workers_announce_a_season_once(
    tmp_path: Path, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two webhook workers on one PostgreSQL: the season's end is claimed once, whichever
    worker finishes the game, and its one picture goes out once."""
    clock = tmp_path / "clock"
    move_clock(clock, 0)
    monkeypatch.setenv("TEST_CLOCK_FILE", str(clock))
    url = await postgres.fresh()
    public = f"http://127.0.0.1:{free_port()}/telegram/updates"
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(name) for name in NAMES[:3])
        group = fake.add_group("Двор", [masha, serge, olya])
        workers = [webhook_worker(fake, tmp_path / name, url, public) for name in ("a", "b")]
        folder = workers[0].folder
        try:
            for worker in workers:
                await worker.start()
            await play_game(fake, group, [masha, serge], 3)
            ended = season_rows(folder, group.id, 1)
            for worker in workers:  # a restart, the clock a month on
                await worker.stop()
            move_clock(clock, past_the_season(folder, group.id))
            for worker in workers:
                await worker.start()
            await play_game(fake, group, [masha, olya], 4)
            await fake.wait_until(lambda: season_pictures(fake, group), 30)
            veterans = {masha.id: Skill(ended[masha.id]["mu"], ended[masha.id]["sigma"])}
            check_new_season(folder, group.id, veterans, olya.id)  # type: ignore[arg-type]
            await check_tables(fake, group, serge)
            await fake.wait_until(lambda: not query(folder, UNSAID), 30)
        finally:
            for worker in workers:
                if worker.process is not None:
                    await worker.stop()
        assert len(season_pictures(fake, group)) == 1
        check_picture(fake, group)
        assert not any("Traceback" in worker.log for worker in workers)
