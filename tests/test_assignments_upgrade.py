"""Issue 38: an upgrade keeps every existing set, class and answer. A data folder made by
main before assignments (tests/fixtures/before_assignments, made with commit 5be900c's
code by its make_folder.py) opens with today's code: the classes and their codes, the
sets and their versions, the answers are all there, and the new records join them."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

BEFORE = Path(__file__).parent / "fixtures" / "before_assignments" / "data"


@pytest.fixture
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    shutil.copytree(BEFORE, folder)
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(folder))
    monkeypatch.delenv("MATHCARDS_PROGRESS", raising=False)
    monkeypatch.delenv("MATHCARDS_SETS", raising=False)
    return folder


def test_an_upgrade_keeps_every_class_set_and_answer_and_adds_assignments(data):
    from mathcards.assignments import GAME, SET, AssignmentStore, set_progress
    from mathcards.classes import ClassStore, member_for_code
    from mathcards.exercises.progress import FinishedGame, ProgressStore
    from mathcards.exercises.results import read_finished_games
    from mathcards.exercises.store import SetStore

    with ClassStore() as classes:
        seventh = classes.get("7b")
        assert seventh is not None and seventh.names == ["Ana", "Bo", "Cy"]
        assert seventh.codes and all(m.code and len(m.code) == 6 for m in seventh.members)
        assert member_for_code(seventh, seventh.members[1].code).name == "Bo"
        assert classes.get("club").names == ["Ana", "Dee"]
    sets = SetStore()
    assert sets.published() == ["integers_7b"] and sets.drafts() == ["secret_draft"]
    assert sets.versions("integers_7b") == [1, 2]
    store = ProgressStore()
    try:
        attempts = store.attempts(student="ana")
        assert [(a.exercise, a.correct) for a in attempts] == [("1", False), ("1", True)]
        assert [(s.student, s.exercise) for s in store.solutions()] == [("ana", "1")]
        answers = store.answers()
        assert [(a.student, a.right, a.source) for a in answers] == [
            ("ana", False, "exercise"), ("ana", True, "exercise"), ("bo", True, "play")]
        assert [(c.before, c.after) for c in store.level_changes()] == [("count", "show")]
        assert store.finished_games() == []  # none kept before: none invented
        store.record_game(FinishedGame.new(student="bo", game="sums", level="count",
                                           won=False))
    finally:
        store.close()
    assert [g.student for g in read_finished_games(data / "progress.sqlite3")] == ["bo"]
    today = dt.date.today()
    with AssignmentStore() as assignments:  # the new table beside the classes
        work = assignments.add("7b", SET, "integers_7b", opens=today - dt.timedelta(days=3650),
                               due=today)
        assignments.add("7b", GAME, "sums", opens=today, due=today, level="count", games=1)
        assert len(assignments.for_class("7b")) == 2
    rows = set_progress(work, ["ana", "bo", "cy"], ["1", "2", "3"], attempts,
                        store_solutions(data), today=today)
    assert [(r.student, r.state, r.done) for r in rows] == [
        ("ana", "in progress", 1), ("bo", "not started", 0), ("cy", "not started", 0)]
    with ClassStore() as classes:  # the classes untouched by the new table
        assert classes.get("7b").names == ["Ana", "Bo", "Cy"]


def store_solutions(data: Path) -> list[object]:
    from mathcards.exercises.results import read_solutions

    return list(read_solutions(data / "progress.sqlite3"))
