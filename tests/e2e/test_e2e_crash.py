"""Crashes: the bot process is killed (SIGKILL) at random moments of a game and started again
on the same database each time — right after a button press, while the messages about a
stored move are being sent, while idle, and during the start-up resync. The game is still
played to its end: no move is lost, none is applied twice, the stored state is the replay
of the stored move log, and what the group was shown matches that replay."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bot.game.engine import DRAW, PASS, IllegalMoveError, apply, legal_moves
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.serial import state_from_json, state_to_json
from bot.game.state import GameState, Phase
from bot.playground import CallbackAnswer, FakeTelegram, Message, User
from bot.telegram.buttons import MoveButton
from tests.e2e.actions import (
    forge_press,
    is_end,
    last_update_id,
    open_lobby,
    start_game,
    version_of,
    wait_text,
)
from tests.e2e.checks import check_finished_game
from tests.e2e.process import BotProcess
from tests.e2e.shown import (
    EXTRAS,
    GAME_OVER,
    NAMES,
    PICK_END,
    PLAYABLE,
    RU,
    YOUR_TURN,
    bot_messages,
)
from tests.e2e.stored import games_in, query, replay_game

# Four people, a short target and «рыба на всех»: about 100 moves, seldom fewer than 40 (the
# kills come first, so they all fit into one game); no turn clocks, so the time the bot is
# down costs nobody a move.
OPTIONS = "goat target=51 fish=all turn_timeout=0"
MIN_KILLS = 20
SEED = int(os.environ.get("KOZEL_CRASH_SEED", "1"))
# the planned kills, shuffled: a kill right after a press (before its answer), after the
# answer while the messages go out, while idle, and while idle followed by a second one
# during the start-up resync of the next process
DECK = ["press"] * 6 + ["sending"] * 6 + ["idle"] * 2 + ["start-up"] * 3  # 20 kills
KILL_CHANCE = 0.6  # per move until MIN_KILLS, then LATE_CHANCE (each kill costs ~3 s)
LATE_CHANCE = 0.01
STALE_CHANCE = 0.12  # a press on someone's stale or not-their-turn buttons before a move
RESYNC_CALLS = {
    "editmessagemedia",
    "editmessagetext",
    "editmessagecaption",
    "editmessagereplymarkup",
    "sendmessage",
    "sendphoto",
    "deletemessage",
}
ENTRY_TYPE = {"t": "Play", "d": "Draw", "p": "Pass", "2": "PlayDoubles"}


@dataclass
class Press:
    """A press the fake delivered: whose, which button (its data), and the update's id."""

    query: str
    user: User
    button: MoveButton
    update_id: int


@dataclass
class Crashes:
    """The bot process with kills and restarts, and the record of every move-button press."""

    fake: FakeTelegram
    bot: BotProcess
    rng: random.Random
    kills: list[str] = field(default_factory=list)  # "kind/what the bot was doing"
    presses: list[Press] = field(default_factory=list)
    cut_short: set[str] = field(default_factory=set)  # queries unanswered at a kill
    _calls: int = 0  # where this run's calls and stderr begin
    _logs: int = 0

    async def start(self) -> None:
        self._calls, self._logs = len(self.fake.calls), len(self.bot.logs)
        await self.bot.start()

    def run_log(self) -> str:
        return b"".join(self.bot.logs[self._logs :]).decode(errors="replace")

    def delivered(self) -> set[int]:
        """The updates this run of the process has fetched."""
        ids: set[int] = set()
        for call in self.fake.calls[self._calls :]:
            if call.method.lower() == "getupdates" and isinstance(call.result, list):
                ids |= {int(u["update_id"]) for u in call.result}
        return ids

    def settled(self) -> bool:
        """Every update is fetched, everything this run fetched is handled and its messages
        are sent (an update fetched by a killed run and confirmed is gone: its press stays
        unanswered)."""
        if self.fake.pending_updates:
            return False
        log = self.run_log()
        return all(f"Update id={u} is " in log for u in self.delivered()) and self.bot.all_sent()

    async def settle(self) -> None:
        await self.fake.wait_until(self.settled, 30, interval=0.005)

    def doing(self) -> str:
        """What the bot was doing with the last press when it was killed."""
        if not self.presses:
            return "idle"
        last = self.presses[-1]
        if last.update_id not in self.delivered():
            return "before-fetch"
        if self.fake.answer_for(last.query) is None:
            return "before-answer"
        if f"Update id={last.update_id} is " not in self.run_log() or not self.bot.all_sent():
            return "sending"
        return "idle"

    async def kill(self, kind: str, doing: str | None = None) -> None:
        """SIGKILL now (the signal goes before anything else can run)."""
        self.cut_short |= {p.query for p in self.presses if self.fake.answer_for(p.query) is None}
        self.kills.append(f"{kind}/{doing or self.doing()}")
        log = await self.bot.stop(signal.SIGKILL)
        assert "Traceback" not in log, log

    async def restart(self, killed_in_start_up: bool) -> None:
        """Start the bot again; first, maybe, kill it once more while it resyncs."""
        if killed_in_start_up:
            calls = len(self.fake.calls)
            self._calls, self._logs = calls, len(self.bot.logs)
            starting = asyncio.ensure_future(self.bot.start())

            def resyncing() -> bool:
                return starting.done() or any(
                    c.method.lower() in RESYNC_CALLS for c in self.fake.calls[calls:]
                )

            await self.fake.wait_until(resyncing, 30, interval=0.001)
            await asyncio.sleep(self.rng.uniform(0, 0.02))
            doing = "polling" if starting.done() else "resync"
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
            await self.kill("start-up", doing)
        await self.start()

    def press(self, user: User, message: Message, button: str) -> Press:
        data = data_of(message, button)
        query_id = self.fake.user_presses(user, message, button)
        press = Press(query_id, user, data, last_update_id(self.fake))
        self.presses.append(press)
        return press

    def forge(self, user: User, message: Message, data: MoveButton) -> Press:
        query_id = forge_press(self.fake, user, message, data.pack())
        press = Press(query_id, user, data, last_update_id(self.fake))
        self.presses.append(press)
        return press

    async def answered(self, press: Press) -> CallbackAnswer:
        """The bot's answer to `press`, as soon as it comes."""
        found = partial(self.fake.answer_for, press.query)
        answer: CallbackAnswer = await self.fake.wait_until(found, 20, interval=0.001)
        return answer

    async def turn(self, users: list[User], version: int) -> tuple[User, Message]:
        """The player to move and their hand with the buttons of `version`."""
        found = partial(current_hand, self.fake, users, version)
        hand: tuple[User, Message] = await self.fake.wait_until(found, 20)
        return hand

    def outcome(self, press: Press) -> str:
        """lost (never answered), prompt (which end / back), refused (any other word),
        accepted (a move: no word)."""
        answer = self.fake.answer_for(press.query)
        if answer is None:
            return "lost"
        if answer.text == PICK_END or (press.button.kind == "b" and not answer.text):
            return "prompt"
        return "refused" if answer.text else "accepted"


# -- what the chats and the database show ------------------------------------------------


def move_buttons(message: Message) -> list[str]:
    return [
        b["text"]
        for row in message.reply_markup or []
        for b in row
        if str(b.get("callback_data", "")).startswith("m:")
    ]


def current_hand(
    fake: FakeTelegram, users: list[User], version: int
) -> tuple[User, Message] | None:
    """The one player whose last message is a «your turn» hand with the game's buttons."""
    found = []
    for user in users:
        messages = bot_messages(fake, user)
        last = messages[-1] if messages else None
        if last is not None and YOUR_TURN in (last.content or "") and version_of(last) == version:
            found.append((user, last))
    return found[0] if len(found) == 1 else None


def game_row(folder: Path, game_id: int) -> Any:
    (row,) = query(folder, "SELECT * FROM games WHERE id = ?", game_id)
    return row


def log_size(folder: Path, game_id: int) -> int:
    (row,) = query(folder, "SELECT COUNT(*) AS n FROM moves WHERE game_id = ?", game_id)
    return int(row["n"])


def chosen(state: GameState, button: MoveButton) -> Move | None:
    """The move a press of `button` makes (as bot/handlers/play.py reads it), None for a
    press that asks which end, goes back, or does not fit."""
    legal = legal_moves(state)
    if button.kind == "d":
        return DRAW
    if button.kind == "p":
        return PASS
    if button.kind == "2":
        return next((m for m in legal if isinstance(m, PlayDoubles)), None)
    if button.kind != "t":
        return None
    if button.end >= 0:
        return Play(button.tile, button.end)
    plays = [m for m in legal if isinstance(m, Play) and m.tile == button.tile]
    if not plays:
        return None
    return plays[0] if len(plays) == 1 or len(set(state.ends)) == 1 else None


def phase_after(state: GameState, button: MoveButton) -> Phase:
    """The phase a press of `button` leads to (PLAYING for a press that makes no move)."""
    move = chosen(state, button)
    if move is None:
        return Phase.PLAYING
    try:
        after, _ = apply(state, move)
    except IllegalMoveError:
        return Phase.PLAYING
    return after.phase


def data_of(message: Message, button: str) -> MoveButton:
    return MoveButton.unpack(
        next(
            str(b["callback_data"])
            for row in message.reply_markup or []
            for b in row
            if b["text"] == button
        )
    )


def pick(rng: random.Random, hand: Message) -> str:
    """Mostly a legal button; now and then a tile that does not fit, or «back»."""
    buttons = move_buttons(hand)
    ends = [b for b in buttons if is_end(b)]
    if ends:
        return rng.choice(ends) if rng.random() < 0.85 else RU("back")
    legal = [b for b in buttons if b.startswith(PLAYABLE) or b in EXTRAS]
    wrong = [b for b in buttons if b not in legal]
    if wrong and rng.random() < 0.08:
        return rng.choice(wrong)
    return rng.choice(legal)


# -- the game --------------------------------------------------------------------------


async def stale_press(
    crashes: Crashes, folder: Path, users: list[User], game_id: int, mover: User, hand: Message
) -> None:
    """Someone presses buttons that are not theirs to press now — a hand of another turn
    (e.g. drawn by a killed process), a hand while it is not their turn, or (a modified
    client) the mover's button of the previous version: refused, and nothing changes."""
    fake, rng = crashes.fake, crashes.rng
    version = game_row(folder, game_id)["version"]
    others = [
        (user, message)
        for user in users
        for message in bot_messages(fake, user)
        if move_buttons(message) and (user is not mover or version_of(message) != version)
    ]
    if others and (version == 0 or rng.random() < 0.7):
        user, message = rng.choice(others)
        press = crashes.press(user, message, rng.choice(move_buttons(message)))
    else:
        old = MoveButton(game=game_id, version=version - 1, kind="t", tile=0)
        press = crashes.forge(mover, hand, old)
    answer = await crashes.answered(press)
    assert answer.text in (RU("stale"), RU("not-your-turn")), (press, answer)
    await crashes.settle()
    assert game_row(folder, game_id)["version"] == version == log_size(folder, game_id)


def check_redrawn(crashes: Crashes, folder: Path, users: list[User], game_id: int) -> None:
    """After the start-up resync every hand message shows the game's current buttons."""
    game = game_row(folder, game_id)
    if game["status"] != "active":
        return
    rows = query(folder, "SELECT user_id, hand_message_id FROM players WHERE game_id = ?", game_id)
    hands = {int(r["user_id"]): r["hand_message_id"] for r in rows}
    for user in users:
        (hand,) = [m for m in bot_messages(crashes.fake, user) if m.message_id == hands[user.id]]
        assert version_of(hand) == game["version"], (user, hand, game["version"])


async def crash_through(
    crashes: Crashes, folder: Path, users: list[User], game_id: int, deck: list[str]
) -> None:
    """Play the game to its end, killing and restarting the bot on the way."""
    fake, rng = crashes.fake, crashes.rng
    while True:
        await crashes.settle()
        game = game_row(folder, game_id)
        if game["status"] != "active":
            assert game["status"] == "finished", dict(game)
            return
        version = game["version"]
        mover, hand = await crashes.turn(users, version)
        if rng.random() < STALE_CHANCE:
            await stale_press(crashes, folder, users, game_id, mover, hand)
            continue
        button = pick(rng, hand)
        state = state_from_json(json.loads(game["state"]))
        closing = phase_after(state, data_of(hand, button)) is not Phase.PLAYING
        kind = None
        if rng.random() < (KILL_CHANCE if len(crashes.kills) < MIN_KILLS else LATE_CHANCE):
            kind = deck.pop() if deck else rng.choice(["press", "sending", "idle"])
            if kind == "sending" and closing:
                # the messages about a round's end (its result, the next table, the game's
                # end) are kept nowhere until sent: a kill then loses them for good (see the
                # xfail test below), and check_finished_game would miss them
                deck.insert(0, kind)
                kind = None
        press = crashes.press(mover, hand, button)
        if kind == "press":
            if not closing and rng.random() < 0.7:  # else: not even fetched yet
                await asyncio.sleep(rng.uniform(0, 0.02))
            await crashes.kill(kind)
        else:
            await crashes.answered(press)
            if kind == "sending":
                await asyncio.sleep(rng.uniform(0, 0.025))
                await crashes.kill(kind)
            elif kind in ("idle", "start-up"):
                await crashes.settle()
                await crashes.kill("idle")
        if kind is None:
            continue
        quiet = not fake.pending_updates
        await crashes.restart(killed_in_start_up=kind == "start-up")
        if quiet:  # nothing for the new process to handle yet: the resync's hands
            await crashes.settle()
            check_redrawn(crashes, folder, users, game_id)


# -- the checks ------------------------------------------------------------------------


def check_log(crashes: Crashes, folder: Path, game_id: int) -> dict[str, int]:
    """The move log against the state and against the record of presses; some counts."""
    game = game_row(folder, game_id)
    rows = query(
        folder, "SELECT seq, user_id, entry FROM moves WHERE game_id = ? ORDER BY seq", game_id
    )
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1)), [r["seq"] for r in rows]
    assert game["version"] == len(rows)
    replayed = json.loads(json.dumps(state_to_json(replay_game(folder, game_id))))
    assert replayed == json.loads(game["state"])

    entries = {int(r["seq"]): (r["user_id"], json.loads(r["entry"])) for r in rows}
    for seq, (user_id, entry) in entries.items():
        # no computers and no clocks: the bot's own entries are only the deals
        assert (user_id is None) == (entry["type"] == "NextRound"), (seq, user_id, entry)
    presses = [p for p in crashes.presses if p.button.game == game_id]
    outcome = {p.query: crashes.outcome(p) for p in presses}

    def makes(press: Press, entry: dict[str, Any]) -> bool:
        button = press.button
        if entry["type"] != ENTRY_TYPE.get(button.kind):
            return False
        return button.kind != "t" or (
            entry["tile"] == button.tile and button.end in (-1, entry["end"])
        )

    applied: list[Press] = []
    for seq, (user_id, entry) in entries.items():
        if user_id is None:
            continue
        candidates = [
            p
            for p in presses
            if p.user.id == user_id
            and p.button.version == seq - 1
            and outcome[p.query] in ("accepted", "lost")
            and makes(p, entry)
        ]
        accepted = [p for p in candidates if outcome[p.query] == "accepted"]
        assert len(accepted) <= 1, f"entry {seq}: {len(accepted)} presses were told it was theirs"
        assert candidates, (
            f"entry {seq} by {user_id} ({entry}) was made by no press the bot accepted: "
            f"{[(p, outcome[p.query]) for p in presses if p.button.version == seq - 1]}"
        )
        applied.append(accepted[0] if accepted else candidates[0])
    for press in presses:
        if outcome[press.query] == "accepted":
            assert any(p is press for p in applied), f"accepted, but not in the log: {press}"
    unanswered = [p for p in applied if outcome[p.query] == "lost"]
    by_user = Counter(user_id for user_id, _ in entries.values() if user_id is not None)
    accepted_by = Counter(p.user.id for p in presses if outcome[p.query] == "accepted")
    assert by_user == accepted_by + Counter(p.user.id for p in unanswered), (by_user, accepted_by)
    counts = Counter(outcome.values())
    return {**counts, "applied-unanswered": len(unanswered), "entries": len(rows)}


async def test_sigkill_at_random_moments_loses_no_move_and_applies_none_twice(
    tmp_path: Path,
) -> None:
    rng = random.Random(SEED)
    deck = DECK.copy()
    rng.shuffle(deck)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:4]]
        group = fake.add_group("Двор", users)
        bot = BotProcess(fake, tmp_path)
        crashes = Crashes(fake, bot, rng)
        summary = []
        try:
            await crashes.start()
            while len(crashes.kills) < MIN_KILLS:  # a game too short for them: another one
                await start_game(fake, group, users, OPTIONS)
                game_id = games_in(tmp_path, group.id)[-1]["id"]
                await crash_through(crashes, tmp_path, users, game_id, deck)
                await check_finished_game(fake, bot, group, users[0], game_id)
                summary.append(check_log(crashes, tmp_path, game_id))
            await crashes.settle()
        except BaseException:
            print(bot.log[-20_000:])
            raise
        finally:
            if bot.process is not None:
                await bot.stop()
        print(f"seed {SEED}: {len(crashes.kills)} kills {Counter(crashes.kills)}; {summary}")
        kinds = Counter(kill.split("/")[0] for kill in crashes.kills)
        assert set(kinds) == {"press", "sending", "idle", "start-up"}, kinds
        lost = {q.id for q in fake.unanswered_queries()}
        assert lost <= crashes.cut_short, lost - crashes.cut_short
        # a press a kill cut short is answered by the next process once it is up: within
        # Telegram's window after a quick restart, too late after a slow one (a loaded CI
        # machine has taken 15 s to start the bot) — any other late answer is the bot's fault
        late = {q.id for q in fake.callback_queries.values() if q.late_answers}
        assert late <= crashes.cut_short, late - crashes.cut_short
        assert not fake.internal_errors, fake.internal_errors[-1]
        assert "Traceback" not in bot.log


async def test_a_kill_right_after_the_last_move_still_ends_the_game_in_the_chats(
    tmp_path: Path,
) -> None:
    rng = random.Random(SEED)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        bot = BotProcess(fake, tmp_path)
        crashes = Crashes(fake, bot, rng)
        try:
            await crashes.start()
            await start_game(fake, group, users, "goat target=26 turn_timeout=0")
            game_id = games_in(tmp_path, group.id)[-1]["id"]
            while True:
                await crashes.settle()
                game = game_row(tmp_path, game_id)
                version = game["version"]
                mover, hand = await crashes.turn(users, version)
                state = state_from_json(json.loads(game["state"]))
                buttons = [
                    b
                    for b in move_buttons(hand)
                    if b.startswith(PLAYABLE) or b in EXTRAS or is_end(b)
                ]
                last = [
                    b for b in buttons if phase_after(state, data_of(hand, b)) is Phase.GAME_OVER
                ]
                press = crashes.press(mover, hand, (last or [rng.choice(buttons)])[0])
                await crashes.answered(press)
                if last:  # stored and answered; the messages about it are on their way
                    await crashes.kill("sending")
                    break
            assert game_row(tmp_path, game_id)["status"] == "finished"
            await crashes.start()
            await wait_text(fake, group, GAME_OVER, timeout=3)
            for user in users:
                assert not [m for m in bot_messages(fake, user) if move_buttons(m)], user
        finally:
            if bot.process is not None:
                await bot.stop()


async def test_a_message_owed_when_the_bot_is_killed_goes_out_after_the_restart(
    tmp_path: Path,
) -> None:
    """«A game is already here» (pointing at a lobby, in the game's lane) is not part of
    any stored state a restart could redraw:
    Telegram refuses sends while it waits in the outbox, the bot is killed, and the next
    start sends it — once — and the outbox is empty again."""
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        bot = BotProcess(fake, tmp_path)
        try:
            await bot.start()
            await open_lobby(fake, group, masha)
            await bot.idle()
            fake.fail("sendMessage", seconds=600)
            fake.user_sends(olya, group, "/newgame")
            await fake.wait_until(lambda: query(tmp_path, "SELECT kind FROM outbox"))
            refused = len([c for c in fake.calls_of("sendMessage") if c.status == 502])
            await fake.wait_until(
                lambda: len([c for c in fake.calls_of("sendMessage") if c.status == 502]) > refused
            )
            await bot.stop(signal.SIGKILL)
            assert [r["kind"] for r in query(tmp_path, "SELECT kind FROM outbox")] == ["point"]
            fake.faults.clear()
            await bot.start()
            await wait_text(fake, group, RU("already-running"))
            await bot.idle()
            pointers = [m for m in bot_messages(fake, group) if m.content == RU("already-running")]
            assert len(pointers) == 1
            assert query(tmp_path, "SELECT COUNT(*) FROM outbox")[0][0] == 0
            assert "Traceback" not in bot.log
        finally:
            if bot.process is not None:
                await bot.stop()
