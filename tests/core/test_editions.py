"""Editions of the rules (`rules.EDITIONS`): a game keeps the edition it was stored with, a
running game stored by an older version goes on under today's, and every log replays to the
states it was played to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.core.records import Player
from bot.core.screen import Turn
from bot.core.service import GameService
from bot.core.storage import Storage
from bot.game import legal_moves, parse_rules
from bot.game.rules import EDITION, FIRST_EDITION, RuleError, RuleSet
from bot.game.serial import replay, state_from_json, state_to_json


def test_rules_stored_before_editions_are_the_first_edition() -> None:
    options = parse_rules("telephone").options()
    assert options["edition"] == EDITION
    assert RuleSet.from_options(options).edition == EDITION
    del options["edition"]
    old = RuleSet.from_options(options)
    assert old.edition == FIRST_EDITION
    assert old.current() == RuleSet.from_options(parse_rules("telephone").options())
    assert "edition" not in old.summary()


def test_an_edition_is_no_option_a_user_types() -> None:
    with pytest.raises(RuleError, match="unknown option"):
        parse_rules("donkey edition=1")
    with pytest.raises(RuleError):
        RuleSet(edition=EDITION + 1)


async def nothing(turn: Turn) -> None:
    """The after-turn path: no messages here."""


async def test_a_game_stored_by_the_previous_version_goes_on_under_todays_rules(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(tmp_path / "kozel.sqlite3")
    try:
        service = GameService(storage)
        masha, olya = Player(0, 1, "Маша"), Player(1, 2, "Оля")
        for player in (masha, olya):
            await storage.people.remember_user(player.user_id, player.name, None, None)
            await storage.people.set_started(player.user_id)
        lobby, _ = await service.new_lobby(-100, 0, masha, "donkey turn_timeout=0")
        await service.join(lobby.id, olya)
        await service.start(lobby.id, masha.user_id, nothing)
        # the previous version stored its rules and state without an edition
        (row,) = await storage.rows("SELECT rules, state FROM games WHERE id = ?", (lobby.id,))
        rules, state = json.loads(row[0]), json.loads(row[1])
        del rules["edition"], state["rules"]["edition"]
        await storage.database.write(
            "UPDATE games SET rules = ?, state = ? WHERE id = ?",
            (json.dumps(rules), json.dumps(state), lobby.id),
        )
        game = await service.game(lobby.id)
        assert game is not None and game.state is not None
        assert game.state.rules.edition == FIRST_EDITION
        for _ in range(3):
            game = await service.game(lobby.id)
            assert game is not None and game.state is not None
            mover = game.players[game.state.to_move]
            move = legal_moves(game.state)[0]
            await service.play(lobby.id, mover.user_id, game.version, move, nothing)
        game = await service.game(lobby.id)
        assert game is not None and game.state is not None
        assert game.state.rules.edition == EDITION
        log = [
            json.loads(row[0])
            for row in await storage.rows(
                "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", (lobby.id,)
            )
        ]
        kinds = [entry["type"] for entry in log]
        assert kinds.count("Rules") == 1
        assert log[kinds.index("Rules")] == {"type": "Rules", "edition": EDITION}
        assert kinds.index("Rules") == 0  # before the first move it allowed
        assert game.version == len(log)
        (row,) = await storage.rows("SELECT rules FROM games WHERE id = ?", (lobby.id,))
        rules = RuleSet.from_options(json.loads(row[0]))
        assert rules.edition == FIRST_EDITION
        played = replay(rules, game.state.seats, game.state.seed, log)
        assert played == game.state
        assert state_from_json(json.loads(json.dumps(state_to_json(played)))) == played
    finally:
        await storage.close()
