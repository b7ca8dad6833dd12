"""Each game plays only the options its rules leave open, through the fake Bot API: Fives
and Threes with a bazaar, a spinner or a redeal is refused naming the game, a bad option
lists that game's options, and a chat's saved defaults that hold such an option drop it
(and /settings says so) while /newgame opens the game as its rules play it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from bot.game.formats import FORMATS
from bot.game.rules import DrawMode, RuleSet, Spinner
from bot.game.typed import played
from bot.playground import FakeTelegram
from bot.ui.i18n import texts_for
from tests.e2e.actions import ask, press, say
from tests.e2e.process import running_bot
from tests.e2e.shown import RU
from tests.e2e.stored import DB_NAME, games_in

FIVES_THREES = FORMATS["fives_threes"]
EN = texts_for("en")


async def test_fives_and_threes_refuses_a_bazaar_a_spinner_and_a_redeal(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        olya = fake.add_user("Оля")
        group = fake.add_group("Сквер", [olya])
        pub = fake.add_group("Pub", [olya], admins=[olya])
        async with running_bot(fake, tmp_path) as bot:
            game = RU("preset-name-fives_threes")
            for typed, valid in [("draw=until_playable", "none"), ("spinner=four", "none")]:
                key, _, value = typed.partition("=")
                said = await ask(fake, bot, olya, group, f"/newgame fives_threes {typed}")
                assert said.content == RU(
                    "rule-error-not-played", game=game, key=key, value=value, valid=valid
                )
            said = await ask(fake, bot, olya, group, "/newgame fives_threes redeal_doubles=3")
            assert said.content == RU(
                "rule-error-not-played",
                game=game,
                key="redeal_doubles",
                value="3",
                valid="0",
            )
            options = ", ".join(played(FIVES_THREES))
            said = await ask(fake, bot, olya, group, "/newgame fives_threes colour=red")
            text = RU("rule-error-key", key="colour")
            assert said.content == RU("rule-error-options", text=text, game=game, options=options)
            said = await ask(fake, bot, olya, group, "/newgame fives_threes fish=all")
            text = RU("rule-error-not-its", game=game, key="fish")
            assert said.content == RU("rule-error-options", text=text, game=game, options=options)
            assert games_in(tmp_path, group.id) == []
            # in English
            menu = await ask(fake, bot, olya, pub, "/settings")
            assert await press(fake, olya, menu, "English") == EN("settings-saved")
            said = await ask(fake, bot, olya, pub, "/newgame fives_threes spinner=four")
            assert said.content == EN(
                "rule-error-not-played",
                game=EN("preset-name-fives_threes"),
                key="spinner",
                value="four",
                valid="none",
            )
            assert games_in(tmp_path, pub.id) == []


async def test_saved_defaults_drop_what_their_game_does_not_play(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        olya = fake.add_user("Оля")
        group = fake.add_group("Сквер", [olya], admins=[olya])
        async with running_bot(fake, tmp_path) as bot:  # the database as this version has it
            await bot.idle()
        # saved before the games said what they play
        with contextlib.closing(sqlite3.connect(tmp_path / DB_NAME)) as db, db:
            db.execute(
                "INSERT INTO chat_settings (chat_id, options) VALUES (?, ?)",
                (group.id, "fives_threes draw=until_playable spinner=four target=31"),
            )
        async with running_bot(fake, tmp_path) as bot:
            menu = await ask(fake, bot, olya, group, "/settings")
            dropped = RU(
                "settings-dropped",
                options="draw=until_playable spinner=four",
                game=RU("preset-name-fives_threes"),
            )
            assert dropped in (menu.content or "").split("\n")
            await say(fake, bot, olya, group, "/newgame exact=yes")
            await fake.wait_until(lambda: games_in(tmp_path, group.id))
            (game,) = games_in(tmp_path, group.id)
            rules = RuleSet.from_options(json.loads(game["rules"]))
            assert rules.scoring == "fives_threes"
            assert (rules.draw, rules.spinner, rules.target, rules.own.exact) == (
                DrawMode.NONE,
                Spinner.NONE,
                31,
                True,
            )
