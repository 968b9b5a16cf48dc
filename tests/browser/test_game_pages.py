"""The play pages in a real browser: whole games by clicks and keys, against Voilà.

Each page is opened with a short deal (a deal code in the address) and a
short visible bot pause, played to its end, and photographed into
docs/screenshots/ (linked from the README).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mathcards.games.registry import make_game
from mathcards.widgets.saves import deal_code

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PLAYABLE = ".mc-hand .mc-cardbtn:enabled, .mc-choices .mc-choice:enabled"
CARD_NAME = re.compile(
    r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(hearts|diamonds|spades|clubs)$")

GAMES = {
    # short games: target score 1; 8 small piles; (Dice Stacks: few cards)
    "suns_to_moons": dict(num_players=2, target_score=1),
    "sums": dict(num_players=2, piles=8),
    "dice_stacks": dict(num_players=2),
}
SEEDS = {"suns_to_moons": 11, "sums": 5, "dice_stacks": 3}


def page_url(server, game: str, delay: float = 0.05) -> str:
    code = deal_code(make_game(game, **GAMES[game]), SEEDS[game])
    return server.page(f"play_{game}.ipynb") + f"?deal={code}&delay={delay}"


def wait_visible(page, selector: str, timeout: float = 120_000) -> None:
    """Wait until any element matching ``selector`` is visible (not just the first)."""
    page.wait_for_function(
        "(sel) => [...document.querySelectorAll(sel)].some(e => e.checkVisibility())",
        arg=selector, timeout=timeout)


def open_table(page, url: str) -> None:
    """Open a play page and wait until the table can be played (a saved game is declined)."""
    page.goto(url, timeout=120_000)
    wait_visible(page, f"{PLAYABLE}, .mathcards button.mc-resume")
    resume = page.locator(".mathcards button:has-text('Start a new game')")
    if resume.is_visible():
        resume.click()
        wait_visible(page, PLAYABLE)


def move_number(page) -> int:
    return int(page.locator(".mc-header [data-move]").first.get_attribute("data-move"))


def wait_for_my_turn(page, timeout: float = 30.0) -> bool:
    """True when something can be played; False when the game is over."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator(".mc-status:has-text('Game over')").count():
            return False
        if page.locator(PLAYABLE).count():
            return True
        time.sleep(0.05)
    raise AssertionError(f"no playable control within {timeout}s: "
                         f"{page.locator('.mc-status').first.inner_text()}")


def wait_for_change(page, before: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator(".mc-main").first.inner_text() != before:
            return
        time.sleep(0.03)
    raise AssertionError("the table did not change after the click")


def play_whole_game(page, seed: int, max_steps: int = 600) -> int:
    """Click (or press Enter/Space on) playable controls until the game ends."""
    rng = random.Random(seed)
    steps = keys = stale = 0
    while wait_for_my_turn(page):
        controls = page.locator(PLAYABLE)
        labels = controls.all_inner_texts()  # one snapshot: the table may change meanwhile
        choices = [i for i, text in enumerate(labels) if text.strip() != "Back"]
        if not choices:
            continue  # the table is changing under us: look again
        target = controls.nth(rng.choice(choices))
        before = page.locator(".mc-main").first.inner_text()
        try:
            if steps % 2:
                target.focus(timeout=5_000)  # keyboard: Enter or Space presses a button
                page.keyboard.press("Enter" if steps % 4 == 1 else " ")
                keys += 1
            else:
                target.click(timeout=5_000)
        except PlaywrightTimeout:
            stale += 1  # the control went away (a bot moved meanwhile): look again
            assert stale < 20, "controls kept disappearing"
            continue
        wait_for_change(page, before)
        steps += 1
        assert not page.locator(".mc-refused").count(), page.locator(".mc-refused").inner_text()
        assert steps < max_steps, "the game did not end"
    assert keys > 0
    return steps


@pytest.mark.parametrize("game", ["suns_to_moons", "sums"])
def test_whole_game_by_clicks_and_keys(voila_server, page, game):
    open_table(page, page_url(voila_server, game))
    # every card is a button whose spoken name is the card's name
    names = page.get_by_role("button", name=CARD_NAME)
    assert names.count() >= 3
    assert page.locator(".mc-hand .mc-cardbtn").first.get_attribute("title")
    steps = play_whole_game(page, SEEDS[game])
    assert steps > 2
    status = page.locator(".mc-status").first.inner_text()
    assert "Game over" in status and "wins" in status or "tie" in status
    # the explainer shows equations and their text
    text = page.locator(".mc-explain").inner_text()
    assert "Moves so far" in text
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}_game_over.png"), full_page=True)
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


def test_explainer_equation_after_a_move_and_a_refusal_with_its_reason(voila_server, page):
    open_table(page, page_url(voila_server, "suns_to_moons", delay=0.3))
    # a refused move: a card the player does not hold, typed and sent with Enter
    hand = [page.locator(".mc-hand .mc-cardbtn:enabled").nth(i).get_attribute("title")
            for i in range(page.locator(".mc-hand .mc-cardbtn:enabled").count())]
    missing = next(c for c in ("7H", "8S", "9D", "QC", "2H", "KS")
                   if not any(_name(c) in (h or "") for h in hand))
    box = page.locator(".mc-move input")
    box.fill(f"{missing} +")
    box.press("Enter")
    refusal = page.locator(".mc-refused")
    refusal.wait_for(state="visible")
    assert "Not allowed" in refusal.inner_text() and "do not hold" in refusal.inner_text()
    # a move by clicks: a card, then its sign
    start = move_number(page)
    page.locator(".mc-hand .mc-cardbtn:enabled").first.click()
    page.wait_for_function(
        "() => document.querySelector('.mc-hand .mc-selected') || "
        "Number(document.querySelector('.mc-header [data-move]').dataset.move) > " + str(start))
    if move_number(page) == start:
        sign = page.locator(".mc-choices .mc-choice:enabled", has_text=re.compile("→"))
        sign.first.click()
    page.wait_for_function(
        "() => Number(document.querySelector('.mc-header [data-move]').dataset.move) > "
        + str(start))
    step = page.locator(".mc-explain .mc-step").first
    step.wait_for(state="visible")
    # the equation as typeset math and as plain text for screen readers
    page.wait_for_selector(".mc-explain mjx-container, .mc-explain .MathJax", timeout=30_000)
    assert "=" in page.locator(".mc-step-text").inner_text()
    assert page.locator(".mc-numberline svg").count() == 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "suns_to_moons.png"))


def _name(code: str) -> str:
    from mathcards.cards import parse_card

    return parse_card(code).name


def test_resume_after_reload(voila_server, page):
    url = page_url(voila_server, "sums", delay=0.05)
    open_table(page, url)
    page.locator(".mc-choices .mc-choice:enabled").first.click()  # draw from a pile
    page.wait_for_function("() => Number(document.querySelector("
                           "'.mc-header [data-move]').dataset.move) >= 1")
    wait_for_my_turn(page)
    moves = move_number(page)
    page.screenshot(path=str(SCREENSHOTS / "sums.png"))
    page.reload()
    resume = page.locator(".mathcards button:has-text('Resume my saved game')")
    resume.wait_for(state="visible", timeout=120_000)
    assert "saved" in page.locator(".mathcards").first.inner_text()
    resume.click()
    wait_visible(page, PLAYABLE)
    assert move_number(page) == moves
    assert "Welcome back" in page.locator(".mc-status").first.inner_text()


def test_tablet_width_layout(voila_server, browser):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_table(page, page_url(voila_server, "sums"))
        main = page.locator(".mc-main").bounding_box()
        side = page.locator(".mc-side").bounding_box()
        assert side["y"] >= main["y"] + main["height"] - 1  # the explainer moves below
        assert main["width"] <= 768
        # nothing sticks out sideways
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 768 + 1
        page.screenshot(path=str(SCREENSHOTS / "sums_tablet.png"), full_page=True)
    finally:
        page.close(run_before_unload=True)
        context.close()
