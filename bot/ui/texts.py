"""Messages composed from the translation catalogs (`bot/locales`): every function takes the
reader's `Texts` first. The words themselves live only in the catalogs."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from bot.ai import Level
from bot.core.errors import GameError, RulesError
from bot.core.ratings import PROVISIONAL_GAMES
from bot.core.records import PlayerStats, RatingRow
from bot.core.teams import seating
from bot.game.engine import next_resting
from bot.game.events import (
    DoublesPlayed,
    EndReason,
    Event,
    GameEnded,
    Knocked,
    Passed,
    RoundEnd,
    RoundEnded,
    RoundStarted,
    Scored,
    SeatResult,
    TilePlayed,
    TilesDrawn,
    WentOut,
)
from bot.game.moves import Draw, Move, Pass, PlayDoubles
from bot.game.rules import PRESETS, RuleError, RuleSet, Scoring, Spinner
from bot.game.state import GameState, Phase
from bot.ui.hand import ARROWS, arm
from bot.ui.i18n import Texts

PLAYABLE = "✅ "
EVENT_LINES = 4  # the last moves the table caption tells


def option_value(value: object) -> str:
    """An option's value as it is typed: `yes`/`no`, an enum's name, a number."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def option_label(t: Texts, key: str, value: str, scoring: Scoring | None = None) -> str:
    """A rules button's words; a value may read differently in one scoring family."""
    scoped = f"option-{key}-{value}-{scoring}"
    known = scoped if scoring is not None and t.has(scoped) else f"option-{key}-{value}"
    if key in {"target", "turn_timeout", "minutes"} and not t.has(known):
        return t(f"option-{key}", value=value)
    return t(known) if t.has(known) else f"{key}={value}"


def refusal(t: Texts, error: GameError) -> str:
    """The short answer to a refused action, in the reader's language."""
    if isinstance(error, RulesError):
        reason = rule_error(t, error.error)
        return reason if error.wrap is None else t(error.wrap, reason=reason)
    return t(error.key, **error.values)


CAPTION = 1024  # Telegram's limit for a photo's caption
TEXT = 4096  # … and for a message's text


def fit(text: str, limit: int) -> str:
    """`text` within `limit` characters: whole lines kept, the rest cut at a line with «…»
    (never mid-word; a single line too long is cut at a space)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = head.rfind("\n")
    if cut <= 0:
        cut = head.rfind(" ")
    return f"{head[: cut if cut > 0 else limit - 1].rstrip()}…"


OUT_MARK = "🚪"
"""Marks a side that is out of the game room."""

QUOTED = 32
"""The longest piece of a user's input an answer quotes back."""


def quoted(text: str) -> str:
    """User input to quote in an answer: cut short, at a visible «…»."""
    return text if len(text) <= QUOTED else f"{text[: QUOTED - 1]}…"


def rule_error(t: Texts, error: RuleError) -> str:
    """A bad option: which one, and what may be chosen (the user's words cut short)."""
    key, value = quoted(error.key), quoted(error.value)
    if error.key in {"players", "teams"}:
        text = t("rule-error-players")
    elif error.key == "preset":
        text = t("rule-error-preset", value=value)
    elif error.value:
        text = t("rule-error-value", key=key, value=value)
    else:
        text = t("rule-error-key", key=key)
    if error.valid:
        return t("rule-error-valid", text=text, valid=error.valid)
    if error.number:
        return t("rule-error-number", text=text)
    return t("rule-error-end", text=text)


def tile_names(rules: RuleSet, tiles: Sequence[int]) -> str:
    return ", ".join(rules.tiles.name(t) for t in tiles) or "—"


def side_name(t: Texts, names: Sequence[str]) -> str:
    """A seat's name, or partners' names together («Маша, Оля и Петя»)."""
    if len(names) >= 2:
        return t("partners", first=", ".join(names[:-1]), second=names[-1])
    return ", ".join(names)


def move_label(t: Texts, move: Move, rules: RuleSet) -> str:
    if isinstance(move, Draw):
        return t("draw")
    if isinstance(move, Pass):
        return t("pass")
    if isinstance(move, PlayDoubles):
        return t("double-pair", tiles=tile_names(rules, move.tiles))
    return rules.tiles.name(move.tile)


_PLAYED_AT = {0: "event-played-left", 1: "event-played-right"}
_SPINNER_AT = ("event-played-west", "event-played-east", "event-played-up", "event-played-down")


def _placed(t: Texts, rules: RuleSet, tile: int, closed: bool) -> str:
    name = rules.tiles.name(tile)
    return t("event-closed", tile=name) if closed else name


def describe(
    t: Texts, event: Event, rules: RuleSet, names: Sequence[str], lead: Event | None = None
) -> str | None:
    """One line about a public event for the group, or None for the silent ones; `lead`,
    the round's first tile, lies on no arm."""
    if isinstance(event, TilePlayed):
        at = _SPINNER_AT if rules.spinner is not Spinner.NONE else _PLAYED_AT
        key = at[event.end] if event.end < len(at) and event != lead else "event-played"
        tile = _placed(t, rules, event.tile, event.closed)
        return t(key, name=names[event.seat], tile=tile)
    if isinstance(event, DoublesPlayed):
        closed = event.closed or (False,) * len(event.tiles)
        spinner = rules.spinner is not Spinner.NONE
        tiles = ", ".join(
            f"{_placed(t, rules, tile, face_down)}{f' {ARROWS[end]}' if spinner else ''}"
            for tile, end, face_down in zip(event.tiles, event.ends, closed, strict=True)
        )
        return t("event-doubles", name=names[event.seat], tiles=tiles, count=len(event.tiles))
    if isinstance(event, Scored):
        return t("event-scored", sum=event.ends_sum, points=event.points)
    if isinstance(event, TilesDrawn):
        return t("event-drawn", name=names[event.seat], number=event.number)
    if isinstance(event, Knocked):
        return t("event-knocked", name=names[event.seat])
    if isinstance(event, Passed):
        return t("event-passed", name=names[event.seat])
    if isinstance(event, WentOut):
        return t("event-went-out", name=names[event.seat], last=names[event.last])
    if isinstance(event, RoundStarted) and event.redeals:
        return t("event-redeal", number=len(event.redeals))
    return None


def lobby(
    t: Texts,
    rules: RuleSet,
    players: Sequence[str],
    waiting: Sequence[str],
    computers: bool,
    idle_minutes: int,
    picks: Sequence[int | None] = (),
) -> str:
    """The lobby message: rules in one line, who sits (and in which team), who still has
    to open the bot, how long an idle lobby waits."""
    lines = [
        t("lobby-title"),
        t("lobby-rules", rules=described(t, rules)),
        t("lobby-players", names=", ".join(players) if players else t("lobby-nobody")),
    ]
    if rules.teams:
        lines.append(lobby_teams(t, rules, players, picks or [None] * len(players)))
    if waiting:
        lines.append(t("lobby-waiting", names=", ".join(waiting)))
    if not computers:
        lines.append(t("lobby-no-computers"))
    lines.append(t("lobby-press-join"))
    lines.append(t("lobby-idle-hint", minutes=idle_minutes))
    return "\n".join(lines)


def lobby_teams(
    t: Texts, rules: RuleSet, players: Sequence[str], picks: Sequence[int | None]
) -> str:
    """The teams as they would sit now (picked, the rest by order of joining); or which
    numbers of players make whole teams, with the picks so far."""
    try:
        seated = rules.with_players(len(players))
    except RuleError:
        size = rules.team_size
        counts = [n for n in range(2, rules.most_players + 1) if not n % size and n // size >= 2]
        need = t("lobby-teams-need", size=size, counts=", ".join(map(str, counts)))
        chosen = [
            f"{name} → {team + 1}"
            for name, team in zip(players, picks, strict=True)
            if team is not None
        ]
        return "\n".join([need, *([t("lobby-picks", picks=", ".join(chosen))] if chosen else [])])
    try:
        order = seating(picks, seated.sides, seated.team_size)
    except GameError as error:
        return refusal(t, error)
    return " · ".join(
        t(
            "lobby-team",
            number=team + 1,
            names=side_name(t, [players[i] for i in order[team :: seated.sides]]),
        )
        for team in range(seated.sides)
    )


def scores_line(t: Texts, state: GameState, names: Sequence[str]) -> str:
    """`Маша 12 (+5) · Серёжа 0`, per side (partners together)."""
    rules, tally = state.rules, state.tally
    parts = []
    for side in range(rules.sides):
        who = side_name(t, [names[s] for s in range(rules.players) if rules.side_of(s) == side])
        remembered = f" (+{tally.remembered[side]})" if tally.remembered[side] else ""
        out = f" {OUT_MARK}" if tally.out and tally.out[side] else ""
        parts.append(f"{who} {tally.scores[side]}{remembered}{out}")
    carry = f" · 🥚 {tally.carry}" if tally.carry else ""
    return " · ".join(parts) + carry


def told(t: Texts, events: Sequence[Event], state: GameState, names: Sequence[str]) -> list[str]:
    """The lines the group reads about `events` of `state`'s round; what a move scored joins
    the move's line («Маша: 5-5 вверх · концы 20 → +4»)."""
    lead = next((e for e in state.history if isinstance(e, TilePlayed)), None)
    lines: list[str] = []
    for event in events:
        line = describe(t, event, state.rules, names, lead)
        if line is None:
            continue
        if isinstance(event, Scored) and lines:
            lines[-1] = f"{lines[-1]} · {line}"
        else:
            lines.append(line)
    return lines


def table_caption(
    t: Texts,
    state: GameState,
    names: Sequence[str],
    events: Sequence[Event],
    notes: Sequence[str] = (),
    ended: str | None = None,
    clock: str = "",
) -> str:
    """The table picture's caption: score, bazaar, the last moves, `notes`, whose turn — or,
    for a game that ended without being played out, why (`ended`, a catalog text)."""
    lines = [
        t("caption-round", round=state.round_no, bazaar=len(state.bazaar)),
        scores_line(t, state, names),
    ]
    if clock:  # «Генерал»: the match's time (§8)
        lines.append(clock)
    if state.resting and state.rules.scoring is Scoring.BYKOVO:  # who sits out (§4.2)
        lines.append(t("event-resting", names=", ".join(names[s] for s in state.resting)))
    lines += told(t, events, state, names)[-EVENT_LINES:]
    lines += notes
    if ended is not None:
        lines.append(t(ended))
    elif state.phase is Phase.PLAYING:
        lines.append(t("caption-to-move", name=names[state.to_move]))
    return "\n".join(lines)


def hand(t: Texts, state: GameState, seat: int, drawn: Sequence[int]) -> str:
    """The private hand message's text."""
    rules = state.rules
    lines = [t("hand-title", round=state.round_no)]
    if drawn:
        lines.append(t("hand-drawn", tiles=tile_names(rules, drawn)))
    if state.phase is not Phase.PLAYING or state.to_move != seat:
        lines.append(t("hand-wait"))
    elif state.lead_tile is not None:
        lines.append(t("hand-lead", tile=rules.tiles.name(state.lead_tile)))
    else:
        ends = state.ends
        if rules.spinner is not Spinner.NONE and ends:
            shown = " · ".join(arm(end, value) for end, value in enumerate(ends))
        elif len(ends) == 2:
            shown = t("hand-ends", first=ends[0], second=ends[1])
        else:
            shown = ", ".join(map(str, ends)) or t("hand-empty-table")
        lines.append(t("hand-turn", ends=shown))
    return "\n".join(lines)


def round_result(
    t: Texts,
    ended: RoundEnded,
    rules: RuleSet,
    names: Sequence[str],
    closed: GameState | None = None,
) -> str:
    """Every hand revealed and the score sheet: previous / round / total, "+N" remembered;
    in Bykovo the round's places too (§4.1), and who sits the next round out (§4.2); in
    «Генерал» the teams' Generals and wins and the queue (§8). `closed` is the state the
    round ended in (gone after a restart: then the text says less)."""
    if rules.scoring is Scoring.GENERAL:
        return _general_round(t, ended, rules, names, closed)
    bykovo = rules.scoring is Scoring.BYKOVO
    over = closed is None or closed.outcome is not None
    resting_next = () if over or closed is None else next_resting(closed)
    if ended.eggs:
        head = t("round-eggs", round=ended.round_no, carry=ended.carry_after)
    elif ended.reason is RoundEnd.TARGET:
        score = ended.results[ended.seat].score_after
        head = t("round-target", round=ended.round_no, name=names[ended.seat], score=score)
    elif ended.reason is RoundEnd.SORTIR:
        head = t("round-sortir", round=ended.round_no, name=names[ended.seat])
    elif ended.reason is RoundEnd.FISH:
        fish = "round-fish-bykovo" if bykovo else "round-fish"
        head = t(fish, round=ended.round_no, name=names[ended.seat])
    else:
        head = t("round-out", round=ended.round_no, name=names[ended.seat])
    lines = [head]
    for side in ended.out:  # first: a long caption is cut at its end
        members = [r for r in ended.results if r.side == side]
        who = side_name(t, [names[r.seat] for r in members])
        score = members[0].score_after
        lines.append(t("round-side-out", name=who, score=score, members=len(members)))
    if resting_next:
        lines.append(t("round-next", names=", ".join(names[s] for s in resting_next)))
    playing = [r for r in ended.results if not sat_out(rules, r, ended)]
    for r in playing:
        lines.append(
            t(
                "round-hand",
                name=names[r.seat],
                tiles=tile_names(rules, r.hand),
                value=r.hand_value,
            )
        )
    if bykovo:
        lines.append(t("round-places", places=_round_places(ended, names)))
        if ended.lots:
            lines.append(t("round-lots"))
        lines.append(t("round-sheet-bykovo", goal=rules.goal))
    else:
        lines.append(t("round-sheet-race" if rules.format.scores_in_play else "round-sheet"))
    seen: set[int] = set()
    for r in playing:
        if r.side in seen:
            continue
        seen.add(r.side)
        who = side_name(t, [names[x.seat] for x in ended.results if x.side == r.side])
        remembered = f" (+{r.remembered_after})" if r.remembered_after else ""
        opened = " 🔓" if r.opened and not rules.format.higher_wins else ""
        carry = " 🥚" if r.took_carry else ""
        if rules.format.scores_in_play:
            lines.append(
                t(
                    "round-line-race",
                    name=who,
                    before=r.score_before,
                    play=f"{r.play_points:+d}",
                    points=f"{r.round_points:+d}",
                    after=r.score_after,
                )
            )
            continue
        lines.append(
            t(
                "round-line",
                name=who,
                before=r.score_before,
                points=f"{r.round_points:+d}",
                after=r.score_after,
                marks=f"{remembered}{opened}{carry}",
            )
        )
    return "\n".join(lines)


def _team(t: Texts, rules: RuleSet, names: Sequence[str], side: int) -> str:
    """A side's name: its players («Маша и Оля»)."""
    return side_name(t, [names[s] for s in range(rules.players) if rules.side_of(s) == side])


def _general_round(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str], closed: GameState | None
) -> str:
    """«Генерал»'s round (§8): who won (and a General), or a fish replayed; the hands; the
    teams' Generals and wins, the queue and the next pairing."""
    winner = rules.side_of(ended.seat)
    if ended.reason is RoundEnd.FISH:
        lines = [t("round-general-fish", round=ended.round_no)]
    else:
        lines = [t("round-general-won", round=ended.round_no, name=_team(t, rules, names, winner))]
        if ended.results[ended.seat].round_points:
            lines.append(t("round-general-made", name=names[ended.seat]))
    lines += [
        t("round-hand", name=names[r.seat], tiles=tile_names(rules, r.hand), value=r.hand_value)
        for r in ended.results
        if closed is None or r.seat not in closed.resting
    ]
    if closed is not None:
        lines += general_standing(t, closed, names)
    return "\n".join(lines)


def general_standing(t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
    """Every team's Generals and wins; who waits, and who plays next (§8)."""
    rules, tally = state.rules, state.tally
    lines = [
        t(
            "general-standing",
            name=_team(t, rules, names, side),
            generals=tally.scores[side],
            wins=tally.wins[side],
        )
        for side in range(rules.sides)
    ]
    if tally.queue and state.outcome is None:
        waiting = ", ".join(_team(t, rules, names, side) for side in tally.queue)
        lines.append(t("general-waiting", names=waiting))
        first, second = (s for s in range(rules.sides) if s not in tally.queue)
        pairing = {"first": _team(t, rules, names, first), "second": _team(t, rules, names, second)}
        lines.append(t("general-next", **pairing))
    return lines


def match_clock(t: Texts, seconds_left: float) -> str:
    """«Генерал»'s clock: the minutes left, or that the round under way is the last."""
    if seconds_left <= 0:
        return t("clock-over")
    return t("clock-left", minutes=-int(-seconds_left // 60))


def _round_places(ended: RoundEnded, names: Sequence[str]) -> str:
    """«1. Маша, 2. Оля, 3. Дима 🎲, 4. Серёжа 🎲»: 🎲 where the lot decided."""
    return ", ".join(
        f"{place}. {names[seat]}{' 🎲' if seat in ended.lots else ''}"
        for place, seat in enumerate(ended.order, start=1)
    )


def sat_out(rules: RuleSet, result: SeatResult, ended: RoundEnded | None = None) -> bool:
    """Whether the seat had no part in the round: already out of the room when it was
    dealt, or (Bykovo, given the round) out of the tournament or sitting the round out."""
    if rules.scoring is Scoring.BYKOVO:
        return ended is not None and result.seat not in ended.order
    return rules.scoring is Scoring.ROOM and result.score_before >= rules.target


def game_end(t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet) -> str:
    """Why the game ended and everyone's place; a race (Телефон, Muggins) and the Bykovo
    tournament have no goats and no rating points, so their places say only the scores."""
    race = rules.format.scores_in_play
    winners = [names[p.seat] for p in ended.places if p.side == ended.places[0].side]
    if rules.scoring is Scoring.BYKOVO:
        return _tournament_end(t, ended, names)
    if rules.scoring is Scoring.GENERAL:
        return _match_end(t, ended, names, rules)
    if ended.reason is EndReason.TIMEOUT and ended.leaver is not None:
        head = t("game-over-timeout", name=names[ended.leaver])
    elif ended.reason is EndReason.BALD_GOAT:
        head = t("game-over-bald")
    elif ended.reason is EndReason.LAST_IN:
        head = t("game-over-last-in", name=side_name(t, winners))
    elif race:
        head = t("game-over-race", name=side_name(t, winners), score=ended.places[0].score)
    else:
        head = t("game-over")
    lines = [head]
    if ended.reason is not EndReason.TIMEOUT and ended.leaver is not None:
        lines.append(
            t("game-over-left-race" if race else "game-over-left", name=names[ended.leaver])
        )
    for place in ended.places:
        if race:
            lines.append(
                t("game-place-race", place=place.place, name=names[place.seat], score=place.score)
            )
            continue
        lines.append(
            t(
                "game-place",
                place=place.place,
                name=names[place.seat],
                score=place.score,
                goat=t("game-place-goat") if place.goat else "",
                points=place.rating_points,
            )
        )
    return "\n".join(lines)


def _tournament_end(t: Texts, ended: GameEnded, names: Sequence[str]) -> str:
    """The Bykovo tournament's end (§4.2): the winner, then every place with its score."""
    first = ended.places[0]
    lines = [t("game-over-bykovo", name=names[first.seat], score=first.score)]
    if ended.leaver is not None:
        lines.append(t("game-over-left-race", name=names[ended.leaver]))
    lines += [
        t("game-place-race", place=p.place, name=names[p.seat], score=p.score) for p in ended.places
    ]
    return "\n".join(lines)


def _match_end(t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet) -> str:
    """«Генерал»'s end (§8): the winning team, then each team's place and Generals."""
    sides = list(dict.fromkeys(p.side for p in ended.places))
    first = next(p for p in ended.places if p.side == sides[0])
    lines = [t("game-over-general", name=_team(t, rules, names, first.side))]
    if ended.leaver is not None:
        lines.append(t("game-over-left-race", name=names[ended.leaver]))
    for side in sides:
        place = next(p for p in ended.places if p.side == side)
        team = _team(t, rules, names, side)
        lines.append(t("game-place-general", place=place.place, name=team, generals=place.score))
    return "\n".join(lines)


def score(t: Texts, state: GameState, names: Sequence[str]) -> str:
    """/score: the running (or last) game's sheet."""
    finished = state.last_round.round_no if state.last_round else 0
    lines = [t("score-after", round=finished), scores_line(t, state, names)]
    if state.rules.format.scores_in_play:
        lines.append(t("score-race", goal=state.rules.goal))
    elif state.rules.scoring is Scoring.BYKOVO:
        lines.append(t("score-bykovo", goal=state.rules.goal))
    elif state.rules.scoring is Scoring.GENERAL:
        lines.append(t("score-general", minutes=state.rules.minutes))
        lines += general_standing(t, state, names)
    if state.outcome is not None:
        lines.append(game_end(t, state.outcome, names, state.rules))
    return "\n".join(lines)


def _rating_fields(row: RatingRow, t: Texts) -> dict[str, str | int]:
    return {
        "name": row.name,
        "rating": str(row.rating),
        "provisional": t("rating-provisional-mark") if row.provisional else "",
        "games": row.games,
        "wins": row.wins,
        "goats": row.goats,
        "points": row.rating_points,
    }


def leaderboard(
    t: Texts,
    chat: str,
    page: Sequence[tuple[int, RatingRow]],
    total: int,
    mine: tuple[int, RatingRow] | None,
    races: bool = False,
) -> str:
    """One page of the chat's leaderboard, and the reader's own line when it is elsewhere;
    with `races` (the chat plays Телефон or Muggins) a note that those have no goats."""
    first, last = page[0][0], page[-1][0]
    lines = [t("rating-title", chat=chat, first=first, last=last, total=total)]
    lines.append(t("rating-columns"))
    lines += [t("rating-row", rank=rank, **_rating_fields(row, t)) for rank, row in page]
    if mine is not None and mine[0] not in {rank for rank, _ in page}:
        lines.append(t("rating-you", rank=mine[0], **_rating_fields(mine[1], t)))
    if any(row.provisional for _, row in page):
        lines.append(t("rating-provisional-note", games=PROVISIONAL_GAMES))
    if races:
        lines.append(t("rating-race-note"))
    return "\n".join(lines)


def ratings_everywhere(t: Texts, rows: Sequence[tuple[str, RatingRow]]) -> str:
    """/rating in private: the user's rating in every chat they played in."""
    lines = [t("rating-private-title")]
    for chat, row in rows:
        fields = _rating_fields(row, t)
        del fields["name"], fields["wins"], fields["goats"]
        lines.append(t("rating-private-row", chat=chat, **fields))
    if any(row.provisional for _, row in rows):
        lines.append(t("rating-provisional-note", games=PROVISIONAL_GAMES))
    return "\n".join(lines)


def stats(t: Texts, name: str, chat: str | None, numbers: PlayerStats) -> str:
    """/stats of one player, in one chat or (chat None) everywhere."""
    where = t("stats-where-chat", chat=chat) if chat else ""
    if not numbers.games:
        return t("stats-none", name=name, where=where)
    none = t("stats-no-value")
    per_round = numbers.points_per_round
    return "\n".join(
        [
            t("stats-title", name=name, where=where),
            t(
                "stats-body",
                games=numbers.games,
                wins=numbers.wins,
                goats=numbers.goats,
                per_round=none if per_round is None else f"{per_round:.1f}",
                fish=numbers.fish_made,
                bald=numbers.bald_goats,
                streak=numbers.best_streak,
                preset=numbers.favourite_preset or none,
            ),
            *([t("stats-race-note", games=numbers.races)] if numbers.races else []),
            *(
                [t("stats-club-note", games=numbers.clubs, podiums=numbers.podiums)]
                if numbers.clubs
                else []
            ),
        ]
    )


def computer_level(t: Texts, level: Level) -> str:
    return t(f"computer-{level}")


def computer_name(t: Texts, level: Level, number: int) -> str:
    return t("computer-name", level=computer_level(t, level).capitalize(), number=number)


def described(t: Texts, rules: RuleSet) -> str:
    """`goat — Козёл: …` while the preset is untouched, else the options that changed."""
    summary = rules.summary()
    if rules.preset not in PRESETS or summary != rules.preset:
        return summary
    return t("preset-described", summary=summary, description=t(f"preset-{rules.preset}"))


def rules_text(t: Texts, rules: RuleSet) -> str:
    """/rules: the chosen rules in one line, how the preset plays, where the rest is."""
    lines = [t("rules-text", rules=described(t, rules), players=rules.players, hand=rules.hand)]
    if t.has(how := f"rules-{rules.preset}"):
        lines.append(t(how))
    lines.append(t("rules-docs"))
    return "\n\n".join(lines)


GROUP_COMMANDS = (
    "newgame",
    "score",
    "rating",
    "stats",
    "rules",
    "settings",
    "nextgame",
    "extend",
    "kick",
    "endgame",
    "leave",
    "help",
)
PRIVATE_COMMANDS = {
    "start": "command-start",
    "rating": "command-rating-private",
    "stats": "command-stats-private",
    "language": "command-language",
    "help": "command-help",
}


def commands(t: Texts, private: bool) -> dict[str, str]:
    """The command menu of group or private chats: name → description."""
    if private:
        return {name: t(key) for name, key in PRIVATE_COMMANDS.items()}
    return {name: t(f"command-{name}") for name in GROUP_COMMANDS}
