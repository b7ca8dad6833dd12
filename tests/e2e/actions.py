"""The players' side: what the chats show them, and acting only through it — the lobby,
presses, moves, whole rounds played by rule."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bot.game.engine import legal_moves
from bot.game.moves import Move, Play
from bot.game.rules import RuleSet
from bot.game.state import GameState
from bot.playground import Chat, FakeTelegram, Message, User
from bot.telegram.buttons import MoveButton
from tests.e2e.process import BotProcess
from tests.e2e.shown import (
    DONE,
    END_BUTTON,
    EXTRAS,
    GAME_OVER,
    HAND,
    JOIN,
    LEAVE,
    LOBBY,
    PICK_END,
    PLAYABLE,
    QUESTIONS,
    QUEUED,
    RESTING,
    RU,
    START,
    YOUR_TURN,
    bot_messages,
)
from tests.e2e.stored import games_in, set_seed


def table_captions(fake: FakeTelegram, group: Chat) -> list[str]:
    """Every caption the group's table pictures ever had (edits included)."""
    tables = [m for m in bot_messages(fake, group) if m.photo]
    return [r.caption or "" for m in tables for r in m.history] + [m.content or "" for m in tables]


def find(
    fake: FakeTelegram, chat: Chat | User, text: str, topic: int | None = None
) -> Message | None:
    """The bot's newest message in `chat` (in forum topic `topic`, if given) with `text`."""
    return next(
        (
            m
            for m in reversed(bot_messages(fake, chat))
            if text in (m.content or "") and (topic is None or m.thread_id == topic)
        ),
        None,
    )


async def wait_text(
    fake: FakeTelegram, chat: Chat | User, text: str, timeout: float = 20, topic: int | None = None
) -> Message:
    found: Message = await fake.wait_until(lambda: find(fake, chat, text, topic), timeout)
    return found


def last_update_id(fake: FakeTelegram) -> int:
    """The id of the update just queued (call right after `user_sends`/`user_presses`)."""
    return int(fake.pending_updates[-1]["update_id"])


async def say(
    fake: FakeTelegram,
    bot: BotProcess,
    user: User,
    chat: Chat | User,
    text: str,
    *,
    topic: int | None = None,
    reply_to: Message | None = None,
) -> Message:
    """`user` writes `text`; returns once the bot has finished handling it."""
    sent = fake.user_sends(user, chat, text, topic=topic, reply_to=reply_to)
    assert sent.delivered, f"the bot does not get {text!r} in {chat!r}"
    await bot.handled(last_update_id(fake))
    return sent


async def ask(
    fake: FakeTelegram,
    bot: BotProcess,
    user: User,
    chat: Chat | User,
    text: str,
    reply_to: Message | None = None,
) -> Message:
    """`user` sends `text`; the bot's one answer."""
    asked = await say(fake, bot, user, chat, text, reply_to=reply_to)
    (answer,) = replies_to(fake, chat, asked)
    return answer


def replies_to(fake: FakeTelegram, chat: Chat | User, message: Message) -> list[Message]:
    """The bot's messages in `chat` (in the topic of `message`) sent after `message`."""
    return [
        m
        for m in bot_messages(fake, chat)
        if m.message_id > message.message_id and m.thread_id == message.thread_id
    ]


async def press(fake: FakeTelegram, user: User, message: Message, button: str) -> str:
    """Press a callback button and wait for the bot's answer; the answer's text."""
    query = fake.user_presses(user, message, button)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    return str(answer.text or "")


async def press_refused(fake: FakeTelegram, user: User, message: Message, button: str) -> str:
    """Press a button the bot must refuse; the refusal's text (an alert or a toast alike)."""
    refusal = await press(fake, user, message, button)
    assert refusal, f"{button!r} was answered without a word"
    return refusal


async def press_shown(
    fake: FakeTelegram, user: User, message: Message, button: str, data: str | None = None
) -> tuple[str, bool]:
    """Press a button (or forge a press of `data` from `message`); the answer's text and
    whether it is an alert (a window the person closes) rather than a toast."""
    if data is None:
        query = fake.user_presses(user, message, button)
    else:
        query = forge_press(fake, user, message, data)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    return str(answer.text or ""), bool(answer.show_alert)


def forge_press(fake: FakeTelegram, user: User, message: Message, data: str) -> str:
    """A modified client: `user` sends callback `data` from `message`, a message in a chat
    they can see. The fake only presses buttons a message has, so a button with `data` is
    put on the stored message for the press and taken off again; the query id."""
    saved = message.reply_markup
    label = "\u2063forged"
    message.reply_markup = [*(saved or []), [{"text": label, "callback_data": data}]]
    try:
        return fake.user_presses(user, message, label)
    finally:
        message.reply_markup = saved


async def forged_refused(fake: FakeTelegram, user: User, message: Message, data: str) -> str:
    """A forged press of `data` (`forge_press`) the bot must refuse; the refusal's text."""
    query = forge_press(fake, user, message, data)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    assert answer.text, f"{data!r} was answered without a word: {answer}"
    return str(answer.text)


async def open_lobby(
    fake: FakeTelegram, group: Chat, creator: User, options: str = "", topic: int | None = None
) -> Message:
    before = find(fake, group, LOBBY, topic)
    fake.user_sends(creator, group, f"/newgame {options}".strip(), topic=topic)
    lobby: Message = await fake.wait_until(
        lambda: (m := find(fake, group, LOBBY, topic)) is not before and m, 20
    )
    return lobby


def seated(lobby: Message) -> list[str]:
    """The names on the lobby's «Игроки:» line."""
    line = (lobby.content or "").split("Игроки:")[1].split("\n")[0].strip()
    return [] if line == "пока никого" else line.split(", ")


async def join(fake: FakeTelegram, group: Chat, user: User, lobby: Message | None = None) -> None:
    """Press «Сесть за стол», follow the deep link, see your name in the lobby."""
    if lobby is None:
        lobby = await wait_text(fake, group, LOBBY)
    url = fake.user_presses(user, lobby, JOIN)
    fake.follow_link(user, url)
    await fake.wait_until(
        lambda: user.name in seated(lobby) and "Откройте" not in (lobby.content or ""), 20
    )


async def start_game(
    fake: FakeTelegram,
    group: Chat,
    players: Sequence[User],
    options: str = "",
    topic: int | None = None,
    computers: Sequence[str] = (),
) -> Message:
    """A lobby by `players[0]`, everybody seated through the deep link, the `computers`
    («любитель»…) seated by its buttons, «Начать»."""
    lobby = await open_lobby(fake, group, players[0], options, topic)
    for user in players:
        await join(fake, group, user, lobby)
    for level in computers:
        await press(fake, players[0], lobby, f"🤖 +{level}")
    await fake.wait_until(lambda: (lobby.content or "").count("🤖") >= len(computers), 20)
    assert await press(fake, players[0], lobby, START) == RU("dealing")
    await dealt(fake, group, lobby, players)
    return lobby


async def seeded_game(
    fake: FakeTelegram, folder: Path, group: Chat, users: list[User], preset: str, seed: int
) -> int:
    """`/newgame preset`, everybody seated, the deal fixed by `seed`, started; the game id."""
    lobby = await open_lobby(fake, group, users[0], preset)
    for user in users:
        await join(fake, group, user, lobby)
    (game,) = games_in(folder, group.id)
    set_seed(folder, game["id"], seed)
    assert await press(fake, users[0], lobby, START) == RU("dealing")
    await dealt(fake, group, lobby, users)
    return int(game["id"])


async def dealt(fake: FakeTelegram, group: Chat, lobby: Message, players: Sequence[User]) -> None:
    """Wait until the game of `lobby` has started: lobby closed, table shown, hands dealt
    (or, to those sitting the round out, the word that they do)."""

    def shown() -> bool:
        table = [
            m
            for m in bot_messages(fake, group)
            if m.message_id > lobby.message_id and m.photo and m.thread_id == lobby.thread_id
        ]
        hands = [
            find(fake, user, HAND) or find(fake, user, RESTING) or find(fake, user, QUEUED)
            for user in players
        ]
        return "Игра началась" in (lobby.content or "") and bool(table) and all(hands)

    await fake.wait_until(shown, 20)


def version_of(message: Message) -> int:
    for row in message.reply_markup or []:
        for button in row:
            data = button.get("callback_data")
            if data and data.startswith("m:"):
                return MoveButton.unpack(data).version
    return -1


def turn_message(
    fake: FakeTelegram, players: Sequence[User], after: int
) -> tuple[User, Message] | None:
    """The player whose hand says it is their turn, with buttons newer than `after` (a clock
    warning may follow the hand: it is the newest message with buttons that counts)."""
    for user in players:
        hand = find(fake, user, YOUR_TURN)
        keyboards = [m for m in bot_messages(fake, user) if m.reply_markup]
        if hand is not None and hand is keyboards[-1] and version_of(hand) > after:
            return user, hand
    return None


async def wait_turn(
    fake: FakeTelegram, players: Sequence[User], after: int = -1
) -> tuple[User, Message]:
    found: tuple[User, Message] = await fake.wait_until(
        lambda: turn_message(fake, players, after), 30
    )
    return found


def tiles_asking_an_end(state: GameState) -> set[int]:
    """Tiles the player to move could play at two ends with a different result."""
    plays = [m for m in legal_moves(state) if isinstance(m, Play)]
    if len(set(state.ends)) < 2:
        return set()
    return {m.tile for m in plays if sum(p.tile == m.tile for p in plays) > 1}


def is_end(label: str) -> bool:
    """Whether a button is a line's end («⬅ 3», «5 ➡»)."""
    return END_BUTTON.match(label) is not None


def end_buttons(message: Message) -> list[str]:
    """A message's end buttons, left first."""
    labels = [b for row in message.buttons for b in row if is_end(b)]
    return sorted(labels, key=lambda label: not label.startswith("⬅"))


def end_button(message: Message, end: int) -> str:
    """The label of the button of `end` (0: left, 1: right) on a hand asking which end."""
    ends = end_buttons(message)
    assert len(ends) == 2, message.buttons
    return ends[end]


def hand_asking(fake: FakeTelegram, user: User) -> Message | None:
    """The user's newest hand, if it asks which end. Not necessarily the one pressed: a
    hand sent anew meanwhile (a turn's first, a restart's, /start's) takes the question."""
    hands = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    newest = hands[-1] if hands else None
    asks = newest is not None and bool(end_buttons(newest))
    return newest if asks else None


async def wait_asking(fake: FakeTelegram, user: User) -> Message:
    """Wait for the user's hand to ask which end (after a tile's «Куда поставить?»)."""
    hand: Message = await fake.wait_until(lambda: hand_asking(fake, user), 20)
    return hand


Buttons = list[list[str]]


def asking(fake: FakeTelegram, user: User, version: int, pressed: Buttons) -> Message | None:
    """The user's hand of this turn once it shows a question other than the buttons just
    pressed (the hand is edited in place)."""
    hands = [m for m in bot_messages(fake, user) if version_of(m) == version]
    if not hands or hands[-1].buttons == pressed:
        return None
    labels = [b for row in hands[-1].buttons for b in row]
    return hands[-1] if any(b in LEAVE for b in labels) else None


async def play_move(
    fake: FakeTelegram, players: Sequence[User], rng: random.Random, after: int
) -> int:
    """The player to move presses a legal tile (or draw / pass) and answers whatever the
    hand asks — which arm, open or closed, another double or «готово» — at random; the
    version of the buttons pressed."""
    user, hand = await wait_turn(fake, players, after)
    version, pressed = version_of(hand), hand.buttons
    choices = [b for row in pressed for b in row if b.startswith(PLAYABLE) or b in EXTRAS]
    answer = await press(fake, user, hand, rng.choice(choices))
    while answer in QUESTIONS:
        question: Message = await fake.wait_until(partial(asking, fake, user, version, pressed), 20)
        pressed = question.buttons
        options = [b for row in pressed for b in row if b not in LEAVE]
        if DONE in options and (len(options) == 1 or rng.random() < 0.7):
            label = DONE
        else:
            label = rng.choice([b for b in options if b != DONE])
        answer = await press(fake, user, question, label)
    return version


async def play_moves(
    fake: FakeTelegram, players: Sequence[User], rng: random.Random, count: int, after: int = -1
) -> int:
    """`count` random legal moves; the version of the last one's buttons."""
    for _ in range(count):
        after = await play_move(fake, players, rng, after)
    return after


@dataclass
class RestartAt:
    """A `between` hook for `play_until`: restarts the bot once, when the group shows
    `text`; `done` tells whether it has."""

    fake: FakeTelegram
    group: Chat
    bot: BotProcess
    text: str
    done: bool = False

    async def __call__(self) -> bool:
        if self.done or not find(self.fake, self.group, self.text):
            return False
        await self.bot.stop()
        await self.bot.start()
        self.done = True
        return True


async def play_until(
    fake: FakeTelegram,
    group: Chat,
    players: Sequence[User],
    rng: random.Random,
    text: str = GAME_OVER,
    max_moves: int = 2000,
    topic: int | None = None,
    after: int = -1,
    between: Callable[[], Awaitable[bool]] | None = None,
    wait: float = 30,
) -> int:
    """Moves until the group (topic) shows a new message with `text`; how many were made.

    A move is never cut short: before each one, wait `wait` seconds at most for either the
    text or a turn (`play_move`). `between` runs before each, and when it did something (a
    restart, a /leave) the wait starts again."""
    old = find(fake, group, text, topic)

    def shown() -> Message | None:
        message = find(fake, group, text, topic)
        return message if message is not old else None

    for moves in range(max_moves):
        ready = await fake.wait_until(
            lambda after=after: shown() or turn_message(fake, players, after),  # type: ignore[misc]
            wait,
        )
        if isinstance(ready, Message):
            return moves
        if between is not None and await between():
            continue
        after = await play_move(fake, players, rng, after)
    raise AssertionError(f"no «{text}» after {max_moves} moves")


def button_for(rules: RuleSet, move: Move) -> str:
    """The hand button that makes `move` (a tile press; the end is asked separately)."""
    assert isinstance(move, Play), move
    return PLAYABLE + rules.tiles.name(move.tile)


async def play_planned(
    fake: FakeTelegram, players: Sequence[User], rules: RuleSet, move: Move, after: int
) -> tuple[User, int]:
    """The player to move makes exactly `move` with the buttons (end asked → that end)."""
    user, hand = await wait_turn(fake, players, after)
    version = version_of(hand)
    answer = await press(fake, user, hand, button_for(rules, move))
    if answer == PICK_END:
        assert isinstance(move, Play)
        asking = await wait_asking(fake, user)
        await press(fake, user, asking, end_button(asking, move.end))
    return user, version
