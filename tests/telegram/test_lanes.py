"""The lanes' pace, ban rule, priorities and coalescing, without a server."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from typing import Any

import pytest
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import EditMessageText, Response, SendMessage
from pydantic import ValidationError

from bot.app import limits_of
from bot.config import Settings
from bot.telegram.gates import Pace, bot_pace
from bot.telegram.lanes import Lanes
from bot.telegram.pacing import Limits, Pacing
from bot.telegram.tickets import at_leisure


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
    lanes = Lanes(Pacing(Limits(paced=False)))
    sent: list[str] = []
    gate = asyncio.Event()

    async def send(text: str) -> None:
        await gate.wait()
        sent.append(text)

    lanes.post(1, send, "lobby")  # starts at once and waits at the gate
    await asyncio.sleep(0)
    for state in ("table 1", "table 2", "table 3"):
        lanes.post(1, send, state, key="table")
    lanes.post(1, send, "result")
    lanes.post(1, send, "table 4", key="table")
    gate.set()
    await lanes.close()
    assert sent == ["lobby", "table 4", "result"]


def most_in_any(times: list[float], window: float) -> int:
    """The most of `times` that fall in one window of `window` seconds."""
    times = sorted(times)
    return max(sum(1 for u in times[i:] if u - t <= window) for i, t in enumerate(times))


class Telegram:
    """A fake session end: when each request arrived, by chat and text."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[int, str, float]] = []

    async def __call__(self, bot: Any, method: Any) -> Response[Any]:
        self.arrivals.append((method.chat_id, method.text, time.monotonic()))
        return Response[Any](ok=True, result=True)

    def texts(self) -> list[str]:
        return [text for _, text, _ in self.arrivals]


def send(pacing: Pacing, telegram: Telegram, chat: int, text: str) -> Awaitable[Any]:
    return pacing(telegram, None, SendMessage(chat_id=chat, text=text))  # type: ignore[arg-type]


@pytest.mark.parametrize(("part", "kept"), [(1.0, Pace(2, 0.02)), (0.5, Pace(1, 0.04))])
async def test_the_bot_wide_pace_holds_on_the_wire_however_long_jobs_take(
    part: float, kept: Pace
) -> None:
    """Lanes in 30 chats take a place, then spend up to 0.2 s drawing before they send:
    the requests still reach Telegram at most `burst + t / every` in any `t` seconds
    (counted when they leave, not when their turn came). A worker that sends half of the
    shards keeps to half the bot's pace, so that two such keep to it together."""
    pacing = Pacing(Limits(everywhere=Pace(2, 0.02), group=Pace(50, 0.01)))
    pacing.share(part)
    lanes, telegram = Lanes(pacing), Telegram()
    rng = random.Random(1)

    async def job(chat: int) -> None:
        await asyncio.sleep(rng.uniform(0, 0.2))
        await send(pacing, telegram, chat, "table")

    for n in range(90):
        lanes.post(-(n % 30) - 1, job, -(n % 30) - 1)
    while len(telegram.arrivals) < 90:  # a busy machine may take longer than a stop's drain
        await asyncio.sleep(0.05)
    await lanes.close()
    arrived = [at for _, _, at in telegram.arrivals]
    assert len(arrived) == 90
    for window in (0.0, 0.05, 0.1, 0.3, 1.0):
        assert most_in_any(arrived, window) <= kept.burst + window / kept.every + 0.5, window
    assert max(arrived) - min(arrived) >= 80 * kept.every  # held back to that pace throughout


async def test_after_a_ban_nothing_bursts() -> None:
    """Requests kept back by a 429 leave at the bot's pace once it is over, not at once."""
    pace = Pace(2, 0.05)
    pacing, telegram = Pacing(Limits(everywhere=pace)), Telegram()

    async def banned(bot: Any, method: Any) -> Response[Any]:
        raise TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=1)

    lanes = Lanes(pacing)

    async def job(chat: int) -> None:
        await send(pacing, banned if chat == -1 else telegram, chat, "table")

    for n in range(12):
        lanes.post(-n - 1, job, -n - 1)
    start = time.monotonic()
    await asyncio.sleep(0.3)
    await lanes.close()
    arrived = [at for _, _, at in telegram.arrivals]
    assert len(arrived) == 11
    assert min(arrived) - start >= 0.95
    assert most_in_any(arrived, 0.1) <= pace.burst + 0.1 / pace.every + 0.5


async def test_the_game_goes_first_in_its_chat_and_replies_wait_behind_it() -> None:
    """A group's place goes to the game's lane before a reply that has waited longer, and a
    reply waits until the game's next message would still find a place at once; a reply
    identical to one still waiting is not sent twice."""
    pacing, telegram = Pacing(Limits(group=Pace(2, 0.3))), Telegram()
    lanes = Lanes(pacing)

    async def lane(text: str) -> None:
        await send(pacing, telegram, -1, text)

    await send(pacing, telegram, -1, "reply 1")  # takes the place there is
    replies = [asyncio.create_task(send(pacing, telegram, -1, "reply 2")) for _ in range(3)]
    await asyncio.sleep(0.1)
    lanes.post(-1, lane, "lobby")
    lanes.post(-1, lane, "table")
    await asyncio.gather(*replies)
    await lanes.close()
    assert telegram.texts() == ["reply 1", "lobby", "table", "reply 2"]
    table, reply = (at for _, text, at in telegram.arrivals if text in ("table", "reply 2"))
    # the bucket empty again, room for two; the places count when requests leave, and a
    # busy machine may see the table arrive later after leaving than the reply did
    assert reply - table >= 2 * 0.3 - 0.05


async def test_a_lane_keeps_its_chat_s_next_place_however_long_its_job_takes() -> None:
    """A lane's job that goes on after its send (a loaded loop) keeps the chat's next place
    for the lane's next job: a reply that waits meanwhile goes after the lane's last, even
    once the bucket is empty again."""
    pacing, telegram = Pacing(Limits(group=Pace(2, 0.3))), Telegram()
    lanes = Lanes(pacing)

    async def lane(text: str) -> None:
        await send(pacing, telegram, -1, text)
        if text == "lobby":
            await asyncio.sleep(1.0)  # longer than the bucket takes to empty

    await send(pacing, telegram, -1, "reply 1")
    lanes.post(-1, lane, "lobby")
    lanes.post(-1, lane, "table")
    await asyncio.sleep(0.05)
    await send(pacing, telegram, -1, "reply 2")
    await lanes.close()
    assert telegram.texts() == ["reply 1", "lobby", "table", "reply 2"]


async def test_a_reply_that_finds_no_place_is_given_up() -> None:
    """A chat busy with the game for longer than the reply's patience skips the reply: the
    command's handler goes on, nothing is sent."""
    pacing, telegram = Pacing(Limits(group=Pace(2, 0.2), reply_patience=0.3)), Telegram()
    lanes = Lanes(pacing)

    async def lane(text: str) -> None:
        await send(pacing, telegram, -1, text)

    for n in range(5):
        lanes.post(-1, lane, f"table {n}")
    await asyncio.sleep(0.01)
    assert (await send(pacing, telegram, -1, "reply")).result is True
    await lanes.close()
    assert "reply" not in telegram.texts()


async def test_an_edit_is_never_given_up_and_the_newest_one_wins() -> None:
    """In a chat busy with the game for longer than a reply's patience, a press's edits of
    one message (A, B, then A again, as the same text before) are not skipped nor taken for
    a reply sent before: the message ends showing the last, with at most two edits sent."""
    pacing, telegram = Pacing(Limits(group=Pace(2, 0.2), reply_patience=0.3)), Telegram()
    lanes = Lanes(pacing)

    async def lane(text: str) -> None:
        await send(pacing, telegram, -1, text)

    def edit(text: str) -> Awaitable[Any]:
        method = EditMessageText(chat_id=-1, message_id=7, text=text)
        return pacing(telegram, None, method)  # type: ignore[arg-type]

    await edit("A")
    for n in range(5):
        lanes.post(-1, lane, f"table {n}")
    await asyncio.sleep(0.01)
    edits = [asyncio.create_task(edit(text)) for text in ("B", "A")]
    await asyncio.gather(*edits)
    await lanes.close()
    assert [text for text in telegram.texts() if "table" not in text][-1] == "A"
    assert telegram.texts().count("B") <= 1 and telegram.texts().count("A") >= 2


async def test_seldom_says_yes_once_a_while() -> None:
    lanes = Lanes(Pacing(Limits(paced=False)))
    assert lanes.seldom("a", 0.2)
    assert not lanes.seldom("a", 0.2)
    assert lanes.seldom("b", 0.2)
    await asyncio.sleep(0.25)
    assert lanes.seldom("a", 0.2)


async def test_what_is_asked_at_leisure_goes_behind_the_urgent_and_is_never_skipped() -> None:
    """A replay or a review (`at_leisure`) asked for before four replies lets them go first
    in the bot's pace; and where a reply that waits past its patience is skipped, what is
    asked at leisure is sent however long it waits."""
    pacing = Pacing(Limits(everywhere=Pace(1, 0.1), private=Pace(50, 0.01), reply_patience=5))
    telegram = Telegram()
    await send(pacing, telegram, 1, "first")  # takes the place there is

    async def leisurely(chat: int, text: str) -> None:
        with at_leisure():
            await send(pacing, telegram, chat, text)

    asked = asyncio.create_task(leisurely(2, "replay"))
    await asyncio.sleep(0)  # it waits first
    replies = [asyncio.create_task(send(pacing, telegram, 10 + n, f"reply {n}")) for n in range(4)]
    await asyncio.gather(asked, *replies)
    texts = telegram.texts()
    assert texts[:2] == ["first", "reply 0"] and "replay" in texts, texts

    hurried = Pacing(Limits(everywhere=Pace(1, 0.3), private=Pace(50, 0.01), reply_patience=0.05))
    telegram = Telegram()
    await send(hurried, telegram, 1, "first")
    await send(hurried, telegram, 3, "reply")  # no place within 0.05 s: skipped
    with at_leisure():
        await send(hurried, telegram, 2, "replay")  # waits its 0.3 s
    assert telegram.texts() == ["first", "replay"]


def test_the_bots_pace_follows_the_tokens_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    """`BOT_API_PER_SECOND`: 1 + 22 a second for Telegram's usual 30, the same margin for a
    token allowed more; off, or another patience, as the settings say."""
    assert Limits().everywhere == bot_pace(30) == Pace(1, 1 / 22)
    monkeypatch.setenv("BOT_API_PER_SECOND", "60")
    monkeypatch.setenv("PACING", "false")
    limits = limits_of(Settings(_env_file=None))  # type: ignore[call-arg]
    assert limits.everywhere == Pace(1, 1 / 44) and not limits.paced
    monkeypatch.setenv("BOT_API_PER_SECOND", "0")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]
