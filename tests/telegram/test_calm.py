"""The calm pictures of tables played in the app: within `APP_PICTURE_SECONDS` while few
tables wait, and never more than their quarter of the process's pace however many do."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.gates import bot_pace
from bot.telegram.messenger.calm import CALM_PART, CalmPictures
from bot.telegram.pacing import Limits, Pacing


def waits(calm: CalmPictures, games: range) -> list[float]:
    """Ask for each game's picture; how long after now each is due, as scheduled."""
    loop = asyncio.get_running_loop()
    due: list[float] = []
    for game_id in games:
        calm.later(game_id)
        due.append(calm._waiting[game_id].when() - loop.time())
    return due


async def test_few_tables_wait_the_set_seconds_many_share_a_quarter_of_the_pace() -> None:
    pacing = Pacing(Limits(everywhere=bot_pace(30)))
    assert pacing.per_second() == pytest.approx(22)
    calm = CalmPictures(30.0, pacing.per_second, lambda game_id: None)
    due = waits(calm, range(480))
    assert due[0] == pytest.approx(30, abs=0.5)
    assert due[164] == pytest.approx(30, abs=0.5), "165 tables every 30 s: a quarter of 22/s"
    assert due[-1] == pytest.approx(87.3, abs=0.5)  # 480 / (22 / 4)
    # the pictures asked for at once come no faster than a quarter of the pace: the k-th
    # is due no sooner than k / (22 / 4) seconds from now
    assert all(wait >= (k + 1) / (22 * CALM_PART) - 0.5 for k, wait in enumerate(due))
    for game_id in range(480):
        calm.forget(game_id)


async def test_a_worker_s_share_of_the_pace_shares_its_calm_pictures_too() -> None:
    pacing = Pacing(Limits(everywhere=bot_pace(30)))
    pacing.share(0.5)  # two workers
    calm = CalmPictures(30.0, pacing.per_second, lambda game_id: None)
    due = waits(calm, range(220))
    assert due[81] == pytest.approx(30, abs=0.5)
    assert due[-1] == pytest.approx(80, abs=0.5)  # 220 / (11 / 4)
    for game_id in range(220):
        calm.forget(game_id)


async def test_a_picture_waits_once_goes_when_due_and_can_be_forgotten() -> None:
    shown: list[int] = []
    calm = CalmPictures(0.01, lambda: 1000.0, shown.append)
    calm.later(1)
    calm.later(1)  # already waiting: no second timer
    calm.later(2)
    assert calm.forget(2) and not calm.forget(2)
    while not shown:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert shown == [1]
    assert not calm.forget(1), "shown: nothing waits"
