"""The teacher's exercise grid, computed (issue 28 item 3): first tries, the worked solution
opened, untried exercises counted, answers as the student saw them, one set at a time, the
CSV, and a reading that takes only what is new. Real SQLite files, no widgets."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest

from mathcards.exercises import Attempt, ProgressStore, load_set_text
from mathcards.exercises.exercise_grid import (
    answer_shown,
    progress_grid,
    set_choices,
    set_columns,
    set_grid_csv,
)
from mathcards.exercises.results import ResultsReader, class_table, read_solutions
from tests.exercises.test_progress import SET

# five exercises: the warm-up's two and three deck values
FIVE = SET.replace("title: Warm-up\nid: warm-up",
                   "title: Integers warm-up (signed addition)\nid: integers-7b") + """\
  - kind: deck_value
    deck: 9H -4S +2D
  - kind: deck_value
    deck: 5H -8S
  - kind: deck_value
    deck: 2H -9S +4D
"""


@pytest.fixture
def five():
    return load_set_text(FIVE, name="integers-7b")


def _attempt(student, exercise, correct, score=None, *, at, set_id="s", answer="x",
             number=None, hints=0):
    return Attempt.new(student=student, set_id=set_id, set_title=set_id.upper(),
                       exercise=str(exercise), number=number or int(exercise), kind="k",
                       variant="v", answer=answer, correct=correct,
                       score=(1.0 if correct else 0.0) if score is None else score,
                       hints_used=hints, seconds=10.0, at=at)


def test_a_solution_opened_is_recorded_and_an_answer_after_it_is_no_solve_of_ones_own(
        tmp_path, five):
    store = ProgressStore(tmp_path / "p.sqlite3")
    ana = five.session("ana", store=store)
    ana.check(1, ["-3H"])
    ana.check(1, ["+4S"])  # two wrong: the worked solution opens
    ana.solution(1)
    ana.check(1, ["+3H"])  # the solution's answer, typed
    opened = store.solutions(student="ana")
    assert [(s.set_id, s.exercise, s.number) for s in opened] == [("integers-7b", "1", 1)]
    grid = progress_grid(store.attempts(), store.solutions(), set_id="integers-7b")
    cell = grid.cell("ana", 0)
    assert (cell.solution_opened, cell.solved_after_solution, cell.first_try_right,
            cell.attempts, cell.result) == (True, True, False, 3, "after the solution")
    assert grid.summary("ana").solutions_opened == 1


def test_a_file_from_before_solutions_were_kept_still_opens_and_is_read(tmp_path):
    path = tmp_path / "old.sqlite3"
    store = ProgressStore(path)
    store.record(_attempt("ana", 1, True, at="2026-01-01T10:00:00"))
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE solutions")  # as written by the release before this one
    conn.commit()
    conn.close()
    assert read_solutions(path) == []  # read only: the teacher's reading never writes
    assert len(ResultsReader(path).read()[0]) == 1
    assert ProgressStore(path).solutions() == []  # a student's page opens it and gains it


def test_right_at_the_first_try_and_the_number_of_tries_not_a_best_of_100_percent():
    attempts = [_attempt("ana", 1, True, at="t1"),
                _attempt("ben", 1, False, at="t2"), _attempt("ben", 1, False, at="t3"),
                _attempt("ben", 1, True, at="t4")]
    grid = progress_grid(attempts, set_id="s")
    ana, ben = grid.cell("ana", 0), grid.cell("ben", 0)
    assert (ana.first_try_right, ana.attempts, ana.result) == (True, 1, "first try")
    assert (ben.first_try_right, ben.attempts, ben.result) == (False, 3, "solved")
    assert grid.summary("ana").score == 1.0 and grid.summary("ben").score == 0.0


def test_untried_exercises_count_and_skipping_the_hard_one_never_raises_the_score(five):
    columns = set_columns(five)
    assert len(columns) == 5
    at = iter(f"2026-01-01T10:00:{n:02}" for n in range(60))
    tried = [_attempt("ana", n, True, at=next(at), set_id="integers-7b") for n in (1, 2)]
    grid = progress_grid(tried, set_id="integers-7b", exercises=columns)
    ana = grid.summary("ana")
    assert (ana.tried, ana.exercises, ana.first_try_right) == (2, 5, 2)
    assert ana.score == pytest.approx(2 / 5)
    assert grid.cell("ana", 4) is None  # untried, and still a column
    # ben tries all five and misses the last; cy skips it: cy's score is not higher
    ben = [_attempt("ben", n, n != 5, at=next(at), set_id="integers-7b") for n in range(1, 6)]
    cy = [_attempt("cy", n, True, at=next(at), set_id="integers-7b") for n in range(1, 5)]
    grid = progress_grid([*ben, *cy], set_id="integers-7b", exercises=columns)
    assert grid.summary("cy").score <= grid.summary("ben").score
    assert grid.summary("cy").tried == 4
    # the class table counts the set's size too
    rows = {r.student: r for r in class_table(tried, {"integers-7b": 5})}
    assert rows["ana"].mean_best == pytest.approx(2 / 5)


def test_answers_are_shown_as_the_student_saw_them():
    assert answer_shown("8S 3C | 8S 2H") == "8♠ 3♣ | 8♠ 2♥"
    assert answer_shown("+4S") == "+4♠"
    assert answer_shown("-9C +7D") == "\u22129♣ +7♦"
    assert answer_shown("10H, QS") == "10♥, Q♠"
    assert answer_shown("-3") == "\u22123"
    assert answer_shown("no") == "no" and answer_shown("yes") == "yes"


def test_a_partly_right_answer_is_kept_apart_from_the_wrong_ones():
    attempts = [_attempt("ana", 1, False, 0.5, at="t1", answer="8S 3C | 8S 2H"),
                _attempt("ana", 1, False, 0.0, at="t2", answer="6H")]
    cell = progress_grid(attempts, set_id="s").cell("ana", 0)
    assert cell.partly_right_answers == ("8S 3C | 8S 2H",)
    assert cell.plain_wrong_answers == ("6H",)
    assert cell.result == "partly right"


def test_one_set_at_a_time_the_newest_first():
    attempts = [_attempt("ana", 1, True, at="2026-01-01T10:00", set_id="old"),
                _attempt("ana", 1, True, at="2026-01-02T10:00", set_id="new"),
                _attempt("ben", 2, False, at="2026-01-01T11:00", set_id="old")]
    assert [set_id for _title, set_id in set_choices(attempts)] == ["new", "old"]
    grid = progress_grid(attempts, set_id="old")
    assert {c.set_id for c in grid.columns} == {"old"} and grid.students == ("ana", "ben")


def test_the_grid_csv_has_every_student_and_exercise_untried_included(five):
    at = iter(f"2026-01-01T10:00:{n:02}" for n in range(60))
    attempts = [_attempt("ana", 1, False, at=next(at), set_id="integers-7b", answer="-3H"),
                _attempt("ana", 1, True, at=next(at), set_id="integers-7b", answer="+3H"),
                _attempt("ben", 2, True, at=next(at), set_id="integers-7b")]
    grid = progress_grid(attempts, set_id="integers-7b", exercises=set_columns(five))
    rows = list(csv.DictReader(io.StringIO(set_grid_csv(grid))))
    assert len(rows) == 10  # 2 students x 5 exercises
    first = rows[0]
    assert (first["student"], first["number"], first["right at first try"], first["attempts"],
            first["answers"]) == ("ana", "1", "no", "2", "\u22123♥ ; +3♥")
    assert [r["tried"] for r in rows if r["student"] == "ana"] == ["yes"] + ["no"] * 4


def test_a_reading_takes_only_what_is_new(tmp_path):
    folder = tmp_path / "class"
    (folder / "ana").mkdir(parents=True)
    store = ProgressStore(folder / "ana" / "progress.sqlite3")
    store.record(_attempt("ana", 1, False, at="2026-01-01T10:00:00"))
    reader = ResultsReader(folder)
    assert len(reader.new()[0]) == 1
    assert reader.new() == ([], [])  # nothing new: nothing read again
    store.record(_attempt("ana", 1, True, at="2026-01-01T10:00:05"))
    new, _ = reader.new()
    assert [a.correct for a in new] == [True] and len(reader.attempts) == 2


def test_an_answer_after_the_worked_solution_is_answered_with_the_solution_everywhere(
        tmp_path, five):
    """Issue 37 item 6: the summary, the skill grid and the CSV count it "answered with the
    solution", never solved nor a right answer of its skill."""
    from mathcards.exercises.skill_grid import skill_grid, skill_grid_csv
    from mathcards.exercises.with_solution import with_solution_answers
    from mathcards.widgets.exercises import dashboard_answers

    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    ana = five.session("ana", store=store)
    ana.check(1, ["-3H"])
    ana.check(1, ["+4S"])  # two wrong: the worked solution opens
    ana.solution(1)
    ana.check(1, ["+3H"])  # the solution's answer, typed
    grid = progress_grid(store.attempts(), store.solutions(), set_id="integers-7b")
    summary = grid.summary("ana")
    assert (summary.solved, summary.with_solution) == (0, 1)
    assert grid.cell("ana", 0).solved is False
    rows = list(csv.DictReader(io.StringIO(set_grid_csv(grid))))
    first = next(r for r in rows if r["student"] == "ana" and r["number"] == "1")
    assert (first["solved"], first["answered with the solution"]) == ("no", "yes")
    answers = with_solution_answers(store.answers(), store.attempts(), store.solutions())
    skills = skill_grid(answers)
    assert sum(c.right for c in skills.cells.values()) == 0
    assert "with_solution" in skill_grid_csv(skills)
    read = dashboard_answers(path)  # what the dashboard's skill grid and its CSV read
    assert [a.right for a in read] == [False, False, False]
    store.close()


def test_the_grid_csv_keeps_its_columns_and_ids_in_every_language_and_labels_in_the_page_s(
        five):
    """Issue 41 item 3: a spreadsheet reads an export made on any page; only "label" (the
    exercise's words) is in the page's language."""
    from mathcards.i18n import using

    attempts = [_attempt("ana", 1, True, at="2026-01-01T10:00:00", set_id="integers-7b")]
    grid = progress_grid(attempts, set_id="integers-7b", exercises=set_columns(five))
    with using("en"):
        en = list(csv.reader(io.StringIO(set_grid_csv(grid))))
    with using("es"):
        es = list(csv.reader(io.StringIO(set_grid_csv(grid))))
    assert en[0] == es[0] and en[0][-1] == "label"
    assert [row[:-1] for row in en] == [row[:-1] for row in es]  # ids, yes/no, numbers
    assert [row[-1] for row in en[1:4]] == [
        "Reach the goal", "Who takes this trick?", "What is the deck value now?"]
    assert [row[-1] for row in es[1:4]] == [
        "Llega a la meta", "¿Quién gana esta baza?", "¿Cuánto vale ahora el montón?"]


def test_the_grid_csv_label_is_a_prompt_in_the_page_s_language_when_the_set_gives_one():
    """Issue 41 items 3 and 5: a prompt given per language is the label on a Spanish page;
    the set's own prompt (English) stays the label on an English one."""
    from mathcards.i18n import using

    text = ("title: {en: Signs, es: Signos}\nexercises:\n  - kind: deck_value\n"
            "    deck: 9H -4S\n    prompt: {en: Add the signs, es: Suma los signos}\n")
    signs = load_set_text(text, name="signs")
    attempts = [_attempt("ana", 1, True, at="2026-01-01T10:00:00", set_id="signs")]
    labels = {}
    for lang in ("en", "es"):
        with using(lang):
            grid = progress_grid(attempts, set_id="signs", exercises=set_columns(signs))
            labels[lang] = [r["label"] for r in csv.DictReader(io.StringIO(set_grid_csv(grid)))]
    assert labels == {"en": ["Add the signs"], "es": ["Suma los signos"]}
