"""Faults never freeze a game: a press whose answer fails (too old, Bot API errors, slow),
messages that fail for a while, and a 429 on a read."""

from __future__ import annotations

import random
from pathlib import Path

from bot.game.engine import legal_moves
from bot.game.moves import Play
from bot.playground import FakeTelegram, Message
from tests.e2e.actions import (
    button_for,
    dealt,
    forged_refused,
    join,
    open_lobby,
    play_moves,
    press,
    press_refused,
    replies_to,
    say,
    seated,
    start_game,
    table_captions,
    version_of,
    wait_text,
    wait_turn,
)
from tests.e2e.process import BotProcess, running_bot, stretched
from tests.e2e.shown import EXTRAS, JOIN, NAMES, RU, START, bot_messages
from tests.e2e.stored import games_in, query, stored_state

OUT = "sendmessage editmessagetext editmessagemedia sendphoto editmessagereplymarkup"
"""The methods that carry the game's messages."""


def a_move(folder: Path, game_id: int, hand: Message) -> str:
    """A button of the hand that moves at once (no end to choose)."""
    state = stored_state(folder, game_id)
    plays = [m for m in legal_moves(state) if isinstance(m, Play)]
    once = [
        m for m in plays if len(set(state.ends)) < 2 or [p.tile for p in plays].count(m.tile) == 1
    ]
    if once:
        return button_for(state.rules, once[0])
    return next(b for row in hand.buttons for b in row if b in EXTRAS)


async def test_a_press_answered_too_late_still_moves_the_game_on(tmp_path: Path) -> None:
    """The bot is down while the player to move presses; it comes back 16 s later: the
    answer is too old, but the move is stored and the next player gets their hand, the
    table is edited and the clock runs (▶ Start the same)."""
    async with FakeTelegram() as fake:
        players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        bot = BotProcess(fake, tmp_path)
        await bot.start()
        try:
            # a clock that does not run out while the bot is down (a slow start included)
            lobby = await open_lobby(fake, group, players[0], f"turn_timeout={stretched(30)}")
            for user in players:
                await join(fake, group, user, lobby)
            await bot.idle()
            await bot.stop()
            fake.user_presses(players[0], lobby, START)
            fake.advance(16)
            await bot.start()
            await dealt(fake, group, lobby, players)  # dealt, table and hands shown

            user, hand = await wait_turn(fake, players)
            version = version_of(hand)
            await bot.idle()
            await bot.stop()
            tables = len(table_captions(fake, group))
            edits = len([c for c in fake.calls_of("editMessageMedia") if c.status == 200])
            query_id = fake.user_presses(
                user, hand, a_move(tmp_path, games_in(tmp_path, group.id)[-1]["id"], hand)
            )
            fake.advance(16)
            await bot.start()
            other, _ = await wait_turn(fake, players, version)
            assert other is not user
            assert fake.answer_for(query_id) is None  # too late: Telegram refused it
            assert fake.callback_queries[query_id].late_answers >= 1
            fake.callback_queries.pop(query_id)  # the person's client gave up waiting too
            await bot.idle()
            moved = [c for c in fake.calls_of("editMessageMedia") if c.status == 200]
            assert len(moved) > edits or len(table_captions(fake, group)) > tables
            (game,) = games_in(tmp_path, group.id)
            assert game["deadline"] is not None  # the next person's clock runs
        finally:
            if bot.process is not None:
                await bot.stop()
        assert "Traceback" not in bot.log, bot.log


async def test_answers_and_messages_failing_for_a_while_do_not_stop_the_game(
    tmp_path: Path,
) -> None:
    """500s for callback answers during a press until the bot gives the answer up, then
    failing sends and edits (answers working) until one has failed and for 10 s more, in an
    untimed game: each time the game moves on."""
    async with FakeTelegram() as fake:
        players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players, "turn_timeout=0")
            game_id = games_in(tmp_path, group.id)[-1]["id"]
            user, hand = await wait_turn(fake, players)
            version = version_of(hand)

            fake.fail("answerCallbackQuery", code=500, description="Internal Error")
            pressed = fake.user_presses(user, hand, a_move(tmp_path, game_id, hand))
            other, hand = await wait_turn(fake, players, version)
            assert other is not user
            await fake.wait_until(lambda: "callback answer given up" in bot.log, 20)
            fake.faults.clear()
            await bot.idle()
            assert fake.answer_for(pressed) is None  # given up, not retried for ever
            fake.callback_queries.pop(pressed)  # the person's client gave up waiting too

            version = version_of(hand)
            fake.fail(OUT)
            pressed = fake.user_presses(other, hand, a_move(tmp_path, game_id, hand))
            assert (await fake.wait_until(lambda: fake.answer_for(pressed), 20)).text is None
            await fake.wait_until(
                lambda: any(c.status == 502 for c in fake.calls_of("editMessageText"))
            )
            fake.fail(OUT, seconds=10)
            back, hand = await wait_turn(fake, players, version)
            assert back is user
            await play_moves(fake, players, random.Random(2), 3, version_of(hand) - 1)


async def test_a_slow_answer_does_not_hold_the_game_back(tmp_path: Path) -> None:
    """Telegram takes 8 s to answer ▶ Start and then a tile's press: the table and the
    hands come, and the next player's hand too, while the answer is still on its way."""
    delay = 8.0
    async with FakeTelegram() as fake:
        players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path):
            lobby = await open_lobby(fake, group, players[0], "turn_timeout=0")
            for user in players:
                await join(fake, group, user, lobby)
            fake.slow("answerCallbackQuery", delay, times=1)
            started = fake.user_presses(players[0], lobby, START)
            await dealt(fake, group, lobby, players)
            assert fake.answer_for(started) is None  # shown before the answer came back
            await fake.wait_until(lambda: fake.answer_for(started), 2 * delay)

            game_id = games_in(tmp_path, group.id)[-1]["id"]
            user, hand = await wait_turn(fake, players)
            fake.slow("answerCallbackQuery", delay, times=1)
            pressed = fake.user_presses(user, hand, a_move(tmp_path, game_id, hand))
            other, _ = await wait_turn(fake, players, version_of(hand))
            assert other is not user
            assert fake.answer_for(pressed) is None
            await fake.wait_until(lambda: fake.answer_for(pressed), 2 * delay)


async def test_a_429_on_a_read_is_waited_out(tmp_path: Path) -> None:
    """The admin check (getChatMember) answered 429: the bot waits out retry_after instead
    of asking again at once, then answers."""
    async with FakeTelegram() as fake:
        masha = fake.add_user(NAMES[0])
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path) as bot:
            fake.fail(
                "getChatMember",
                times=1,
                code=429,
                description="Too Many Requests: retry after 2",
                retry_after=2,
            )
            asked = await say(fake, bot, masha, group, "/settings")
            (menu,) = [m for m in bot_messages(fake, group) if m.message_id > asked.message_id]
            assert (menu.content or "").startswith(RU("settings-title", chat="Двор"))
            calls = fake.calls_of("getChatMember")
            assert [c.status for c in calls] == [429, 200]
            assert calls[1].started - calls[0].started >= 2


async def test_unbounded_numbers_and_long_arguments_get_short_answers(tmp_path: Path) -> None:
    """Numbers past every range, ids past 64 bits and a 5,000-character argument: each
    gets a short answer and changes nothing."""
    async with FakeTelegram() as fake:
        masha = fake.add_user(NAMES[0])
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path) as bot:
            for command in (
                "/newgame turn_timeout=" + "9" * 400,
                "/newgame target=" + "9" * 5000,
                "/newgame colour=" + "к" * 5000,
                "/newgame " + "x" * 5000,
            ):
                asked = await say(fake, bot, masha, group, command)
                (answer,) = replies_to(fake, group, asked)
                content = answer.content or ""
                assert 0 < len(content) < 400, content
                assert not any(c * 100 in content for c in "9кx")  # cut, or not echoed at all
            assert games_in(tmp_path, group.id) == []

            asked = await say(fake, bot, masha, masha, "/start j" + "9" * 20)
            (answer,) = replies_to(fake, masha, asked)
            assert answer.content == RU("help-private")
            lobby = await open_lobby(fake, group, masha)
            for forged in (
                f"l:{2**64}:start",
                f"m:{2**64}:1:t:1:-1",
                f"m:1:{2**70}:t:1:-1",
                f"o:{2**64}:target:150",
                f"r:{2**64}",
            ):
                assert await forged_refused(fake, masha, lobby, forged) == RU("outdated-button")
            assert [g["status"] for g in games_in(tmp_path, group.id)] == ["lobby"]


async def test_long_and_tricky_names_never_stop_the_table(tmp_path: Path) -> None:
    """Four players with 64+64-character names, a right-to-left override and a name of
    invisible characters: every caption fits, no control character reaches a chat, the
    blank name shows as the @username."""
    async with FakeTelegram() as fake:
        players = [fake.add_user("Б" * 64, last_name=f"{n}" * 64) for n in "ВГ"]
        players.append(fake.add_user("Маша\u202e", last_name="42 очка"))
        players.append(fake.add_user("\u200b\u2063", username="ghost"))
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path) as bot:
            lobby = await open_lobby(fake, group, players[0])
            for count, user in enumerate(players, start=1):
                fake.follow_link(user, fake.user_presses(user, lobby, JOIN))
                await fake.wait_until(lambda count=count: len(seated(lobby)) == count, 20)
            assert "@ghost" in seated(lobby)
            assert f"{'Б' * 23}…" in seated(lobby)
            assert await press(fake, players[0], lobby, START) == RU("dealing")
            await dealt(fake, group, lobby, players)
            await play_moves(fake, players, random.Random(4), 6)
            await bot.idle()
        captions = table_captions(fake, group)
        assert len(captions) >= 1 and all(len(c) <= 1024 for c in captions)
        assert not [c for c in fake.errors() if c.method.lower().startswith(("send", "edit"))]
        for chat in [group, *players]:
            for message in bot_messages(fake, chat):
                assert "\u202e" not in (message.content or ""), message


async def test_only_members_sit_down_through_a_secret_link(tmp_path: Path) -> None:
    """The lobby's link carries a random token, not the game's id; someone Telegram says is
    not in the group is refused even with the right link."""
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        eve = fake.add_user("Ева")
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path):
            lobby = await open_lobby(fake, group, masha)
            (game,) = games_in(tmp_path, group.id)
            (url,) = [b["url"] for row in lobby.reply_markup or [] for b in row if "url" in b]
            token = game["join_token"]
            assert url.endswith(f"?start=j{token}") and len(token) == 16
            fake.follow_link(eve, url)
            await wait_text(fake, eve, RU("join-not-member"))
            fake.follow_link(eve, f"https://t.me/kozel_bot?start=j{game['id']}")
            await wait_text(fake, eve, RU("join-link-outdated"))
            for user in (masha, serge):
                await join(fake, group, user, lobby)
            assert seated(lobby) == ["Маша", "Серёжа"]


async def test_every_set_the_engine_accepts_is_drawn(tmp_path: Path) -> None:
    """`/newgame players=2 max_pip=12 hand_size=45`: dealt, the table drawn and edited."""
    async with FakeTelegram() as fake:
        players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players, "players=2 max_pip=12 hand_size=45")
            await play_moves(fake, players, random.Random(12), 2)
            await bot.idle()
            assert len(table_captions(fake, group)) >= 1
            assert [c for c in fake.calls_of("editMessageMedia") if c.status == 200]
            assert not fake.errors()


async def test_kick_of_a_shared_name_asks_which_seat(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha = fake.add_user(NAMES[0])
        olyas = [fake.add_user("Оля"), fake.add_user("Оля")]
        group = fake.add_group("Двор", [masha, *olyas])
        async with running_bot(fake, tmp_path) as bot:
            lobby = await open_lobby(fake, group, masha)
            for user in (masha, *olyas):
                await join(fake, group, user, lobby)
            await fake.wait_until(lambda: seated(lobby) == ["Маша", "Оля", "Оля"])
            asked = await say(fake, bot, masha, group, "/kick Оля")
            (question,) = replies_to(fake, group, asked)
            assert question.content == RU("kick-which")
            assert question.buttons == [
                [RU("kick-seat", name="Оля", seat=2)],
                [RU("kick-seat", name="Оля", seat=3)],
            ]
            first = question.buttons[0][0]
            assert await press_refused(fake, olyas[0], question, first) == RU(
                "not-creator-or-admin"
            )
            answer = await press(fake, masha, question, RU("kick-seat", name="Оля", seat=3))
            assert answer == RU("kicked", name="Оля")
            await fake.wait_until(lambda: seated(lobby) == ["Маша", "Оля"])
            (game,) = games_in(tmp_path, group.id)
            seats = query(tmp_path, "SELECT user_id FROM players WHERE game_id = ?", game["id"])
            assert [row["user_id"] for row in seats] == [masha.id, olyas[0].id]
