"""The playground's record viewer in a real browser (headless Chromium through Playwright):
a person and a computer play a short game to its end, its record comes to the private chat
the way a person gets it (/history → the game → «📄 Запись»), «▶ open in viewer» opens it,
and at the last move the viewer shows exactly the picture the bot's renderer draws of the
game's final state (byte for byte: the group's own table picture at the end); JSON Lines
of two games, one with a review mark, open from the disk and show the mark; on a phone the
viewer fits the screen's width, its buttons and ✕ within reach.

A screenshot of the viewer goes to `test-output/playground/`. Without Chromium
(`apt-get install chromium`, which `.ci/run` does) the test is skipped, never on CI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.game.record import round_states
from bot.ui.i18n import texts_for
from bot.ui.scenes import table_scene
from render import render_table
from tests.e2e.process import stretched
from tests.playground.browser import (
    CHROMIUM,
    HAND,
    NEEDS_BROWSER,
    PHONES,
    Page,
    Response,
    async_playwright,
    button,
    expect,
    my_move,
    send,
    sideways,
)
from tests.playground.launch import ROOT, free_port, playground

SHOTS = ROOT / "test-output" / "playground"
# «Козёл» for two where every point counts and one point makes the goat: the first round
# ends the game (a fish with equal hands, eggs, would carry on to a second)
GAME = "/newgame goat target=1 open_threshold=0"
GAME_OVER = "Ещё партию"  # the group's button under a finished game
MOVES = 80  # more turns than any such game needs
RU = texts_for("ru")  # the playground's page speaks Russian, and so does its viewer

pytestmark = NEEDS_BROWSER


def final_picture(record: dict[str, Any]) -> bytes:
    """The table at the end of the record's last round, as the bot's renderer draws it."""
    last = record["rounds"][-1]["round"]
    names = [seat["name"] for seat in record["seats"]]
    return render_table(table_scene(RU, round_states(record, last)[-1], names))


async def play_to_the_end(anya: Page) -> None:
    await send(anya, "group", GAME)
    await button(anya, "group", "Сесть за стол").click()
    await expect(anya.locator("#private .msg").first).to_be_visible()
    await button(anya, "group", "+любитель").click()
    await expect(anya.locator("#group .msg", has_text="Игроки: Аня, ")).to_have_count(1)
    await button(anya, "group", "Начать").click()
    await expect(anya.locator("#private .msg", has_text=HAND)).to_have_count(1)
    over = anya.locator("#group .keyboard button", has_text=GAME_OVER)
    for _ in range(MOVES):
        if await over.count():
            return
        await my_move(anya)
        await anya.wait_for_timeout(200)
    await expect(over).to_have_count(1)


async def test_a_finished_games_record_opens_in_the_viewer(tmp_path: Path) -> None:
    assert CHROMIUM is not None and async_playwright is not None
    expect.set_options(timeout=stretched(30) * 1000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with (
        playground(tmp_path, "playground", "--port", str(free_port()), "--fast") as running,
        async_playwright() as driver,
    ):
        browser = await driver.chromium.launch(executable_path=CHROMIUM)
        anya = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
        frames: dict[str, Response] = {}  # every picture the viewer loaded, by its address
        anya.on("response", lambda r: frames.setdefault(r.url, r) if "/frame/" in r.url else None)
        failed: list[str] = []
        anya.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        anya.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
        await anya.goto(f"{running.url}/?user=Аня")
        await expect(anya.locator("#group .title")).to_have_text("👥 Двор")
        await play_to_the_end(anya)

        # the record as a person gets it: /history → the game → «📄 Запись» → private chat
        await send(anya, "group", "/history")
        games = anya.locator("#group .msg", has_text="Последние игры").last
        await games.get_by_role("button", name="1", exact=True).click()
        await button(anya, "group", "📄 Запись").click()
        document = anya.locator("#private .msg", has_text="game-").last
        await expect(document.locator("a.document")).to_contain_text(".json")
        async with anya.expect_response(lambda r: "/media/" in r.url) as got:
            await document.locator(".open-viewer").click()
        record = json.loads(await (await got.value).body())
        viewer = anya.locator("#viewer")
        await expect(viewer.locator(".player")).to_be_visible()
        await expect(viewer.locator(".game")).to_contain_text(f"№{record['game']}")

        # the last round's last move: the picture is the bot's own of the final state
        rounds = record["rounds"]
        last = rounds[-1]
        await viewer.locator(".round").select_option(str(len(rounds) - 1))
        deal = RU("viewer-step-deal", moves=len(last["moves"]))
        await expect(viewer.locator(".step")).to_have_text(deal)
        await expect(viewer.locator(".code")).to_have_text(f"🃏 {last['deal']['code']}")
        await viewer.locator(".last").click()
        count = len(last["moves"])
        await expect(viewer.locator(".step")).to_have_text(
            RU("viewer-step", move=count, moves=count)
        )
        frame = viewer.locator(".frame")
        end = f"/frame/{last['round']}/{count}.png"
        await anya.wait_for_function(
            "([img, end]) => img.src.endsWith(end) && img.complete && img.naturalWidth > 0",
            arg=[await frame.element_handle(), end],
        )
        shown = await frames[await frame.evaluate("img => img.src")].body()
        assert shown == final_picture(record)
        group = await anya.locator("#group .msg img").evaluate_all("all => all.map(i => i.src)")
        seen = [await (await anya.request.get(src)).body() for src in group]
        assert shown in seen  # the very table the group was shown when the game ended
        names = [seat["name"] for seat in record["seats"]]
        hands = viewer.locator(".hands tr")
        await expect(hands).to_have_count(len(names))
        await expect(hands.first.locator("th")).to_have_text(names[0])
        await anya.keyboard.press("Home")
        await expect(viewer.locator(".step")).to_have_text(deal)
        dealt = last["deal"]["hands"]
        for seat, hand in enumerate(dealt):
            await expect(hands.nth(seat).locator("td")).to_have_text(" ".join(hand))
        await anya.keyboard.press("ArrowRight")
        await expect(viewer.locator(".step")).to_have_text(RU("viewer-step", move=1, moves=count))
        # the viewer's words are the page's: Russian, the moves in the table's words
        await expect(viewer.locator(".file")).to_have_text(RU("viewer-file"))
        await expect(viewer.locator(".moves li").first).to_contain_text("Раздача: ")
        listed = await viewer.locator(".moves li").all_inner_texts()
        assert not [line for line in listed if re.search("[a-z]{3}", line)], listed
        await anya.screenshot(path=str(SHOTS / "viewer.png"))
        await anya.keyboard.press("Escape")
        await expect(viewer).to_be_hidden()

        # from the disk: JSON Lines of two games, the second with a review mark
        marked = {**record, "game": 99}
        marked["review"] = [{"round": 1, "move": 0, "seat": 0, "better": "6-6", "cost": "≈ 4"}]
        lines = "\n".join(json.dumps(r, ensure_ascii=False) for r in (record, marked))
        await anya.locator("#records").click()
        await viewer.locator("input[type=file]").set_input_files(
            {"name": "games.jsonl", "mimeType": "application/json", "buffer": lines.encode()}
        )
        listed = viewer.locator(".chooser button")
        await expect(listed).to_have_count(2)
        await listed.nth(1).click()
        await expect(viewer.locator(".game")).to_contain_text("№99")
        await anya.keyboard.press("ArrowRight")
        await expect(viewer.locator(".move")).to_contain_text("⚠")
        await expect(viewer.locator(".review")).to_have_text(
            f"⚠ Разбор ({names[0]}): лучше 6-6 · цена ≈ 4"
        )
        await expect(viewer.locator(".moves li.marked")).to_have_count(1)

        # on a phone: nothing sideways, the picture as wide as the screen at most, ✕ closes
        for size in PHONES:
            await anya.set_viewport_size(size)
            assert await sideways(anya) == 0, size
            assert await viewer.evaluate("box => box.scrollWidth <= box.clientWidth"), size
            await viewer.locator(".next").click()
            shown = await viewer.locator(".frame").bounding_box()
            assert (
                shown is not None
                and 0 <= shown["x"] <= shown["x"] + shown["width"] <= size["width"]
            )
            await expect(viewer.locator(".close")).to_be_in_viewport(ratio=1)
        await anya.screenshot(path=str(SHOTS / "viewer-phone.png"))
        await viewer.locator(".close").click()
        await expect(viewer).to_be_hidden()
        assert failed == [], failed
        await browser.close()
    log = running.log_text()
    assert "Traceback" not in log, log
