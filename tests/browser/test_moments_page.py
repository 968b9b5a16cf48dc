"""A round won on a Suns to Moons page, in a real browser: the moment with its arithmetic,
and its Next round button on the first screen at 1280 and 390 px.

Screenshots: docs/screenshots/suns_to_moons_round_won_1280.png and _390.png.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mathcards.games.registry import make_game
from mathcards.saves import deal_code
from tests.browser.test_game_pages import (
    SCREENSHOTS,
    open_table,
    render_number,
    wait_settled,
    wait_visible,
)

pytestmark = pytest.mark.browser

MOMENT = ".mc-moment[data-moment='round']"
NEXT = ".mc-moment-box button.mc-choice.mc-primary"
PLAYABLE = ".mc-hand .mc-cardbtn:enabled, .mc-choices .mc-choice:enabled"

# Where a button lies in the window, and whether it is on the first screen (the page
# scrolled to its top: Voilà scrolls inside its own box).
ON_FIRST_SCREEN = """(sel) => {
    for (const e of document.querySelectorAll('*')) { if (e.scrollTop) e.scrollTop = 0; }
    window.scrollTo(0, 0);
    const b = [...document.querySelectorAll(sel)]
        .find(e => e.checkVisibility() && e.textContent.trim() === 'Next round');
    if (!b) return null;
    const r = b.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            height: window.innerHeight, width: document.documentElement.clientWidth};
}"""


def play_to_a_round_won(page, seed: int, max_steps: int = 800) -> None:
    """Click the person's moves (a card, then its sign) until a round's moment shows."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        wait_settled(page)
        if page.locator(MOMENT).count():
            return
        assert not page.locator(".mc-turn:has-text('Game over')").count(), "no round moment"
        wait_visible(page, f"{PLAYABLE}, {MOMENT}", timeout=30_000)
        if page.locator(MOMENT).count():
            return
        controls = page.locator(PLAYABLE)
        labels = controls.all_inner_texts()
        choices = [i for i, text in enumerate(labels) if text.strip() != "Back"]
        rendered = render_number(page)
        controls.nth(rng.choice(choices)).click(timeout=5_000)
        wait_settled(page, rendered)
    raise AssertionError("no round was won")


def test_a_round_won_is_a_moment_with_its_sum_and_next_round_on_the_first_screen(
        voila_server, page):
    code = deal_code(make_game("suns_to_moons", num_players=2, target_score=3), 21)
    url = (voila_server.page("play_suns_to_moons.ipynb")
           + f"?deal={code}&delay=0.05&seats=human,strong&student=moments&level=show")
    open_table(page, url)
    play_to_a_round_won(page, 21)
    moment = page.locator(MOMENT)
    text = moment.inner_text()
    assert "won the round" in text
    assert "made the deck" in text and "the goal" in text and "Scores:" in text
    assert moment.is_visible()
    banner = page.locator(".mc-turn").first
    assert banner.inner_text().startswith("Round over")
    assert float(banner.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24
    moves = int(page.locator(".mc-sync").first.get_attribute("data-move"))
    # nobody moves while the moment is shown
    page.wait_for_timeout(600)  # twelve bot pauses
    assert int(page.locator(".mc-sync").first.get_attribute("data-move")) == moves
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        box = page.evaluate(ON_FIRST_SCREEN, NEXT)
        assert box is not None, "no Next round button"
        assert box["top"] >= 0 and box["bottom"] <= box["height"], (width, box)
        assert box["left"] >= 0 and box["right"] <= box["width"], (width, box)
        page.screenshot(path=str(SCREENSHOTS / f"suns_to_moons_round_won_{width}.png"))
    # Next round: the moment goes and the game plays on
    # (under a loaded CI machine a redraw can land between reading the render number and
    # the click's own redraw: wait for the moment to go, and say what the table said if not)
    rendered = render_number(page)
    page.locator(NEXT).first.click()
    wait_settled(page, rendered)
    with contextlib.suppress(PlaywrightTimeout):  # the assertion says what the page shows
        page.wait_for_selector(MOMENT, state="detached", timeout=15_000)
    status = page.locator(".mc-status").all_inner_texts()
    assert not page.locator(MOMENT).count(), ("the moment stayed after Next round", status,
                                              page.locator(".mc-turn").all_inner_texts())
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


def test_a_fresh_page_starts_with_the_short_game_and_offers_the_full_one(voila_server, page):
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, voila_server.page("play_suns_to_moons.ipynb")
               + "?delay=0.05&student=fresh_length")
    wait_settled(page)
    length = page.locator(".mc-length")
    assert length.inner_text().startswith("Short game: first to 3")
    button = length.locator("button")
    assert button.inner_text().strip() == "Play a full game instead (first to 10)"
    assert button.evaluate("e => e.scrollWidth <= e.clientWidth")  # its label is not cut off
    rendered = render_number(page)
    button.click()
    wait_settled(page, rendered)
    assert page.locator(".mc-length").inner_text().startswith("Full game: first to 10")
    assert page.locator(".mc-turn").first.inner_text() in ("Your turn",
                                                            "Player 2 (bot) is playing…")
