"""The table app's lobby in a real browser, through the playground, on a phone (390×844) and
on a desktop (1280×800): Аня starts a game and opens «📱 За стол»; as the lobby's creator
she opens «⚙ Правила игры», plays to 51, then picks «Телефон», then «Козёл 2×2» — the
rules line in the app and the lobby message in the group follow each choice. Боря, who sits
in the app, reads the rules and has none to choose; he picks the second team, and the teams
line follows in both. Every button is finger-sized and nothing scrolls sideways.

Screenshots go to `test-output/table-app/`. Skipped without Chromium, never on CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.process import stretched
from tests.playground.browser import (
    CHROMIUM,
    NEEDS_BROWSER,
    PHONES,
    async_playwright,
    expect,
    send,
)
from tests.playground.launch import free_port, playground
from tests.playground.test_table_app_browser import (
    APP,
    SHOTS,
    app_sideways,
    open_app,
    small_targets,
)

pytestmark = NEEDS_BROWSER
SIZES = (PHONES[0], {"width": 1280, "height": 800})


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
async def test_the_creator_chooses_the_rules_in_the_app(
    tmp_path: Path, size: dict[str, int]
) -> None:
    assert CHROMIUM is not None and async_playwright is not None
    expect.set_options(timeout=stretched(30) * 1000)
    shots = SHOTS / f"{size['width']}x{size['height']}"
    shots.mkdir(parents=True, exist_ok=True)
    async with (
        playground(tmp_path, "playground", "--port", str(free_port()), "--fast") as running,
        async_playwright() as driver,
    ):
        browser = await driver.chromium.launch(executable_path=CHROMIUM)
        anya, borya = [
            await (await browser.new_context(viewport=size)).new_page() for _ in range(2)
        ]
        for page, name in ((anya, "Аня"), (borya, "Боря")):
            await page.goto(f"{running.url}/?user={name}")
            await expect(page.locator("#group .title")).to_have_text("👥 Двор")
        await send(anya, "group", "/newgame")
        await open_app(anya)
        app = anya.frame_locator(APP)
        rules = app.locator("#lobby .rules")
        await expect(rules).to_contain_text("Правила: ")
        options = app.locator("#options")
        await expect(options).to_be_visible()
        await options.locator("summary").click()
        length = options.locator(".choices[data-key=target] button", has_text="до 51")
        await length.click()
        await expect(length).to_have_attribute("aria-pressed", "true")
        await expect(rules).to_contain_text("до 51")
        lobby = anya.locator("#group .msg", has_text="Собираем стол").last
        await expect(lobby).to_contain_text("до 51")  # the group's lobby message follows
        await anya.screenshot(path=str(shots / "lobby-rules.png"))
        assert await small_targets(anya) == []
        assert await app_sideways(anya) == 0

        await options.locator(".choices[data-key=preset] button", has_text="Телефон").click()
        await expect(rules).to_contain_text("Телефон")
        await expect(lobby).to_contain_text("Телефон")
        await expect(
            options.locator(".choices[data-key=target] button", has_text="до 36")
        ).to_be_visible()
        assert await options.evaluate("box => box.open")  # it stays open as the view changes

        await options.locator(".choices[data-key=preset] button", has_text="Козёл 2×2").click()
        await expect(rules).to_contain_text("Козёл 2×2")
        await open_app(borya)
        his = borya.frame_locator(APP)
        await his.locator("#lobby button", has_text="Сесть за стол").click()
        await expect(app.locator("#seats .seat:not(.empty)")).to_have_count(2)
        await expect(his.locator("#lobby .rules")).to_contain_text("Козёл 2×2")
        await expect(his.locator("#options")).to_be_hidden()  # only the creator chooses
        second = his.locator("#teams button", has_text="👥 2")
        await second.click()  # he picks the second team, as the lobby's 👥 buttons do
        await expect(second).to_have_attribute("aria-pressed", "true")
        await expect(app.locator("#teams .note")).to_contain_text("Боря → 2")
        await expect(lobby).to_contain_text("Боря → 2")
        await borya.screenshot(path=str(shots / "lobby-teams.png"))
        assert await small_targets(borya) == []
        assert await app_sideways(borya) == 0
        await browser.close()
