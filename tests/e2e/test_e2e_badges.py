"""Badges through the real bot: a finished game names what its person earned in its
result (one line of the end message), /stats answers with the picture of their badges,
and `python -m bot achievements --backfill` over the database judges the same badges
again, twice alike."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.core.achievements import DEFINITIONS
from bot.playground import FakeTelegram
from render.table import WIDTH
from tests.e2e.actions import ask, play_until, start_game, wait_text
from tests.e2e.process import ROOT, bot_env, running_bot
from tests.e2e.shown import GAME_OVER, RU
from tests.e2e.stored import DB_NAME, query


def kept(folder: Path) -> set[tuple[int, int, str, int]]:
    rows = query(folder, "SELECT chat_id, user_id, achievement, game_id FROM achievements")
    return {(r["chat_id"], r["user_id"], r["achievement"], r["game_id"]) for r in rows}


async def backfill(fake: FakeTelegram, folder: Path) -> str:
    env = bot_env(fake, folder / DB_NAME)
    done = await asyncio.create_subprocess_exec(
        "python", "-m", "bot", "achievements", "--backfill",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await done.communicate()
    assert done.returncode == 0, err.decode()
    return out.decode()


async def test_a_game_names_its_badges_and_stats_shows_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, [masha], "goat players=2", computers=["мастер"])
            await play_until(fake, group, [masha], random.Random(4))
            end = await wait_text(fake, group, GAME_OVER)
            ((win,),) = [tuple(r) for r in query(tmp_path, "SELECT win FROM game_results")]
            earned = {a for _, _, a, _ in kept(tmp_path)}
            assert ("first_win" if win else "first_goat") in earned  # won, or the goat
            names = ", ".join(RU(f"badge-{a}") for a in DEFINITIONS if a in earned)
            person = RU("badges-earned-person", name="Маша", badges=names)
            assert (end.content or "").splitlines()[-1] == RU("badges-earned", list=person)

            stats = await ask(fake, bot, masha, group, "/stats")
            assert stats.photo is not None and stats.photo.image().width == WIDTH
            caption = (stats.content or "").splitlines()
            assert caption[0] == RU("stats-title", name="Маша", where=" в «Двор»")
            assert caption[-1].startswith(RU("badges-caption", name="Маша", list=""))
            assert all(RU(f"badge-{a}") in caption[-1] for a in earned)

        live = kept(tmp_path)
        with closing(sqlite3.connect(tmp_path / DB_NAME)) as db, db:
            db.execute("DELETE FROM achievements")  # as before the badges were judged
        said = await backfill(fake, tmp_path)
        assert said.startswith("judged 1 finished games")
        assert kept(tmp_path) == live
        assert await backfill(fake, tmp_path) == said
        assert kept(tmp_path) == live
