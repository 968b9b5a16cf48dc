"""The student's own hand on the first screen, and a move list a phone can read (issue 26
item 17), measured in a real browser against the real play pages.

At 1366×768 (a school Chromebook) the first card of the student's own hand lies wholly on
the first screen of every play page at the start of a game (measured as the page opened,
before any scrolling), and the student's own seat shows no card backs: at most how many
cards it holds (the hand itself is right there, face up). At 390 px the "Moves so far"
list is never cut off sideways: it does not overflow, the last entries' text and their
numbers lie wholly inside the window and the list's visible box, and the list stays a
keyboard stop (it scrolls).
"""

from __future__ import annotations

import pytest

from mathcards.games.registry import game_specs
from tests.browser.test_card_sizes import HAND, table_url
from tests.browser.test_game_pages import (
    PLAYABLE,
    SCREENSHOTS,
    open_table,
    page_url,
    render_number,
    wait_for_my_turn,
    wait_settled,
)

pytestmark = pytest.mark.browser

CHROMEBOOK = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
PLAY_PAGES = [s.name for s in game_specs() if s.card is not None and s.card.play]

# The first visible card of the hand: its box where it lies with every scroll box scrolled
# back to the top (the first screen), whatever scrolled since (a focused card scrolls).
FIRST_CARD_UNSCROLLED = """(sel) => {
    const card = [...document.querySelectorAll(sel)].find(e => e.checkVisibility());
    if (!card) return null;
    const r = card.getBoundingClientRect();
    let top = r.top;
    for (let e = card.parentElement; e; e = e.parentElement) top += e.scrollTop;
    return {name: card.textContent.trim(), top, height: r.height,
            viewport: document.documentElement.clientHeight};
}"""

# The seats of this screen's own player ("(you)" in its name): their card backs and text;
# and any hidden-hand fan spoken as the student's own ("Player 1 (you) holds 5 cards").
OWN_SEAT = """() => {
    const seats = [...document.querySelectorAll('.mc-board .mc-seat')]
        .filter(s => (s.querySelector('strong')?.textContent || '').includes('(you)'));
    const fans = [...document.querySelectorAll('.mc-board [aria-label]')]
        .filter(e => /\\(you\\) holds/.test(e.getAttribute('aria-label')));
    return {seats: seats.map(s => ({backs: s.querySelectorAll('.mc-back').length,
                                     text: s.textContent.trim()})),
            fans: fans.length,
            allSeats: document.querySelectorAll('.mc-board .mc-seat').length};
}"""

# The move list at its scroll end: its overflow, and each of its last entries' text and
# number (an outside list marker, drawn left of the entry) against the window and the
# list's own visible (clipping) box.
HISTORY = """(last) => {
    const ol = document.querySelector('.mc-history');
    ol.scrollTop = ol.scrollHeight;
    const box = ol.getBoundingClientRect();
    const clipLeft = box.left + ol.clientLeft, clipRight = clipLeft + ol.clientWidth;
    const viewport = document.documentElement.clientWidth;
    const all = [...ol.querySelectorAll('li')];
    const entries = all.slice(-last).map(li => {
        const number = ol.start + all.indexOf(li);
        const text = document.createRange();
        text.selectNodeContents(li);
        const t = text.getBoundingClientRect();
        const style = getComputedStyle(li);
        // the marker's own width, in the entry's font: "12. "
        const probe = document.createElement('span');
        probe.style.font = style.font;
        probe.style.whiteSpace = 'pre';
        probe.textContent = `${number}. `;
        document.body.appendChild(probe);
        const markerWidth = probe.getBoundingClientRect().width;
        probe.remove();
        const liLeft = li.getBoundingClientRect().left;
        const markerLeft = style.listStylePosition === 'outside' && style.listStyleType !== 'none'
            ? liLeft - markerWidth : liLeft;
        return {entry: `${number}. ${li.textContent}`, left: t.left, right: t.right,
                markerLeft};
    });
    return {scrollWidth: ol.scrollWidth, clientWidth: ol.clientWidth, clipLeft, clipRight,
            viewport, entries, count: ol.querySelectorAll('li').length,
            tabIndex: ol.tabIndex};
}"""


def _first_card(page) -> dict | None:
    return page.evaluate(FIRST_CARD_UNSCROLLED, HAND)


@pytest.mark.parametrize("game", PLAY_PAGES)
def test_own_hand_on_the_first_chromebook_screen_and_no_backs_for_it(voila_server, page, game):
    page.set_viewport_size(CHROMEBOOK)
    open_table(page, table_url(voila_server, game))
    wait_settled(page)
    card = _first_card(page)
    for _ in range(4):  # Dice Stacks deals no hand: its first moves (roll, draw) draw one
        if card is not None:
            break
        render = render_number(page)
        page.locator(".mc-choices .mc-choice:enabled").first.click()
        wait_settled(page, render)
        card = _first_card(page)
    assert card is not None, f"{game}: no card in the student's hand"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => document.querySelectorAll('*').forEach(e => { e.scrollTop = 0; })")
    page.screenshot(path=str(SCREENSHOTS / f"{game}_1366x768.png"))
    assert card["viewport"] == CHROMEBOOK["height"]
    assert card["top"] + card["height"] <= CHROMEBOOK["height"], (
        f"{game}: the hand's first card ({card['name']}) spans {card['top']:.0f}–"
        f"{card['top'] + card['height']:.0f} px, below the 768 px first screen")
    own = page.evaluate(OWN_SEAT)
    assert own["fans"] == 0, f"{game}: the student's own hand is drawn as card backs: {own}"
    for seat in own["seats"]:
        assert seat["backs"] == 0, f"{game}: the student's own seat shows card backs: {seat}"
        assert "shown below" in seat["text"], seat
    if own["allSeats"]:  # the seat games draw every seat, the student's included
        assert own["seats"], f"{game}: no seat of the student's: {own}"


def test_moves_so_far_read_whole_on_a_phone(voila_server, page):
    page.set_viewport_size(PHONE)
    open_table(page, page_url(voila_server, "sums"))
    entries = 0
    for _ in range(40):  # play until the list numbers its moves in two digits
        entries = page.locator(".mc-history li").count()
        if entries >= 12 or not wait_for_my_turn(page):
            break
        render = render_number(page)
        page.locator(PLAYABLE).first.click()
        wait_settled(page, render)
        entries = page.locator(".mc-history li").count()
    assert entries >= 10, f"only {entries} moves listed"
    found = page.evaluate(HISTORY, 4)
    assert found["scrollWidth"] <= found["clientWidth"], f"the list overflows sideways: {found}"
    for entry in found["entries"]:
        where = f"{entry} in {found}"
        assert entry["markerLeft"] >= max(0, found["clipLeft"]) - 0.5, f"number cut off: {where}"
        assert entry["left"] >= max(0, found["clipLeft"]) - 0.5, where
        assert entry["right"] <= min(found["viewport"], found["clipRight"]) + 0.5, where
    assert found["tabIndex"] == 0, "the scrolling list is no keyboard stop"
    page.locator(".mc-history").focus()
    assert page.evaluate("() => document.activeElement.classList.contains('mc-history')")
    page.locator(".mc-history").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "moves_so_far_390.png"))


# Every visible Sums choice, the number pad and the help row: their boxes as on the first
# screen (every scroll box scrolled back to the top).
SUMS_CHOICES = """() => {
    document.querySelectorAll('*').forEach(e => { e.scrollTop = 0; });
    const box = e => { const r = e.getBoundingClientRect();
                       return {text: e.textContent.trim(), top: r.top + window.scrollY,
                               bottom: r.bottom + window.scrollY}; };
    const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility());
    return {choices: shown('.mc-main .mc-choices .mc-choice').map(box),
            below: shown('.mc-main .mc-pad, .mc-main .mc-ask-settings').map(box),
            viewport: document.documentElement.clientHeight};
}"""


def test_sums_draws_on_the_first_chromebook_screen_above_the_pad_and_help_row(voila_server, page):
    """Issue 36 item 16: at 1366x768 the Sums draws (eight piles) started at y = 835, under
    the number pad's panel and the help row; now every choice lies on the first screen,
    above them."""
    page.set_viewport_size(CHROMEBOOK)
    open_table(page, table_url(voila_server, "sums"))
    wait_settled(page)
    found = page.evaluate(SUMS_CHOICES)
    assert found["viewport"] == CHROMEBOOK["height"]
    assert len(found["choices"]) >= 2 and all(
        c["text"].startswith("Draw") for c in found["choices"]), found
    assert found["below"], f"no help row: {found}"
    for choice in found["choices"]:
        assert choice["bottom"] <= CHROMEBOOK["height"], f"below the first screen: {found}"
        for other in found["below"]:
            assert choice["bottom"] <= other["top"], f"{choice} under {other}"


def test_sums_claims_on_the_first_chromebook_screen_above_the_pad_and_help_row(voila_server,
                                                                             page):
    """Issue 36 item 16: at "I count" a card chosen to play is a claim, made with buttons
    (the cards in play, + and −, "No capture") and a number pad; the claims sat under the
    pad and the help row. At 1366x768 every claim button lies on the first screen, above
    them."""
    page.set_viewport_size(CHROMEBOOK)
    url = table_url(voila_server, "sums").replace("level=show", "level=count")
    assert "level=count" in url
    open_table(page, url)
    for _ in range(6):  # draw when the table asks for a draw, then choose a card to play
        wait_settled(page)
        if page.locator(".mc-pad").filter(visible=True).count():
            break
        render = render_number(page)
        draws = page.locator(".mc-choices .mc-choice:enabled", has_text="Draw")
        if draws.count():
            draws.first.click()
        else:
            page.locator(".mc-hand .mc-cardbtn:enabled").first.click()
        wait_settled(page, render)
    found = page.evaluate(SUMS_CHOICES)
    texts = [c["text"] for c in found["choices"]]
    assert "No capture" in texts and "+" in texts, found
    assert any(b for b in found["below"]), f"no pad or help row: {found}"
    for choice in found["choices"]:
        assert choice["bottom"] <= CHROMEBOOK["height"], f"below the first screen: {found}"
        for other in found["below"]:
            assert choice["bottom"] <= other["top"], f"{choice} under {other}"
    page.screenshot(path=str(SCREENSHOTS / "sums_claims_1366.png"))
