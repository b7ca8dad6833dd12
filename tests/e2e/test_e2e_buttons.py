"""Presses nobody should be able to make count for nothing, and the lobby's buttons
belong to its creator: stale buttons, another player's buttons, garbage callback data,
a double tap, settings, refused starts, /newgame twice, and what unknown input gets."""

from __future__ import annotations

import random
from pathlib import Path

from bot.game.moves import Play
from bot.playground import FakeTelegram, Message
from bot.telegram.buttons import EndGame, MoveButton
from bot.ui.games import help_group
from tests.e2e.actions import (
    ask,
    dealt,
    end_button,
    end_buttons,
    find,
    forged_refused,
    join,
    open_lobby,
    play_move,
    play_moves,
    press,
    press_refused,
    press_shown,
    replies_to,
    say,
    seated,
    start_game,
    tiles_asking_an_end,
    version_of,
    wait_asking,
    wait_text,
    wait_turn,
)
from tests.e2e.checks import bot_choices
from tests.e2e.process import running_bot
from tests.e2e.shown import HAND, JOIN, LOBBY, NAMES, PICK_END, PLAYABLE, RU, START, bot_messages
from tests.e2e.stored import games_in, query, replay_game, stored_state


def tiles_on(hand: Message) -> list[str]:
    """Tile names on a hand's buttons («✅ 1-4» → «1-4»)."""
    return [
        b["text"].removeprefix("✅ ")
        for row in hand.reply_markup or []
        for b in row
        if MoveButton.unpack(b["callback_data"]).kind == "t"
    ]


def version_in_db(folder: Path, game_id: int) -> int:
    (row,) = query(folder, "SELECT version FROM games WHERE id = ?", game_id)
    return int(row["version"])


async def test_presses_that_must_not_count(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля"))
        group = fake.add_group("Двор", [masha, serge, olya])
        players = [masha, serge]
        async with running_bot(fake, tmp_path) as bot:
            await say(fake, bot, olya, olya, "/start")
            olya_help = bot_messages(fake, olya)[-1]
            await start_game(fake, group, players)
            (game,) = games_in(tmp_path, group.id)
            game_id = game["id"]
            after = await play_moves(fake, players, random.Random(5), 3)

            mover, hand = await wait_turn(fake, players, after)
            await bot.idle()
            other = serge if mover is masha else masha
            version = version_of(hand)
            assert version == version_in_db(tmp_path, game_id)
            state = replay_game(tmp_path, game_id)
            rules = state.rules
            mine = [rules.tiles.parse(name) for name in tiles_on(hand)]
            (other_hand,) = [m for m in bot_messages(fake, other) if m.reply_markup]
            theirs = [rules.tiles.parse(name) for name in tiles_on(other_hand)]

            # the other player presses their own hand, or forges the mover's tile
            refused = RU("not-your-turn")
            assert await press_refused(fake, other, other_hand, other_hand.buttons[0][0]) == (
                refused
            )
            data = MoveButton(game=game_id, version=version, kind="t", tile=mine[0]).pack()
            assert await forged_refused(fake, other, other_hand, data) == refused
            # a group member who does not play forges a press from her own private chat
            assert await forged_refused(fake, olya, olya_help, data) == RU("not-a-player")
            # the mover: a button of an older move (a client that missed an edit)
            stale = MoveButton(game=game_id, version=version - 1, kind="t", tile=mine[0]).pack()
            assert await forged_refused(fake, mover, hand, stale) == RU("stale")
            # a press that only did not count is a toast; a window to close is for what
            # must be read once
            tapped = other_hand.buttons[0][0]
            assert await press_shown(fake, other, other_hand, tapped) == (refused, False)
            assert await press_shown(fake, mover, hand, "", stale) == (RU("stale"), False)
            outdated = await press_shown(fake, mover, hand, "", f"l:{game_id}:fly")
            assert outdated == (RU("outdated-button"), False)
            assert await press_shown(fake, mover, hand, "", "garbage") == (
                RU("unknown-button"),
                False,
            )
            assert await press_shown(fake, olya, olya_help, "", data) == (
                RU("not-a-player"),
                True,
            )
            # the mover: a tile of somebody else's hand, at a given end
            theft = MoveButton(game=game_id, version=version, kind="t", tile=theirs[0], end=0)
            assert await forged_refused(fake, mover, hand, theft.pack()) == "Этой кости у вас нет."
            # garbage
            for garbage in (
                "garbage",
                "m:x",
                "m:1:2:t:3:4:5",
                "m:99999:0:t:1:-1",
                f"l:{game_id}:fly",
                "l:99999:start",
                EndGame(game=99999, confirm=True).pack(),
                "o:99999:preset:goat",
                "\u2603" * 16,
            ):
                assert await forged_refused(fake, mover, hand, garbage), garbage
            assert version_in_db(tmp_path, game_id) == version

            # a double tap on a tile the bot plays at once: one move, one refusal
            choices = [m for m in bot_choices(state) if isinstance(m, Play)]
            tile = next(m.tile for m in choices if [c.tile for c in choices].count(m.tile) == 1)
            button = PLAYABLE + rules.tiles.name(tile)
            taps = [fake.user_presses(mover, hand, button) for _ in range(2)]
            answers = [await fake.wait_until(lambda q=q: fake.answer_for(q), 20) for q in taps]
            assert sorted(bool(a.text) for a in answers) == [False, True], answers
            assert not any(a.show_alert for a in answers), answers  # a toast, not a window
            assert {a.text for a in answers if a.text} <= {RU("stale"), refused}, answers
            made = query(
                tmp_path,
                "SELECT user_id FROM moves WHERE game_id = ? AND seq > ?",
                game_id,
                version,
            )
            assert [row["user_id"] for row in made if row["user_id"] is not None] == [mover.id]


async def test_lobby_belongs_to_its_creator(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge, olya = (fake.add_user(n) for n in ("Маша", "Серёжа", "Оля"))
        group = fake.add_group("Двор", [masha, serge, olya])
        async with running_bot(fake, tmp_path) as bot:
            # Маша never opened the bot: she is seated, but cannot be dealt tiles
            assert not masha.started
            lobby = await open_lobby(fake, group, masha)
            assert "Игроки: Маша" in (lobby.content or "")
            assert "Откройте личный чат с ботом" in (lobby.content or "")
            waiting = RU("waiting-for", names="Маша")  # what to do first: read once
            assert await press_shown(fake, masha, lobby, START) == (waiting, True)
            # she opens the bot through the lobby's deep link: now one player is too few
            await join(fake, group, masha, lobby)
            assert masha.started
            refusal = await press_refused(fake, masha, lobby, START)
            assert refusal.startswith("Пока нельзя начать"), refusal
            (game,) = games_in(tmp_path, group.id)
            assert game["status"] == "lobby"

            # other people's presses on her lobby
            assert await press_shown(fake, serge, lobby, START) == (RU("not-creator"), True)
            assert await press_refused(fake, serge, lobby, RU("settings")) == RU("not-creator")
            assert await press_refused(fake, olya, lobby, RU("cancel")) == (
                RU("not-creator-or-admin")
            )
            assert await press_refused(fake, olya, lobby, RU("leave")) == RU("not-seated")

            # settings: the preset in a submenu with descriptions, then the options that apply
            # to it, shown in the lobby's rules line
            goat, sea = RU("preset-name-goat"), RU("preset-name-sea_goat")
            assert await press(fake, masha, lobby, RU("settings")) == ""
            preset_goat = RU("preset-button", name=goat)
            await fake.wait_until(lambda: [preset_goat] in lobby.buttons)
            assert [b.removeprefix("● ") for b in lobby.buttons[1]] == [
                "до 51",
                "до 101",
                "до 125",
                "до 150",
            ]
            assert await press(fake, masha, lobby, preset_goat) == ""
            await fake.wait_until(lambda: [f"● {goat}"] in lobby.buttons)
            assert [sea] in lobby.buttons and [RU("back")] in lobby.buttons
            assert RU("preset-sea_goat") in (lobby.content or "")  # the descriptions
            assert await press_refused(fake, serge, lobby, sea) == RU("not-creator")
            await press(fake, masha, lobby, sea)
            sea_rules = RU("lobby-rules", rules=RU("preset-sea_goat"))
            await fake.wait_until(lambda: sea_rules in (lobby.content or ""))
            await fake.wait_until(lambda: [RU("preset-button", name=sea)] in lobby.buttons)
            # Sea Goat's own targets, and no fish option (it belongs to Козёл)
            assert not any("рыба" in b for row in lobby.buttons for b in row), lobby.buttons
            assert any("до 200" in b for b in lobby.buttons[1]), lobby.buttons
            assert await press_refused(fake, serge, lobby, RU("preset-button", name=sea)) == (
                RU("not-creator")
            )
            assert sea_rules in (lobby.content or "")
            await press(fake, masha, lobby, RU("preset-button", name=sea))
            await fake.wait_until(lambda: [goat] in lobby.buttons)
            await press(fake, masha, lobby, goat)
            goat_rules = RU("lobby-rules", rules=RU("preset-goat"))
            await fake.wait_until(lambda: goat_rules in (lobby.content or ""))
            await fake.wait_until(lambda: [preset_goat] in lobby.buttons)
            for button in ("до 150", "рыба на всех", "базар: вручную"):  # the rules in words
                await press(fake, masha, lobby, button)
                await fake.wait_until(lambda button=button: button in (lobby.content or ""))
                assert any(f"● {button}" in row for row in lobby.buttons), lobby.buttons
            assert await press_refused(fake, olya, lobby, "до 125") == RU("not-creator")
            chosen = "Правила: Козёл · базар: вручную · рыба на всех · до 150"
            assert chosen in (lobby.content or "")
            await press(fake, masha, lobby, RU("done"))
            await fake.wait_until(lambda: any(JOIN in row for row in lobby.buttons))

            # Серёжа never opened the bot either: the lobby's deep link seats him
            assert not serge.started and not bot_messages(fake, serge)
            await join(fake, group, serge, lobby)
            assert serge.started
            await wait_text(fake, serge, RU("joined"))
            assert [m.content for m in bot_messages(fake, serge)] == [RU("joined")]
            assert seated(lobby) == ["Маша", "Серёжа"]
            assert await press(fake, serge, lobby, RU("leave")) == RU("left-table")
            await fake.wait_until(lambda: seated(lobby) == ["Маша"])
            await join(fake, group, serge, lobby)

            # a second /newgame points at this lobby; bad options are named
            asked = await say(fake, bot, serge, group, "/newgame")
            await bot.idle()  # «already here» goes in the game's lane
            (answer,) = replies_to(fake, group, asked)
            assert answer.content == RU("already-running")
            assert answer.reply_to is lobby
            asked = await say(fake, bot, serge, group, "/newgame goat colour=red")
            (answer,) = replies_to(fake, group, asked)
            assert "colour" in (answer.content or "")
            assert len(query(tmp_path, "SELECT id FROM games")) == 1

            # the game starts with the rules chosen by buttons
            assert await press(fake, masha, lobby, START) == "Раздаю!"
            await dealt(fake, group, lobby, [masha, serge])
            asked = await say(fake, bot, olya, group, "/rules")
            (answer,) = replies_to(fake, group, asked)
            head = "Правила: Козёл · базар: вручную · рыба на всех · до 150\nИгроков: 2"
            assert (answer.content or "").startswith(head), answer.content
            # the table's id is stored once its send is back (a loaded machine: later)
            (game,) = await fake.wait_until(
                lambda: [g for g in games_in(tmp_path, group.id) if g["table_message_id"]]
            )
            asked = await say(fake, bot, olya, group, "/newgame")  # an answer to the command
            (answer,) = replies_to(fake, group, asked)
            assert answer.content == RU("already-running")
            assert answer.reply_to is asked
            assert find(fake, group, LOBBY) is None
            assert len(query(tmp_path, "SELECT id FROM games")) == 1
            # the lobby's link after the start
            fake.follow_link(olya, f"https://t.me/kozel_bot?start=j{game['join_token']}")
            await wait_text(fake, olya, RU("game-started"))
            # … and a seated player's late tap on it: they are told their tiles are here
            fake.follow_link(masha, f"https://t.me/kozel_bot?start=j{game['join_token']}")
            await wait_text(fake, masha, RU("game-started-seated"))
            # a guessed link of the old kind (the game's id) seats nobody
            fake.follow_link(olya, f"https://t.me/kozel_bot?start=j{game['id']}")
            await wait_text(fake, olya, RU("join-link-outdated"))

            # two /newgame at once in another group: one lobby
            other = fake.add_group("Двор 2", [masha, serge])
            fake.user_sends(masha, other, "/newgame")
            await say(fake, bot, serge, other, "/newgame")
            await bot.idle()
            answers = sorted(m.content or "" for m in bot_messages(fake, other))
            assert len(answers) == 2 and answers[0] == RU("already-running"), answers
            assert LOBBY in answers[1]
            assert [row["status"] for row in games_in(tmp_path, other.id)] == ["lobby"]


async def test_lobby_rules_line_does_not_contradict_the_options(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        async with running_bot(fake, tmp_path):
            lobby = await open_lobby(fake, group, masha, "target=150 fish=all")
            rules = (lobby.content or "").splitlines()[1]
            assert "до 150" in rules
            assert "до 101" not in rules and "рыба на одного" not in rules, rules


async def test_unknown_input_gets_help_in_private_and_silence_in_groups(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha, serge = fake.add_user("Маша"), fake.add_user("Серёжа")
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            for text in ("/start", "/foo", "привет", "/help"):
                asked = await say(fake, bot, masha, masha, text)
                (answer,) = replies_to(fake, masha, asked)
                assert answer.content == RU("help-private"), text
            asked = await say(fake, bot, masha, masha, "/newgame")
            (answer,) = replies_to(fake, masha, asked)
            assert answer.content == RU("groups-only")

            asked = await say(fake, bot, serge, group, "/help@kozel_bot")
            (help_message,) = replies_to(fake, group, asked)
            assert help_message.content == help_group(RU, 10)
            quiet = await say(fake, bot, serge, group, "/foo")
            for text in ("/foo@kozel_bot", "/start", "/start@kozel_bot", "/join"):
                await say(fake, bot, serge, group, text)
            await say(fake, bot, masha, group, "привет", reply_to=help_message)
            assert replies_to(fake, group, quiet) == []


async def test_the_end_is_asked_on_the_hand_sent_anew_while_a_tile_was_pressed(
    tmp_path: Path,
) -> None:
    """A tile that fits both ends is pressed on the hand while that hand is being sent
    anew (here after /start; a turn's first hand and a restart's redraw alike): «which
    end?» comes on the new hand, the one the person has, and the end they pick plays."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            # a long game: only the tile of the two ends' numbers asks, and a short game
            # (2 players, target 51) could end without one ever being the mover's
            await start_game(fake, group, users, "target=1000")
            (game,) = games_in(tmp_path, group.id)
            rng, after = random.Random(11), -1
            while True:  # random moves until the mover holds a tile that asks for an end
                user, hand = await wait_turn(fake, users, after)
                asking = tiles_asking_an_end(stored_state(tmp_path, game["id"]))
                if asking:
                    break
                after = await play_move(fake, users, rng, after)
            await bot.idle()
            (tile,) = [
                b["text"]
                for row in hand.reply_markup or []
                for b in row
                if MoveButton.unpack(b["callback_data"]).tile in asking
            ][:1]

            ends = stored_state(tmp_path, game["id"]).ends
            name = tile.removeprefix(PLAYABLE)

            # the reply to /start and the hand sent anew are on their way for 2 s each
            fake.slow("sendMessage", 2.0, times=2)
            fake.user_sends(user, user, "/start")

            def hand_on_its_way() -> bool:
                return any(
                    c.method == "sendMessage"
                    and c.status is None
                    and str(c.params.get("chat_id")) == str(user.id)
                    and HAND in str(c.params.get("text"))
                    for c in fake.calls
                )

            await fake.wait_until(hand_on_its_way, 10)
            assert await press(fake, user, hand, tile) == PICK_END

            new = await wait_asking(fake, user)
            assert new is not hand and hand not in bot_messages(fake, user)
            # each end's button shows its number, like the spinner games' arms
            assert end_buttons(new) == [f"⬅ {ends[0]}", f"{ends[1]} ➡"], new.buttons
            assert new.buttons[0] == [RU("end-left", value=ends[0]), RU("end-right", value=ends[1])]
            # the question is in the hand's text; no word of ✅ that the buttons lack
            await fake.wait_until(lambda: RU("hand-ask-end", tile=name) in (new.content or ""))
            assert RU("hand-playable") not in (new.content or ""), new.content
            assert await press(fake, user, new, end_button(new, 0)) == ""
            await wait_turn(fake, users, version_of(hand))
            swaps = fake.calls_of("editMessageReplyMarkup")
            assert all(c.status == 200 for c in swaps), swaps


async def test_the_spinner_presets_from_newgame_the_lobby_and_settings(tmp_path: Path) -> None:
    """«Осёл» made the chat's default in /settings opens the next lobby; Muggins with a
    typed target, its automatic target among the buttons; Телефон's targets after a switch."""
    async with FakeTelegram() as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])  # Маша created it: she is an admin
        async with running_bot(fake, tmp_path) as bot:
            menu = await ask(fake, bot, masha, group, "/settings")
            await press(fake, masha, menu, RU("preset-button", name=RU("preset-name-goat")))
            donkey = RU("preset-name-donkey")
            await fake.wait_until(lambda: [donkey] in menu.buttons)
            await press(fake, masha, menu, donkey)
            await fake.wait_until(lambda: RU("preset-donkey") in (menu.content or ""))
            lobby = await open_lobby(fake, group, masha)
            rules = RU("lobby-rules", rules=RU("preset-donkey"))
            assert rules in (lobby.content or ""), lobby.content
            await press(fake, masha, lobby, RU("cancel"))
            await wait_text(fake, group, RU("cancelled"))

            lobby = await open_lobby(fake, group, masha, "muggins target=150")
            assert "Правила: Маггинс · до 150" in (lobby.content or ""), lobby.content
            await press(fake, masha, lobby, RU("settings"))
            auto = RU("option-target-0")
            await fake.wait_until(lambda: [b for b in lobby.buttons[1] if "●" in b] == ["● до 150"])
            assert auto in lobby.buttons[1], lobby.buttons
            await press(fake, masha, lobby, auto)
            await fake.wait_until(lambda: f"● {auto}" in lobby.buttons[1])
            assert "до 150" not in (lobby.content or "")
            telephone = RU("preset-name-telephone")
            await press(fake, masha, lobby, RU("preset-button", name=RU("preset-name-muggins")))
            await fake.wait_until(lambda: [telephone] in lobby.buttons)
            await press(fake, masha, lobby, telephone)
            rules = RU("lobby-rules", rules=RU("preset-telephone"))
            await fake.wait_until(lambda: rules in (lobby.content or ""))
            await fake.wait_until(lambda: RU("preset-button", name=telephone) in lobby.buttons[0])
            targets = [b.removeprefix("● ") for b in lobby.buttons[1]]
            assert targets == ["до 36", "до 72", "до 100", "до 150"]


async def test_the_leader_is_told_how_to_lead(tmp_path: Path) -> None:
    """The person who opens a round reads how: with the tile the rules name («Вы заходите
    с 1-1»), or with any tile where the rules leave it free — never «Концы: стол пуст»."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path) as bot:
            for options, fixed in (("", True), ("fives_threes", False)):
                await start_game(fake, group, users, options)
                game = games_in(tmp_path, group.id)[-1]
                state = stored_state(tmp_path, game["id"])
                assert (state.lead_tile is not None) is fixed, state.lead_tile
                _, hand = await wait_turn(fake, users)
                await bot.idle()
                lines = (hand.content or "").splitlines()
                if state.lead_tile is not None:
                    told = RU("hand-lead", tile=state.rules.tiles.name(state.lead_tile))
                else:
                    told = RU("hand-lead-any")
                assert lines[-1] == told, hand.content
                assert "стол пуст" not in (hand.content or ""), hand.content
                assert all(b.startswith(PLAYABLE) for b in hand.buttons[0]) or fixed
                await say(fake, bot, users[0], group, "/endgame")
                question = await wait_text(fake, group, RU("endgame-ask"))
                await press(fake, users[0], question, RU("end-yes"))
                await fake.wait_until(
                    lambda: games_in(tmp_path, group.id)[-1]["status"] != "active"
                )
                await bot.idle()


async def test_settings_close_and_old_settings_buttons_still_work(tmp_path: Path) -> None:
    """/settings has «Закрыть», which takes the message away; an older settings message's
    buttons (the same data the previous version made) still work, and only admins close."""
    async with FakeTelegram() as fake:
        masha, serge = fake.add_user("Маша"), fake.add_user("Серёжа")
        group = fake.add_group("Двор", [masha, serge])  # Маша created it: she is an admin
        async with running_bot(fake, tmp_path) as bot:
            older = await ask(fake, bot, masha, group, "/settings")
            menu = await ask(fake, bot, masha, group, "/settings")
            assert menu.buttons[-1] == [RU("close")], menu.buttons
            # the previous version's data: the computers switch and the presets view
            assert "c:computers:no" in [
                b["callback_data"] for row in older.reply_markup or [] for b in row
            ]
            refusal = await press_shown(fake, serge, menu, RU("close"))
            assert refusal == (RU("admins-only"), True)
            assert menu in bot_messages(fake, group)
            assert await press(fake, masha, menu, RU("close")) == ""
            await fake.wait_until(lambda: menu not in bot_messages(fake, group))
            assert await press(fake, masha, older, older.buttons[-2][0]) == RU("settings-saved")
            await fake.wait_until(lambda: RU("settings-off") in (older.content or ""))
            preset = RU("preset-button", name=RU("preset-name-goat"))
            assert await press(fake, masha, older, preset) == ""
            await fake.wait_until(lambda: [RU("back")] in older.buttons)
            assert await press(fake, masha, older, RU("back")) == ""
            await fake.wait_until(lambda: [RU("close")] in older.buttons)
            assert await press(fake, masha, older, RU("close")) == ""
            await fake.wait_until(lambda: older not in bot_messages(fake, group))
