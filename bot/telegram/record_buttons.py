"""The buttons of finished games' records: /history's score sheets, «🎞 Повтор» and
«📄 Запись», «🔍 Разбор» (`CallbackData` factories; `buttons.OURS` knows their prefixes)."""

from __future__ import annotations

from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

Id = Annotated[int, Field(ge=0, le=2**63 - 1)]


class HistoryGame(CallbackData, prefix="hg"):
    """/history: a game's score sheet (0: back to the list)."""

    game: Id


class Replay(CallbackData, prefix="rp"):
    """«🎞 Повтор»: a finished round's replay, sent to the presser in private."""

    game: Id
    round: Id


class RecordFile(CallbackData, prefix="rf"):
    """«📄 Запись»: a finished game's record, sent to the presser in private."""

    game: Id


class ReviewGame(CallbackData, prefix="rv"):
    """«🔍 Разбор»: the presser's own moves of a finished game, by the hard level."""

    game: Id
