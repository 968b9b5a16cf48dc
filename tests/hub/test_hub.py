"""MathCards on a real JupyterHub, through the hub's own login page (issue 16 item 3).

Two students log in, land on the landing page under Voilà (their server's
default URL), play a few moves of Sums and answer an exercise. Their saves and
progress are apart and named by their logins (a ``?student=`` in the address
changes nothing), and the teacher's dashboard lists both. One hub for the
module (tests/hub/jupyterhub_config.py); one page at a time.
"""

from __future__ import annotations

import sqlite3

import pytest

from mathcards.games.registry import GAMES
from tests.browser.conftest import wait_for_rendered
from tests.browser.test_game_pages import PLAYABLE, render_number, wait_settled, wait_visible

pytestmark = pytest.mark.browser
SPAWN = 150_000  # ms: a first login starts the user's server (and its first kernel)


def log_in(browser, hub, user: str):
    """A fresh browser (own cookies) logged in through the hub's login page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(hub.url("hub/login"))
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "any")
    page.click("#login_submit")
    # the hub starts the user's server and sends the browser to its default URL
    page.wait_for_url(f"**/user/{user}/voila/render/index.ipynb*", timeout=SPAWN)
    return context, page


def user_page(hub, user: str, notebook: str, query: str = "") -> str:
    return hub.url(f"user/{user}/voila/render/{notebook}") + (f"?{query}" if query else "")


def play_moves(page, moves: int) -> None:
    for _ in range(moves):
        wait_settled(page)
        rendered = render_number(page)
        page.locator(PLAYABLE).first.click()
        wait_settled(page, rendered)


def attempts_in(db) -> list[tuple[str, int]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT student, correct FROM attempts ORDER BY id").fetchall()
    finally:
        conn.close()


def test_two_students_and_their_teacher_on_one_hub(hub, browser):
    answers = {"ana": 1, "ben": 0}  # exercise 1: choice 1 (G12) is right, choice 0 wrong
    for user, choice in answers.items():
        context, page = log_in(browser, hub, user)
        try:
            wait_for_rendered(page, timeout=SPAWN)
            assert page.locator(".mc-game").count() == len(GAMES)  # the landing page's cards
            page.locator("a[href='play_sums.ipynb']").first.click()  # as a student does
            wait_visible(page, f"{PLAYABLE}, .mathcards button.mc-resume")
            assert f"Playing as {user}" in page.locator(".mc-header").first.inner_text()
            play_moves(page, 3)
            # the address names someone else: the hub login still decides
            page.goto(user_page(hub, user, "practice.ipynb", "set=shoot_the_moon&student=zed"))
            page.get_by_text(f"Student: {user}").first.wait_for()
            page.locator(".mc-ex-choice").nth(choice).click()
            page.locator(".mc-result.mc-right" if choice else ".mc-result.mc-wrong").wait_for()
            assert page.errors == []
        finally:
            page.close(run_before_unload=True)
            context.close()

    for user, choice in answers.items():
        tables = hub.home(user) / "mathcards" / "tables"
        assert sorted(p.name for p in tables.glob("*.json")) == [f"sums-{user}.json"]
        assert attempts_in(hub.class_dir / user / "progress.sqlite3") == [(user, choice)]

    context, page = log_in(browser, hub, "teacher")
    try:
        page.goto(user_page(hub, "teacher", "dashboard.ipynb", f"key={hub.teacher_key}"))
        table = page.locator("table.mc-class")
        table.wait_for(timeout=SPAWN)
        assert "2 attempts by 2 students" in page.locator("body").inner_text()
        rows = [r.split("\t")[0].strip() for r in table.locator("tr").all_inner_texts()[1:]]
        assert sorted(rows) == ["ana", "ben"]
    finally:
        page.close(run_before_unload=True)
        context.close()
