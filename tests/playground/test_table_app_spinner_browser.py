"""A «Телефон» round in the table app, with several doubles built on the house (the
spinner), in a real browser through the playground (headless Chromium at 390×844).

Аня starts `/newgame telephone doubles=2`, Боря sits down in the app, and the game's seed
is set in the playground's database before ▶ (as the end-to-end tests of the spinner hand
do), so the deal is one where a move of two doubles comes within a few turns. Both play by
tapping in the app the moves planned with the engine: a tile, then the arm the table marks.
The mover of the doubles presses «⧉ Несколько дублей», picks each double, taps its arm on
the table where it fits more than one, «➕ Ещё дубль», then «✔ Готово»; the stored game
holds that move of doubles and the page tells it.

Screenshots go to `test-output/table-app/spinner/`; with `UPDATE_SCREENSHOTS=1` the light
and dark ones of the question are written to `docs/phone/` for the README (palette PNGs).
Skipped without Chromium, never on CI."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from PIL import Image

from bot.game import apply, legal_moves, new_game, parse_rules
from bot.game.events import DoublesPlayed
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.state import GameState, Phase
from bot.playground.run import DATABASE
from tests.e2e.process import stretched
from tests.e2e.shown import RU
from tests.e2e.stored import DB_NAME, query, replay_game, set_seed
from tests.playground.browser import (
    CHROMIUM,
    NEEDS_BROWSER,
    PHONES,
    Page,
    async_playwright,
    expect,
    send,
)
from tests.playground.launch import ROOT, free_port, playground
from tests.playground.test_table_app_browser import APP, open_app

SHOTS = ROOT / "test-output" / "table-app" / "spinner"
DOCS = ROOT / "docs" / "phone"
RULES = "telephone doubles=2"
TELEPHONE = parse_rules(RULES).with_players(2)
DEPTH = 5  # plain moves before the doubles, at most

pytestmark = NEEDS_BROWSER


def arms_for(state: GameState, tile: int) -> set[int]:
    """The arms `tile` may go on, by itself or as a double of a move of doubles."""
    a, b = state.rules.tiles.pips[tile]
    return {end for end, value in enumerate(state.ends) if value in (a, b)}


def wanted(state: GameState, move: Move) -> bool:
    """Seat 0's move of doubles, one of which fits more than one arm (the table asks)."""
    return (
        isinstance(move, PlayDoubles)
        and state.to_move == 0
        and any(len(arms_for(state, tile)) > 1 for tile in move.tiles)
    )


def plan(state: GameState, depth: int) -> list[Move] | None:
    """Plain moves from `state` leading to a wanted move of doubles, and that move."""
    legal = legal_moves(state)
    found = [move for move in legal if wanted(state, move)]
    if found:
        return found[:1]
    for move in legal if depth else ():
        if isinstance(move, Play):
            after, _ = apply(state, move)
            rest = plan(after, depth - 1) if after.phase is Phase.PLAYING else None
            if rest:
                return [move, *rest]
    return None


def seed_for(rules: RuleSet) -> int:
    """The first seed whose deal has a planned move of doubles."""
    for seed in range(1000):
        state, _ = new_game(rules, ("1", "2"), seed)
        if plan(state, DEPTH):
            return seed
    raise AssertionError("no deal with a move of doubles")


async def until(page: Page, met: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait, polling, until `met()`."""
    for _ in range(int(stretched(30) * 10)):
        if await met():
            return
        await page.wait_for_timeout(100)
    raise AssertionError(f"never: {what}")


class Table:
    """The game as stored in the playground's database, and the pages by seat."""

    def __init__(self, data: Path, game_id: int, pages: dict[int, Page]) -> None:
        self.data, self.game_id, self.pages = data, game_id, pages

    def state(self) -> GameState:
        return replay_game(self.data, self.game_id)

    def moves(self) -> int:
        rows = query(self.data, "SELECT count(*) AS n FROM moves WHERE game_id = ?", self.game_id)
        return int(rows[0]["n"])

    async def tap_arm(self, page: Page, arms: set[int], arm: int) -> None:
        """The table marks `arms` (and only those) to tap; `arm` is tapped."""
        app = page.frame_locator(APP)
        await expect(app.locator("#ask .prompt")).to_have_text(RU("app-pick-end"))
        marked = app.locator("#table g.end.choice")
        await expect(marked).to_have_count(len(arms))
        shown = await marked.evaluate_all("marks => marks.map(m => Number(m.dataset.arm))")
        assert set(shown) == arms, (shown, arms)
        await app.locator(f'#table g.end.choice[data-arm="{arm}"]').click()

    async def play(self, state: GameState, move: Play) -> None:
        """Tap the tile in the mover's hand, and its arm on the table when asked."""
        page = self.pages[state.to_move]
        app = page.frame_locator(APP)
        before = self.moves()
        await app.locator(f'#hand button.tile.playable[data-tile="{move.tile}"]').click()
        arms = {m.end for m in legal_moves(state) if isinstance(m, Play) and m.tile == move.tile}
        if len(arms) > 1:
            await self.tap_arm(page, arms, move.end)
        await until(page, self._moved(before), f"{move} stored")

    async def play_doubles(self, state: GameState, move: PlayDoubles, shots: Path) -> None:
        """Build the move of doubles in the app: each double, its arm where the table asks,
        «ещё», and «готово». The first question of an arm is photographed, light and dark."""
        page = self.pages[state.to_move]
        app = page.frame_locator(APP)
        before = self.moves()
        prompt = app.locator("#ask .prompt")
        await app.locator("#hand .actions button", has_text=RU("hand-doubles")).click()
        pips, photographed = state.rules.tiles.pips, False
        for done, (tile, arm) in enumerate(zip(move.tiles, move.ends, strict=True), 1):
            await expect(prompt).to_have_text(RU("hand-pick-double"))
            a, b = pips[tile]
            await app.locator(f'#ask button.tile:has(svg[aria-label="{a}-{b}"])').click()
            arms = arms_for(state, tile) - set(move.ends[: done - 1])  # one double an arm
            if len(arms) > 1:
                await expect(prompt).to_have_text(RU("app-pick-end"))
                if not photographed:
                    await photograph(page, shots)
                    photographed = True
                await self.tap_arm(page, arms, arm)
            await expect(prompt).to_have_text(RU("hand-ready"))
            assert self.moves() == before, "nothing is played before «готово»"
            label = RU("hand-done" if done == len(move.tiles) else "hand-more")
            await app.locator("#ask .actions button", has_text=label).click()
        await until(page, self._moved(before), f"{move} stored")

    def _moved(self, before: int) -> Callable[[], Awaitable[bool]]:
        async def moved() -> bool:
            return self.moves() > before

        return moved


async def photograph(page: Page, shots: Path) -> None:
    """The page in both of the app's colour schemes (the frame's light/dark switch)."""
    html = page.frame_locator(APP).locator("html")
    for _ in range(2):
        scheme = await html.get_attribute("data-scheme")
        path = shots / f"table-app-{scheme}.png"
        await page.screenshot(path=str(path))
        if os.environ.get("UPDATE_SCREENSHOTS"):
            small_png(path, DOCS / path.name)
        other = {"light": "dark", "dark": "light"}[scheme or ""]
        await page.locator("#app .scheme").click()
        await expect(html).to_have_attribute("data-scheme", other)


def small_png(source: Path, target: Path) -> None:
    """A screenshot as a 256-colour PNG: the same look at a fraction of the bytes."""
    with Image.open(source) as shot:
        shot.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(target, optimize=True)


async def test_a_telephone_round_builds_two_doubles_on_the_house_in_the_app(
    tmp_path: Path,
) -> None:
    assert CHROMIUM is not None and async_playwright is not None
    expect.set_options(timeout=stretched(30) * 1000)
    phone = PHONES[0]  # 390×844
    SHOTS.mkdir(parents=True, exist_ok=True)
    seed = seed_for(TELEPHONE)
    async with (
        playground(tmp_path, "playground", "--port", str(free_port()), "--fast") as running,
        async_playwright() as driver,
    ):
        browser = await driver.chromium.launch(executable_path=CHROMIUM)
        anya, borya = [
            await (await browser.new_context(viewport=phone, color_scheme="light")).new_page()
            for _ in range(2)
        ]
        for page, name in ((anya, "Аня"), (borya, "Боря")):
            await page.goto(f"{running.url}/?user={name}")
            await page.locator(".tabs [data-pane=private]").click()
            await page.locator("#private .start").click()
            await page.locator(".tabs [data-pane=group]").click()
        await send(anya, "group", f"/newgame {RULES}")
        await open_app(anya)
        await open_app(borya)
        await borya.frame_locator(APP).locator("#lobby button", has_text="Сесть за стол").click()
        app = anya.frame_locator(APP)
        await expect(app.locator("#seats .seat:not(.empty)")).to_have_count(2)

        data = tmp_path / "db"  # where the e2e tests' readers find it under their name
        data.mkdir()
        (data / DB_NAME).symlink_to(tmp_path / "data" / DATABASE)
        (game,) = query(data, "SELECT id FROM games")
        game_id = int(game["id"])
        set_seed(data, game_id, seed)  # the deal, before ▶
        await app.locator("#lobby button", has_text="Начать").click()
        pages = {}
        for page in (anya, borya):
            you = page.frame_locator(APP).locator("#seats .seat.you")
            await expect(page.frame_locator(APP).locator("#hand .tiles button")).to_have_count(7)
            pages[int(await you.get_attribute("data-seat") or -1)] = page
        table = Table(data, game_id, pages)
        assert set(pages) == {0, 1}

        state = table.state()
        planned = plan(state, DEPTH)
        assert planned, "the seed's deal plans a move of doubles"
        for move in planned[:-1]:
            assert isinstance(move, Play)
            await table.play(state, move)
            state = table.state()
        doubles = plan(state, 0)  # the same move, from the stored state
        assert doubles and isinstance(doubles[0], PlayDoubles)
        await table.play_doubles(state, doubles[0], SHOTS)

        after = table.state()
        put = [e for e in after.history if isinstance(e, DoublesPlayed)]
        assert [(e.tiles, e.ends) for e in put] == [(doubles[0].tiles, doubles[0].ends)]
        names = [TELEPHONE.tiles.name(tile) for tile in doubles[0].tiles]
        told = app.locator("#moves li", has_text=names[0]).filter(has_text=names[1])
        await expect(told).to_have_count(1)  # the page tells the move of both doubles
        await anya.screenshot(path=str(SHOTS / "played.png"))
        await browser.close()
    log = running.log_text()
    assert "Traceback" not in log, log
