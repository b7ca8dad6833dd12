"""«Генерал» end to end: six participants (four people, two computers) make three teams,
two at the table and one in the queue, against the match's clock with a restart in the
middle. Who plays, the Generals, the wins, the queue's turns and the places are recomputed
here from the stored move log by docs/RULES.md §8, not by the engine's scoring."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time
from pathlib import Path

import pytest

from bot.game.events import TilePlayed
from bot.game.serial import step
from bot.game.state import GameState, Phase
from bot.playground import FakeTelegram
from tests.e2e.actions import RestartAt, find, play_until, start_game
from tests.e2e.process import running_bot
from tests.e2e.shown import NAMES, RU, bot_messages
from tests.e2e.stored import DB_NAME, fresh_state, games_in, query, stored_state

OVER = "матч окончен"
PEOPLE = 6
TEAMS = 3


def side(seat: int) -> int:
    """Teams alternate round the table: with three teams seats 0 and 3, 1 and 4, 2 and 5."""
    return seat % TEAMS


def check_match(folder: Path, game_id: int) -> tuple[GameState, list[int], list[int]]:
    """Replay the log entry by entry and hold every round to §8; the Generals and wins."""
    state = fresh_state(folder, game_id)
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    entries = [json.loads(row["entry"]) for row in rows]
    generals, wins, queue = [0] * TEAMS, [0] * TEAMS, [2]
    fish = 0
    tiles = state.rules.tiles
    one_one, zero, top = tiles.tile(1, 1), tiles.tile(0, 0), tiles.tile(6, 6)

    def dealt(state: GameState) -> None:
        waiting = {s for s in range(PEOPLE) if side(s) in queue}
        assert set(state.resting) == waiting, (state.resting, queue)
        assert state.lead_tile == one_one and state.hands[state.to_move] >> one_one & 1

    dealt(state)
    for entry in entries:
        previous = state
        state = step(state, entry)
        if entry["type"] == "NextRound":
            dealt(state)
            continue
        if entry["type"] == "TimeUp" or state.phase is Phase.PLAYING:
            continue
        ended = state.last_round
        assert ended is not None
        playing = [s for s in range(PEOPLE) if s not in previous.resting]
        out = [s for s in playing if not state.hands[s]]
        if not out:  # a fish: nothing is written, the same teams play again
            assert ended.reason == "fish"
            fish += 1
            continue
        (winner_seat,) = out
        winner = side(winner_seat)
        last = [e for e in state.history if isinstance(e, TilePlayed)][-1]
        assert last.seat == winner_seat
        general = last.tile in (zero, top)
        generals[winner] += general
        wins[winner] += 1
        loser = next(side(s) for s in playing if side(s) != winner)
        leaving = winner if general else loser
        queue = [*queue[1:], leaving]
        assert list(state.tally.scores) == generals and list(state.tally.wins) == wins
        assert list(state.tally.queue) == queue
    assert entries[-1]["type"] == "TimeUp" and state.phase is Phase.GAME_OVER
    assert state.outcome is not None and state.outcome.reason == "time"
    places = {p.side: p.place for p in state.outcome.places}
    for a in range(TEAMS):
        for b in range(TEAMS):
            if (-generals[a], -wins[a]) < (-generals[b], -wins[b]):
                assert places[a] < places[b]
    assert sorted(places.values()) == [1, 2, 3], "ties are drawn by lot: no shared place"
    return state, generals, wins


def ends_at(folder: Path, game_id: int) -> float:
    """When the match's time is up, as stored."""
    (row,) = query(folder, "SELECT ends_at FROM games WHERE id = ?", game_id)
    return float(row["ends_at"])


def time_is_up(folder: Path, game_id: int) -> float:
    """The match's time runs out now (the bot reads it from the database after every move):
    the round under way is its last; the new end."""
    now = time.time()
    with contextlib.closing(sqlite3.connect(folder / DB_NAME, timeout=10)) as db, db:
        db.execute("UPDATE games SET ends_at = ? WHERE id = ?", (now, game_id))
    return now


async def test_a_six_person_general_with_a_queue_and_a_clock_run_out_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The match has half an hour; once a restart has kept its clock, the test runs the
    clock out (how many rounds fit in a minute depends on the machine)."""
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.05")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:4]]
        group = fake.add_group("Двор", users)
        rng = random.Random(3)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(
                fake, group, users, "general minutes=30", computers=("любитель", "мастер")
            )
            (game,) = games_in(tmp_path, group.id)
            started = ends_at(tmp_path, game["id"])
            restart = RestartAt(fake, group, bot, "Раунд 2:")
            up: list[float] = []

            async def restart_then_time_up() -> bool:
                if await restart():
                    assert ends_at(tmp_path, game["id"]) == started, "the clock survives"
                    up.append(time_is_up(tmp_path, game["id"]))
                    return True
                return False

            await play_until(
                fake, group, users, rng, OVER, 5000, between=restart_then_time_up, wait=60
            )
            end = find(fake, group, OVER)
            assert end is not None and up
        state, generals, _ = check_match(tmp_path, game["id"])
        assert stored_state(tmp_path, game["id"]) == state
        assert end.date >= up[0] - 1, "the match ends after its time, not before"
        assert state.round_no >= 3
        names = [
            r["name"]
            for r in query(
                tmp_path, "SELECT name FROM players WHERE game_id = ? ORDER BY seat", game["id"]
            )
        ]
        assert state.outcome is not None
        first = state.outcome.places[0]
        team = f"{names[first.seat]} и {names[first.seat + TEAMS]}"
        assert team in (end.content or "") and f"🎖 {generals[first.side]}" in (end.content or "")
        tables = [m for m in bot_messages(fake, group) if m.photo]
        clock = [r.caption for m in tables for r in m.history if r.caption]
        assert any("⏱ До конца матча" in c for c in clock), "the table tells the time left"
        olya = [  # seat 2: her team waits first, quietly
            c.params
            for c in fake.calls_of("sendMessage")
            if str(c.params.get("chat_id")) == str(users[2].id)
        ]
        quiet = [p for p in olya if p.get("text") == RU("hand-queued")]
        assert quiet and str(quiet[0].get("disable_notification")).lower() == "true"
