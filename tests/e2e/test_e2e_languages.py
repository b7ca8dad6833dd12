"""Languages, chat settings and /nextgame over the fake Bot API: a group speaks the language
its admins chose, a private chat the user's choice or their Telegram language; /settings
sets a chat's defaults for /newgame; /nextgame calls a user once when a table is gathered."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.ai import Level
from bot.game.rules import RuleSet
from bot.game.state import GameState
from bot.game.typed import parse_rules
from bot.playground import BOT_USERNAME, Chat, FakeTelegram, Message, Supergroup, User
from bot.telegram.buttons import AddComputer
from bot.ui.games import every_game, help_group, how_won
from bot.ui.i18n import Texts, texts_for
from tests.e2e.actions import (
    ask,
    end_buttons,
    find,
    forged_refused,
    open_lobby,
    press,
    press_refused,
    replies_to,
    say,
    version_of,
    wait_asking,
    wait_text,
)
from tests.e2e.checks import (
    RATING_ROW,
    expected_rating,
    expected_skill,
    rated,
    round_ends,
    without_badges,
)
from tests.e2e.process import running_bot
from tests.e2e.shown import PLAYABLE, RU, SHORT, bot_messages
from tests.e2e.stored import fresh_state, games_in, replay_game

EN = texts_for("en")
CYRILLIC = re.compile("[А-Яа-яЁё]")
TURN = ("Your move", "Ваш ход")  # how a hand says it is your turn, in either language
EXTRAS = {t(key) for t in (EN, RU) for key in ("draw", "pass")}


# -- a game whose players read different languages ----------------------------------------


def lobby_names(lobby: Message, t: Texts) -> list[str]:
    """The names on the lobby's players line, in the group's language `t`."""
    prefix = t("lobby-players", names="")
    (line,) = [x for x in (lobby.content or "").splitlines() if x.startswith(prefix)]
    rest = line.removeprefix(prefix)
    return [] if rest == t("lobby-nobody") else rest.split(", ")


async def open_lobby_in(
    fake: FakeTelegram, group: Chat, creator: User, t: Texts, options: str = ""
) -> Message:
    before = find(fake, group, t("lobby-title"))
    fake.user_sends(creator, group, f"/newgame {options}".strip())
    lobby: Message = await fake.wait_until(
        lambda: (m := find(fake, group, t("lobby-title"))) is not before and m, 20
    )
    return lobby


async def join_in(fake: FakeTelegram, group: Chat, user: User, lobby: Message, t: Texts) -> None:
    """Press the lobby's join button (in `t`), follow the deep link, see your name."""
    url = fake.user_presses(user, lobby, t("join"))
    fake.follow_link(user, url)
    waiting = t("lobby-waiting", names="")
    await fake.wait_until(
        lambda: user.name in lobby_names(lobby, t) and waiting not in (lobby.content or ""), 20
    )


def hand_of(fake: FakeTelegram, user: User) -> Message | None:
    """The user's hand message: the bot's message with move buttons."""
    hands = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    return hands[-1] if hands else None


def turn(fake: FakeTelegram, players: Sequence[User], after: int) -> tuple[User, Message] | None:
    for user in players:
        hand = hand_of(fake, user)
        if (
            hand is not None
            and version_of(hand) > after
            and any(mark in (hand.content or "") for mark in TURN)
        ):
            return user, hand
    return None


async def play_to(
    fake: FakeTelegram,
    players: Sequence[User],
    rng: random.Random,
    done: Callable[[], object],
    max_moves: int = 2000,
) -> int:
    """Random legal presses by whoever's hand says it is their turn (in whatever language
    it is written) until `done()`; how many moves were made."""
    after = -1
    for moves in range(max_moves):
        ready = await fake.wait_until(lambda after=after: done() or turn(fake, players, after), 30)
        if not isinstance(ready, tuple):
            return moves
        user, hand = ready
        after = version_of(hand)
        choices = [b for row in hand.buttons for b in row if b.startswith(PLAYABLE) or b in EXTRAS]
        answer = await press(fake, user, hand, rng.choice(choices))
        if answer in (EN("pick-end"), RU("pick-end")):
            question = await wait_asking(fake, user)
            ends = end_buttons(question)
            await press(fake, user, question, rng.choice(ends))
    raise AssertionError(f"not done after {max_moves} moves")


def end_lines(t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
    """The places of a finished individual «Козёл» game as the end message lists them:
    RULES §2.6 order (goats last, then score, remembered points, seat), §2.7 points."""
    rules, tally = state.rules, state.tally
    seats = range(rules.players)
    goats = {s for s in seats if tally.scores[s] >= rules.target}
    order = sorted(seats, key=lambda s: (s in goats, tally.scores[s], tally.remembered[s], s))
    points = rated(state)
    return [
        t(
            "game-place",
            place=place,
            name=names[seat],
            score=tally.scores[seat],
            mark=t("game-place-goat") if seat in goats else "",
            points=points[int(state.seats[seat])].points,
        )
        for place, seat in enumerate(order, start=1)
    ]


def cyrillic_in(text: str | None) -> bool:
    return bool(CYRILLIC.search(text or ""))


# -- 6. an English group ------------------------------------------------------------------


async def test_an_english_group_and_private_chats_in_each_readers_language(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        alice = fake.add_user("Alice", language_code="en")
        bob = fake.add_user("Bob", language_code="ru")
        carol = fake.add_user("Carol", language_code="de")  # no catalog: English
        dan = fake.add_user("Dan", language_code=None)  # Telegram sent none: Russian
        players = [alice, bob, carol, dan]
        reads = {alice.id: EN, bob.id: RU, carol.id: EN, dan.id: RU}
        group = fake.add_group("Yard", players)  # Alice created it: she is an admin
        async with running_bot(fake, tmp_path) as bot:
            # the admin switches the group to English with the /settings menu
            menu = await ask(fake, bot, alice, group, "/settings")
            assert (menu.content or "").startswith(RU("settings-title", chat="Yard"))
            assert any("● Русский" in row for row in menu.buttons), menu.buttons
            assert await press(fake, alice, menu, "English") == EN("settings-saved")
            await fake.wait_until(lambda: not cyrillic_in(menu.content))
            lines = (menu.content or "").splitlines()
            assert lines[0] == EN("settings-title", chat="Yard")
            assert EN("settings-language", language="English") in lines
            assert any("● English" in row for row in menu.buttons), menu.buttons
            answer = await ask(fake, bot, bob, group, "/settings")
            assert answer.content == EN("admins-only")

            # the lobby, joining, a refused press
            lobby = await open_lobby_in(fake, group, alice, EN, SHORT)
            lines = (lobby.content or "").splitlines()
            assert lines[0] == EN("lobby-title")
            assert lines[1] == EN("lobby-rules", rules="Goat · to 51")
            assert lines[-2:] == [EN("lobby-press-join"), EN("lobby-idle-hint", minutes=10)]
            assert lobby.buttons[0] == [EN("join")]
            assert [EN("add-computer", level=EN("computer-easy"))] in [
                row[:1] for row in lobby.buttons
            ]
            assert not any(cyrillic_in(b) for row in lobby.buttons for b in row), lobby.buttons
            for user in players:
                await join_in(fake, group, user, lobby, EN)
                joined = await wait_text(fake, user, reads[user.id]("joined"))
                assert joined.content == reads[user.id]("joined")
            assert lobby_names(lobby, EN) == ["Alice", "Bob", "Carol", "Dan"]
            assert await press_refused(fake, bob, lobby, EN("start")) == EN("not-creator")
            assert await press_refused(fake, bob, lobby, EN("settings")) == EN("not-creator")
            assert await press(fake, alice, lobby, EN("start")) == EN("dealing")
            started = EN("game-started-players", names="Alice, Bob, Carol, Dan")
            await fake.wait_until(lambda: lobby.content == started)
            await fake.wait_until(lambda: all(hand_of(fake, u) for u in players))
            await bot.idle()

            # the table's caption and every hand, before the first move
            (game,) = games_in(tmp_path, group.id)
            deal = fresh_state(tmp_path, game["id"])
            (table,) = [m for m in bot_messages(fake, group) if m.photo]
            caption = (table.content or "").splitlines()
            goat = EN("preset-name-goat")
            assert caption[0] == EN("caption-round", game=goat, round=1, bazaar=len(deal.bazaar))
            names = {p.id: p.name for p in players}
            to_move = names[int(deal.seats[deal.to_move])]
            assert caption[-1] == EN("caption-to-move", name=to_move)
            for user in players:
                hand = hand_of(fake, user)
                assert hand is not None
                title = (hand.content or "").splitlines()[0]
                assert title == reads[user.id]("hand-title", round=1), (user, hand.content)

            # Bob switches his private chat to English in the middle of the game
            asked = await say(fake, bot, bob, bob, "/language")
            # his hand may come anew beside it (the game goes on): one picker is the answer
            (picker,) = [
                m for m in replies_to(fake, bob, asked) if m.content == RU("language-pick")
            ]
            assert picker.buttons == [["Русский", "English"], [f"● {RU('language-telegram')}"]]
            assert await press(fake, bob, picker, "English") == EN("language-set")
            await fake.wait_until(lambda: picker.content == EN("language-pick"))
            assert picker.buttons == [["Русский", "● English"], [EN("language-telegram")]]
            reads[bob.id] = EN

            moves = await play_to(
                fake, players, random.Random(61), lambda: find(fake, group, EN("game-over"))
            )
            assert moves > 10
            await bot.idle()

            # the round results, the end of the game and /score
            state = replay_game(tmp_path, game["id"])
            seat_names = [names[int(user)] for user in state.seats]
            ends = round_ends(tmp_path, game["id"])
            results = [
                m
                for m in bot_messages(fake, group)
                if EN("round-sheet-points") in (m.content or "")
            ]
            assert len(results) == len(ends) == state.round_no
            for message, ended in zip(results, ends, strict=True):
                assert message.photo is not None
                head = (message.content or "").splitlines()[0]
                if ended.eggs:
                    assert head == EN("round-eggs", round=ended.round_no, carry=ended.carry_after)
                elif ended.reason == "fish":
                    assert head == EN(
                        "round-fish", round=ended.round_no, name=seat_names[ended.seat]
                    )
                else:
                    assert head == EN(
                        "round-out", round=ended.round_no, name=seat_names[ended.seat]
                    )
            end = find(fake, group, EN("game-over"))
            assert end is not None
            assert without_badges(end.content or "").splitlines() == [
                EN("game-over"),
                *end_lines(EN, state, seat_names),
                EN("game-won", name=goat, won=how_won(EN, state.rules)),
            ]
            score = (await ask(fake, bot, carol, group, "/score")).content or ""
            assert score.splitlines()[0] == EN("score-after", round=len(ends))
            assert score.endswith(without_badges(end.content or ""))

            # /rating, /stats, /rules, /help
            rating = (await ask(fake, bot, dan, group, "/rating all")).content or ""
            lines_shown = rating.splitlines()
            assert lines_shown[0] == EN("rating-title", chat="Yard", first=1, last=4, total=4)
            assert lines_shown[1] == EN("rating-columns")
            assert lines_shown[-1] == EN("rating-provisional-note", games=5)
            rows = {}
            for line in lines_shown[2:-1]:
                match = RATING_ROW.match(line)
                assert match, line
                rows[match[2]] = (int(match[3]), match[4], *map(int, match.groups()[4:]))
            skill = expected_skill(tmp_path, group.id)
            expected = expected_rating(tmp_path, group.id)
            assert rows == {
                names[u]: (skill[u], "*", r.games, r.wins, r.goats, r.points)
                for u, r in expected.items()
            }, rating
            stats = (await ask(fake, bot, alice, group, "/stats")).content or ""
            assert stats.startswith(EN("stats-title", name="Alice", where=""))
            rules = (await ask(fake, bot, bob, group, "/rules")).content
            won = EN("rules-won", won=how_won(EN, parse_rules("")))
            head = "\n".join([EN("rules-for-chat", rules=EN("preset-goat")), won])
            every = "\n".join([EN("games-title"), *every_game(EN)])
            # no game: the chat's rules in words, how the preset plays, and every game
            assert rules == "\n\n".join([head, EN("rules-goat"), every])
            assert (await ask(fake, bot, bob, group, "/help")).content == help_group(EN, 10)

            # nothing in the group is in Russian: texts, captions, buttons, answers
            for message in bot_messages(fake, group):
                assert not cyrillic_in(message.content), message.content
                for row in message.buttons:
                    assert all(b == "Русский" or not cyrillic_in(b) for b in row), row
            for pressed in fake.callback_queries.values():
                if pressed.message.chat is group and pressed.answer is not None:
                    assert not cyrillic_in(pressed.answer.text), pressed.answer

            # the private chats: each closed hand tells, in its reader's language, the game,
            # the reader's place of the four (as the end message orders them), the score
            # and the goat
            assert state.outcome is not None
            order = [
                line.split(". ", 1)[1].split(" — ")[0] for line in end_lines(EN, state, seat_names)
            ]
            for user in players:
                (closed,) = [  # a finished game's closed hand: «🔍 Разбор» alone
                    m
                    for m in bot_messages(fake, user)
                    if m.edited and m.buttons == [[reads[user.id]("review-button")]]
                ]
                seat = state.seats.index(str(user.id))
                (place,) = [p for p in state.outcome.places if p.seat == seat]
                assert order[place.place - 1] == user.name, (order, place)
                t = reads[user.id]
                mark = t("game-over-you-goat") if place.goat else ""
                assert place.score == state.tally.scores[seat]
                assert place.goat == (place.score >= state.rules.target)
                assert closed.content == t(
                    "game-over-you",
                    game=t("preset-name-goat"),
                    place=place.place,
                    total=4,
                    score=place.score,
                    goat=mark,
                ), user
            # Bob follows Telegram again (Russian); Alice picks Russian
            assert await press(fake, bob, picker, EN("language-telegram")) == RU("language-set")
            await fake.wait_until(lambda: picker.content == RU("language-pick"))
            mine = (await ask(fake, bot, bob, bob, "/rating")).content or ""
            assert mine.splitlines()[0] == RU("rating-private-title")
            picker = await ask(fake, bot, alice, alice, "/language")
            assert picker.content == EN("language-pick")
            assert await press(fake, alice, picker, "Русский") == RU("language-set")
            assert (await ask(fake, bot, alice, alice, "/help")).content == RU("help-private")
            assert (await ask(fake, bot, carol, carol, "/help")).content == EN("help-private")

            # private menus follow the user's Telegram language
            def menu(user: User, chat: Chat | User) -> dict[str, str]:
                return {c["command"]: c["description"] for c in fake.commands_for(user, chat)}

            assert menu(alice, alice)["rating"] == EN("command-rating-private")
            assert menu(alice, alice)["language"] == EN("command-language")
            assert menu(bob, bob)["rating"] == RU("command-rating-private")
            # an English group has its own English menu, whatever its members' languages
            assert menu(alice, group)["settings"] == EN("command-settings")
            assert menu(dan, group)["nextgame"] == EN("command-nextgame")

            # Telegram languages without a catalog: Russian for uk/be/kk, English otherwise
            for name, code, t in (("Eve", "uk", RU), ("Kai", "kk", RU), ("Rui", "pt-br", EN)):
                user = fake.add_user(name, language_code=code)
                assert (await ask(fake, bot, user, user, "/start")).content == t("help-private")

            # the group becomes a supergroup: its language and rating go with it
            upgraded = fake.migrate_group_to_supergroup(group)
            await bot.idle()
            assert (await ask(fake, bot, bob, upgraded, "/help")).content == help_group(EN, 10)
            moved = (await ask(fake, bot, dan, upgraded, "/rating all")).content or ""
            assert moved.splitlines()[0] == lines_shown[0]
            assert moved.splitlines()[1:] == lines_shown[1:]


# -- 7. /settings -------------------------------------------------------------------------


def settings_text(t: Texts, chat: str, rules: str, language: str, computers: bool) -> str:
    return "\n".join(
        [
            t("settings-title", chat=chat),
            t("settings-rules", rules=rules),
            t("settings-language", language=language),
            t("settings-computers", state=t("settings-on" if computers else "settings-off")),
            t("settings-deals", state=t("settings-off")),
            t(
                "settings-seasons",
                length=t("season-length-month"),
                zone="Europe/Moscow (UTC+3)",
            ),
            t("settings-hint"),
        ]
    )


def computer_buttons(lobby: Message) -> list[str]:
    return [b for row in lobby.buttons for b in row if "🤖" in b]


async def test_settings_set_the_chats_defaults_for_newgame(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля"))
        group = fake.add_group("Двор", [masha, serge, olya], admins=[olya])
        goat = RU("preset-goat")
        async with running_bot(fake, tmp_path) as bot:
            asked = await say(fake, bot, serge, group, "/settings")
            (answer,) = replies_to(fake, group, asked)
            assert answer.content == RU("admins-only")
            assert answer.reply_to is asked
            # only in a group
            await say(fake, bot, serge, serge, "/start")
            assert (await ask(fake, bot, serge, serge, "/settings")).content == RU("groups-only")

            menu = await ask(fake, bot, masha, group, "/settings")
            assert menu.content == settings_text(RU, "Двор", goat, "Русский", True)
            preset_goat = RU("preset-button", name=RU("preset-name-goat"))
            assert [preset_goat] in menu.buttons
            assert ["● Русский", "English"] in menu.buttons
            computers_on = RU("settings-computers-button", state=RU("settings-on"))
            assert [computers_on] in menu.buttons
            # a member who is not an admin cannot press the menu either
            assert await press_refused(fake, serge, menu, preset_goat) == RU("admins-only")
            assert await press_refused(fake, serge, menu, computers_on) == RU("admins-only")
            assert menu.content == settings_text(RU, "Двор", goat, "Русский", True)

            # another admin sets the preset (from the list of presets, with descriptions),
            # the creator a target, then computers off
            assert await press(fake, olya, menu, preset_goat) == ""
            await fake.wait_until(lambda: RU("presets-pick") in (menu.content or ""))
            assert [f"● {RU('preset-name-goat')}"] in menu.buttons
            sea_goat = RU("preset-name-sea_goat")
            assert await press(fake, olya, menu, sea_goat) == RU("settings-saved")
            sea = RU("preset-sea_goat")
            await fake.wait_until(
                lambda: menu.content == settings_text(RU, "Двор", sea, "Русский", True)
            )
            assert [RU("preset-button", name=sea_goat)] in menu.buttons
            assert await press(fake, masha, menu, RU("option-target", value=150)) == (
                RU("settings-saved")
            )
            typed = "sea_goat target=150"
            chosen = "Морской козёл · до 150"
            await fake.wait_until(
                lambda: menu.content == settings_text(RU, "Двор", chosen, "Русский", True)
            )
            assert any(f"● {RU('option-target', value=150)}" in row for row in menu.buttons)
            assert await press(fake, masha, menu, computers_on) == RU("settings-saved")
            await fake.wait_until(
                lambda: menu.content == settings_text(RU, "Двор", chosen, "Русский", False)
            )
            computers_off = RU("settings-computers-button", state=RU("settings-off"))
            assert [computers_off] in menu.buttons

            # /rules without a game shows the chat's defaults
            won = RU("rules-won", won=how_won(RU, parse_rules(typed)))
            head = "\n".join([RU("rules-for-chat", rules=chosen), won])
            every = "\n".join([RU("games-title"), *every_game(RU)])
            rules_text = "\n\n".join([head, RU("rules-sea_goat"), every])
            assert (await ask(fake, bot, serge, group, "/rules")).content == rules_text

            # a plain /newgame uses them; no computers in the lobby
            lobby = await open_lobby(fake, group, serge)
            lines = (lobby.content or "").splitlines()
            assert lines[1] == RU("lobby-rules", rules=chosen)
            assert RU("lobby-no-computers") in lines
            assert computer_buttons(lobby) == []
            (game,) = games_in(tmp_path, group.id)
            assert RuleSet.from_options(json.loads(game["rules"])).summary() == typed
            computer = AddComputer(game=game["id"], level=Level.EASY).pack()
            assert await forged_refused(fake, serge, lobby, computer) == RU("computers-off")
            assert "🤖" not in (lobby.content or "")
            shown = (await ask(fake, bot, olya, group, "/rules")).content or ""
            assert shown.splitlines()[:2] == [RU("rules-for-lobby", rules=chosen), won], shown
            assert await press(fake, serge, lobby, RU("cancel")) == RU("cancelled")

            # options typed after /newgame go on top of the defaults; a preset replaces them
            lobby = await open_lobby(fake, group, serge, "target=101")
            lines = (lobby.content or "").splitlines()
            assert lines[1] == RU("lobby-rules", rules="Морской козёл · до 101")
            assert await press(fake, serge, lobby, RU("cancel")) == RU("cancelled")
            lobby = await open_lobby(fake, group, serge, "goat")
            assert (lobby.content or "").splitlines()[1] == RU("lobby-rules", rules=goat)
            assert await press(fake, serge, lobby, RU("cancel")) == RU("cancelled")

            # computers allowed again: the lobby offers them
            assert await press(fake, masha, menu, computers_off) == RU("settings-saved")
            await fake.wait_until(lambda: [computers_on] in menu.buttons)
            lobby = await open_lobby(fake, group, serge)
            assert (lobby.content or "").splitlines()[1] == RU("lobby-rules", rules=chosen)
            assert RU("lobby-no-computers") not in (lobby.content or "")
            assert computer_buttons(lobby) == [
                RU("add-computer", level=RU(f"computer-{level}")) for level in Level
            ]


# -- 8. /nextgame -------------------------------------------------------------------------


async def test_nextgame_calls_once_when_the_next_table_is_gathered(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля"))
        group = fake.add_group("Двор", [masha, serge, olya], supergroup=Supergroup())
        other = fake.add_group("Клуб", [masha, serge, olya])
        async with running_bot(fake, tmp_path) as bot:
            # Серёжа never opened the bot: he is told to, and is not on the list
            answer = await ask(fake, bot, serge, group, "/nextgame")
            url = f"https://t.me/{BOT_USERNAME}?start=hi"
            assert answer.content == RU("next-game-open-bot", url=url)
            fake.follow_link(serge, url)
            await wait_text(fake, serge, RU("help-private"))
            serge_before = len(bot_messages(fake, serge))

            # Оля has opened it: saved once, then told she is on the list already
            await say(fake, bot, olya, olya, "/start")
            assert (await ask(fake, bot, olya, group, "/nextgame")).content == (
                RU("next-game-saved")
            )
            assert (await ask(fake, bot, olya, group, "/nextgame")).content == (
                RU("next-game-already")
            )
            olya_before = len(bot_messages(fake, olya))

            # a table in another chat does not call her
            await open_lobby(fake, other, masha)
            await bot.idle()
            assert len(bot_messages(fake, olya)) == olya_before

            # a table here: exactly one private message, with a link to the lobby
            lobby = await open_lobby(fake, group, masha)
            await bot.idle()
            pings = bot_messages(fake, olya)[olya_before:]
            link = f"https://t.me/c/{str(group.id).removeprefix('-100')}/{lobby.message_id}"
            assert [m.content for m in pings] == [RU("next-game-ping", chat="Двор", link=link)]
            assert len(bot_messages(fake, serge)) == serge_before

            # the next table here calls nobody: the list was used up
            assert await press(fake, masha, lobby, RU("cancel")) == RU("cancelled")
            await open_lobby(fake, group, serge)
            await bot.idle()
            assert len(bot_messages(fake, olya)) == olya_before + 1
            assert len(bot_messages(fake, serge)) == serge_before
