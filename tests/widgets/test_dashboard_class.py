"""The class in view on the teacher's dashboard (issue 37 item 8): the dashboard offers the
classes of the classes page and "all students"; chosen, a class shows every student of its
list as a row, one who never started included. Real SQLite files."""

from __future__ import annotations

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
