"""Lobbies: people and computers take their seats, pick teams and options, and the first
round is dealt."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Collection, Mapping
from contextlib import suppress
from dataclasses import replace

from bot.ai import Level
from bot.core import journal
from bot.core.errors import (
    GameError,
    NotOfferedError,
    RulesError,
    StaleVersionError,
    first_writer_wins,
)
from bot.core.guarded import LOBBY_IDLE, LOBBY_TRIES, LockedGames
from bot.core.history import History
from bot.core.rows import GameRow, GameStatus, LogEntry, Player, SharedDeal
from bot.core.scores import Scores
from bot.core.screen import Turn
from bot.core.teams import seating, team_slots
from bot.game.deal import Dealt, deal_given
from bot.game.engine import new_game, rest_first
from bot.game.events import EndReason
from bot.game.rules import RuleError, RuleSet
from bot.game.serial import deal_entry, rest_entry
from bot.game.shuffle import shuffled
from bot.game.typed import parse_rules, saved_rules

Offered = Callable[[RuleSet], Mapping[str, Collection[str]]]
"""What a lobby's creator may choose for its rules: each key's values."""


def dealt_by(options: str) -> tuple[str | None, list[str]]:
    """/newgame's `deal=CODE`, if given (the deal brings its own game and rules), and the
    other words, which it overrides."""
    words = options.split()
    code = next((w.partition("=")[2].upper() for w in words if w.startswith("deal=")), None)
    return code, [w for w in words if not w.startswith("deal=")]


class Lobbies(LockedGames):
    """A game before its first deal: its seats and its rules."""

    async def new_lobby(
        self, chat_id: int, thread_id: int, creator: Player, options: str, defaults: str = ""
    ) -> tuple[GameRow, bool]:
        """A lobby for the topic, its clock started, or (the open game, False) if there is
        one already.

        `options` as typed after /newgame go on top of the chat's `defaults`; naming a preset
        starts from that preset instead.
        """
        words = options.split()
        code, _ = dealt_by(options)
        if code is not None:  # the deal's own rules
            rules = (await self._shared(code)).rules.current()
        else:
            if not words or "=" in words[0]:
                options = f"{saved_rules(defaults)[0].summary()} {options}"
            try:
                rules = parse_rules(options)
            except RuleError as error:
                raise RulesError(error) from None
        seed = secrets.randbits(48)
        deadline = self._idle_until()
        games = self.storage.games
        game = await games.create_lobby(
            chat_id, thread_id, creator, rules, seed, deadline, dealt_from=code
        )
        if game is not None:
            self.onward.follow(game)  # its clock
            return game, True
        existing = await self.storage.games.open_game(chat_id, thread_id)
        if existing is None:  # it ended between the two statements
            return await self.new_lobby(chat_id, thread_id, creator, options, defaults)
        return existing, False

    async def lobby(self, game_id: int) -> GameRow:
        """The lobby `game_id`; a game that has started (or ended) refuses lobby actions."""
        return only_lobby(await self.storage.games.game(game_id))

    async def lobby_of(self, game_id: int, user_id: int) -> GameRow:
        """The lobby, for its creator (its settings)."""
        game = await self.lobby(game_id)
        if user_id != game.creator_id:
            raise GameError("not-creator")
        return game

    async def extend(self, chat_id: int, thread_id: int) -> float:
        """/extend: the topic's lobby waits `LOBBY_IDLE` seconds more; its new deadline."""
        game = await self.storage.games.open_game(chat_id, thread_id)
        if game is None or game.status is not GameStatus.LOBBY:
            raise GameError("no-open-lobby")
        async with self.lock(game.id):
            game = await self.lobby(game.id)
            deadline = max(game.deadline or 0.0, self.clock()) + LOBBY_IDLE
            await self.storage.games.set_deadline(game.id, 0, deadline)
            return deadline

    async def close_idle(self, game_id: int) -> GameRow | None:
        """Cancel the lobby if its time is up; the cancelled game, None if it lives on."""
        async with self.lock(game_id):
            game = await self.storage.games.game(game_id)
            if game is None or game.status is not GameStatus.LOBBY or game.deadline is None:
                return None
            if game.deadline > self.clock():
                return None
            await self.storage.games.cancel(game_id, EndReason.IDLE)
            journal.ended(game, EndReason.IDLE)
            return await self._reload(game_id)

    async def lobby_by_token(self, token: str, user_id: int) -> GameRow:
        """The lobby a deep link names for `user_id` (the game, once it has started, says
        so)."""
        return only_lobby(await self.storage.games.game_by_token(token), user_id)

    async def _reseat(self, game_id: int, change: Callable[[], Awaitable[GameRow]]) -> GameRow:
        """`change()` — read the lobby, write its seats — under the game's lock; read and
        tried again when another worker changed the seats in between."""
        async with self.lock(game_id):
            for _ in range(LOBBY_TRIES - 1):
                with suppress(StaleVersionError):
                    return await change()
            with first_writer_wins():
                return await change()

    async def join(self, game_id: int, player: Player) -> GameRow:
        async def join() -> GameRow:
            game = only_lobby(await self.storage.games.game(game_id), player.user_id)
            seated = list(game.players)
            if game.seat_of(player.user_id) is not None:
                return game
            if len(seated) >= game.rules.most_players:
                raise GameError("lobby-full")
            await self.storage.games.set_seats(game, [*seated, player], self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, join)

    async def add_computer(
        self, game_id: int, user_id: int, level: Level, naming: Callable[[int], str]
    ) -> GameRow:
        """The creator seats a computer player at `level`, named `naming(number)`."""

        async def add() -> GameRow:
            game = await self.lobby_of(game_id, user_id)
            if not (await self.storage.people.chat_settings(game.chat_id)).computers:
                raise GameError("computers-off")
            if len(game.players) >= game.rules.most_players:
                raise GameError("lobby-full")
            computer_id = min([p.user_id for p in game.players] + [0]) - 1
            name = naming(-computer_id)
            computer = Player(len(game.players), computer_id, name, computer=level)
            await self.storage.games.set_seats(game, [*game.players, computer], self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, add)

    async def pick_team(self, game_id: int, user_id: int, team: int) -> GameRow:
        """A seated person picks a team (0-based) in a lobby with teams; again: joining order."""

        async def pick() -> GameRow:
            game = only_lobby(await self.storage.games.game(game_id), user_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise GameError("not-seated")
            if not game.rules.teams or not 0 <= team < team_slots(game.rules):
                raise GameError("no-teams")
            player = game.players[seat]
            picked = None if player.team == team else team
            seats = [replace(p, team=picked) if p.seat == seat else p for p in game.players]
            await self.storage.games.set_seats(game, seats, self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, pick)

    async def leave_lobby(self, game_id: int, user_id: int) -> GameRow:
        async def leave() -> GameRow:
            game = await self.lobby(game_id)
            if game.seat_of(user_id) is None:
                raise GameError("not-seated")
            seats = [p for p in game.players if p.user_id != user_id]
            await self.storage.games.set_seats(game, seats, self._idle_until())
            return await self._reload(game_id)

        return await self._reseat(game_id, leave)

    async def set_option(
        self, game_id: int, user_id: int, key: str, value: str, offered: Offered | None = None
    ) -> GameRow:
        """The creator changes the preset or an option in the lobby; given `offered` (the
        choices the lobby's rules offer, by key), only to one of those (`NotOfferedError`)."""
        async with self.lock(game_id):
            game = await self.lobby_of(game_id, user_id)
            if offered is not None and value not in offered(game.rules).get(key, ()):
                raise NotOfferedError
            text = value if key == "preset" else f"{game.rules.summary()} {key}={value}"
            try:
                rules = parse_rules(text)
            except RuleError as error:
                raise RulesError(error) from None
            await self.storage.games.set_rules(game_id, rules, self._idle_until())
            return await self._reload(game_id)

    async def start(self, game_id: int, user_id: int) -> None:
        """Deal the first round for the players seated now."""
        async with self.lock(game_id):
            game = await self.lobby_of(game_id, user_id)
            humans = [p for p in game.players if p.human]
            if not humans:
                raise GameError("need-a-human")
            started = await self.storage.people.started_users([p.user_id for p in humans])
            waiting = [p.name for p in humans if p.user_id not in started]
            if waiting:
                raise GameError("waiting-for", names=", ".join(waiting))
            try:
                rules = game.rules.with_players(len(game.players)).current()
            except RuleError as error:
                raise RulesError(error, "cannot-start") from None
            with first_writer_wins():  # the seats changed since: «Начать» again
                if rules.teams:
                    game = await self._seat_teams(game, rules)
                tournament = rules.format.seats_by_lot
                if tournament:
                    game = await self._seat_by_lot(game)
                seats = [str(p.user_id) for p in game.players]
                state, events = new_game(rules, seats, game.seed)
                entries: list[LogEntry] = []
                leaders = await self._rating_leaders(game, rules) if tournament else []
                if game.dealt_from is not None:  # the shared deal, its rests with it
                    given = await self._given(game.dealt_from, rules)
                    state, events = deal_given(state, given)
                    entries.append(LogEntry(None, deal_entry(given)))
                elif leaders:
                    state, events = rest_first(state, leaders)
                    entries.append(LogEntry(None, rest_entry(leaders)))
                await self.storage.games.set_rules(game_id, rules)
                game = replace(game, rules=rules)
                clock = rules.format.match_minutes(rules) * 60 if rules.format.timed else None
                game = await self.storage.games.record(
                    game,
                    entries,
                    state,
                    deadline=self._deadline(game, state),
                    ends_at=None if clock is None else self.clock() + clock,
                )
            journal.started(game)
            await self.onward.after(Turn(game, None, state, events))

    async def _shared(self, code: str) -> SharedDeal:
        shared = await History(self.storage).shared(code)
        if shared is None:
            raise GameError("deal-unknown", code=code[:16])
        return shared

    async def _given(self, code: str, rules: RuleSet) -> Dealt:
        """The code's deal for a game about to start under `rules`: the same game, the same
        set and as many seats, or a refusal that says so."""
        shared = await self._shared(code)
        origin = shared.rules
        if (origin.scoring, origin.max_pip, origin.hand_size) != (
            rules.scoring,
            rules.max_pip,
            rules.hand_size,
        ):
            raise GameError("deal-format", code=code, name=origin.preset)
        if origin.players != rules.players:
            raise GameError("deal-seats", code=code, players=origin.players)
        return shared.dealt

    async def _seat_teams(self, game: GameRow, rules: RuleSet) -> GameRow:
        """The lobby's players reseated so the teams they picked alternate round the table."""
        order = seating([p.team for p in game.players], rules.sides, rules.team_size)
        if order != list(range(len(order))):
            await self.storage.games.set_seats(game, [game.players[i] for i in order])
            game = await self._reload(game.id)
        return game

    async def _seat_by_lot(self, game: GameRow) -> GameRow:
        """The tournament's seating order, fixed for all of it, by lot (§4.2)."""
        order = shuffled(range(len(game.players)), f"{game.seed}:seating")
        await self.storage.games.set_seats(game, [game.players[i] for i in order])
        return await self._reload(game.id)

    async def _rating_leaders(self, game: GameRow, rules: RuleSet) -> list[int]:
        """The seats that sit the tournament's first round out: the chat's rating leaders,
        unrated participants below rated ones, in lot order (§4.2); none (the lot) when no
        participant is rated."""
        resting = rules.players - rules.at_table
        ranked = [row.user_id for row in await Scores(self.storage).ratings(game.chat_id)]
        seats = {p.user_id: p.seat for p in game.players if p.human}
        if resting <= 0 or not any(user in seats for user in ranked):
            return []
        lot = shuffled(range(rules.players), f"{game.seed}:rest-lot")
        rated = [seats[user] for user in ranked if user in seats]
        rest = [seat for seat in lot if seat not in rated]
        return sorted((rated + rest)[:resting])


def only_lobby(game: GameRow | None, user_id: int | None = None) -> GameRow:
    """`game` if it is an open lobby; a game that has started (or ended) refuses lobby
    actions, telling `user_id`, when they are seated in it, that they play."""
    if game is None or not game.is_open:
        raise GameError("no-such-game")
    if game.status is not GameStatus.LOBBY:
        seated = user_id is not None and game.seat_of(user_id) is not None
        raise GameError("game-started-seated" if seated else "game-started")
    return game
