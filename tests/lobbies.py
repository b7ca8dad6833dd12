"""A stored lobby's row, for the tests of what reads one (keyboards, the table app's hub)."""

from __future__ import annotations

from bot.core.rows import GameRow, GameStatus, Player
from bot.game.rules import RuleSet


def lobby_row(game_id: int = 1) -> GameRow:
    """A «Козёл» lobby of chat -100 with Аня (user 1) seated, its deep link's token given."""
    return GameRow(
        id=game_id,
        chat_id=-100,
        thread_id=0,
        creator_id=1,
        status=GameStatus.LOBBY,
        rules=RuleSet(),
        seed=1,
        state=None,
        version=0,
        lobby_message_id=None,
        table_message_id=None,
        end_reason=None,
        players=(Player(0, 1, "Аня"),),
        join_token="AbCdEfGhIjKlMnOp",
    )
