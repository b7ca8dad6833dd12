"""The games in words: a preset's name, its options, how each game is won, the chosen rules
(/rules, the lobby, /settings) and the list of every game (/help, /rules)."""

from __future__ import annotations

import difflib
from dataclasses import fields
from enum import Enum, StrEnum
from functools import lru_cache

from bot.game.rules import PRESETS, DrawMode, RuleSet
from bot.game.typed import PRESET_ALIASES
from bot.ui.i18n import Texts


class Seen(StrEnum):
    """Which rules /rules shows."""

    CHAT = "chat"  # the chat's defaults for /newgame: no game here
    LOBBY = "lobby"  # a table being gathered
    GAME = "game"  # a game under way: its players and tiles too


def option_value(value: object) -> str:
    """An option's value as it is typed: `yes`/`no`, an enum's name, a number."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def option_label(t: Texts, key: str, value: str, rules: RuleSet | None = None) -> str:
    """An option's words («до 51», «рыба на всех»): a value may read differently in one
    game (`option-target-0-bykovo`), a number in one kind of sheet (`option-target-places`,
    «лимит 50»); an option without words stays `key=value`."""
    scoped = [f"option-{key}-{value}-{rules.scoring}"] if rules is not None else []
    for known in (*scoped, f"option-{key}-{value}"):
        if t.has(known):
            return t(known)
    sheet = [f"option-{key}-{rules.format.sheet}"] if rules is not None else []
    for known in (*sheet, f"option-{key}"):
        if t.has(known):
            return t(known, value=value)
    return f"{key}={value}"


TIMEOUTS = ("30", "60", "120", "0")
"""The turn clocks a lobby offers (seconds; 0: none)."""


def option_choices(rules: RuleSet) -> list[tuple[str, tuple[str, ...]]]:
    """The options a lobby offers for these rules (Telegram's buttons, the table app's):
    only those that apply to them, each with its values as typed."""
    fmt = rules.format
    choices = [(fmt.length.value, tuple(map(str, fmt.lengths))), *fmt.choices]
    if rules.draw is not DrawMode.NONE:
        choices.append(("auto_draw", ("yes", "no")))
    choices.append(("turn_timeout", TIMEOUTS))
    return choices


def preset_name(t: Texts, preset: str) -> str:
    """A preset's human name («Козёл»); an unknown one as it was typed."""
    key = f"preset-name-{preset}"
    return t(key) if t.has(key) else preset


def nearest_preset(t: Texts, typed: str) -> str | None:
    """The preset a typo most likely meant («telefon»: telephone), near its name, another
    name of it or its human name in the reader's language; None if none is near."""
    names = {name: name for name in PRESETS} | PRESET_ALIASES
    names |= {preset_name(t, name).lower(): name for name in PRESETS}
    near = difflib.get_close_matches(typed.lower(), names, n=1)
    return names[near[0]] if near else None


OPTION_NAMES = frozenset(RuleSet().options()) - {"preset", "edition"}
"""The options /newgame takes as `key=value`."""


def how_won(t: Texts, rules: RuleSet) -> str:
    """How the game is won, with its target, limit or length («кто наберёт 101 — козёл»)."""
    own = {f.name: getattr(rules.own, f.name) for f in fields(rules.own)}
    shown = {
        name: value if type(value) is int else option_value(value) for name, value in own.items()
    }
    return t(f"won-{rules.scoring}", goal=rules.goal, **shown)


@lru_cache(maxsize=256)
def game_won(t: Texts, rules: RuleSet) -> str:
    """The game's name and how it is won, in one line (the app's every view has it)."""
    return t("game-won", name=preset_name(t, rules.preset), won=how_won(t, rules))


def described(t: Texts, rules: RuleSet) -> str:
    """The preset's description while it is untouched, else its name and the options that
    changed, in words («Козёл · до 51 · рыба на всех»); the players are counted elsewhere."""
    preset, *changes = rules.summary().split()
    pairs = [change.partition("=") for change in changes]
    words = [option_label(t, key, value, rules) for key, _, value in pairs if key != "players"]
    if not words and preset in PRESETS:
        return t(f"preset-{preset}")
    return " · ".join([preset_name(t, preset), *words])


def every_game(t: Texts) -> list[str]:
    """Every preset: its name, the word to type after /newgame and how it is won."""
    return [
        t("game-line", name=preset_name(t, name), preset=name, won=how_won(t, preset.rules))
        for name, preset in PRESETS.items()
    ]


def help_group(t: Texts, minutes: int) -> str:
    """/help in a group: the commands, then every game."""
    return "\n".join([t("help-group", minutes=minutes), "", t("games-title"), *every_game(t)])


def rules_text(t: Texts, rules: RuleSet, seen: Seen) -> str:
    """/rules: the rules in words and how the game is won (the players and tiles of a game
    under way), how the preset plays; with no game here, every game too."""
    head = [t(f"rules-for-{seen}", rules=described(t, rules))]
    if seen is Seen.GAME:
        head.append(t("rules-seats", players=rules.players, hand=rules.hand))
    head.append(t("rules-won", won=how_won(t, rules)))
    parts = ["\n".join(head)]
    if t.has(how := f"rules-{rules.preset}"):
        parts.append(t(how))
    if seen is Seen.CHAT:
        parts.append("\n".join([t("games-title"), *every_game(t)]))
    return "\n\n".join(parts)


def presets_text(t: Texts) -> str:
    """Every preset in one line with its description (the menus' list of presets)."""
    return "\n".join([t("presets-pick"), *(f"• {t(f'preset-{name}')}" for name in PRESETS)])
