"""The Telegram side of the games (`Screen`): the lobby, the table picture, the private hands.

Nothing here waits for Telegram: each message is posted through the `Courier` (kept in the
database until the sender has said it; paced, and coalesced so that the table and each hand
show only their newest state), and the job reads the game as stored when it runs (message
ids, names). A job sends a fresh message when an old one cannot be edited, follows a group
that became a supergroup, skips an edit that would change nothing, and turns a 403 from a
player's private chat into one notice in the group.
"""

from __future__ import annotations

import asyncio
import logging

from aiogram import Bot

from bot.core.guarded import LOBBY_IDLE
from bot.core.presence import Presence
from bot.core.presence_board import PresenceBoard
from bot.core.rows import GameRow, GameStatus
from bot.core.screen import Turn
from bot.core.storage import Storage
from bot.game.events import EndReason
from bot.game.state import Phase
from bot.telegram.courier import Courier
from bot.telegram.messenger.calm import CalmPictures
from bot.telegram.messenger.gateway import Gateway
from bot.telegram.messenger.hand_news import HandNews
from bot.telegram.messenger.hands import LEFT, Hands
from bot.telegram.messenger.lobby import Lobby, LobbyView, message_link, to_game
from bot.telegram.messenger.questions import EndQuestions
from bot.telegram.messenger.replays import Replays
from bot.telegram.messenger.seasons import SeasonEnds
from bot.telegram.messenger.table import GroupTable, TableNews

__all__ = ["LobbyView", "Messenger", "message_link", "to_game"]
log = logging.getLogger(__name__)

CLOSING = {
    EndReason.CANCELLED: "cancelled",
    EndReason.ENDED: "cancelled",
    EndReason.BOT_REMOVED: "removed-from-group",
}
"""What the lobby and the hands say when a game ends unplayed (an idle lobby says more)."""


class Messenger:
    """Posts and edits a game's messages; shared through the dispatcher."""

    def __init__(
        self,
        bot: Bot,
        storage: Storage,
        username: str,
        courier: Courier,
        app: str | None = None,
        calm_seconds: float = 30.0,
    ) -> None:
        """`app`: the table app's short name, when the group's messages offer it;
        `calm_seconds`: how often at least the group's picture follows a round that
        everybody at the table plays in the app (while few tables do: `CalmPictures`)."""
        self.gateway = Gateway(bot, storage, courier, username, app)
        self.courier = courier
        self.lanes = courier.lanes
        self.calm = CalmPictures(calm_seconds, self.lanes.pacing.per_second, self._picture)
        self.lobby = Lobby(self.gateway)
        self.table = GroupTable(self.gateway)
        # who follows a game in the table app, on any of the workers sharing the database
        board = PresenceBoard(storage.database, storage.worker)
        self.presence = Presence(board if storage.database.shared else None)
        self.hands = Hands(self.gateway, self.presence)
        self.presence.on_away(lambda game_id, _: self._picture_now(game_id))
        self.questions = EndQuestions(self.gateway)
        self.replays = Replays(self.gateway)
        self.seasons = SeasonEnds(self.gateway)
        self._tasks: set[asyncio.Task[None]] = set()
        self._dealing: dict[int, Turn] = {}  # first deals whose hands wait for their table

    async def close(self) -> None:
        """On a stop: no stay in the app ends here any more (one left unwritten is another
        worker's to sweep), a review under way is not waited for, what was posted is written."""
        self.presence.hush()
        self.replays.close()
        await self.courier.close()

    def add_to_group_link(self) -> str:
        return self.gateway.add_to_group_link()

    def start_link(self) -> str:
        return self.gateway.start_link("hi")

    # -- Screen --------------------------------------------------------------------------

    async def show_turn(self, turn: Turn) -> None:
        """Post the table, round results, game end and hands after `turn` (stored)."""
        game = turn.game
        if turn.before is not None and turn.left is None:
            self.hands.note_move(game, turn.before.to_move, turn.timed_out)
        elif turn.left is not None:
            self.hands.show(game, turn.left, HandNews(None, game.version, closing=LEFT))
        closed = turn.closed
        t = await self.gateway.group_texts(game.chat_id)
        news = TableNews(closed or turn.state, turn.events, GroupTable.notes(t, turn))
        # they see it in the app: the group's picture at a calm pace, a round's end at once
        # as its score sheet in the table's place (the next round's table, a new message,
        # at the calm pace)
        calm = turn.before is not None and turn.ended is None and self._all_in_the_app(game)
        if turn.before is None:  # the first deal: its table first, then the lobby's word
            self.table.deal(game, news)
            self.lobby.started(game)
        elif calm and not turn.rounds:
            self.calm.later(game.id)
        else:  # a picture kept waiting is dropped: the table or its sheet goes now
            self._picture_now(game.id, show=False)
            if not calm:
                self.table.show(game, news)
        for ended in turn.rounds:
            self.table.tell_round(game, ended, closed, over=calm)
        outcome = turn.ended
        if outcome is not None:
            self.table.tell_end(game, outcome)
            self.hands.close(game, "game-over-private")
            self.questions.close(game)
            return
        if closed is not None and calm:
            self.calm.later(game.id)
        elif closed is not None:
            self.table.show(game, TableNews(turn.state, turn.events, fresh=True))
        if turn.before is None:
            self._dealing[game.id] = turn  # its hands wait for the table: `dealt`
        else:
            self.hands.show_changed(game, turn.state, turn.before, turn.drawn)

    def _all_in_the_app(self, game: GameRow) -> bool:
        """Whether every person still at the table follows the game in the app now."""
        assert game.state is not None
        people = [p for p in game.players if p.human and p.seat not in game.state.left]
        return bool(people) and all(self.presence.here(game.id, p.user_id) for p in people)

    def _picture_now(self, game_id: int, show: bool = True) -> None:
        """A picture kept waiting goes now (`show`; else it is dropped: one is on its way)."""
        if self.calm.forget(game_id) and show:
            self._picture(game_id)

    def _picture(self, game_id: int) -> None:
        """The group's picture of the game as stored, on its way."""
        task = asyncio.create_task(self._stored_picture(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stored_picture(self, game_id: int) -> None:
        try:
            game = await self.gateway.storage.games.game(game_id)
            if game is not None and game.state is not None and game.is_open:
                self.table.show(game, TableNews(game.state, ()))
        except Exception:
            log.exception("game %s: the group's picture did not follow", game_id)

    async def dealt(self, game: GameRow) -> None:
        """The first deal's hands, once its table is out (or has not started going out
        within `FIRST_WAIT` seconds): the group sees the table before anyone plays."""
        try:
            await self.table.dealt(game.id)
        finally:
            turn = self._dealing.pop(game.id, None)
            if turn is not None:
                self.hands.show_changed(turn.game, turn.state, None, turn.drawn)

    async def warn(self, game_id: int, version: int, seconds: int) -> None:
        await self.hands.warn(game_id, version, seconds)

    def show_ended(self, game: GameRow) -> None:
        """A lobby or game ended without being played out: the lobby message, the table's
        caption and every hand say so, and no button of it is left; when the bot was
        removed from the group, only the hands (the group cannot be reached)."""
        reason = game.end_reason
        self.questions.close(game)
        if reason is EndReason.IDLE:
            self.lobby.close(game, "lobby-idle", minutes=LOBBY_IDLE // 60)
            return
        assert reason is not None
        closing = CLOSING.get(reason, "cancelled")
        if reason is not EndReason.BOT_REMOVED:
            if game.state is None:
                self.lobby.close(game, closing)
            else:
                self.table.close(game)
        self.hands.close(game, closing)

    def hand_is_live(self, game: GameRow) -> bool:
        return self.hands.is_live(game)

    def show_hand_anew(self, game: GameRow) -> None:
        assert game.state is not None
        self.hands.again(game, game.players[game.state.to_move].user_id)

    async def resume(self, game: GameRow) -> None:
        """After a restart: tell what a crash cut off and show the stored state, in case it
        outran the last messages (a round told only now gets a fresh table below its
        result; the player to move gets their hand anew, which notifies)."""
        owed = await self.table.catch_up(game)
        if not game.is_open:  # its questions' closing may have been cut off
            self.questions.close(game)
        if game.status is GameStatus.FINISHED and not game.end_announced:
            self.hands.close(game, "game-over-private")  # the end was cut off: so were they
        if game.status is GameStatus.LOBBY:
            self.lobby.show(game)
            return
        state = game.state
        if game.status is not GameStatus.ACTIVE or state is None:
            return
        self.table.show(game, TableNews(state, (), fresh=owed))
        for player in game.players:
            if not player.human:
                continue
            if player.seat in state.left:
                news = HandNews(None, game.version, closing=LEFT)
            else:  # the mover's anew: below any hand a crash left unrecorded
                moving = state.phase is Phase.PLAYING and state.to_move == player.seat
                news = HandNews(state, game.version, fresh=moving)
            self.hands.show(game, player.seat, news)
