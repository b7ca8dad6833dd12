"""A finished game's end as the group reads it — in the end message and in /score — with
the line saying that a game with computers is not rated (RULES §2.7's game points are
shown all the same; the chat's rating counts games of people only)."""

from __future__ import annotations

from bot.core.records import GameRow
from bot.game.events import GameEnded
from bot.ui import sheets
from bot.ui.i18n import Texts


def rated(game: GameRow) -> bool:
    """Whether the game counts for the chat's rating: people only at the table."""
    return all(player.human for player in game.players)


def _noted(t: Texts, game: GameRow, text: str) -> str:
    return text if rated(game) else "\n".join([text, t("game-unrated-computers")])


def game_end(t: Texts, game: GameRow, outcome: GameEnded) -> str:
    """The end message of a finished game."""
    assert game.state is not None
    return _noted(t, game, sheets.game_end(t, outcome, game.names, game.rules, game.state.tally))


def score(t: Texts, game: GameRow) -> str:
    """/score: the game's sheet; a finished game's end as its end message said it."""
    assert game.state is not None
    text = sheets.score(t, game.state, game.names)
    return text if game.state.outcome is None else _noted(t, game, text)
