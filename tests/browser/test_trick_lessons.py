"""The guided trick lessons and the practice page in a real browser, at 1280, 768, 390 px.

As tests/browser/test_card_sizes.py measures the tables: at 1280 px every card of
the hand is at least 72×100 px; at 768 and 390 px the cards are scaled down, never
cropped (wholly inside the window, their face not cut off inside the button); no
visible button's label is cut off. The guided hand's trick is drawn as card faces
and "done putting cards down" shows as a button when it is legal. Screenshots go
to docs/screenshots/<page>_<width>.png. One page at a time.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_for_rendered
from tests.browser.test_card_sizes import (
    CUT_OFF_BUTTONS,
    MEASURE_CARDS,
    WIDTHS,
    assert_cards_read_and_fit,
)
from tests.browser.test_game_pages import SCREENSHOTS, wait_visible

pytestmark = pytest.mark.browser

GUIDED = ".mc-guided"
GUIDED_HAND = f"{GUIDED} .mc-hand .mc-cardbtn:not(.mc-hide)"
LESSONS = {"shoot_the_moon": "shoot_the_moon.ipynb",
           "moons_and_planets": "moons_and_planets.ipynb"}
PRACTICE_CARDS = ".mc-ex-cards .mc-card, .mc-hand .mc-cardbtn:not(.mc-hide)"

# every face drawn in the first guided hand's trick and prizes: box and the window's width
MEASURE_FACES = """(sel) => [...document.querySelectorAll(sel)]
    .filter(e => e.checkVisibility())
    .map(e => { const r = e.getBoundingClientRect();
        return {name: e.getAttribute('aria-label'), left: r.left, right: r.right,
                width: r.width, height: r.height,
                viewport: document.documentElement.clientWidth}; })"""


def first_guided_only(page) -> list[dict]:
    """The hand's cards of the first guided hand on the page (each lesson has two)."""
    scoped = MEASURE_CARDS.replace("document.querySelectorAll(sel)",
                                   "document.querySelector('.mc-guided').querySelectorAll(sel)")
    return page.evaluate(scoped, ".mc-hand .mc-cardbtn:not(.mc-hide)")


def play_into_a_trick(page) -> None:
    """Play the first guided hand on until a trick shows two cards or more (the bots'
    answers to the student's card): first "done putting cards down" and a prize turned up
    (Moons and Planets), whatever the first enabled move button is."""
    first = page.locator(GUIDED).first
    drawn = first.locator(".mc-trick .mc-played[aria-label]")
    for _ in range(15):
        if drawn.count() >= 2:
            return
        cards = first.locator(".mc-hand .mc-cardbtn:enabled")
        moves = first.locator(".mc-guided-moves button:enabled")
        if cards.count():
            cards.first.click()
        elif moves.count():
            moves.first.click()  # "done putting cards down", or turn prize 1 face up
        page.wait_for_timeout(1_500)  # the bots' cards, a pause apart
    raise AssertionError("no trick with the bots' cards was drawn")


def screenshot(page, name: str, width: int, selector: str) -> None:
    # the page scrolls inside Voilà's own box: bring the table to the top of the picture
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}_{width}.png"))


@pytest.mark.parametrize("width", list(WIDTHS), ids=lambda w: f"{w}px")
@pytest.mark.parametrize("lesson", list(LESSONS))
def test_guided_trick_lesson_cards_read_at_a_glance_and_fit(voila_server, page, lesson,
                                                            width):
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    page.goto(voila_server.page(LESSONS[lesson]), timeout=120_000)
    wait_for_rendered(page)
    wait_visible(page, GUIDED_HAND)
    # the student's turn: a card to play, or (Moons and Planets) "done putting cards down"
    wait_visible(page, f"{GUIDED} .mc-hand .mc-cardbtn:enabled, {GUIDED} .mc-done")
    cards = first_guided_only(page)
    assert len(cards) >= 5, f"the hand shows {len(cards)} cards"
    print(f"{lesson} lesson at {width} px: cards", sorted({(c["width"], c["height"])
                                                          for c in cards}))
    assert_cards_read_and_fit(cards, width)
    # the trick (or where it will be) and the guide's sentence are on the table
    assert page.locator(f"{GUIDED} .mc-trick-zone").first.is_visible()
    assert "Guide:" in page.locator(f"{GUIDED} .mc-says").first.inner_text()
    if lesson == "moons_and_planets":  # the lesson's deal opens with cards to put down
        done = page.locator(f"{GUIDED} .mc-done").first
        assert done.is_visible() and done.inner_text().strip() == "done putting cards down"
        assert page.locator(f"{GUIDED} .mc-prize-zone").count() >= 1
    else:
        assert "chips" in page.locator(f"{GUIDED} .mc-prize-zone").first.inner_text()
    faces = page.evaluate(MEASURE_FACES, f"{GUIDED} .mc-trick .mc-card")
    for face in faces:
        assert face["left"] >= 0 and face["right"] <= face["viewport"], face
    cut = page.evaluate(CUT_OFF_BUTTONS)
    assert not cut, f"cut-off button labels at {width} px: {cut}"
    play_into_a_trick(page)
    faces = page.evaluate(MEASURE_FACES, f"{GUIDED} .mc-trick .mc-card")
    assert faces, "no card drawn in the trick"
    for face in faces:
        assert face["left"] >= 0 and face["right"] <= face["viewport"], face
    cut = page.evaluate(CUT_OFF_BUTTONS)
    assert not cut, f"cut-off button labels at {width} px: {cut}"
    screenshot(page, f"{lesson}_lesson", width, GUIDED)
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


def test_a_guided_card_click_plays_and_the_trick_shows_it(voila_server, page):
    """Click a playable card of the Shoot the Moon guided hand: it is drawn in the trick
    (or the last trick), and the hand has one card fewer."""
    page.goto(voila_server.page(LESSONS["shoot_the_moon"]), timeout=120_000)
    wait_for_rendered(page)
    playable = page.locator(GUIDED).first.locator(".mc-hand .mc-cardbtn:enabled").first
    playable.wait_for(state="visible", timeout=120_000)
    name = playable.inner_text().strip()
    before = page.locator(GUIDED_HAND).first.evaluate(
        "(e, sel) => e.closest('.mc-guided').querySelectorAll(sel).length",
        ".mc-hand .mc-cardbtn:not(.mc-hide)")
    playable.click()
    page.wait_for_function(
        """(name) => [...document.querySelector('.mc-guided').querySelectorAll(
                '.mc-trick .mc-played')].some(e => (e.getAttribute('aria-label') || '')
                .startsWith(name + ', played by you'))""", arg=name, timeout=30_000)
    # the hand's row is redrawn just after the trick: one card fewer
    page.wait_for_function(
        "(n) => document.querySelector('.mc-guided')"
        ".querySelectorAll('.mc-hand .mc-cardbtn:not(.mc-hide)').length === n",
        arg=before - 1, timeout=30_000)
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


@pytest.mark.parametrize("width", list(WIDTHS), ids=lambda w: f"{w}px")
def test_practice_page_cards_read_at_a_glance_and_fit(voila_server, page, width):
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    # a name per page: each page is another browser, and a name is its first browser's
    page.goto(voila_server.page("practice.ipynb") + f"?set=sums&student=cards{width}",
              timeout=120_000)
    wait_for_rendered(page)
    wait_visible(page, ".mc-hand .mc-cardbtn:not(.mc-hide)")
    cards = page.evaluate(MEASURE_CARDS, PRACTICE_CARDS)
    assert len(cards) >= 3, f"the page shows {len(cards)} cards"
    print(f"practice at {width} px: cards", sorted({(c["width"], c["height"]) for c in cards}))
    assert_cards_read_and_fit(cards, width)
    cut = page.evaluate(CUT_OFF_BUTTONS)
    assert not cut, f"cut-off button labels at {width} px: {cut}"
    screenshot(page, "practice", width, ".mc-ex-prompt")
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors
