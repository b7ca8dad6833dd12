"""The hand's questions and answers without any shell: what a person's choice means — a
move, or the question still to answer — each question leading to the next, every legal move
of doubles reached, and a choice that cannot be made refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.game import apply, legal_moves
from bot.game.choosing import Asking, Choice, Chose, Placed, Query, meaning
from bot.game.engine import DRAW, PASS
from bot.game.illegal import IllegalMoveError
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.state import GameState
from bot.game.tiles import tiles_of
from tests.hand_tables import DONKEY, SEA_GOAT, donkey_table, in_order, sea_goat_table
from tests.helpers import tile


def answers(asking: Asking) -> list[Choice]:
    """Every answer a hand offers to `asking` (as the Telegram buttons do)."""
    placed, query = asking.placed, asking.query
    if query is Query.END:
        return [Choice(Chose.TILE, asking.tile, end) for end in asking.choices]
    if query is Query.ARM:
        return [Choice(Chose.PLACE, asking.tile, arm, placed=placed) for arm in asking.choices]
    if query is Query.FACE:
        return [Choice(Chose.PLACE, asking.tile, asking.arm, c, placed) for c in (False, True)]
    offered = [Choice(Chose.BACK)]
    if query is Query.DOUBLE:
        offered += [Choice(Chose.PLACE, double, placed=placed) for double in asking.choices]
    if query is Query.READY and asking.choices:
        offered.append(Choice(Chose.PLACE, placed=placed))  # another double
    if placed and query in {Query.DOUBLE, Query.READY}:
        offered.append(Choice(Chose.DONE, placed=placed))
    return offered


@pytest.mark.parametrize("table", [donkey_table, sea_goat_table])
def test_every_answer_leads_to_a_legal_move_and_every_move_is_reached(
    table: Callable[[], GameState],
) -> None:
    """Walk every path through the questions from each tile of the hand: each one ends in
    a legal move (or back at the tiles), and every legal move of tiles is reached."""
    state = table()
    waiting = [Choice(Chose.TILE, t) for t in tiles_of(state.hands[state.to_move])]
    legal = legal_moves(state)
    waiting = [c for c in waiting if any(isinstance(m, Play) and m.tile == c.tile for m in legal)]
    reached: set[Move] = set()
    seen: set[Choice] = set()
    while waiting:
        choice = waiting.pop()
        if choice in seen:
            continue
        seen.add(choice)
        meant = meaning(state, choice)
        if isinstance(meant, Asking):
            if meant.query is not Query.TILES:
                waiting += answers(meant)
            continue
        apply(state, meant)  # the engine takes it as built
        assert in_order(meant) in legal, meant
        reached.add(in_order(meant))
    tiles = {m for m in legal if isinstance(m, Play | PlayDoubles)}
    assert any(isinstance(m, PlayDoubles) for m in tiles) and tiles <= reached


def test_a_closed_double_then_another_then_done() -> None:
    state = donkey_table()
    three, one, five_six = (tile(DONKEY, name) for name in ("3-3", "1-1", "5-6"))
    # 3-3 fits west only: open or closed?
    assert meaning(state, Choice(Chose.TILE, three)) == Asking(Query.FACE, (), three, 0)
    closed = Placed(three, 0, True)
    ask = meaning(state, Choice(Chose.PLACE, three, 0, True))
    assert ask == Asking(Query.READY, (closed,), choices=(one,))
    # «готово» now: 3-3 alone, closed
    assert meaning(state, Choice(Chose.DONE, placed=(closed,))) == Play(three, 0, True)
    # another double: 1-1 (east), open
    assert meaning(state, Choice(Chose.PLACE, placed=(closed,))) == Asking(
        Query.DOUBLE, (closed,), choices=(one,)
    )
    assert meaning(state, Choice(Chose.PLACE, one, placed=(closed,))) == Asking(
        Query.FACE, (closed,), one, 1
    )
    both = (closed, Placed(one, 1))
    assert meaning(state, Choice(Chose.PLACE, one, 1, False, (closed,))) == Asking(
        Query.READY, both
    )
    move = meaning(state, Choice(Chose.DONE, placed=both))
    assert move == PlayDoubles((three, one), (0, 1), (True, False))
    assert move in legal_moves(state)
    # a plain tile that fits two arms asks which
    ask = meaning(state, Choice(Chose.TILE, five_six))
    assert ask == Asking(Query.END, tile=five_six, choices=(2, 3))
    assert meaning(state, Choice(Chose.TILE, five_six, 3)) == Play(five_six, 3)


def test_draw_pass_and_back_need_no_question() -> None:
    state = donkey_table()
    assert meaning(state, Choice(Chose.DRAW)) == DRAW
    assert meaning(state, Choice(Chose.PASS)) == PASS
    assert meaning(state, Choice(Chose.BACK)) == Asking(Query.TILES)


def test_a_forged_partial_move_is_refused() -> None:
    state = donkey_table()
    three, six = tile(DONKEY, "3-3"), tile(DONKEY, "6-6")
    for placed in ([Placed(three, 1)], [Placed(six, 2)], [Placed(three, 0), Placed(three, 0)]):
        with pytest.raises(IllegalMoveError):
            meaning(state, Choice(Chose.DONE, placed=tuple(placed)))
    with pytest.raises(IllegalMoveError):  # nothing placed
        meaning(state, Choice(Chose.DONE))
    with pytest.raises(IllegalMoveError):  # a tile that is no double
        meaning(state, Choice(Chose.PLACE, tile(DONKEY, "5-6")))
    with pytest.raises(IllegalMoveError):  # closed where the game has no closed doubles
        closed = Placed(tile(SEA_GOAT, "2-2"), 0, True)
        meaning(sea_goat_table(), Choice(Chose.DONE, placed=(closed,)))


@pytest.mark.parametrize(("number", "arm"), [(255, -1), (28, -1), (100, 0)])
def test_a_tile_number_past_the_set_is_refused(number: int, arm: int) -> None:
    """A forged choice names a tile the set has not: refused before its pips are read."""
    with pytest.raises(IllegalMoveError):
        meaning(donkey_table(), Choice(Chose.PLACE, number, arm, False))
    with pytest.raises(IllegalMoveError):
        meaning(donkey_table(), Choice(Chose.TILE, number))


def test_sea_goats_pair_starts_from_either_double_or_the_old_pair_choice() -> None:
    rules, state = SEA_GOAT, sea_goat_table()
    pair = next(m for m in legal_moves(state) if isinstance(m, PlayDoubles))
    two = tile(rules, "2-2")
    ask = meaning(state, Choice(Chose.TILE, two))
    assert ask == Asking(Query.READY, (Placed(two, 0),), choices=(pair.tiles[1],))
    assert meaning(state, Choice(Chose.PAIR)) == pair  # an older version's button
    one_two = tile(rules, "1-2")
    assert meaning(state, Choice(Chose.TILE, one_two)) == Asking(
        Query.END, tile=one_two, choices=(0, 1)
    )
