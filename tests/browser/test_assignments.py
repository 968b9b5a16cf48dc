"""Issue 38's must-show, in the browser at 1366x768 (a real Voilà server as ``make play``
runs it, Debian's Chromium, the server's real SQLite files).

The teacher, with the key, saves class 7w (Zora, Yusuf, Xena) on *Your classes* and assigns it
a set due in a week, a game at a level, and a second set whose due day has passed. Three
students, each in a browser of their own, open the class's link and pick their names:
each sees *To do*. Zora finishes the first set; Yusuf starts it (a wrong try, then a right
one, of its first exercise) and does the late set after its due day; Xena never opens
anything. The first set's page shows done, in progress and not started, the late set's
page Yusuf's work as done late, and the CSV of each holds the same rows. Yusuf's own page lists
his answers with their tries.
"""

from __future__ import annotations

import base64
import csv
import datetime as dt
import io
import re

import pytest

from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_teacher_dashboard import servers_data
from tests.browser.test_teacher_end_to_end import save_class

pytestmark = pytest.mark.browser

PAIR = """title: Pair 7W
id: pair_7w
exercises:
  - kind: who_takes_trick
    trick: G9 G12 P11
  - kind: who_takes_trick
    trick: G12 G3 R3
"""  # taken by G12 (the second card), then by the rocket R3 (the third)
LATE = """title: Late 7W
id: late_7w
exercises:
  - kind: who_takes_trick
    trick: G9 G12 P11
"""


def _page(context):
    page = context.new_page()
    page.set_default_timeout(90_000)
    return page


def _assign(teacher, what: str, opens: dt.date, due: dt.date, said: str) -> None:
    teacher.locator(".mc-assign-class select").select_option("7w")
    teacher.locator(".mc-assign-what select").select_option(label=what)
    teacher.locator(".mc-assign-opens input").fill(opens.isoformat())
    teacher.locator(".mc-assign-due input").fill(due.isoformat())
    teacher.get_by_role("button", name="Assign", exact=True).click()
    teacher.get_by_text(f"Assigned to class 7w: {said}").wait_for()


def _student(context, link: str, name: str):
    page = _page(context)
    page.goto(link, timeout=120_000)
    wait_for_rendered(page)
    page.get_by_role("button", name=name, exact=True).click()
    page.locator("p.mc-hello", has_text=f"Playing as {name}").wait_for()
    todo = page.locator("section.mc-todo")
    todo.wait_for()
    return page, todo


def _open_set(page, todo, title: str) -> None:
    todo.get_by_role("link", name=re.compile(title)).click()
    wait_for_first_widget(page)
    page.get_by_text(title).first.wait_for()


def _answer(page, choice: int, right: bool, count: int) -> None:
    page.locator(".mc-ex-choice").nth(choice).click()
    page.locator(f".mc-result.{'mc-right' if right else 'mc-wrong'}").last.wait_for()
    page.wait_for_function(
        f"() => document.querySelectorAll('tr.mc-attempt').length >= {count}")


def _rows(teacher) -> dict[str, str]:
    """An assignment page's rows: name -> its state cell."""
    table = teacher.locator("table.mc-assignment")
    table.wait_for()
    found = {}
    for row in table.locator("tr").all()[1:]:
        cells = row.locator("th, td").all_inner_texts()
        found[cells[0].strip()] = cells[1].strip()
    return found


def _csv(teacher) -> dict[str, str]:
    link = teacher.locator('a[download^="assignment-"]')
    link.wait_for(state="attached")
    data = link.get_attribute("href").split("base64,", 1)[1]
    rows = csv.DictReader(io.StringIO(base64.b64decode(data).decode("utf-8")))
    return {r["name"]: r["state"] + (" (overdue)" if r["overdue"] == "yes" else "")
            for r in rows}


def test_a_class_is_assigned_work_and_the_teacher_sees_who_has_done_it(browser, voila_server):
    from mathcards import keys
    from mathcards.exercises.store import SetStore

    with servers_data(voila_server) as data:
        key = keys.teacher_key()
        sets = SetStore(data / "sets")
        sets.publish(PAIR)
        sets.publish(LATE)
    today = dt.date.today()
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768})
                for _ in range(4)]
    pages = []
    try:
        # --- the teacher: the class, then three pieces of work ---------------------------
        teacher = _page(contexts[0])
        pages.append(teacher)
        teacher.goto(voila_server.page(f"classes.ipynb?key={key}"), timeout=120_000)
        save_class(teacher, "7w", ["Zora", "Yusuf", "Xena"])
        _assign(teacher, "Exercise set: Pair 7W", today, today + dt.timedelta(days=7),
                "the exercise set “Pair 7W”")
        teacher.locator(".mc-assign-what select").select_option(label="Game: Sums")
        teacher.locator(".mc-assign-level select").select_option(label="I count")
        _assign(teacher, "Game: Sums", today, today + dt.timedelta(days=7),
                "Sums at “I count”, 3 games")
        _assign(teacher, "Exercise set: Late 7W", today - dt.timedelta(days=6),
                today - dt.timedelta(days=1), "the exercise set “Late 7W”")
        listed = teacher.locator(".mc-assign-list")
        listed.locator("li").nth(2).wait_for()  # the list is drawn again after the third
        assert listed.locator("li").count() == 3
        assert "Sums at “I count”, 3 games" in listed.inner_text()
        pair_page = listed.locator("li", has_text="Pair 7W").get_by_role(
            "link", name="who has done it").get_attribute("href")
        late_page = listed.locator("li", has_text="Late 7W").get_by_role(
            "link", name="who has done it").get_attribute("href")
        whole = teacher.locator("section.mc-class[data-class='7w'] a.mc-whole").first
        link = whole.inner_text().strip()

        # --- three students, three browsers ------------------------------------------------
        zora, todo = _student(contexts[1], link, "Zora")
        pages.append(zora)
        words = todo.inner_text()
        assert words.index("Late 7W") < words.index("Pair 7W")  # soonest due first
        assert re.search(r"Late 7W.*: late", words) and re.search(r"Pair 7W.*: to do", words)
        assert "Sums at “I count”, 3 games: to do" in words
        _open_set(zora, todo, "Pair 7W")
        _answer(zora, 1, True, 1)
        zora.get_by_role("button", name="Next ▶").click()
        zora.get_by_text("Exercise 2 of 2").first.wait_for()
        _answer(zora, 2, True, 2)

        bo, todo = _student(contexts[2], link, "Yusuf")
        pages.append(bo)
        _open_set(bo, todo, "Pair 7W")
        _answer(bo, 0, False, 1)  # wrong, then right: started
        _answer(bo, 1, True, 2)
        bo.goto(f"{link}&student=Yusuf", timeout=120_000)  # back to the class's page
        wait_for_rendered(bo)
        todo = bo.locator("section.mc-todo")
        todo.wait_for()
        assert re.search(r"Pair 7W.*: started \(1 of 2\)", todo.inner_text())
        _open_set(bo, todo, "Late 7W")  # after its due day
        _answer(bo, 1, True, 1)

        cy, todo = _student(contexts[3], link, "Xena")  # sees it, never opens it
        pages.append(cy)
        assert todo.locator("li").count() == 3

        # --- the assignments' pages ---------------------------------------------------------
        teacher.goto(voila_server.page(pair_page), timeout=120_000)
        wait_for_rendered(teacher)
        rows = _rows(teacher)
        assert list(rows) == ["Yusuf", "Xena", "Zora"]  # the students to see first on top
        assert rows == {"Yusuf": "in progress", "Xena": "not started", "Zora": "done"}
        assert _csv(teacher) == rows
        assert "Most missed: exercise 1, missed at the first try by 1" in \
            " ".join(teacher.locator(".mc-assignment").locator("xpath=..").inner_text().split())

        teacher.goto(voila_server.page(late_page), timeout=120_000)
        wait_for_rendered(teacher)
        rows = _rows(teacher)
        assert rows == {"Zora": "not started (overdue)", "Xena": "not started (overdue)",
                        "Yusuf": "done late"}
        assert _csv(teacher) == rows

        # --- one student's page, from his name ----------------------------------------------
        with teacher.context.expect_page() as opened:  # the name opens a tab of its own
            teacher.locator("table.mc-assignment").get_by_role("link", name="Yusuf").click()
        bo_page = opened.value
        pages.append(bo_page)
        bo_page.set_default_timeout(90_000)
        table = bo_page.locator("table.mc-history")
        table.wait_for()
        history = table.inner_text()
        assert history.count("Pair 7W") == 2 and history.count("Late 7W") == 1
        assert "try 1" in history and "try 2" in history
    finally:
        for page in pages:
            page.close(run_before_unload=True)
        for context in contexts:
            context.close()
