"""A class's assignments (issue 38 item 1): the store on a real SQLite file, and what each
student's row says, as table tests of hand-made histories."""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest

from mathcards.assignments import (
    DONE,
    DONE_LATE,
    GAME,
    IN_PROGRESS,
    NOT_STARTED,
    SET,
    AssignmentError,
    AssignmentStore,
    game_progress,
    set_progress,
)
from mathcards.classes import ClassStore
from mathcards.exercises.progress import Attempt, FinishedGame, SolutionOpened

OPENS, DUE = dt.date(2026, 12, 1), dt.date(2026, 12, 5)


@pytest.fixture
def store(tmp_path):
    with AssignmentStore(tmp_path / "classes.sqlite3") as s:
        yield s


def test_assignments_are_kept_with_the_classes_and_listed_soonest_due_first(tmp_path):
    path = tmp_path / "classes.sqlite3"
    with ClassStore(path) as classes:  # a classes file made before assignments were
        classes.save("7b", "Ana\nBo")
    with AssignmentStore(path) as store:
        later = store.add("7b", SET, "integers_7b", opens="2026-12-01", due="2026-12-12")
        sooner = store.add("7B", GAME, "suns_to_moons", opens=OPENS, due=DUE,
                           level="count", games=3)
        store.add("8a", SET, "warm_up", opens=OPENS, due=DUE)
    with AssignmentStore(path) as again, ClassStore(path) as classes:
        assert [a.id for a in again.for_class("7b")] == [sooner.id, later.id]
        assert again.get(sooner.id) == sooner
        assert (sooner.class_id, sooner.level, sooner.games) == ("7b", "count", 3)
        assert classes.get("7b").names == ["Ana", "Bo"]  # the classes untouched
        assert again.remove(later.id) and not again.remove(later.id)
        assert [a.id for a in again.for_class("7b")] == [sooner.id]
        assert again.for_class("no such/class") == []
    assert sqlite3.connect(path).execute("SELECT count(*) FROM assignments").fetchone() == (2,)


@pytest.mark.parametrize(("args", "said"), [
    (("7b", SET, "x"), {"opens": "1 December", "due": DUE}, ),
    (("7b", SET, "x"), {"opens": DUE, "due": OPENS}),
    (("7b", SET, ""), {"opens": OPENS, "due": DUE}),
    (("7b", GAME, "chess"), {"opens": OPENS, "due": DUE, "level": "count", "games": 1}),
    (("7b", GAME, "sums"), {"opens": OPENS, "due": DUE, "level": "expert", "games": 1}),
    (("7b", GAME, "sums"), {"opens": OPENS, "due": DUE, "level": "count", "games": 0}),
    (("7b", "homework", "sums"), {"opens": OPENS, "due": DUE}),
    (("7b!", SET, "x"), {"opens": OPENS, "due": DUE}),
], ids=["date", "due-before-opening", "no-set", "no-game", "level", "games", "kind", "class"])
def test_a_bad_assignment_is_one_line_and_nothing_is_kept(store, args, said):
    with pytest.raises(AssignmentError) as refused:
        store.add(*args, **said)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200
    assert store.all() == []


def _try(student, exercise, at, correct, set_id="integers_7b"):
    return Attempt.new(student=student, set_id=set_id, set_title="Integers", exercise=exercise,
                       number=int(exercise[1]), kind="deck_value", variant="", answer="x",
                       correct=correct, score=float(correct), hints_used=0, seconds=5.0,
                       at=f"{at}T10:00:00.000+00:00")


# (student, their attempts (exercise, day, right), solutions opened (exercise, day),
#  the state, exercises finished, right at the first try, overdue on 2026-12-06)
SET_HISTORIES = [
    ("ana", [("e1", "2026-12-02", True), ("e2", "2026-12-03", False),
             ("e2", "2026-12-03", True)], [], DONE, 2, 1, False),
    ("bo", [("e1", "2026-12-02", True)], [], IN_PROGRESS, 1, 1, True),
    ("cy", [], [], NOT_STARTED, 0, 0, True),
    ("dee", [("e1", "2026-12-02", True), ("e2", "2026-12-07", True)], [], DONE_LATE, 2, 2,
     False),
    # a wrong answer, the worked solution, then an answer with it open: finished, not right
    ("eve", [("e1", "2026-12-02", False), ("e1", "2026-12-03", False),
             ("e2", "2026-12-02", True)], [("e1", "2026-12-02")], DONE, 2, 1, False),
    # work before the assignment opened does not count for it
    ("fay", [("e1", "2026-11-28", True), ("e2", "2026-11-28", True)], [], NOT_STARTED, 0, 0,
     True),
    # the solution opened and never answered: not finished
    ("gus", [("e1", "2026-12-02", False)], [("e1", "2026-12-03")], IN_PROGRESS, 0, 0, True),
    # right at once, but after the solution was opened: finished, not a first-try right
    ("hal", [("e1", "2026-12-03", True), ("e2", "2026-12-03", True)],
     [("e1", "2026-12-02")], DONE, 2, 1, False),
]


def test_each_students_row_on_a_set_assignment(store):
    assignment = store.add("7b", SET, "integers_7b", opens=OPENS, due=DUE)
    attempts = [_try(s, e, day, ok) for s, tries, *_ in SET_HISTORIES for e, day, ok in tries]
    attempts.append(_try("ivy", "e1", "2026-12-02", True, set_id="another_set"))
    solutions = [SolutionOpened.new(student=s, set_id="integers_7b", exercise=e,
                                    number=int(e[1]), at=f"{day}T09:00:00.000+00:00")
                 for s, _tries, opened, *_ in SET_HISTORIES for e, day in opened]
    students = [h[0] for h in SET_HISTORIES] + ["ivy"]
    rows = set_progress(assignment, students, ["e1", "e2"], attempts, solutions,
                        today=dt.date(2026, 12, 6))
    got = {r.student: (r.state, r.done, r.first_try, r.overdue) for r in rows}
    want = {s: (state, done, first, late) for s, _t, _o, state, done, first, late
            in SET_HISTORIES}
    want["ivy"] = (NOT_STARTED, 0, 0, True)  # another set's answers do not count
    assert got == want
    assert [r.student for r in rows] == students  # every student a row, none left out
    assert all(r.needed == 2 for r in rows)


# (student, their finished games (game, level, day), the state, games counted)
GAME_HISTORIES = [
    ("ana", [("suns_to_moons", "count", f"2026-12-0{d}") for d in (1, 2, 4)], DONE, 3),
    ("bo", [("suns_to_moons", "count", "2026-12-02"), ("suns_to_moons", "count", "2026-12-03"),
            ("suns_to_moons", "show", "2026-12-03")], IN_PROGRESS, 2),
    ("cy", [("suns_to_moons", "count", f"2026-12-0{d}") for d in (2, 3, 6)], DONE_LATE, 3),
    ("dee", [("suns_to_moons", "count", "2026-11-30")] * 3, NOT_STARTED, 0),
    ("eve", [("sums", "count", "2026-12-02")] * 3, NOT_STARTED, 0),
    ("fay", [("suns_to_moons", "count", "2026-12-02")] * 5, DONE, 3),
]


def test_each_students_row_on_a_game_assignment(store):
    assignment = store.add("7b", GAME, "suns_to_moons", opens=OPENS, due=DUE, level="count",
                           games=3)
    finished = [FinishedGame.new(student=s, game=game, level=level, won=False,
                                 at=f"{day}T10:00:00+00:00")
                for s, games, *_ in GAME_HISTORIES for game, level, day in games]
    rows = game_progress(assignment, [h[0] for h in GAME_HISTORIES], finished,
                         today=dt.date(2026, 12, 3))
    assert {r.student: (r.state, r.done) for r in rows} == {
        s: (state, done) for s, _g, state, done in GAME_HISTORIES}
    assert not any(r.overdue for r in rows)  # the due date is still ahead
