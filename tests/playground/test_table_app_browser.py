"""The table app in a real browser, through the playground (headless Chromium, Playwright).

On a phone (390×844 and 360×640) Аня starts a game and opens «📱 За стол» from the group:
the playground follows the direct link and shows the app in its frame, with `initData`
signed with its own token. Боря opens it too and sits down in it, then closes it; Аня, at
her seat, adds a computer and starts (with Telegram's MainButton). Боря plays from his
private chat, the computer plays its seat, and Аня plays her tiles by tapping them in the
app (an end on the table when it asks) until the round is over. Вася, who only watches,
opens the app from the table message: his page follows the moves, shows the round's result
and never a hand. Аня asks the round's replay in the app («🎞 Повтор» under its result): it
comes to her private chat.

Screenshots go to `test-output/table-app/`. Skipped without Chromium, never on CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.process import stretched
from tests.playground.browser import (
    CHROMIUM,
    HAND,
    NEEDS_BROWSER,
    PHONES,
    NotYet,
    Page,
    async_playwright,
    button,
    expect,
    my_move,
    send,
    sideways,
)
from tests.playground.launch import ROOT, free_port, playground

SHOTS = ROOT / "test-output" / "table-app"
MOVES = 80  # more turns than any round needs
APP = "#app iframe"
ROUND_OVER = "Раунд 1: "

pytestmark = NEEDS_BROWSER


async def open_app(page: Page) -> None:
    """Press the newest «📱 За стол» in the group: the app opens in the page's frame."""
    await button(page, "group", "📱").click()
    await expect(page.locator("#app")).to_be_visible()
    await expect(page.frame_locator(APP).locator("#seats .seat").first).to_be_visible()


async def app_sideways(page: Page) -> int:
    """How far the app scrolls sideways in its frame (0: it fits the phone's width)."""
    html = page.frame_locator(APP).locator("html")
    overflow: int = await html.evaluate("html => html.scrollWidth - innerWidth")
    return overflow


async def app_move(page: Page) -> bool:
    """Tap a playable tile in the app if it is Аня's turn, and the first place offered
    when the app asks where it goes."""
    app = page.frame_locator(APP)
    playable = app.locator("#hand button.tile.playable:enabled")
    if not await playable.count():
        drawing = app.locator("#hand .actions button")
        if not await drawing.count():
            return False
        await drawing.first.click()  # draw or pass: the hand's only move
        return True
    await playable.first.click()
    asked = app.locator("#ask:not([hidden]) .actions button")
    try:
        await asked.first.wait_for(timeout=1500)
    except NotYet:  # played at once: nothing to ask
        return True
    await asked.first.click()
    return True


async def tiles_on_table(page: Page) -> list[str]:
    return (
        await page.frame_locator(APP)
        .locator("#table g.tile")
        .evaluate_all("tiles => tiles.map(t => t.dataset.tile)")
    )


async def same_table(watcher: Page, player: Page, moved: bool = True) -> bool:
    """Whether the watcher's table comes to show the player's tiles and the same last moves
    (some, if `moved`), waiting while it catches up."""
    for _ in range(MOVES):
        shown = await tiles_on_table(watcher), await moves_told(watcher)
        if shown == (await tiles_on_table(player), await moves_told(player)) and (
            shown[1] or not moved
        ):
            return True
        await watcher.wait_for_timeout(250)
    return False


SMALL = """html => [...html.querySelectorAll("button, summary")]
  .map(e => [e.textContent.trim() || e.getAttribute("aria-label"), e.getBoundingClientRect()])
  .filter(([_, box]) => box.width && (box.width < 44 || box.height < 44))
  .map(([name]) => name)"""


async def small_targets(page: Page) -> list[str]:
    """The app's buttons shown smaller than a finger (44 × 44 px)."""
    found: list[str] = await page.frame_locator(APP).locator("html").evaluate(SMALL)
    return found


async def moves_told(page: Page) -> list[str]:
    return await page.frame_locator(APP).locator("#moves li").all_inner_texts()


@pytest.mark.parametrize("phone", PHONES, ids=lambda size: f"{size['width']}x{size['height']}")
async def test_a_round_is_played_in_the_app_beside_the_private_chat(
    tmp_path: Path, phone: dict[str, int]
) -> None:
    assert CHROMIUM is not None and async_playwright is not None
    expect.set_options(timeout=stretched(30) * 1000)
    shots = SHOTS / f"{phone['width']}x{phone['height']}"
    shots.mkdir(parents=True, exist_ok=True)
    async with (
        playground(tmp_path, "playground", "--port", str(free_port()), "--fast") as running,
        async_playwright() as driver,
    ):
        browser = await driver.chromium.launch(executable_path=CHROMIUM)
        anya, borya, vasya = [
            await (await browser.new_context(viewport=phone)).new_page() for _ in range(3)
        ]
        for page, name in ((anya, "Аня"), (borya, "Боря"), (vasya, "Вася")):
            await page.goto(f"{running.url}/?user={name}")
            await expect(page.locator("#group .title")).to_have_text("👥 Двор")

        await anya.locator(".tabs [data-pane=private]").click()
        await anya.locator("#private .start").click()  # the bot may write to her (her hand)
        await anya.locator(".tabs [data-pane=group]").click()
        await send(anya, "group", "/newgame")
        await open_app(anya)
        app = anya.frame_locator(APP)
        await expect(app.locator("#lobby")).to_be_visible()
        await expect(app.locator("#seats .seat.you")).to_have_text("Аня")  # the creator sits
        await borya.locator(".tabs [data-pane=private]").click()
        await borya.locator("#private .start").click()
        await borya.locator(".tabs [data-pane=group]").click()
        await open_app(borya)  # he sits down in the app, and plays from his private chat
        await borya.frame_locator(APP).locator("#lobby button", has_text="Сесть за стол").click()
        await expect(app.locator("#seats .seat:not(.empty)")).to_have_count(2)
        await expect(borya.frame_locator(APP).locator("#seats .seat.you")).to_have_text("Боря")
        await borya.locator("#app .back").click()  # ✕: the app closes
        await expect(borya.locator("#app")).to_be_hidden()
        await borya.locator(".tabs [data-pane=private]").click()
        await app.locator("#lobby button", has_text="+любитель").click()
        await expect(app.locator("#seats .seat:not(.empty)")).to_have_count(3)
        await anya.screenshot(path=str(shots / "1-lobby.png"))
        await anya.locator("#app .main-button", has_text="Начать").click()  # Telegram's
        await expect(app.locator("#hand .tiles button")).to_have_count(7)
        await expect(anya.locator("#app .main-button")).to_be_hidden()
        await expect(borya.locator("#private .msg", has_text=HAND)).to_have_count(1)

        await vasya.locator(".tabs [data-pane=group]").click()
        await open_app(vasya)  # the table message's button
        watching = vasya.frame_locator(APP)
        await expect(watching.locator("#status")).to_contain_text("Вы смотрите")

        moves = 0
        ended = app.locator("#result summary", has_text=ROUND_OVER)
        for _ in range(MOVES):
            if await ended.count():
                break
            if await app_move(anya):
                moves += 1
                if moves == 2:
                    await anya.screenshot(path=str(shots / "2-playing.png"))
                    assert await same_table(vasya, anya), "the watcher follows the moves"
                    assert await small_targets(anya) == []
            await my_move(borya)
            await anya.wait_for_timeout(250)
        await expect(ended).to_have_count(1)  # the round's result, folded as the next goes on
        assert moves >= 2
        assert int(await anya.locator("#app").get_attribute("data-haptics") or 0) >= 1
        await app.locator("#result summary").click()
        await expect(app.locator("#result .hands li")).to_have_count(3)
        await expect(app.locator("#result .code")).to_contain_text("/newgame deal=")
        await anya.screenshot(path=str(shots / "3-round-over.png"))

        await expect(watching.locator("#result summary", has_text=ROUND_OVER)).to_have_count(1)
        await expect(watching.locator("#result .hands li")).to_have_count(3)
        assert await same_table(vasya, anya, moved=False)  # the next round may not have begun
        assert await watching.locator("#hand").is_hidden()
        assert not await watching.locator("#hand button.tile").count()
        await vasya.screenshot(path=str(shots / "4-watching.png"))
        for page in (anya, vasya):
            assert await sideways(page) == 0
            assert await app_sideways(page) == 0

        html = app.locator("html")
        scheme = await html.get_attribute("data-scheme")
        other = {"light": "dark", "dark": "light"}[scheme or ""]
        await anya.locator("#app .scheme").click()  # the light/dark switch: themeParams
        await expect(html).to_have_attribute("data-scheme", other)
        await anya.screenshot(path=str(shots / f"5-{other}.png"))

        await app.locator("#result button", has_text="Повтор").click()
        await expect(app.locator("#toast")).to_contain_text("в личный чат")
        await anya.locator("#app .back").click()
        await anya.locator(".tabs [data-pane=private]").click()
        replay = anya.locator("#private .msg", has_text="🎞 Игра №")
        await expect(replay).to_have_count(1)
        await expect(replay).to_contain_text("раунд 1")
        await browser.close()
    log = running.log_text()
    assert "Traceback" not in log, log
