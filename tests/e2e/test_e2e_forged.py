"""Forged presses: every field of every callback kind, set outside what the game allows,
gets a short answer, changes nothing and logs nothing above INFO (no traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.playground import FakeTelegram
from bot.telegram.buttons import (
    AddComputer,
    ChatOption,
    DoublesButton,
    EndGame,
    KickSeat,
    LanguageChoice,
    LobbyAction,
    LobbyOption,
    LobbyTeam,
    MoveButton,
    RatingPage,
)
from bot.telegram.record_buttons import HistoryGame, RecordFile, Replay
from tests.e2e.actions import (
    forge_press,
    forged_refused,
    join,
    open_lobby,
    say,
    start_game,
    wait_turn,
)
from tests.e2e.process import running_bot
from tests.e2e.shown import RU, bot_messages
from tests.e2e.stored import games_in, query

BIGGEST = 2**63 - 1


def forgeries(game: int, version: int) -> list[str]:
    """Callback data a modified client could send during a running game of two."""
    h = DoublesButton.__prefix__
    return [
        # a move built in the hand: tiles past the set, arms a line has not, packed garbage
        f"{h}:{game}:{version}:a:255:-1:-1:",
        f"{h}:{game}:{version}:a:28:-1:-1:",
        f"{h}:{game}:{version}:a:100:0:0:",
        f"{h}:{game}:{version}:a:27:3:1:",
        f"{h}:{game}:{version}:a:-1:-1:-1:zz",
        f"{h}:{game}:{version}:d:-1:-1:-1:zzzz",
        f"{h}:{game}:{version}:d:-1:-1:-1:",
        # a hand button: tiles past the set, at an end or not, an arm past the line
        MoveButton(game=game, version=version, kind="t", tile=255).pack(),
        MoveButton(game=game, version=version, kind="t", tile=255, end=255).pack(),
        MoveButton(game=game, version=version, kind="t", tile=0, end=3).pack(),
        MoveButton(game=game, version=version, kind="2").pack(),
        MoveButton(game=BIGGEST, version=BIGGEST, kind="d").pack(),
        # the lobby's buttons on a running game, and on one that does not exist
        LobbyTeam(game=game, team=9).pack(),
        LobbyOption(game=game, key="players", value="99").pack(),
        LobbyOption(game=game, key="no_such", value="x").pack(),
        LobbyAction(game=BIGGEST, action="start").pack(),
        f"{AddComputer.__prefix__}:{game}:grandmaster",
        # the seats of /kick, the end of a game that does not exist
        KickSeat(game=game, seat=15).pack(),
        KickSeat(game=BIGGEST, seat=0).pack(),
        EndGame(game=BIGGEST, confirm=True).pack(),
        # settings, languages and pages
        ChatOption(key="computers", value="maybe").pack(),
        ChatOption(key="view", value="nowhere").pack(),
        LanguageChoice(language="xx").pack(),
        f"{RatingPage.__prefix__}:{BIGGEST}",
        f"{RatingPage.__prefix__}:99999999999999999999",
        # /history's buttons away from /history: its list, a sheet, a record, a replay
        HistoryGame(game=0).pack(),
        HistoryGame(game=game).pack(),
        HistoryGame(game=BIGGEST).pack(),
        RecordFile(game=game).pack(),
        Replay(game=BIGGEST, round=1).pack(),
    ]


@pytest.mark.parametrize("options", ["donkey", ""])
async def test_every_forged_field_is_a_short_answer(tmp_path: Path, options: str) -> None:
    async with FakeTelegram() as fake:
        masha, serge = fake.add_user("Маша"), fake.add_user("Серёжа")
        group = fake.add_group("Двор", [masha, serge])
        players = [masha, serge]
        async with running_bot(fake, tmp_path) as bot:
            await start_game(fake, group, players, options)
            (game,) = games_in(tmp_path, group.id)
            mover, hand = await wait_turn(fake, players)
            await bot.idle()
            (row,) = query(tmp_path, "SELECT version FROM games WHERE id = ?", game["id"])
            version = int(row["version"])
            logged = len(bot.log)
            pressed_where = [hand, bot_messages(fake, group)[-1]]
            for data in forgeries(game["id"], version):
                for message in pressed_where:
                    query_id = forge_press(fake, mover, message, data)
                    answer = await fake.wait_until(lambda q=query_id: fake.answer_for(q), 20)
                    assert answer.text, data
                    assert len(answer.text) <= 200, (data, answer.text)
                    assert not answer.text.startswith("Что-то пошло не так"), data
            await say(fake, bot, mover, group, "/score")
            await bot.idle()
            (row,) = query(tmp_path, "SELECT version FROM games WHERE id = ?", game["id"])
            assert int(row["version"]) == version
            above_info = [
                line
                for line in bot.log[logged:].splitlines()
                if any(level in line for level in ("WARNING", "ERROR", "CRITICAL", "Traceback"))
            ]
            assert not above_info, "\n".join(above_info)


async def test_history_buttons_forged_onto_a_lobby_change_nothing(tmp_path: Path) -> None:
    """/history's buttons pressed on a lobby: the unknown-button answer; the lobby keeps its
    words and its seats' buttons (a player still joins), and nothing is logged above INFO."""
    async with FakeTelegram() as fake:
        masha, serge = fake.add_user("Маша"), fake.add_user("Серёжа")
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            lobby = await open_lobby(fake, group, masha)
            await bot.idle()
            (game,) = games_in(tmp_path, group.id)
            shown = (lobby.text, lobby.reply_markup)
            logged = len(bot.log)
            for data in (
                HistoryGame(game=0).pack(),
                HistoryGame(game=game["id"]).pack(),
                RecordFile(game=game["id"]).pack(),
                Replay(game=BIGGEST, round=1).pack(),
            ):
                assert await forged_refused(fake, masha, lobby, data) == RU("unknown-button")
            await bot.idle()
            assert (lobby.text, lobby.reply_markup) == shown
            for user in (masha, serge):  # its seats' buttons still seat
                await join(fake, group, user, lobby)
            above_info = [
                line
                for line in bot.log[logged:].splitlines()
                if any(level in line for level in ("WARNING", "ERROR", "CRITICAL", "Traceback"))
            ]
            assert not above_info, "\n".join(above_info)
