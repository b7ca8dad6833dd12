"""Telegram's HTML parse mode: a port of TDLib's `parse_html` (td/telegram/MessageEntity.cpp)."""

from __future__ import annotations

from bot.playground.api.formatting.entities import (
    Entity,
    FormatError,
    is_alnum,
    is_space,
    sorted_entities,
    utf16_units,
)
from bot.playground.api.formatting.links import checked_link

_HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)


def _decode_html_entity(text: bytes, pos: int) -> tuple[int, int]:
    """(code point, position after the entity), or (0, pos) when it is no entity."""
    size = len(text)

    def at(i: int) -> int:
        return text[i] if i < size else 0

    end = pos + 1
    result = 0
    if at(pos + 1) == 0x23:  # '#'
        end += 1
        if at(pos + 2) == 0x78:  # 'x'
            end += 1
            while chr(at(end)) in "0123456789abcdefABCDEF" and at(end):
                result = result * 16 + int(chr(at(end)), 16)
                end += 1
                if result >= 0x10FFFF:
                    return 0, pos
        else:
            while 0x30 <= at(end) <= 0x39:
                result = result * 10 + at(end) - 0x30
                end += 1
                if result >= 0x10FFFF:
                    return 0, pos
        if result == 0 or result >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while 0x41 <= at(end) <= 0x5A or 0x61 <= at(end) <= 0x7A:
            end += 1
        name = text[pos + 1 : end]
        named = {b"lt": 0x3C, b"gt": 0x3E, b"amp": 0x26, b"quot": 0x22}
        if name not in named:
            return 0, pos
        result = named[name]
    if at(end) == 0x3B:  # ';'
        end += 1
    return result, end


def parse_html(text: str) -> tuple[str, list[Entity]]:
    """Telegram's HTML parse mode (TDLib `parse_html`)."""
    data = text.encode("utf-8")
    size = len(data)

    def at(i: int) -> int:
        return data[i] if i < size else 0

    out = bytearray()
    entities: list[Entity] = []
    u16 = 0
    nested: list[tuple[str, str, int, int]] = []  # tag, argument, utf-16 offset, output position
    i = 0
    while i < size:
        c = data[i]
        if c == 0x26:  # '&'
            code, end = _decode_html_entity(data, i)
            if code:
                if 0xD800 <= code <= 0xDFFF:
                    raise FormatError(
                        "Text contains invalid Unicode characters after decoding HTML entities, "
                        "check for unmatched surrogate code units"
                    )
                u16 += 2 if code > 0xFFFF else 1
                out += chr(code).encode("utf-8")
                i = end
                continue
        if c != 0x3C:  # '<'
            u16 += utf16_units(c)
            out.append(c)
            i += 1
            continue

        begin = i
        i += 1
        if at(i) != 0x2F:  # a start tag
            while not is_space(at(i)) and at(i) != 0x3E:
                i += 1
            if at(i) == 0:
                raise FormatError(f"Unclosed start tag at byte offset {begin}")
            tag = data[begin + 1 : i].decode("utf-8", "replace").lower()
            if tag not in _HTML_TAGS:
                raise FormatError(f'Unsupported start tag "{tag}" at byte offset {begin}')
            argument = ""
            while at(i) != 0x3E:
                while at(i) != 0 and is_space(at(i)):
                    i += 1
                if at(i) == 0x3E:
                    break
                name_begin = i
                while not is_space(at(i)) and at(i) not in (0x3D, 0x3E):
                    i += 1
                name = data[name_begin:i].decode("utf-8", "replace")
                if not name:
                    raise FormatError(
                        f'Empty attribute name in the tag "{tag}" at byte offset {begin}'
                    )
                while at(i) != 0 and is_space(at(i)):
                    i += 1
                if at(i) != 0x3D:
                    if tag == "blockquote" and name == "expandable":
                        argument = "expandable"
                        continue
                    raise FormatError(
                        "Expected equal sign in declaration of an attribute of the tag "
                        f'"{tag}" at byte offset {begin}'
                    )
                i += 1
                while at(i) != 0 and is_space(at(i)):
                    i += 1
                if at(i) == 0:
                    raise FormatError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                if at(i) not in (0x27, 0x22):
                    token_begin = i
                    while is_alnum(at(i)) or at(i) in (0x2E, 0x2D):
                        i += 1
                    value = data[token_begin:i].decode("ascii").lower()
                    if not is_space(at(i)) and at(i) != 0x3E:
                        raise FormatError(
                            f"Unexpected end of name token at byte offset {token_begin}"
                        )
                else:
                    quote = at(i)
                    i += 1
                    raw = bytearray()
                    while at(i) != quote and at(i) != 0:
                        if at(i) == 0x26:
                            code, end = _decode_html_entity(data, i)
                            if code:
                                raw += chr(code).encode("utf-8", "surrogatepass")
                                i = end
                                continue
                        raw.append(data[i])
                        i += 1
                    if at(i) == quote:
                        i += 1
                    value = raw.decode("utf-8", "replace")
                if at(i) == 0:
                    raise FormatError(f"Unclosed start tag at byte offset {begin}")
                if tag == "a" and name == "href":
                    argument = value
                elif tag == "code" and name == "class" and value.startswith("language-"):
                    argument = value[9:]
                elif tag == "span" and name == "class" and value.startswith("tg-"):
                    argument = value[3:]
                elif tag == "tg-emoji" and name == "emoji-id":
                    argument = value
            if tag == "span" and argument != "spoiler":
                raise FormatError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
            nested.append((tag, argument, u16, len(out)))
            i += 1
            continue

        # an end tag
        if not nested:
            raise FormatError(f"Unexpected end tag at byte offset {begin}")
        while not is_space(at(i)) and at(i) != 0x3E:
            i += 1
        end_tag = data[begin + 2 : i].decode("utf-8", "replace").lower()
        while is_space(at(i)) and at(i) != 0:
            i += 1
        if at(i) != 0x3E:
            raise FormatError(f"Unclosed end tag at byte offset {begin}")
        tag, argument, offset, out_pos = nested[-1]
        if end_tag and end_tag != tag:
            raise FormatError(
                f'Unmatched end tag at byte offset {begin}, expected "</{tag}>", '
                f'found "</{end_tag}>"'
            )
        if u16 > offset:
            _close_html_entity(entities, tag, argument, offset, u16 - offset, bytes(out[out_pos:]))
        nested.pop()
        i += 1
    if nested:
        raise FormatError(f'Can\'t find end tag corresponding to start tag "{nested[-1][0]}"')
    for entity in entities:
        if entity["type"] == "code":
            entity.pop("language", None)
    return out.decode("utf-8"), sorted_entities(entities)


def _close_html_entity(
    entities: list[Entity], tag: str, argument: str, offset: int, length: int, inner: bytes
) -> None:
    simple = {
        "i": "italic",
        "em": "italic",
        "b": "bold",
        "strong": "bold",
        "s": "strikethrough",
        "strike": "strikethrough",
        "del": "strikethrough",
        "u": "underline",
        "ins": "underline",
        "tg-spoiler": "spoiler",
        "span": "spoiler",
    }
    entity: Entity = {"offset": offset, "length": length}
    last = entities[-1] if entities else None
    same_span = last is not None and last["offset"] == offset and last["length"] == length
    if tag in simple:
        entity["type"] = simple[tag]
    elif tag == "tg-emoji":
        if not argument.isdigit() or int(argument) == 0 or int(argument) >= 2**63:
            raise FormatError("Invalid custom emoji identifier specified")
        entity.update(type="custom_emoji", custom_emoji_id=argument)
    elif tag == "a":
        url = checked_link(argument or inner.decode("utf-8", "replace"))
        if url is None:
            return
        entity.update(type="text_link", url=url)
    elif tag == "pre":
        if last is not None and same_span and last["type"] == "code" and last.get("language"):
            last["type"] = "pre"
            return
        entity["type"] = "pre"
    elif tag == "code":
        if last is not None and same_span and last["type"] == "pre" and argument:
            last["language"] = argument
            return
        entity["type"] = "code"
        if argument:
            entity["language"] = argument
    else:  # blockquote
        entity["type"] = "expandable_blockquote" if argument else "blockquote"
    entities.append(entity)
