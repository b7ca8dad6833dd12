"""What the log says of games at INFO: a game started, a round's result, a game ended.

Ids and numbers only (the chat, the game, seats and scores): no names, no token. The
bot's busy work — each update handled, the outbox sending — is DEBUG's detail.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.core.rows import GameRow
from bot.game.events import EndReason, Event, RoundEnded

log = logging.getLogger(__name__)


def started(game: GameRow) -> None:
    log.info(
        "game %s started in chat %s: %s, %s players",
        game.id,
        game.chat_id,
        game.rules.scoring,
        len(game.players),
    )


def rounds(game: GameRow, events: Iterable[Event]) -> None:
    """A line for each round that `events` end: how it ended and the sides' scores."""
    for event in events:
        if isinstance(event, RoundEnded):
            scores = {r.side: r.score_after for r in event.results}
            log.info(
                "game %s in chat %s: round %s over (%s, seat %s); scores %s",
                game.id,
                game.chat_id,
                event.round_no,
                event.reason,
                event.seat,
                ", ".join(f"side {side} {score}" for side, score in sorted(scores.items())),
            )


def ended(game: GameRow, reason: EndReason | str) -> None:
    """A game's end (or a lobby's, when it never started)."""
    what = "game" if game.state is not None else "lobby"
    log.info("%s %s in chat %s ended: %s", what, game.id, game.chat_id, reason)
