"""The teacher's dashboard in a real browser, with the teacher's key: the student x
exercise grid (wrong answers, a sign slip, hints), Refresh, and a link for the class."""

from __future__ import annotations

import contextlib
import os

from mathcards.exercises import ProgressStore, load_set_text
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_lessons import assert_clean
from tests.exercises.test_progress import SET


@contextlib.contextmanager
def servers_data(server):
    """This process reads and writes the server's data folder (its key, its progress)."""
    saved = os.environ.get("MATHCARDS_DATA_DIR")
    os.environ["MATHCARDS_DATA_DIR"] = str(server.state_dir / "mathcards_data")
    try:
        yield server.state_dir / "mathcards_data"
    finally:
        if saved is None:
            os.environ.pop("MATHCARDS_DATA_DIR")
        else:
            os.environ["MATHCARDS_DATA_DIR"] = saved


def test_the_dashboard_shows_the_grid_refreshes_and_makes_a_class_link(page, voila_server):
    from mathcards import keys

    warm_up = load_set_text(SET, name="dash-warm-up")
    with servers_data(voila_server) as data:
        key = keys.teacher_key()
        store = ProgressStore(data / "progress.sqlite3")
        dora = warm_up.session("dora", store=store)
        dora.hint(1)
        dora.check(1, "-3H")  # a sign slip, then the right play
        dora.check(1, "+3H")
        warm_up.session("eli", store=store).check(2, 0)
    page.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    grid = page.locator("table.mc-grid")
    grid.wait_for(state="visible")
    dora_row = grid.locator("tr", has=page.locator("th", has_text="dora"))
    assert "sign slip" in dora_row.inner_text() and "hints: 1" in dora_row.inner_text()
    assert "\u22123♥" in dora_row.inner_text()  # as the student saw it
    assert grid.locator("th", has_text="fay").count() == 0
    with servers_data(voila_server):
        warm_up.session("fay", store=store).check(2, 1)
    page.get_by_role("button", name="Refresh").click()
    grid.locator("th", has_text="fay").wait_for(state="visible")
    builder = page.locator("select").filter(has=page.locator("option", has_text="Play: Sums"))
    builder.select_option(label="Play: Sums")  # the class link builder's (the set filter's
    # is the page's first select)
    page.get_by_role("button", name="Make the link").click()
    link = page.locator("a.mc-whole", has_text="/play_sums.ipynb?deal=SUMS-2P-")
    link.wait_for(state="visible")
    href = link.get_attribute("href")  # a whole link: the address a student opens as is
    assert href.startswith("http") and "/play_sums.ipynb?deal=SUMS-2P-" in href
    store.close()
    assert_clean(page, voila_server)


def test_the_dashboard_shows_a_students_answers_by_skill_with_the_slip_named(page,
                                                                            voila_server):
    """Issue 25: answers given at a table (real Answers, classified by the slip classifier)
    and in exercises, kept through ProgressStore, shown by skill with the slip in words and
    the student listed as needing help; the CSV download carries them."""
    from mathcards import keys
    from mathcards.asking import Answer, Question
    from mathcards.skills import classify_slip

    asked = Question("suns_to_moons", "cross_zero", "The deck is 7; you lay 10♦ upright. "
                     "What is the deck now?", (7, -10), -3, cards=("", "10D"))
    dice = Question("dice_stacks", "dice_sum", "You rolled 3 and 5: what are you making?",
                    (3, 5), 8)
    with servers_data(voila_server) as data:
        key = keys.teacher_key()
        store = ProgressStore(data / "progress.sqlite3")
        for given in ("17", "3", "-3"):  # 7 + 10, the sign lost, then right
            store.record_answer(Answer.of(asked, given, right=given == "-3",
                                          slip=classify_slip(asked, given), student="gil"))
        store.record_answer(Answer.of(dice, "2", right=False, slip=classify_slip(dice, "2"),
                                      student="gil"))
        load_set_text(SET, name="dash-warm-up").session("gil", store=store).check(1, "+3H")
        store.close()
    page.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    skills = page.locator("table.mc-skills")
    skills.wait_for(state="visible")
    header = skills.locator("tr").first.inner_text()
    assert "add or subtract across zero" in header and "the sum of the dice" in header
    gil = skills.locator("tr", has=page.locator("th", has_text="gil")).inner_text()
    # three questions (each its own: Answer.of gives each a question id), one right
    assert "3 questions: 1 right at the first try" in gil
    assert "1 question: 0 right at the first try" in gil
    assert "1 question: 1 right at the first try" in gil
    assert "most often: sign slip" in gil and "subtracted instead of added" in gil
    helped = page.locator("ul.mc-help").inner_text()
    assert "gil (33% of 3; most often sign slip)" in helped
    page.get_by_role("button", name="Download the answers (CSV)").click()
    download = page.locator('a[download="answers.csv"]')
    download.wait_for(state="visible")
    assert download.get_attribute("href").startswith("data:text/csv")
    assert_clean(page, voila_server)


def test_a_students_set_shows_on_the_dashboard_as_it_went_and_its_csv_holds_the_same(
        page, voila_server):
    """Issue 28 item 3: a student answers a set in the browser (the first exercise right at
    the first try; the second after two wrong answers and the worked solution; the rest
    left untried); the dashboard, opened with the teacher's key, shows each as such, and
    the CSV from its button holds the same."""
    import base64
    import csv
    import io

    from mathcards import keys

    page.goto(voila_server.page("practice.ipynb") + "?set=shoot_the_moon&student=jo")
    wait_for_first_widget(page)
    page.get_by_text("Student: jo").first.wait_for()
    choices = page.locator(".mc-ex-choice")
    choices.nth(1).click()  # ☾12 takes G9 G12 P11: right at the first try
    page.locator(".mc-result.mc-right").wait_for()
    page.get_by_role("button", name="Next ▶").click()
    page.get_by_text("Exercise 2 of").first.wait_for()
    choices.nth(0).click()  # G12 G3 R3: ☾12 is wrong (the rocket trumps)
    page.locator(".mc-result.mc-wrong").wait_for()
    choices.nth(1).click()
    page.wait_for_function("() => document.querySelectorAll('tr.mc-attempt').length == 3")
    page.get_by_role("button", name="Worked solution").click()
    page.get_by_text("Worked solution:").first.wait_for()
    choices.nth(2).click()  # ▲3, typed after reading the solution
    page.wait_for_function("() => document.querySelectorAll('tr.mc-attempt').length == 4")

    with servers_data(voila_server):
        key = keys.teacher_key()
    teacher = page  # the same browser, now the teacher's key in the address
    teacher.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_first_widget(teacher)
    grid = teacher.locator("table.mc-grid")
    grid.wait_for(state="visible")
    chosen = teacher.locator("select").nth(1).evaluate("s => s.options[s.selectedIndex].text")
    assert chosen.replace("\xa0", " ") == "Shoot the Moon: tricks"  # the newest set
    jo = grid.locator("tr", has=teacher.locator("th", has_text="jo")).inner_text()
    assert "2 of 6 tried" in jo and "1 of 6 right at the first try" in jo
    assert "✔ right at the first try" in jo
    assert "answered with the solution" in jo
    assert "worked solution opened" in jo and jo.count("not tried") == 4
    assert teacher.locator("span.mc-read-at").inner_text().startswith("updated at ")
    # the names column stays in place when the grid scrolls sideways
    position = grid.locator('th[scope="row"]').first.evaluate(
        "th => getComputedStyle(th).position")
    assert position == "sticky"
    teacher.get_by_role("button", name="Download CSV").click()
    link = teacher.locator('a[download="shoot_the_moon-grid.csv"]')
    link.wait_for(state="visible")
    data = link.get_attribute("href").split("base64,", 1)[1]
    rows = [r for r in csv.DictReader(io.StringIO(base64.b64decode(data).decode("utf-8")))
            if r["student"] == "jo"]
    assert [(r["number"], r["tried"], r["right at first try"], r["worked solution opened"])
            for r in rows] == [("1", "yes", "yes", "no"), ("2", "yes", "no", "yes")] + [
        (str(n), "no", "no", "no") for n in range(3, 7)]
    assert rows[1]["answered with the solution"] == "yes" and rows[1]["attempts"] == "3"


def test_the_teacher_chooses_the_class_and_sees_who_never_started(page, voila_server):
    """Issue 37 item 8 at 1366x768: the dashboard, opened with the teacher's key, offers
    the class; chosen, a student who never started is a row "not started"."""
    from mathcards import keys
    from mathcards.classes import ClassStore

    page.set_viewport_size({"width": 1366, "height": 768})
    warm_up = load_set_text(SET, name="class-warm-up")
    with servers_data(voila_server) as data:
        key = keys.teacher_key()
        with ClassStore() as classes:
            classes.save("8c", "Gus\nHal")
        store = ProgressStore(data / "progress.sqlite3")
        warm_up.session("gus", store=store).check(1, "+3H")
        store.close()
    page.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    page.locator("table.mc-grid").wait_for(state="visible")
    chooser = page.locator("select").filter(has=page.locator("option", has_text="all students"))
    chooser.select_option(label="8c")
    roster = page.locator("table.mc-roster")
    roster.wait_for(state="visible")
    hal = roster.locator("tr", has=page.locator("th", has_text="Hal"))
    assert "not started" in hal.inner_text()
    gus = roster.locator("tr", has=page.locator("th", has_text="Gus"))
    assert "not started" not in gus.inner_text()
    assert_clean(page, voila_server)
