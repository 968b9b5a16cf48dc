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


def test_the_rows_put_the_students_to_see_first_on_top_and_the_csv_follows(store):
    from mathcards.assignments import for_the_teacher, most_missed, needs_help, report_csv

    assignment = store.add("7b", SET, "integers_7b", opens=OPENS, due=DUE)
    histories = {  # three exercises
        "ana": [("e1", True), ("e2", True), ("e3", True)],  # done
        "bo": [("e1", False), ("e1", True), ("e2", False), ("e2", True), ("e3", False),
               ("e3", True)],  # done, every first try missed: needs help
        "cy": [("e1", False), ("e1", True)],  # stuck in progress
        "dee": [],  # never opened it
    }
    attempts = [_try(s, e, "2026-12-02", ok) for s, tries in histories.items()
                for e, ok in tries]
    rows = set_progress(assignment, list(histories), ["e1", "e2", "e3"], attempts,
                        today=dt.date(2026, 12, 4))
    order = for_the_teacher(rows)
    assert [r.student for r in order] == ["cy", "dee", "bo", "ana"]
    assert [needs_help(r) for r in order] == [False, False, True, False]
    assert most_missed(assignment, attempts, list(histories)) == ("e1", 2)
    assert most_missed(assignment, attempts, ["ana"]) == ("", 0)
    late = set_progress(assignment, list(histories), ["e1", "e2", "e3"], attempts,
                        today=dt.date(2026, 12, 6))  # past due: the overdue first
    assert [r.student for r in for_the_teacher(late)] == ["cy", "dee", "bo", "ana"]
    text = report_csv(order, {"cy": "Cy", "dee": "Dee", "bo": "Bo", "ana": "Ana"})
    lines = text.splitlines()
    assert lines[0].startswith("student,name,state,done,needed")
    assert lines[1].startswith("cy,Cy,in progress,1,3,1,0,no,no,")
    assert lines[2].startswith("dee,Dee,not started,0,3,0,0,no,no,")
    assert lines[3].startswith("bo,Bo,done,3,3,3,0,yes,no,")
    assert len(lines) == 5


def test_a_game_assignment_counts_first_tries_of_its_level_only(store):
    from mathcards.asking import Answer
    from mathcards.assignments import most_missed_skill

    assignment = store.add("7b", GAME, "suns_to_moons", opens=OPENS, due=DUE, level="count",
                           games=1)

    def answer(student, right, *, level="count", skill="adding", day="2026-12-02",
               game="suns_to_moons", **extra):
        a = Answer(student=student, game=game, skill=skill, prompt="p", numbers=(),
                   expected="1", given="1", right=right, level=level,
                   at=f"{day}T10:00:00.000+00:00")
        for name, value in extra.items():  # a retry, a refusal (when answers carry them)
            object.__setattr__(a, name, value)
        return a

    answers = [answer("ana", False, skill="subtracting"), answer("ana", True),
               answer("ana", True, attempt=2),  # a retry is no extra answer
               answer("ana", False, rule="the ±10 bound"),  # a refusal is no question
               answer("ana", False, level="show"),  # another level
               answer("ana", False, game="sums"),  # another game
               answer("ana", False, day="2026-11-30"),  # before the opening
               answer("bo", False, skill="subtracting")]
    rows = game_progress(assignment, ["ana", "bo", "cy"], [], answers,
                         today=dt.date(2026, 12, 3))
    assert [(r.student, r.state, r.questions, r.first_try) for r in rows] == [
        ("ana", IN_PROGRESS, 2, 1), ("bo", IN_PROGRESS, 1, 0), ("cy", NOT_STARTED, 0, 0)]
    assert most_missed_skill(assignment, answers, ["ana", "bo", "cy"]) == ("subtracting", 2)
