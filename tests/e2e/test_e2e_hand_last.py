"""While a person's game runs, their hand stays the last thing in their private chat:
a replay asked for meanwhile, or a group command's answer sent there because the group is
crowded, is followed by the hand anew — with working buttons."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.playground import FakeTelegram, Message, Supergroup, User
from tests.e2e.actions import find, play_move, play_until, press, start_game, version_of, wait_turn
from tests.e2e.process import running_bot
from tests.e2e.shown import HAND, NAMES, RU, bot_messages
from tests.e2e.stored import games_in, query

DEAL_CODE = RU("round-deal-code", code="").split(":")[0]


def hand_below(fake: FakeTelegram, user: User, message: Message) -> Message | None:
    """The user's hand with buttons, if it is the last thing in their private chat and
    came after `message`."""
    last = fake.last_bot_message(user)
    if last is None or last.message_id <= message.message_id or version_of(last) < 0:
        return None
    return last if HAND in (last.content or "") else None


async def test_a_replay_during_the_game_is_followed_by_the_hand(tmp_path: Path) -> None:
    """Round 1 is over, round 2 under way: Маша presses «🎞 Повтор» under round 1's result;
    the animation comes to her private chat, then her hand below it, and the game goes on
    from it."""
    async with FakeTelegram() as fake:
        people = [fake.add_user(name) for name in NAMES[:2]]
        masha = people[0]
        group = fake.add_group("Двор", people)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, people, "target=201")
            rng = random.Random(2)
            await play_until(fake, group, people, rng, text=DEAL_CODE)
            await bot.idle()
            (game,) = games_in(tmp_path, group.id)
            assert game["status"] == "active"
            result = find(fake, group, DEAL_CODE)
            assert result is not None
            assert await press(fake, masha, result, RU("replay-button")) == RU("replay-preparing")
            replay = await fake.wait_until(
                lambda: next(
                    (m for m in fake.messages(masha) if m.file and m.file.kind == "animation"),
                    None,
                ),
                60,
            )
            hand = await fake.wait_until(lambda: hand_below(fake, masha, replay), 20)
            # the one above the replay is gone
            await fake.wait_until(
                lambda: [m for m in bot_messages(fake, masha) if version_of(m) >= 0] == [hand]
            )
            await moves_on(fake, tmp_path, people, masha, rng)


async def moves_on(
    fake: FakeTelegram, folder: Path, people: list[User], mover: User, rng: random.Random
) -> None:
    """Play until `mover` has made a move from their hand; it is stored."""
    after = -1
    while True:
        user, _ = await wait_turn(fake, people, after)
        after = await play_move(fake, people, rng, after)
        if user is mover:
            break
    await fake.wait_until(lambda: query(folder, "SELECT version FROM games")[0]["version"] > after)


async def test_answers_sent_to_private_during_the_game_are_followed_by_the_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Маша plays three quick computers (Telegram's flood limits on) and sends a burst of
    commands to the crowded group: those answered in her private chat are followed there
    by her hand, and the game goes on from it."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.3")
    async with FakeTelegram(flood=True) as fake:
        masha = fake.add_user(NAMES[0])
        group = fake.add_group("Двор", [masha], supergroup=Supergroup())
        async with running_bot(fake, tmp_path, pacing=True) as bot:
            await start_game(fake, group, [masha], "turn_timeout=0", computers=("любитель",) * 3)
            for text in ("/score", "/rules", "/help", "/stats", "/rating") * 2:
                fake.user_sends(masha, group, text)
            await bot.idle(timeout=120)
            answers = [m for m in bot_messages(fake, masha) if (m.content or "").startswith("💬")]
            assert answers, "the group had room for every answer"
            await fake.wait_until(lambda: hand_below(fake, masha, answers[-1]))
            await moves_on(fake, tmp_path, [masha], masha, random.Random(3))
