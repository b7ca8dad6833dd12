"""Whole games in a group, over HTTP, as the players see them; the results the bot shows
are checked against the engine's replay of the stored move log."""

from __future__ import annotations

import random
from pathlib import Path

from bot.game.engine import apply
from bot.playground import FakeTelegram
from tests.e2e.actions import (
    join,
    open_lobby,
    play_planned,
    play_until,
    press,
    start_game,
    wait_text,
)
from tests.e2e.checks import check_finished_game, plan_fish
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, JOIN, NAMES, RU, START
from tests.e2e.stored import fresh_state, games_in, seats_of


async def test_three_players_play_a_whole_game_to_a_goat(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:3]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users)
            moves = await play_until(fake, group, users, random.Random(1))
            assert moves > 10
            end = await wait_text(fake, group, GAME_OVER)
            assert "козёл" in (end.content or "")
            (game,) = games_in(tmp_path, group.id)
            state = await check_finished_game(fake, bot, group, users[2], game["id"])
            assert any(score >= 101 for score in state.tally.scores)
            # every hand message is closed: no buttons left to press
            await bot.idle()
            # … and says the game, the person's place of three and score, and the goat
            assert state.outcome is not None
            for user in users:
                (hand,) = [m for m in fake.messages(user) if m.from_bot and m.edited]
                seat = state.seats.index(str(user.id))
                (place,) = [p for p in state.outcome.places if p.seat == seat]
                goat = " — козёл 🐐" if state.tally.scores[seat] >= 101 else ""
                assert (hand.content or "").startswith(
                    f"Игра окончена — Козёл: вы на {place.place}-м месте из 3, "
                    f"{state.tally.scores[seat]} "
                ), hand.content
                assert (hand.content or "").endswith(f"{goat}. Спасибо за игру!"), hand.content
                assert ("козёл" in (hand.content or "")) == bool(goat), hand.content
                assert [b["text"] for row in hand.reply_markup or [] for b in row] == [
                    RU("review-button")  # the finished game's «🔍 Разбор» alone
                ]


async def test_a_fish_then_two_and_four_players_play_to_a_goat(tmp_path: Path) -> None:
    """Two players: the first round is steered (legal presses only) into a fish, then
    random presses to a goat; then four players in the same group. /score and /rating
    follow the engine over both games."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            pair = users[:2]
            await start_game(fake, group, pair)
            (game,) = games_in(tmp_path, group.id)
            state = fresh_state(tmp_path, game["id"])
            by_id = {user.id: user for user in users}
            after = -1
            for move in plan_fish(state):
                user, after = await play_planned(fake, pair, state.rules, move, after)
                assert user is by_id[int(state.seats[state.to_move])]
                state, _ = apply(state, move)
            assert state.last_round is not None and state.last_round.reason == "fish"
            await wait_text(fake, group, "Раунд 1: рыба")
            await play_until(fake, group, pair, random.Random(2), after=after)
            await check_finished_game(fake, bot, group, users[4], game["id"])

            four = [users[3], users[2], users[1], users[0]]
            lobby = await open_lobby(fake, group, four[0])
            for user in four:
                await join(fake, group, user, lobby)
            url = fake.user_presses(users[4], lobby, JOIN)
            fake.follow_link(users[4], url)
            await wait_text(fake, users[4], "За столом нет свободных мест.")
            assert await press(fake, four[0], lobby, START) == "Раздаю!"
            game = games_in(tmp_path, group.id)[-1]
            assert seats_of(tmp_path, game["id"]) == [user.id for user in four]
            await play_until(fake, group, four, random.Random(4))
            await check_finished_game(fake, bot, group, users[4], game["id"])
