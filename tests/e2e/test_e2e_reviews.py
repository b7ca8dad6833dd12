"""«🔍 Разбор» and the bot's child processes, through the fake Bot API: a person's review
of a game is made once however often they press, and sent again from the database after;
it says plainly what the better move would have changed; a review and a replay are made in
processes of their own, which end with the bot however it ends."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
from pathlib import Path

from bot.playground import Chat, FakeTelegram, Message, User
from tests.e2e.actions import play_until, press, seeded_game, wait_text
from tests.e2e.process import BotProcess, running_bot
from tests.e2e.shown import NAMES, RU, SHORT, bot_messages
from tests.e2e.stored import query

QUICK = "target=25"  # a game of a few rounds
SEED = 1  # a game of some 30 decisions a seat (a random seed gave one of 3 once)


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (a scan of /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _stat(int(entry.name))[1:2] == [str(pid)]:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` is still there (a zombie, waiting for its new parent to
    reap it, has ended)."""
    return _stat(pid)[:1] not in ([], ["Z"])


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat's fields after the command: the state, the parent, …"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return []
    return stat.rsplit(")", 1)[1].split()


def command(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return ""


def with_button(fake: FakeTelegram, chat: Chat | User, label: str) -> Message | None:
    """The bot's newest message in `chat` with a button labelled `label`."""
    return next(
        (
            m
            for m in reversed(bot_messages(fake, chat))
            if label in [b["text"] for row in m.reply_markup or [] for b in row]
        ),
        None,
    )


async def finished_game(
    fake: FakeTelegram,
    bot: BotProcess,
    folder: Path,
    group: Chat,
    players: list[User],
    options: str = QUICK,
) -> int:
    """A game played to its end in `group`, its record kept; its id. Its deal is fixed
    (`SEED`) and its moves drawn from a fixed sequence, so it is the same long game each
    time: a short one can end before anybody has a move to get wrong."""
    game = await seeded_game(fake, folder, group, players, options, SEED)
    await play_until(fake, group, players, random.Random(4))
    await bot.idle()
    await fake.wait_until(lambda: query(folder, "SELECT 1 FROM records WHERE game_id = ?", game))
    return game


PRESSES = 30
REVIEW_LOGGED = "review of game {game} seat {seat}:"


def answers_to(fake: FakeTelegram, pressed: list[str]) -> list[str] | None:
    """The answers' texts once every press has one."""
    answers = [fake.answer_for(query) for query in pressed]
    return [str(a.text) for a in answers if a is not None] if all(answers) else None


def summaries(fake: FakeTelegram, user: User, heading: str) -> list[Message]:
    return [m for m in bot_messages(fake, user) if heading in (m.content or "")]


def photos(fake: FakeTelegram, user: User) -> list[Message]:
    return [m for m in bot_messages(fake, user) if m.photo is not None]


def documents(fake: FakeTelegram, user: User) -> list[Message]:
    return [m for m in bot_messages(fake, user) if m.file is not None and m.file.kind == "document"]


async def test_a_review_is_made_once_and_says_what_the_better_move_changes(
    tmp_path: Path,
) -> None:
    """«🔍 Разбор» pressed 30 times at once: one review is made and sent, the other presses
    are told it is being made; a press after sends the same review again, made by nobody.
    Its words (both players') say what the better move changes (the round's points, the
    chances to win or lose the game), no bare estimate, and the record sent with it names
    no file of the repository."""
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            game = await finished_game(fake, bot, tmp_path, group, [masha, serge], SHORT)
            hand = await fake.wait_until(lambda: with_button(fake, masha, RU("review-button")))
            pressed = [fake.user_presses(masha, hand, RU("review-button")) for _ in range(PRESSES)]
            answers = await fake.wait_until(lambda: answers_to(fake, pressed), 60)
            assert sorted(answers) == sorted(
                [RU("review-preparing")] + [RU("review-busy")] * (PRESSES - 1)
            )
            heading = RU("review-none", game=game, looked=0, total=0)[:8]
            summary = await wait_text(fake, masha, heading, 300)
            await bot.idle()
            assert summaries(fake, masha, heading) == [summary]
            (row,) = query(tmp_path, "SELECT * FROM reviews WHERE game_id = ?", game)
            assert (row["held_by"], row["held_until"]) == (None, None)
            made = REVIEW_LOGGED.format(game=game, seat=row["seat"])
            assert bot.log.count(made) == 1
            shown = photos(fake, masha)
            assert len(shown) == len(json.loads(row["review"])["slips"])

            # in plain words: what the better move changes, no estimate in the game's value
            theirs = await fake.wait_until(lambda: with_button(fake, serge, RU("review-button")))
            assert await press(fake, serge, theirs, RU("review-button")) == RU("review-preparing")
            await wait_text(fake, serge, heading, 300)
            await bot.idle()
            pictures = shown + photos(fake, serge)
            assert pictures, "a game played at random has moves the hard computer plays otherwise"
            said = [m.content or "" for m in summaries(fake, masha, heading)]
            text = "\n".join(said + [m.caption or "" for m in pictures])
            assert "≈" not in text and "весит" not in text, text
            plain = [
                RU("review-small"),
                *(
                    RU(key, points=5, percent=5, more="no")[:12]
                    for key in ("review-points", "review-winning", "review-losing")
                ),
            ]
            for picture in pictures:
                assert any(words in (picture.caption or "") for words in plain), picture.caption
            records = documents(fake, masha) + documents(fake, serge)
            assert records and all("docs/" not in (m.caption or "") for m in records)

            # a press after: the same review again, from the database
            assert await press(fake, masha, hand, RU("review-button")) == RU("review-again")
            await fake.wait_until(lambda: len(summaries(fake, masha, heading)) == 2, 60)
            await bot.idle()
            assert [m.content for m in summaries(fake, masha, heading)] == [summary.content] * 2
            assert [m.caption for m in photos(fake, masha)] == [m.caption for m in shown] * 2
            assert bot.log.count(made) == 1


async def test_the_bots_children_end_with_it(tmp_path: Path) -> None:
    """kill -9 the bot while a review and a replay are being made: within seconds none of
    its child processes (the reviewer, the drawer, multiprocessing's resource tracker)
    remains."""
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            await finished_game(fake, bot, tmp_path, group, [masha, serge])
            hand = await fake.wait_until(lambda: with_button(fake, masha, RU("review-button")))
            assert await press(fake, masha, hand, RU("review-button")) == RU("review-preparing")
            result = await fake.wait_until(lambda: with_button(fake, group, RU("replay-button")))
            assert await press(fake, masha, result, RU("replay-button")) == RU("replay-preparing")
            assert bot.process is not None
            pid = bot.process.pid

            def making() -> set[int] | None:
                found = children(pid)
                workers = [p for p in found if "spawn_main" in command(p)]
                return found if len(workers) >= 2 else None

            spawned = await fake.wait_until(making, 60)  # the reviewer and the drawer
            assert any("resource_tracker" in command(p) for p in spawned)  # ends on its own
            os.kill(pid, signal.SIGKILL)
            try:
                await fake.wait_until(lambda: not any(alive(p) for p in spawned), 20)
            finally:
                for left in filter(alive, spawned):  # not to keep the test's pipe open
                    os.kill(left, signal.SIGKILL)
            await bot.stop()
