"""A spinner game's line before its spinner, end to end (docs/RULES.md §1.6, rules edition
4): two people play Muggins through their hands' buttons to a line whose ends both show 0
with every plain 0 down and 0-0 still in the bazaar; the tile that closed the line ends the
round as a fish at once, its player the fisherman, and nobody draws for the double."""

from __future__ import annotations

import json
from pathlib import Path

from bot.game import parse_rules
from bot.game.moves import Play
from bot.game.serial import encode
from bot.playground import FakeTelegram
from tests.core.test_editions import MUGGINS_2
from tests.e2e.actions import seeded_game
from tests.e2e.process import running_bot
from tests.e2e.shown import NAMES, RU, bot_messages
from tests.e2e.stored import query, stored_state
from tests.e2e.test_e2e_hand_spinner import Player, states_of
from tests.helpers import tile

MUGGINS = parse_rules("muggins").with_players(2)
SEED = 2  # `MUGGINS_2`'s deal: the lobby's seed is set before the start
PLAYS = MUGGINS_2.split(", ")


async def test_muggins_line_closed_before_its_spinner_is_a_fish_at_once(tmp_path: Path) -> None:
    moves = [Play(tile(MUGGINS, name), int(end)) for name, end in map(str.split, PLAYS)]
    states = states_of(MUGGINS, SEED, moves)
    fisherman = states[-2].to_move  # who places 0-3, closing the line (the engine's word aside)
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            game_id = await seeded_game(fake, tmp_path, group, users, "muggins", SEED)
            player = Player(fake, users)
            for state, move in zip(states[:-1], moves, strict=True):
                await player.make(state, move)
            said = RU("round-fish", round=1, name=NAMES[fisherman])
            await fake.wait_until(
                lambda: any(said in (m.content or "") for m in bot_messages(fake, group)), 20
            )
    stored = stored_state(tmp_path, game_id)
    assert stored.rules.edition >= 4
    ended = stored.last_round
    assert ended is not None and ended.round_no == 1
    assert (ended.reason, ended.seat) == ("fish", fisherman)
    log = [
        json.loads(r["entry"])
        for r in query(tmp_path, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    ]
    kinds = [entry["type"] for entry in log]
    first_round = log[: kinds.index("NextRound")] if "NextRound" in kinds else log
    assert first_round == [encode(move) for move in moves]  # nobody moved after the fish
    assert states[-1].ends == (0, 0) and tile(MUGGINS, "0-0") in states[-1].bazaar
