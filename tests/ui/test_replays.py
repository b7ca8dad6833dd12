"""A round of a game's record as an animated GIF: a frame after the deal and after every
move, each captioned with the round and the move, the last the round's end as the table
showed it."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.game import record as records
from bot.game import serial
from bot.game.engine import legal_moves, new_game
from bot.game.record import Seat, Stamped
from bot.game.state import Phase
from bot.game.typed import parse_rules
from bot.telegram.messenger import replays as messenger_replays
from bot.ui import replays
from bot.ui.i18n import texts_for
from bot.ui.scenes import table_scene
from render import TableScene, render_table
from render.animation import FRAME_MS, LAST_MS

NAMES = ("Маша", "Серёжа", "Alexander the Great", "Оля")
RU = texts_for("ru")
EN = texts_for("en")


def goat_game(seed: int) -> dict[str, Any]:
    """The record of a random Козёл game, played to its end."""
    rules = parse_rules("goat", players=4)
    state = new_game(rules, [str(s) for s in range(4)], seed)[0]
    chooser = random.Random(seed)
    log = []
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            entry = serial.NEXT_ROUND
        else:
            moves = legal_moves(state)
            entry = serial.encode(moves[chooser.randrange(len(moves))])
        state = serial.step(state, entry)
        log.append(Stamped(entry, "2026-12-04T18:00:00Z"))
    seats = [Seat(name, "hard" if i == 2 else None) for i, name in enumerate(NAMES)]
    return json_of(records.build(rules, seats, seed, log, records.Played(1)))


def json_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a reader gets it (tuples become lists)."""
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    game = goat_game(5)
    assert len(game["rounds"]) >= 3
    return game


def frames_of(data: bytes) -> tuple[list[int], list[Image.Image]]:
    gif = Image.open(io.BytesIO(data))
    durations, frames = [], []
    for number in range(gif.n_frames):
        gif.seek(number)
        durations.append(gif.info["duration"])
        frames.append(gif.convert("RGB"))
    return durations, frames


def test_a_round_has_a_frame_per_move_and_ends_on_the_round_end_table(
    record: dict[str, Any],
) -> None:
    round_ = record["rounds"][1]
    number, moves = round_["round"], round_["moves"]
    animation = replays.round_replay(RU, record, number)
    durations, frames = frames_of(animation.data)
    assert len(frames) == animation.frames == len(moves) + 1
    assert durations == [FRAME_MS] * len(moves) + [LAST_MS]
    assert Image.open(io.BytesIO(animation.data)).info["loop"] == 0
    end = records.round_states(record, number)[-1]
    assert end.phase is Phase.ROUND_OVER
    names = [seat["name"] for seat in record["seats"]]
    scene = table_scene(RU, end, names)
    assert all(seat.revealed is not None for seat in scene.seats)
    shown = Image.open(io.BytesIO(render_table(scene))).convert("RGB")
    last = frames[-1].crop((0, 0, *shown.size))
    assert ImageChops.difference(last, shown).getbbox() is None


def test_each_frame_says_the_round_the_move_and_who_made_it(
    record: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[TableScene] = []

    def draw(scene: TableScene) -> bytes:
        drawn.append(scene)
        return render_table(scene)

    monkeypatch.setattr(replays, "render_table", draw)
    round_ = record["rounds"][0]
    moves = round_["moves"]
    replays.round_replay(EN, record, 1)
    assert len(drawn) == len(moves) + 1
    assert drawn[0].caption == "Round 1 · the deal"
    for number, (scene, move) in enumerate(zip(drawn[1:-1], moves, strict=False), start=1):
        assert scene.caption == f"Round 1 · move {number} of {len(moves)} · {NAMES[move['seat']]}"
    end = records.round_states(record, 1)[-1]
    assert drawn[-1].caption == table_scene(EN, end, NAMES).caption
    assert drawn[-1].caption.startswith("Round 1: ")
    drawn.clear()
    replays.round_replay(RU, record, 1)
    assert drawn[0].caption == "Раунд 1 · раздача"
    assert drawn[1].caption.startswith(f"Раунд 1 · ход 1 из {len(moves)} · ")


def test_the_last_round_ends_the_game_and_a_missing_round_is_refused(
    record: dict[str, Any],
) -> None:
    last = record["rounds"][-1]
    animation = replays.round_replay(RU, record, last["round"])
    assert animation.frames == len(last["moves"]) + 1
    assert records.round_states(record, last["round"])[-1].phase is Phase.GAME_OVER
    with pytest.raises(KeyError):
        replays.round_replay(RU, record, last["round"] + 1)


def test_the_drawing_child_imports_nothing_of_aiogram() -> None:
    """The shell hands `replay_in` to a process at a low priority: importing aiogram
    there cost seconds of CPU a busy machine never gave it, and the replay never came."""
    script = (
        "import sys, bot.ui.replays; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('aiogram', 'aiohttp')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "[]"
    assert messenger_replays.replay_in is replays.replay_in  # what `Replays._draw` hands it
