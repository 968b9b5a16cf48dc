"""The keyboard-only game and the small screen (issue 14 item 6).

A whole short Suns to Moons game (first to 3 points) against a bot by key presses
only: Tab to reach the hand once, then Enter on whatever the table has focused
after each move (the first enabled card, the first sign after a card is picked,
the primary button when no card can be played). No click, and no focus set by the
test: the table moves the focus itself, so every move after the first costs at
most two key presses. And on a 390x844 phone the hand, the move buttons and the
last move's equation fit the first screen with no label cut off.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mathcards.games.registry import make_game
from mathcards.saves import deal_code
from mathcards.table import short_setting
from tests.browser.test_game_pages import open_table, render_number, wait_settled

# a short game: first to 3 points, as the class link's "short game" deals it
SHORT = {"num_players": 2, **dict([short_setting("suns_to_moons")])}
PLAYABLE = ".mc-hand .mc-cardbtn:enabled, .mc-choices .mc-choice:enabled"
FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || !e.closest('.mathcards') || !e.matches('button:enabled')) return null;
    return {card: !!e.closest('.mc-hand'), text: e.innerText.trim(),
            primary: e.classList.contains('mc-primary'), visible: e.checkVisibility()};
}"""
SHOWS_FOCUS = """() => {
    const e = document.activeElement, s = getComputedStyle(e);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
}"""


def short_game_url(server, seed: int, delay: float = 0.05, seats: str = "") -> str:
    code = deal_code(make_game("suns_to_moons", **SHORT), seed)
    extra = f"&seats={seats}" if seats else ""
    # "Show me the sums": these tests play by the signs' keys alone (I count: test_asking)
    return (server.page("play_suns_to_moons.ipynb")
            + f"?deal={code}&delay={delay}&student=guest{extra}&level=show")


def move_count(page) -> int:
    return int(page.locator(".mc-sync").first.get_attribute("data-move"))


def game_over(page) -> bool:
    return page.locator(".mc-status:has-text('Game over')").count() > 0


def wait_for_focus(page, timeout: float = 30_000) -> dict:
    """What the table focused once it is settled: a card of the hand or a button."""
    wait_settled(page, timeout=timeout)
    page.wait_for_function(f"() => ({FOCUSED})() !== null || "
                           "document.querySelector('.mc-status')?.innerText.includes('Game over')",
                           timeout=timeout)
    return page.evaluate(FOCUSED)


def press(page, key: str) -> None:
    """One key press, then wait until the table has redrawn after it."""
    rendered = render_number(page)
    page.keyboard.press(key)
    wait_settled(page, rendered)


def test_a_whole_short_game_by_keys_at_most_two_presses_a_move(voila_server, page):
    # against the random bot: the strong one can win three rounds before the student has
    # made three moves, which would show little of the student's key presses
    open_table(page, short_game_url(voila_server, seed=23, seats="human,random"))
    assert "first to 3 points" in page.locator(".mc-board").inner_text()
    # the first move: Tab from the top of the page to the first card of the hand
    presses_per_move: list[int] = []
    next_round_presses = 0  # Enter on "Next round" after a round won (not a move)
    tabs = 0
    while not page.evaluate(FOCUSED) or not page.evaluate(FOCUSED)["card"]:
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs < 40, "Tab never reached the hand"
    with contextlib.suppress(PlaywrightTimeout):  # the outline may follow a redraw
        page.wait_for_function(SHOWS_FOCUS, timeout=5_000)
    if not page.evaluate(SHOWS_FOCUS):  # focused by the table before any key press: the
        # browser draws :focus-visible once the keyboard is used; Tab away and back
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        tabs += 2
    assert page.evaluate(SHOWS_FOCUS), "the focused card shows no focus outline"
    presses = tabs
    picked = False  # the last Enter picked a card (no move yet)
    while True:
        focus = wait_for_focus(page)
        if focus is None or game_over(page):  # over: the focus may go to "New game"
            assert game_over(page), focus
            break
        assert focus["visible"], focus
        if not picked:  # at the start and after a move: the focus is on the hand
            hand_playable = page.locator(".mc-hand .mc-cardbtn:enabled").count() > 0
            assert focus["card"] or (not hand_playable and focus["primary"]) or focus["text"] in (
                "End turn (no second card)", "Pass"), f"after a move the focus is on {focus}"
        else:  # a card was just picked: its first sign is focused (the table sends the
            # focus after the redraw's marker: wait for it to arrive, not for a clock)
            with contextlib.suppress(PlaywrightTimeout):  # the assertion says where it is
                page.wait_for_function(
                    f"() => ({FOCUSED})()?.text.includes('→')", timeout=10_000)
            focus = page.evaluate(FOCUSED)
            assert focus and "→" in focus["text"], f"after picking a card the focus is on {focus}"
        mine = move_count(page)
        next_round = focus["text"] == "Next round"  # the round's moment, held for us
        assert not next_round or focus["primary"], focus
        press(page, "Enter")
        assert not page.locator(".mc-refused").count(), page.locator(".mc-refused").inner_text()
        picked = page.locator(".mc-hand .mc-cardbtn.mc-selected").count() > 0
        if next_round:  # one press a round, not a move's (the bot may move right after it)
            next_round_presses += 1
            continue
        presses += 1
        if move_count(page) != mine:  # the move is made (the bot may have answered already)
            presses_per_move.append(presses)
            presses = 0
            assert len(presses_per_move) < 200, "the game did not end"
        else:
            assert picked, f"Enter on {focus} neither moved nor picked a card"
    status = page.locator(".mc-status").first.inner_text()
    assert "Game over" in status and "wins" in status
    assert re.search(r"Scores: .* 3\b", status), status  # first to 3 points
    print(f"key presses per move: {presses_per_move}; Next round: {next_round_presses}")
    assert len(presses_per_move) >= 3
    # first to 3: at least two rounds were won before the last, each held for "Next round"
    assert next_round_presses >= 2, next_round_presses
    assert max(presses_per_move[1:]) <= 2, presses_per_move
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


@pytest.fixture
def phone(browser):
    """A 390x844 page (a phone held upright), closed as the shared ``page`` fixture is."""
    from tests.browser.conftest import ConsoleLog

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    log = ConsoleLog()
    page.on("console", log.on_console)
    page.on("pageerror", log.on_page_error)
    page.console_errors = log.errors
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        page.close(run_before_unload=True)
        context.close()


BOXES = """() => {
    const box = (sel) => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility())
        .map(e => { const r = e.getBoundingClientRect();
                    return {sel, text: e.innerText.slice(0, 40), top: r.top + scrollY,
                            bottom: r.bottom + scrollY, left: r.left, right: r.right}; });
    return [...box('.mc-hand .mc-cardbtn'), ...box('.mc-choices .mc-choice'),
            ...box('.mc-explain .mc-math').slice(0, 1)];
}"""
TOP = """() => document.querySelectorAll('*').forEach(e => {
    if (e.scrollTop) e.scrollTop = 0; if (e.scrollLeft) e.scrollLeft = 0; })"""
# every running animation or transition finished (a picked card rises)
SETTLED = "() => Promise.all(document.getAnimations().map(a => a.finished))"
# the deck grown to n cards by drawing its own cards again, and the deck's rows and last card
CROWD_DECK = """(n) => {
    const deck = document.querySelector('.mc-deck');
    const played = [...deck.querySelectorAll(':scope > .mc-played')];
    for (let i = played.length; i < n; i++)
        deck.appendChild(played[i % played.length].cloneNode(true));
}"""
DECK = """() => {
    const deck = document.querySelector('.mc-deck');
    const played = [...deck.querySelectorAll(':scope > .mc-played')];
    const box = e => { const r = e.getBoundingClientRect();
                       return {top: r.top, bottom: r.bottom, right: r.right}; };
    const lowest = Math.min(...played.map(p => box(p).bottom));
    return {cards: played.length, rows: played.some(p => box(p).top >= lowest) ? 2 : 1,
            last: box(played.at(-1).querySelector('.mc-card')), box: box(deck)};
}"""
CUT = """() => [...document.querySelectorAll('.mathcards button')]
    .filter(b => b.checkVisibility() && b.scrollWidth > b.clientWidth + 1)
    .map(b => `${b.innerText} (${b.scrollWidth} > ${b.clientWidth})`)"""
NO_OUTLINE = """() => {
    const e = document.activeElement, s = getComputedStyle(e);
    return {inside: !!e.closest('.mathcards'), tag: e.tagName,
            name: e.innerText || e.getAttribute('aria-label') || e.placeholder || '',
            outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};
}"""


def test_at_390_px_the_hand_the_moves_and_the_equation_fit_the_first_screen(voila_server,
                                                                           phone):
    page = phone
    open_table(page, short_game_url(voila_server, seed=31, delay=0.05))
    # every control of the table is reached by Tab and shows where the focus is
    reached, missing_outline = [], []
    for _ in range(80):
        page.keyboard.press("Tab")
        focus = page.evaluate(NO_OUTLINE)
        if focus["inside"]:
            reached.append(focus["name"])
            if not focus["outline"]:
                missing_outline.append(focus)
    assert not missing_outline, missing_outline
    names = " | ".join(reached)
    for control in ("of ", "Play typed move", "Hint: nudge", "New game", "Deal this code"):
        assert control in names, f"Tab never reached {control!r}: {names}"
    # a move by keys (the hand is focused after it), then a card picked: signs shown
    while not page.evaluate(FOCUSED) or not page.evaluate(FOCUSED)["card"]:
        page.keyboard.press("Tab")
    while True:
        mine = move_count(page)
        press(page, "Enter")
        if move_count(page) > mine:
            break
    for _ in range(6):  # pick a card by keys until its signs show (a sign is focused)
        focus = wait_for_focus(page)
        assert focus, "nothing focused"
        # "Next round" (the bot won the round) starts the next; a Joker is played at once
        assert focus["card"] or focus["text"] == "Next round", focus
        press(page, "Enter")
        if focus["card"] and "oker" not in focus["text"]:
            page.wait_for_function(f"() => ({FOCUSED})()?.text.includes('→')")
            break
    else:
        pytest.fail("no card's signs were shown after six presses")
    page.evaluate(TOP)  # the first screen: every scrolled box back at its top
    page.evaluate(SETTLED)
    boxes = page.evaluate(BOXES)
    kinds = {b["sel"] for b in boxes}
    assert kinds == {".mc-hand .mc-cardbtn", ".mc-choices .mc-choice",
                     ".mc-explain .mc-math"}, boxes
    low = [b for b in boxes if b["bottom"] > 844 or b["right"] > 390]
    assert not low, f"below the first screen or cut at the right: {low}"
    assert not page.evaluate(CUT), page.evaluate(CUT)
    # a long round: twelve cards on the deck (the view's own cards, drawn again) stay one
    # row, the last card whole, so the hand, the moves and the equation stay where they
    # were (CI at 2eb5402: a round with more cards wrapped the deck onto a second row and
    # pushed the equation to y = 862-882)
    page.evaluate(CROWD_DECK, 12)
    page.evaluate(SETTLED)
    crowded = page.evaluate(BOXES)
    moved = [(b, c) for b, c in zip(boxes, crowded, strict=True) if abs(c["top"] - b["top"]) > 6]
    assert not moved, f"a crowded deck moved these: {moved}"
    deck = page.evaluate(DECK)
    assert deck["cards"] == 12 and deck["rows"] == 1, deck
    assert deck["last"]["right"] <= min(deck["box"]["right"], 390) + 0.5, deck
