"""The fixtures of the fake Bot API's tests: a fake Telegram, and a client bot of it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot

from bot.playground import FakeTelegram
from tests.playground.test_fakebot import make_bot


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server
        assert not server.internal_errors, server.internal_errors[-1]


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    client = make_bot(fake)
    async with client.session:
        yield client
