"""Telegram's flood limits on: the bot paces its sends, coalesces the table, waits out every
429 in full, and the game still finishes with the final state on the table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.game.state import Phase
from bot.playground import Chat, FakeTelegram, FloodLimits, User
from bot.ui.sheets import round_line, scores_line
from tests.e2e.actions import join, open_lobby, play_until, press
from tests.e2e.process import running_bot
from tests.e2e.shown import RU
from tests.e2e.stored import games_in, query, replay_game

COMPUTERS = ("новичок", "любитель", "мастер")


async def play_with_computers(fake: FakeTelegram, folder: Path, group: Chat, masha: User) -> int:
    """Маша and three computers play a short game, the bot pacing itself; how many moves
    Маша made."""
    async with running_bot(fake, folder, pacing=True) as bot:
        lobby = await open_lobby(fake, group, masha, "goat target=30 turn_timeout=0")
        await join(fake, group, masha)
        for level in COMPUTERS:
            await press(fake, masha, lobby, f"🤖 +{level}")
        await fake.wait_until(lambda: "🤖 Мастер 3" in (lobby.content or ""))
        fake.flood = True
        await press(fake, masha, lobby, RU("start"))
        moves = await play_until(fake, group, [masha], random.Random(7))
        await bot.idle(timeout=120)  # the group's lane is still catching up
    return moves


def final_table_shown(fake: FakeTelegram, folder: Path, group: Chat) -> None:
    """The table message shows the stored final state: its round, bazaar and scores."""
    (game,) = games_in(folder, group.id)
    assert game["status"] == "finished"
    state = replay_game(folder, game["id"])
    assert state.phase is Phase.GAME_OVER
    seats = "SELECT name FROM players WHERE game_id = ? ORDER BY seat"
    names = [row["name"] for row in query(folder, seats, game["id"])]
    (table,) = [m for m in fake.messages(group) if m.message_id == game["table_message_id"]]
    expected = round_line(RU, state)
    assert (table.content or "").startswith(f"{expected}\n{scores_line(RU, state, names)}")


async def test_a_fast_game_with_computers_finishes_within_the_limits(tmp_path: Path) -> None:
    """Computers move every 20 ms, far faster than a group may be written to: the table
    is edited only as often as the group's pace allows, no request is refused, and none
    comes before a ban is over."""
    async with FakeTelegram() as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("COMPUTER_PACE_SECONDS", "0.02")
            moves = await play_with_computers(fake, tmp_path, group, masha)
        assert fake.flood_events == []
        assert fake.early_retries == 0
        final_table_shown(fake, tmp_path, group)
        played = query(tmp_path, "SELECT COUNT(*) AS n FROM moves")[0]["n"]
        edits = len(fake.calls_of("editMessageMedia"))
        assert moves > 0 and edits < played / 2, (edits, played)


async def test_every_429_is_waited_out_and_the_newest_state_follows(tmp_path: Path) -> None:
    """Telegram is stricter than the bot's pace in private chats: hands get 429s; each is
    waited out in full (no request inside a ban) and play goes on to the end."""
    limits = FloodLimits(private_per_second=0.4, private_burst=1)
    async with FakeTelegram(flood_limits=limits) as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("COMPUTER_PACE_SECONDS", "0.02")
            await play_with_computers(fake, tmp_path, group, masha)
        assert fake.flood_events, "the private limit was never reached"
        assert fake.early_retries == 0
        final_table_shown(fake, tmp_path, group)
