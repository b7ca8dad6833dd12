"""Entities as the Bot API carries them, and what Telegram does to every text.

`check_entities` validates explicit `entities`; `finish_text` is TDLib's `fix_formatted_text`
(control characters become spaces, `\\r` disappears, whitespace-only entities are dropped,
the text is trimmed); `command_entities` marks a leading command. The byte helpers are the
parsers' (they work on UTF-8 bytes and count UTF-16 units).
"""

from __future__ import annotations

import re
from typing import Any

from bot.playground.api.formatting.links import check_link

Entity = dict[str, Any]

_SPACES = frozenset(b" \t\r\n\0\v")
_ENTITY_TYPES = frozenset(
    {
        "mention",
        "hashtag",
        "cashtag",
        "bot_command",
        "url",
        "email",
        "phone_number",
        "bold",
        "italic",
        "underline",
        "strikethrough",
        "spoiler",
        "blockquote",
        "expandable_blockquote",
        "code",
        "pre",
        "text_link",
        "text_mention",
        "custom_emoji",
    }
)
# Entities whose meaning is not in their visible characters: kept even on whitespace.
_HIDDEN_DATA = frozenset({"text_link", "text_mention", "custom_emoji"})


class FormatError(Exception):
    """A text Telegram refuses to parse; the message is TDLib's own."""


class EmptyTextError(Exception):
    """The text is empty once parsed and trimmed."""


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def is_space(c: int) -> bool:
    return c in _SPACES


def is_alnum(c: int) -> bool:
    return 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A


def utf16_units(c: int) -> int:
    """How many UTF-16 units start at the UTF-8 byte `c` (0 for continuation bytes)."""
    if c & 0xC0 == 0x80:
        return 0
    return 2 if c >= 0xF0 else 1


def sorted_entities(entities: list[Entity]) -> list[Entity]:
    return sorted(entities, key=lambda e: (e["offset"], -e["length"]))


def check_entities(raw: Any, text: str) -> list[Entity]:
    """Explicit `entities`/`caption_entities`, validated like the Bot API does.

    Raises `ValueError` with the description after "Bad Request: ".
    """
    if not isinstance(raw, list):
        raise ValueError("can't parse entities JSON object")
    length = utf16_len(text)
    entities: list[Entity] = []
    for item in raw:
        if not isinstance(item, dict):
            raise ValueError("can't parse MessageEntity: expected an Object")
        kind = item.get("type")
        if kind not in _ENTITY_TYPES:
            raise ValueError("can't parse MessageEntity: Unsupported type specified")
        offset, size = item.get("offset"), item.get("length")
        if not isinstance(offset, int) or not isinstance(size, int):
            raise ValueError('can\'t parse MessageEntity: Field "offset" must be a valid Number')
        if offset < 0:
            raise ValueError(f"receive an entity with incorrect offset {offset}")
        if size < 0:
            raise ValueError(f"receive an entity with incorrect length {size}")
        if offset > length:
            raise ValueError(f"entity begins after the end of the text at UTF-16 offset {offset}")
        if offset + size > length:
            raise ValueError(
                f"entity beginning at UTF-16 offset {offset} ends after the end of the text "
                f"at UTF-16 offset {offset + size}"
            )
        entity: Entity = {"type": kind, "offset": offset, "length": size}
        if kind == "text_link":
            if "url" not in item:
                raise ValueError("can't parse MessageEntity: Can't find field \"url\"")
            try:
                entity["url"] = check_link(str(item["url"]))
            except ValueError as error:
                raise ValueError(f"entity URL '{item['url']}' is invalid: {error}") from None
        elif kind == "text_mention":
            if "user" not in item:
                raise ValueError("can't parse MessageEntity: Can't find field \"user\"")
            entity["user"] = item["user"]
        elif kind == "custom_emoji":
            if "custom_emoji_id" not in item:
                raise ValueError("can't parse MessageEntity: Can't find field \"custom_emoji_id\"")
            emoji = str(item["custom_emoji_id"])
            if not emoji.isdigit() or int(emoji) >= 2**63:
                raise ValueError(
                    'can\'t parse MessageEntity: Field "custom_emoji_id" must be a valid Number'
                )
            entity["custom_emoji_id"] = emoji
        elif kind == "pre" and item.get("language"):
            entity["language"] = str(item["language"])
        if size:
            entities.append(entity)
    return sorted_entities(entities)


def finish_text(text: str, entities: list[Entity]) -> tuple[str, list[Entity]]:
    """TDLib's `fix_formatted_text`: clean, drop blank entities, trim; `EmptyTextError` if nothing
    visible is left."""
    units = list(memoryview(text.encode("utf-16-le")).cast("H"))
    kept: list[int] = []
    new_pos = [0] * (len(units) + 1)
    for index, unit in enumerate(units):
        new_pos[index] = len(kept)
        if unit == 0x0D or 0x2028 <= unit <= 0x202E:
            continue
        kept.append(0x20 if unit < 0x20 and unit != 0x0A else unit)
    new_pos[len(units)] = len(kept)

    fixed: list[Entity] = []
    for entity in entities:
        start = new_pos[entity["offset"]]
        end = new_pos[min(entity["offset"] + entity["length"], len(units))]
        if entity["type"] not in _HIDDEN_DATA:
            while start < end and kept[start] in (0x20, 0x0A):
                start += 1
            if all(unit in (0x20, 0x0A) for unit in kept[start:end]):
                continue
        if end > start:
            fixed.append({**entity, "offset": start, "length": end - start})

    last = len(kept)
    while last > 0 and kept[last - 1] in (0x20, 0x0A):
        last -= 1
    if last == 0:
        raise EmptyTextError
    first = 0
    limit = min((e["offset"] for e in fixed), default=last)
    while first < limit and kept[first] in (0x20, 0x0A):
        first += 1
    result: list[Entity] = []
    for entity in fixed:
        start, end = entity["offset"], min(entity["offset"] + entity["length"], last)
        if end > start:
            result.append({**entity, "offset": start - first, "length": end - start})
    body = b"".join(unit.to_bytes(2, "little") for unit in kept[first:last])
    return body.decode("utf-16-le", "surrogatepass"), sorted_entities(result)


def command_entities(text: str) -> list[Entity]:
    """The `bot_command` entity Telegram attaches to a message starting with a command."""
    match = re.match(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_/<>])", text)
    if match is None:
        return []
    return [{"type": "bot_command", "offset": 0, "length": utf16_len(match.group(0))}]
