"""The words a player reads about finished games, through the fake Bot API: a bad option
answered short (a preset's typo gets the nearest preset), a shared deal that overrides the
typed game says so, /deal names who went out or made the fish and what each side scored,
/history numbers games as their sheets and replays do, and Fives and Threes lists the
hands left without a value (they never count there)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.game.rules import PRESETS
from bot.game.typed import played
from bot.playground import FakeTelegram
from tests.e2e.actions import ask, open_lobby, play_until, press, say, start_game, wait_text
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, NAMES, RU
from tests.e2e.stored import games_in, query
from tests.e2e.test_e2e_records import QUICK, buttons, stored_record


async def test_a_bad_option_is_answered_short(tmp_path: Path) -> None:
    """A preset's typo gets the nearest preset; an unknown option the game's options."""
    async with FakeTelegram() as fake:
        olya = fake.add_user("Оля")
        other = fake.add_group("Сквер", [olya])
        async with running_bot(fake, tmp_path) as bot:
            typo = await ask(fake, bot, olya, other, "/newgame telefon")
            near = RU("rule-error-preset", value="telefon")
            name = RU("preset-name-telephone")
            assert typo.content == RU(
                "rule-error-preset-near", text=near, name=name, preset="telephone"
            )
            unknown = await ask(fake, bot, olya, other, "/newgame goat colour=red")
            assert unknown.content == RU(
                "rule-error-options",
                text=RU("rule-error-key", key="colour"),
                game=RU("preset-name-goat"),
                options=", ".join(played(PRESETS["goat"].rules.format)),
            )
            assert games_in(tmp_path, other.id) == []


async def test_deals_and_games_named_plainly(tmp_path: Path) -> None:
    """/deal names who went out or made the fish and each side's gain; a deal typed with
    another game says it brings its own; /history numbers games as their sheets do."""
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(name) for name in NAMES[:3])
        group = fake.add_group("Двор", [masha, serge])
        other = fake.add_group("Сквер", [olya, serge])
        garden = fake.add_group("Сад", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            # another chat's lobby first: the game played here is not game 1
            await open_lobby(fake, garden, masha)
            await start_game(fake, group, [masha, serge], QUICK)
            (game,) = games_in(tmp_path, group.id)
            assert game["id"] != 1
            await play_until(fake, group, [masha, serge], random.Random(2))
            await bot.idle()
            await fake.wait_until(
                lambda: query(tmp_path, "SELECT 1 FROM records WHERE game_id = ?", game["id"])
            )
            record = stored_record(tmp_path, game["id"])
            first = record["rounds"][0]
            code = first["deal"]["code"]

            # the deal brings its own game: the typed one is not played, and it is said
            await say(fake, bot, olya, other, f"/newgame telephone deal={code}")
            goat = RU("preset-name-goat")
            await wait_text(fake, other, RU("deal-own-game", code=code, name=goat))
            (shared,) = games_in(tmp_path, other.id)
            assert shared["dealt_from"] == code

            # /deal: how the round ended and by whom, and each side's gain in it
            told = (await ask(fake, bot, masha, group, f"/deal {code}")).content or ""
            result = first["result"]
            names = [seat["name"] for seat in record["seats"]]
            if result["reason"] in ("fish", "out"):
                how = RU(f"deal-how-{result['reason']}", name=names[result["seat"]])
                assert how in told
            gains = " · ".join(
                f"{names[line['seat']]} {line['score_after'] - line['score_before']:+d}"
                for line in result["seats"]
            )
            assert gains in told, told

            # /history: the game by its own number, its button too, its sheet the same
            listing = await ask(fake, bot, masha, group, "/history")
            number = str(game["id"])
            assert f"№{number} ·" in (listing.content or "")
            assert buttons(listing) == [number]
            assert await press(fake, masha, listing, number) == ""
            sheet = RU("history-game-title", game=game["id"], name=goat, date="").split(" · ")[0]
            await fake.wait_until(lambda: sheet in (listing.content or ""), 20)


HAND_VALUE = re.compile(r"^.+: .+ = \d+$", re.MULTILINE)


async def test_fives_and_threes_hands_are_shown_without_a_value(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Паб", users)
        async with running_bot(fake, tmp_path):
            await start_game(fake, group, users, "fives_threes")
            sheet = RU("round-sheet-race", goal=61)
            await play_until(fake, group, users, random.Random(5), text=sheet)
            ended = await wait_text(fake, group, sheet)
            content = ended.content or ""
            assert RU("round-hands-uncounted") in content
            assert not HAND_VALUE.search(content), content
            assert GAME_OVER not in content
