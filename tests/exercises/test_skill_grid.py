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


# --- issue 37 item 5: a question is one record with its tries ---------------------------
# A history is one student's questions on one skill, in order, written by hand: questions
# apart by spaces, a question's tries joined by "-": R right, W<slip> wrong (s sign,
# 1 off by one, 2 off by two, f a face card's value, + added instead of subtracted,
# - subtracted instead of added, o another slip), S its result seen (stepped down while it
# waited, or peeked), X answered with the worked solution open; "h:" before a question:
# a hint was taken before it; F alone: a move the rules refused (a refusal with its rule,
# not a question). "L:" before the whole history: kept before tries were (no question id:
# read back by grouping, two tries at most at a table).
SLIP_CODES = {"s": "sign", "1": "off_by_one", "2": "off_by_two", "f": "face_value",
              "+": "added_not_subtracted", "-": "subtracted_not_added", "o": "other"}

# history -> (questions, first-try right, right in the end, seen, most frequent slip,
#             with the solution, refusals, questions after a hint)
HISTORIES = [
    ("R", (1, 1, 1, 0, "", 0, 0, 0)),
    ("Ws-R", (1, 0, 1, 0, "sign", 0, 0, 0)),
    ("Ws-Ws", (1, 0, 0, 0, "sign", 0, 0, 0)),
    # the figure: 4 answers, 3 right, were "3 of 4 right"; 2 of 3 at the first try
    ("R Ws-R R", (3, 2, 3, 0, "sign", 0, 0, 0)),
    ("R R R R", (4, 4, 4, 0, "", 0, 0, 0)),
    ("W1-R W1-R", (2, 0, 2, 0, "off_by_one", 0, 0, 0)),
    ("W1-W1 Ws-R", (2, 0, 1, 0, "off_by_one", 0, 0, 0)),
    ("W1-R Ws-R", (2, 0, 2, 0, "sign", 0, 0, 0)),  # a tie: the documented order (sign)
    ("W2-R W2-W1 W1-W1", (3, 0, 1, 0, "off_by_one", 0, 0, 0)),
    ("S", (1, 0, 0, 1, "", 0, 0, 0)),  # seen is not a slip
    ("W1-S", (1, 0, 0, 1, "off_by_one", 0, 0, 0)),  # wrong, then stepped down: seen
    ("S R", (2, 1, 1, 1, "", 0, 0, 0)),
    ("R S S", (3, 1, 1, 2, "", 0, 0, 0)),
    ("X", (1, 0, 0, 0, "", 1, 0, 0)),  # the worked solution: not right, not a slip
    ("X R Wf-R", (3, 1, 2, 0, "face_value", 1, 0, 0)),
    ("Wo-X", (1, 0, 0, 0, "other", 1, 0, 0)),
    ("F", (0, 0, 0, 0, "", 0, 1, 0)),  # refusals only: no question
    ("F F R", (1, 1, 1, 0, "", 0, 2, 0)),
    ("F Ws-Ws F", (1, 0, 0, 0, "sign", 0, 2, 0)),
    ("h:R", (1, 1, 1, 0, "", 0, 0, 1)),
    ("h:Ws-R R", (2, 1, 2, 0, "sign", 0, 0, 1)),
    ("h:W+-R h:W+-W+ R", (3, 1, 2, 0, "added_not_subtracted", 0, 0, 2)),
    ("W--R W--R W+-R", (3, 0, 3, 0, "subtracted_not_added", 0, 0, 0)),
    ("Wo-Wo Wo-R R R", (4, 2, 3, 0, "other", 0, 0, 0)),
    ("R Wf-Wf Wf-R F S", (4, 1, 2, 1, "face_value", 0, 1, 0)),
    ("h:S h:W1-S", (2, 0, 0, 2, "off_by_one", 0, 0, 2)),
    ("Ws-Ws-R", (1, 0, 1, 0, "sign", 0, 0, 0)),  # a third try (cards built again)
    ("W+-W+-W+-R", (1, 0, 1, 0, "added_not_subtracted", 0, 0, 0)),
    ("X X S R F", (4, 1, 1, 1, "", 2, 1, 0)),
    # kept before tries were: a wrong answer and the next to the same prompt are one
    ("L:W1-R", (1, 0, 1, 0, "off_by_one", 0, 0, 0)),
    ("L:W1-W1-W1", (2, 0, 0, 0, "off_by_one", 0, 0, 0)),  # a table asked twice at most
    ("L:R R", (2, 2, 2, 0, "", 0, 0, 0)),  # right: the next answer is a new question
    ("L:S R", (2, 1, 1, 1, "", 0, 0, 0)),  # seen: the next answer is a new question
    ("L:Ws-R Ws", (2, 0, 1, 0, "sign", 0, 0, 0)),
]


def _history(n: int, text: str) -> list[Answer]:
    """The answers of history ``n``: one student, the skill cross_zero, a prompt each."""
    legacy = text.startswith("L:")
    out: list[Answer] = []
    tick = 0
    for j, question in enumerate(text.removeprefix("L:").split()):
        hints = 1 if question.startswith("h:") else 0
        tries = question.removeprefix("h:")
        if tries == "F":
            tick += 1
            out.append(Answer(student=f"s{n}", game="suns_to_moons", skill="cross_zero",
                              prompt="you can't lay 9♣ upright here", numbers=(3, -9),
                              expected="", given="-9", right=False, slip="other",
                              uid=f"s{n}-f{j}", at=f"2024-05-01T10:00:{tick:02d}.000+00:00",
                              question=f"s{n}-f{j}", rule="you can't lay 9♣ upright here"))
            continue
        for k, code in enumerate(_split(tries)):
            tick += 1
            right, seen, solution = code == "R", code == "S", code == "X"
            slip = ("" if right else "seen" if seen else "with_solution" if solution
                    else SLIP_CODES[code[1:]])
            out.append(Answer(
                student=f"s{n}", game="suns_to_moons", skill="cross_zero",
                prompt=f"The deck is 3. You lay 9♣ upright (−9) #{j}" if not legacy else
                "The deck is 3. You lay 9♣ upright (−9)", numbers=(3, -9), expected="-6",
                given="-6" if right else "6", right=right, slip=slip, seconds=2.0,
                uid=f"s{n}-{j}-{k}", at=f"2024-05-01T10:00:{tick:02d}.000+00:00",
                question="" if legacy else f"s{n}-q{j}", attempt=1 if legacy else k + 1,
                hints=hints))
    return out


def _split(tries: str) -> list[str]:
    """Tries joined by "-" where a slip code is "-" or "+" too ("W--R": W- then R)."""
    out, i = [], 0
    while i < len(tries):
        code = tries[i:i + 2] if tries[i] == "W" else tries[i]
        out.append(code)
        i += len(code) + 1
    return out


def test_thirty_hand_made_histories_give_their_skill_grid_cells():
    assert len(HISTORIES) >= 30
    answers = [a for n, (text, _cell) in enumerate(HISTORIES) for a in _history(n, text)]
    grid = skill_grid(reversed(answers))  # any order in
    for n, (text, want) in enumerate(HISTORIES):
        cell = grid.cell(f"s{n}", "cross_zero")
        got = (cell.questions, cell.first_try, cell.right, cell.seen,
               cell.top_slip, cell.with_solution,
               cell.refusals, cell.hinted)
        assert got == want, f"history {n} {text!r}: {got} != {want}"
    # the CSV carries the same figures
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(skill_grid_csv(grid)))}
    for n, (text, want) in enumerate(HISTORIES):
        row = rows[f"s{n}"]
        assert (int(row["questions"]), int(row["first_try_right"]), int(row["right"]),
                int(row["seen"]), row["most_frequent_slip"], int(row["with_solution"]),
                int(row["refusals"]), int(row["hinted"])) == want, text


def test_the_grid_csv_keeps_its_columns_and_skill_ids_in_every_language_with_a_label():
    """Issue 41 item 3: the columns, the skill ids and "skill_words" are the same on every
    page; "label" is the skill in the page's language."""
    from mathcards.i18n import using

    grid = skill_grid(_class())
    with using("en"):
        en = list(csv.DictReader(io.StringIO(skill_grid_csv(grid))))
    with using("es"):
        es = list(csv.DictReader(io.StringIO(skill_grid_csv(grid))))
    assert tuple(en[0]) == tuple(es[0]) == GRID_COLUMNS and GRID_COLUMNS[-1] == "label"
    assert [{k: v for k, v in r.items() if k != "label"} for r in en] == [
        {k: v for k, v in r.items() if k != "label"} for r in es]
    assert [(r["skill"], r["label"]) for r in en][:3] == [
        ("cross_zero", "add or subtract across zero"),
        ("cross_zero", "add or subtract across zero"), ("dice_sum", "the sum of the dice")]
    assert [(r["skill"], r["label"]) for r in es][:3] == [
        ("cross_zero", "sumar o restar pasando por el cero"),
        ("cross_zero", "sumar o restar pasando por el cero"),
        ("dice_sum", "la suma de los dados")]
    assert es[0]["skill_words"] == "add or subtract across zero"
