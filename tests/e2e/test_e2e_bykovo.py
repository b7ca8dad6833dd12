"""The Bykovo tournament «вприсядку» end to end: six participants (four people, two
computers) over the fake Bot API, a restart in the middle, played to its end. Everything
the engine decided — who sits out, what each round adds, who is out, the final places — is
recomputed here from the stored move log by docs/RULES.md §4, not by the engine's scoring."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.game.events import TilePlayed
from bot.game.formats.bykovo import BYKOVO_LIMITS
from bot.game.serial import step
from bot.game.state import GameState, Phase
from bot.playground import FakeTelegram, User
from tests.e2e.actions import RestartAt, find, play_until, replies_to, say, start_game
from tests.e2e.process import BotProcess, running_bot
from tests.e2e.shown import NAMES, RU, bot_messages
from tests.e2e.stored import DB_NAME, fresh_state, games_in, query, seats_of, stored_state

OVER = "Турнир окончен"
PLACES = "Места в раунде"
PARTICIPANTS = 6
LIMIT = BYKOVO_LIMITS[PARTICIPANTS]


def rated(folder: Path, chat_id: int, ratings: dict[int, float]) -> None:
    """The chat's leaderboard before the tournament: `user id → mu` (the bot is stopped)."""
    with sqlite3.connect(folder / DB_NAME) as db:
        db.executemany(
            "INSERT INTO ratings (chat_id, user_id, games, wins, goats, rating_points, mu, "
            "sigma) VALUES (?, ?, 10, 5, 1, 30, ?, 2.0)",
            [(chat_id, user, mu) for user, mu in ratings.items()],
        )


def pips(state: GameState, seat: int) -> int:
    """A hand's value, every tile its pips (no 0-0 exception, §4.1)."""
    tiles = state.rules.tiles
    return sum(sum(tiles.pips[t]) for t in range(tiles.size) if state.hands[seat] >> t & 1)


def check_deal(state: GameState, previous: GameState | None, first_resting: set[int]) -> None:
    """Who sits a new round out (§4.2), and that 0-0's holder leads with it (§4.1)."""
    out = state.tally.out
    still = [s for s in range(PARTICIPANTS) if not out[s]]
    assert len(state.resting) == max(0, len(still) - 4)
    if previous is None or previous.last_round is None:
        if first_resting:
            assert set(state.resting) == first_resting
    else:
        came_back = set(previous.resting) & set(still)
        assert came_back.isdisjoint(state.resting), "those who sat out play first"
        ended = previous.last_round
        hands = {r.seat: r.hand_value for r in ended.results}

        def worse(seat: int) -> tuple[int, int]:
            """The round's place, equal hands tied, then the score (§4.2)."""
            tied = [o for o in ended.lots if hands[o] == hands[seat]] if seat in ended.lots else []
            place = min(ended.order.index(o) for o in tied or [seat])
            return (place, previous.tally.scores[seat])

        others = [s for s in still if s not in state.resting and s not in came_back]
        for s in others:  # the remaining seats went to the worst placed of the last round
            assert all(worse(s) >= worse(b) for b in state.resting), (ended.order, s)
    holder = next(s for s in range(PARTICIPANTS) if state.hands[s] & 1)
    assert state.to_move == holder and state.lead_tile == 0, "0-0 leads every round"


def check_tournament(folder: Path, game_id: int, first_resting: set[int]) -> GameState:
    """Replay the log entry by entry and hold every round to §4.1–§4.2."""
    state = fresh_state(folder, game_id)
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    entries = [json.loads(row["entry"]) for row in rows]
    if entries[0]["type"] != "Rest":
        check_deal(state, None, first_resting)
    scores = [0] * PARTICIPANTS
    before = [0] * PARTICIPANTS
    out_wave = [0] * PARTICIPANTS
    first_out: int | None = None
    left: list[int] = []
    rounds = 0
    for entry in entries:
        previous = state
        state = step(state, entry)
        if entry["type"] == "Leave":
            left.append(entry["seat"])
            continue
        if entry["type"] in {"Rest", "NextRound"}:
            check_deal(state, previous if entry["type"] == "NextRound" else None, first_resting)
            first_out = None
            continue
        emptied = [s for s in range(PARTICIPANTS) if previous.hands[s] and not state.hands[s]]
        first_out = first_out if first_out is not None else next(iter(emptied), None)
        if state.phase is Phase.PLAYING:
            continue
        ended = state.last_round  # the round ended: count it again
        assert ended is not None and ended.round_no == previous.round_no
        rounds += 1
        playing = [s for s in range(PARTICIPANTS) if s not in state.resting and not out_wave[s]]
        last_tile = [e.seat for e in state.history if isinstance(e, TilePlayed)][-1]
        winner = first_out if first_out is not None else last_tile
        assert ended.seat == winner and ended.order[0] == winner
        assert sorted(ended.order) == playing
        values = {s: pips(state, s) for s in playing}
        tail = [values[s] for s in ended.order[1:] if state.hands[s]]
        assert tail == sorted(tail), "the others by ascending hand value"
        wave = max(out_wave) + 1
        for s in playing:
            before[s] = scores[s]
            scores[s] += 0 if s == winner else values[s]
            if scores[s] >= LIMIT:
                out_wave[s] = wave
        for s in left:  # a computer finished the leaver's round: now they are out
            out_wave[s] = out_wave[s] or wave
        assert list(state.tally.scores) == scores
        assert [bool(w) for w in state.tally.out] == [bool(w) for w in out_wave]
    assert state.phase is Phase.GAME_OVER and state.outcome is not None
    assert len([s for s in range(PARTICIPANTS) if not out_wave[s]]) <= 3

    def key(s: int) -> tuple[bool, int, int, int]:
        return (s in left, -(out_wave[s] or 99), scores[s], -before[s])

    places = {p.seat: p.place for p in state.outcome.places}
    for a in range(PARTICIPANTS):
        for b in range(PARTICIPANTS):
            if key(a) < key(b):
                assert places[a] < places[b], (a, b, key(a), key(b))
    assert rounds == state.round_no
    assert list(state.left) == left
    return state


async def test_a_six_person_tournament_with_a_restart_is_played_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.01")
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:4]]
        group = fake.add_group("Двор", users)
        made = BotProcess(fake, tmp_path)  # its database, to give the chat a leaderboard
        await made.start()
        await made.stop()
        leaders = {users[2].id: 32.0, users[3].id: 30.0}  # Оля, then Алекс
        rated(tmp_path, group.id, {**leaders, users[0].id: 24.0})
        rng = random.Random(5)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, "bykovo", computers=("любитель", "новичок"))
            (game,) = games_in(tmp_path, group.id)
            restart, people = RestartAt(fake, group, bot, "Раунд 2:"), list(users)
            leavers: list[User] = []

            async def restart_then_leave() -> bool:
                """A restart after the second round; after the third, the first person the
                stored state still has in the tournament leaves (who is out by then depends
                on the play)."""
                if await restart():
                    return True
                if leavers or not find(fake, group, "Раунд 3:"):
                    return False
                state, seats = stored_state(tmp_path, game["id"]), seats_of(tmp_path, game["id"])
                leaver = next(u for u in users if not state.tally.out[seats.index(u.id)])
                asked = await say(fake, bot, leaver, group, "/leave")
                replies = [m.content for m in replies_to(fake, group, asked)]
                assert RU("left-table") in replies, replies
                people.remove(leaver)
                leavers.append(leaver)
                return True

            await play_until(
                fake, group, people, rng, OVER, 3000, between=restart_then_leave, wait=60
            )
            assert restart.done and leavers
            end = find(fake, group, OVER)
            assert end is not None
        (leaver,) = leavers
        seats = {
            int(r["user_id"]): r["seat"]
            for r in query(
                tmp_path, "SELECT user_id, seat FROM players WHERE game_id = ?", game["id"]
            )
        }
        state = check_tournament(tmp_path, game["id"], {seats[user] for user in leaders})
        assert stored_state(tmp_path, game["id"]) == state
        names = [
            r["name"]
            for r in query(
                tmp_path, "SELECT name FROM players WHERE game_id = ? ORDER BY seat", game["id"]
            )
        ]
        first = state.outcome.places[0] if state.outcome else None
        assert first is not None
        assert f"{OVER}: {names[first.seat]} — {first.score}" in (end.content or "")
        assert state.outcome.places[-1].seat == seats[leaver.id], "the leaver is last"
        results = query(
            tmp_path, "SELECT user_id, place, goat FROM game_results WHERE game_id = ?", game["id"]
        )
        places = {p.seat: p.place for p in state.outcome.places}
        assert {(r["user_id"], r["place"]) for r in results} == {
            (u.id, places[seats[u.id]]) for u in users
        }, "every person's place goes into the stats"
        assert not any(r["goat"] for r in results)
        games = {r["user_id"]: r["games"] for r in query(tmp_path, "SELECT * FROM ratings")}
        assert games == {u: 10 for u in [*leaders, users[0].id]}, "computers: not rated"
        results = [m for m in bot_messages(fake, group) if PLACES in (m.content or "")]
        assert len(results) == state.round_no and all(m.photo for m in results)
        started = find(fake, group, "Игра началась")
        assert started is not None and ", ".join(names) in (started.content or "")
        sent = [  # what Оля was sent (her quiet word is deleted once a hand comes)
            c
            for c in fake.calls_of("sendMessage")
            if str(c.params.get("chat_id")) == str(users[2].id)
        ]
        olya = [str(c.params.get("text")) for c in sent]
        quiet = next(c for c in sent if c.params.get("text") == RU("hand-resting"))
        assert str(quiet.params.get("disable_notification")).lower() == "true"
        assert RU("hand-resting") in olya and RU("plays-again") in olya


async def test_a_tournament_of_four_people_is_rated_by_its_places(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four people, nobody sits out; a short limit (`target=15`) ends it soon. Every place
    goes into the chat's skill rating (openskill, the full order) and the stats."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:4]]
        group = fake.add_group("Двор", users)
        rng = random.Random(2)
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, users, "bykovo target=15")
            await play_until(fake, group, users, rng, OVER, 1000)
            await bot.idle()
            asked = await say(fake, bot, users[0], group, "/stats")
            (stats,) = replies_to(fake, group, asked)
        (game,) = games_in(tmp_path, group.id)
        state = stored_state(tmp_path, game["id"])
        assert state.outcome is not None and not state.resting
        mine = next(
            p.place
            for p in state.outcome.places
            if p.seat == seats_of(tmp_path, game["id"]).index(users[0].id)
        )
        tournaments = f"• {RU('preset-name-bykovo')}: "
        (line,) = [s for s in (stats.content or "").splitlines() if s.startswith(tournaments)]
        assert line.endswith(f"в тройке {int(mine <= 3)}"), line
        by_seat = {
            r["seat"]: r["user_id"]
            for r in query(
                tmp_path, "SELECT seat, user_id FROM players WHERE game_id = ?", game["id"]
            )
        }
        ratings = {r["user_id"]: r for r in query(tmp_path, "SELECT * FROM ratings")}
        assert set(ratings) == {u.id for u in users}
        assert all(r["games"] == 1 and r["goats"] == 0 for r in ratings.values())
        best, worst = state.outcome.places[0], state.outcome.places[-1]
        assert best.place < worst.place
        assert ratings[by_seat[best.seat]]["mu"] > ratings[by_seat[worst.seat]]["mu"]
        assert ratings[by_seat[best.seat]]["wins"] == 1
