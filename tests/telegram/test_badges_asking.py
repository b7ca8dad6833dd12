"""/stats' badges picture in a busy group goes to the asker's private chat like any other
answer: the picture, the heading over its caption, within a caption's limit."""

from __future__ import annotations

from aiogram.methods import SendMessage, SendPhoto
from aiogram.types import BufferedInputFile

from bot.telegram.asking import Asker, CommandKind
from bot.ui.texts import CAPTION

HEADING = "💬 /stats в «Двор» — идёт игра"


def test_a_picture_goes_to_the_private_chat_with_its_caption() -> None:
    asker = Asker(CommandKind.INFO, chat=-100, user=7, heading=HEADING, task=None)
    photo = BufferedInputFile(b"png", "badges.png")
    sent = asker.privately(SendPhoto(chat_id=-100, photo=photo, caption="Статистика: Маша"))
    assert isinstance(sent, SendPhoto)
    assert (sent.chat_id, sent.photo, sent.caption) == (7, photo, f"{HEADING}\n\nСтатистика: Маша")
    long = asker.privately(SendPhoto(chat_id=-100, photo=photo, caption="Ж" * CAPTION))
    assert isinstance(long, SendPhoto) and len(long.caption or "") <= CAPTION
    text = asker.privately(SendMessage(chat_id=-100, text="Счёт"))
    assert isinstance(text, SendMessage) and text.text == f"{HEADING}\n\nСчёт"
    nobody = Asker(CommandKind.INFO, chat=-100, user=None, heading=HEADING, task=None)
    assert nobody.privately(SendPhoto(chat_id=-100, photo=photo)) is None
