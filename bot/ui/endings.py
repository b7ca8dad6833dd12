"""A finished game's end as the group reads it — in the end message and in /score — with
the line saying that a game with computers is not rated (RULES §2.7's game points are
shown all the same; the chat's rating counts games of people only)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.rows import GameRow
from bot.game.events import GameEnded
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.ui.games import game_won
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds import sheet_of
from bot.ui.sheets import scores_line


def rated(game: GameRow) -> bool:
    """Whether the game counts for the chat's rating: people only at the table."""
    return all(player.human for player in game.players)


def _noted(t: Texts, game: GameRow, text: str) -> str:
    return text if rated(game) else "\n".join([text, t("game-unrated-computers")])


def game_end(t: Texts, game: GameRow, outcome: GameEnded) -> str:
    """The end message of a finished game."""
    assert game.state is not None
    return _noted(t, game, end_text(t, outcome, game.names, game.rules, game.state.tally))


def score(t: Texts, game: GameRow) -> str:
    """/score: the game's sheet; a finished game's end as its end message said it."""
    assert game.state is not None
    text = score_text(t, game.state, game.names)
    return text if game.state.outcome is None else _noted(t, game, text)


def score_text(t: Texts, state: GameState, names: Sequence[str]) -> str:
    """/score: the running (or last) game's sheet, how it is won, or how it ended."""
    finished = state.last_round.round_no if state.last_round else 0
    lines = [t("score-after", round=finished), scores_line(t, state, names)]
    rules = state.rules
    if state.outcome is not None:
        lines.append(end_text(t, state.outcome, names, rules, state.tally))
        return "\n".join(lines)
    lines.append(game_won(t, rules))
    return "\n".join(lines + sheet_of(rules).score_extras(t, state, names))


def end_text(t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally) -> str:
    """Why the game ended and everyone's place, as the game's kind places them (`tally`:
    the final sheet), then the game and how it is won."""
    lines = sheet_of(rules).end(t, ended, names, rules, tally)
    return "\n".join([*lines, game_won(t, rules)])
