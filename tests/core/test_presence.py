"""Who is at a game's table in the app: a person while one of their streams is open; the
listeners hear when the last one ends, unless the server is stopping."""

from __future__ import annotations

from bot.core.presence import Presence


def test_a_person_is_at_the_table_while_a_stream_is_open() -> None:
    presence, left = Presence(), []
    presence.on_left(lambda game, user: left.append((game, user)))
    with presence.at_the_table(1, 10):
        with presence.at_the_table(1, 10):  # a second device
            assert presence.here(1, 10) and not presence.here(2, 10)
        assert presence.here(1, 10) and left == []
    assert not presence.here(1, 10) and left == [(1, 10)]


def test_a_stopping_server_tells_nobody_that_people_left() -> None:
    presence, left = Presence(), []
    presence.on_left(lambda game, user: left.append((game, user)))
    with presence.at_the_table(1, 10):
        presence.hush()
    assert not presence.here(1, 10) and left == []
