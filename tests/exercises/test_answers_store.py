"""Answers (a table's questions and exercises named by skill) kept in the progress file:
their own table, filters, a CSV round trip, and files written before the table existed."""

from __future__ import annotations

import sqlite3

import pytest

from mathcards.asking import EXERCISE, FOLLOW, Answer, Question
from mathcards.exercises import ProgressStore
from mathcards.exercises.progress import ProgressError, read_answers_csv
from mathcards.skills import classify_slip


def _answers() -> list[Answer]:
    q = Question("suns_to_moons", "cross_zero", "The deck is 3; you lay 5♣ upright. Now?",
                 (3, -5), -2, cards=("", "5C"))
    dice = Question("dice_stacks", "dice_sum", "You rolled 4 and 6: what are you making?",
                    (4, 6), 10)
    return [
        Answer.of(q, "8", right=False, slip=classify_slip(q, "8"), student="ana"),
        Answer.of(q, "-2", right=True, student="ana"),
        Answer.of(dice, 10, right=True, student='o\'neil, "jr"'),
        Answer(student="ana", game="suns_to_moons", skill="add_positive",
               prompt="reach the goal, café", numbers=(), expected="+3H", given="-3H",
               right=False, slip="sign", seconds=4.5, source=EXERCISE),
        Answer.of(Question("sums", "capture_spot", "Which capture?", (7, 5, 12),
                           "QD = 7C + 5H", kind="capture", follow=True),
                  "none", right=False, slip="missed_capture", student="ben"),
    ]


def test_answers_are_kept_and_filtered(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    answers = _answers()
    for answer in answers:
        assert store.record_answer(answer) is answer
    store.close()
    again = ProgressStore(tmp_path / "p.sqlite3")  # a new connection: it is on disk
    assert again.answers() == answers
    assert again.answers(student="ana") == [answers[0], answers[1], answers[3]]
    assert again.answers(game="dice_stacks") == [answers[2]]
    assert again.answers(skill="cross_zero") == answers[:2]
    assert again.answers(student="ana", skill="add_positive")[0].source == EXERCISE
    assert again.answers(student="ben")[0].source == FOLLOW
    assert again.answers()[0].slip == "sign" and again.answers()[0].numbers == (3, -5)
    assert again.count() == 0  # exercise attempts are a table of their own
    index = again._conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'answers'"
    ).fetchall()
    assert ("answers_by_student",) in index


def test_answers_csv_round_trips_and_imports_once(tmp_path):
    store = ProgressStore(tmp_path / "a.sqlite3")
    store.add_answers(_answers())
    exported = store.export_answers_csv(tmp_path / "answers.csv")
    assert read_answers_csv(tmp_path / "answers.csv") == store.answers()
    other = ProgressStore(tmp_path / "b.sqlite3")
    assert other.import_answers_csv(tmp_path / "answers.csv") == 5
    assert other.import_answers_csv(tmp_path / "answers.csv") == 0
    assert other.export_answers_csv() == exported
    assert store.export_answers_csv(student="ben").count("\n") == 2  # header + one row


def test_a_csv_that_is_not_an_answers_export_is_named(tmp_path):
    store = ProgressStore(tmp_path / "a.sqlite3")
    store.add_answers(_answers())
    attempts_export = tmp_path / "attempts.csv"
    attempts_export.write_text(store.export_csv())
    with pytest.raises(ProgressError, match=r"attempts\.csv is not a MathCards export of "
                                            r"answers: it has no column .*game"):
        read_answers_csv(attempts_export)
    bad = tmp_path / "bad.csv"
    bad.write_text(store.export_answers_csv().replace("3 -5", "three", 1))
    with pytest.raises(ProgressError, match=r"bad\.csv line 2"):
        read_answers_csv(bad)


def test_a_file_from_before_the_answers_table_opens_and_keeps_its_attempts(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    # the attempts table exactly as files written before issue 25 have it
    conn.executescript("""
        CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE,
            at TEXT NOT NULL, student TEXT NOT NULL, set_id TEXT NOT NULL,
            set_title TEXT NOT NULL, exercise TEXT NOT NULL, number INTEGER NOT NULL,
            kind TEXT NOT NULL, variant TEXT NOT NULL, answer TEXT NOT NULL,
            correct INTEGER NOT NULL, score REAL NOT NULL, hints_used INTEGER NOT NULL,
            seconds REAL NOT NULL);
        INSERT INTO attempts (uid, at, student, set_id, set_title, exercise, number, kind,
            variant, answer, correct, score, hints_used, seconds)
        VALUES ('u1', '2024-01-01T00:00:00.000+00:00', 'ana', 's', 'S', 'e1', 1,
            'reach_goal', 'v', '+3H', 1, 1.0, 0, 3.0);
    """)
    conn.commit()
    conn.close()
    store = ProgressStore(path)
    assert [a.uid for a in store.attempts()] == ["u1"]
    assert store.answers() == []
    store.record_answer(_answers()[0])
    assert len(store.answers()) == 1 and store.count() == 1
