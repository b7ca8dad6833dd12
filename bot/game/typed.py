"""What a person types for the rules (`/newgame sea_goat target=125`, a lobby's button, a
chat's saved defaults): read against the presets, and held to what the chosen game plays
(`Format.fixed`, its own options)."""

from __future__ import annotations

from typing import Any

from bot.game.formats import Format, game_of
from bot.game.kinds import RuleError
from bot.game.rules import KEYS, OWN_OPTIONS, PRESETS, RuleSet
from bot.game.values import coerce, show_value

__all__ = ["ALIASES", "PRESET_ALIASES", "parse_rules", "played", "saved_rules"]

PRESET_ALIASES = {"tournament": "bykovo"}
"""Other names typed for a preset."""
ALIASES = {"set": "max_pip"}
"""Other names typed for an option."""


def played(fmt: Format) -> tuple[str, ...]:
    """The options a person may set for `fmt`'s game: the shared ones its rules leave open
    and its own."""
    return tuple(
        name
        for name in KEYS
        if name != "scoring"
        and OWN_OPTIONS.get(name, fmt) is fmt
        and len(fmt.fixed.get(name, _OPEN)) > 1
    )


_OPEN = (None, None)


def _unplayed(rules: RuleSet) -> list[str]:
    """The shared options `rules` hold at a value their game does not play."""
    return [key for key, only in rules.format.fixed.items() if getattr(rules, key) not in only]


def _parsed(text: str, players: int | None) -> tuple[RuleSet, dict[str, str]]:
    """The rules `text` names, and the options as typed."""
    words = text.replace(",", " ").split()
    preset = PRESETS["goat"]
    if words and "=" not in words[0]:
        name = words.pop(0).lower()
        name = PRESET_ALIASES.get(name, name)
        if name not in PRESETS:
            valid = ", ".join(PRESETS)
            raise RuleError(
                f"unknown preset {name!r}: choose one of {valid}", "preset", name, valid
            )
        preset = PRESETS[name]
    pairs = [word.partition("=") for word in words]
    keys = [ALIASES.get(key.lower(), key.lower()) for key, _, _ in pairs]
    typed = {key: raw for key, (_, eq, raw) in zip(keys, pairs, strict=True) if eq}
    fmt = game_of(typed.get("scoring", preset.rules.scoring).lower())
    for key, (word, eq, raw) in zip(keys, pairs, strict=True):
        if not eq or key not in KEYS:
            raise RuleError(
                f"unknown option {word!r}: {fmt.id} plays {', '.join(played(fmt))}",
                key,
                raw,
                ", ".join(played(fmt)),
                game=fmt.id,
            )
        if OWN_OPTIONS.get(key, fmt) is not fmt:
            raise RuleError(
                f"{key} does not apply to {fmt.id} scoring",
                key,
                raw,
                ", ".join(played(fmt)),
                game=fmt.id,
            )
    changes: dict[str, Any] = {key: coerce(key, raw, KEYS[key]) for key, raw in typed.items()}
    if players is not None:
        changes["players"] = players
    return preset.rules.changed(changes), typed


def parse_rules(text: str, players: int | None = None) -> RuleSet:
    """Rules from `/newgame` text: an optional preset name, then `key=value` pairs. An
    option at a value the game does not play (`Format.fixed`) is refused."""
    rules, typed = _parsed(text, players)
    for key in _unplayed(rules):
        value = show_value(getattr(rules, key))
        only = ", ".join(map(show_value, rules.format.fixed[key]))
        raise RuleError(
            f"{key}={value}: {rules.scoring} plays {key}={only}",
            key,
            typed.get(key, value),
            only,
            game=rules.scoring,
        )
    return rules


def saved_rules(text: str) -> tuple[RuleSet, tuple[str, ...]]:
    """A chat's saved defaults (`/settings`), without the options their game does not play
    (saved before it said so); those come back as `key=value`."""
    rules, _ = _parsed(text, None)
    dropped = _unplayed(rules)
    words = tuple(f"{key}={show_value(getattr(rules, key))}" for key in dropped)
    restored: dict[str, Any] = {key: rules.format.fixed[key][0] for key in dropped}
    return rules.changed(restored), words
