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


def _open(context, url: str):
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    wait_visible(page, ".mathcards .mc-rooms button, .mathcards button.mc-resume")
    return page


# one read of a screen, all at once: the hidden marker (drawn last on each redraw: the
# room, the move number, whether the other screen is to move), the enabled controls and
# the game-over line
SCREEN = """(playable) => {
    const s = document.querySelector('.mc-sync');
    return !s ? null : {
        room: s.dataset.room || '', move: Number(s.dataset.move), busy: s.dataset.busy === '1',
        playable: document.querySelectorAll(playable).length,
        over: [...document.querySelectorAll('.mc-status')].some(
            e => e.textContent.includes('Game over'))};
}"""


def _screen(page) -> dict:
    return page.evaluate(SCREEN, PLAYABLE) or {"room": "", "move": -1, "busy": True,
                                               "playable": 0, "over": False}


def _wait_for_move(page, room: str, move: int) -> None:
    """Until the page's last redraw is the room's game at ``move`` or later (the page's
    poll brings the other screen's move within about 0.15 s)."""
    page.wait_for_function(
        """([room, move]) => { const s = document.querySelector('.mc-sync');
            return !!s && s.dataset.room === room && Number(s.dataset.move) >= move; }""",
        arg=[room, move], timeout=30_000)


def _hand(page) -> list[str]:
    return sorted(page.locator(".mc-hand .mc-cardbtn:not(.mc-hide)").all_inner_texts())


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
        ana = _open(ana_ctx, f"{url}?student=Ana_rooms&deal={code}&delay=0&level=show")
        ana.get_by_role("button", name="Make a room").click()
        room = ana.locator(".mc-rooms [data-room]").first
        room.wait_for(state="visible", timeout=30_000)
        room_code = room.get_attribute("data-room")
        assert re.fullmatch(r"[A-Z0-9]{5}", room_code)

        ben = _open(ben_ctx, f"{url}?student=Ben&room={room_code}&level=show")
        ben.locator(".mc-rooms", has_text=f"seat 2 of room {room_code}").wait_for()
        ana.locator(".mc-rooms", has_text="Ben").wait_for(timeout=30_000)  # by polling
        ana.get_by_role("button", name="Start the room's game").click()
        for page in (ana, ben):
            page.locator(f".mc-header [data-room='{room_code}']").wait_for(timeout=30_000)
            assert not page.locator(".mc-header [data-deal]").count()  # the deal stays secret

        rng = random.Random(7)
        moves = reloaded = 0
        pages = {"ana": ana, "ben": ben}
        while True:
            screens = {name: _screen(p) for name, p in pages.items()}
            if all(s["over"] for s in screens.values()):
                break
            latest = max((s["move"] for s in screens.values() if s["room"] == room_code),
                         default=0)
            behind = [name for name, s in screens.items()
                      if s["room"] != room_code or s["move"] < latest]
            if behind:
                # a redraw on its way: the room's first one after the start (before it the
                # screen showed its own game), or the other screen's move, by polling
                for name in behind:
                    _wait_for_move(pages[name], room_code, latest)
                continue
            # both screens show the room's game after the same moves: one is to play
            to_play = [name for name, s in screens.items() if not s["busy"] and not s["over"]]
            assert len(to_play) == 1, f"both screens (or none) offer move {latest + 1}: {screens}"
            name = to_play[0]
            if not screens[name]["playable"]:  # its buttons' views are still being drawn
                pages[name].wait_for_function(
                    "(sel) => document.querySelectorAll(sel).length > 0", arg=PLAYABLE,
                    timeout=30_000)
                continue
            if moves >= 6 and not reloaded:  # halfway: Ben reloads, at a quiet moment
                hand = _hand(ben)
                ben.reload()
                ben.locator(".mc-status", has_text="Welcome back to room").wait_for(
                    timeout=120_000)
                _wait_for_move(ben, room_code, latest)
                assert _hand(ben) == hand
                reloaded = 1
                continue
            _click_one(pages[name], rng)
            moves += 1
            assert moves < 400, "the game did not end"
        assert reloaded and moves > 6
        # the same scores on both screens (each says "your" of its own seat's words)
        scores = [re.findall(r"(\w+)(?: \(you\))?: (\d+)",
                             p.locator(".mc-scores").inner_text()) for p in (ana, ben)]
        assert scores[0] == scores[1] and len(scores[0]) == 2, scores
    finally:
        for ctx in (ana_ctx, ben_ctx):
            for p in ctx.pages:
                p.close(run_before_unload=True)
            ctx.close()
