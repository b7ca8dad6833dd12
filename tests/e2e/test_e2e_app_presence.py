"""A person at the table in the app costs Telegram nothing for their hand: through the real
bot process, while Маша's page holds the game's stream her private hand is neither edited
nor sent anew, whoever moves (she from the app, Серёжа from his private hand); when her
turn comes and her phone puts the app away (the page lets the stream go), her private hand
is brought up to date at once, as a fresh message that notifies. With both players in the
app, the group's picture waits for the round's end, which takes the round's table message's
place with its score sheet."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.game.engine import legal_moves
from bot.playground import Chat, FakeTelegram, User
from tests.e2e.actions import play_move, start_game, version_of
from tests.e2e.app_client import bearer, choice_of, next_table
from tests.e2e.process import BotProcess, running_bot
from tests.e2e.shown import NAMES, RU, YOUR_TURN, bot_messages
from tests.e2e.stored import games_in, seats_of, stored_state

OPTIONS = "goat turn_timeout=0"
MOVES = 6  # moves made while she is in the app
ROUND = RU("round-fish", round=1, name="").split(":")[0]  # «Раунд 1», how a sheet begins


def to_her(fake: FakeTelegram, user: User) -> int:
    """The sends and edits that reached `user`'s private chat so far."""
    return sum(
        1
        for call in fake.calls
        if call.method.lower() in ("sendmessage", "editmessagetext", "editmessagereplymarkup")
        and str(call.params.get("chat_id")) == str(user.id)
    )


async def test_a_hand_waits_while_its_person_is_in_the_app(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge = users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path, webapp=True) as bot, aiohttp.ClientSession() as web:
            await start_game(fake, group, users, OPTIONS)
            (game,) = games_in(tmp_path, group.id)
            await bot.idle()
            seats = seats_of(tmp_path, game["id"])
            her_seat = seats.index(masha.id)
            base = await bot.app_base()
            headers = await bearer(web, base, fake, masha, f"g{game['join_token']}")
            stream = await web.get(f"{base}/api/stream", headers=headers)
            view = await next_table(stream, 30)
            before = to_her(fake, masha)

            rng, moved = random.Random(3), 0
            while moved < MOVES:
                state = stored_state(tmp_path, game["id"])
                if state.to_move == her_seat:  # she moves in the app
                    choice = choice_of(rng.choice(legal_moves(state)))
                    body = {"version": view["version"], "choice": choice}
                    acted = await web.post(f"{base}/api/act", json=body, headers=headers)
                    assert acted.status == 200, await acted.text()
                else:  # he moves from his private hand
                    await play_move(fake, [serge], rng, view["version"] - 1)
                seen = view["version"]
                while view["version"] == seen:  # until the move is on the table
                    view = await next_table(stream, 30)
                moved += 1
            while stored_state(tmp_path, game["id"]).to_move != her_seat:
                await play_move(fake, [serge], rng, view["version"] - 1)
                view = await next_table(stream, 30)
            await bot.idle()
            assert to_her(fake, masha) == before, "her hand waits while she is in the app"

            stream.close()  # her phone puts the app away at her turn
            version = view["version"]

            def current() -> bool:
                hands = [m for m in bot_messages(fake, masha) if version_of(m) >= 0]
                return (
                    bool(hands)
                    and version_of(hands[-1]) == version
                    and (YOUR_TURN in (hands[-1].content or ""))
                )

            await fake.wait_until(current, 10)
            fresh = [c for c in fake.calls if c.method.lower() == "sendmessage"]
            assert str(fresh[-1].params["chat_id"]) == str(masha.id)  # a new message: it notifies
            assert fresh[-1].params.get("disable_notification") in (None, False, "false")


async def all_in_the_app(
    fake: FakeTelegram,
    tmp_path: Path,
    bot: BotProcess,
    web: aiohttp.ClientSession,
    group: Chat,
    users: list[User],
) -> tuple[dict[str, Any], str, dict[int, dict[str, str]], dict[int, aiohttp.ClientResponse]]:
    """A game of `users` started in `group`, each of them with the app's stream open: the
    game's row, the app's address, their passes' headers and their streams."""
    await start_game(fake, group, users, OPTIONS)
    (game,) = games_in(tmp_path, group.id)
    await bot.idle()
    base, start_param = await bot.app_base(), f"g{game['join_token']}"
    headers, streams = {}, {}
    for user in users:
        headers[user.id] = await bearer(web, base, fake, user, start_param)
        streams[user.id] = await web.get(f"{base}/api/stream", headers=headers[user.id])
    return game, base, headers, streams


def pictures(fake: FakeTelegram, chat_id: int) -> int:
    """The table pictures sent or edited in the group so far."""
    return sum(
        1
        for call in fake.calls
        if call.method.lower() in ("sendphoto", "editmessagemedia")
        and str(call.params.get("chat_id")) == str(chat_id)
    )


def edits_of(fake: FakeTelegram, chat_id: int, message_id: int) -> int:
    """The pictures `message_id` in `chat_id` was edited to so far."""
    return sum(
        1
        for call in fake.calls
        if call.method.lower() == "editmessagemedia"
        and str(call.params.get("chat_id")) == str(chat_id)
        and str(call.params.get("message_id")) == str(message_id)
    )


async def test_a_table_played_in_the_app_spares_the_groups_picture_until_the_round_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both players in the app: no move edits the group's picture (its calmer pace, here
    longer than the round) until the round's end, which it shows in the round's table's
    place (the table message edited into the score sheet: one message a round); the next
    round's table waits for the calm pace, a new message below it — after a restart too,
    when the bot shows what it stored."""
    monkeypatch.setenv("APP_PICTURE_SECONDS", "600")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path, webapp=True) as bot, aiohttp.ClientSession() as web:
            game, base, headers, streams = await all_in_the_app(
                fake, tmp_path, bot, web, group, users
            )
            seats = seats_of(tmp_path, game["id"])
            for stream in streams.values():
                view = await next_table(stream, 30)
            shown = pictures(fake, group.id)
            (dealt,) = games_in(tmp_path, group.id)
            table = dealt["table_message_id"]
            edited = edits_of(fake, group.id, table)
            rng = random.Random(5)
            first = view["view"]["round"]
            while view["view"]["round"] == first and view["view"]["phase"] == "playing":
                state = stored_state(tmp_path, game["id"])
                assert pictures(fake, group.id) == shown, "the group's picture waits"
                mover = seats[state.to_move]
                body = {
                    "version": view["version"],
                    "choice": choice_of(rng.choice(legal_moves(state))),
                }
                acted = await web.post(f"{base}/api/act", json=body, headers=headers[mover])
                while acted.status == 429:  # at most five presses a second, as a finger
                    await asyncio.sleep(0.3)
                    acted = await web.post(f"{base}/api/act", json=body, headers=headers[mover])
                assert acted.status == 200, await acted.text()
                seen = view["version"]
                while view["version"] == seen:
                    view = await next_table(streams[users[0].id], 30)
                await bot.idle()
            await fake.wait_until(lambda: pictures(fake, group.id) > shown, 30)
            await bot.idle()
            assert edits_of(fake, group.id, table) > edited, "the round's end is shown"
            (sheet,) = [m for m in fake.messages(group) if m.message_id == table]
            assert sheet.photo and (sheet.caption or "").startswith(ROUND), sheet.caption
            (after,) = games_in(tmp_path, group.id)
            assert after["table_message_id"] is None, "the round's table is let go of"
            below = [m for m in fake.messages(group) if m.photo and m.message_id > table]
            assert not below, "the sheet took its place; the next table waits for the calm pace"
            final = edits_of(fake, group.id, table)
            for stream in streams.values():
                stream.close()
        async with running_bot(fake, tmp_path, webapp=True):
            await fake.wait_until(lambda: games_in(tmp_path, group.id)[0]["table_message_id"], 30)
            (after,) = games_in(tmp_path, group.id)
            assert after["table_message_id"] > table, "a new message below"
            assert edits_of(fake, group.id, table) == final, "the round's own table is kept"


async def test_a_table_played_in_the_app_shows_the_group_its_moves_at_the_calm_pace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both players in the app: a move made there is not drawn for the group at once, but
    the group's picture follows by itself within `APP_PICTURE_SECONDS` (here 1 s; a few
    tables wait no longer than that), with no other move to bring it."""
    monkeypatch.setenv("APP_PICTURE_SECONDS", "1")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path, webapp=True) as bot, aiohttp.ClientSession() as web:
            game, base, headers, streams = await all_in_the_app(
                fake, tmp_path, bot, web, group, users
            )
            seats = seats_of(tmp_path, game["id"])
            view = await next_table(streams[users[0].id], 30)
            await bot.idle()
            shown = pictures(fake, group.id)
            state = stored_state(tmp_path, game["id"])
            body = {"version": view["version"], "choice": choice_of(legal_moves(state)[0])}
            mover = headers[seats[state.to_move]]
            acted = await web.post(f"{base}/api/act", json=body, headers=mover)
            assert acted.status == 200, await acted.text()
            await fake.wait_until(lambda: pictures(fake, group.id) > shown, 20)
            (moved,) = games_in(tmp_path, group.id)
            assert moved["version"] == view["version"] + 1, "nobody else moved"
            for stream in streams.values():
                stream.close()
