"""Message text as Telegram stores it: `parse_mode` parsers and TDLib's clean-up.

The three parsers are ports of TDLib's `parse_html`, `parse_markdown_v2` and `parse_markdown`
(td/telegram/MessageEntity.cpp): they work on UTF-8 bytes, so error messages carry the same
byte offsets as Telegram's, and they produce entities with UTF-16 offsets like the Bot API.
`finish_text` then does what `fix_formatted_text` does to every text and caption: control
characters become spaces, `\\r` disappears, whitespace-only entities are dropped and the text
is trimmed.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

Entity = dict[str, Any]

_SPACES = frozenset(b" \t\r\n\0\v")
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
_HOST = re.compile(r"^[a-z0-9\-._~%!$&'*+,;=\u0080-\uffff]+$", re.IGNORECASE)
_TLD = re.compile(r"^(?:[a-z]{2,}|xn--[a-z0-9\-]+|[0-9]{1,3})$", re.IGNORECASE)


class FormatError(Exception):
    """A text Telegram refuses to parse; the message is TDLib's own."""


class EmptyTextError(Exception):
    """The text is empty once parsed and trimmed."""


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def check_link(url: str) -> str:
    """The normalised link, or `ValueError` with TDLib's reason ("Wrong HTTP URL", ...)."""
    url = url.strip()
    if not url:
        raise ValueError("URL host is empty")
    if ":" in url.split("/", 1)[0] and "://" not in url:
        scheme = url.split(":", 1)[0].lower()
        if scheme in {"tg", "ton"}:
            return url
        raise ValueError("Unsupported URL protocol")
    if "://" in url:
        scheme, rest = url.split("://", 1)
        scheme = scheme.lower()
        if scheme in {"tg", "ton"}:
            return f"{scheme}://{rest}"
        if scheme not in {"http", "https"}:
            raise ValueError("Unsupported URL protocol")
    else:
        scheme, rest = "http", url
    if any(c.isspace() for c in rest):
        raise ValueError("Wrong HTTP URL")
    parts = urlsplit(f"{scheme}://{rest}")
    host = parts.hostname or ""
    if not host:
        raise ValueError("URL host is empty")
    labels = host.rstrip(".").split(".")
    if len(labels) < 2 or not all(labels) or not _HOST.match(host) or not _TLD.match(labels[-1]):
        raise ValueError("Wrong HTTP URL")
    try:
        port = parts.port
    except ValueError as error:
        raise ValueError("Wrong port number specified in the URL") from error
    netloc = host if port is None else f"{host}:{port}"
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query or rest.endswith("?") else ""
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    return f"{scheme}://{netloc}{path}{query}{fragment}"


def checked_link(url: str) -> str | None:
    """`check_link` that answers None instead of raising (links in text are just dropped)."""
    try:
        return check_link(url)
    except ValueError:
        return None


def _is_space(c: int) -> bool:
    return c in _SPACES


def _is_alnum(c: int) -> bool:
    return 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A


def _u16(c: int) -> int:
    """How many UTF-16 units start at the UTF-8 byte `c` (0 for continuation bytes)."""
    if c & 0xC0 == 0x80:
        return 0
    return 2 if c >= 0xF0 else 1


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


def _sorted(entities: list[Entity]) -> list[Entity]:
    return sorted(entities, key=lambda e: (e["offset"], -e["length"]))


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
            u16 += _u16(c)
            out.append(c)
            i += 1
            continue

        begin = i
        i += 1
        if at(i) != 0x2F:  # a start tag
            while not _is_space(at(i)) and at(i) != 0x3E:
                i += 1
            if at(i) == 0:
                raise FormatError(f"Unclosed start tag at byte offset {begin}")
            tag = data[begin + 1 : i].decode("utf-8", "replace").lower()
            if tag not in _HTML_TAGS:
                raise FormatError(f'Unsupported start tag "{tag}" at byte offset {begin}')
            argument = ""
            while at(i) != 0x3E:
                while at(i) != 0 and _is_space(at(i)):
                    i += 1
                if at(i) == 0x3E:
                    break
                name_begin = i
                while not _is_space(at(i)) and at(i) not in (0x3D, 0x3E):
                    i += 1
                name = data[name_begin:i].decode("utf-8", "replace")
                if not name:
                    raise FormatError(
                        f'Empty attribute name in the tag "{tag}" at byte offset {begin}'
                    )
                while at(i) != 0 and _is_space(at(i)):
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
                while at(i) != 0 and _is_space(at(i)):
                    i += 1
                if at(i) == 0:
                    raise FormatError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                if at(i) not in (0x27, 0x22):
                    token_begin = i
                    while _is_alnum(at(i)) or at(i) in (0x2E, 0x2D):
                        i += 1
                    value = data[token_begin:i].decode("ascii").lower()
                    if not _is_space(at(i)) and at(i) != 0x3E:
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
        while not _is_space(at(i)) and at(i) != 0x3E:
            i += 1
        end_tag = data[begin + 2 : i].decode("utf-8", "replace").lower()
        while _is_space(at(i)) and at(i) != 0:
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
    return out.decode("utf-8"), _sorted(entities)


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
            u16 += _u16(c)
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
                    while not _is_space(at(language_end)) and at(language_end) != 0x60:
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
    return out.decode("utf-8"), _sorted(entities)


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
            u16 += _u16(c)
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
            while not _is_space(at(language_end)) and at(language_end) != 0x60:
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
            u16 += _u16(data[i])
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
    return out.decode("utf-8"), _sorted(entities)


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
    return _sorted(entities)


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
    return body.decode("utf-16-le", "surrogatepass"), _sorted(result)


def command_entities(text: str) -> list[Entity]:
    """The `bot_command` entity Telegram attaches to a message starting with a command."""
    match = re.match(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_/<>])", text)
    if match is None:
        return []
    return [{"type": "bot_command", "offset": 0, "length": utf16_len(match.group(0))}]
