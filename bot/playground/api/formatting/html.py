"""Telegram's HTML parse mode: a port of TDLib's `parse_html` (td/telegram/MessageEntity.cpp)."""

from __future__ import annotations

from bot.playground.api.formatting.entities import (
    Entity,
    FormatError,
    is_alnum,
    is_space,
)
from bot.playground.api.formatting.links import checked_link
from bot.playground.api.formatting.scanner import Scanner

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
    return _HtmlParser(text).parse()


class _HtmlParser(Scanner):
    """One run of `parse_html`: a method for each kind of token."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        # the open tags: tag, argument, utf-16 offset, output position
        self.nested: list[tuple[str, str, int, int]] = []

    def parse(self) -> tuple[str, list[Entity]]:
        """The text and entities, or `FormatError` with TDLib's message."""
        while self.i < self.size:
            c = self.data[self.i]
            if c == 0x26 and self._character_reference():  # '&'
                continue
            if c != 0x3C:  # '<'
                self.copy_byte()
            elif self.at(self.i + 1) != 0x2F:  # '/'
                self._start_tag()
            else:
                self._end_tag()
        if self.nested:
            raise FormatError(
                f'Can\'t find end tag corresponding to start tag "{self.nested[-1][0]}"'
            )
        for entity in self.entities:
            if entity["type"] == "code":
                entity.pop("language", None)
        return self.result()

    def _skip_spaces(self) -> None:
        while self.at(self.i) != 0 and is_space(self.at(self.i)):
            self.i += 1

    def _skip_name(self) -> None:
        """Step over a tag name: up to a space or '>'."""
        while not is_space(self.at(self.i)) and self.at(self.i) != 0x3E:
            self.i += 1

    def _character_reference(self) -> bool:
        """Copy the decoded `&...;` at the cursor; False when it is none (a plain '&')."""
        code, end = _decode_html_entity(self.data, self.i)
        if not code:
            return False
        if 0xD800 <= code <= 0xDFFF:
            raise FormatError(
                "Text contains invalid Unicode characters after decoding HTML entities, "
                "check for unmatched surrogate code units"
            )
        self.u16 += 2 if code > 0xFFFF else 1
        self.out += chr(code).encode("utf-8")
        self.i = end
        return True

    def _start_tag(self) -> None:
        """Open the tag at the cursor, with the argument its attributes give."""
        begin = self.i
        self.i += 1
        self._skip_name()
        if self.at(self.i) == 0:
            raise FormatError(f"Unclosed start tag at byte offset {begin}")
        tag = self.data[begin + 1 : self.i].decode("utf-8", "replace").lower()
        if tag not in _HTML_TAGS:
            raise FormatError(f'Unsupported start tag "{tag}" at byte offset {begin}')
        argument = ""
        while self.at(self.i) != 0x3E:
            self._skip_spaces()
            if self.at(self.i) == 0x3E:
                break
            argument = self._attribute(tag, begin, argument)
        if tag == "span" and argument != "spoiler":
            raise FormatError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
        self.nested.append((tag, argument, self.u16, len(self.out)))
        self.i += 1

    def _attribute(self, tag: str, begin: int, argument: str) -> str:
        """Read one attribute of `tag`: the tag's argument once it is read."""
        name_begin = self.i
        while not is_space(self.at(self.i)) and self.at(self.i) not in (0x3D, 0x3E):
            self.i += 1
        name = self.data[name_begin : self.i].decode("utf-8", "replace")
        if not name:
            raise FormatError(f'Empty attribute name in the tag "{tag}" at byte offset {begin}')
        self._skip_spaces()
        if self.at(self.i) != 0x3D:  # '='
            if tag == "blockquote" and name == "expandable":
                return "expandable"
            raise FormatError(
                "Expected equal sign in declaration of an attribute of the tag "
                f'"{tag}" at byte offset {begin}'
            )
        self.i += 1
        self._skip_spaces()
        if self.at(self.i) == 0:
            raise FormatError(f'Unclosed start tag "{tag}" at byte offset {begin}')
        quoted = self.at(self.i) in (0x27, 0x22)
        value = self._quoted_value() if quoted else self._name_token()
        if self.at(self.i) == 0:
            raise FormatError(f"Unclosed start tag at byte offset {begin}")
        return _tag_argument(tag, name, value, argument)

    def _name_token(self) -> str:
        """An unquoted attribute value: letters, digits, '.' and '-', lowercased."""
        token_begin = self.i
        while is_alnum(self.at(self.i)) or self.at(self.i) in (0x2E, 0x2D):
            self.i += 1
        value = self.data[token_begin : self.i].decode("ascii").lower()
        if not is_space(self.at(self.i)) and self.at(self.i) != 0x3E:
            raise FormatError(f"Unexpected end of name token at byte offset {token_begin}")
        return value

    def _quoted_value(self) -> str:
        """A quoted attribute value, its character references decoded."""
        quote = self.at(self.i)
        self.i += 1
        raw = bytearray()
        while self.at(self.i) != quote and self.at(self.i) != 0:
            if self.at(self.i) == 0x26:
                code, end = _decode_html_entity(self.data, self.i)
                if code:
                    raw += chr(code).encode("utf-8", "surrogatepass")
                    self.i = end
                    continue
            raw.append(self.data[self.i])
            self.i += 1
        if self.at(self.i) == quote:
            self.i += 1
        return raw.decode("utf-8", "replace")

    def _end_tag(self) -> None:
        """Close the innermost open tag at the `</...>` at the cursor."""
        begin = self.i
        self.i += 1
        if not self.nested:
            raise FormatError(f"Unexpected end tag at byte offset {begin}")
        self._skip_name()
        end_tag = self.data[begin + 2 : self.i].decode("utf-8", "replace").lower()
        self._skip_spaces()
        if self.at(self.i) != 0x3E:
            raise FormatError(f"Unclosed end tag at byte offset {begin}")
        tag, argument, offset, out_pos = self.nested.pop()
        if end_tag and end_tag != tag:
            raise FormatError(
                f'Unmatched end tag at byte offset {begin}, expected "</{tag}>", '
                f'found "</{end_tag}>"'
            )
        if self.u16 > offset:
            inner = bytes(self.out[out_pos:])
            _close_html_entity(self.entities, tag, argument, offset, self.u16 - offset, inner)
        self.i += 1


def _tag_argument(tag: str, name: str, value: str, argument: str) -> str:
    """The tag's argument after its attribute `name`=`value` (`argument` before it)."""
    if tag == "a" and name == "href":
        return value
    if tag == "code" and name == "class" and value.startswith("language-"):
        return value[9:]
    if tag == "span" and name == "class" and value.startswith("tg-"):
        return value[3:]
    if tag == "tg-emoji" and name == "emoji-id":
        return value
    return argument


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
