"""Editions of the rules (`rules.EDITIONS`): a game keeps the edition it was stored with, a
running game stored by an older version goes on under today's, and every log replays to the
states it was played to."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.rows import Player
from bot.core.service import GameService
from bot.core.storage import Storage
from bot.game import Phase, legal_moves, parse_rules
from bot.game.events import TilesDrawn
from bot.game.moves import Play
from bot.game.rules import EDITION, FIRST_EDITION, RuleError, RuleSet
from bot.game.serial import encode, replay, rules_entry, state_from_json, state_to_json
from tests.helpers import tile


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


@pytest.mark.parametrize("stored", [None, 3])
async def test_a_game_stored_by_the_previous_version_goes_on_under_todays_rules(
    tmp_path: Path, stored: int | None
) -> None:
    """Stored without an edition (the first) or under edition 3, the last before today's."""
    edition = FIRST_EDITION if stored is None else stored
    storage = await Storage.open(tmp_path / "kozel.sqlite3")
    try:
        service = GameService(storage)
        masha, olya = Player(0, 1, "Маша"), Player(1, 2, "Оля")
        for player in (masha, olya):
            await storage.people.remember_user(player.user_id, player.name, None, None)
            await storage.people.set_started(player.user_id)
        lobby, _ = await service.new_lobby(-100, 0, masha, "donkey turn_timeout=0")
        await service.join(lobby.id, olya)
        await service.start(lobby.id, masha.user_id)
        # the previous version stored its rules and state without an edition, or with its own
        (row,) = await storage.rows("SELECT rules, state FROM games WHERE id = ?", (lobby.id,))
        rules, state = json.loads(row[0]), json.loads(row[1])
        del rules["edition"], state["rules"]["edition"]
        if stored is not None:
            rules["edition"] = state["rules"]["edition"] = stored
        await storage.database.write(
            "UPDATE games SET rules = ?, state = ? WHERE id = ?",
            (json.dumps(rules), json.dumps(state), lobby.id),
        )
        game = await service.game(lobby.id)
        assert game is not None and game.state is not None
        assert game.state.rules.edition == edition
        for _ in range(3):
            game = await service.game(lobby.id)
            assert game is not None and game.state is not None
            mover = game.players[game.state.to_move]
            move = legal_moves(game.state)[0]
            await service.play(lobby.id, mover.user_id, game.version, move)
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
        assert rules.edition == edition
        played = replay(rules, game.state.seats, game.state.seed, log)
        assert played == game.state
        assert state_from_json(json.loads(json.dumps(state_to_json(played)))) == played
    finally:
        await storage.close()


MUGGINS_2 = (
    "0-2 0, 0-1 0, 2-5 1, 1-3 0, 3-6 0, 3-5 1, 4-6 0, 2-3 1, 0-4 0, 0-6 0, 2-6 0, 1-2 0, "
    "2-4 1, 1-5 0, 0-5 0, 3-4 1, 0-3 1"
)
"""Round 1 of Muggins for two from seed 2, played to a line whose ends both show 0 with
every plain 0 down and 0-0 in the bazaar, no double played (docs/RULES.md §1.6)."""


def test_a_line_before_its_spinner_replays_under_the_edition_it_was_played_in() -> None:
    """Edition 3 played that line on (the other seat drew towards 0-0), and its log still
    replays so; the same log gone on under edition 4 before its last tile ends in the fish
    of §1.6 there, the last tile's player the fisherman."""
    rules = replace(parse_rules("muggins", players=2), edition=3)
    moves = [move.split() for move in MUGGINS_2.split(", ")]
    log = [encode(Play(tile(rules, name), int(end))) for name, end in moves]
    seats = ("0", "1")
    played = replay(rules, seats, 2, log)
    assert played.phase is Phase.PLAYING and played.ends == (0, 0)
    assert isinstance(played.history[-1], TilesDrawn)
    assert played.rules.edition == 3
    upgraded = [*log[:-1], rules_entry(rules.current()), log[-1]]
    ended = replay(rules, seats, 2, upgraded)
    assert ended.rules.edition == EDITION == 4
    assert ended.last_round is not None
    assert (ended.last_round.reason, ended.last_round.seat) == ("fish", played.last_player)
    assert tile(rules, "0-0") in ended.bazaar
