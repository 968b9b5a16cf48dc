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
    assert "\u22123H" in dora_row.inner_text()
    assert grid.locator("th", has_text="fay").count() == 0
    with servers_data(voila_server):
        warm_up.session("fay", store=store).check(2, 1)
    page.get_by_role("button", name="Refresh").click()
    grid.locator("th", has_text="fay").wait_for(state="visible")
    page.locator("select").first.select_option(label="Play: Sums")
    page.get_by_role("button", name="Make the link").click()
    link = page.locator("a", has_text="play_sums.ipynb?deal=SUMS-2P-")
    link.wait_for(state="visible")
    assert link.get_attribute("href").startswith("play_sums.ipynb?deal=SUMS-2P-")
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
    assert "1 of 3 right" in gil and "0 of 1 right" in gil and "1 of 1 right" in gil
    assert "most often: sign slip" in gil and "subtracted instead of added" in gil
    helped = page.locator("ul.mc-help").inner_text()
    assert "gil (33% of 3; most often sign slip)" in helped
    page.get_by_role("button", name="Download the answers (CSV)").click()
    download = page.locator('a[download="answers.csv"]')
    download.wait_for(state="visible")
    assert download.get_attribute("href").startswith("data:text/csv")
    assert_clean(page, voila_server)
