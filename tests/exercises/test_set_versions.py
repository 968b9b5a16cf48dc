"""Published sets have versions (mathcards.exercises.store): a student's answer is stored
with the version it answered and keeps it after the teacher publishes a changed set; and a
data folder written before versions existed (tests/fixtures/before_versions, made with the
code of commit f1830e4 by its make_folder.py) opens with every set, draft and answer."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from mathcards.exercises.progress import ProgressStore, read_csv
from mathcards.exercises.results import read_answers, read_results, read_solutions
from mathcards.exercises.session import Session
from mathcards.exercises.store import DRAFT, PUBLISHED, SetStore
from mathcards.widgets.exercises import student_set
from tests.browser.server import LESSONS
from tests.exercises.test_store import GOOD

SAMPLES = LESSONS / "exercises"
CHANGED = GOOD.replace("deck: 9H -4S +2D", "deck: 9H -4S +3D").replace("Integers 7B",
                                                                        "Integers 7B (v2)")
BEFORE = Path(__file__).parent.parent / "fixtures" / "before_versions" / "data"


@pytest.fixture
def sets(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_SETS", str(tmp_path / "sets"))
    return SetStore()


def answer_first(store, right: str) -> None:
    """ana opens the published set as the practice page does and answers exercise 1."""
    session = Session(student_set(SAMPLES, "integers_7b"), "ana", store=store)
    assert session.check(1, right).correct


@pytest.mark.parametrize("file", ["progress.sqlite3", "progress.json"])
def test_answers_keep_their_version_after_a_republish(sets, tmp_path, file):
    path = tmp_path / file
    store = ProgressStore(path)
    sets.publish(GOOD)
    answer_first(store, "7")  # 9 - 4 + 2
    sets.save_draft(CHANGED)  # a draft: students still answer version 1
    answer_first(store, "7")
    assert sets.publish(CHANGED).version == 2
    answer_first(store, "8")  # 9 - 4 + 3
    expected = [(1, "deck: 9H -4S +2D"), (1, "deck: 9H -4S +2D"), (2, "deck: 9H -4S +3D")]
    assert [(a.set_version, a.variant) for a in store.attempts()] == expected
    store.close()
    # read again: the student's own file, the teacher's read-only reading, a CSV export
    assert [(a.set_version, a.variant) for a in ProgressStore(path).attempts()] == expected
    assert [(a.set_version, a.variant) for a in read_results(path)] == expected
    exported = ProgressStore(path).export_csv()
    assert [(a.set_version, a.variant) for a in read_csv(io.StringIO(exported))] == expected
    assert sets.read_version("integers_7b", 1) == GOOD  # what version 1's answers answered


def test_the_writer_says_how_many_answers_stay_with_the_version_before(sets):
    from mathcards.widgets.setwriter import SetWriter

    store = ProgressStore()  # the server's own progress database, which the page reads
    writer = SetWriter(SAMPLES, schedule=lambda _delay, fn: fn())
    writer.w_yaml.value = GOOD
    writer.w_publish.click()
    answer_first(store, "7")
    answer_first(store, "7")
    writer.w_yaml.value = CHANGED
    writer.w_publish.click()
    said = writer.w_status.value
    assert "Version 2 replaces version 1" in said
    assert "the 2 answers students gave to it stay with version 1" in said


def old_folder(tmp_path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(BEFORE, data)
    return data


def test_a_data_folder_from_before_versions_keeps_every_set_and_draft(tmp_path):
    data = old_folder(tmp_path)
    sets = SetStore(data / "sets")
    assert sets.published() == ["integers_7b"] and sets.drafts() == ["secret_draft"]
    assert sets.read("integers_7b", PUBLISHED) == GOOD
    assert "Secret draft" in sets.read("secret_draft", DRAFT)
    assert sets.version("integers_7b") == 1 and sets.versions("integers_7b") == [1]
    sets.save_draft(CHANGED)
    assert sets.read("integers_7b", PUBLISHED) == GOOD  # students' set untouched
    assert (sets.publish(CHANGED).version, sets.read_version("integers_7b", 1)) == (2, GOOD)


@pytest.mark.parametrize("file", ["progress.sqlite3", "progress.json"])
def test_a_progress_file_from_before_versions_keeps_every_answer_as_version_1(tmp_path,
                                                                             monkeypatch,
                                                                             file):
    data = old_folder(tmp_path)
    path = data / file
    # the teacher's read-only reading, before any new code has written to the file
    read = read_results(path)
    assert [(a.student, a.answer, a.correct, a.set_version) for a in read] == [
        ("ana", "5", False, 1), ("ana", "7", True, 1)]
    assert len(read_answers(path)) == 2 and len(read_solutions(path)) == 1
    store = ProgressStore(path)  # the student's page opens it, and writes to it
    assert [a.set_version for a in store.attempts()] == [1, 1]
    assert store.count_answers() == 2 and len(store.solutions()) == 1
    monkeypatch.setenv("MATHCARDS_SETS", str(data / "sets"))
    SetStore().publish(CHANGED)
    answer_first(store, "8")
    assert [a.set_version for a in store.attempts()] == [1, 1, 2]
    store.close()
    assert [a.set_version for a in read_results(path)] == [1, 1, 2]


def test_a_csv_export_from_before_versions_reads_as_version_1(tmp_path):
    data = old_folder(tmp_path)
    exported = ProgressStore(data / "progress.json").export_csv()
    rows = list(csv.DictReader(io.StringIO(exported)))
    old = io.StringIO()  # the columns an export had before versions
    writer = csv.DictWriter(old, [c for c in rows[0] if c != "set_version"],
                            extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    old.seek(0)
    assert [a.set_version for a in read_csv(old)] == [1, 1]


@pytest.mark.parametrize("file", ["progress.sqlite3", "progress.json"])
def test_answers_kept_before_tries_read_as_questions_and_gain_the_columns(tmp_path, file):
    """Issue 37 item 5: a file written before answers had a question id and a try number
    reads as it did (the teacher's read-only reading, then the student's page opening and
    writing it): every answer kept, its tries grouped by their prompt (exercise 1 answered
    5 then 7 is one question, right in the end, not at the first try), and an answers CSV
    exported before has the old columns and still reads."""
    from mathcards.asking import Answer
    from mathcards.exercises.progress import OLD_ANSWER_COLUMNS, answers_csv, read_answers_csv
    from mathcards.exercises.skill_grid import skill_grid

    data = old_folder(tmp_path)
    path = data / file

    def cell():
        found = skill_grid(read_answers(path)).cell("ana", "subtract_positive")
        return found.questions, found.first_try, found.right

    assert [(a.given, a.attempt, a.question) for a in read_answers(path)] == [
        ("5", 1, ""), ("7", 1, "")]
    assert cell() == (1, 0, 1)
    store = ProgressStore(path)  # the page opens it: the answers table gains the columns
    store.record_answer(Answer(student="ana", game="suns_to_moons", skill="subtract_positive",
                               prompt="The deck is 3. You lay 9♣ upright (−9)",
                               numbers=(3, -9), expected="-6", given="-6", right=True,
                               question="q1", attempt=1, hints=1))
    store.close()
    kept = read_answers(path)
    assert [(a.given, a.question, a.hints) for a in kept] == [
        ("5", "", 0), ("7", "", 0), ("-6", "q1", 1)]
    assert cell() == (2, 1, 2)
    old = io.StringIO()  # an answers export made before tries: the old columns only
    rows = list(csv.DictReader(io.StringIO(answers_csv(kept[:2]))))
    writer = csv.DictWriter(old, OLD_ANSWER_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    (tmp_path / "answers-before.csv").write_text(old.getvalue(), encoding="utf-8")
    from_csv = read_answers(tmp_path / "answers-before.csv")
    assert [(a.given, a.attempt) for a in from_csv] == [("5", 1), ("7", 1)]
    assert read_answers_csv(tmp_path / "answers-before.csv") == from_csv
