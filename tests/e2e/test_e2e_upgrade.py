"""An upgrade never loses a game: the version before the core / ui / telegram layers runs a
game and a lobby, stops, and today's version goes on with its database and its messages."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema

from bot.game import record as records
from bot.playground import FakeTelegram, Message
from tests.e2e.actions import (
    ask,
    dealt,
    end_button,
    forged_refused,
    join,
    open_lobby,
    play_moves,
    play_until,
    press,
    wait_asking,
    wait_turn,
)
from tests.e2e.process import LATEST, ROOT, BotProcess, kept_promises, previous_version
from tests.e2e.shown import NAMES, PICK_END, PLAYABLE, RU, START
from tests.e2e.stored import games_in, query, replay_game, stored_state
from tests.e2e.test_e2e_records import SCHEMA

BEFORE = "f3adf8c654e96891397282a9c5ec27b73160301d"
"""The last commit before the layers: its database and buttons must keep working."""
NOVICE = "🤖 +новичок"  # the button that seats an easy computer, in both versions


def callback_data(message: Message, text: str) -> str:
    (data,) = [
        b["callback_data"] for row in message.reply_markup or [] for b in row if b["text"] == text
    ]
    return str(data)


def tile_data(hand: Message) -> dict[str, str]:
    """The callback data of the hand's playable tiles, by button text."""
    return {
        b["text"]: b["callback_data"]
        for row in hand.reply_markup or []
        for b in row
        if b["text"].startswith(PLAYABLE)
    }


async def test_a_game_and_a_lobby_of_the_previous_version_go_on(tmp_path: Path) -> None:
    old_code = previous_version(BEFORE, tmp_path / "previous")
    data = tmp_path / "data"
    data.mkdir()
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        yard, club = (fake.add_group(title, [masha, serge]) for title in ("Двор", "Клуб"))
        players = [masha, serge]

        # one process record for both versions: its log tells which updates were handled
        bot = BotProcess(fake, data, source=old_code)
        await bot.start()
        try:
            lobby = await open_lobby(fake, yard, masha, "target=51")
            for user in players:
                await join(fake, yard, user, lobby)
            assert await press(fake, masha, lobby, NOVICE) == ""
            await fake.wait_until(lambda: "Новичок 1" in (lobby.content or ""), 20)
            assert await press(fake, masha, lobby, START) == RU("dealing")
            await dealt(fake, yard, lobby, players)
            after = await play_moves(fake, players, random.Random(7), 3)
            waiting = await open_lobby(fake, club, serge)
            old_novice = callback_data(waiting, NOVICE)
            assert old_novice.endswith(":robot_easy")
            mover, hand = await wait_turn(fake, players, after)
            old_tiles = tile_data(hand)
            await bot.idle()
            await bot.stop()
            (game,) = games_in(data, yard.id)
            assert query(data, "PRAGMA user_version")[0][0] == 5

            bot.source = ROOT  # today's version, on the same database and chats
            await bot.start()
            # the database upgraded on start: one name for computer players
            assert query(data, "PRAGMA user_version")[0][0] == LATEST
            computers = query(
                data, "SELECT computer FROM players WHERE game_id = ? AND user_id < 0", game["id"]
            )
            assert [row["computer"] for row in computers] == ["easy"]

            # the hand's buttons are the same buttons: the old data plays
            _, fresh = await wait_turn(fake, players, after)
            assert tile_data(fresh) == old_tiles
            text = next(iter(old_tiles))
            if await press(fake, mover, fresh, text) == PICK_END:
                asking = await wait_asking(fake, mover)
                assert await press(fake, mover, asking, end_button(asking, 0)) == ""

            # the old lobby's computer button is answered as outdated; the new one works
            assert await forged_refused(fake, serge, waiting, old_novice) == RU("outdated-button")
            # the restart draws the lobby again, with today's buttons (not before the test
            # presses: the hand pressed above may be the one the old version left)
            await fake.wait_until(lambda: callback_data(waiting, NOVICE) != old_novice, 20)
            assert await press(fake, serge, waiting, NOVICE) == ""
            await fake.wait_until(lambda: "Новичок 1" in (waiting.content or ""), 20)

            # and the game goes on to its end: the stored state is the replay of its log,
            # the moves of both versions
            await play_until(fake, yard, players, random.Random(8))
            await bot.idle()
            (row,) = query(data, "SELECT status FROM games WHERE id = ?", game["id"])
            assert row["status"] == "finished"
            assert replay_game(data, game["id"]) == stored_state(data, game["id"])

            # its record, built from the log of both versions when first asked for,
            # replays to the same end (the edition it went on under marked where it did)
            listing = await ask(fake, bot, masha, yard, "/history")
            assert RU("preset-name-goat") in (listing.content or "")
            (kept,) = query(data, "SELECT record FROM records WHERE game_id = ?", game["id"])
            record = json.loads(kept["record"])
            jsonschema.validate(record, SCHEMA)
            final = stored_state(data, game["id"])
            assert records.replay(record)._replace(seed=final.seed, seats=final.seats) == final
            assert any("edition" in move for r in record["rounds"] for move in r["moves"])
        except BaseException:
            print(bot.log[-20_000:])
            raise
        finally:
            if bot.process is not None:
                await bot.stop()
        kept_promises(fake, bot)
