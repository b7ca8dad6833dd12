"""Message text as Telegram stores it: `parse_mode` parsers and TDLib's clean-up.

The three parsers are ports of TDLib's `parse_html`, `parse_markdown_v2` and `parse_markdown`
(td/telegram/MessageEntity.cpp): they work on UTF-8 bytes, so error messages carry the same
byte offsets as Telegram's, and they produce entities with UTF-16 offsets like the Bot API.
`finish_text` then does what `fix_formatted_text` does to every text and caption: control
characters become spaces, `\\r` disappears, whitespace-only entities are dropped and the text
is trimmed.
"""

from __future__ import annotations

from bot.playground.api.formatting.entities import (
    EmptyTextError,
    Entity,
    FormatError,
    check_entities,
    command_entities,
    finish_text,
    utf16_len,
)
from bot.playground.api.formatting.html import parse_html
from bot.playground.api.formatting.links import check_link, checked_link
from bot.playground.api.formatting.markdown import parse_markdown, parse_markdown_v2

__all__ = [
    "EmptyTextError",
    "Entity",
    "FormatError",
    "check_entities",
    "check_link",
    "checked_link",
    "command_entities",
    "finish_text",
    "parse",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
    "utf16_len",
]


def parse(text: str, parse_mode: str | None) -> tuple[str, list[Entity]]:
    """Apply `parse_mode` (case-insensitive); `ValueError` for an unknown mode."""
    mode = (parse_mode or "").lower()
    if not mode:
        return text, []
    if mode == "html":
        return parse_html(text)
    if mode == "markdownv2":
        return parse_markdown_v2(text)
    if mode == "markdown":
        return parse_markdown(text)
    raise ValueError(parse_mode)
