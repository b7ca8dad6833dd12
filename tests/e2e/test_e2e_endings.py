"""Every way a game ends leaves nothing live behind, and a lobby button never acts on a
running game; edits that would change nothing are never sent (restarts, double taps)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.playground import Chat, FakeTelegram, Message, User
from bot.playground.api.errors import NOT_MODIFIED
from bot.telegram.buttons import LobbyAct, LobbyAction, MoveButton
from tests.e2e.actions import (
    end_buttons,
    find,
    forge_press,
    forged_refused,
    open_lobby,
    play_moves,
    play_until,
    press,
    replies_to,
    say,
    start_game,
    table_captions,
    tiles_asking_an_end,
    turn_message,
    version_of,
    wait_turn,
)
from tests.e2e.process import BotProcess, running_bot
from tests.e2e.shown import EXTRAS, NAMES, PICK_END, PLAYABLE, RU, SHORT, bot_messages
from tests.e2e.stored import games_in, stored_state


def live_buttons(fake: FakeTelegram, user: User) -> list[str]:
    """Callback data of every button in the user's private chat with the bot."""
    return [
        button["callback_data"]
        for message in bot_messages(fake, user)
        for row in message.reply_markup or []
        for button in row
        if "callback_data" in button
    ]


def status_of(folder: Path, group_id: int) -> tuple[str, str | None]:
    game = games_in(folder, group_id)[-1]
    return game["status"], game["end_reason"]


async def test_a_stale_lobby_cancel_is_refused_and_endgame_closes_everything(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            lobby = await start_game(fake, group, [masha, serge])
            game_id = games_in(tmp_path, group.id)[-1]["id"]
            await play_moves(fake, [masha, serge], random.Random(3), 2)
            # a phone that has not seen the lobby's edit yet: ✖ and ▶ on a running game
            for action in (LobbyAct.CANCEL, LobbyAct.START, LobbyAct.SETTINGS):
                stale = LobbyAction(game=game_id, action=action).pack()
                assert await forged_refused(fake, masha, lobby, stale) == RU("game-started")
            assert status_of(tmp_path, group.id) == ("active", None)
            await bot.idle()
            assert any(data.startswith("m:") for data in live_buttons(fake, masha))

            # /endgame, confirmed: the table says so and every hand loses its buttons
            asked = await say(fake, bot, masha, group, "/endgame")
            (question,) = replies_to(fake, group, asked)
            assert await press(fake, masha, question, RU("end-yes")) == RU("cancelled")
            await bot.idle()
            assert status_of(tmp_path, group.id) == ("cancelled", "ended")
            caption = table_captions(fake, group)[-1]
            assert caption.splitlines()[-1] == RU("table-ended-ended"), caption
            assert "Ходит" not in caption
            for user in (masha, serge):
                assert live_buttons(fake, user) == [], user.name
                hand = find(fake, user, RU("cancelled"))
                assert hand is not None and not hand.reply_markup


def closed_over(question: Message) -> bool:
    """An /endgame question that says its game is over, and has no buttons."""
    return question.content == RU("endgame-over") and not question.reply_markup


async def stale_press_changes_nothing(
    fake: FakeTelegram, bot: BotProcess, user: User, question: Message, button: str
) -> None:
    """A press of `button` on a closed question (from a phone that has not seen the edit)
    says the game is over; the question stays as it is."""
    edits = len(question.history)
    assert question.history, "the question was never closed"
    (data,) = [
        b["callback_data"]
        for row in question.history[0].reply_markup or []
        for b in row
        if b["text"] == button
    ]
    assert await forged_refused(fake, user, question, data) == RU("endgame-over")
    await bot.idle()
    assert closed_over(question) and len(question.history) == edits


async def ask_to_end(fake: FakeTelegram, bot: BotProcess, user: User, group: Chat) -> Message:
    asked = await say(fake, bot, user, group, "/endgame")
    (question,) = replies_to(fake, group, asked)
    assert question.reply_markup, question
    return question


async def test_a_confirmation_left_from_an_ended_game_says_it_is_over(tmp_path: Path) -> None:
    """Three /endgame questions (a restart after the first); «Да» on the second ends the
    game: it says who ended it, and the other two close at once — pressed later either way,
    they say the game is over and stay as they are (never «Играем дальше»)."""
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, [masha, serge])
            first = await ask_to_end(fake, bot, masha, group)
            await bot.idle()
            await bot.stop()
            await bot.start()  # the questions asked before a restart are closed too
            second = await ask_to_end(fake, bot, masha, group)
            third = await ask_to_end(fake, bot, masha, group)
            assert await press(fake, masha, second, RU("end-yes")) == RU("cancelled")
            await fake.wait_until(lambda: closed_over(first) and closed_over(third))
            await fake.wait_until(lambda: second.content == RU("ended-by", name=masha.name))
            assert not second.reply_markup
            assert status_of(tmp_path, group.id) == ("cancelled", "ended")
            for question, button in ((first, RU("end-no")), (third, RU("end-yes"))):
                await stale_press_changes_nothing(fake, bot, masha, question, button)
            assert status_of(tmp_path, group.id) == ("cancelled", "ended")


async def test_a_confirmation_closes_when_the_game_is_played_out(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge = players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players, SHORT)
            question = await ask_to_end(fake, bot, masha, group)
            await play_until(fake, group, players, random.Random(7))
            assert status_of(tmp_path, group.id)[0] == "finished"
            await fake.wait_until(lambda: closed_over(question))
            await stale_press_changes_nothing(fake, bot, masha, question, RU("end-no"))
            await stale_press_changes_nothing(fake, bot, serge, question, RU("end-yes"))


async def test_a_confirmation_closes_when_everyone_leaves(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, *_ = players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players)
            question = await ask_to_end(fake, bot, masha, group)
            for user in players:
                await say(fake, bot, user, group, "/leave")
            await fake.wait_until(lambda: status_of(tmp_path, group.id)[0] != "active")
            await fake.wait_until(lambda: closed_over(question))
            await stale_press_changes_nothing(fake, bot, masha, question, RU("end-no"))


async def test_when_the_bot_is_removed_the_hands_are_closed(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, [masha, serge])
            fake.bot_removed_from(group, masha)
            await fake.wait_until(lambda: status_of(tmp_path, group.id)[0] == "cancelled")
            await bot.idle()
            assert status_of(tmp_path, group.id) == ("cancelled", "bot_removed")
            for user in (masha, serge):
                assert live_buttons(fake, user) == [], user.name
                assert find(fake, user, RU("removed-from-group")) is not None


async def test_a_cancelled_lobby_keeps_no_buttons(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha = fake.add_user(NAMES[0])
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path) as bot:
            lobby = await open_lobby(fake, group, masha)
            assert await press(fake, masha, lobby, RU("cancel")) == RU("cancelled")
            await bot.idle()
            assert lobby.content == RU("cancelled") and not lobby.reply_markup


async def move_with_double_taps(
    fake: FakeTelegram, folder: Path, game_id: int, user: User, hand: Message, rng: random.Random
) -> bool:
    """The player to move presses a button — a tile that asks for an end when there is one —
    and presses it a second time from the old keyboard (a double tap, or a phone that has
    not seen the edit yet); then chooses an end if asked. Whether an end was asked."""
    state = stored_state(folder, game_id)
    asking = tiles_asking_an_end(state)
    buttons = [
        (button["text"], button["callback_data"])
        for row in hand.reply_markup or []
        for button in row
        if button["text"].startswith(PLAYABLE) or button["text"] in EXTRAS
    ]
    preferred = [b for b in buttons if MoveButton.unpack(b[1]).tile in asking]
    text, data = rng.choice(preferred or buttons)
    answer = await press(fake, user, hand, text)
    query = forge_press(fake, user, hand, data)
    await fake.wait_until(lambda: fake.answer_for(query), 20)
    if answer != PICK_END:
        return False
    await fake.wait_until(lambda: end_buttons(hand), 20)
    await press(fake, user, hand, rng.choice(end_buttons(hand)))
    return True


async def test_no_edit_that_changes_nothing_is_sent(tmp_path: Path) -> None:
    """Games with restarts (the start-up redraw) and double taps, until a tile has asked
    for an end: the fake Bot API never answers «message is not modified»."""
    async with FakeTelegram() as fake:
        players = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", players)
        async with running_bot(fake, tmp_path) as bot:
            rng = random.Random(5)
            asked_ends = restarts = 0
            for _ in range(3):
                await start_game(fake, group, players, "target=51")
                game_id = games_in(tmp_path, group.id)[-1]["id"]
                after = -1
                for moves in range(1, 400):
                    if status_of(tmp_path, group.id)[0] != "active":
                        break
                    user, hand = await wait_turn(fake, players, after)
                    after = version_of(hand)
                    if await move_with_double_taps(fake, tmp_path, game_id, user, hand, rng):
                        asked_ends += 1
                    if moves % 15 == 0 and restarts < 3:  # the start-up redraw
                        await bot.idle()
                        await bot.stop()
                        await bot.start()
                        await bot.idle()  # the redraw: the mover's hand comes anew
                        restarts += 1
                    await fake.wait_until(
                        lambda after=after: (
                            status_of(tmp_path, group.id)[0] != "active"  # type: ignore[misc]
                            or turn_message(fake, players, after)
                        ),
                        30,
                    )
                await bot.idle()
                if asked_ends and restarts:
                    break
            assert asked_ends > 0 and restarts > 0
        not_modified = [c for c in fake.errors() if NOT_MODIFIED in (c.description or "")]
        assert not_modified == [], [(c.method, c.params) for c in not_modified]
