"""Messages that must be true, with Telegram's flood limits on: a message with buttons ends
showing the current state however fast they are pressed; an answer goes to the asker's
private chat only while a game runs in the group, saying so in the asker's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.guarded import LOBBY_IDLE
from bot.playground import Chat, FakeTelegram, Message, Supergroup, User
from bot.ui.games import help_group
from bot.ui.i18n import texts_for
from tests.e2e.actions import ask, press, replies_to, say, start_game
from tests.e2e.process import running_bot
from tests.e2e.shown import RU, bot_messages
from tests.e2e.stored import games_in, query

EN = texts_for("en")

BACK_AND_FORTH = (
    "c:language:en",
    "c:language:ru",
    "c:language:en",
    "c:target:150",
    "c:target:101",
    "c:turn_timeout:30",
    "c:turn_timeout:60",
)
"""/settings presses that come back to a state shown before: English, target 101, 60 s."""


async def test_settings_pressed_back_and_forth_end_showing_the_stored_state(
    tmp_path: Path,
) -> None:
    """Маша taps English → Русский → English, a target and back, a clock and back, each as
    soon as the last tap is answered: every tap is saved, and once the bot is done the
    settings message shows what is stored — the same as a new /settings shows."""
    async with FakeTelegram(flood=True) as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path, pacing=True) as bot:
            menu = await ask(fake, bot, masha, group, "/settings")
            for data in BACK_AND_FORTH:
                assert await press(fake, masha, menu, data)  # «Saved.» / «Сохранено.»
            await bot.idle(timeout=90)
            (stored,) = query(tmp_path, "SELECT * FROM chat_settings WHERE chat_id = ?", group.id)
            assert stored["language"] == "en"
            assert "target=101" in stored["options"] or "target" not in stored["options"]
            fresh = await ask(fake, bot, masha, group, "/settings")
        assert fresh.content is not None and "English" in fresh.content
        assert (menu.content, menu.buttons) == (fresh.content, fresh.buttons)
        assert fake.flood_events == []


def answered(fake: FakeTelegram, group: Chat, asked: Message) -> str:
    """Where the command `asked` was answered: «group» (a reply to it), «private» (a
    message to its sender headed with the command, in any language), or «» (not yet)."""
    assert asked.sender is not None
    if any(m.reply_to is asked for m in bot_messages(fake, group)):
        return "group"
    heading = f"💬 {asked.content} "
    if any((m.content or "").startswith(heading) for m in bot_messages(fake, asked.sender)):
        return "private"
    return ""


async def ask_in_turn(
    fake: FakeTelegram, group: Chat, user: User, commands: tuple[str, ...]
) -> list[Message]:
    """`user` sends each of `commands` once the one before is answered (in the group it
    takes the group's place to spare, if there was one)."""
    asked = []
    for command in commands:
        asked.append(fake.user_sends(user, group, command))
        await fake.wait_until(lambda: answered(fake, group, asked[-1]), 90)
    return asked


async def test_right_after_a_game_the_answers_wait_for_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Маша ends her game against computers; while its end is being sent, Оля (who reads
    English and has opened her private chat) asks /rating, /newgame with a typo and /score:
    no game runs, so all are answered in the group, in its language, once it has room —
    none in private."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.3")
    async with FakeTelegram(flood=True) as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля", language_code="en")
        group = fake.add_group("Двор", [masha, olya], supergroup=Supergroup())
        fake.user_sends(olya, olya, "/start")
        async with running_bot(fake, tmp_path, pacing=True) as bot:
            await start_game(fake, group, [masha], computers=("любитель",) * 3)
            (question,) = replies_to(fake, group, await say(fake, bot, masha, group, "/endgame"))
            assert await press(fake, masha, question, RU("end-yes")) == RU("cancelled")
            asked = await ask_in_turn(fake, group, olya, ("/rating", "/newgame telefon", "/score"))
            await bot.idle(timeout=60)
        assert [answered(fake, group, m) for m in asked] == ["group"] * 3
        (rating,) = [m for m in bot_messages(fake, group) if m.reply_to is asked[0]]
        assert rating.content == RU("no-rating-yet")
        assert not [m for m in bot_messages(fake, olya) if (m.content or "").startswith("💬")]
        assert [game["status"] for game in games_in(tmp_path, group.id)] == ["cancelled"]
        assert fake.flood_events == []


async def test_while_a_game_runs_answers_go_away_saying_why_in_the_askers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Маша plays three computers in a Russian group, where Петя (who never opened his
    private chat) has just asked five commands; Оля, who reads English, asks four, each
    once the last is answered: the group has no place to spare, so they come to her
    private chat, headed in English with the true reason — the game there takes the
    group's messages — and written in English. Петя's are all answered in the group."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.3")
    async with FakeTelegram(flood=True) as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля", language_code="en")
        petya = fake.add_user("Петя")
        group = fake.add_group("Двор", [masha, olya, petya], supergroup=Supergroup())
        fake.user_sends(olya, olya, "/start")
        commands = ("/help", "/rules", "/score", "/help")
        async with running_bot(fake, tmp_path, pacing=True) as bot:
            await start_game(fake, group, [masha], computers=("любитель",) * 3)
            crowd = [
                fake.user_sends(petya, group, text)
                for text in ("/help", "/rules", "/score", "/stats", "/rating")
            ]
            await fake.wait_until(lambda: any(answered(fake, group, m) for m in crowd), 60)
            asked = await ask_in_turn(fake, group, olya, commands)
            await fake.wait_until(lambda: all(answered(fake, group, m) for m in crowd), 120)
            await bot.idle(timeout=60)
        assert [answered(fake, group, m) for m in crowd] == ["group"] * len(crowd)
        away = [m for m in bot_messages(fake, olya) if (m.content or "").startswith("💬")]
        assert [answered(fake, group, m) for m in asked] == ["private"] * len(asked), away
        for message in away:
            command = (message.content or "").split()[1]
            heading = EN("answered-privately", command=command, chat="Двор")
            assert (message.content or "").startswith(f"{heading}\n\n"), message.content
        helped = [m.content for m in away if (m.content or "").startswith("💬 /help")]
        assert helped and all(
            text == f"{EN('answered-privately', command='/help', chat='Двор')}\n\n"
            f"{help_group(EN, LOBBY_IDLE // 60)}"
            for text in helped
        ), helped
        assert fake.flood_events == []
