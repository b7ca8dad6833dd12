"""A group's 20 messages a minute under chatter: the game's messages go first, replies to
commands wait behind them (coalesced), so a cancelled lobby closes and a new one is posted
as fast as the group's pace allows — with Telegram's flood limits on."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import pytest

from bot.playground import Call, Chat, FakeTelegram, Message, Supergroup, User
from bot.telegram.messenger import message_link
from tests.e2e.actions import open_lobby, press, replies_to, say, start_game
from tests.e2e.process import running_bot
from tests.e2e.shown import LOBBY, RU, bot_messages
from tests.e2e.stored import games_in

COMMANDS = ("/score", "/newgame", "/rules", "/stats", "/help")
EVERY = 2.0  # each chatty member sends a command this often


async def chatter(fake: FakeTelegram, group: Chat, people: list[User], on: asyncio.Event) -> None:
    """Each of `people` sends a random command every `EVERY` seconds while `on` is set."""
    rng = random.Random(4)
    while True:
        for person in people:
            await on.wait()
            fake.user_sends(person, group, rng.choice(COMMANDS))
            await asyncio.sleep(EVERY / len(people))


def group_places(fake: FakeTelegram, group: Chat, since: int) -> list[Call]:
    """The group's sends and edits (what its pace counts) from call `since` on."""
    return [
        c
        for c in fake.calls[since:]
        if str(c.params.get("chat_id")) == str(group.id)
        and c.method.lower().startswith(("send", "edit"))
        and c.method.lower() != "sendchataction"
    ]


def message_id(call: Call) -> int | None:
    """The id of the message a call sent or edited (None when it failed)."""
    return call.result.get("message_id") if isinstance(call.result, dict) else None


def new_lobby(fake: FakeTelegram, group: Chat, old: Message) -> Message | None:
    return next(
        (
            m
            for m in bot_messages(fake, group)
            if m.message_id > old.message_id and LOBBY in (m.content or "")
        ),
        None,
    )


async def test_under_chatter_a_new_lobby_comes_first_and_pointers_are_coalesced(
    tmp_path: Path,
) -> None:
    """Three members send a command every 2 s each (4.5 times the group's budget). The
    creator cancels the lobby and sends /newgame while the others send six more commands
    at once: the old lobby loses its buttons and the new one is out within two of the
    group's places; of the many /newgame that follow, one «a game is already here» is
    sent in half a minute, pointing at the new lobby. No request is refused."""
    async with FakeTelegram(flood=True) as fake:
        masha, *others = people = [fake.add_user(name) for name in ("Маша", "Оля", "Дима", "Петя")]
        group = fake.add_group("Двор", people, supergroup=Supergroup())
        on = asyncio.Event()
        talk = asyncio.create_task(chatter(fake, group, others, on))
        try:
            async with running_bot(fake, tmp_path, pacing=True) as bot:
                old = await open_lobby(fake, group, masha)
                on.set()
                await asyncio.sleep(10)  # replies have used the group's budget by now
                on.clear()
                assert await press(fake, masha, old, RU("cancel")) == RU("cancelled")
                start, since = fake.now(), len(fake.calls)
                fake.user_sends(masha, group, "/newgame")
                for person in others * 2:
                    fake.user_sends(person, group, "/newgame" if person is others[0] else "/score")
                on.set()
                new = await fake.wait_until(lambda: new_lobby(fake, group, old), 15)
                # out within two of the group's places: before it only the old lobby's edit
                # and at most one reply that found a place to spare
                places = group_places(fake, group, since)
                assert new.message_id in [message_id(c) for c in places[:3]], places
                assert not old.reply_markup, old.content
                await asyncio.sleep(start + 25 - fake.now())
                on.clear()
                await bot.idle(timeout=60)
        finally:
            talk.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await talk
        assert fake.flood_events == []
        assert fake.early_retries == 0
        asked = [
            m
            for m in fake.messages(group)
            if not m.from_bot and m.content == "/newgame" and m.message_id > new.message_id
        ]
        pointers = [m for m in bot_messages(fake, group) if m.content == RU("already-running")]
        assert len(asked) >= 5, asked
        assert all(pointer.reply_to is old or pointer.reply_to is new for pointer in pointers)
        (pointer,) = (pointer for pointer in pointers if pointer.reply_to is new)
        (button,) = (b for row in pointer.reply_markup or [] for b in row)
        assert button["url"] == message_link(group.id, new.message_id)


async def test_a_busy_group_gets_the_same_reply_once_in_half_a_minute(tmp_path: Path) -> None:
    """/score sent three times by Оля and once by Дима in a row: the first answer takes the
    group's free place, the same answer while the budget is used is skipped (it is right
    above); Оля's /rules waits for its place and is answered, and so is a /score in
    another group."""
    async with FakeTelegram(flood=True) as fake:
        olya, dima = fake.add_user("Оля"), fake.add_user("Дима")
        group, other = fake.add_group("Двор", [olya, dima]), fake.add_group("Дача", [olya])
        async with running_bot(fake, tmp_path, pacing=True) as bot:
            first = await say(fake, bot, olya, group, "/score")
            for person in (olya, olya, dima):
                await say(fake, bot, person, group, "/score")
            await say(fake, bot, olya, group, "/rules")
            await say(fake, bot, olya, other, "/score")
            await bot.idle()
        answers = [m.content for m in replies_to(fake, group, first)]
        assert answers.count(RU("no-games-yet")) == 1, answers
        assert len(answers) == 2, answers
        assert [m.content for m in bot_messages(fake, other)] == [RU("no-games-yet")]
        assert fake.flood_events == []


def answer_to(fake: FakeTelegram, group: Chat, asked: Message, everyone: list[Message]) -> str:
    """How the command `asked` was answered: «group» (a reply to it), «private» (a message
    to its sender headed with the command and the group), «shared» (the group's reply to
    the same command — from the same person for /stats —, or for /newgame the «a game is
    already here» pointer), or «» (not yet)."""
    assert asked.sender is not None and asked.content is not None
    command = asked.content
    if any(m.reply_to is asked for m in bot_messages(fake, group)):
        return "group"
    heading = f"💬 {command} в «{group.title}»"
    if any((m.content or "").startswith(heading) for m in bot_messages(fake, asked.sender)):
        return "private"
    same = [
        m
        for m in everyone
        if m.content == command and (m.sender is asked.sender or command != "/stats")
    ]
    answered = [m for m in bot_messages(fake, group) if m.reply_to in same]
    if command == "/newgame":
        answered = [m for m in bot_messages(fake, group) if m.content == RU("already-running")]
    return "shared" if answered else ""


async def test_in_a_busy_group_every_command_is_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Маша has just dealt a game against three computers, with Telegram's flood limits on,
    when she, Оля and Петя (who never opened the private chat) send fifteen commands at
    once — the group's places for five minutes: every one is answered — in the group, in
    the asker's private chat headed with the command and the group, without buttons but links,
    or shared with the same command's answer in the group —, Петя's all in the group;
    /endgame's question comes, and nothing is refused."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.3")
    async with FakeTelegram(flood=True) as fake:
        masha, olya, petya = people = [fake.add_user(name) for name in ("Маша", "Оля", "Петя")]
        group = fake.add_group("Двор", people, supergroup=Supergroup())
        fake.user_sends(olya, olya, "/start")
        async with running_bot(fake, tmp_path, pacing=True) as bot:
            await start_game(fake, group, [masha], computers=("любитель",) * 3)
            burst = {
                olya: ("/score", "/rules", "/help", "/rating", "/stats", "/newgame"),
                petya: ("/stats", "/help", "/rules", "/score"),
                masha: ("/stats", "/help", "/rules", "/score", "/endgame"),
            }
            asked = [fake.user_sends(user, group, text) for user in burst for text in burst[user]]
            await fake.wait_until(lambda: all(answer_to(fake, group, m, asked) for m in asked), 90)
            await bot.idle(timeout=60)
        how = {
            (m.sender.name, m.content): answer_to(fake, group, m, asked) for m in asked if m.sender
        }
        assert all(how[petya.name, text] in {"group", "shared"} for text in burst[petya]), how
        assert how[masha.name, "/endgame"] == "group", how
        assert "private" in how.values(), how  # the group had no place for all in time
        (question,) = [m for m in bot_messages(fake, group) if m.reply_to is asked[-1]]
        assert question.content == RU("endgame-ask"), question.content
        for user in people:
            private = [m for m in bot_messages(fake, user) if (m.content or "").startswith("💬")]
            buttons = [b for m in private for row in m.reply_markup or [] for b in row]
            assert all("url" in button for button in buttons), private  # links only
        assert not bot_messages(fake, petya)
        # «a game is already here» links to the table, in the group or in private
        (game,) = games_in(tmp_path, group.id)
        newgame = next(m for m in asked if m.content == "/newgame")
        pointer = [m for m in bot_messages(fake, group) if m.reply_to is newgame] or [
            m for m in bot_messages(fake, olya) if (m.content or "").startswith("💬 /newgame")
        ]
        if pointer:  # else shared with the pointer of a moment before
            (button,) = (b for row in pointer[0].reply_markup or [] for b in row)
            assert button["url"] == message_link(group.id, game["table_message_id"])
        assert fake.flood_events == []
