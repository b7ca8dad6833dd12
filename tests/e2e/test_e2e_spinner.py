"""The spinner games end to end: whole games of «Осёл», «Телефон» and Muggins, people and
computers over the fake Bot API, pressing whatever the hand offers (arms by arrow, open or
closed). The results are recomputed here, from the stored move log, by the rules of
docs/RULES.md §5–§7 — not by the engine's scoring."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.game.events import RoundEnded, Scored
from bot.game.rules import RuleSet, Spinner
from bot.game.serial import step
from bot.game.state import GameState, Phase
from bot.game.table import Layout
from bot.playground import FakeTelegram
from tests.e2e.actions import play_until, start_game, wait_text
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, NAMES, bot_messages
from tests.e2e.stored import fresh_state, games_in, query, replay_game, stored_state
from tests.game.test_engine_properties import check_goat_round

# -- the rules, written again --------------------------------------------------------------


def ends_total(rules: RuleSet, table: Layout) -> int:
    """The open ends added up, from the table as it lies (§6, §7): the outer tile of each arm
    (a double both halves); a bare side of the middle tile: a line's half, the All Fives
    spinner's long side both halves while its other two wait, a house's side nothing — and
    a tile alone all its pips."""
    tiles = rules.tiles
    assert table.first is not None
    a, b = tiles.pips[table.first]
    if not any(table.arms):
        return a + b
    total = 0
    for arm, value in zip(table.arms, table.ends, strict=True):
        if arm:
            total += value * (2 if tiles.is_double(arm[-1]) else 1)
        elif a != b:
            total += value
        elif rules.spinner is Spinner.SIDES and len(table.arms) == 2:
            total += 2 * value
    return total


def fives(rules: RuleSet, total: int) -> int:
    if total % 5:
        return 0
    return total // 5 if rules.preset == "telephone" else total


def rounded(rules: RuleSet, pips: int) -> int:
    if rules.preset == "telephone":
        return -(-pips // 5)
    return 5 * ((pips + 2) // 5)


def round_points(rules: RuleSet, state: GameState, ended: RoundEnded) -> list[int]:
    """What each side wins at the round's end, from the hands left (§6, §7)."""
    values = [0] * rules.sides
    for seat, hand in enumerate(state.hands):
        pips = rules.tiles.pips
        values[rules.side_of(seat)] += sum(sum(pips[t]) for t in range(len(pips)) if hand >> t & 1)
    points = [0] * rules.sides
    if ended.reason == "out":
        winner = rules.side_of(ended.seat)
        points[winner] = rounded(rules, sum(values) - values[winner])
    elif ended.reason == "fish" and values.count(min(values)) == 1:
        low = values.index(min(values))
        points[low] = rounded(rules, sum(v - values[low] for v in values))
    return points


def check_race(folder: Path, game_id: int) -> tuple[GameState, list[int]]:
    """Replays the log move by move: every move's points from the table it left, every
    round's from the hands; the totals, the end at the target and the places are the
    engine's. The final state and the recomputed totals."""
    state = fresh_state(folder, game_id)
    rules = state.rules
    totals = [0] * rules.sides
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    for row in rows:
        before = state
        state = step(state, json.loads(row["entry"]))
        if before.phase is not Phase.PLAYING:
            continue  # the next round's deal
        if state.on_table != before.on_table:  # tiles were laid: the table as they left it
            expected = fives(rules, ends_total(rules, state.table))
            added = state.history[len(before.history) :]
            scored = [e.points for e in added if isinstance(e, Scored)]
            assert scored == ([expected] if expected else []), row["entry"]
            totals[rules.side_of(before.to_move)] += expected
        ended = state.last_round
        if ended is not None and ended is not before.last_round:
            if ended.reason != "target":
                won = round_points(rules, state, ended)
                totals = [total + points for total, points in zip(totals, won, strict=True)]
            assert [r.score_after for r in ended.results] == [
                totals[rules.side_of(r.seat)] for r in ended.results
            ]
    assert state.phase is Phase.GAME_OVER and state.outcome is not None
    reached = [side for side, total in enumerate(totals) if total >= rules.goal]
    assert len(reached) == 1, totals
    assert state.outcome.places[0].side == reached[0] == max(reached, key=totals.__getitem__)
    assert all(
        totals[reached[0]] > total for side, total in enumerate(totals) if side != reached[0]
    )
    assert not any(p.goat for p in state.outcome.places)
    return state, totals


# -- the games -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "people", "computers"),
    [("telephone", 2, ("любитель",)), ("muggins", 1, ("мастер",))],
)
async def test_a_race_is_played_to_its_target_and_the_highest_wins(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    options: str,
    people: int,
    computers: tuple[str, ...],
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:people]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            await start_game(fake, group, users, options, computers=computers)
            await play_until(fake, group, users, random.Random(7), max_moves=3000, wait=60)
            end = await wait_text(fake, group, GAME_OVER)
        (game,) = games_in(tmp_path, group.id)
        state = replay_game(tmp_path, game["id"])
        assert stored_state(tmp_path, game["id"]) == state
        final, totals = check_race(tmp_path, game["id"])
        assert final == state
        names = [p["name"] for p in query(tmp_path, "SELECT name FROM players ORDER BY seat")]
        winner = names[state.outcome.places[0].seat]
        assert f"Игра окончена: {winner} — {max(totals)}, больше всех, победа!" in (
            end.content or ""
        )
        assert "козёл" not in (end.content or "")
        sheets = [
            m
            for m in bot_messages(fake, group)
            if "Счёт (было → за ходы → за раунд → стало)" in (m.content or "")
        ]
        assert len(sheets) == state.round_no


async def test_a_donkey_game_with_a_person_and_two_computers_is_counted_as_goat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            await start_game(fake, group, users, "donkey", computers=("любитель",))
            await play_until(fake, group, users, random.Random(3), max_moves=3000, wait=60)
            end = await wait_text(fake, group, GAME_OVER)
        (game,) = games_in(tmp_path, group.id)
        state = fresh_state(tmp_path, game["id"])
        rules = state.rules
        rows = query(tmp_path, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game["id"])
        spinners = 0
        for row in rows:
            before = state
            state = step(state, json.loads(row["entry"]))
            if state.phase is Phase.PLAYING and len(state.ends) == 4:
                spinners += before.spread.spinner is None
            if state.last_round is not before.last_round and state.last_round is not None:
                check_goat_round(rules, before.tally, state.last_round, state.tally)
        assert stored_state(tmp_path, game["id"]) == state
        assert state.outcome is not None and any(p.goat for p in state.outcome.places)
        assert any(s >= 101 for s in state.tally.scores)
        assert spinners >= 1
        assert "козёл" in (end.content or "")
