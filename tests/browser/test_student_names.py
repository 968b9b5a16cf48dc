"""A ``?student=`` name belongs to the browser that first used it (issue 26 item 8).

Two browser contexts are two browsers, each with its own cookie jar (its own
Voilà identity cookie). Zoe has a saved Sums game and an answer on the practice
page; her browser opens both pages with ``?student=zoe`` and gets them. Another
browser asking for ``ZOE`` (or full-width ``ｚｏｅ``) is told in one line that the
name is taken and asked for another (issue 28), and sees neither her saved game nor her
answers.
"""

from __future__ import annotations

import random

import pytest

from mathcards.exercises import ProgressStore, load_set
from mathcards.exercises.progress import default_progress_path
from mathcards.games.registry import make_game
from mathcards.saves import save_table
from tests.browser.server import LESSONS
from tests.browser.test_game_pages import PLAYABLE, wait_visible

pytestmark = pytest.mark.browser
TAKEN = "the name"  # the refusal: "the name 'ZOE' is taken on this server by another browser…"


@pytest.fixture
def zoe_was_here(voila_server, monkeypatch):
    """Zoe's saved Sums game (3 moves) and one wrong answer to the Sums set's first
    exercise, in the server's data folder."""
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(voila_server.state_dir / "mathcards_data"))
    monkeypatch.delenv("MATHCARDS_PROGRESS", raising=False)
    state = make_game("sums", num_players=2).new_game(seed=11)
    rng = random.Random(11)
    for _ in range(3):
        state = state.apply(rng.choice(state.legal_actions()))
    save_table(state, ("human", "strong"), slot="zoe")
    store = ProgressStore(default_progress_path())
    try:
        result = load_set(LESSONS / "exercises" / "sums.yaml").session(
            "zoe", store=store).check(1, "9S")
        assert not result.correct
    finally:
        store.close()


def _open(context, url: str, ready: str):
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, timeout=120_000)
    wait_visible(page, ready)
    return page


def test_a_name_is_its_first_browsers_and_another_browser_gets_nothing_of_it(
        voila_server, browser, zoe_was_here):
    play = voila_server.page("play_sums.ipynb") + "?delay=0.05&student="
    practice = voila_server.page("practice.ipynb") + "?set=sums&student="
    zoe_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    other_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    pages = []
    try:
        # Zoe's browser: the first to use the name; her saved game and her answer are hers
        page = _open(zoe_ctx, play + "zoe", ".mathcards button.mc-resume")
        pages.append(page)
        assert "Playing as zoe" in page.locator(".mc-header").first.inner_text()
        text = page.locator(".mathcards").first.inner_text()
        assert "You have a saved Sums game (3 moves" in text
        page = _open(zoe_ctx, practice + "zoe", ".mc-ex-choice, .mc-hand .mc-cardbtn")
        pages.append(page)
        page.get_by_text("Student: zoe").first.wait_for()
        page.locator("tr.mc-attempt").first.wait_for()

        # another browser with her name, in capitals: one line, and the page asks for
        # another name (issue 28: nothing played as the guest silently); nothing of hers
        page = _open(other_ctx, play + "ZOE", ".mc-name-picker")
        pages.append(page)
        refusal = page.locator(".mc-refused", has_text=TAKEN).first
        refusal.wait_for()
        line = refusal.inner_text()
        assert "taken on this server" in line and "teacher" in line and "\n" not in line.strip()
        text = page.locator("#rendered_cells").inner_text()
        assert "You have a saved" not in text and not page.locator(".mc-header").count()
        assert not page.locator(f"{PLAYABLE}, .mathcards button.mc-resume").count()

        # and on the practice page, full-width: no set under her name, none of her answers
        page = _open(other_ctx, practice + "ｚｏｅ", ".mc-refused")
        pages.append(page)
        text = page.locator("#rendered_cells").inner_text()
        assert "taken on this server" in text
        assert "Student: zoe" not in text and not page.locator("tr.mc-attempt").count()
        assert not page.locator(".mc-ex-choice, .mc-hand .mc-cardbtn").count()

        # Zoe's browser still has her name (a reload)
        page = _open(zoe_ctx, play + "Zoe", ".mathcards button.mc-resume")
        pages.append(page)
        assert not page.locator(".mc-refused", has_text=TAKEN).count()
    finally:
        for page in pages:
            page.close(run_before_unload=True)
        zoe_ctx.close()
        other_ctx.close()
