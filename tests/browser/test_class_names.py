"""A class and its names in a real browser (issue 28, item 2).

The teacher (with the key) gives class 7b two names on the *Classes* page and copies the
class's whole link. Two students, each in a browser of their own (a context: its own
cookie jar, so its own Voilà identity, and a server's names are tied to browsers), open
the link, pick their names from the class's buttons, follow the practice link (which
carries their name and the class: nobody edits an address) and answer an exercise. Each
answer is filed under that student in the server's progress store.
"""

from __future__ import annotations

import re

import pytest

from mathcards.exercises import ProgressStore
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_teacher_dashboard import servers_data

pytestmark = pytest.mark.browser


def _page(context):
    page = context.new_page()
    page.set_default_timeout(90_000)
    return page


def test_a_teacher_makes_a_class_and_two_students_pick_their_names(browser, voila_server):
    from mathcards import keys

    with servers_data(voila_server):
        key = keys.teacher_key()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    pages = []
    try:
        # the teacher: the class and its names, then the class's whole link
        teacher = _page(contexts[0])
        pages.append(teacher)
        teacher.goto(voila_server.page(f"classes.ipynb?key={key}"), timeout=120_000)
        wait_for_rendered(teacher)
        wait_for_first_widget(teacher)
        teacher.get_by_placeholder("7b").fill("7b")
        teacher.locator("textarea").fill("Nia\nOto")
        teacher.get_by_role("button", name="Save the class").click()
        teacher.get_by_text("Class 7b saved with 2 names").wait_for()
        link = teacher.locator("section.mc-class[data-class='7b'] a.mc-whole").first
        link.wait_for()
        copied = link.inner_text().strip()
        assert re.fullmatch(r"https?://[^ ]+/index\.ipynb\?class=7b", copied), copied
        assert link.get_attribute("href") == copied  # the text is the whole link

        # two students, two browsers: each picks their own name from the class's list
        for context, name in ((contexts[1], "Nia"), (contexts[2], "Oto")):
            page = _page(context)
            pages.append(page)
            page.goto(copied, timeout=120_000)
            wait_for_rendered(page)
            pick = page.get_by_role("button", name=name, exact=True)
            pick.wait_for()
            assert page.get_by_role("button", name="Nia", exact=True).is_visible()
            assert page.get_by_role("button", name="Oto", exact=True).is_visible()
            pick.click()
            page.locator("p.mc-hello", has_text=f"Playing as {name}").wait_for()
            page.wait_for_url(re.compile(rf".*index\.ipynb\?class=7b&student={name}$"))
            # every link of the landing page now carries the name and the class
            page.wait_for_function(
                "name => [...document.querySelectorAll('#rendered_cells a.mc-button')]"
                ".every(a => a.getAttribute('href').includes('student=' + name)"
                " && a.getAttribute('href').includes('class=7b'))", arg=name)
            practice = page.locator("#rendered_cells a", has_text="exercise sets").first
            assert practice.get_attribute("href") == f"practice.ipynb?class=7b&student={name}"
            practice.click()
            page.wait_for_url(re.compile(rf".*practice\.ipynb\?class=7b&student={name}$"))
            page.get_by_role("link", name="shoot the moon").click()
            wait_for_first_widget(page)
            page.get_by_text(f"Student: {name.lower()}").first.wait_for()
            choice = page.locator(".mc-ex-choice").nth(1)
            choice.wait_for()
            choice.click()
            page.locator(".mc-result").first.wait_for()
            page.locator("tr.mc-attempt").first.wait_for()
    finally:
        for page in pages:
            page.close(run_before_unload=True)
        for context in contexts:
            context.close()
    with servers_data(voila_server) as data:
        store = ProgressStore(data / "progress.sqlite3")
        try:
            filed = sorted((a.student, a.set_id) for a in store.attempts()
                           if a.student in ("nia", "oto", "guest"))
        finally:
            store.close()
    assert filed == [("nia", "shoot_the_moon"), ("oto", "shoot_the_moon")]
