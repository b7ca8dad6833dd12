"""Turn clocks through the real bot: nobody moves, the computer moves for them and the table
says so; after three such turns a seat is away until its person presses a button."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.core.guarded import AWAY_AFTER, LOBBY_IDLE
from bot.playground import FakeTelegram, Message, User
from bot.telegram.buttons import MoveButton
from tests.e2e.actions import (
    dealt,
    find,
    forged_refused,
    join,
    open_lobby,
    play_until,
    press,
    replies_to,
    say,
    seated,
    start_game,
    table_captions,
)
from tests.e2e.checks import check_finished_game
from tests.e2e.process import running_bot, stretched
from tests.e2e.shown import HAND, RU, SHORT, START
from tests.e2e.stored import games_in, query, seats_of


async def test_a_silent_table_is_played_by_the_clock_until_someone_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.05")
    turn = stretched(1)
    async with FakeTelegram() as fake:
        masha, serge = fake.add_user("Маша"), fake.add_user("Серёжа")
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, [masha, serge], f"goat turn_timeout={turn}")

            def captions() -> list[str]:
                return table_captions(fake, group)

            def seat(name: str) -> tuple[int, int]:
                """Whether the person's seat is away, and their turns timed out in a row."""
                sql = "SELECT away, missed FROM players WHERE name = ?"
                (row,) = query(tmp_path, sql, name)
                return row["away"], row["missed"]

            def away() -> list[str]:
                rows = query(tmp_path, "SELECT name FROM players WHERE away = 1")
                return [row["name"] for row in rows]

            # nobody presses: the clock moves for whoever is to move, the table tells it (by
            # the time the test looks, the other one may be away too: either will do)
            gone = (await fake.wait_until(away, (AWAY_AFTER * 2 + 1) * turn + 10))[0]
            await fake.wait_until(lambda: any(RU("timed-out", name=gone) in c for c in captions()))
            await fake.wait_until(lambda: any(RU("away", name=gone) in c for c in captions()))

            # any of their buttons brings them back: the clock, not the computer, again
            user = masha if gone == "Маша" else serge
            hand = find(fake, user, HAND)
            assert hand is not None and hand.reply_markup
            button = hand.reply_markup[0][0]["text"]
            assert await press(fake, user, hand, button) == RU("welcome-back")
            await fake.wait_until(lambda: seat(gone) == (0, 0))
            await bot.idle()


async def test_kick_and_extend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The creator (or an admin) removes a player: from a lobby by name, from a running game
    by replying to their message — the computer takes the seat to the end, and the timeout
    rule settles it (RULES §2.7); /extend buys a lobby time."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.05")
    async with FakeTelegram() as fake:
        masha, serge, olya, dima = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля", "Дима"))
        group = fake.add_group("Двор", [masha, serge, olya, dima])
        async with running_bot(fake, tmp_path) as bot:
            lobby = await open_lobby(fake, group, masha, SHORT)
            for user in (masha, serge, olya):
                await join(fake, group, user, lobby)

            async def answer(user: User, text: str, reply_to: Message | None = None) -> str:
                asked = await say(fake, bot, user, group, text, reply_to=reply_to)
                (reply,) = replies_to(fake, group, asked)
                return reply.content or ""

            assert await answer(olya, "/kick Серёжа") == RU("not-creator-or-admin")
            assert await answer(masha, "/kick") == RU("kick-who")
            assert await answer(masha, "/kick Дима") == RU("kick-not-seated")
            assert await answer(masha, "/kick Маша") == RU("kick-yourself")
            assert await answer(masha, "/kick серёжа") == RU("kicked", name="Серёжа")
            await fake.wait_until(lambda: seated(lobby) == ["Маша", "Оля"])
            (before,) = query(tmp_path, "SELECT deadline FROM games")
            assert await answer(serge, "/extend") == RU("extended", minutes=LOBBY_IDLE // 60)
            (row,) = query(tmp_path, "SELECT deadline FROM games")
            assert row["deadline"] == before["deadline"] + LOBBY_IDLE

            assert await press(fake, masha, lobby, START) == RU("dealing")
            await dealt(fake, group, lobby, [masha, olya])
            assert await answer(dima, "/extend") == RU("no-open-lobby")
            (game,) = games_in(tmp_path, group.id)
            hand = find(fake, olya, HAND)
            assert hand is not None
            said = fake.user_sends(olya, group, "ну что, ходим?")  # the bot does not see it
            asked = await say(fake, bot, masha, group, "/kick", reply_to=said)
            replies = [m.content for m in replies_to(fake, group, asked)]
            assert replies == [RU("kicked", name="Оля")], replies
            note = RU("left-game-note", name="Оля")
            await fake.wait_until(lambda: any(note in c for c in table_captions(fake, group)))
            await fake.wait_until(lambda: hand.content == RU("hand-left") and not hand.buttons)

            # she is out for good: her buttons, /leave and a second /kick say so
            (row,) = query(tmp_path, "SELECT version FROM games")
            data = MoveButton(game=game["id"], version=row["version"], kind="d").pack()
            assert await forged_refused(fake, olya, hand, data) == RU("left-game")
            assert await answer(olya, "/leave") == RU("illegal-left")
            assert await answer(masha, "/kick Оля") == RU("illegal-left")

            # Маша plays on against the computer in Оля's seat; Оля is the goat, +0
            await play_until(fake, group, [masha], random.Random(5))
            state = await check_finished_game(fake, bot, group, dima, game["id"])
            assert state.outcome is not None and state.outcome.reason != "timeout"
            olya_seat = seats_of(tmp_path, game["id"]).index(olya.id)
            assert state.left == (olya_seat,) and state.outcome.leaver == olya_seat
            last = state.outcome.places[-1]
            assert (last.seat, last.goat, last.rating_points) == (olya_seat, True, 0)
