"""/export's JSON Lines: whole lines in files within Telegram's 50 MB."""

from __future__ import annotations

from bot.telegram.handlers.history import DOCUMENT_LIMIT, EXPORT_PART, split_lines


def test_the_lines_fill_files_within_the_limit_and_none_is_split() -> None:
    lines = [b"x" * n for n in (40, 30, 50, 10, 99)]
    parts = split_lines(lines, 100)
    assert [len(p) for p in parts] == [72, 62, 100]
    assert b"".join(parts).splitlines() == lines
    assert all(len(p) <= 100 for p in parts)


def test_a_single_file_when_it_fits_and_room_for_the_request() -> None:
    assert split_lines([b"{}"] * 3, EXPORT_PART) == [b"{}\n{}\n{}\n"]
    assert split_lines([], EXPORT_PART) == []
    assert EXPORT_PART < DOCUMENT_LIMIT == 50 * 1024 * 1024
