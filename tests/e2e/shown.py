"""What the chats show: the words the end-to-end tests look for (Russian, as the groups
speak) and the bot's messages in a chat."""

from __future__ import annotations

import re

from bot.playground import Chat, FakeTelegram, Message, User
from bot.ui.i18n import texts_for

LOBBY = "Собираем стол"


YOUR_TURN = "Ваш ход"


HAND = "Ваши кости"


GAME_OVER = "Игра окончена"


PLAYABLE = "✅ "


EXTRAS = ("🎒 Взять из базара", "Пас")


END_BUTTON = re.compile(r"^(?:⬅ (?P<left>-?\d+)|(?P<right>-?\d+) ➡)$")
"""A line's end button, with the number that end shows: «⬅ 3», «5 ➡»."""


PICK_END = "Куда поставить?"


RU = texts_for("ru")


RESTING = RU("hand-resting")


QUEUED = RU("hand-queued")


NAMES = ["Маша", "Серёжа", "Оля", "Алекс", "Дима"]  # the people of the e2e groups


SHORT = "target=51"  # whole games, but shorter ones


JOIN = RU("join")


START = RU("start")


def bot_messages(fake: FakeTelegram, chat: Chat | User) -> list[Message]:
    return [m for m in fake.messages(chat) if m.from_bot and m.service is None]


QUESTIONS = (PICK_END, *(RU(k) for k in ("hand-pick-face", "hand-pick-double", "hand-ready")))


LEAVE = (RU("back"), RU("hand-cancel"))


DONE = RU("hand-done")
