"""The command menus of group and private chats, in each language."""

from __future__ import annotations

from bot.ui.i18n import Texts

GROUP_COMMANDS = (
    "newgame",
    "score",
    "rating",
    "season",
    "stats",
    "history",
    "deal",
    "export",
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
    "deal": "command-deal-private",
    "language": "command-language",
    "help": "command-help",
}


def commands(t: Texts, private: bool) -> dict[str, str]:
    """The command menu of group or private chats: name → description."""
    if private:
        return {name: t(key) for name, key in PRIVATE_COMMANDS.items()}
    return {name: t(f"command-{name}") for name in GROUP_COMMANDS}
