"""A game's life around the moves: restarts of the bot, /endgame, /leave, a player who
blocked the bot, a group upgraded to a supergroup, the bot removed from the group."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from bot.game import legal_moves
from bot.game.moves import Draw, Pass, Play
from bot.playground import Call, Chat, FakeTelegram, FloodLimits, Message, User
from bot.telegram.buttons import move_button
from tests.e2e.actions import (
    find,
    forge_press,
    is_end,
    join,
    last_update_id,
    open_lobby,
    play_moves,
    play_planned,
    play_until,
    press,
    press_refused,
    replies_to,
    say,
    seated,
    start_game,
    table_captions,
    turn_message,
    version_of,
    wait_text,
    wait_turn,
)
from tests.e2e.checks import check_finished_game, check_rating, plan_fish, without_badges
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, HAND, JOIN, NAMES, PLAYABLE, RU, SHORT, bot_messages
from tests.e2e.stored import fresh_state, games_in, query, replay_game, seats_of, stored_state


def status(folder: Path, game_id: int) -> tuple[str, str | None]:
    (row,) = query(folder, "SELECT status, end_reason FROM games WHERE id = ?", game_id)
    return row["status"], row["end_reason"]


def hand_of(fake: FakeTelegram, user: User) -> Message:
    """The user's hand message (the bot's message with tile buttons in their chat)."""
    (hand,) = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    return hand


async def test_restart_mid_round_keeps_every_press_and_finishes(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        rng = random.Random(7)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, SHORT)
            (game,) = games_in(tmp_path, group.id)
            after = await play_moves(fake, users, rng, 4)
            mover, hand = await wait_turn(fake, users, after)
            await bot.idle()
            log = await bot.stop()
            assert "Traceback" not in log
            # a press while the bot is down waits for the next process, which answers it as
            # soon as it is up: Telegram's window of a few seconds holds for a restart here
            # (~3 s), but a loaded CI machine has taken 15 s to start the bot, so the window
            # is widened for this one press
            button = next(b for row in hand.buttons for b in row if b.startswith(PLAYABLE))
            after = version_of(hand)
            window, fake.callback_timeout = fake.callback_timeout, 60
            query_id = fake.user_presses(mover, hand, button)
            await bot.start()
            answer = await fake.wait_until(lambda: fake.answer_for(query_id), 60)
            fake.callback_timeout = window
            if answer.text == RU("pick-end"):  # asked on the hand the restart sent anew
                hand = await fake.wait_until(lambda: hand_asking(fake, mover))
                await press(fake, mover, hand, hand.buttons[0][0])
            else:  # played: no refusal
                assert not answer.text or answer.text == RU("welcome-back"), answer
            # a crash (SIGKILL) a few moves later loses nothing either
            after = await play_moves(fake, users, rng, 3, after)
            await bot.idle()
            await bot.stop(signal.SIGKILL)
            old = {user.id: hand_of(fake, user) for user in users}
            await bot.start()
            await bot.idle()
            # the player to move gets their hand anew (it notifies), in place of the old one
            mover, hand = await wait_turn(fake, users, after)
            assert hand is not old[mover.id]
            assert old[mover.id] not in bot_messages(fake, mover)
            await play_until(fake, group, users, rng, after=after)
            await check_finished_game(fake, bot, group, users[0], game["id"])


async def test_endgame_is_confirmed_by_the_creator_or_an_admin(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya, dima = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля", "Дима"))
        group = fake.add_group("Двор", [masha, serge, olya, dima], admins=[dima])
        players = [masha, serge]
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players)
            (game,) = games_in(tmp_path, group.id)
            after = await play_moves(fake, players, random.Random(3), 2)
            for user in (olya, serge):
                asked = await say(fake, bot, user, group, "/endgame")
                (answer,) = replies_to(fake, group, asked)
                assert answer.content == RU("not-creator-or-admin")
            asked = await say(fake, bot, masha, group, "/endgame")
            (question,) = replies_to(fake, group, asked)
            assert question.content == RU("endgame-ask")
            assert await press_refused(fake, serge, question, RU("end-yes")) == (
                RU("not-creator-or-admin")
            )
            assert status(tmp_path, game["id"]) == ("active", None)
            assert await press(fake, masha, question, RU("end-no")) == RU("endgame-keep")
            await fake.wait_until(lambda: question.content == RU("endgame-keep"))
            after = await play_moves(fake, players, random.Random(4), 1, after)

            asked = await say(fake, bot, masha, group, "/endgame")
            (question,) = replies_to(fake, group, asked)
            assert await press(fake, masha, question, RU("end-yes")) == RU("cancelled")
            ended = RU("ended-by", name="Маша")
            await fake.wait_until(lambda: question.content == ended)
            assert status(tmp_path, game["id"]) == ("cancelled", "ended")
            await bot.idle()
            for user in players:
                hand = find(fake, user, RU("cancelled"))
                assert hand is not None and not hand.reply_markup
            for command, expected in (
                ("/rating", RU("no-rating-yet")),
                ("/score", RU("no-games-yet")),
            ):
                asked = await say(fake, bot, olya, group, command)
                (answer,) = replies_to(fake, group, asked)
                assert answer.content == expected

            # a chat admin who does not play may end a lobby
            lobby = await open_lobby(fake, group, serge)
            asked = await say(fake, bot, dima, group, "/endgame")
            (question,) = replies_to(fake, group, asked)
            assert await press(fake, dima, question, RU("end-yes")) == RU("cancelled")
            await fake.wait_until(lambda: lobby.content == RU("cancelled"))
            assert not lobby.reply_markup
            assert [row["status"] for row in games_in(tmp_path, group.id)] == ["cancelled"] * 2


async def test_only_the_asker_may_decline_endgame(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля"))
        group = fake.add_group("Двор", [masha, serge, olya])
        async with running_bot(fake, tmp_path) as bot:
            await open_lobby(fake, group, masha)
            asked = await say(fake, bot, masha, group, "/endgame")
            (question,) = replies_to(fake, group, asked)
            query_id = fake.user_presses(olya, question, RU("end-no"))
            await bot.handled(last_update_id(fake))
            answer = fake.answer_for(query_id)
            assert answer is not None and answer.text == RU("not-creator-or-admin"), answer
            assert question.content == RU("endgame-ask")


async def test_leave_hands_the_seat_to_the_computer_and_the_timeout_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.05")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:5]]
        group = fake.add_group("Двор", users)
        players, alex, dima = users[:3], users[3], users[4]
        async with running_bot(fake, tmp_path) as bot:
            # in the lobby /leave just frees the seat
            lobby = await open_lobby(fake, group, players[0], SHORT)
            for user in [*players, alex]:
                await join(fake, group, user, lobby)
            asked = await say(fake, bot, alex, group, "/leave")
            assert [m.content for m in replies_to(fake, group, asked)] == [RU("left-table")]
            await fake.wait_until(lambda: seated(lobby) == [u.name for u in players])
            assert await press(fake, players[0], lobby, "▶ Начать") == "Раздаю!"
            rng = random.Random(11)
            # a few moves into the first round (a round cannot end so soon, a game neither)
            await play_moves(fake, players, rng, 4)
            (game,) = games_in(tmp_path, group.id)
            await bot.idle()

            asked = await say(fake, bot, dima, group, "/leave")
            (answer,) = replies_to(fake, group, asked)
            assert answer.content == RU("not-a-player")
            leaver, staying = players[1], [players[0], players[2]]
            asked = await say(fake, bot, leaver, group, "/leave")
            # the computer may move for the leaver at once; the reply comes before that
            assert replies_to(fake, group, asked)[0].content == RU("left-table")
            note = RU("left-game-note", name=leaver.name)
            await fake.wait_until(lambda: any(note in c for c in table_captions(fake, group)))

            # the two who stay play on; the computer moves for the leaver
            await play_until(fake, group, staying, rng)
            state = await check_finished_game(fake, bot, group, dima, game["id"])
            assert state.outcome is not None and state.outcome.reason != "timeout"
            seat = seats_of(tmp_path, game["id"]).index(leaver.id)
            assert state.left == (seat,)
            end = find(fake, group, GAME_OVER)
            assert end is not None
            last = without_badges(end.content or "").splitlines()[-2]  # the last place, the game
            assert f"{leaver.name} — " in last and "🐐" in last and last.endswith("+0")
            await bot.idle()
            for user in players:
                assert not hand_of_or_none(fake, user), f"{user.name} still has buttons"


def hand_asking(fake: FakeTelegram, user: User) -> Message | None:
    """The user's hand message showing the left/right choice."""
    asking = [m for m in bot_messages(fake, user) if any(is_end(row[0]) for row in m.buttons)]
    return asking[-1] if asking else None


def hand_of_or_none(fake: FakeTelegram, user: User) -> Message | None:
    hands = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    return hands[0] if hands else None


async def test_the_last_person_to_leave_ends_the_game_and_score_counts_finished_rounds(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            await play_moves(fake, users, random.Random(1), 2)
            await say(fake, bot, users[1], group, "/leave")  # the computer takes the seat
            await say(fake, bot, users[0], group, "/leave")  # nobody left to play: it ends
            end = await wait_text(fake, group, RU("game-over-timeout", name=users[1].name))
            rows = without_badges(end.content or "").splitlines()[1:-1]  # both leavers: goats
            assert sorted(row.split(" — ")[0][3:] for row in rows) == sorted(NAMES[:2]), rows
            assert all(row.endswith("🐐 козёл, очки партии +0") for row in rows), rows
            asked = await say(fake, bot, users[0], group, "/score")
            (answer,) = replies_to(fake, group, asked)
            # no round was played to the end
            assert (answer.content or "").startswith("Счёт после раунда 0:"), answer.content


def notices(fake: FakeTelegram, group: Chat, user: User) -> list[Message]:
    """The group's messages telling `user` to open the bot again."""
    return [
        m
        for m in bot_messages(fake, group)
        if "не могу написать" in (m.content or "") and user.name in (m.content or "")
    ]


async def block_before_turn(
    fake: FakeTelegram, group: Chat, players: list[User]
) -> tuple[User, User]:
    """The player not to move blocks the bot; the mover moves, so the bot has to write to
    the blocked one. (blocked, the other)"""
    mover, _ = await wait_turn(fake, players)
    blocked = next(user for user in players if user is not mover)
    fake.user_blocks_bot(blocked)
    await play_moves(fake, players, random.Random(2), 1)
    notice = await wait_text(fake, group, "не могу написать")
    assert blocked.name in (notice.content or "")
    assert notice.reply_markup is not None
    (button,) = [b for row in notice.reply_markup for b in row]
    assert button["url"] == "https://t.me/kozel_bot?start=hi"
    return blocked, mover


async def test_a_player_who_blocked_the_bot_is_asked_back_once(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            (game,) = games_in(tmp_path, group.id)
            blocked, other = await block_before_turn(fake, group, users)
            # the other player cannot move for them
            hand = hand_of(fake, other)
            alert = await press_refused(fake, other, hand, hand.buttons[0][0])
            assert alert == RU("not-your-turn")
            # a restart redraws every hand (403 again), the creator ends the game (403 again)
            await bot.idle()
            await bot.stop()
            await bot.start()
            asked = await say(fake, bot, users[0], group, "/endgame")
            (question,) = replies_to(fake, group, asked)
            assert await press(fake, users[0], question, RU("end-yes")) == RU("cancelled")
            await fake.wait_until(lambda: status(tmp_path, game["id"])[0] == "cancelled")
            await fake.wait_until(lambda: find(fake, other, RU("cancelled")))
            await bot.idle()
            # Telegram's word that they blocked it came first: nothing was even tried
            assert not [c for c in calls_to(fake, blocked) if not c.ok]
            assert len(notices(fake, group, blocked)) == 1


def calls_to(fake: FakeTelegram, user: User, after: int = 0) -> list[Call]:
    """The bot's requests into `user`'s private chat, from index `after` of the calls."""
    return [c for c in fake.calls[after:] if c.params.get("chat_id") == str(user.id)]


def hand_sent(fake: FakeTelegram, user: User, after: int) -> bool:
    """Whether a hand went to `user` since index `after` of the calls."""
    return any(
        c.ok and c.method == "sendMessage" and HAND in str(c.params.get("text"))
        for c in calls_to(fake, user, after)
    )


async def move_by_forgery(fake: FakeTelegram, folder: Path, game_id: int) -> None:
    """The seat to move makes a legal move through a button carrying the stored version
    (its hand may be out of date: the bot cannot write to it), and it is stored."""
    (row,) = query(folder, "SELECT version FROM games WHERE id = ?", game_id)
    version = int(row["version"])
    state = stored_state(folder, game_id)
    user = fake.users[seats_of(folder, game_id)[state.to_move]]
    move = next(m for m in legal_moves(state) if isinstance(m, (Play, Draw, Pass)))
    table = bot_messages(fake, next(c for c in fake.chats.values() if c.is_group))[-1]
    query_id = forge_press(fake, user, table, move_button(game_id, version, move).pack())
    await fake.wait_until(lambda: fake.answer_for(query_id), 20)
    await fake.wait_until(
        lambda: query(folder, "SELECT version FROM games WHERE id = ?", game_id)[0][0] > version
    )


async def test_after_a_refusal_nothing_more_is_sent_until_they_write_again(
    tmp_path: Path,
) -> None:
    """The block's update never reached the bot: its first request is refused (403), the
    group is told once, and while the game goes on nothing more is sent to that chat —
    until the person writes to the bot again, when their hand comes anew."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, "turn_timeout=0")
            (game,) = games_in(tmp_path, group.id)
            await bot.idle()
            blocked = users[1]
            blocked.blocked = True  # in Telegram only; the bot hears of it by a 403
            since = len(fake.calls)
            for _ in range(8):
                await move_by_forgery(fake, tmp_path, game["id"])
            await bot.idle()
            refused = calls_to(fake, blocked, since)
            assert [c.status for c in refused] == [403], refused
            notice = await wait_text(fake, group, "не могу написать")
            assert blocked.name in (notice.content or "")
            assert len(notices(fake, group, blocked)) == 1
            # they write to the bot (anything, not only /start): reachable, the hand anew
            blocked.blocked = False
            since = len(fake.calls)
            fake.user_sends(blocked, blocked, "привет")
            await fake.wait_until(lambda: hand_sent(fake, blocked, since))


async def test_a_player_who_unblocks_the_bot_gets_their_hand(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, "turn_timeout=0")
            (game,) = games_in(tmp_path, group.id)
            blocked = users[0]
            fake.user_blocks_bot(blocked)
            await wait_text(fake, group, "не могу написать")
            for _ in range(3):
                await move_by_forgery(fake, tmp_path, game["id"])
            await bot.idle()
            since = len(fake.calls)
            fake.user_unblocks_bot(blocked)  # Telegram's «Restart»: my_chat_member
            await fake.wait_until(lambda: hand_sent(fake, blocked, since))
            assert len(notices(fake, group, blocked)) == 1


async def test_a_player_back_after_blocking_gets_their_hand(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            blocked, _ = await block_before_turn(fake, group, users)
            notice = notices(fake, group, blocked)[0]
            assert notice.reply_markup is not None
            fake.follow_link(blocked, notice.reply_markup[0][0]["url"])
            await bot.handled(last_update_id(fake))
            # it is their turn: the hand with the current buttons is in their chat again
            found = await fake.wait_until(lambda: turn_message(fake, users, -1), 5)
            assert found[0] is blocked
            await play_until(fake, group, users, random.Random(9))


async def test_group_upgraded_mid_game_keeps_its_game_and_scores(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:3]]
        group = fake.add_group("Двор", users)
        players = users[:2]
        rng = random.Random(21)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players, SHORT)
            await play_until(fake, group, players, rng)
            (first,) = games_in(tmp_path, group.id)
            await check_finished_game(fake, bot, group, users[2], first["id"])

            await start_game(fake, group, players, SHORT)
            second = games_in(tmp_path, group.id)[-1]
            after = await play_moves(fake, players, rng, 3)
            await bot.idle()
            upgrade = len(fake.calls)
            upgraded = fake.migrate_group_to_supergroup(group)
            await fake.wait_until(lambda: len(games_in(tmp_path, upgraded.id)) == 2)
            assert games_in(tmp_path, group.id) == []
            asked = await say(fake, bot, users[2], upgraded, "/score")
            (answer,) = replies_to(fake, upgraded, asked)
            assert (answer.content or "").startswith("Счёт после раунда 0:")
            await play_until(fake, upgraded, players, rng, after=after)
            await check_finished_game(fake, bot, upgraded, users[2], second["id"], since=0)
            rows = await check_rating(fake, bot, upgraded, users[2])
            assert {name: line.games for name, _, line in rows} == {"Маша": 2, "Серёжа": 2}
            # after the upgrade the old id was only tried by calls already in flight
            late = [c for c in fake.calls[upgrade:] if c.params.get("chat_id") == str(group.id)]
            assert all(c.parameters == {"migrate_to_chat_id": upgraded.id} for c in late), late


async def test_after_an_upgrade_old_message_ids_are_not_used_in_the_new_chat(
    tmp_path: Path,
) -> None:
    """The supergroup numbers its messages from 1 again: the old table's id (#3 in the
    basic group) is the id of the bot's answer to /score there."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        rng = random.Random(5)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            await bot.idle()
            (game,) = games_in(tmp_path, group.id)
            assert game["table_message_id"] == 3
            after = await play_moves(fake, users, rng, 2)
            await bot.idle()
            upgraded = fake.migrate_group_to_supergroup(group)
            await fake.wait_until(lambda: games_in(tmp_path, upgraded.id))
            asked = await say(fake, bot, users[0], upgraded, "/score")
            (answer,) = replies_to(fake, upgraded, asked)
            assert answer.message_id == 3
            score = answer.content
            await play_moves(fake, users, rng, 1, after)
            await fake.wait_until(lambda: any(m.photo for m in bot_messages(fake, upgraded)))
            assert answer.content == score and answer.photo is None


async def test_bot_removed_from_the_group_cancels_its_game(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            (game,) = games_in(tmp_path, group.id)
            after = await play_moves(fake, users, random.Random(8), 2)
            _, hand = await wait_turn(fake, users, after)
            await bot.idle()
            calls = len(fake.calls)
            fake.bot_removed_from(group)
            await bot.handled(last_update_id(fake))
            assert status(tmp_path, game["id"]) == ("cancelled", "bot_removed")
            # the hands say so and lose their buttons
            await fake.wait_until(lambda: hand.content == RU("removed-from-group"))
            assert not hand.reply_markup
            # nothing was sent to the group it is no longer in
            assert not [c for c in fake.calls[calls:] if c.params.get("chat_id") == str(group.id)]

            fake.bot_added_to(group, users[1])
            lobby = await open_lobby(fake, group, users[1])
            assert seated(lobby) == ["Серёжа"]
            assert [row["status"] for row in games_in(tmp_path, group.id)] == ["cancelled", "lobby"]
            await join(fake, group, users[1], lobby)
            assert any(JOIN in row for row in lobby.buttons)


async def test_a_stop_while_messages_are_sent_loses_none_of_them(tmp_path: Path) -> None:
    """The round's last move is stored and answered; the bot edits the table, then waits
    out a 429 (flood control) before sending the round's result, and is stopped then.
    The next process should still tell the group how the round ended."""
    async with FakeTelegram(flood_limits=FloodLimits(group_per_minute=1)) as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            (game,) = games_in(tmp_path, group.id)
            state = fresh_state(tmp_path, game["id"])
            plan = plan_fish(state)
            after = -1
            for move in plan[:-1]:
                _, after = await play_planned(fake, users, state.rules, move, after)
            await bot.idle()
            fake.flood = True
            await play_planned(fake, users, state.rules, plan[-1], after)
            await fake.wait_until(lambda: fake.flood_events)
            await bot.stop()
            fake.flood = False
            await bot.start()
            await bot.idle()
            assert replay_game(tmp_path, game["id"]).round_no == 2
            await wait_text(fake, group, "Раунд 1: рыба", timeout=5)


async def test_bad_gateways_are_retried_and_the_game_goes_on(tmp_path: Path) -> None:
    """Telegram answers 502 to the table edit, the first hand sent on a turn and the hands
    edited after, twice each: the bot waits a little longer each time and sends them again,
    so the moves show and play goes on."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, "goat turn_timeout=0")
            await bot.idle()
            fake.outages |= {"editmessagemedia": 2, "sendmessage": 2, "editmessagetext": 2}
            since = len(fake.calls)
            await play_moves(fake, users, random.Random(5), 3)
            failed = [c for c in fake.calls[since:] if c.status == 502]
            assert len(failed) == 6, failed
            assert fake.outages == {"editmessagemedia": 0, "sendmessage": 0, "editmessagetext": 0}
            (game,) = games_in(tmp_path, group.id)
            assert game["version"] == 3
