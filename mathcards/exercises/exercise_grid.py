"""The teacher's student x exercise grid, per set: what each student did on each exercise.

Per student and exercise: right at the first try or not, the attempts, the hints, whether
the worked solution was opened (and the answer given after it), the time spent, the
answers (wrong ones and partly right ones apart). An exercise a student never tried is
*untried*: the set's summary for a student reads "2 of 5 tried", and its score counts
untried exercises as not right (skipping the hard one never raises it). The score is the
first tries' (a right answer after three wrong ones, or after the worked solution, is
not a first-try right).

``set_grid`` computes one set's grid; ``set_choices`` lists the sets, newest first (the
dashboard's filter); ``set_grid_csv`` is the grid as the dashboard's CSV download;
``answer_shown`` is an answer as the student saw it (card symbols, real minus signs).
Pure computation: the dashboard's widget only draws it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mathcards.exercises.progress import Attempt, SolutionOpened
from mathcards.i18n import _, pgettext

# a card code inside an answer's text: 8S, 10H, JK, R12, BIG (never a word such as "no")
_CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([+\-\u2212]?)((?:10|[2-9AJQK])[SHDC]|JK|"
                        r"[RGPB](?:1[0-2]|[1-9])|BIG|LITTLE)(?![A-Za-z0-9])")


NO_STACKS = "(no stacks)"  # how an answer of no stacks is recorded (its text never changes)
_TAKES = re.compile(r"(\S+) takes (\S+)")


def answer_shown(answer: str) -> str:
    """An answer as the student saw it: card codes as symbols, minus signs as real minus
    signs (``-9C +7D`` reads ``−9♣ +7♦``; ``8S 3C | 8S 2H`` reads ``8♠ 3♣ | 8♠ 2♥``)."""
    from mathcards.cards import parse_card

    def card(match: re.Match[str]) -> str:
        sign = "\u2212" if match.group(1) in ("-", "\u2212") else match.group(1)
        return sign + parse_card(match.group(2)).symbol

    # the records keep an answer's words in English (a class's results read the same on
    # every page); a page shows them in its own language
    if answer == NO_STACKS:  # an empty Dice Stacks answer
        return _("(no stacks)")
    if answer in ("yes", "no"):  # a yes/no exercise's answer
        return _("yes") if answer == "yes" else _("no")
    if answer == "none":  # a claim of no capture
        return pgettext("an answer: no capture", "none")
    takes = _TAKES.fullmatch(answer)  # a Sums capture, "8H takes 3D"
    if takes is not None:
        return _("{played} takes {target}").format(
            played=answer_shown(takes.group(1)), target=answer_shown(takes.group(2)))
    shown = _CARD_CODE.sub(card, answer)
    return re.sub(r"(?<![\w])-(?=\d)", "\u2212", shown)  # a number: -3 reads −3


@dataclass(frozen=True)
class GridColumn:
    """One exercise of the grid (a set's exercise, in the set's order)."""

    set_id: str
    set_title: str
    exercise: str
    number: int
    kind: str
    title: str = ""  # the exercise's prompt or its kind's title, when the set file is known


@dataclass(frozen=True)
class GridCell:
    """What one student did on one exercise."""

    attempts: int
    solved: bool
    best_score: float
    wrong_answers: tuple[str, ...]  # every wrong (or part-right) answer, in the order given
    right_answer: str  # the first right answer ("" until solved)
    hints_used: int  # the most hints seen before an answer
    first_try_right: bool = False
    solution_opened: bool = False
    solved_after_solution: bool = False  # the first right answer came after the solution
    seconds: float = 0.0  # time on the exercise, over every attempt
    scores: tuple[float, ...] = ()  # each wrong answer's score (0 wrong, >0 partly right)

    @property
    def sign_slips(self) -> tuple[str, ...]:
        """The wrong answers that are the right one with a sign changed (-3H for +3H)."""
        if not self.right_answer:
            return ()
        bare = _unsigned(self.right_answer)
        return tuple(w for w in self.wrong_answers
                     if w != self.right_answer and _unsigned(w) == bare)

    @property
    def partly_right_answers(self) -> tuple[str, ...]:
        return tuple(w for w, s in zip(self.wrong_answers, self.scores, strict=False) if s > 0)

    @property
    def plain_wrong_answers(self) -> tuple[str, ...]:
        if len(self.scores) != len(self.wrong_answers):
            return self.wrong_answers
        return tuple(w for w, s in zip(self.wrong_answers, self.scores, strict=True) if s <= 0)

    @property
    def result(self) -> str:
        if self.attempts == 0:
            return "solution only" if self.solution_opened else "not tried"
        if self.solved_after_solution:
            return "after the solution"
        if self.first_try_right:
            return "first try"
        if self.solved:
            return "solved"
        return "partly right" if self.best_score > 0 else "not solved yet"


@dataclass(frozen=True)
class StudentSummary:
    """One student's work on one set, every exercise of it counted."""

    exercises: int  # in the set
    tried: int
    first_try_right: int
    solved: int
    solutions_opened: int
    score: float  # the first tries' mean over every exercise of the set (untried: 0)
    seconds: float
    with_solution: int = 0  # answered right only after the worked solution opened


@dataclass(frozen=True)
class ProgressGrid:
    """Students (rows) by exercises (columns); ``cells`` where a student answered or
    opened the worked solution."""

    students: tuple[str, ...]
    columns: tuple[GridColumn, ...]
    cells: dict[tuple[str, int], GridCell]  # (student, column index) -> cell

    def cell(self, student: str, column: int) -> GridCell | None:
        return self.cells.get((student, column))

    def summary(self, student: str) -> StudentSummary:
        cells = [c for n in range(len(self.columns))
                 if (c := self.cell(student, n)) is not None]
        tried = [c for c in cells if c.attempts]
        total = len(self.columns)
        first = sum(_first_score(c) for c in tried)
        return StudentSummary(
            exercises=total, tried=len(tried),
            first_try_right=sum(1 for c in tried if c.first_try_right),
            solved=sum(1 for c in tried if c.solved),
            solutions_opened=sum(1 for c in cells if c.solution_opened),
            score=first / total if total else 0.0, seconds=sum(c.seconds for c in cells),
            with_solution=sum(1 for c in tried if c.solved_after_solution))


def _first_score(cell: GridCell) -> float:
    if cell.first_try_right:
        return 1.0
    return cell.scores[0] if cell.scores else 0.0


def _unsigned(answer: str) -> str:
    return " ".join(part.lstrip("+-\u2212") for part in answer.split())


def set_choices(attempts: Iterable[Attempt]) -> list[tuple[str, str]]:
    """The sets answered, as (title, set id), the one answered most recently first."""
    last: dict[str, tuple[str, str]] = {}
    for a in attempts:
        if a.set_id not in last or a.at > last[a.set_id][0]:
            last[a.set_id] = (a.at, a.set_title)
    order = sorted(last.items(), key=lambda item: item[1][0], reverse=True)
    return [(title, set_id) for set_id, (_at, title) in order]


def progress_grid(attempts: Iterable[Attempt], solutions: Iterable[SolutionOpened] = (),
                  *, set_id: str | None = None,
                  exercises: Sequence[GridColumn] = ()) -> ProgressGrid:
    """The attempts as a student x exercise grid (one set's when ``set_id`` is given; sets
    in first-seen order, exercises by their number, students by name). ``exercises`` are
    the set's exercises from its file: an exercise nobody tried is still a column."""
    attempts = [a for a in attempts if set_id is None or a.set_id == set_id]
    solutions = [s for s in solutions if set_id is None or s.set_id == set_id]
    set_order: dict[str, int] = {}
    for a in attempts:
        set_order.setdefault(a.set_id, len(set_order))
    columns_by_key: dict[tuple[str, str], GridColumn] = {}
    for c in exercises:
        set_order.setdefault(c.set_id, len(set_order))
        columns_by_key.setdefault((c.set_id, c.exercise), c)
    for a in attempts:
        columns_by_key.setdefault((a.set_id, a.exercise), GridColumn(
            a.set_id, a.set_title, a.exercise, a.number, a.kind))
    columns = tuple(sorted(columns_by_key.values(),
                           key=lambda c: (set_order[c.set_id], c.number, c.exercise)))
    index = {(c.set_id, c.exercise): i for i, c in enumerate(columns)}
    mine: dict[tuple[str, int], list[Attempt]] = {}
    for a in attempts:
        mine.setdefault((a.student, index[(a.set_id, a.exercise)]), []).append(a)
    opened: dict[tuple[str, int], str] = {}  # the first time the solution was opened
    for s in solutions:
        if (s.set_id, s.exercise) in index:
            key = (s.student, index[(s.set_id, s.exercise)])
            opened[key] = min(opened.get(key, s.at), s.at)
    cells = {}
    for key in set(mine) | set(opened):
        tries = sorted(mine.get(key, []), key=lambda a: (a.at, a.uid))
        first_right = next((a for a in tries if a.correct), None)
        seen = opened.get(key)
        wrong = [a for a in tries if not a.correct]
        # a right answer typed after the worked solution opened is no solve of one's own
        after_solution = first_right is not None and seen is not None and first_right.at >= seen
        cells[key] = GridCell(
            attempts=len(tries), solved=first_right is not None and not after_solution,
            best_score=max((a.score for a in tries), default=0.0),
            wrong_answers=tuple(a.answer for a in wrong),
            right_answer=first_right.answer if first_right else "",
            hints_used=max((a.hints_used for a in tries), default=0),
            first_try_right=bool(tries) and tries[0].correct and (
                seen is None or tries[0].at < seen),
            solution_opened=seen is not None,
            solved_after_solution=after_solution,
            seconds=round(sum(a.seconds for a in tries), 2),
            scores=tuple(a.score for a in wrong))
    students = tuple(sorted({k[0] for k in cells}, key=lambda s: (s.casefold(), s)))
    return ProgressGrid(students, columns, cells)


def set_columns(exercise_set: object) -> list[GridColumn]:
    """A set's exercises as the grid's columns (an ``ExerciseSet``; duck-typed here)."""
    return [GridColumn(exercise_set.id, exercise_set.title,  # type: ignore[attr-defined]
                       e.id, e.number, e.kind.name, e.shown_prompt() or e.kind.title)
            for e in exercise_set]  # type: ignore[attr-defined]


def seconds_words(seconds: float) -> str:
    """A time in words: ``45 s``, ``3 min 5 s``."""
    whole = round(seconds)
    minutes, rest = divmod(whole, 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


# The column names and ids are the same in every language; "label" is the exercise's words
# (its prompt, or its kind's title) in the page's language.
GRID_CSV_COLUMNS = ("student", "class", "set", "exercise", "number", "kind", "tried",
                    "right at first try", "attempts", "hints", "worked solution opened",
                    "solved", "answered with the solution", "seconds", "answers", "label")


def set_grid_csv(grid: ProgressGrid, classes: dict[str, str] | None = None) -> str:
    """The grid as CSV: one row per student and exercise, untried ones included; the class
    column gives each student's class (``classes``: student -> class id; "" when none)."""
    classes = classes or {}
    from mathcards.exercises.progress import _csv_of

    yes = {True: "yes", False: "no"}

    def row(student: str, n: int, column: GridColumn) -> dict[str, object]:
        cell = grid.cell(student, n) or GridCell(0, False, 0.0, (), "", 0)
        answers = [*cell.wrong_answers, *([cell.right_answer] if cell.right_answer else [])]
        values = (student, classes.get(student, ""), column.set_title, column.exercise,
                  column.number, column.kind,
                  yes[cell.attempts > 0], yes[cell.first_try_right], cell.attempts,
                  cell.hints_used, yes[cell.solution_opened], yes[cell.solved],
                  yes[cell.solved_after_solution], repr(cell.seconds),
                  " ; ".join(answer_shown(a) for a in answers),
                  _(column.title) if column.title else "")
        return dict(zip(GRID_CSV_COLUMNS, values, strict=True))

    return _csv_of(GRID_CSV_COLUMNS, (row(student, n, column) for student in grid.students
                                      for n, column in enumerate(grid.columns)))


__all__ = ["GRID_CSV_COLUMNS", "GridCell", "GridColumn", "ProgressGrid", "StudentSummary",
           "answer_shown", "progress_grid", "seconds_words", "set_choices", "set_columns",
           "set_grid_csv"]
