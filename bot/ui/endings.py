"""A finished game's end as the group reads it — in the end message and in /score — with
the line saying that a game with computers is not rated (RULES §2.7's game points are
shown all the same; the chat's rating counts games of people only)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.records import GameRow
from bot.game.events import (
    EndReason,
    GameEnded,
    Place,
)
from bot.game.formats import Sheet
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.ui.games import game_won
from bot.ui.i18n import Texts
from bot.ui.sheets import OUT_MARK, general_queue, scores_line, team
from bot.ui.texts import side_name


def rated(game: GameRow) -> bool:
    """Whether the game counts for the chat's rating: people only at the table."""
    return all(player.human for player in game.players)


def _noted(t: Texts, game: GameRow, text: str) -> str:
    return text if rated(game) else "\n".join([text, t("game-unrated-computers")])


def game_end(t: Texts, game: GameRow, outcome: GameEnded) -> str:
    """The end message of a finished game."""
    assert game.state is not None
    return _noted(t, game, end_text(t, outcome, game.names, game.rules, game.state.tally))


def score(t: Texts, game: GameRow) -> str:
    """/score: the game's sheet; a finished game's end as its end message said it."""
    assert game.state is not None
    text = score_text(t, game.state, game.names)
    return text if game.state.outcome is None else _noted(t, game, text)


_SCORE_EXTRAS = {Sheet.GENERALS: general_queue}


def score_text(t: Texts, state: GameState, names: Sequence[str]) -> str:
    """/score: the running (or last) game's sheet, how it is won, or how it ended."""
    finished = state.last_round.round_no if state.last_round else 0
    lines = [t("score-after", round=finished), scores_line(t, state, names)]
    rules = state.rules
    if state.outcome is not None:
        lines.append(end_text(t, state.outcome, names, rules, state.tally))
        return "\n".join(lines)
    lines.append(game_won(t, rules))
    extras = _SCORE_EXTRAS.get(rules.format.sheet)
    return "\n".join(lines + (extras(t, state, names) if extras else []))


def _winner_head(t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet) -> str:
    """Why the game ended: a leaver, the bald goat, the last one in, the target."""
    winners = [names[p.seat] for p in ended.places if p.side == ended.places[0].side]
    if ended.reason is EndReason.TIMEOUT and ended.leaver is not None:
        return t("game-over-timeout", name=names[ended.leaver])
    if ended.reason is EndReason.BALD_GOAT:
        return t("game-over-bald")
    if ended.reason is EndReason.LAST_IN:
        return t("game-over-last-in", name=side_name(t, winners))
    key = "game-over-race" if rules.format.sheet is Sheet.RACE else "game-over"
    return t(key, name=side_name(t, winners), score=ended.places[0].score)


def _rated_place(t: Texts, place: Place, names: Sequence[str], tally: Tally) -> str:
    """A place with its score, the goat or (below the winner) out of the room, and the
    rating points."""
    goat = t("game-place-goat") if place.goat else ""
    out = f" {OUT_MARK}" if place.place > 1 and tally.out and tally.out[place.side] else ""
    return t(
        "game-place",
        place=place.place,
        name=names[place.seat],
        score=place.score,
        mark=f"{goat}{out}",
        points=place.rating_points,
    )


def _scored_place(t: Texts, place: Place, names: Sequence[str], tally: Tally) -> str:
    return t("game-place-race", place=place.place, name=names[place.seat], score=place.score)


def _scored_end(
    t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally
) -> list[str]:
    """Why the game ended and every place with its score, goats and rating points; a race
    has neither goats nor rating points."""
    race = rules.format.sheet is Sheet.RACE
    lines = [_winner_head(t, ended, names, rules)]
    if ended.reason is not EndReason.TIMEOUT and ended.leaver is not None:
        left = "game-over-left-race" if race else "game-over-left"
        lines.append(t(left, name=names[ended.leaver]))
    place = _scored_place if race else _rated_place
    return lines + [place(t, p, names, tally) for p in ended.places]


def _tournament_end(
    t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally
) -> list[str]:
    """The Bykovo tournament's end (§4.2): the winner, then every place with its score."""
    first = ended.places[0]
    lines = [t("game-over-places", name=names[first.seat], score=first.score)]
    if ended.leaver is not None:
        lines.append(t("game-over-left-race", name=names[ended.leaver]))
    return lines + [_scored_place(t, p, names, tally) for p in ended.places]


def _match_end(
    t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally
) -> list[str]:
    """«Генерал»'s end (§8): the winning team, then each team's place, Generals and rounds
    won."""
    sides = list(dict.fromkeys(p.side for p in ended.places))
    lines = [t("game-over-generals", name=team(t, rules, names, sides[0]))]
    if ended.leaver is not None:
        lines.append(t("game-over-left-race", name=names[ended.leaver]))
    for side in sides:
        place = next(p for p in ended.places if p.side == side)
        lines.append(
            t(
                "game-place-generals",
                place=place.place,
                name=team(t, rules, names, side),
                generals=place.score,
                wins=tally.wins[side],
            )
        )
    return lines


_ENDS = {Sheet.PLACES: _tournament_end, Sheet.GENERALS: _match_end}


def end_text(t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally) -> str:
    """Why the game ended and everyone's place, as the game's kind places them (`tally`:
    the final sheet), then the game and how it is won."""
    write = _ENDS.get(rules.format.sheet, _scored_end)
    return "\n".join([*write(t, ended, names, rules, tally), game_won(t, rules)])
