"""A new round's first table tells nothing of the last round's moves (#35): one turn ends a
round and deals the next, and each table tells only its own round's events."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.game import Phase, apply, legal_moves, new_game, next_round, parse_rules
from bot.game.events import Event, RoundEnded, RoundStarted, TilePlayed
from bot.playground import FakeTelegram, Message
from bot.ui.told import of_round
from tests.e2e.actions import play_move, start_game
from tests.e2e.process import running_bot
from tests.e2e.shown import NAMES, bot_messages
from tests.e2e.stored import games_in, stored_state

MOVE_LINE = re.compile(r": (\d+-\d+)")  # «Маша: 3-4 слева», «Боря: 1-5 на запад»


def first_caption(message: Message) -> str:
    return (message.history[0].caption if message.history else message.content) or ""


@pytest.mark.parametrize("preset", ["goat", "telephone"])
async def test_the_first_table_of_a_round_led_by_a_person_shows_no_old_move(
    tmp_path: Path, preset: str
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            await start_game(fake, group, users, preset)
            (game,) = games_in(tmp_path, group.id)
            rng, after = random.Random(5), -1
            while stored_state(tmp_path, game["id"]).round_no == 1:
                after = await play_move(fake, users, rng, after)
                await fake.wait_until(
                    lambda after=after: games_in(tmp_path, group.id)[0]["version"] > after, 30
                )

            def second_table() -> Message | None:
                return next(
                    (
                        m
                        for m in bot_messages(fake, group)
                        if m.photo and "раунд 2" in first_caption(m)
                    ),
                    None,
                )

            table = await fake.wait_until(second_table, 30)
        assert not stored_state(tmp_path, game["id"]).history  # nobody has moved in round 2
        caption = first_caption(table)
        assert "Ходит:" in caption
        assert not MOVE_LINE.search(caption), caption


def test_a_turn_that_ends_a_round_splits_its_events_by_round() -> None:
    rules = parse_rules("goat", players=2)
    state, _ = new_game(rules, ["a", "b"], 3)
    rng = random.Random(3)
    events: tuple[Event, ...] = ()
    while state.phase is Phase.PLAYING:
        state, events = apply(state, rng.choice(legal_moves(state)))
    after, dealt = next_round(state)
    turn = (*events, *dealt)  # what the service tells after the round's last move
    closed = of_round(turn, state.round_no)
    assert any(isinstance(e, TilePlayed) for e in closed)
    assert any(isinstance(e, RoundEnded) for e in closed)
    assert not any(isinstance(e, RoundStarted) for e in closed)
    fresh = of_round(turn, after.round_no)
    assert fresh and isinstance(fresh[0], RoundStarted)
    assert not any(isinstance(e, TilePlayed | RoundEnded) for e in fresh)
    assert of_round(events[:1], state.round_no) == list(events[:1])  # a turn within a round
