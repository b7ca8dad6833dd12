"""The outbox's ban rule and its coalescing, without a server."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import Response, SendMessage

from bot.telegram.outbox import Limits, Outbox, Pacing


async def test_a_429_holds_every_chat_until_its_retry_after() -> None:
    """Telegram does not say whether a 429 bans the chat or the whole bot: after one, no
    send in any chat comes before `retry_after` is over (one inside a bot-wide ban would
    extend it)."""
    pacing = Pacing(Limits(paced=False))
    arrivals: list[tuple[int, float]] = []

    async def telegram(bot: Any, method: Any) -> Response[Any]:
        arrivals.append((method.chat_id, time.monotonic()))
        if len(arrivals) == 1:
            raise TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=1)
        return Response[Any](ok=True, result=True)

    start = time.monotonic()
    first = asyncio.create_task(pacing(telegram, None, SendMessage(chat_id=1, text="a")))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    await pacing(telegram, None, SendMessage(chat_id=2, text="b"))  # type: ignore[arg-type]
    await first
    assert sorted(chat for chat, _ in arrivals) == [1, 1, 2]
    assert all(at - start >= 1.0 for _, at in arrivals[1:]), arrivals


async def test_a_waiting_job_takes_the_newest_payload() -> None:
    """Posts under the key of a job that has not started replace its payload; the rest
    keep their order."""
    outbox = Outbox(Pacing(Limits(paced=False)))
    sent: list[str] = []
    gate = asyncio.Event()

    async def send(text: str) -> None:
        await gate.wait()
        sent.append(text)

    outbox.post(1, send, "lobby")  # starts at once and waits at the gate
    await asyncio.sleep(0)
    for state in ("table 1", "table 2", "table 3"):
        outbox.post(1, send, state, key="table")
    outbox.post(1, send, "result")
    outbox.post(1, send, "table 4", key="table")
    gate.set()
    await outbox.close()
    assert sent == ["lobby", "table 4", "result"]
