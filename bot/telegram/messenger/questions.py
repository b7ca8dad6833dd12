"""The /endgame questions of a game: remembered when asked, and all closed — edited to say
the game is over, their buttons gone — when the game ends, however it ends. The closing is
a job the courier keeps until it is done, so a restart does not lose it."""

from __future__ import annotations

import logging

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import EditMessageText

from bot.core.questions import Question, Questions
from bot.core.rows import GameRow
from bot.telegram.messenger.gateway import Gateway

log = logging.getLogger(__name__)


class EndQuestions:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.storage = gateway.storage
        self.kept = Questions(gateway.storage)
        gateway.courier.kind("questions", self._close)

    async def asked(self, game_id: int, chat_id: int, message_id: int) -> None:
        await self.kept.asked(game_id, Question(chat_id, message_id))

    def close(self, game: GameRow, pressed: int | None = None, by: str | None = None) -> None:
        """Close every question of the ended `game`: the one `pressed` to end it says who
        ended it (`by`), the others that the game is over."""
        self.gateway.courier.post(game.chat_id, "questions", (game.id, pressed, by))

    async def say_over(self, chat_id: int, message_id: int) -> None:
        """A question left from an ended game says so, without buttons (nothing is sent
        when it says so already)."""
        game_texts = await self.gateway.group_texts(chat_id)
        await self._edit(Question(chat_id, message_id), game_texts("endgame-over"))

    async def _close(self, job: tuple[int, int | None, str | None]) -> None:
        game_id, pressed, by = job
        game = await self.storage.games.game(game_id)
        if game is None or game.is_open:
            return
        t = await self.gateway.group_texts(game.chat_id)
        for question in await self.kept.of(game_id):
            text = t("endgame-over")
            if by is not None and question.message_id == pressed:
                text = t("ended-by", name=by)
            await self._edit(question, text)
            await self.kept.closed(question)

    async def _edit(self, question: Question, text: str) -> None:
        edit = EditMessageText(chat_id=question.chat_id, message_id=question.message_id, text=text)
        try:
            await self.gateway.edit(edit)
        except (TelegramBadRequest, TelegramForbiddenError) as error:  # gone, or no longer ours
            where = (question.message_id, question.chat_id)
            log.info("question %s in %s not closed: %s", *where, error)
