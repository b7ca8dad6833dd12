"""Telegram's MarkdownV2 and legacy Markdown parse modes: ports of TDLib's
`parse_markdown_v2` and `parse_markdown` (td/telegram/MessageEntity.cpp)."""

from __future__ import annotations

import re

from bot.playground.api.formatting.entities import Entity, FormatError, is_space
from bot.playground.api.formatting.links import checked_link
from bot.playground.api.formatting.scanner import Scanner

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
_MD2_RESERVED = b"_*[]()~`>#+-=|{}.!\n"
_MD2_CODE = frozenset({"code", "pre", "pre_code"})
# The markers that open an entity, tried in this order ('>' and the line break aside).
_MD2_OPENING = (
    (b"__", "underline"),
    (b"_", "italic"),
    (b"*", "bold"),
    (b"~", "strikethrough"),
    (b"||", "spoiler"),
    (b"[", "text_link"),
    (b"![", "custom_emoji"),
    (b"```", "pre"),
    (b"`", "code"),
)
# The markers that close an entity (a blockquote ends with a line that is not quoted).
_MD2_CLOSING = {
    "bold": b"*",
    "italic": b"_",
    "underline": b"__",
    "strikethrough": b"~",
    "spoiler": b"||",
    "code": b"`",
    "pre": b"```",
    "pre_code": b"```",
    "text_link": b"]",
    "custom_emoji": b"]",
}
# Legacy Markdown: the kind each marker opens, and what closes it.
_MD_KINDS = {0x5F: "italic", 0x2A: "bold", 0x60: "code", 0x5B: "text_link"}
_MD_CLOSING = {"italic": b"_", "bold": b"*", "code": b"`", "pre": b"```", "text_link": b"]"}


def parse_markdown_v2(text: str) -> tuple[str, list[Entity]]:
    """Telegram's MarkdownV2 parse mode (TDLib `parse_markdown_v2`)."""
    return _MarkdownV2Parser(text).parse()


def parse_markdown(text: str) -> tuple[str, list[Entity]]:
    """Telegram's legacy Markdown parse mode (TDLib `parse_markdown`)."""
    return _MarkdownParser(text).parse()


class _MarkdownScanner(Scanner):
    """What both Markdown modes read the same way: escapes, code blocks' heads and URLs."""

    def copy_escaped(self) -> None:
        """Copy the (ASCII) character after the backslash at the cursor."""
        self.i += 1
        self.copy_byte()

    def pre_language(self) -> str:
        """After an opening "```": the language of the block ("" if none), and the cursor
        moved past it and past the line break that follows."""
        start = end = self.i
        while not is_space(self.at(end)) and self.at(end) != 0x60:
            end += 1
        language = ""
        if start != end and end < self.size and self.at(end) != 0x60:
            language = self.data[start:end].decode("utf-8", "replace")
            self.i = end
        if self.at(self.i) in (0x0A, 0x0D):
            if self.at(self.i + 1) in (0x0A, 0x0D) and self.at(self.i) != self.at(self.i + 1):
                self.i += 2
            else:
                self.i += 1
        return language

    def read_url(self, escapes: bool) -> str:
        """The characters up to the next ')' or the end; with `escapes`, a backslash before
        an ASCII character stands for the character."""
        raw = bytearray()
        while self.i < self.size and self.data[self.i] != 0x29:
            if escapes and self._escape():
                raw.append(self.data[self.i + 1])
                self.i += 2
                continue
            raw.append(self.data[self.i])
            self.i += 1
        return raw.decode("utf-8", "replace")

    def _escape(self) -> bool:
        """Whether the cursor is on a MarkdownV2 escape: a backslash before ASCII."""
        return self.data[self.i] == 0x5C and 0 < self.at(self.i + 1) <= 126


def _markdown_entity(kind: str, argument: str, offset: int, length: int) -> Entity:
    """The entity for an entity `kind` of either mode and its argument."""
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


def _reserved(char: int) -> FormatError:
    return FormatError(
        f"Character '{chr(char)}' is reserved and must be escaped with the preceding '\\'"
    )


def _unclosed(kind: str, byte_offset: int) -> FormatError:
    return FormatError(f"Can't find end of {_MD2_NAMES[kind]} entity at byte offset {byte_offset}")


class _MarkdownV2Parser(_MarkdownScanner):
    """One run of `parse_markdown_v2`: open entities are closed by their own markers."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        # the open entities: kind, argument, utf-16 offset, byte offset in the source,
        # output position
        self.nested: list[tuple[str, str, int, int, int]] = []
        self.have_blockquote = False

    def parse(self) -> tuple[str, list[Entity]]:
        """The text and entities, or `FormatError` with TDLib's message."""
        while self.i < self.size:
            c = self.data[self.i]
            if self._escape():
                self.copy_escaped()
            elif c not in self._reserved_here():
                self.copy_byte()
            elif self._closes(c):
                self._close(c)
            else:
                self._open(c)
        if self.have_blockquote and self.nested and self.nested[-1][0] == "blockquote":
            offset = self.nested.pop()[2]
            if self.u16 != offset:
                self.entities.append(_markdown_entity("blockquote", "", offset, self.u16 - offset))
        if self.nested:
            kind, _, _, byte_offset, _ = self.nested[-1]
            raise _unclosed(kind, byte_offset)
        return self.result()

    def _reserved_here(self) -> bytes:
        """The characters that are markup here: only '`' inside code."""
        return b"`" if self.nested and self.nested[-1][0] in _MD2_CODE else _MD2_RESERVED

    def _closes(self, c: int) -> bool:
        """Whether the character `c` at the cursor ends the innermost open entity."""
        if not self.nested:
            return False
        if self.have_blockquote and c == 0x0A and self.at(self.i + 1) != 0x3E:
            return True
        kind = self.nested[-1][0]
        if kind == "italic" and self.at(self.i + 1) == 0x5F:
            return False
        closing = _MD2_CLOSING.get(kind)
        return closing is not None and self.data.startswith(closing, self.i)

    def _open(self, c: int) -> None:
        """Open the entity whose marker `c` is at the cursor (a line break is also copied)."""
        byte_offset = self.i
        argument = ""
        if c == 0x0A:
            kind = self._line_break()
        elif c == 0x3E and self.i == 0:
            self.i += 1
            kind = "blockquote"
            self.have_blockquote = True
        else:
            kind = self._opening_marker(c)
            if kind == "pre":
                argument = self.pre_language()
                kind = "pre_code" if argument else "pre"
        if kind:
            self.nested.append((kind, argument, self.u16, byte_offset, len(self.out)))

    def _line_break(self) -> str:
        """Copy the line break; "blockquote" when a quote starts on the next line."""
        self.copy_byte()
        if self.at(self.i) != 0x3E:
            return ""
        self.i += 1
        if self.have_blockquote:
            return ""
        self.have_blockquote = True
        return "blockquote"

    def _opening_marker(self, c: int) -> str:
        """Step over the marker at the cursor and name the entity it opens."""
        for marker, kind in _MD2_OPENING:
            if self.data.startswith(marker, self.i):
                self.i += len(marker)
                return kind
        raise _reserved(c)

    def _close(self, c: int) -> None:
        """Close the innermost open entity at its marker `c` at the cursor."""
        kind, argument, offset, byte_offset, out_pos = self.nested.pop()
        if c == 0x0A and kind != "blockquote":
            raise _unclosed(kind, byte_offset)
        empty = self.u16 == offset
        url: str | None = argument
        if kind == "blockquote":
            self.have_blockquote = False
            self.copy_byte()
        else:
            self.i += len(_MD2_CLOSING[kind])
        if kind == "text_link":
            url = checked_link(self._link_url(out_pos))
        elif kind == "custom_emoji":
            url = self._custom_emoji_id()
        if not empty and url is not None:
            self.entities.append(_markdown_entity(kind, url, offset, self.u16 - offset))

    def _link_url(self, out_pos: int) -> str:
        """The URL in "(...)" after a link's text, or the text itself."""
        if self.at(self.i) != 0x28:  # '('
            return self.out[out_pos:].decode("utf-8", "replace")
        return self._parenthesized("Can't find end of a URL")

    def _custom_emoji_id(self) -> str:
        """The identifier in the "(tg://emoji?id=...)" after a custom emoji."""
        if self.at(self.i) != 0x28:
            raise FormatError("Custom emoji entity must contain a tg://emoji URL")
        url = self._parenthesized("Can't find end of a custom emoji URL")
        match = re.fullmatch(r"tg://emoji\?id=(\d+)", url)
        if match is None:
            raise FormatError("Custom emoji URL must have an emoji identifier")
        return match.group(1)

    def _parenthesized(self, unclosed: str) -> str:
        """The URL in the "(...)" at the cursor; `unclosed` is the error without its ')'."""
        self.i += 1
        begin = self.i
        url = self.read_url(escapes=True)
        if self.at(self.i) != 0x29:
            raise FormatError(f"{unclosed} at byte offset {begin}")
        self.i += 1
        return url


class _MarkdownParser(_MarkdownScanner):
    """One run of `parse_markdown`: entities do not nest, each runs to its closing marker."""

    def parse(self) -> tuple[str, list[Entity]]:
        """The text and entities, or `FormatError` with TDLib's message."""
        while self.i < self.size:
            c = self.data[self.i]
            if c == 0x5C and self.at(self.i + 1) in _MD_KINDS:
                self.copy_escaped()
            elif c not in _MD_KINDS:
                self.copy_byte()
            else:
                self._entity(c)
        return self.result()

    def _entity(self, c: int) -> None:
        """Read the entity whose marker `c` is at the cursor."""
        begin = self.i
        kind = _MD_KINDS[c]
        language = ""
        self.i += 1
        if kind == "code" and self.data.startswith(b"``", self.i):
            self.i += 2
            kind = "pre"
            language = self.pre_language()
        offset = self.u16
        closing = _MD_CLOSING[kind]
        while self.i < self.size and not self.data.startswith(closing, self.i):
            self.copy_byte()
        if self.i == self.size:
            raise FormatError(f"Can't find end of the entity starting at byte offset {begin}")
        if offset != self.u16:
            argument: str | None = language
            if kind == "text_link":
                argument = checked_link(self._link_url(begin))
            elif language:
                kind = "pre_code"
            if argument is not None:
                self.entities.append(_markdown_entity(kind, argument, offset, self.u16 - offset))
        self.i += len(closing)

    def _link_url(self, begin: int) -> str:
        """The URL in "(...)" after the link's text at `begin`, or the text itself."""
        if self.at(self.i + 1) != 0x28:  # '('
            return self.data[begin + 1 : self.i].decode("utf-8", "replace")
        self.i += 2
        return self.read_url(escapes=False)
