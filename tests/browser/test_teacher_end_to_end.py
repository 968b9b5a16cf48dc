"""Issue 28's whole path in one test, all in the browser (a real Voilà server as
``make play`` runs it, Debian's Chromium, the server's real SQLite files).

The teacher, with the key: writes a three-exercise set on *Write a set* (typed with a bad
card, the checker's live line, fixed; the third exercise from the form), previews the two
students' variants, publishes it; gives class 8c two names on *Your classes*. Two
students, each in a browser of their own, open the class's whole link, pick their names
from its buttons, follow the landing page's link to the practice page and the set's link
there; Pia answers the first exercise at the first try and the second after opening the
worked solution, Rui answers the first at the second try. The class results show each as
such, the exercises left alone as not tried, and the CSV from their button holds the same.
"""

from __future__ import annotations

import base64
import csv
import io
import re

import pytest

from mathcards.widgets.setwriter import kind_label
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_lessons import assert_clean
from tests.browser.test_teacher_dashboard import servers_data

pytestmark = pytest.mark.browser

# Shoot the Moon tricks (choices shown in the trick's order): G9 G12 P11 is taken by G12
# (the second card), G12 G3 R3 by the rocket R3 (the third); the third exercise is random.
TWO = """title: Tricks 8C
id: tricks_8c
solution_after: 1
exercises:
  - kind: who_takes_trick
    trick: G9 G12 P11
  - kind: who_takes_trick
    trick: G12 G3 R3
"""
BAD = TWO.replace("G3 R3", "G3 R13")


def _page(context, log=None):
    page = context.new_page()
    page.set_default_timeout(90_000)
    if log is not None:
        page.on("console", log.on_console)
        page.on("pageerror", log.on_page_error)
        page.on("request", lambda request: log.requests.append(request.url))
        page.console_errors, page.requests = log.errors, log.requests
    return page


def save_class(teacher, cid: str, names: list[str]) -> None:
    """On the open *Your classes* page: the class and its names, saved."""
    wait_for_rendered(teacher)
    wait_for_first_widget(teacher)
    teacher.get_by_placeholder("7b").fill(cid)
    teacher.locator("textarea").fill("\n".join(names))
    teacher.get_by_role("button", name="Save the class").click()
    teacher.get_by_text(f"Class {cid} saved with {len(names)} names").wait_for()


def _student(context, link: str, name: str):
    """A student opens the class's link, picks their name, and opens the set through the
    landing page's link to the practice page and the practice page's link to the set."""
    page = _page(context)
    page.goto(link, timeout=120_000)
    wait_for_rendered(page)
    page.get_by_role("button", name=name, exact=True).click()
    page.locator("p.mc-hello", has_text=f"Playing as {name}").wait_for()
    page.locator("#rendered_cells a", has_text="exercise sets").first.click()
    page.wait_for_url(re.compile(rf".*practice\.ipynb\?class=8c&student={name}$"))
    page.get_by_role("link", name="tricks 8c").click()
    wait_for_first_widget(page)
    page.get_by_text("Tricks 8C").first.wait_for()
    page.get_by_text(f"Student: {name.lower()}").first.wait_for()
    return page


def _attempts(page, count: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('tr.mc-attempt').length == {count}")


def test_a_teacher_writes_a_set_gives_a_class_its_names_and_reads_the_results(
        browser, voila_server):
    from mathcards import keys
    from tests.browser.conftest import ConsoleLog

    with servers_data(voila_server):
        key = keys.teacher_key()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    log = ConsoleLog()
    pages = []
    try:
        # --- the teacher writes the set -----------------------------------------------------
        teacher = _page(contexts[0], log)
        pages.append(teacher)
        teacher.goto(voila_server.page(f"write_set.ipynb?key={key}"), timeout=120_000)
        wait_for_rendered(teacher)
        wait_for_first_widget(teacher)
        teacher.wait_for_url(re.compile(r".*write_set\.ipynb$"))  # the key left the address
        editor = teacher.locator(".mc-writer-yaml textarea")
        check = teacher.locator(".mc-writer-check")
        editor.fill(BAD)
        check.get_by_text("'R13' is not a card").wait_for()  # live, while typing
        assert "line 8: exercise 2:" in check.inner_text()
        editor.fill(TWO)
        check.get_by_text("No problems: 2 exercises, ready to publish.").wait_for()
        teacher.locator("select").filter(  # the kind list (the solution rule is a list too)
            has=teacher.locator("option", has_text=kind_label("deck_value"))).select_option(
            label=kind_label("deck_value"))
        teacher.locator(".mc-field-deck input").fill("4 random cards")
        teacher.get_by_role("button", name="Add to the set").click()
        check.get_by_text("No problems: 3 exercises, ready to publish.").wait_for()
        # the preview for the two students of the class: their own variants of the third
        teacher.get_by_label("Students").fill("pia, rui")
        third = teacher.locator(".mc-writer-preview .mc-preview-exercise").nth(2)
        third.locator('[data-student="rui"]').wait_for()
        pia = third.locator('[data-student="pia"] code').inner_text()
        rui = third.locator('[data-student="rui"] code').inner_text()
        assert pia != rui and pia.startswith("deck: ") and rui.startswith("deck: ")
        teacher.get_by_role("button", name="Publish", exact=True).click()
        teacher.get_by_text("Published: tricks_8c.").wait_for()
        published = teacher.locator("a.mc-whole", has_text="practice.ipynb?set=tricks_8c")
        assert re.fullmatch(r"https?://[^ ]+/practice\.ipynb\?set=tricks_8c",
                            published.inner_text().strip())  # a whole link to hand out

        # --- the class and its names --------------------------------------------------------
        teacher.goto(voila_server.page("classes.ipynb"), timeout=120_000)  # signed in
        save_class(teacher, "8c", ["Pia", "Rui"])
        link = teacher.locator("section.mc-class[data-class='8c'] a.mc-whole").first
        link.wait_for()
        whole = link.inner_text().strip()
        assert re.fullmatch(r"https?://[^ ]+/index\.ipynb\?class=8c", whole), whole

        # --- two students, two browsers -----------------------------------------------------
        pia_page = _student(contexts[1], whole, "Pia")
        pages.append(pia_page)
        choices = pia_page.locator(".mc-ex-choice")
        choices.nth(1).click()  # G12 takes G9 G12 P11: right at the first try
        pia_page.locator(".mc-result.mc-right").wait_for()
        pia_page.get_by_role("button", name="Next ▶").click()
        pia_page.get_by_text("Exercise 2 of 3").first.wait_for()
        choices.nth(0).click()  # G12 against the rocket R3: wrong
        pia_page.locator(".mc-result.mc-wrong").wait_for()
        _attempts(pia_page, 2)
        pia_page.get_by_role("button", name="Worked solution").click()
        pia_page.get_by_text("Worked solution:").first.wait_for()
        choices.nth(2).click()  # R3, after reading the solution
        _attempts(pia_page, 3)

        rui_page = _student(contexts[2], whole, "Rui")
        pages.append(rui_page)
        choices = rui_page.locator(".mc-ex-choice")
        choices.nth(0).click()  # wrong, then right
        rui_page.locator(".mc-result.mc-wrong").wait_for()
        choices.nth(1).click()
        rui_page.locator(".mc-result.mc-right").wait_for()
        _attempts(rui_page, 2)

        # --- the class results --------------------------------------------------------------
        teacher.goto(voila_server.page("dashboard.ipynb"), timeout=120_000)  # signed in
        wait_for_rendered(teacher)
        wait_for_first_widget(teacher)
        grid = teacher.locator("table.mc-grid")
        grid.wait_for(state="visible")
        teacher.locator("select").nth(1).select_option(label="Tricks 8C")
        grid.locator("th", has_text="rui").wait_for()

        def row(name: str) -> str:
            return grid.locator("tr", has=teacher.locator("th", has_text=name)).inner_text()

        pia_row, rui_row = row("pia"), row("rui")
        assert "2 of 3 tried" in pia_row and "1 of 3 right at the first try" in pia_row
        assert "✔ right at the first try" in pia_row
        assert "worked solution opened" in pia_row
        assert "answered with the solution" in pia_row
        assert pia_row.count("not tried") == 1
        assert "1 of 3 tried" in rui_row and "0 of 3 right at the first try" in rui_row
        assert "2 tries" in rui_row and "worked solution opened" not in rui_row
        assert rui_row.count("not tried") == 2

        teacher.get_by_role("button", name="Download CSV").click()
        download = teacher.locator('a[download="tricks_8c-grid.csv"]')
        download.wait_for(state="visible")
        data = download.get_attribute("href").split("base64,", 1)[1]
        rows = list(csv.DictReader(io.StringIO(base64.b64decode(data).decode("utf-8"))))
        got = {(r["student"], r["number"]): (r["tried"], r["right at first try"],
                                               r["worked solution opened"], r["attempts"])
               for r in rows}
        assert got == {
            ("pia", "1"): ("yes", "yes", "no", "1"),
            ("pia", "2"): ("yes", "no", "yes", "2"),
            ("pia", "3"): ("no", "no", "no", "0"),
            ("rui", "1"): ("yes", "no", "no", "2"),
            ("rui", "2"): ("no", "no", "no", "0"),
            ("rui", "3"): ("no", "no", "no", "0"),
        }
        assert_clean(teacher, voila_server)
    finally:
        for page in pages:
            page.close(run_before_unload=True)
        for context in contexts:
            context.close()
