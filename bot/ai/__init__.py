"""Computer players. A player sees one seat's information set — a `SeatView` — and nothing
else, so it cannot look at another hand or the bazaar.

    move = choose(seat_view(state, seat), Level.NORMAL, random.Random(seed))

* `Level.EASY`: a random legal move (in Bykovo a voluntary pass only now and then).
* `Level.NORMAL`: the pressure heuristic of seed 000 (`bot.ai.policy`), which in Телефон,
  Muggins and Fives and Threes also takes points and denies them to the next seat, and in
  Осёл closes doubles and puts several down when that pays; it also plays for players who
  time out.
* `Level.HARD`: Monte Carlo search over hidden hands consistent with the public history,
  finishing each round with the normal heuristic (`bot.ai.search`), bounded by time; it
  plays the normal move unless the search clearly finds a better one (in the room, with
  unweighted worlds and twice the time, the search's best). On the spinner tables it
  searches the normal level's best few moves; race games are judged by points and places.
* Bykovo (§4): normal passes only for a reason — a locked table it placed the last tile
  on («сортир»), or holding the next seat back from going out — and plays into a locked
  table; hard judges a round by the points it adds to the seat's score and its place,
  plays the search's best move, and reads a voluntary pass as «something fitted».
* «Генерал» (§8): normal, when its team trails, keeps 0-0 or 6-6 for its last tile (a
  General) while the double can still be played; hard judges a round by the win and a
  General four times more.
* Fives and Threes (§11): normal scores each move at the side's real score (with `exact` a
  move past 61 scores nothing), takes a move that wins the race at once first, and goes
  out on the end that scores most; hard judges a round by the chance to win the race it
  leaves (a point weighs more near 61; the go point and a blocked round by the points
  alone), reads the other seat's plays at the scores of their time, and overrules normal
  by one standard error rather than two.

What differs per game is its format's `computers` (plain data), read once per format into
`bot.ai.knobs.KNOBS`.

`heaviest` is the «heaviest tile first» baseline the benchmark plays against.
"""

from __future__ import annotations

import random
from enum import StrEnum

from bot.ai.knobs import HARD_BUDGET_S, KNOBS
from bot.ai.knowledge import infer
from bot.ai.policy import heaviest_move, normal_move, random_move
from bot.ai.position import view_position
from bot.ai.search import hard_move
from bot.game.formats.room import ROOM_BUDGET_S
from bot.game.moves import Move, Pass
from bot.game.view import SeatView


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def _legal(view: SeatView) -> list[Move]:
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"seat {view.seat} has no move to make now")
    return moves


def choose(
    view: SeatView,
    level: Level,
    rng: random.Random,
    budget_s: float | None = None,
    samples: int | None = None,
) -> Move:
    """The move `level` plays for the view's seat; deterministic given `rng`'s state.

    The hard level thinks for `budget_s` seconds (default the game's `Knobs.budget_s`:
    `HARD_BUDGET_S`, in the room `ROOM_BUDGET_S`) or over `samples` sampled worlds,
    whichever ends first; with `samples` alone it ignores the clock, so the move depends on
    the seed only.
    """
    moves = _legal(view)
    knobs = KNOBS[view.rules.format]
    if level is Level.EASY:
        if knobs.easy_pass < 1 and rng.random() >= knobs.easy_pass:
            moves = [m for m in moves if not isinstance(m, Pass)] or moves
        return random_move(moves, rng)
    if level is Level.NORMAL:
        voids = infer(view).voids()
        return normal_move(view_position(view, voids), moves)
    if budget_s is None and samples is None:
        budget_s = knobs.budget_s
    return hard_move(view, rng, budget_s, samples)


def heaviest(view: SeatView) -> Move:
    """The «heaviest tile first» baseline: the biggest tile that fits."""
    return heaviest_move(view.rules, _legal(view))


__all__ = ["HARD_BUDGET_S", "ROOM_BUDGET_S", "Level", "choose", "heaviest"]
