"""The reviews kept («Разбор»), on both databases (`open_storage`): one worker at a time
makes or sends a seat's review, a worker that ended lets it go in time, and the review
made is there for every worker."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from bot.core import archive
from tests.conftest import Opener
from tests.core.test_storage_contract import lobby


async def test_a_review_is_held_by_one_worker_and_kept_for_all(
    open_storage: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = (await open_storage()).archive, (await open_storage()).archive
    game = (await lobby(await open_storage())).id
    assert await mine.hold_review(game, 0, "a")
    assert not await theirs.hold_review(game, 0, "b")  # being made
    assert not await mine.hold_review(game, 0, "a")  # … by this worker too: one at a time
    assert await theirs.hold_review(game, 1, "b")  # another seat's is its own
    assert await theirs.review(game, 0) is None
    await mine.keep_review(game, 0, '{"slips": []}')
    await theirs.let_review_go(game, 0, "b")  # not its to let go
    assert not await theirs.hold_review(game, 0, "b")
    await mine.let_review_go(game, 0, "a")
    assert await theirs.hold_review(game, 0, "b")  # to send again
    assert await theirs.review(game, 0) == '{"slips": []}'

    # a worker that ended holding one: the others may take it once its time is up
    later = time.time() + archive.REVIEW_HOLD_S + 1
    assert not await mine.hold_review(game, 1, "a")
    monkeypatch.setattr(archive, "time", SimpleNamespace(time=lambda: later))
    assert await mine.hold_review(game, 1, "a")
