"""The teacher's student x skill grid: every answer, at a table or in an exercise, by the
skill it practised (``mathcards.skills``).

Per student and skill: how many questions, the accuracy, the most frequent slip, and the
trend: the last answers (at most ``RECENT``, and at most half of them all) against the ones
before. ``needs_help`` lists, per skill, the students whose accuracy is low on enough
questions. ``skill_grid_csv`` is the grid as the dashboard's CSV download. Pure
computation: the dashboard's widget (``mathcards.widgets.skill_grid``) only draws it.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mathcards.asking import Answer
from mathcards.skills import SKILLS, SLIP_WORDS

RECENT = 20  # the trend compares at most this many last answers with the ones before
TREND_MARGIN = 0.15  # a change in accuracy smaller than this is "steady"
TREND_LEAST = 4  # fewer answers than this in a cell: "too few to tell"
HELP_BELOW = 0.6  # "needs help": accuracy under this ...
HELP_LEAST = 3  # ... on at least this many questions


@dataclass(frozen=True)
class SkillCell:
    """One student's answers on one skill."""

    questions: int
    right: int
    slips: tuple[tuple[str, int], ...]  # (slip key, count), most frequent first
    earlier: float | None  # accuracy before the recent answers (None: none before)
    recent: float | None
    from_play: int  # answers given at a table (own moves or following the others)
    from_exercises: int

    @property
    def accuracy(self) -> float:
        return self.right / self.questions if self.questions else 0.0

    @property
    def top_slip(self) -> str:
        """The most frequent slip's key ("" when no wrong answer)."""
        return self.slips[0][0] if self.slips else ""

    @property
    def top_slip_words(self) -> str:
        return SLIP_WORDS.get(self.top_slip, self.top_slip) if self.top_slip else ""

    @property
    def trend(self) -> str:
        """"better", "worse" or "steady" (recent against earlier), or "too few"."""
        if self.earlier is None or self.recent is None or self.questions < TREND_LEAST:
            return "too few"
        change = self.recent - self.earlier
        if change >= TREND_MARGIN:
            return "better"
        if change <= -TREND_MARGIN:
            return "worse"
        return "steady"


@dataclass(frozen=True)
class SkillGrid:
    """Students (rows) by skills (columns, in the documented order); cells where answered."""

    students: tuple[str, ...]
    skills: tuple[str, ...]
    cells: dict[tuple[str, str], SkillCell]  # (student, skill) -> cell

    def cell(self, student: str, skill: str) -> SkillCell | None:
        return self.cells.get((student, skill))


@dataclass(frozen=True)
class NeedsHelp:
    """A student who needs help with a skill."""

    student: str
    accuracy: float
    questions: int
    top_slip: str  # the slip's key


def skill_words(skill: str) -> str:
    return SKILLS.get(skill, skill.replace("_", " "))


def _cell(answers: list[Answer], recent: int) -> SkillCell:
    n = len(answers)
    last = min(recent, n // 2)
    earlier, newer = answers[:n - last], answers[n - last:]

    def accuracy(part: list[Answer]) -> float | None:
        return sum(a.right for a in part) / len(part) if part else None

    slips = Counter(a.slip or "other" for a in answers if not a.right)
    order = list(SLIP_WORDS)
    ranked = sorted(slips.items(), key=lambda kv: (-kv[1], order.index(kv[0])
                                                   if kv[0] in order else len(order)))
    return SkillCell(
        questions=n, right=sum(a.right for a in answers), slips=tuple(ranked),
        earlier=accuracy(earlier) if last else None, recent=accuracy(newer) if last else None,
        from_play=sum(a.source != "exercise" for a in answers),
        from_exercises=sum(a.source == "exercise" for a in answers))


def skill_grid(answers: Iterable[Answer], *, recent: int = RECENT) -> SkillGrid:
    """The class's answers as a student x skill grid (answers in time order per cell)."""
    mine: dict[tuple[str, str], list[Answer]] = {}
    for answer in sorted(answers, key=lambda a: (a.at, a.uid)):
        mine.setdefault((answer.student, answer.skill), []).append(answer)
    order = list(SKILLS)
    skills = tuple(sorted({skill for _s, skill in mine},
                          key=lambda s: (order.index(s) if s in order else len(order), s)))
    students = tuple(sorted({s for s, _k in mine}, key=lambda s: (s.casefold(), s)))
    cells = {key: _cell(found, recent) for key, found in mine.items()}
    return SkillGrid(students, skills, cells)


def needs_help(grid: SkillGrid, skill: str, *, below: float = HELP_BELOW,
               least: int = HELP_LEAST) -> list[NeedsHelp]:
    """Who needs help with ``skill``: accuracy under ``below`` on ``least`` or more
    questions, the lowest first."""
    out = [NeedsHelp(student, cell.accuracy, cell.questions, cell.top_slip)
           for student in grid.students
           if (cell := grid.cell(student, skill)) is not None
           and cell.questions >= least and cell.accuracy < below]
    return sorted(out, key=lambda h: (h.accuracy, -h.questions, h.student.casefold()))


GRID_COLUMNS = ("student", "class", "skill", "skill_words", "questions", "right", "accuracy",
                "most_frequent_slip", "slip_words", "earlier_accuracy", "recent_accuracy",
                "trend", "from_play", "from_exercises", "needs_help")


def skill_grid_csv(grid: SkillGrid, classes: Mapping[str, str] | None = None) -> str:
    """The grid as CSV: one row per student and skill answered; the class column gives each
    student's class (``classes``: student -> class id; "" when none)."""
    classes = classes or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GRID_COLUMNS)
    helped = {(h.student, skill) for skill in grid.skills for h in needs_help(grid, skill)}

    def share(value: float | None) -> str:
        return "" if value is None else f"{value:.2f}"

    for student in grid.students:
        for skill in grid.skills:
            cell = grid.cell(student, skill)
            if cell is None:
                continue
            writer.writerow((student, classes.get(student, ""), skill, skill_words(skill),
                             cell.questions, cell.right,
                             share(cell.accuracy), cell.top_slip, cell.top_slip_words,
                             share(cell.earlier), share(cell.recent), cell.trend,
                             cell.from_play, cell.from_exercises,
                             "yes" if (student, skill) in helped else "no"))
    return out.getvalue()


__all__ = ["GRID_COLUMNS", "NeedsHelp", "SkillCell", "SkillGrid", "needs_help", "skill_grid",
           "skill_grid_csv", "skill_words"]
