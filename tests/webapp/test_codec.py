"""A choice at the hand and the hand's question as JSON, both ways, and JSON that is no
choice refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.game.choosing import Asking, Choice, Chose, Placed, Query
from bot.webapp.codec import BadChoiceError, asking_json, choice_of


def test_every_choice_reads_as_the_telegram_buttons_carry_it() -> None:
    assert choice_of({"chose": "draw"}) == Choice(Chose.DRAW)
    assert choice_of({"chose": "tile", "tile": 12, "end": 1}) == Choice(Chose.TILE, 12, 1)
    placed = {"chose": "place", "tile": 27, "end": -1, "closed": None, "placed": [[6, 2, True]]}
    assert choice_of(placed) == Choice(Chose.PLACE, 27, -1, None, (Placed(6, 2, True),))
    assert choice_of({"chose": "done", "placed": [[6, 0, False], [27, 1, True]]}).placed == (
        Placed(6, 0, False),
        Placed(27, 1, True),
    )


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"chose": "steal"},
        {"chose": "tile", "tile": "12"},
        {"chose": "tile", "tile": True},
        {"chose": "tile", "tile": 10**9},
        {"chose": "place", "closed": "yes"},
        {"chose": "done", "placed": [[6, 0]]},
        {"chose": "done", "placed": [[6, 0, 1]]},
        {"chose": "done", "placed": [[6, 0, False]] * 9},
    ],
)
def test_json_that_is_no_choice_is_refused(data: Any) -> None:
    with pytest.raises(BadChoiceError):
        choice_of(data)


def test_a_question_goes_out_whole() -> None:
    asked = Asking(Query.READY, (Placed(6, 0, True),), choices=(27,))
    assert asking_json(asked) == {
        "query": "ready",
        "placed": [[6, 0, True]],
        "tile": -1,
        "arm": -1,
        "choices": [27],
    }
    assert asking_json(Asking(Query.END, tile=12, choices=(0, 1)))["choices"] == [0, 1]
