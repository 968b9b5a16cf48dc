"""The class in view on the teacher's dashboard (issue 37 item 8): the dashboard offers the
classes of the classes page and "all students"; chosen, a class shows every student of its
list as a row, one who never started included. Real SQLite files."""

from __future__ import annotations

import re

from mathcards.classes import ClassStore
from mathcards.exercises import ProgressStore, load_set_text
from tests.exercises.test_progress import SET
from tests.widgets.helpers import row_head


def test_the_class_in_view_shows_a_student_who_never_started(tmp_path, data_dir):
    from mathcards.widgets.exercises import dashboard

    with ClassStore() as store:
        store.save("7b", "Ana\nBen")
    path = tmp_path / "class.sqlite3"
    progress = ProgressStore(path)
    load_set_text(SET, name="warm-up").session("ana", store=progress).check(1, ["+3H"])
    progress.close()
    view = dashboard(path)
    assert ("all students", "") in view.w_class.options and ("7b", "7b") in view.w_class.options
    view.w_class.value = "7b"
    shown = view.w_roster.value
    ben = shown.split(row_head("Ben"), 1)[1].split("</tr>", 1)[0]
    ana = shown.split(row_head("Ana"), 1)[1].split("</tr>", 1)[0]
    assert "not started" in ben and "not started" not in ana
    view.w_class.value = ""  # all students: the class's table is gone
    assert "Ben" not in view.w_roster.value
    view.close()


def test_the_grid_and_its_csv_carry_the_class_and_the_student_who_never_started(
        tmp_path, data_dir):
    import csv
    import io

    from mathcards.widgets.exercises import dashboard

    with ClassStore() as store:
        store.save("7b", "Ana\nBen")
    path = tmp_path / "class.sqlite3"
    progress = ProgressStore(path)
    load_set_text(SET, name="warm-up").session("ana", store=progress).check(1, ["+3H"])
    progress.close()
    view = dashboard(path)
    view.w_class.value = "7b"
    assert view.grid().students == ("ana", "ben")
    view.w_grid_download.make()
    link = view.w_grid_download.w_out.value
    import base64
    data = link.split("base64,", 1)[1].split('"', 1)[0]
    rows = list(csv.DictReader(io.StringIO(base64.b64decode(data).decode("utf-8"))))
    assert {r["student"] for r in rows} == {"ana", "ben"}
    assert {r["class"] for r in rows} == {"7b"}
    assert {r["tried"] for r in rows if r["student"] == "ben"} == {"no"}
    view.close()


def test_the_skill_grid_and_its_csv_show_the_class_in_view_only(tmp_path, data_dir):
    """Chosen, a class filters the summary and the skill grid to its students, and the skill
    grid's CSV carries the class column (fails before: the skill grid showed every student of
    the server whatever the class, and its CSV had no class column)."""
    import csv
    import io

    from mathcards.widgets.exercises import dashboard
    from tests.widgets.test_skill_grid_view import _link

    with ClassStore() as store:
        store.save("7b", "Ana\nBen")
    path = tmp_path / "class.sqlite3"
    progress = ProgressStore(path)
    exercises = load_set_text(SET, name="warm-up")
    exercises.session("ana", store=progress).check(1, ["+3H"])
    exercises.session("zoe", store=progress).check(1, ["+3H"])  # on no list of 7b
    progress.close()
    view = dashboard(path)
    assert "zoe" in view.w_content.value  # all students: everyone
    view.w_class.value = "7b"
    assert "ana" in view.w_content.value and "zoe" not in view.w_content.value
    view.w_download.children[0].click()
    html = view.w_download.w_out.value
    rows = list(csv.DictReader(io.StringIO(_link(html, "skill-grid.csv"))))
    assert rows and {r["student"] for r in rows} == {"ana"}
    assert {r["class"] for r in rows} == {"7b"}
    view.w_class.value = ""
    assert "zoe" in view.w_content.value
    view.close()


def test_the_class_results_page_reads_in_spanish_and_the_pseudo_locale(tmp_path, data_dir):
    """The class results page (its summary, the roster, the exercise grid's cells and
    whole-set column, the most missed chart, its buttons) was English on a Spanish page.
    Kept as written: the set's and its exercises' own titles, the skill grid's columns
    (their own test) and the students' names."""
    from mathcards import i18n
    from mathcards.widgets.exercises import dashboard
    from tests.test_i18n import _widget_words

    with ClassStore() as store:
        store.save("7b", "Ana\nBen")
    path = tmp_path / "class.sqlite3"
    progress = ProgressStore(path)
    session = load_set_text(SET, name="warm-up").session("ana", store=progress)
    session.check(1, ["+3D"])  # wrong
    session.check(1, ["+3H"])
    progress.close()
    said = {}
    for lang in ("en", "es", "qps"):
        with i18n.using(lang):
            view = dashboard(path)
            view.w_class.value = "7b"
            words = []
            for w in (view.w_refresh, view.w_updated, view.w_roster, view.w_set,
                      view.w_grid, view.w_missed, view.w_class):
                words += _widget_words(w)
            words += [view.w_content.value.split("</p>", 1)[0].rsplit("<p>", 1)[-1]]
            said[lang] = " | ".join(words)
            view.close()
    english = re.compile(r"\b(refresh|updated|student|last activity|not started|the whole "
                         r"set|tried|right at the first try|solved|score|time|wrong|hints|"
                         r"tries|most missed|results from|attempts?|answers?|class|all "
                         r"students|set)\b", re.I)
    kept = r"\S+\.sqlite3|warm-up|Warm-up[^|<]*|Ana|Ben|\bana\b|\bben\b|7b|\d\d:\d\d:\d\d|<[^>]+>"
    assert english.search(said["en"])
    assert not english.search(re.sub(kept, "", said["es"])), said["es"]
    # the exercise's own title (its kind's, not yet translated: the games' exercise modules)
    plain = re.sub(kept + "|reach goal|Reach the goal", "", said["qps"])
    assert not re.search(r"\b[A-Za-z]{2,}\b", plain), plain
