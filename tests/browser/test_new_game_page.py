"""A game the scaffold made, on its play page in a real browser (issue 39 item 2).

``tests/test_scaffold.py`` makes ``examples/add_up`` in a copy of the repository; here its
play notebook goes into the copy's ``lessons/`` (what docs/new_game.md says to do to put
it on the pages), a Voilà server serves that folder as ``make play`` does, and Chromium
plays two moves on it: the page registers the game itself, deals, draws its table
and answers clicks, with no other file edited.
"""

from __future__ import annotations

import shutil

import pytest

from tests.browser.server import VoilaServer
from tests.browser.test_game_pages import (
    PLAYABLE,
    render_number,
    wait_for_my_turn,
    wait_settled,
    wait_visible,
)
from tests.test_scaffold import NAME, new_game_in_a_copy


@pytest.fixture(scope="module")
def new_game_server(tmp_path_factory: pytest.TempPathFactory):
    copy = new_game_in_a_copy(tmp_path_factory.mktemp("repository"))
    shutil.copy(copy / "examples" / NAME / f"play_{NAME}.ipynb", copy / "lessons")
    server = VoilaServer(tmp_path_factory.mktemp("voila_state"), root_dir=copy / "lessons")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_new_games_play_page_deals_and_plays(new_game_server, page):
    page.goto(new_game_server.page(f"play_{NAME}.ipynb") + "?delay=0.05&student=guest",
              timeout=120_000)
    wait_visible(page, PLAYABLE)
    board = page.locator(".mc-total").first
    assert board.inner_text() == "Total: 0 of 15"
    for _ in range(2):  # a card of the hand, then (after the bot's answer) another
        assert wait_for_my_turn(page)
        rendered = render_number(page)
        page.locator(".mc-hand .mc-cardbtn:enabled").first.click()
        wait_settled(page, rendered)
        assert not page.locator(".mc-refused").count(), page.locator(".mc-refused").inner_text()
    assert wait_for_my_turn(page)
    log = page.locator(".mathcards").first.inner_text()
    assert "Player 2" in log and "played" in log, log
    assert board.inner_text() != "Total: 0 of 15" or "starts again from 0" in log, log
    assert not page.console_errors, page.console_errors
