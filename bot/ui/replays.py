"""A round of a finished game's record (`bot.game.record`) as an animated GIF: the table
after the deal, then after each move, the last frame the round's end with every hand face
up. Pure CPU (a second or two for the biggest tables): the Telegram shell runs it in a
child process (`replay_in`: that process imports nothing of aiogram)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.game import record as records
from bot.game.record import Record
from bot.ui.i18n import Texts, texts_for
from bot.ui.scenes import table_scene
from render import render_table
from render.animation import Animation, animate

MAX_BYTES = 5_000_000
"""A replay over this is drawn smaller (down to `render.animation.MIN_WIDTH`)."""


def replay_in(language: str, record: Record, round_no: int) -> Animation:
    """`round_replay` in `language`: what a child process is handed (by name, so it imports
    only this module and what it needs, not the shell's aiogram)."""
    return round_replay(texts_for(language), record, round_no)


def round_replay(t: Texts, record: Record, round_no: int) -> Animation:
    """Round `round_no` of `record` move by move: each frame captioned with the round, the
    move and who made it, the last one the round's end as the table showed it (its own
    caption, the round's result). KeyError if the record has no such round."""
    states = records.round_states(record, round_no)
    moves = next(r["moves"] for r in record["rounds"] if r["round"] == round_no)
    names = [seat["name"] for seat in record["seats"]]
    pictures = []
    for number, state in enumerate(states):
        scene = table_scene(t, state, names)
        if number < len(moves):
            scene = replace(scene, caption=_caption(t, round_no, moves, number, names))
        pictures.append(render_table(scene))
    return animate(pictures, max_bytes=MAX_BYTES)


def _caption(
    t: Texts, round_no: int, moves: Sequence[Record], number: int, names: Sequence[str]
) -> str:
    """«Раунд 2 · раздача» before the first move, then «Раунд 2 · ход 5 из 24 · Маша»."""
    if number == 0:
        return t("replay-deal", round=round_no)
    caption = t("replay-frame", round=round_no, move=number, moves=len(moves))
    seat = moves[number - 1].get("seat")  # a time-up or a rules edition has no seat
    return caption if seat is None else f"{caption} · {names[seat]}"
