"""What the browser tests share: Debian's Chromium and Playwright (the tests are skipped
without them, never on CI), and typing and pressing in the page's two panes."""

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
    "NEEDS_BROWSER",
    "Locator",
    "NotYet",
    "Page",
    "Response",
    "async_playwright",
    "button",
    "expect",
    "send",
]


async def send(page: Page, pane: str, text: str) -> None:
    """Type `text` into a pane's box (`group` or `private`) and send it."""
    box = page.locator(f"#{pane} .compose input")
    await box.fill(text)
    await box.press("Enter")


def button(page: Page, pane: str, text: str) -> Locator:
    """The newest inline button in a pane with `text` on it."""
    return page.locator(f"#{pane} .keyboard button", has_text=text).last
