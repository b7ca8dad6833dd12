"""`bench/load.py --app`: half the people play from the table app (a session, a live stream,
`POST /api/act`), the others from their private hands, at one table, and the load tells
both apart (the app's moves, the turns told by the stream and by the chat)."""

from __future__ import annotations

import gc
import json

from bench.load import options, run


async def test_half_the_people_play_from_the_app() -> None:
    args = options().parse_args(
        ["--groups", "2", "--seconds", "8", "--think", "0.5", "--app", "0.5"]
    )
    try:
        result = await run(args)
    finally:
        gc.unfreeze()  # the load froze what its set-up made
    said = json.dumps(result, ensure_ascii=False)  # whole: pytest would cut a dict short
    assert result["app_people"] == 4, said
    assert 0 < result["app_moves"] < result["moves"], said  # moves in the app and the chat
    assert result["turn_told_app_s_p50"] is not None, said
    assert result["turn_told_chat_s_p50"] is not None, said
    assert result["rejected_presses"] == result["stalled_groups"] == 0, said
    assert result["bot_errors"] == 0 and result["other_errors"] == {}, said
