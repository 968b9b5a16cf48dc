"""The guide's tournament, done as it says (issue 28 item 5): with the key, the teacher
makes rooms on *Your classes* for a class (no terminal); a student in a browser of their own
opens a room's whole link, picks their name from the class's buttons and is seated in
that room."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_class_names import _page
from tests.browser.test_teacher_dashboard import servers_data
from tests.browser.test_teacher_end_to_end import save_class

pytestmark = pytest.mark.browser


def test_a_teacher_makes_tournament_rooms_and_a_student_opens_one(browser, voila_server):
    from mathcards import keys

    with servers_data(voila_server):
        key = keys.teacher_key()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    pages = []
    try:
        teacher = _page(contexts[0])
        pages.append(teacher)
        teacher.goto(voila_server.page(f"classes.ipynb?key={key}"), timeout=120_000)
        save_class(teacher, "9d", ["Sol", "Teo"])
        teacher.reload()  # the room maker lists the classes saved so far
        wait_for_first_widget(teacher)
        teacher.get_by_label("Rooms:").fill("2")
        teacher.get_by_label("Class:", exact=True).last.select_option(label="Class 9d (2 names)")
        teacher.get_by_role("button", name="Make the rooms").click()
        teacher.get_by_text("2 rooms made for 2 players each.").wait_for()
        links = teacher.locator("table.mc-rooms-made a.mc-whole")
        assert links.count() == 2
        whole = links.first.get_attribute("href")
        match = re.fullmatch(r"https?://[^ ]+/play_sums\.ipynb\?room=([A-Z0-9]{5})&class=9d",
                             whole)
        assert match, whole
        code = match.group(1)

        student = _page(contexts[1])
        pages.append(student)
        student.goto(whole, timeout=120_000)
        wait_for_rendered(student)
        student.get_by_role("button", name="Sol", exact=True).click()
        student.locator(".mc-rooms", has_text=f"seat 1 of room {code}").wait_for()
        # the first student in a teacher's room starts it
        student.get_by_role("button", name="Start the room's game").wait_for()
    finally:
        for page in pages:
            page.close(run_before_unload=True)
        for context in contexts:
            context.close()
