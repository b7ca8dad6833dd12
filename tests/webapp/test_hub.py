"""The hub: the streams a change wakes share one read of the game, and a read begun before
a change is never shared after it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.core.rows import GameRow
from bot.webapp.hub import Hub, Read, SharedRead
from tests.lobbies import lobby_row

GAME = lobby_row(7)


async def test_one_read_for_the_streams_a_change_wakes_and_a_new_one_after_a_change() -> None:
    hub, fetched = Hub(), []
    release = asyncio.Event()

    async def fetch(game_id: int, committed: GameRow | None) -> Read:
        assert committed is None  # a change that did not say how it left the game
        fetched.append(game_id)
        await release.wait()
        return None, str(len(fetched))

    with hub.watch(7) as woken:
        hub.changed(7)
        assert woken.is_set()
        first = [asyncio.create_task(hub.read(7, fetch)) for _ in range(3)]
        await asyncio.sleep(0)
        hub.changed(7)  # a change while that read is on its way: later streams read anew
        later = asyncio.create_task(hub.read(7, fetch))
        await asyncio.sleep(0)
        release.set()
        shared = [await task for task in first]
        assert [s.read for s in shared] == [(None, "2")] * 3 and len(set(map(id, shared))) == 1
        assert (await later).read == (None, "2") and fetched == [7, 7]
        assert (await hub.read(7, fetch)).read == (None, "3")  # done reads are not kept


def test_a_read_s_text_is_made_once_for_each_kind_of_reader() -> None:
    shared, made = SharedRead((None, None)), []

    def maker(kind: tuple[int | None, str]) -> Callable[[], str]:
        def make() -> str:
            made.append(kind)
            return f"{kind}"

        return make

    kinds = [(None, "ru"), (0, "ru"), (None, "ru"), (None, "en"), (0, "ru"), (1, "ru")]
    assert [shared.made(kind, maker(kind)) for kind in kinds] == [f"{k}" for k in kinds]
    assert made == [(None, "ru"), (0, "ru"), (None, "en"), (1, "ru")]


async def test_the_game_a_change_committed_here_is_not_read_again_while_watched() -> None:
    hub, given = Hub(), []

    async def fetch(game_id: int, committed: GameRow | None) -> Read:
        given.append(committed)
        return committed, None

    hub.changed(7, GAME)  # nobody watches: nothing is kept
    assert (await hub.read(7, fetch)).read == (None, None)
    with hub.watch(7):
        hub.changed(7, GAME)
        assert (await hub.read(7, fetch)).read == (GAME, None)
        hub.changed(7)  # a change made elsewhere: read anew
        await hub.read(7, fetch)
    with hub.watch(7):
        hub.changed(7, GAME)
    with hub.watch(7):  # the last watcher went: its game went with it
        await hub.read(7, fetch)
    assert given == [None, GAME, None, None]
