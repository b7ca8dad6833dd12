"""Messages composed from the translation catalogs (`bot/locales`): every function takes the
reader's `Texts` first. The words themselves live only in the catalogs."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai import Level
from bot.core.errors import GameError, RulesError
from bot.core.ratings import PROVISIONAL_GAMES
from bot.core.rows import ChatSettings, PlayerStats, PresetStats, RatingRow
from bot.core.stats import RACES
from bot.core.teams import seating
from bot.game.formats import FORMATS
from bot.game.moves import Draw, Move, Pass, PlayDoubles
from bot.game.rules import PRESETS, RuleError, RuleSet
from bot.game.state import GameState, Phase
from bot.ui.games import OPTION_NAMES, described, nearest_preset, preset_name
from bot.ui.hand import ends_shown
from bot.ui.i18n import Texts
from bot.ui.seasons import settings_line

PLAYABLE = "✅ "


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
        near = nearest_preset(t, error.value)
        if near is not None:
            return t("rule-error-preset-near", text=text, name=preset_name(t, near), preset=near)
    elif error.game:
        return _not_played(t, error)
    elif error.value:
        text = t("rule-error-value", key=key, value=value)
    else:
        text = t("rule-error-key", key=key)
    if error.valid:
        return t("rule-error-valid", text=text, valid=error.valid)
    if error.number:
        return t("rule-error-number", text=text)
    return t("rule-error-end", text=text)


def _not_played(t: Texts, error: RuleError) -> str:
    """An option the chosen game does not play, or does not have: the game named, with what
    it plays (the values, or its options)."""
    game, key = preset_name(t, error.game), quoted(error.key)
    if error.key in FORMATS[error.game].fixed:
        value = quoted(error.value)
        return t("rule-error-not-played", game=game, key=key, value=value, valid=error.valid)
    if error.key in OPTION_NAMES:
        text = t("rule-error-not-its", game=game, key=key)
    else:
        text = t("rule-error-key", key=key)
    return t("rule-error-options", text=text, game=game, options=error.valid)


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


def hand(
    t: Texts, state: GameState, seat: int, drawn: Sequence[int], tiles_shown: bool = True
) -> str:
    """The private hand message's text; `tiles_shown`: its buttons are the tiles (not a
    question), so the mark of the ones that fit is explained."""
    rules = state.rules
    lines = [t("hand-title", round=state.round_no)]
    if drawn:
        lines.append(t("hand-drawn", tiles=tile_names(rules, drawn)))
    if state.phase is not Phase.PLAYING or state.to_move != seat:
        lines.append(t("hand-wait"))
    elif state.lead_tile is not None:
        lines.append(t("hand-lead", tile=rules.tiles.name(state.lead_tile)))
    elif not state.ends:
        lines.append(t("hand-lead-any"))
    else:
        lines.append(t("hand-turn", ends=ends_shown(t, state)))
        if tiles_shown:
            lines.append(t("hand-playable"))
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
    with `races` (the chat plays a race: Телефон, Muggins …) a note that those have no goats."""
    first, last = page[0][0], page[-1][0]
    lines = [t("rating-title", chat=chat, first=first, last=last, total=total)]
    lines.append(t("rating-columns"))
    lines += [t("rating-row", rank=rank, **_rating_fields(row, t)) for rank, row in page]
    if mine is not None and mine[0] not in {rank for rank, _ in page}:
        lines.append(t("rating-you", rank=mine[0], **_rating_fields(mine[1], t)))
    if any(row.provisional for _, row in page):
        lines.append(t("rating-provisional-note", games=PROVISIONAL_GAMES))
    if races:
        games = ", ".join(preset_name(t, name) for name in PRESETS if name in RACES)
        lines.append(t("rating-race-note", games=games))
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


def _preset_line(t: Texts, numbers: PresetStats) -> str:
    """One preset's games, wins and what counts there: points per round (low or high is
    good), places 1–3 in the tournament, Generals made."""
    preset = PRESETS.get(numbers.preset)
    fmt = (preset or PRESETS["goat"]).rules.format
    per_round = f"{numbers.points / numbers.rounds:.1f}" if numbers.rounds else t("stats-no-value")
    return t(
        f"stats-line-{fmt.sheet}",
        name=preset_name(t, numbers.preset),
        games=numbers.games,
        wins=numbers.wins,
        per_round=per_round,
        better="higher" if fmt.higher_wins else "lower",
        podiums=numbers.podiums,
        generals=numbers.points,
    )


def stats(t: Texts, name: str, chat: str | None, numbers: PlayerStats) -> str:
    """/stats of one player, in one chat or (chat None) everywhere: the counts, then each
    game on its own line."""
    where = t("stats-where-chat", chat=chat) if chat else ""
    if not numbers.games:
        return t("stats-none", name=name, where=where)
    favourite = numbers.favourite_preset
    body = t(
        "stats-body",
        games=numbers.games,
        wins=numbers.wins,
        goats=numbers.goats,
        fish=numbers.fish_made,
        bald=numbers.bald_goats,
        streak=numbers.best_streak,
        preset=t("stats-no-value") if favourite is None else preset_name(t, favourite),
    )
    by_game = [t("stats-by-game"), *(_preset_line(t, p) for p in numbers.presets)]
    return "\n".join([t("stats-title", name=name, where=where), body, *by_game])


def chat_settings(
    t: Texts,
    chat: str,
    rules: RuleSet,
    language: str,
    shown: ChatSettings,
    dropped: Sequence[str] = (),
) -> str:
    """/settings: the chat's rules for /newgame in words (and the saved options their game
    does not play, `dropped`), its language (`language`, its name), whether computers may
    play and whether /deal may show its names."""
    on = {True: t("settings-on"), False: t("settings-off")}
    game = preset_name(t, rules.scoring)
    return "\n".join(
        [
            t("settings-title", chat=chat),
            t("settings-rules", rules=described(t, rules)),
            *([t("settings-dropped", options=" ".join(dropped), game=game)] if dropped else []),
            t("settings-language", language=language),
            t("settings-computers", state=on[shown.computers]),
            t("settings-deals", state=on[shown.shows_deals]),
            settings_line(t, shown),
            t("settings-hint"),
        ]
    )


def computer_level(t: Texts, level: Level) -> str:
    return t(f"computer-{level}")


def computer_name(t: Texts, level: Level, number: int) -> str:
    return t("computer-name", level=computer_level(t, level).capitalize(), number=number)
