"""Every text the bot shows (Russian, in the words of the seeds: «базар», «рыба», «козёл»)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from bot.game.events import (
    DoublesPlayed,
    Event,
    GameEnded,
    Knocked,
    Passed,
    RoundEnded,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
)
from bot.game.moves import Draw, Move, Pass, PlayDoubles
from bot.game.rules import PRESETS, RuleError, RuleSet
from bot.game.state import GameState, Phase
from bot.storage import RatingRow

JOIN = "🎲 Сесть за стол"
LEAVE = "Выйти"
START = "▶ Начать"
SETTINGS = "⚙ Настройки"
CANCEL = "✖ Отменить"
DONE = "✔ Готово"
BACK = "↩ Назад"
PLAYABLE = "✅ "
END_CHOICE = {0: "⬅ Налево", 1: "Направо ➡"}
END_YES = "Да, закончить"
END_NO = "Нет, играем"
ARM_NAMES = {0: "слева", 1: "справа"}

# short answers to button presses and commands
NOT_YOUR_TURN = "Сейчас не ваш ход."
STALE = "Эта кнопка устарела: ход уже сделан."
NOT_A_PLAYER = "Вы не играете в этой партии."
NO_SUCH_GAME = "Эта игра уже закончилась."
NOT_CREATOR = "Это может только тот, кто создал игру."
NOT_CREATOR_OR_ADMIN = "Это может создатель игры или администратор чата."
LOBBY_FULL = "За столом нет свободных мест."
ALREADY_SEATED = "Вы уже за столом."
NOT_SEATED = "Вас нет за этим столом."
GROUPS_ONLY = "Эта команда работает в группе: добавьте меня в чат и напишите /newgame."
UNKNOWN_BUTTON = "Эта кнопка ничего не делает."
GAME_STARTED = "Игра уже началась."
PICK_END = "Куда поставить?"
NEED_A_HUMAN = "За столом должен быть хотя бы один человек."
ROBOT_LEVELS = {"easy": "новичок", "normal": "любитель", "hard": "мастер"}
ADD_ROBOT = "🤖 +{level}"
DOES_NOT_FIT = "Эта кость сейчас не подходит."
ALREADY_RUNNING = "Здесь уже есть игра — вот она."
JOINED = "Вы за столом! Кости придут сюда, когда игра начнётся."
CANCELLED = "Игра отменена."
REMOVED_FROM_GROUP = "Игра отменена: бота удалили из группы."
ENDGAME_ASK = "Закончить игру? Очки не пойдут в рейтинг."
ENDGAME_KEEP = "Играем дальше."
ENDED_BY = "Игру закончил(а) {name}. Она не идёт в рейтинг."
NO_OPEN_GAME = "Здесь сейчас нет игры. Начните её командой /newgame."
NO_GAMES_YET = "В этом чате ещё не было законченных игр."
NO_RATING_YET = "Рейтинга пока нет: сыграйте первую партию (/newgame)."

HELP_PRIVATE = (
    "Я веду партии в домино «Козёл» в групповых чатах.\n\n"
    "1. Добавьте меня в группу.\n"
    "2. Там напишите /newgame (например: /newgame sea_goat target=150).\n"
    "3. Игроки жмут «Сесть за стол» — я пришлю каждому его кости сюда, в личный чат.\n\n"
    "Команды в группе: /newgame, /score, /rating, /rules, /endgame, /leave, /help."
)
HELP_GROUP = (
    "/newgame [набор правил] [опции] — собрать стол (наборы: goat, goat_teams, sea_goat, "
    "classic)\n/score — счёт партии\n/rating — рейтинг чата\n/rules — правила текущей игры\n"
    "/endgame — закончить игру\n/leave — выйти из игры"
)
COMMANDS_GROUP = {
    "newgame": "новая игра",
    "score": "счёт партии",
    "rating": "рейтинг чата",
    "rules": "правила текущей игры",
    "endgame": "закончить игру",
    "leave": "выйти из игры",
    "help": "помощь",
}
COMMANDS_PRIVATE = {"start": "что умеет бот", "help": "помощь"}
ADD_TO_GROUP = "➕ Добавить в группу"


def option_value(value: object) -> str:
    """An option's value as it is typed: `yes`/`no`, an enum's name, a number."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


_OPTION_LABELS = {
    ("fish", "one"): "рыба на одного",
    ("fish", "all"): "рыба на всех",
    ("auto_draw", "yes"): "базар: сам",
    ("auto_draw", "no"): "базар: вручную",
}


def option_label(key: str, value: str) -> str:
    if key == "target":
        return f"до {value}"
    return _OPTION_LABELS.get((key, value), f"{key}={value}")


def rule_error(error: RuleError) -> str:
    """A bad option, in Russian: which one, and what may be chosen."""
    if error.key in {"players", "teams"}:
        text = "Для этих правил не подходит столько игроков"
    elif error.key == "preset":
        text = f"Не знаю набор правил «{error.value}»"
    elif error.value:
        text = f"Не подходит опция {error.key}={error.value}"
    else:
        text = f"Не понимаю опцию {error.key}"
    return f"{text}. Можно: {error.valid}" if error.valid else f"{text}."


def tile_names(rules: RuleSet, tiles: Sequence[int]) -> str:
    return ", ".join(rules.tiles.name(t) for t in tiles) or "—"


def move_label(move: Move, rules: RuleSet) -> str:
    if isinstance(move, Draw):
        return "🎒 Взять из базара"
    if isinstance(move, Pass):
        return "Пас"
    if isinstance(move, PlayDoubles):
        return f"Два дубля: {tile_names(rules, move.tiles)}"
    return rules.tiles.name(move.tile)


def describe(event: Event, rules: RuleSet, names: Sequence[str]) -> str | None:
    """One line about a public event for the group, or None for the silent ones."""
    if isinstance(event, TilePlayed):
        where = f" {ARM_NAMES.get(event.end, '')}" if event.end in ARM_NAMES else ""
        return f"{names[event.seat]}: {rules.tiles.name(event.tile)}{where}"
    if isinstance(event, DoublesPlayed):
        return f"{names[event.seat]}: два дубля {tile_names(rules, event.tiles)}"
    if isinstance(event, TilesDrawn):
        return f"{names[event.seat]} берёт из базара: {event.number}"
    if isinstance(event, Knocked):
        return f"{names[event.seat]} стучит"
    if isinstance(event, Passed):
        return f"{names[event.seat]}: пас"
    if isinstance(event, RoundStarted) and event.redeals:
        return f"Пересдача ×{len(event.redeals)}: у кого-то было много дублей или одной масти"
    return None


def lobby(rules: RuleSet, players: Sequence[str], waiting: Sequence[str]) -> str:
    """The lobby message: rules in one line, who sits, who still has to open the bot."""
    lines = [
        "🁫 Собираем стол",
        f"Правила: {described(rules)}",
        "Игроки: " + (", ".join(players) if players else "пока никого"),
    ]
    if waiting:
        lines.append("Откройте личный чат с ботом кнопкой «Сесть за стол»: " + ", ".join(waiting))
    lines.append("Нажмите «Сесть за стол», чтобы играть.")
    return "\n".join(lines)


def scores_line(state: GameState, names: Sequence[str]) -> str:
    """`Маша 12 (+5) · Серёжа 0`, per side (partners together)."""
    rules, tally = state.rules, state.tally
    parts = []
    for side in range(rules.sides):
        who = " и ".join(names[s] for s in range(rules.players) if rules.side_of(s) == side)
        remembered = f" (+{tally.remembered[side]})" if tally.remembered[side] else ""
        parts.append(f"{who} {tally.scores[side]}{remembered}")
    carry = f" · 🥚 {tally.carry}" if tally.carry else ""
    return " · ".join(parts) + carry


def table_caption(state: GameState, names: Sequence[str], events: Sequence[Event]) -> str:
    """The table picture's caption: score, bazaar, the last moves, whose turn."""
    lines = [f"Раунд {state.round_no} · базар: {len(state.bazaar)}", scores_line(state, names)]
    lines += [line for e in events if (line := describe(e, state.rules, names))][-4:]
    if state.phase is Phase.PLAYING:
        lines.append(f"Ходит: {names[state.to_move]}")
    return "\n".join(lines)


def hand(state: GameState, seat: int, drawn: Sequence[int]) -> str:
    """The private hand message's text."""
    rules = state.rules
    lines = [f"Ваши кости · раунд {state.round_no}"]
    if drawn:
        lines.append(f"Из базара пришли: {tile_names(rules, drawn)}")
    if state.phase is not Phase.PLAYING or state.to_move != seat:
        lines.append("Ждите своего хода — стол в группе.")
    elif state.lead_tile is not None:
        lines.append(f"Ваш ход: заходите с {rules.tiles.name(state.lead_tile)}.")
    else:
        ends = " и ".join(str(v) for v in state.ends) if state.ends else "стол пуст"
        lines.append(f"Ваш ход! Концы: {ends}. ✅ — кости, которые подходят.")
    return "\n".join(lines)


def round_result(ended: RoundEnded, rules: RuleSet, names: Sequence[str]) -> str:
    """Every hand revealed and the score sheet: previous / round / total, "+N" remembered."""
    if ended.eggs:
        head = f"Раунд {ended.round_no}: рыба, яйца! 🥚 {ended.carry_after} переходят дальше."
    elif ended.reason == "fish":
        head = f"Раунд {ended.round_no}: рыба 🐟, рыбак — {names[ended.seat]}."
    else:
        head = f"Раунд {ended.round_no}: {names[ended.seat]} вышел(а)."
    lines = [head]
    for r in ended.results:
        hand_text = tile_names(rules, r.hand)
        lines.append(f"{names[r.seat]}: {hand_text} = {r.hand_value}")
    lines.append("Счёт (было → раунд → стало):")
    seen: set[int] = set()
    for r in ended.results:
        if r.side in seen:
            continue
        seen.add(r.side)
        who = " и ".join(names[x.seat] for x in ended.results if x.side == r.side)
        remembered = f" (+{r.remembered_after})" if r.remembered_after else ""
        opened = " 🔓" if r.opened and rules.low_wins else ""
        carry = " 🥚" if r.took_carry else ""
        lines.append(
            f"{who}: {r.score_before} → {r.round_points:+d} → {r.score_after}"
            f"{remembered}{opened}{carry}"
        )
    return "\n".join(lines)


def game_end(ended: GameEnded, names: Sequence[str]) -> str:
    if ended.reason == "timeout" and ended.leaver is not None:
        head = f"Игра окончена: {names[ended.leaver]} покинул(а) стол."
    elif ended.reason == "bald_goat":
        head = "Игра окончена: лысый козёл!"
    else:
        head = "Игра окончена!"
    lines = [head]
    for place in ended.places:
        goat = " 🐐 козёл" if place.goat else ""
        lines.append(
            f"{place.place}. {names[place.seat]} — {place.score}{goat}, "
            f"рейтинг +{place.rating_points}"
        )
    return "\n".join(lines)


def score(state: GameState, names: Sequence[str]) -> str:
    """/score: the running (or last) game's sheet."""
    finished = state.last_round.round_no if state.last_round else 0
    lines = [f"Счёт после раунда {finished}:"]
    lines.append(scores_line(state, names))
    if state.outcome is not None:
        lines.append(game_end(state.outcome, names))
    return "\n".join(lines)


def rating(rows: Sequence[RatingRow]) -> str:
    lines = ["Рейтинг чата (игры · победы · козлы · очки):"]
    for n, row in enumerate(rows[:10], start=1):
        lines.append(
            f"{n}. {row.name} — {row.games} · {row.wins} · {row.goats} · {row.rating_points}"
        )
    return "\n".join(lines)


def robot_name(level: str, number: int) -> str:
    return f"🤖 {ROBOT_LEVELS[level].capitalize()} {number}"


def waiting_for(names: Sequence[str]) -> str:
    return "Сначала откройте личный чат с ботом (кнопка «Сесть за стол»): " + ", ".join(names)


def unreachable(name: str, url: str) -> str:
    return f"{name}, я не могу написать вам в личный чат. Откройте его: {url}"


def described(rules: RuleSet) -> str:
    """`goat — Козёл: …` while the preset is untouched, else the options that changed."""
    summary = rules.summary()
    preset = PRESETS.get(rules.preset)
    if preset is None or summary != rules.preset:
        return summary
    return f"{summary} — {preset.description_ru}"


def rules_text(rules: RuleSet) -> str:
    description = f"\n{described(rules)}"
    size = f"Игроков: {rules.players}, по {rules.hand} костей."
    return f"Правила:{description}\n{size}"
