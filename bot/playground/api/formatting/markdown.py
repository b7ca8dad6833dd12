"""Telegram's MarkdownV2 and legacy Markdown parse modes: ports of TDLib's
`parse_markdown_v2` and `parse_markdown` (td/telegram/MessageEntity.cpp)."""

from __future__ import annotations

import re

from bot.playground.api.formatting.entities import (
    Entity,
    FormatError,
    is_space,
    sorted_entities,
    utf16_units,
)
from bot.playground.api.formatting.links import checked_link

_MD2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "pre_code": "PreCode",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
    "blockquote": "BlockQuote",
}


def _reserved(char: int) -> FormatError:
    return FormatError(
        f"Character '{chr(char)}' is reserved and must be escaped with the preceding '\\'"
    )


def parse_markdown_v2(text: str) -> tuple[str, list[Entity]]:
    """Telegram's MarkdownV2 parse mode (TDLib `parse_markdown_v2`)."""
    data = text.encode("utf-8")
    size = len(data)

    def at(i: int) -> int:
        return data[i] if i < size else 0

    out = bytearray()
    entities: list[Entity] = []
    u16 = 0
    # kind, argument, utf-16 offset, byte offset in the source, output position
    nested: list[tuple[str, str, int, int, int]] = []
    have_blockquote = False
    i = 0
    while i < size:
        c = data[i]
        if c == 0x5C and 0 < at(i + 1) <= 126:  # '\'
            u16 += 1
            out.append(data[i + 1])
            i += 2
            continue
        reserved = b"_*[]()~`>#+-=|{}.!\n"
        if nested and nested[-1][0] in ("code", "pre", "pre_code"):
            reserved = b"`"
        if c not in reserved:
            u16 += utf16_units(c)
            out.append(c)
            i += 1
            continue

        is_end = False
        if nested:
            kind = nested[-1][0]
            if have_blockquote and c == 0x0A and (i + 1 == size or data[i + 1] != 0x3E):
                is_end = True
            elif kind == "bold":
                is_end = c == 0x2A
            elif kind == "italic":
                is_end = c == 0x5F and at(i + 1) != 0x5F
            elif kind == "code":
                is_end = c == 0x60
            elif kind in ("pre", "pre_code"):
                is_end = c == 0x60 and at(i + 1) == 0x60 and at(i + 2) == 0x60
            elif kind in ("text_link", "custom_emoji"):
                is_end = c == 0x5D
            elif kind == "underline":
                is_end = c == 0x5F and at(i + 1) == 0x5F
            elif kind == "strikethrough":
                is_end = c == 0x7E
            elif kind == "spoiler":
                is_end = c == 0x7C and at(i + 1) == 0x7C

        if not is_end:
            kind = ""
            argument = ""
            byte_offset = i
            if c == 0x5F:
                if at(i + 1) == 0x5F:
                    kind = "underline"
                    i += 1
                else:
                    kind = "italic"
            elif c == 0x2A:
                kind = "bold"
            elif c == 0x7E:
                kind = "strikethrough"
            elif c == 0x7C:
                if at(i + 1) != 0x7C:
                    raise _reserved(c)
                i += 1
                kind = "spoiler"
            elif c == 0x5B:
                kind = "text_link"
            elif c == 0x60:
                if at(i + 1) == 0x60 and at(i + 2) == 0x60:
                    i += 3
                    kind = "pre"
                    language_end = i
                    while not is_space(at(language_end)) and at(language_end) != 0x60:
                        language_end += 1
                    if i != language_end and language_end < size and at(language_end) != 0x60:
                        kind = "pre_code"
                        argument = data[i:language_end].decode("utf-8", "replace")
                        i = language_end
                    if at(i) in (0x0A, 0x0D):
                        if at(i + 1) in (0x0A, 0x0D) and at(i) != at(i + 1):
                            i += 2
                        else:
                            i += 1
                    i -= 1
                else:
                    kind = "code"
            elif c == 0x21:
                if at(i + 1) != 0x5B:
                    raise _reserved(c)
                i += 1
                kind = "custom_emoji"
            elif c == 0x0A:
                u16 += 1
                out.append(0x0A)
                if i + 1 < size and data[i + 1] == 0x3E:
                    i += 1
                    if not have_blockquote:
                        kind = "blockquote"
                        have_blockquote = True
            elif c == 0x3E:
                if i != 0:
                    raise _reserved(c)
                kind = "blockquote"
                have_blockquote = True
            else:
                raise _reserved(c)
            if kind:
                nested.append((kind, argument, u16, byte_offset, len(out)))
            i += 1
            continue

        # the end of an entity
        kind, argument, offset, byte_offset, out_pos = nested[-1]
        if c == 0x0A and kind != "blockquote":
            raise FormatError(
                f"Can't find end of {_MD2_NAMES[kind]} entity at byte offset {byte_offset}"
            )
        skip = u16 == offset
        if kind in ("underline", "spoiler"):
            i += 1
        elif kind in ("pre", "pre_code"):
            i += 2
        elif kind == "text_link":
            if at(i + 1) != 0x28:  # '('
                url = out[out_pos:].decode("utf-8", "replace")
            else:
                i += 2
                url_begin = i
                raw = bytearray()
                while i < size and data[i] != 0x29:
                    if data[i] == 0x5C and 0 < at(i + 1) <= 126:
                        raw.append(data[i + 1])
                        i += 2
                        continue
                    raw.append(data[i])
                    i += 1
                if at(i) != 0x29:
                    raise FormatError(f"Can't find end of a URL at byte offset {url_begin}")
                url = raw.decode("utf-8", "replace")
            checked = checked_link(url)
            if checked is None:
                skip = True
            else:
                argument = checked
        elif kind == "custom_emoji":
            if at(i + 1) != 0x28:
                raise FormatError("Custom emoji entity must contain a tg://emoji URL")
            i += 2
            url_begin = i
            raw = bytearray()
            while i < size and data[i] != 0x29:
                if data[i] == 0x5C and 0 < at(i + 1) <= 126:
                    raw.append(data[i + 1])
                    i += 2
                    continue
                raw.append(data[i])
                i += 1
            if at(i) != 0x29:
                raise FormatError(
                    f"Can't find end of a custom emoji URL at byte offset {url_begin}"
                )
            match = re.fullmatch(r"tg://emoji\?id=(\d+)", raw.decode("utf-8", "replace"))
            if match is None:
                raise FormatError("Custom emoji URL must have an emoji identifier")
            argument = match.group(1)
        elif kind == "blockquote":
            have_blockquote = False
            out.append(data[i])
            u16 += 1
        if not skip:
            entities.append(_md2_entity(kind, argument, offset, u16 - offset))
        nested.pop()
        i += 1
    if have_blockquote and nested and nested[-1][0] == "blockquote":
        offset = nested[-1][2]
        if u16 != offset:
            entities.append(_md2_entity("blockquote", "", offset, u16 - offset))
        nested.pop()
    if nested:
        kind, _, _, byte_offset, _ = nested[-1]
        raise FormatError(
            f"Can't find end of {_MD2_NAMES[kind]} entity at byte offset {byte_offset}"
        )
    return out.decode("utf-8"), sorted_entities(entities)


def _md2_entity(kind: str, argument: str, offset: int, length: int) -> Entity:
    entity: Entity = {"offset": offset, "length": length}
    if kind == "pre_code":
        entity.update(type="pre", language=argument)
    elif kind == "text_link":
        entity.update(type="text_link", url=argument)
    elif kind == "custom_emoji":
        entity.update(type="custom_emoji", custom_emoji_id=argument)
    else:
        entity["type"] = kind
    return entity


def parse_markdown(text: str) -> tuple[str, list[Entity]]:
    """Telegram's legacy Markdown parse mode (TDLib `parse_markdown`)."""
    data = text.encode("utf-8")
    size = len(data)

    def at(i: int) -> int:
        return data[i] if i < size else 0

    out = bytearray()
    entities: list[Entity] = []
    u16 = 0
    i = 0
    while i < size:
        c = data[i]
        if c == 0x5C and at(i + 1) in (0x5F, 0x2A, 0x60, 0x5B):
            out.append(data[i + 1])
            u16 += 1
            i += 2
            continue
        if c not in (0x5F, 0x2A, 0x60, 0x5B):
            u16 += utf16_units(c)
            out.append(c)
            i += 1
            continue
        begin = i
        end_char = 0x5D if c == 0x5B else c
        is_pre = False
        language = ""
        i += 1
        if c == 0x60 and at(i) == 0x60 and at(i + 1) == 0x60:
            i += 2
            is_pre = True
            language_end = i
            while not is_space(at(language_end)) and at(language_end) != 0x60:
                language_end += 1
            if i != language_end and language_end < size and at(language_end) != 0x60:
                language = data[i:language_end].decode("utf-8", "replace")
                i = language_end
            if at(i) in (0x0A, 0x0D):
                if at(i + 1) in (0x0A, 0x0D) and at(i) != at(i + 1):
                    i += 2
                else:
                    i += 1
        offset = u16
        while i < size and (
            data[i] != end_char or (is_pre and not (at(i + 1) == 0x60 and at(i + 2) == 0x60))
        ):
            u16 += utf16_units(data[i])
            out.append(data[i])
            i += 1
        if i == size:
            raise FormatError(f"Can't find end of the entity starting at byte offset {begin}")
        if offset != u16:
            entity: Entity = {"offset": offset, "length": u16 - offset}
            if c == 0x5F:
                entity["type"] = "italic"
            elif c == 0x2A:
                entity["type"] = "bold"
            elif c == 0x5B:
                if at(i + 1) != 0x28:
                    url = data[begin + 1 : i].decode("utf-8", "replace")
                else:
                    i += 2
                    url_bytes = bytearray()
                    while i < size and data[i] != 0x29:
                        url_bytes.append(data[i])
                        i += 1
                    url = url_bytes.decode("utf-8", "replace")
                checked = checked_link(url)
                entity.update(type="text_link", url=checked)
                if checked is None:
                    entity.clear()
            elif is_pre:
                entity["type"] = "pre"
                if language:
                    entity["language"] = language
            else:
                entity["type"] = "code"
            if entity:
                entities.append(entity)
        if is_pre:
            i += 2
        i += 1
    return out.decode("utf-8"), sorted_entities(entities)
