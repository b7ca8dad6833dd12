"""The cursor the parsers share: TDLib's parsers walk the UTF-8 bytes of a text, copy what
is not markup and count the copied text in UTF-16 units, the unit of entity offsets."""

from __future__ import annotations

from bot.playground.api.formatting.entities import Entity, sorted_entities, utf16_units


class Scanner:
    """A position in the bytes of a text, with the text and the entities made so far."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        self.size = len(self.data)
        self.i = 0
        self.out = bytearray()
        self.u16 = 0
        self.entities: list[Entity] = []

    def at(self, i: int) -> int:
        """The byte at `i`, 0 past the end (TDLib's strings end with a NUL)."""
        return self.data[i] if i < self.size else 0

    def copy_byte(self) -> None:
        """Copy the byte at the cursor to the text and step over it."""
        c = self.data[self.i]
        self.u16 += utf16_units(c)
        self.out.append(c)
        self.i += 1

    def result(self) -> tuple[str, list[Entity]]:
        """The text and its entities in Telegram's order."""
        return self.out.decode("utf-8"), sorted_entities(self.entities)
