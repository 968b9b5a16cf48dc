"""The static site's progress store (no sqlite3 in the browser): a JSON file that keeps
every attempt, answer and opened solution like the SQLite store, survives a new process,
and the teacher's results read it as a student's downloaded file."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from mathcards.exercises import ProgressStore, load_set_text
from mathcards.exercises.progress import ProgressError
from mathcards.exercises.results import read_answers, read_results, read_solutions
from tests.exercises.test_progress import SET as PROGRESS_SET

SET = PROGRESS_SET.replace("solution_after: 2", "solution_after: 1")


def _work(store: ProgressStore, student: str) -> None:
    warm_up = load_set_text(SET, name="warm-up")
    session = warm_up.session(student, store=store)
    session.check(1, "-3H")
    session.check(1, "+3H")
    session.check(2, "R3")


def test_the_json_store_keeps_what_the_sqlite_store_keeps(tmp_path):
    sql = ProgressStore(tmp_path / "p.sqlite3")
    js = ProgressStore(tmp_path / "p.json")
    for store in (sql, js):
        _work(store, "ana")
        _work(store, "ben")
    assert js._json is not None and sql._json is None
    strip = [lambda a: a.__class__(**{**a.__dict__, "uid": "", "at": "", "seconds": 0})]
    assert [strip[0](a) for a in js.attempts()] == [strip[0](a) for a in sql.attempts()]
    assert js.count() == sql.count() == 6
    assert len(js.attempts(student="ana")) == 3
    assert len(js.answers(student="ben")) == len(sql.answers(student="ben")) > 0
    assert len(js.solutions()) == len(sql.solutions())
    got, last = js.attempts_after(0, student="ana")
    assert len(got) == 3 and js.attempts_after(last, student="ana") == ([], last)
    # an import of the same attempts adds nothing (each uid once)
    assert js.add_many(js.attempts()) == 0


def test_the_json_file_survives_a_new_process(tmp_path):
    path = tmp_path / "progress.json"
    _work(ProgressStore(path), "ana")
    code = textwrap.dedent(f"""
        from mathcards.exercises import ProgressStore
        store = ProgressStore({str(path)!r})
        print(store.count(), store.attempts()[-1].answer)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["3", "R3"]


def test_the_teacher_reads_a_folder_of_downloaded_progress_files(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("ana", "ben"):
        _work(ProgressStore(folder / f"mathcards-progress-{student}.json"), student)
    attempts = read_results(folder)
    assert sorted({a.student for a in attempts}) == ["ana", "ben"] and len(attempts) == 6
    assert {a.student for a in read_answers(folder)} == {"ana", "ben"}
    # in time order, and attempts of one millisecond in the order their file holds them
    assert [a.uid for a in read_results(folder / "mathcards-progress-ana.json")] == [
        a.uid for a in attempts if a.student == "ana"]
    assert isinstance(read_solutions(folder), list)


def test_a_json_file_that_is_not_progress_is_named(tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text(json.dumps(["not", "progress"]))
    with pytest.raises(ProgressError, match=r"notes\.json is not a MathCards progress file"):
        read_results(bad)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(ProgressError, match=r"broken\.json"):
        ProgressStore(broken)


def test_the_json_store_keeps_the_changes_of_level(tmp_path):
    from mathcards.asking import LevelChange
    from mathcards.exercises.results import read_level_changes

    folder = tmp_path / "class"
    store = ProgressStore(folder / "mathcards-progress-ana.json")
    # two changes in one millisecond (as a quick student makes them): kept in the order made
    at = "2026-11-27T10:00:00.000+00:00"
    down = store.record_level(LevelChange("ana", "suns_to_moons", "count", "show", at=at,
                                          uid="f" * 32))
    store.record_level(down)  # the same change twice is kept once
    store.record_level(LevelChange("ana", "sums", "show", "count", at=at, uid="0" * 32))
    assert [c.after for c in store.level_changes(student="ana")] == ["show", "count"]
    assert store.level_changes(game="sums")[0].before == "show"
    # a new process reads the file, and the teacher's grid reads a folder of them
    assert ProgressStore(store.path).level_changes() == store.level_changes()
    assert [c.uid for c in read_level_changes(folder)] == [
        c.uid for c in store.level_changes()]
