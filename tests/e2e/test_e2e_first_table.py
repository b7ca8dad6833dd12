"""The first table comes first: after «Начать» in a quiet group (the bot pacing itself) the
group's table picture goes out before any hand, names the same person to move as the
hands do, and nobody — no computer either — moves before it is out."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.playground import Chat, FakeTelegram, User
from bot.playground.api.params import Call
from bot.ui.sheets import round_line, scores_line
from tests.e2e.actions import dealt, find, join, open_lobby, press
from tests.e2e.process import running_bot
from tests.e2e.shown import HAND, NAMES, RU, START, YOUR_TURN
from tests.e2e.stored import fresh_state, games_in, query


def first_table(fake: FakeTelegram, group: Chat, since: int) -> tuple[int, Call]:
    """The group's first table picture after call `since`: its place in the call log."""
    return next(
        (i, c)
        for i, c in enumerate(fake.calls)
        if i >= since
        and c.method.lower() == "sendphoto"
        and c.status == 200
        and str(c.params.get("chat_id")) == str(group.id)
    )


def hands_sent(fake: FakeTelegram, people: list[User], since: int) -> list[tuple[int, Call]]:
    """The hand messages sent to `people` after call `since`, with their places in the log."""
    ids = {str(user.id) for user in people}
    return [
        (i, c)
        for i, c in enumerate(fake.calls)
        if i >= since
        and c.method.lower() == "sendmessage"
        and str(c.params.get("chat_id")) in ids
        and HAND in str(c.params.get("text"))
    ]


async def start_and_look(
    fake: FakeTelegram, group: Chat, people: list[User], computers: int
) -> tuple[int, Call, list[tuple[int, Call]]]:
    """A lobby joined by `people` (and `computers` computers) right before «Начать», so
    that its edits have spent the group's places; the first table and the hands after
    «Начать»."""
    masha = people[0]
    lobby = await open_lobby(fake, group, masha, "goat turn_timeout=0")
    for user in people:
        await join(fake, group, user, lobby)
    for _ in range(computers):
        await press(fake, masha, lobby, "🤖 +любитель")
    await fake.wait_until(lambda: (lobby.content or "").count("🤖") >= computers)
    since = len(fake.calls)
    assert await press(fake, masha, lobby, START) == RU("dealing")
    await dealt(fake, group, lobby, people)
    await fake.wait_until(lambda: all(find(fake, user, HAND) for user in people))
    index, table = first_table(fake, group, since)
    return index, table, hands_sent(fake, people, since)


async def test_the_table_goes_out_before_the_hands_and_names_their_mover(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        people = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", people)
        async with running_bot(fake, tmp_path, pacing=True):
            index, table, hands = await start_and_look(fake, group, people, 0)
            assert hands and index < hands[0][0], (index, [i for i, _ in hands])
            mover = str(table.params["caption"]).splitlines()[-1]
            first: dict[str, str] = {}
            for _, call in hands:
                first.setdefault(str(call.params["chat_id"]), str(call.params["text"]))
            moving = [u.name for u in people if YOUR_TURN in first[str(u.id)]]
            assert [RU("caption-to-move", name=name) for name in moving] == [mover]


async def test_no_computer_moves_before_the_first_table(tmp_path: Path) -> None:
    """Computers that move at once still wait for the table: it shows the deal itself."""
    async with FakeTelegram() as fake:
        masha = fake.add_user(NAMES[0])
        group = fake.add_group("Двор", [masha])
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("COMPUTER_PACE_SECONDS", "0.02")
            async with running_bot(fake, tmp_path, pacing=True):
                index, table, hands = await start_and_look(fake, group, [masha], 3)
                assert hands and index < hands[0][0], (index, [i for i, _ in hands])
                (game,) = games_in(tmp_path, group.id)
                seats = "SELECT name FROM players WHERE game_id = ? ORDER BY seat"
                names = [row["name"] for row in query(tmp_path, seats, game["id"])]
                deal = fresh_state(tmp_path, game["id"])
                caption = str(table.params["caption"]).splitlines()
                assert caption[:2] == [round_line(RU, deal), scores_line(RU, deal, names)]
                assert caption[-1] == RU("caption-to-move", name=names[deal.to_move])
