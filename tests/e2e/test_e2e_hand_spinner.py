"""The hand in the spinner games, end to end: in «Осёл» a tile goes on the arm named by its
arrow, a double goes down closed, and a move of several doubles is built in the private
chat (cancelled once, then sent); Sea Goat's pair goes through the same builder; the
previous version's hand buttons still play. The deals are chosen by the game's seed, set
in the lobby before the start, and the moves planned with the engine."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.game import apply, legal_moves, new_game, parse_rules
from bot.game.events import DoublesPlayed, TilePlayed
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.rules import RuleSet, Spinner
from bot.game.state import GameState, Phase
from bot.game.table import CLOSED
from bot.playground import FakeTelegram, Message, User
from bot.ui.hand import arm
from bot.ui.texts import move_label
from tests.e2e.actions import forge_press, press, seeded_game, version_of, wait_turn
from tests.e2e.process import BotProcess, running_bot, stretched
from tests.e2e.shown import NAMES, PICK_END, PLAYABLE, RU, bot_messages
from tests.e2e.stored import stored_state

DONKEY = parse_rules("donkey").with_players(2)
SEA_GOAT = parse_rules("sea_goat").with_players(2)
SEATS = ("1", "2")  # the deal follows from the seed alone
Goal = Callable[[GameState, Move], bool]


def arms_of(state: GameState, tile: int) -> set[int]:
    return {m.end for m in legal_moves(state) if isinstance(m, Play) and m.tile == tile}


def by_arrow(state: GameState, move: Move) -> bool:
    """A plain tile put on one of several arms of the spinner, not the first."""
    return (
        isinstance(move, Play)
        and len(state.ends) == 4
        and not state.rules.tiles.is_double(move.tile)
        and len(arms_of(state, move.tile)) > 1
        and move.end == max(arms_of(state, move.tile))
    )


def closed_double(state: GameState, move: Move) -> bool:
    return isinstance(move, Play) and move.closed


def doubles_move(state: GameState, move: Move) -> bool:
    return isinstance(move, PlayDoubles)


def one_closed_of_doubles(state: GameState, move: Move) -> bool:
    """Several doubles, one of them closed (the player chooses which)."""
    return isinstance(move, PlayDoubles) and sum(move.closed) == 1


def plan(rules: RuleSet, goals: Sequence[Goal]) -> tuple[int, list[Move]]:
    """A seed and moves from its deal that meet `goals` in order, the last move meeting the
    last one, all in the first round (random plain moves between them)."""
    for seed in range(2000):
        rng = random.Random(seed)
        state, _ = new_game(rules, SEATS, seed)
        moves: list[Move] = []
        left = list(goals)
        while left and state.phase is Phase.PLAYING and len(moves) < 40:
            legal = legal_moves(state)
            meeting = [m for m in legal if left[0](state, m)]
            if meeting:
                move = meeting[0]
                left.pop(0)
            else:
                move = rng.choice([m for m in legal if not isinstance(m, PlayDoubles)])
                if isinstance(move, Play) and move.closed:
                    continue
            state, _ = apply(state, move)
            moves.append(move)
        if not left and state.phase is Phase.PLAYING:
            return seed, moves
    raise AssertionError("no deal for the plan")


def states_of(rules: RuleSet, seed: int, moves: Sequence[Move]) -> list[GameState]:
    """The state before each move, and after the last."""
    state, _ = new_game(rules, SEATS, seed)
    states = [state]
    for move in moves:
        state, _ = apply(state, move)
        states.append(state)
    return states


def end_label(state: GameState, end: int) -> str:
    """An end's button: words on a line, the arrow and open value in the spinner games."""
    if state.rules.spinner is not Spinner.NONE:
        return arm(end, state.ends[end])
    return RU("end-left" if end == 0 else "end-right", value=state.ends[end])


def same_play(a: GameState, b: GameState) -> bool:
    """The same round as far as (the seats' ids aside)."""
    return (a.hands, a.bazaar, a.ends, a.to_move, a.history) == (
        b.hands,
        b.bazaar,
        b.ends,
        b.to_move,
        b.history,
    )


async def reached(fake: FakeTelegram, folder: Path, game_id: int, state: GameState) -> None:
    """The bot's game comes to `state`; else the two rounds' events are told."""
    try:
        await fake.wait_until(lambda: same_play(stored_state(folder, game_id), state))
    except TimeoutError:
        stored = stored_state(folder, game_id)
        raise AssertionError(f"{stored.history[-3:]} != {state.history[-3:]}") from None


def newest_hand(fake: FakeTelegram, user: User) -> Message | None:
    hands = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    return hands[-1] if hands else None


Buttons = list[list[str]]


async def showing(fake: FakeTelegram, user: User, label: str, pressed: Buttons) -> Message:
    """The user's hand once it shows a button `label` on buttons other than the `pressed`
    ones (until the press's swap comes, those may still hold a button of that name)."""

    def shown() -> Message | None:
        hand = newest_hand(fake, user)
        if hand is None or hand.buttons == pressed:
            return None
        return hand if any(label in row for row in hand.buttons) else None

    found: Message = await fake.wait_until(shown, 20)
    return found


class Player:
    """Makes planned moves with the hand's buttons, answering each question it asks."""

    def __init__(self, fake: FakeTelegram, users: list[User]) -> None:
        self.fake, self.users, self.after = fake, users, -1

    async def turn(self) -> tuple[User, Message]:
        user, hand = await wait_turn(self.fake, self.users, self.after)
        self.after = version_of(hand)
        return user, hand

    async def make(self, state: GameState, move: Move) -> None:
        user, hand = await self.turn()
        tiles = state.rules.tiles
        if isinstance(move, PlayDoubles):
            first = RU("hand-doubles")
            placing = list(
                zip(move.tiles, move.ends, move.closed or (False,) * len(move.tiles), strict=True)
            )
        else:
            assert isinstance(move, Play)
            first = PLAYABLE + tiles.name(move.tile)
            placing = [(move.tile, move.end, move.closed)]
        pressed = hand.buttons
        answer = await press(self.fake, user, hand, first)
        await self.answer(user, state, placing, answer, pressed)

    async def answer(
        self,
        user: User,
        state: GameState,
        placing: list[tuple[int, int, bool]],
        answer: str,
        pressed: Buttons,
    ) -> None:
        """Answer the hand's questions until the move is played."""
        tiles, done = state.rules.tiles, False
        while answer:
            tile, end, closed = placing[0]
            if answer == PICK_END:
                label = end_label(state, end)
            elif answer == RU("hand-pick-face"):
                label = RU("hand-closed" if closed else "hand-open")
            elif answer == RU("hand-pick-double"):
                label = tiles.name(tile)
            else:
                assert answer == RU("hand-ready"), answer
                placing.pop(0)
                done = not placing
                label = RU("hand-done" if done else "hand-more")
            hand = await showing(self.fake, user, label, pressed)
            pressed = hand.buttons
            answer = await press(self.fake, user, hand, label)
        assert done or len(placing) == 1, placing


async def test_donkey_arrows_a_closed_double_and_several_doubles_built_cancelled_and_sent(
    tmp_path: Path,
) -> None:
    seed, moves = plan(DONKEY, [by_arrow, closed_double, one_closed_of_doubles])
    states = states_of(DONKEY, seed, moves)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            game_id = await seeded_game(fake, tmp_path, group, users, "donkey", seed)
            assert same_play(stored_state(tmp_path, game_id), states[0])
            player = Player(fake, users)
            for state, move in zip(states, moves[:-1], strict=False):
                await player.make(state, move)
            before, several = states[-2], moves[-1]
            assert isinstance(several, PlayDoubles)
            await cancelled_once(fake, bot, tmp_path, game_id, player, before, several)
            await player.make(before, several)
            await reached(fake, tmp_path, game_id, states[-1])

    after = states[-1]
    assert any(isinstance(e, TilePlayed) and e.closed for e in after.history)
    (put,) = [e for e in after.history if isinstance(e, DoublesPlayed)]
    assert (put.tiles, put.ends) == (several.tiles, several.ends)
    closed_arms = [end for end, value in enumerate(after.ends) if value == CLOSED]
    assert closed_arms, after.ends


async def cancelled_once(
    fake: FakeTelegram,
    bot: BotProcess,
    folder: Path,
    game_id: int,
    player: Player,
    state: GameState,
    move: PlayDoubles,
) -> None:
    """The move of doubles started, its first double placed, then cancelled: the hand is
    back with nothing played."""
    user, hand = await wait_turn(fake, player.users, player.after)
    pressed = hand.buttons
    assert await press(fake, user, hand, RU("hand-doubles")) == RU("hand-pick-double")
    name = state.rules.tiles.name(move.tiles[0])
    hand = await showing(fake, user, name, pressed)
    # what to press is in the hand's text (the toast goes by), and no word of a ✅ that the
    # doubles' buttons do not have
    assert RU("hand-ask-first-double") in (hand.content or ""), hand.content
    assert RU("hand-playable") not in (hand.content or ""), hand.content
    assert not any(b.startswith(PLAYABLE) for row in hand.buttons for b in row), hand.buttons
    pressed = hand.buttons
    answer = await press(fake, user, hand, name)
    closed = bool(move.closed) and move.closed[0]
    while answer != RU("hand-ready"):
        if answer == PICK_END:
            label = end_label(state, move.ends[0])
        else:
            label = RU("hand-closed" if closed else "hand-open")
        hand = await showing(fake, user, label, pressed)
        pressed = hand.buttons
        answer = await press(fake, user, hand, label)
    building = await showing(fake, user, RU("hand-cancel"), pressed)
    pressed = building.buttons
    assert RU("hand-playable") not in (building.content or ""), building.content
    assert RU("hand-building", move="").strip() in (building.content or ""), building.content
    assert name in (building.content or "").splitlines()[-1]
    assert await press(fake, user, building, RU("hand-cancel")) == ""
    back = await showing(fake, user, RU("hand-doubles"), pressed)
    await bot.idle()
    assert RU("hand-building", move="").strip() not in (back.content or "")
    assert RU("hand-playable") in (back.content or ""), back.content  # the tiles again
    assert same_play(stored_state(folder, game_id), state)


async def forged_answer(fake: FakeTelegram, user: User, hand: Message, data: str) -> Any:
    """The answer to a press of `data` on the hand (a button the hand does not show)."""
    query = forge_press(fake, user, hand, data)
    return await fake.wait_until(lambda: fake.answer_for(query), 20)


def pair_plan() -> tuple[int, list[Move]]:
    return plan(SEA_GOAT, [doubles_move])


async def test_sea_goats_pair_goes_through_the_builder(tmp_path: Path) -> None:
    seed, moves = pair_plan()
    states = states_of(SEA_GOAT, seed, moves)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            game_id = await seeded_game(fake, tmp_path, group, users, "sea_goat", seed)
            player = Player(fake, users)
            for state, move in zip(states, moves[:-1], strict=False):
                await player.make(state, move)
            pair = moves[-1]
            assert isinstance(pair, PlayDoubles)
            user, hand = await player.turn()
            label = move_label(RU, pair, SEA_GOAT)
            pressed = hand.buttons
            assert await press(fake, user, hand, label) == RU("hand-ready")
            ready = await showing(fake, user, RU("hand-done"), pressed)
            assert RU("hand-more") not in {b for row in ready.buttons for b in row}
            assert await press(fake, user, ready, RU("hand-done")) == ""
            await reached(fake, tmp_path, game_id, states[-1])
    assert any(isinstance(e, DoublesPlayed) for e in states[-1].history)


async def test_the_previous_versions_hand_buttons_still_play(tmp_path: Path) -> None:
    """A hand sent before the update carries `m:` data only: a tile at its end, a tile whose
    end is asked, and the pair button («2»)."""
    seed, moves = pair_plan()
    states = states_of(SEA_GOAT, seed, moves)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            game_id = await seeded_game(fake, tmp_path, group, users, "sea_goat", seed)
            player = Player(fake, users)
            for move in moves:
                user, hand = await player.turn()
                version = player.after
                if isinstance(move, PlayDoubles):
                    data = f"m:{game_id}:{version}:2:-1:-1"
                else:
                    assert isinstance(move, Play)
                    data = f"m:{game_id}:{version}:t:{move.tile}:{move.end}"
                answer = await forged_answer(fake, user, hand, data)
                assert not answer.text, (data, answer)  # played: no word
            await reached(fake, tmp_path, game_id, states[-1])


async def test_a_half_built_move_is_discarded_when_the_clock_runs_out(tmp_path: Path) -> None:
    """The player starts a move of several doubles and places one, then lets the clock run
    out: the computer moves for the seat, the hand comes back without the half-built move,
    and «done» pressed on the old buttons plays nothing."""
    seed, moves = plan(DONKEY, [doubles_move])
    states = states_of(DONKEY, seed, moves)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            options = f"donkey turn_timeout={stretched(4)}"  # time to build a move's start
            game_id = await seeded_game(fake, tmp_path, group, users, options, seed)
            player = Player(fake, users)
            for state, move in zip(states, moves[:-1], strict=False):
                await player.make(state, move)
            before, several = states[-2], moves[-1]
            assert isinstance(several, PlayDoubles)
            user, hand = await player.turn()
            pressed = hand.buttons
            assert await press(fake, user, hand, RU("hand-doubles")) == RU("hand-pick-double")
            name = before.rules.tiles.name(several.tiles[0])
            hand = await showing(fake, user, name, pressed)
            pressed = hand.buttons
            answer = await press(fake, user, hand, name)
            while answer != RU("hand-ready"):
                label = (
                    end_label(before, several.ends[0]) if answer == PICK_END else RU("hand-open")
                )
                hand = await showing(fake, user, label, pressed)
                pressed = hand.buttons
                answer = await press(fake, user, hand, label)
            building = await showing(fake, user, RU("hand-more"), pressed)
            timed_out = RU("timed-out", name=users[before.to_move].name)  # seats by joining
            await fake.wait_until(
                lambda: any(timed_out in (m.content or "") for m in bot_messages(fake, group)), 20
            )
            stored = stored_state(tmp_path, game_id)
            after = stored.history[len(before.history) :] if stored.round_no == 1 else ()
            mine = [e for e in after if isinstance(e, TilePlayed | DoublesPlayed)]
            assert mine and mine[0] != DoublesPlayed(
                before.to_move, several.tiles, several.ends, several.closed
            )
            answer = await forged_answer(
                fake, user, building, building.reply_markup[-1][0]["callback_data"]
            )
            assert answer.text in (RU("not-your-turn"), RU("stale")), answer
            assert stored_state(tmp_path, game_id).history[: len(stored.history)] == (
                stored.history
            )
            fresh = newest_hand(fake, user)
            assert fresh is not None
            assert RU("hand-building", move="").strip() not in (fresh.content or "")
