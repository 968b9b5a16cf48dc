"""The lessons site in a real browser, served as ``make play`` serves it.

One page at a time (each cold page costs several CPU-seconds here). Every
page must render without a console error and fetch nothing from outside
the server.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest

from mathcards.games.registry import game_specs
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.server import LESSONS
from tests.registered import lessons

GAMES = tuple(s.title for s in game_specs() if s.card is not None)  # the landing page's cards


def assert_clean(page, server) -> None:
    """No console error, and every request went to our own server."""
    assert page.console_errors == []
    outside = [u for u in page.requests if not u.startswith((server.url(), "data:", "blob:"))]
    assert outside == [], f"the page fetched from outside the server: {outside}"


def landing_links(page) -> list[str]:
    hrefs = page.eval_on_selector_all(
        "#rendered_cells a[href]", "els => els.map(e => e.getAttribute('href'))"
    )
    return [h for h in dict.fromkeys(hrefs) if h.endswith(".ipynb")]


def test_site_root_opens_the_landing_page_listing_five_games(page, voila_server):
    page.goto(voila_server.url("/"))
    page.wait_for_url(re.compile(r".*/voila/render/index\.ipynb$"))
    wait_for_rendered(page)
    assert page.title() == "MathCards: five card games"
    titles = page.locator(".mc-game h2").all_inner_texts()
    assert [t.strip() for t in titles] == list(GAMES)
    for game in page.locator(".mc-game").all():
        assert game.locator("a.mc-button", has_text="Learn").count() == 1
    assert page.locator("a[href='teachers.ipynb']").count() == 1
    assert_clean(page, voila_server)


def _respond(page) -> None:
    """Click the page's first enabled widget button; the page must change in answer."""
    button = wait_for_first_widget(page)
    page.evaluate(
        """() => {
            window.__mc_changes = 0;
            new MutationObserver(ms => { window.__mc_changes += ms.length; })
                .observe(document.querySelector('#rendered_cells'),
                         {subtree: true, childList: true, characterData: true, attributes: true});
        }"""
    )
    button.click()
    page.wait_for_function("() => window.__mc_changes > 0", timeout=30_000)


def test_every_landing_link_opens_a_working_page(page, voila_server):
    page.goto(voila_server.page("index.ipynb"))
    wait_for_rendered(page)
    links = landing_links(page)
    visited = []
    for href in links:
        if not (LESSONS / href).exists():
            continue  # announced pages that are not in this checkout (tests/test_notebooks.py)
        page.goto(voila_server.page("index.ipynb"))
        wait_for_rendered(page)
        page.locator(f"a[href='{href}']").first.click()  # same tab, as a student does
        page.wait_for_url(re.compile(rf".*/voila/render/{re.escape(href)}$"))
        wait_for_rendered(page)
        assert urlparse(page.url).path.endswith(href)
        if href == "teachers.ipynb":
            _teacher_pages_open_only_with_the_key(page, voila_server)
        else:
            _respond(page)
        visited.append(href)
        assert_clean(page, voila_server)
    for lesson in lessons():
        assert lesson in visited


def _teacher_pages_open_only_with_the_key(page, server) -> None:
    """Without the key the guide shows how to open it and no student's solution;
    with it, the teacher's view of a student's variant works; the class results too."""
    import os

    from mathcards import keys

    locked = page.locator(".mc-refused", has_text="This page is for teachers")
    locked.first.wait_for(state="visible")
    assert page.locator(".mc-teacher").count() == 0
    saved = os.environ.get("MATHCARDS_DATA_DIR")
    os.environ["MATHCARDS_DATA_DIR"] = str(server.state_dir / "mathcards_data")
    try:
        key = keys.teacher_key()  # the server's own key file, made by its first page
    finally:
        if saved is None:
            os.environ.pop("MATHCARDS_DATA_DIR")
        else:
            os.environ["MATHCARDS_DATA_DIR"] = saved
    page.goto(server.page(f"teachers.ipynb?key={key}"))
    wait_for_rendered(page)
    page.locator(".mc-teacher").first.wait_for(state="visible")
    _respond(page)
    page.goto(server.page("dashboard.ipynb?key=wrong-key"))
    wait_for_rendered(page)
    page.locator(".mc-refused", has_text="not right").first.wait_for(state="visible")
    grid = page.locator("h3", has_text="Each student, each exercise")
    assert not grid.count()
    page.goto(server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    grid.first.wait_for(state="visible")
    assert str(server.state_dir) not in page.inner_text("#rendered_cells")


def test_guided_lesson_check_answered_wrong_then_right(page, voila_server):
    """Shoot the Moon's first check: hand G4 R5 B2, G9 led: may you play R5? (No.)"""
    page.goto(voila_server.page("shoot_the_moon.ipynb"))
    wait_for_rendered(page)
    check = page.locator(".mc-check").first
    check.wait_for(state="visible")
    feedback = check.locator(".mc-check-feedback")
    check.get_by_role("button", name="Yes").click()
    page.wait_for_function(
        "el => el.innerText.includes('Not quite')", arg=feedback.element_handle()
    )
    assert "you must follow green" in feedback.inner_text()
    check.get_by_role("button", name="No").click()
    page.wait_for_function("el => el.innerText.includes('Right')", arg=feedback.element_handle())
    assert "you may not play ▲5" in feedback.inner_text()
    assert_clean(page, voila_server)


def test_guided_hand_warns_before_an_illegal_card(page, voila_server):
    """In the guided hand, a card the rules refuse is not played and the reason shows."""
    page.goto(voila_server.page("shoot_the_moon.ipynb"))
    wait_for_rendered(page)
    hand = page.locator(".mc-hand-card:enabled")
    hand.first.wait_for(state="visible")
    before = page.locator(".mc-hand-card").count()
    warned = played = False
    for i in range(hand.count()):
        page.locator(".mc-hand-card:enabled").nth(i).click()
        page.wait_for_timeout(400)
        if page.locator(".mc-guide-warning [role=alert]").count():
            warned = True
            assert "must follow" in page.locator(".mc-guide-warning").inner_text()
            continue
        played = True
        break
    assert played
    # If every card was playable there was nothing to warn about; the warning path is
    # covered without a browser in tests/widgets/test_lesson_widgets.py.
    assert page.locator(".mc-hand-card").count() <= before
    del warned
    assert_clean(page, voila_server)


@pytest.mark.parametrize("theme", ["dark"])
def test_dark_theme_renders(page, voila_server, theme):
    page.goto(voila_server.page("index.ipynb") + f"?theme={theme}")
    wait_for_rendered(page)
    assert page.locator("body.theme-dark").count() == 1
    assert page.locator(".mc-game").count() == len(GAMES)
    assert_clean(page, voila_server)


def test_the_name_is_asked_once_and_kept_on_every_link(page, voila_server):
    """The landing page asks the student's name (checked by the kernel: the one rule of
    names, the same words as the play page's); every page it leads to keeps it."""
    page.goto(voila_server.page("index.ipynb"))
    wait_for_rendered(page)
    box = page.locator(".mc-name-picker input[type='text']")
    box.wait_for()
    box.fill("Maya!")  # refused here as the play page refuses it
    page.get_by_role("button", name="Start").click()
    page.locator(".mc-name-picker .mc-refused", has_text="'Maya!' cannot be used").wait_for()
    assert not page.locator("p.mc-hello").count()
    box.fill("Ana")
    page.get_by_role("button", name="Start").click()
    page.locator("p.mc-hello", has_text="Playing as Ana").wait_for()
    assert not page.locator(".mc-name-picker").count()
    page.wait_for_url(re.compile(r".*/voila/render/index\.ipynb\?student=Ana$"))
    page.wait_for_function(  # the links are rewritten once the kernel accepted the name
        "() => [...document.querySelectorAll('#rendered_cells a.mc-button')]"
        ".every(a => a.getAttribute('href').endsWith('student=Ana'))")
    hrefs = page.eval_on_selector_all(
        "#rendered_cells a[href*='.ipynb']:not([data-no-student])",
        "els => els.map(e => e.getAttribute('href'))")
    assert len(hrefs) >= 12  # every game's Learn and Play, the practice page, the guide
    assert all(h.endswith("student=Ana") and not h.startswith("/") for h in hrefs), hrefs
    assert "practice.ipynb?student=Ana" in hrefs
    page.locator("a.mc-button[href^='play_sums.ipynb']").first.click()
    page.wait_for_url(re.compile(r".*/play_sums\.ipynb\?student=Ana$"))
    page.locator(".mc-who", has_text="Playing as Ana").wait_for(timeout=120_000)
    all_games = page.locator("a", has_text="All games").first
    assert all_games.get_attribute("href") == "index.ipynb?student=Ana"
    # back on the landing page with the name: greeted at once; "not you?" asks again
    page.goto(voila_server.page("index.ipynb") + "?student=Ana")
    wait_for_rendered(page)
    page.locator("p.mc-hello a", has_text="not you?").click()
    page.wait_for_url(re.compile(r".*/voila/render/index\.ipynb$"))
    page.locator(".mc-name-picker input[type='text']").wait_for()
    assert_clean(page, voila_server)
