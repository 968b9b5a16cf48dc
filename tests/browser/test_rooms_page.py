"""Two students at their own screens play one Sums game through a room, by clicks.

Two browser contexts are two browsers (each has its own Voilà identity cookie,
so its own seat). Ana makes a room from her play page, Ben opens the room's link
(``?room=``), Ana starts, and they play the whole game; halfway through Ben
reloads his page and gets his seat and his hand back.
"""

from __future__ import annotations

import random
import re

import pytest

from mathcards.games.registry import make_game
from mathcards.saves import deal_code
from tests.browser.test_game_pages import PLAYABLE, render_number, wait_visible

pytestmark = pytest.mark.browser

GAME_OVER = ".mc-status:has-text('Game over')"


def _open(context, url: str):
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    wait_visible(page, ".mathcards .mc-rooms button, .mathcards button.mc-resume")
    return page


def _settled(page) -> bool:
    """The page's table is drawn and it is this page's turn (or the game is over)."""
    return bool(page.evaluate(
        "() => { const s = document.querySelector('.mc-sync');"
        " return !!s && s.dataset.busy === '0'; }"))


def _hand(page) -> list[str]:
    return sorted(page.locator(".mc-hand .mc-cardbtn").all_inner_texts())


def _click_one(page, rng) -> None:
    controls = page.locator(PLAYABLE)
    labels = controls.all_inner_texts()
    choices = [i for i, text in enumerate(labels) if text.strip() != "Back"]
    assert choices, "my turn with nothing to click"
    rendered = render_number(page)
    controls.nth(rng.choice(choices)).click(timeout=10_000)
    page.wait_for_function(
        "(after) => Number(document.querySelector('.mc-sync').dataset.render) > after",
        arg=rendered, timeout=30_000)
    assert not page.locator(".mc-refused").count(), page.locator(".mc-refused").inner_text()


def test_two_students_play_a_whole_sums_game_in_a_room_and_a_reload_keeps_the_seat(
        voila_server, browser):
    code = deal_code(make_game("sums", num_players=2, piles=8), 5)
    url = voila_server.page("play_sums.ipynb")
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ben_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        ana = _open(ana_ctx, f"{url}?student=Ana&deal={code}&delay=0")
        ana.get_by_role("button", name="Make a room").click()
        room = ana.locator(".mc-rooms [data-room]").first
        room.wait_for(state="visible", timeout=30_000)
        room_code = room.get_attribute("data-room")
        assert re.fullmatch(r"[A-Z0-9]{5}", room_code)

        ben = _open(ben_ctx, f"{url}?student=Ben&room={room_code}")
        ben.locator(".mc-rooms", has_text=f"seat 2 of room {room_code}").wait_for()
        ana.locator(".mc-rooms", has_text="Ben").wait_for(timeout=30_000)  # by polling
        ana.get_by_role("button", name="Start the room's game").click()
        for page in (ana, ben):
            page.locator(f".mc-header [data-room='{room_code}']").wait_for(timeout=30_000)
            assert not page.locator(".mc-header [data-deal]").count()  # the deal stays secret

        rng = random.Random(7)
        moves = reloaded = 0
        pages = {"ana": ana, "ben": ben}
        while not ana.locator(GAME_OVER).count() or not ben.locator(GAME_OVER).count():
            acting = [name for name, p in pages.items()
                      if _settled(p) and p.locator(PLAYABLE).count()
                      and not p.locator(GAME_OVER).count()]
            if not acting:
                ana.wait_for_timeout(100)  # the other screen's move is on its way
                continue
            if len(acting) > 1:  # a move between the two reads: both settled once more?
                ana.wait_for_timeout(500)
                acting = [name for name, p in pages.items()
                          if _settled(p) and p.locator(PLAYABLE).count()
                          and not p.locator(GAME_OVER).count()]
            assert len(acting) <= 1, "both screens think it is their turn"
            if not acting:
                continue
            _click_one(pages[acting[0]], rng)
            moves += 1
            assert moves < 400, "the game did not end"
            if moves == 6 and not reloaded:
                hand = _hand(ben)
                ben.reload()
                ben.locator(".mc-status", has_text="Welcome back to room").wait_for(
                    timeout=120_000)
                assert _hand(ben) == hand
                reloaded = 1
        assert reloaded and moves > 6
        scores = [p.locator(".mc-scores").inner_text() for p in (ana, ben)]
        assert re.sub(r"\s*\(you\)", "", scores[0]) == re.sub(r"\s*\(you\)", "", scores[1])
    finally:
        for ctx in (ana_ctx, ben_ctx):
            for p in ctx.pages:
                p.close(run_before_unload=True)
            ctx.close()
