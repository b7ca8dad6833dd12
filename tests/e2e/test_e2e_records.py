"""Every game a record, through the fake Bot API: /history and a game's score sheet, a
round's replay as an animation in the presser's private chat (sent again by its file id),
/export as JSON Lines without user ids, a shared deal (`/newgame deal=CODE`, `/deal CODE`)
— and nothing of a running game reachable through any of them."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
from PIL import Image

from bot.game import record as records
from bot.game.rules import RuleSet
from bot.playground import Chat, FakeTelegram, Message, User
from bot.telegram.record_buttons import Replay
from tests.e2e.actions import (
    ask,
    find,
    forged_refused,
    play_until,
    press,
    say,
    start_game,
    wait_text,
)
from tests.e2e.process import BotProcess, running_bot
from tests.e2e.shown import NAMES, RU, bot_messages
from tests.e2e.stored import games_in, query, stored_state

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "record.schema.json").read_text())
QUICK = "target=25"  # a game of a few rounds


def stored_record(folder: Path, game_id: int) -> dict[str, Any]:
    (row,) = query(folder, "SELECT record FROM records WHERE game_id = ?", game_id)
    record: dict[str, Any] = json.loads(row["record"])
    return record


def files(fake: FakeTelegram, user: User, kind: str) -> list[Message]:
    """The bot's messages in the user's private chat that hold a file of `kind`."""
    return [m for m in bot_messages(fake, user) if m.file is not None and m.file.kind == kind]


def pictures_after(fake: FakeTelegram, user: User, message: Message) -> list[Message]:
    """The photos the bot sent the user after `message`."""
    return [
        m
        for m in bot_messages(fake, user)
        if m.message_id > message.message_id and m.photo is not None
    ]


def with_button(fake: FakeTelegram, user: User, label: str) -> Message | None:
    """The bot's newest message to the user with a button labelled `label`."""
    return next((m for m in reversed(bot_messages(fake, user)) if label in buttons(m)), None)


def buttons(message: Message) -> list[str]:
    return [b["text"] for row in message.reply_markup or [] for b in row]


async def nothing_of_a_running_game(
    fake: FakeTelegram, bot: BotProcess, folder: Path, masha: User, group: Chat, game_id: int
) -> None:
    """While the game runs: no history, nothing to export, its round in play not replayed."""
    assert (await ask(fake, bot, masha, group, "/history")).content == RU("history-empty")
    assert (await ask(fake, bot, masha, group, "/export")).content == RU("export-empty")
    anchor = await ask(fake, bot, masha, group, "/score")
    (round_no,) = query(
        folder, "SELECT COUNT(*) + 1 AS n FROM round_results WHERE game_id = ?", game_id
    )
    forged = Replay(game=game_id, round=int(round_no["n"])).pack()
    assert await forged_refused(fake, masha, anchor, forged) == RU("replay-not-over")
    assert files(fake, masha, "animation") == []


async def test_history_replay_export_and_nothing_while_running(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])  # Маша created it: an admin
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, [masha, serge], QUICK)
            (game,) = games_in(tmp_path, group.id)
            await nothing_of_a_running_game(fake, bot, tmp_path, masha, group, game["id"])
            await play_until(fake, group, [masha, serge], random.Random(4))
            await bot.idle()
            # kept as the game ended, before anyone asks
            await fake.wait_until(
                lambda: query(tmp_path, "SELECT 1 FROM records WHERE game_id = ?", game["id"])
            )

            # /history: the game, by its human name, with who won; its button: the sheet
            listing = await ask(fake, bot, masha, group, "/history")
            assert RU("preset-name-goat") in (listing.content or "")
            assert RU("history-winner", names="").strip() in (listing.content or "")
            assert await press(fake, masha, listing, "1") == ""
            await fake.wait_until(lambda: RU("history-record-button") in buttons(listing), 20)
            record = stored_record(tmp_path, game["id"])
            jsonschema.validate(record, SCHEMA)
            final = stored_state(tmp_path, game["id"])
            assert records.replay(record)._replace(seed=final.seed, seats=final.seats) == final
            for round_ in record["rounds"]:
                assert round_["deal"]["code"] in (listing.content or "")

            # «🎞 1»: round 1 as an animation in Маша's private chat, a frame a move
            assert await press(fake, masha, listing, "🎞 1") == RU("replay-preparing")
            (sent,) = await fake.wait_until(lambda: files(fake, masha, "animation") or None, 60)
            assert sent.uploaded and sent.file is not None
            gif = Image.open(io.BytesIO(sent.file.data))
            assert gif.n_frames == len(record["rounds"][0]["moves"]) + 1
            # a second press sends the same file again by its id, drawing nothing
            assert await press(fake, masha, listing, "🎞 1") == RU("replay-preparing")
            again = await fake.wait_until(
                lambda: (f := files(fake, masha, "animation"))[1:] and f[1], 20
            )
            assert not again.uploaded and again.file is not None
            assert again.file.file_unique_id == sent.file.file_unique_id

            # «📄 Запись»: the record as a file in private
            assert await press(fake, masha, listing, RU("history-record-button")) == RU(
                "history-sent-private"
            )
            (document,) = await fake.wait_until(lambda: files(fake, masha, "document") or None)
            assert document.file is not None
            assert json.loads(document.file.data) == record

            # /export: JSON Lines, a game a line, no user id anywhere
            asked = await say(fake, bot, masha, group, "/export")
            exported = await fake.wait_until(
                lambda: next(
                    (
                        m
                        for m in bot_messages(fake, group)
                        if m.message_id > asked.message_id and m.file is not None
                    ),
                    None,
                )
            )
            assert exported.file is not None
            lines = exported.file.data.decode().splitlines()
            assert [json.loads(line) for line in lines] == [record]
            for user in (masha, serge):
                assert str(user.id) not in exported.file.data.decode()
            # … and only for admins
            refused = await ask(fake, bot, serge, group, "/export")
            assert refused.content == RU("admins-only")

            # «🔍 Разбор» under Маша's closed hand: at most three moves, each a position
            hand = await fake.wait_until(lambda: with_button(fake, masha, RU("review-button")))
            assert await press(fake, masha, hand, RU("review-button")) == RU("review-preparing")
            summary = await wait_text(
                fake, masha, RU("review-none", game=0, looked=0, total=0)[:8], 300
            )
            await bot.idle()
            shown = pictures_after(fake, masha, summary)
            assert len(shown) <= 3
            if RU("review-none", game=0, looked=0, total=0)[:20] in (summary.content or ""):
                assert shown == []
            for picture in shown:
                assert (picture.caption or "").startswith(
                    RU("review-slip", round=1, move=1, played="", better="", change="")[:5]
                )
            if shown:  # then the record with the review's marks, for a viewer
                marked = await fake.wait_until(
                    lambda: (d := files(fake, masha, "document"))[1:] and d[-1], 20
                )
                assert marked.file is not None
                with_marks = json.loads(marked.file.data)
                jsonschema.validate(with_marks, SCHEMA)
                assert len(with_marks["review"]) == len(shown)


async def test_a_shared_deal_deals_the_same_hands_elsewhere(tmp_path: Path) -> None:
    """A finished round's code, in another chat: `/newgame deal=CODE` deals its hands to
    the same seats; `/deal CODE` then shows both tables, the other without names."""
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(name) for name in NAMES[:3])
        group = fake.add_group("Двор", [masha, serge])
        other = fake.add_group("Сквер", [olya, serge])
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, [masha, serge], QUICK)
            (game,) = games_in(tmp_path, group.id)
            dealt_code = RU("round-deal-code", code="").split(":")[0]
            await play_until(fake, group, [masha, serge], random.Random(2), text=dealt_code)
            await bot.idle()
            (row,) = query(
                tmp_path,
                "SELECT deal_code FROM round_results WHERE game_id = ? AND round_no = 1",
                game["id"],
            )
            code = row["deal_code"]
            result = find(fake, group, code)
            assert result is not None and RU("replay-button") in buttons(result)

            lobby = await start_game(fake, other, [olya, serge], f"deal={code}")
            said = [r.text or "" for r in lobby.history]
            assert any(RU("deal-lobby", code=code) in text for text in said)
            (shared,) = games_in(tmp_path, other.id)
            assert shared["dealt_from"] == code
            first = records.round_states(record_of(tmp_path, game["id"]), 1)[0]
            assert stored_state(tmp_path, shared["id"]).hands == first.hands

            told = await ask(fake, bot, masha, group, f"/deal {code.lower()}")
            assert code in (told.content or "") and olya.name not in (told.content or "")
            unknown = await ask(fake, bot, masha, group, "/deal NOSUCH")
            assert unknown.content == RU("deal-unknown", code="NOSUCH")
            # a code nobody dealt opens no lobby
            third = fake.add_group("Сад", [masha, serge])
            refused = await ask(fake, bot, masha, third, "/newgame deal=zzzzzz")
            assert refused.content == RU("deal-unknown", code="ZZZZZZ")
            assert games_in(tmp_path, third.id) == []


def record_of(folder: Path, game_id: int) -> dict[str, Any]:
    """Round 1's deal as a record gives it: replayed from the game's log by the engine."""
    (game,) = query(folder, "SELECT rules, seed FROM games WHERE id = ?", game_id)
    log = [
        records.Stamped(json.loads(r["entry"]))
        for r in query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    ]
    rules = RuleSet.from_options(json.loads(game["rules"]))
    seats = [records.Seat(f"{i}") for i in range(rules.players)]
    return records.build(rules, seats, game["seed"], log, records.Played(game_id))
