"""A forum: each topic can hold its own game, and a game never leaves its topic."""

from __future__ import annotations

import random
from pathlib import Path

from bot.playground import FakeTelegram, Supergroup
from tests.e2e.actions import (
    dealt,
    join,
    open_lobby,
    play_moves,
    play_until,
    press,
    replies_to,
    say,
)
from tests.e2e.checks import check_finished_game
from tests.e2e.process import running_bot
from tests.e2e.shown import NAMES, RU, SHORT, START, bot_messages
from tests.e2e.stored import games_in


async def test_two_topics_hold_two_games_that_stay_in_their_topics(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:4]]
        forum = fake.add_group("Клуб", users, supergroup=Supergroup(forum=True))
        first, second = fake.add_topic(forum, "Стол 1"), fake.add_topic(forum, "Стол 2")
        tables = {
            first.thread_id: users[:2],
            second.thread_id: users[2:],
        }
        async with running_bot(fake, tmp_path) as bot:
            lobbies = {}
            for thread, players in tables.items():
                lobbies[thread] = await open_lobby(fake, forum, players[0], SHORT, topic=thread)
            for thread, players in tables.items():
                for user in players:
                    await join(fake, forum, user, lobbies[thread])
                assert await press(fake, players[0], lobbies[thread], START) == "Раздаю!"
            for thread, players in tables.items():
                await dealt(fake, forum, lobbies[thread], players)
            games = {row["thread_id"]: row["id"] for row in games_in(tmp_path, forum.id)}
            assert set(games) == set(tables)

            # both run at once; commands answer about the topic they are sent in
            rng = random.Random(3)
            after = await play_moves(fake, tables[second.thread_id], rng, 3)
            asked = await say(fake, bot, users[0], forum, "/newgame", topic=first.thread_id)
            await bot.idle()  # «already here» goes in the game's lane
            (answer,) = replies_to(fake, forum, asked)
            assert answer.content == RU("already-running")
            asked = await say(fake, bot, users[0], forum, "/score", topic=second.thread_id)
            (answer,) = replies_to(fake, forum, asked)
            assert "Оля" in (answer.content or "") and "Маша" not in (answer.content or "")

            for thread, players in tables.items():
                await play_until(
                    fake,
                    forum,
                    players,
                    rng,
                    topic=thread,
                    after=after if thread == second.thread_id else -1,
                )
            for thread, players in tables.items():
                await check_finished_game(fake, bot, forum, players[0], games[thread])

            # every message the bot sent to the forum went to a topic, named by the bot
            mine = bot_messages(fake, forum)
            assert mine
            for message in mine:
                assert message.thread_id in tables, message
                assert message.passed_thread_id == str(message.thread_id), message
                if (message.content or "").startswith("Рейтинг «"):
                    continue  # the chat's rating, asked in this topic, counts both games
                others = [u.name for t, p in tables.items() if t != message.thread_id for u in p]
                assert not any(name in (message.content or "") for name in others), message
