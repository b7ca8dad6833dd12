"""What the browser tests share: Debian's Chromium and Playwright (the tests are skipped
without them, never on CI), typing and pressing in the page's two panes, and a move."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)

try:
    from playwright.async_api import Locator, Page, Response, async_playwright, expect
    from playwright.async_api import TimeoutError as NotYet
except ImportError:  # pragma: no cover - the dev extras bring it
    async_playwright = None

if CHROMIUM is None or async_playwright is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI must run the browser test: install chromium and playwright")
    NEEDS_BROWSER = pytest.mark.skip(reason="no Chromium here (apt-get install chromium)")
else:
    NEEDS_BROWSER = pytest.mark.usefixtures()

__all__ = [
    "CHROMIUM",
    "DESKTOP",
    "HAND",
    "NEEDS_BROWSER",
    "PHONES",
    "Locator",
    "NotYet",
    "Page",
    "Response",
    "async_playwright",
    "button",
    "expect",
    "my_move",
    "send",
    "sideways",
]

PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 640})
DESKTOP = {"width": 1280, "height": 800}


async def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: it fits the window's width)."""
    overflow: int = await page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
    return overflow


async def send(page: Page, pane: str, text: str) -> None:
    """Type `text` into a pane's box (`group` or `private`) and send it."""
    box = page.locator(f"#{pane} .compose input")
    await box.fill(text)
    await box.press("Enter")


def button(page: Page, pane: str, text: str) -> Locator:
    """The newest inline button in a pane with `text` on it."""
    return page.locator(f"#{pane} .keyboard button", has_text=text).last


HAND = "Ваши кости"  # the hand message's title


async def my_move(page: Page) -> bool:
    """Click a ✅ tile (and an end, «⬅ 3» or «3 ➡», when asked) if it is this page's
    turn."""
    hand = page.locator("#private .msg", has_text=HAND).last
    if not await hand.count() or "Ваш ход" not in await hand.inner_text():
        return False
    fits = hand.locator(".keyboard button", has_text="✅")
    if not await fits.count():
        return False
    await fits.first.click()
    end = (
        hand.locator(".keyboard button")
        .filter(has_text="⬅")
        .or_(hand.locator(".keyboard button").filter(has_text="➡"))
    )
    try:
        await end.first.wait_for(timeout=1500)
    except NotYet:  # placed at once: no end to choose
        return True
    await end.first.click()
    return True
