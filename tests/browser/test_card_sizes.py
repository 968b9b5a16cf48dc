"""Cards that read at a glance: the hand's cards measured in a real browser.

At a 1280 px wide window every card of the hand is at least 72×100 px (big
enough to read from a chair); at 768 and 390 px the cards are scaled down,
never cropped: each lies wholly inside the window and its face (rank and suit,
drawn inside the button) is not cut off. No visible button's label is cut off
at any width. A selected card is raised, drawn in full colour and not clipped
by the hand's box. Screenshots go to docs/screenshots/<page>_<width>.png.
"""

from __future__ import annotations

import contextlib
import uuid

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.test_game_pages import (
    SCREENSHOTS,
    open_table,
    page_url,
    wait_settled,
)
from tests.registered import card_tables, trick_tables

pytestmark = pytest.mark.browser

WIDTHS = {1280: 800, 768: 1024, 390: 844}  # viewport width -> height
TRICK_TABLES = trick_tables()
PAGES = [*card_tables(), *TRICK_TABLES]
HAND = ".mc-hand .mc-cardbtn:not(.mc-hide)"

# Every visible card of the hand: its box, its own width/scroll width, and the window's.
MEASURE_CARDS = """(sel) => [...document.querySelectorAll(sel)]
    .filter(e => e.checkVisibility())
    .map(e => { const r = e.getBoundingClientRect();
        return {name: e.textContent.trim(), left: r.left, right: r.right, top: r.top,
                width: r.width, height: r.height, scrollWidth: e.scrollWidth,
                clientWidth: e.clientWidth, scrollHeight: e.scrollHeight,
                clientHeight: e.clientHeight, viewport: document.documentElement.clientWidth}; })"""

# Every visible button whose label overflows its box (a cut-off label).
CUT_OFF_BUTTONS = """() => [...document.querySelectorAll('button')]
    .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth)
    .map(e => `${e.textContent.trim() || e.title}: ${e.scrollWidth} > ${e.clientWidth}`)"""


def table_url(server, game: str) -> str:
    """The arithmetic tables from the game pages' deal codes; the trick games' free play
    as a student opens it (their deals are secret: a code would show every hand)."""
    # a name of its own: the shared guest's saved game (left by an earlier test on the
    # same server) would put the "Resume my saved game" offer above the table
    student = f"fit{uuid.uuid4().hex[:8]}"
    if game in TRICK_TABLES:
        return server.page(f"play_{game}.ipynb") + f"?delay=0.05&student={student}"
    return page_url(server, game, delay=0.05, student=student)


def assert_cards_read_and_fit(cards: list[dict], width: int) -> None:
    """Each measured card at least 72×100 px at 1280 px, scaled down below it; wholly
    inside the window, its face not cut off inside it, a card's shape (about 5 by 7)."""
    for card in cards:
        where = f"{card['name']} at {width} px: {card}"
        if width >= 1280:
            assert card["width"] >= 72 and card["height"] >= 100, where
        assert card["left"] >= 0 and card["right"] <= card["viewport"], where
        assert card["scrollWidth"] <= card["clientWidth"], where
        assert card["scrollHeight"] <= card["clientHeight"], where
        assert 1.25 <= card["height"] / card["width"] <= 1.5, where
        if width < 1280:  # scaled down to fit more cards in a row
            assert card["width"] < 72, where


def measure_hand(page) -> list[dict]:
    return page.evaluate(MEASURE_CARDS, HAND)


@pytest.mark.parametrize("width", list(WIDTHS), ids=lambda w: f"{w}px")
@pytest.mark.parametrize("game", PAGES)
def test_hand_cards_read_at_a_glance_and_are_never_cropped(voila_server, page, game, width):
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    open_table(page, table_url(voila_server, game))
    wait_settled(page)
    cards = measure_hand(page)
    for _ in range(4):  # Dice Stacks deals no hand: the first move draws one (roll, draw)
        if len(cards) >= 3:
            break
        render = int(page.locator(".mc-sync").first.get_attribute("data-render"))
        page.locator(".mc-choices .mc-choice:enabled").first.click()
        wait_settled(page, render)
        cards = measure_hand(page)
    # Dice Stacks draws the smaller die's number of cards: its first hand may be small
    assert len(cards) >= (1 if game == "dice_stacks" else 3), f"the hand shows {len(cards)} cards"
    assert_cards_read_and_fit(cards, width)
    cut = page.evaluate(CUT_OFF_BUTTONS)
    assert not cut, f"cut-off button labels at {width} px: {cut}"
    # the page scrolls inside Voilà's own box: bring the hand into the picture
    page.locator(HAND).last.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}_{width}.png"))
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


def test_a_selected_card_is_raised_in_full_colour_and_not_clipped(voila_server, page):
    open_table(page, page_url(voila_server, "suns_to_moons", delay=0.05))
    wait_settled(page)
    render = int(page.locator(".mc-sync").first.get_attribute("data-render"))
    page.locator(".mc-hand .mc-cardbtn:enabled").first.click()
    wait_settled(page, render)
    selected = page.locator(".mc-hand .mc-cardbtn.mc-selected")
    selected.wait_for(state="visible")
    # the raise is a 0.12 s transition: measure once it has ended (not raised at all: the
    # wait gives up after 5 s and the measurement below says so)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("""() => {
            const s = document.querySelector('.mc-hand .mc-cardbtn.mc-selected');
            return s && getComputedStyle(s).transform !== 'none'
                && !s.getAnimations().some(a => a.playState === 'running');
        }""", timeout=5_000)
    found = page.evaluate("""() => {
        const s = document.querySelector('.mc-hand .mc-cardbtn.mc-selected');
        const others = [...document.querySelectorAll('.mc-hand .mc-cardbtn')]
            .filter(e => e !== s && e.checkVisibility());
        const style = getComputedStyle(s);
        const r = s.getBoundingClientRect();
        // the nearest ancestor that clips (overflow other than visible)
        let clip = null;
        for (let e = s.parentElement; e && e !== document.body; e = e.parentElement) {
            const o = getComputedStyle(e);
            if (o.overflowX !== 'visible' || o.overflowY !== 'visible') {
                clip = e.getBoundingClientRect(); break; }
        }
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                othersTop: Math.min(...others.map(e => e.getBoundingClientRect().top)),
                opacity: Number(style.opacity), filter: style.filter,
                clip: clip && {top: clip.top, bottom: clip.bottom,
                               left: clip.left, right: clip.right}};
    }""")
    assert found["top"] < found["othersTop"], f"the selected card is not raised: {found}"
    assert found["opacity"] == 1 and found["filter"] in ("none", ""), found
    clip = found["clip"]
    if clip is not None:
        assert (clip["top"] <= found["top"] and found["bottom"] <= clip["bottom"]
                and clip["left"] <= found["left"] and found["right"] <= clip["right"]), (
            f"the selected card is clipped by its box: {found}")
