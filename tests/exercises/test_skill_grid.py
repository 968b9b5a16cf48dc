"""The student x skill grid from play and exercises together: accuracy, questions, the most
frequent slip, the trend, who needs help, and its CSV; read from a class's databases."""

from __future__ import annotations

import csv
import io

from mathcards.asking import EXERCISE, FOLLOW, PLAY, Answer
from mathcards.exercises import ProgressStore, load_set_text
from mathcards.exercises.results import read_answers, read_results
from mathcards.exercises.skill_grid import (
    GRID_COLUMNS,
    needs_help,
    skill_grid,
    skill_grid_csv,
)


def _answer(student: str, skill: str, right: bool, n: int, *, slip: str = "",
            source: str = PLAY) -> Answer:
    return Answer(student=student, game="suns_to_moons", skill=skill, prompt="?", numbers=(),
                  expected="1", given="1" if right else "2", right=right,
                  slip="" if right else slip, source=source, uid=f"{student}-{skill}-{n}",
                  at=f"2024-05-01T10:{n // 60:02d}:{n % 60:02d}.000+00:00",
                  question=f"q-{student}-{skill}-{n}")  # a question of one try each


def _class() -> list[Answer]:
    out = []
    # ana: cross_zero, 10 early answers all wrong (sign slips), 10 late all right: better
    out += [_answer("ana", "cross_zero", False, n, slip="sign") for n in range(10)]
    out += [_answer("ana", "cross_zero", True, 10 + n, source=EXERCISE) for n in range(10)]
    # ben: cross_zero 1 right of 4 (off by one twice, a sign slip once): needs help
    out += [_answer("ben", "cross_zero", n == 0, n,
                    slip="off_by_one" if n < 3 else "sign", source=FOLLOW) for n in range(4)]
    # ben: dice_sum right twice: too few to tell a trend, no help needed
    out += [_answer("ben", "dice_sum", True, 30 + n) for n in range(2)]
    # cleo: cross_zero 2 wrong only: under the least questions, not listed
    out += [_answer("Cleo", "cross_zero", False, 40 + n, slip="ace_14") for n in range(2)]
    return out


def test_cells_count_accuracy_slip_and_trend():
    grid = skill_grid(reversed(_class()))  # any order in, time order inside
    assert grid.students == ("ana", "ben", "Cleo")
    assert grid.skills == ("cross_zero", "dice_sum")  # the documented order of skills
    ana = grid.cell("ana", "cross_zero")
    assert (ana.questions, ana.right, ana.accuracy) == (20, 10, 0.5)
    assert (ana.top_slip, ana.top_slip_words) == ("sign", "sign slip")
    assert (ana.earlier, ana.recent, ana.trend) == (0.0, 1.0, "better")
    assert (ana.from_play, ana.from_exercises) == (10, 10)
    ben = grid.cell("ben", "cross_zero")
    assert ben.slips == (("off_by_one", 2), ("sign", 1))
    assert (ben.earlier, ben.recent, ben.trend) == (0.5, 0.0, "worse")
    assert grid.cell("ben", "dice_sum").trend == "too few"
    assert grid.cell("ben", "dice_sum").top_slip == ""
    assert grid.cell("Cleo", "dice_sum") is None


def test_the_trend_compares_at_most_the_last_twenty():
    answers = [_answer("ana", "dice_sum", n < 30, n) for n in range(60)]  # 30 right, 30 wrong
    cell = skill_grid(answers).cell("ana", "dice_sum")
    assert (cell.earlier, cell.recent) == (0.75, 0.0)  # 40 earlier (30 right), 20 recent


def test_who_needs_help_with_a_skill():
    grid = skill_grid(_class())
    helped = needs_help(grid, "cross_zero")
    assert [(h.student, h.accuracy, h.questions, h.top_slip) for h in helped] == [
        ("ben", 0.25, 4, "off_by_one"), ("ana", 0.5, 20, "sign")]
    assert needs_help(grid, "dice_sum") == []
    assert [h.student for h in needs_help(grid, "cross_zero", least=2)] == [
        "Cleo", "ben", "ana"]


def test_the_grid_csv_has_a_row_per_student_and_skill():
    rows = list(csv.DictReader(io.StringIO(skill_grid_csv(skill_grid(_class())))))
    assert tuple(rows[0]) == GRID_COLUMNS
    assert [(r["student"], r["skill"]) for r in rows] == [
        ("ana", "cross_zero"), ("ben", "cross_zero"), ("ben", "dice_sum"),
        ("Cleo", "cross_zero")]
    ben = rows[1]
    assert (ben["accuracy"], ben["slip_words"], ben["trend"], ben["needs_help"]) == (
        "0.25", "off by one", "worse", "yes")
    assert rows[0]["skill_words"] == "add or subtract across zero"


def test_a_class_folder_gives_play_and_exercise_answers_and_keeps_attempts_apart(tmp_path):
    from tests.exercises.test_progress import SET

    warm_up = load_set_text(SET, name="warm-up")
    for student in ("ana", "ben"):
        store = ProgressStore(tmp_path / student / "progress.sqlite3")
        warm_up.session(student, store=store).check(1, "-3H")
        store.record_answer(_answer(student, "dice_sum", True, 5))
        store.close()
    store = ProgressStore(tmp_path / "exports.sqlite3")
    store.add_answers([_answer("dan", "dice_sum", False, 7, slip="off_by_two")])
    store.export_answers_csv(tmp_path / "dan-answers.csv")
    store.export_csv(tmp_path / "dan-attempts.csv")  # no attempts: a header only
    store.close()
    (tmp_path / "exports.sqlite3").unlink()
    answers = read_answers(tmp_path)
    assert sorted((a.student, a.skill, a.source) for a in answers) == [
        ("ana", "dice_sum", "play"), ("ana", "subtract_positive", "exercise"),
        ("ben", "dice_sum", "play"), ("ben", "subtract_positive", "exercise"),
        ("dan", "dice_sum", "play")]
    assert len(read_results(tmp_path)) == 2  # the answers' export is not read as attempts
    assert read_answers(tmp_path / "dan-answers.csv")[0].slip == "off_by_two"
    assert read_results(tmp_path / "dan-answers.csv") == []
    assert read_answers(tmp_path / "dan-attempts.csv") == []
