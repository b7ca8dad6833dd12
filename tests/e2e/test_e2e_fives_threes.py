"""Fives and Threes end to end: whole games with people and computers over the fake Bot API,
pressing whatever the hand offers. The scores are recomputed here, from the stored move
log, by the rules of docs/RULES.md §11 — not by the engine's scoring."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.game.events import Scored
from bot.game.rules import RuleSet
from bot.game.serial import step
from bot.game.state import GameState, Phase
from bot.game.table import Layout
from bot.playground import FakeTelegram
from tests.e2e.actions import play_until, start_game, wait_text
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, NAMES
from tests.e2e.stored import fresh_state, games_in, query, replay_game, stored_state

GO = 1


def ends_total(rules: RuleSet, table: Layout) -> int:
    """The two open ends added up (§11): the outer tile of each arm, a double both halves;
    a bare side of the lead its half (a lead double: both); a tile alone all its pips."""
    tiles = rules.tiles
    assert table.first is not None
    a, b = tiles.pips[table.first]
    if not any(table.arms):
        return a + b
    total = 0
    for arm, value in zip(table.arms, table.ends, strict=True):
        outer = arm[-1] if arm else table.first
        total += value * (2 if tiles.is_double(outer) else 1)
    return total


def points(total: int) -> int:
    """S/3 where 3 divides it, S/5 where 5 does."""
    return (0 if total % 3 else total // 3) + (0 if total % 5 else total // 5)


def check_fives_threes(folder: Path, game_id: int) -> tuple[GameState, list[int]]:
    """Replays the log move by move: every tile's points from the table it left, the go
    point for chipping out, nothing past 61 with `exact`; the totals, the end at the
    target and the places are the engine's. The final state and the recomputed totals."""
    state = fresh_state(folder, game_id)
    rules = state.rules
    totals = [0] * rules.sides
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    for row in rows:
        before = state
        state = step(state, json.loads(row["entry"]))
        assert len(state.bazaar) == len(before.bazaar) or before.phase is not Phase.PLAYING
        if before.phase is not Phase.PLAYING or state.on_table == before.on_table:
            continue  # the next round's deal, or knocks
        side = rules.side_of(before.to_move)
        gained = points(ends_total(rules, state.table))
        go = 0 if state.hands[before.to_move] else GO
        if rules.own.exact and totals[side] + gained + go > rules.goal:
            gained = go = 0
        added = state.history[len(before.history) :]
        scored = [e.points for e in added if isinstance(e, Scored)]
        assert scored == ([gained] if gained else []), row["entry"]
        totals[side] += gained + go
        ended = state.last_round
        if ended is not None and ended is not before.last_round:
            assert [r.score_after for r in ended.results] == [
                totals[rules.side_of(r.seat)] for r in ended.results
            ]
    assert state.phase is Phase.GAME_OVER and state.outcome is not None
    top = max(totals)
    assert top >= rules.goal and (not rules.own.exact or top == rules.goal)
    assert state.outcome.places[0].score == top
    assert [p.score for p in state.outcome.places] == [totals[p.side] for p in state.outcome.places]
    assert not any(p.goat for p in state.outcome.places)
    return state, totals


@pytest.mark.parametrize(
    ("options", "people", "computers"),
    [
        ("fives_threes", 2, ("любитель",)),
        ("fives_threes teams=yes exact=yes", 2, ("мастер", "любитель")),
    ],
)
async def test_fives_and_threes_is_played_to_61_and_recomputed_from_the_log(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    options: str,
    people: int,
    computers: tuple[str, ...],
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:people]]
        group = fake.add_group("Паб", users)
        async with running_bot(fake, tmp_path):
            await start_game(fake, group, users, options, computers=computers)
            await play_until(fake, group, users, random.Random(11), max_moves=3000, wait=60)
            end = await wait_text(fake, group, GAME_OVER)
        (game,) = games_in(tmp_path, group.id)
        state = replay_game(tmp_path, game["id"])
        assert stored_state(tmp_path, game["id"]) == state
        final, totals = check_fives_threes(tmp_path, game["id"])
        assert final == state
        names = [p["name"] for p in query(tmp_path, "SELECT name FROM players ORDER BY seat")]
        winner = names[state.outcome.places[0].seat]
        assert winner in (end.content or "") and str(max(totals)) in (end.content or "")
        assert "козёл" not in (end.content or "")
