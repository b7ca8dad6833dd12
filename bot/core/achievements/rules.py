"""Every achievement's one definition: its id, whether games with computers count for it,
and the judge — a function of the finished game (its record, read for a person's seat)
and the person's earlier games in the chat (those it counts)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ai import Level
from bot.core.achievements.facts import Game, Past, counted, moves_of, tiles_of
from bot.core.achievements.kinds import Achievement
from bot.game.events import EndReason, RoundEnd
from bot.game.formats import FORMATS
from bot.game.kinds import DrawMode

Judge = Callable[[Game, int, Sequence[Past]], bool]
IN_A_ROW = 3  # rounds won in a row; games won in a row
MUGGINS_MOVE = 25  # points one Muggins move scores
WINS, GAMES = 10, 50  # the milestones
TABLE = 4  # seats at a full table


@dataclass(frozen=True, slots=True)
class Definition:
    achievement: Achievement
    computers: bool  # games with computers count for it
    judge: Judge


DEFINITIONS: dict[Achievement, Definition] = {}
"""Every achievement's definition, in the order the catalogs list them."""


def _defines(achievement: Achievement, *, computers: bool) -> Callable[[Judge], Judge]:
    def define(judge: Judge) -> Judge:
        DEFINITIONS[achievement] = Definition(achievement, computers, judge)
        return judge

    return define


def earned(game: Game, seat: int, past: Sequence[Past]) -> list[Achievement]:
    """The achievements a person at `seat` earned with the game, given their earlier games
    in the chat (oldest first)."""
    return [
        d.achievement
        for d in DEFINITIONS.values()
        if (d.computers or not game.has_computers)
        and d.judge(game, seat, counted(past, d.computers))
    ]


@_defines(Achievement.FIRST_WIN, computers=True)
def _first_win(game: Game, seat: int, past: Sequence[Past]) -> bool:
    return game.won(seat) and not any(p.win for p in past)


@_defines(Achievement.FIRST_GOAT, computers=True)
def _first_goat(game: Game, seat: int, past: Sequence[Past]) -> bool:
    return game.goat(seat) and not any(p.goat for p in past)


@_defines(Achievement.FISHERMAN, computers=True)
def _fisherman(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Closed a fish («рыба»): the fisherman («рыбак»)."""
    return any(r["reason"] == RoundEnd.FISH and r["seat"] == seat for r in game.results())


@_defines(Achievement.EGGS, computers=True)
def _eggs(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Took the eggs («яйца») a tied fish left."""
    return any(
        line["seat"] == seat and line["took_carry"] for r in game.results() for line in r["seats"]
    )


@_defines(Achievement.GENERAL, computers=True)
def _general(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """«Генерал»: out with 0-0 or 6-6 (the top double) as the last tile."""
    if game.format != "general":
        return False
    top = game.option("max_pip")
    generals = {"0-0", f"{top}-{top}"}
    return any(
        game.went_out(r, seat) and tiles_of(moves_of(r, seat)[-1])[-1] in generals
        for r in game.rounds
        if moves_of(r, seat)
    )


@_defines(Achievement.BALD_GOAT_MADE, computers=True)
def _bald_goat_made(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Sea Goat: won the game at once with a bald goat («лысый козёл»)."""
    return game.end["reason"] == EndReason.BALD_GOAT and game.won(seat)


@_defines(Achievement.BALD_GOAT, computers=True)
def _bald_goat(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Sea Goat: left a bald goat («лысый козёл»)."""
    return game.end["reason"] == EndReason.BALD_GOAT and game.goat(seat)


@_defines(Achievement.THREE_ROUNDS, computers=True)
def _three_rounds(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Their side went out in three rounds in a row."""
    streak = 0
    for round_ in game.rounds:
        streak = streak + 1 if game.round_winner(round_) == game.side(seat) else 0
        if streak >= IN_A_ROW:
            return True
    return False


@_defines(Achievement.NO_BAZAAR, computers=True)
def _no_bazaar(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Went out without a tile from the bazaar («базар») in a round where it could be drawn
    from: as many tiles played as dealt."""
    if game.option("draw") == DrawMode.NONE:
        return False
    keep = game.option("keep") or 0
    return any(
        game.went_out(r, seat)
        and len(r["deal"]["bazaar"]) > keep
        and sum(len(tiles_of(m)) for m in moves_of(r, seat)) == len(r["deal"]["hands"][seat])
        for r in game.rounds
    )


@_defines(Achievement.DOUBLE_PAIR, computers=True)
def _double_pair(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Several doubles in one move (Sea Goat's double pair, Осёл, Телефон)."""
    return any(len(m.get("doubles", ())) >= 2 for r in game.rounds for m in moves_of(r, seat))


@_defines(Achievement.MUGGINS_25, computers=True)
def _muggins_25(game: Game, seat: int, past: Sequence[Past]) -> bool:
    return game.format == "muggins" and any(
        m.get("scored", 0) >= MUGGINS_MOVE for r in game.rounds for m in moves_of(r, seat)
    )


@_defines(Achievement.EXACT_61, computers=True)
def _exact_61(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Fives and Threes with `exact=yes`: won landing on the target (61) exactly."""
    place = game.place(seat)
    return (
        game.format == "fives_threes"
        and bool(game.option("exact"))
        and game.won(seat)
        and place is not None
        and place["score"] == game.option("target")
    )


@_defines(Achievement.CLEAN_WIN, computers=True)
def _clean_win(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """«Козёл» won without a point («всухую»)."""
    place = game.place(seat)
    return game.format == "goat" and game.won(seat) and place is not None and place["score"] == 0


@_defines(Achievement.COMEBACK, computers=True)
def _comeback(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Alone in last place after a round, first at the end, with three sides or more."""
    places = game.end["places"]
    if not game.won(seat) or len({p["side"] for p in places}) < IN_A_ROW:
        return False
    best, worst = places[0]["score"], places[-1]["score"]
    if best == worst:
        return False
    sign = 1 if best > worst else -1  # the direction scores are better in
    side = game.side(seat)
    for result in list(game.results())[:-1]:
        scores = {line["side"]: sign * line["score_after"] for line in result["seats"]}
        mine = scores.pop(side, None)
        if mine is not None and scores and mine < min(scores.values()):
            return True
    return False


@_defines(Achievement.THREE_HARD, computers=True)
def _three_hard(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Won at a table of four where the three others were hard computers («мастер»)."""
    others = [level for i, level in enumerate(game.computers) if i != seat]
    return game.won(seat) and len(others) == TABLE - 1 and all(o == Level.HARD for o in others)


@_defines(Achievement.FULL_TABLE, computers=False)
def _full_table(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Won a game of four people or more."""
    return game.won(seat) and len(game.seats) >= TABLE


@_defines(Achievement.WIN_STREAK, computers=False)
def _win_streak(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Three games won in a row in the chat."""
    before = past[-(IN_A_ROW - 1) :]
    return game.won(seat) and len(before) == IN_A_ROW - 1 and all(p.win for p in before)


@_defines(Achievement.TEN_WINS, computers=False)
def _ten_wins(game: Game, seat: int, past: Sequence[Past]) -> bool:
    return game.won(seat) and sum(p.win for p in past) == WINS - 1


@_defines(Achievement.FIFTY_GAMES, computers=False)
def _fifty_games(game: Game, seat: int, past: Sequence[Past]) -> bool:
    return len(past) == GAMES - 1


@_defines(Achievement.WHOLE_FAMILY, computers=True)
def _whole_family(game: Game, seat: int, past: Sequence[Past]) -> bool:
    """Played every game of the family in the chat: this one the last new."""
    before = {p.format for p in past}
    return game.format not in before and before | {game.format} >= set(FORMATS)
