"""Checks of what the bot showed against the engine's results (RULES §2.6–§2.7 recomputed
here, not taken from the bot): round and end messages, scores, ratings."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from bot.game.engine import apply, legal_moves
from bot.game.events import RoundEnded
from bot.game.moves import Move, Play
from bot.game.serial import step
from bot.game.state import GameState, Phase
from bot.playground import Chat, FakeTelegram, User
from bot.ui.games import game_won
from tests.e2e.actions import replies_to, say
from tests.e2e.process import BotProcess
from tests.e2e.shown import GAME_OVER, RU, bot_messages
from tests.e2e.stored import fresh_state, games_in, query, replay_game


@dataclass(frozen=True)
class Rated:
    """A player's line of a chat's rating."""

    games: int = 0
    wins: int = 0
    goats: int = 0
    points: int = 0

    def __add__(self, other: Rated) -> Rated:
        return Rated(
            self.games + other.games,
            self.wins + other.wins,
            self.goats + other.goats,
            self.points + other.points,
        )


def half_up_tenth(n: int) -> int:
    """round_half_up(n / 10) for a whole n."""
    return (n + 5) // 10


def rated(state: GameState) -> dict[int, Rated]:
    """RULES §2.6–§2.7 for a finished individual «Козёл» game, from the engine's tally:
    places by score, then remembered, then seat, goats last; rating points by the
    online-site formula, or by the distance to the first leaver when people left (they are
    the goats)."""
    assert state.outcome is not None, "the game is not over"
    rules, tally = state.rules, state.tally
    assert rules.scoring == "goat" and not rules.teams, "only individual «Козёл» is rated here"
    scores, remembered = tally.scores, tally.remembered
    seats = range(rules.players)
    leaver = state.left[0] if state.left else None  # who left first: the others' measure
    goats = set(state.left) or {s for s in seats if scores[s] >= rules.target}
    order = sorted(seats, key=lambda s: (s in goats, scores[s], remembered[s], s))
    result = {}
    for place, seat in enumerate(order, start=1):
        if seat in goats:
            points = 0
        elif leaver is not None:
            points = max(1, half_up_tenth(scores[leaver] - scores[seat]))
        else:
            points = max(1, half_up_tenth(100 - scores[seat]))
        result[int(state.seats[seat])] = Rated(1, int(place == 1), int(seat in goats), points)
    return result


def expected_rating(folder: Path, chat_id: int) -> dict[int, Rated]:
    """The chat's rating recomputed from every finished game's replayed log."""
    total: dict[int, Rated] = {}
    for game in games_in(folder, chat_id):
        if game["status"] == "finished":
            for user_id, line in rated(replay_game(folder, game["id"])).items():
                total[user_id] = total.get(user_id, Rated()) + line
    return total


RATING_ROW = re.compile(r"^(\d+)\. (.+) — (\d+)(\*?) · (\d+) · (\d+) · (\d+) · (\d+)$")


def expected_skill(folder: Path, chat_id: int) -> dict[int, int]:
    """The shown skill rating of every rated player, recomputed here with openskill's
    Plackett–Luce model straight from the replayed games: round(1000 + 40·(μ − 3σ))."""
    model = PlackettLuce()
    skills: dict[int, Any] = {}
    for game in games_in(folder, chat_id):
        if game["status"] != "finished":
            continue
        state = replay_game(folder, game["id"])
        assert state.outcome is not None
        sides: dict[int, list[int]] = {}
        places: dict[int, int] = {}
        for place in state.outcome.places:
            sides.setdefault(place.side, []).append(int(state.seats[place.seat]))
            places[place.side] = place.place
        teams = [[skills.get(u) or model.rating() for u in users] for users in sides.values()]
        new = model.rate(teams, ranks=[places[side] for side in sides])
        for users, ratings in zip(sides.values(), new, strict=True):
            skills.update(zip(users, ratings, strict=True))
    return {u: round(1000 + 40 * (r.mu - 3 * r.sigma)) for u, r in skills.items()}


SCORE_PART = re.compile(r"^(.+?): (\d+)(?: \(\+(\d+)\))?$")


def skill_shown(mu: float, sigma: float) -> int:
    """The number players see: round(1000 + 40·(μ − 3σ))."""
    return round(1000 + 40 * (mu - 3 * sigma))


def shown_rating(text: str) -> list[tuple[str, int, Rated]]:
    """The rows of a /rating answer, in order: name, skill rating, the §2.7 sums; the ranks
    count 1, 2, … and a provisional mark goes with fewer than 5 games."""
    lines = text.splitlines()
    assert lines[1] == RU("rating-columns"), text
    rows: list[tuple[str, int, Rated]] = []
    for line in lines[2:]:
        if line.startswith("*"):
            continue
        match = RATING_ROW.match(line)
        assert match, f"not a rating row: {line!r}"
        rank, name, skill, mark, *numbers = match.groups()
        assert int(rank) == len(rows) + 1, text
        row = Rated(*map(int, numbers))
        assert bool(mark) == (row.games < 5), line
        rows.append((name, int(skill), row))
    return rows


def shown_scores(line: str) -> dict[str, tuple[int, int]]:
    """`Маша: 12 (+5) · Серёжа: 0` → {name: (score, remembered)} (eggs left out)."""
    scores = {}
    for part in line.split(" · "):
        if part.startswith("🥚"):
            continue
        match = SCORE_PART.match(part)
        assert match, f"not a score: {part!r}"
        scores[match[1]] = (int(match[2]), int(match[3] or 0))
    return scores


def engine_scores(state: GameState, names: dict[int, str]) -> dict[str, tuple[int, int]]:
    tally = state.tally
    return {
        names[int(user)]: (tally.scores[seat], tally.remembered[seat])
        for seat, user in enumerate(state.seats)
    }


def round_ends(folder: Path, game_id: int) -> list[RoundEnded]:
    """Every round result of the game, as the engine gives them when replaying its log."""
    state = fresh_state(folder, game_id)
    ended: list[RoundEnded] = []
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    for row in rows:
        state = step(state, json.loads(row["entry"]))
        last = state.last_round
        if last is not None and (not ended or ended[-1].round_no != last.round_no):
            ended.append(last)
    return ended


RESULT_HAND = re.compile(r"^(.+?): (.*) = (\d+)$")


RESULT_SCORE = re.compile(r"^(.+?): (\d+) → ([+-]\d+) → (\d+)(?: \(\+(\d+)\))?")


def check_round_message(text: str, ended: RoundEnded, names: Sequence[str]) -> None:
    """A round-result caption says what the engine's `RoundEnded` says: fish or who went
    out, each hand's value, and each score before → round → after (+remembered); then the
    round's deal code."""
    head, *lines, deal = text.splitlines()
    assert head.startswith(f"Раунд {ended.round_no}:"), head
    assert deal.startswith("🃏 Раздача ") and "/newgame deal=" in deal, deal  # its code
    assert ("рыба" in head) == (ended.reason == "fish"), head
    if ended.reason == "fish" and not ended.eggs:
        assert f"рыбак — {names[ended.seat]}" in head, head
    elif ended.reason == "out":
        assert f"{names[ended.seat]} выходит" in head, head  # no «вышел(а)»
    split = lines.index("Счёт (было → раунд → стало):")
    hands = {m[1]: int(m[3]) for line in lines[:split] if (m := RESULT_HAND.match(line))}
    assert hands == {names[r.seat]: r.hand_value for r in ended.results}, text
    sheet = {}
    for line in lines[split + 1 :]:
        match = RESULT_SCORE.match(line)
        assert match, line
        sheet[match[1]] = (int(match[2]), int(match[3]), int(match[4]), int(match[5] or 0))
    assert sheet == {
        names[r.seat]: (r.score_before, r.round_points, r.score_after, r.remembered_after)
        for r in ended.results
    }, text


def bot_choices(state: GameState) -> list[Move]:
    """The moves buttons can make: a tile that fits two different ends once per end,
    otherwise the one the bot picks for a press (bot/handlers/play.py)."""
    legal = legal_moves(state)
    choices: list[Move] = []
    for move in legal:
        if not isinstance(move, Play):
            choices.append(move)
            continue
        plays = [m for m in legal if isinstance(m, Play) and m.tile == move.tile]
        if move is plays[0] or (len(set(state.ends)) > 1 and len(plays) > 1):
            choices.append(move)
    return choices


def plan_fish(state: GameState, budget: int = 50_000) -> list[Move]:
    """Moves (depth first) that end the current round with a fish («рыба»)."""
    nodes = 0

    def search(state: GameState) -> list[Move] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        for move in bot_choices(state):
            after, _ = apply(state, move)
            if after.phase is not Phase.PLAYING:
                if after.last_round is not None and after.last_round.reason == "fish":
                    return [move]
                continue
            rest = search(after)
            if rest is not None:
                return [move, *rest]
        return None

    plan = search(state)
    assert plan is not None, "no fish within the search budget"
    return plan


END_ROW = re.compile(r"^(\d+)\. (.+) — (\d+)( 🐐 козёл)?, очки партии \+(\d+)$")


def names_by_id(fake: FakeTelegram) -> dict[int, str]:
    return {user.id: user.name for user in fake.users.values()}


BADGES = "🏅"
"""What the line of badges starts with (in a game's result, under /stats' picture)."""


def without_badges(text: str) -> str:
    """A game's result or /stats without its last line, the badges' (if it has one)."""
    *lines, last = text.splitlines()
    return "\n".join(lines) if lines and last.startswith(BADGES) else text


def check_end_message(text: str, state: GameState, names: dict[int, str]) -> None:
    """«Игра окончена» lists places, scores, goats and game points as RULES §2.6–§2.7 say,
    after a line naming who left during a game that went on, and ends with the game and
    how it is won — and, in a game with computers, a line saying it is not rated; then the
    badges its people earned, if any (tests/e2e/test_e2e_badges.py)."""
    *lines, footer = without_badges(text).splitlines()[1:]
    if any(int(user) < 0 for user in state.seats):  # computers (negative ids): not rated
        assert footer == RU("game-unrated-computers"), text
        *lines, footer = lines
    assert RU("game-unrated-computers") not in lines, text
    assert footer == game_won(RU, state.rules), text
    assert state.outcome is not None
    if state.outcome.reason != "timeout" and state.left:
        leaver = names[int(state.seats[state.left[0]])]
        assert lines.pop(0) == RU("game-over-left", name=leaver), text
    expected = rated(state)
    by_place = sorted(expected, key=lambda user: -expected[user].wins)
    shown = [END_ROW.match(line) for line in lines]
    assert all(shown), text
    rows = {m[2]: (int(m[3]), bool(m[4]), int(m[5])) for m in shown if m}
    seat = {int(user): s for s, user in enumerate(state.seats)}
    assert rows == {
        names[u]: (state.tally.scores[seat[u]], bool(r.goats), r.points)
        for u, r in expected.items()
    }, text
    assert shown[0] is not None and shown[0][2] == names[by_place[0]], text


async def check_rating(
    fake: FakeTelegram, bot: BotProcess, group: Chat, asker: User, topic: int | None = None
) -> list[tuple[str, int, Rated]]:
    """/rating all shows, for every player of the chat's finished games (up to 10), the skill
    rating and the sums of RULES §2.7 points, wins and goats, best rating first."""
    asked = await say(fake, bot, asker, group, "/rating all", topic=topic)
    (answer,) = replies_to(fake, group, asked)
    rows = shown_rating(answer.content or "")
    names = names_by_id(fake)
    expected = expected_rating(bot.folder, group.id)
    skill = expected_skill(bot.folder, group.id)
    assert {name: (rating, r) for name, rating, r in rows} == {
        names[u]: (skill[u], r) for u, r in expected.items()
    }, answer.content
    order = sorted(
        expected,
        key=lambda u: (-skill[u], -expected[u].points, -expected[u].wins, expected[u].goats, u),
    )
    assert [name for name, _, _ in rows] == [names[u] for u in order], answer.content
    return rows


async def check_finished_game(
    fake: FakeTelegram,
    bot: BotProcess,
    group: Chat,
    asker: User,
    game_id: int,
    since: int | None = None,
) -> GameState:
    """The game's round results, its end message and /score match the engine's replay of
    its log; /rating matches every finished game of the chat. The game's messages are the
    group's (topic's) after message `since` (default: the game's lobby)."""
    (game,) = query(bot.folder, "SELECT * FROM games WHERE id = ?", game_id)
    assert game["status"] == "finished", dict(game)
    state = replay_game(bot.folder, game_id)
    assert state.outcome is not None
    timeout = state.outcome.reason == "timeout"
    names = names_by_id(fake)
    seat_names = [names[int(user)] for user in state.seats]
    first = game["lobby_message_id"] if since is None else since
    messages = [
        m
        for m in bot_messages(fake, group)
        if m.message_id > first and m.thread_id == (game["thread_id"] or None)
    ]
    results = [m for m in messages if "Счёт (было → раунд → стало)" in (m.content or "")]
    ends = round_ends(bot.folder, game_id)
    assert len(results) == len(ends) == state.round_no - timeout
    for message, ended in zip(results, ends, strict=True):
        check_round_message(message.content or "", ended, seat_names)
    (end,) = [m for m in messages if (m.content or "").startswith(GAME_OVER)]
    check_end_message(end.content or "", state, names)
    topic = game["thread_id"] or None
    asked = await say(fake, bot, asker, group, "/score", topic=topic)
    (answer,) = replies_to(fake, group, asked)
    lines = (answer.content or "").splitlines()
    assert lines[0] == f"Счёт после раунда {len(ends)}:", answer.content
    assert shown_scores(lines[1]) == engine_scores(state, names), answer.content
    assert "\n".join(lines[2:]) == without_badges(end.content or ""), answer.content
    await check_rating(fake, bot, group, asker, topic)
    return state
