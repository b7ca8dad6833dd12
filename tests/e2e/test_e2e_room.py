"""The game room end to end: a 10-player double-12 room and three teams of two, played to
their ends over the fake Bot API, the results recomputed here from the move log."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.game.serial import step
from bot.game.state import GameState, Phase
from bot.playground import Chat, FakeTelegram, Message, User
from tests.e2e.actions import ask, join, open_lobby, play_until, press, start_game, wait_text
from tests.e2e.checks import Rated, shown_rating, skill_shown
from tests.e2e.process import running_bot
from tests.e2e.shown import NAMES, START, bot_messages
from tests.e2e.stored import fresh_state, games_in, query, replay_game, stored_state


@dataclass(frozen=True)
class Round:
    """One round as recomputed here: who went out (None: blocked), per side the points,
    the totals after it, and the sides it put out."""

    number: int
    winner: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    out: tuple[int, ...]


def room_value(state: GameState, hand: int) -> int:
    """Seed 004: the pips in a hand, 0-0 worth 10."""
    pips = state.rules.tiles.pips
    return sum(10 if pips[t] == (0, 0) else sum(pips[t]) for t in range(len(pips)) if hand >> t & 1)


def recompute(folder: Path, game_id: int) -> tuple[list[Round], list[int]]:
    """Every round's scoring and the final order of sides, best first, by the room's rules
    (docs/RULES.md §9.1) — from the hands the replayed log leaves at each round's end."""
    state = fresh_state(folder, game_id)
    rules = state.rules
    sides = rules.sides
    totals, wave_of = [0] * sides, [0] * sides
    rounds: list[Round] = []
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    for row in rows:
        playing = state.phase is Phase.PLAYING
        state = step(state, json.loads(row["entry"]))
        if not playing or state.phase is Phase.PLAYING:
            continue
        seats_in = [s for s in range(rules.players) if not wave_of[rules.side_of(s)]]
        values = [0] * sides
        for seat in seats_in:
            values[rules.side_of(seat)] += room_value(state, state.hands[seat])
        emptied = [s for s in seats_in if not state.hands[s]]
        winner = rules.side_of(emptied[0]) if emptied else None
        partners = values[winner] if winner is not None else 0
        points = tuple(
            0 if wave_of[s] or s == winner else values[s] + partners for s in range(sides)
        )
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        out = tuple(s for s in range(sides) if not wave_of[s] and totals[s] >= rules.target)
        for s in out:
            wave_of[s] = max(wave_of) + 1 if s == out[0] else wave_of[out[0]]
        rounds.append(Round(state.round_no, winner, points, tuple(totals), out))
    order = sorted(range(sides), key=lambda s: (-(wave_of[s] or sides + 1), totals[s], s))
    return rounds, order


def check_game(fake: FakeTelegram, group: Chat, folder: Path) -> tuple[GameState, list[str]]:
    """The stored game equals its replay; every round and the places are what the rules
    give; the group was told each round (with who went out) and the end. The state, and
    the names by seat."""
    group_texts = [m.content or "" for m in bot_messages(fake, group)]
    names = [p["name"] for p in query(folder, "SELECT name FROM players ORDER BY seat")]
    (game,) = [g for g in games_in(folder, group.id) if g["status"] == "finished"]
    state = replay_game(folder, game["id"])
    assert stored_state(folder, game["id"]) == state
    assert state.outcome is not None and state.outcome.reason == "last_in"
    rounds, order = recompute(folder, game["id"])
    rules = state.rules
    assert len(rounds) == state.round_no
    for played in rounds:
        told = [text for text in group_texts if text.startswith(f"Раунд {played.number}:")]
        assert len(told) == 1, (played.number, told)
        for side in range(rules.sides):
            who = [names[s] for s in range(rules.players) if rules.side_of(s) == side]
            verb = "выбывает" if len(who) == 1 else "выбывают"
            gone = f"🚪 {side_label(who)} — {played.totals[side]}, {verb} из игры."
            assert (gone in told[0]) is (side in played.out), (told[0], side)
    last = rounds[-1]
    ended = state.last_round
    assert ended is not None
    assert tuple(r.score_after for r in ended.results) == tuple(
        last.totals[rules.side_of(r.seat)] for r in ended.results
    )
    places = [p.side for p in state.outcome.places]
    assert list(dict.fromkeys(places)) == order
    winners = [names[p.seat] for p in state.outcome.places if p.side == order[0]]
    assert any(f"{side_label(winners)} — последний в игре" in text for text in group_texts)
    return state, names


def side_label(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} и {names[-1]}"


async def seat_computers(fake: FakeTelegram, creator: User, lobby: Message, count: int) -> None:
    for number in range(count):
        level = ("новичок", "любитель")[number % 2]
        await press(fake, creator, lobby, f"🤖 +{level}")
    await fake.wait_until(
        lambda: (
            f"🤖 Любитель {count}" in (lobby.content or "")
            or (f"🤖 Новичок {count}" in (lobby.content or ""))
        ),
        20,
    )


async def play_to_the_end(
    fake: FakeTelegram, group: Chat, lobby: Message, people: list[User], seed: int
) -> None:
    """«Начать», then the people's moves until the group hears who is the last one in."""
    await press(fake, people[0], lobby, START)
    await play_until(fake, group, people, random.Random(seed), max_moves=3000)
    await wait_text(fake, group, "последний в игре")


async def test_ten_players_play_a_double_12_room_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.01")
    async with FakeTelegram() as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path):
            lobby = await open_lobby(fake, group, masha, "room set=12 turn_timeout=0")
            assert "Правила: Игровая комната · дубль 12" in (lobby.content or "")
            await join(fake, group, masha, lobby)
            await seat_computers(fake, masha, lobby, 9)
            await play_to_the_end(fake, group, lobby, [masha], seed=5)
        state, _ = check_game(fake, group, tmp_path)
        assert state.rules.players == 10 and state.rules.tiles.max_pip == 12
        told_out = [
            call
            for call in fake.calls
            if call.method == "editMessageText"
            and str(call.params.get("chat_id")) == str(masha.id)
            and "Вы выбыли" in str(call.params.get("text"))
        ]
        # out before the last round: told so; out in it, the game's end says it all
        assert len(told_out) == (0 < state.tally.out[0] < max(state.tally.out))


async def test_three_teams_of_two_play_a_room_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.01")
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        async with running_bot(fake, tmp_path):
            lobby = await open_lobby(fake, group, masha, "room teams=yes turn_timeout=0")
            await join(fake, group, masha, lobby)
            assert "Команды по 2" in (lobby.content or "")
            await join(fake, group, olya, lobby)
            await seat_computers(fake, masha, lobby, 4)
            assert "Команда 1: Маша и 🤖 Любитель 2" in (lobby.content or "")
            assert await press(fake, masha, lobby, "👥 2") == "Вы в команде 2."
            assert await press(fake, olya, lobby, "👥 2") == "Вы в команде 2."
            await fake.wait_until(lambda: "Команда 2: Маша и Оля" in (lobby.content or ""))
            await play_to_the_end(fake, group, lobby, [masha, olya], seed=8)
        state, names = check_game(fake, group, tmp_path)
        assert state.rules.sides == 3
        assert [state.rules.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
        assert (names[1], names[4]) == ("Маша", "Оля")  # partners, as they picked


async def test_a_room_of_three_people_is_rated_by_its_places(tmp_path: Path) -> None:
    """Places recomputed here → openskill, and the row: one game, a win for the last one in,
    no goats, a point per player placed below."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:3]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, "room target=30 turn_timeout=0")
            await play_until(fake, group, users, random.Random(4))
            await wait_text(fake, group, "последний в игре")
            answer = await ask(fake, bot, users[0], group, "/rating all")
            stats = {u.id: (await ask(fake, bot, u, group, "/stats")).content or "" for u in users}
        (game,) = games_in(tmp_path, group.id)
        _, order = recompute(tmp_path, game["id"])
        seats = [int(u) for u in replay_game(tmp_path, game["id"]).seats]
        model = PlackettLuce()
        new = model.rate([[model.rating()] for _ in order], ranks=[1, 2, 3])
        names = {u.id: u.name for u in users}
        expected = {
            names[seats[side]]: (
                skill_shown(r.mu, r.sigma),
                Rated(1, int(place == 0), 0, 2 - place),
            )
            for place, (side, (r,)) in enumerate(zip(order, new, strict=True))
        }
        assert {name: (skill, row) for name, skill, row in shown_rating(answer.content or "")} == (
            expected
        )
        for place, side in enumerate(order):
            shown = stats[seats[side]]
            assert f"Игры: 1, победы: {int(place == 0)}, козлы: 0" in shown, shown
            assert "Любимые правила: Игровая комната" in shown, shown
