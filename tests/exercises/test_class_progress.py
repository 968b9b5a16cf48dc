"""A teacher sees the class: each student's own database, one class folder (issue 16 item 2).

On a hub every student's server writes its own progress database
(``MATHCARDS_PROGRESS`` in the student's own folder of a shared volume); the
teacher's dashboard reads the class folder (``MATHCARDS_CLASS_PROGRESS``) and
never writes to a student's file.
"""

from __future__ import annotations

import hashlib

import pytest

from mathcards.exercises import ProgressStore, load_set_text
from mathcards.exercises.progress import ProgressError
from mathcards.exercises.results import class_table, read_results
from tests.widgets.test_students import WARM_UP


def _answer(db, student, *answers):
    store = ProgressStore(db)
    session = load_set_text(WARM_UP, name="warm-up").session(student, store=store)
    for answer in answers:
        session.check(1, answer)
    store.close()


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_class_folder_gathers_every_students_database(tmp_path):
    class_dir = tmp_path / "class"
    _answer(class_dir / "ana" / "progress.sqlite3", "ana", "-3H", "+3H")
    _answer(class_dir / "bo" / "progress.sqlite3", "bo", "-3H")
    before = {p: _digest(p) for p in class_dir.glob("*/*.sqlite3")}
    rows = {r.student: (r.attempts, r.solved) for r in class_table(read_results(class_dir))}
    assert rows == {"ana": (2, 1), "bo": (1, 0)}
    assert {p: _digest(p) for p in class_dir.glob("*/*.sqlite3")} == before  # read only


def test_the_dashboard_reads_the_class_folder_when_one_is_set(tmp_path, monkeypatch):
    pytest.importorskip("ipywidgets")
    from mathcards.widgets.exercises import dashboard

    class_dir = tmp_path / "class"
    monkeypatch.setenv("MATHCARDS_CLASS_PROGRESS", str(class_dir))
    monkeypatch.setenv("MATHCARDS_PROGRESS", str(tmp_path / "teacher" / "progress.sqlite3"))
    empty = dashboard().value  # no student has answered yet: no folder yet either
    assert "0 attempts" in empty and str(tmp_path) not in empty
    _answer(class_dir / "ana" / "progress.sqlite3", "ana", "+3H")
    _answer(class_dir / "Bo--x" / "progress.sqlite3", "bo maria", "-3H")
    shown = dashboard().value
    assert "2 attempts by 2 students" in shown and str(tmp_path) not in shown
    assert ">ana<" in shown and ">bo maria<" in shown and "class&#x27;s progress folder" in shown


def test_a_stray_file_in_the_class_folder_is_one_line(tmp_path):
    class_dir = tmp_path / "class"
    (class_dir / "ana").mkdir(parents=True)
    (class_dir / "ana" / "progress.sqlite3").write_bytes(b"not a database" * 50)
    with pytest.raises(ProgressError) as caught:
        read_results(class_dir)
    message = str(caught.value)
    assert "\n" not in message and "ana/progress.sqlite3" in message
    assert str(tmp_path) not in message and "move it out of the class folder" in message
