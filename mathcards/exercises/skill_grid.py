"""The teacher's student x skill grid: every question, at a table or in an exercise, by the
skill it practised (``mathcards.skills``).

A question is one record with its tries (``questions_of``): the answers that share its
``question`` id (the first answer, the later ones, the hints taken, whether its result was
seen, the seconds). Per student and skill the grid counts questions, not answers: how many,
right at the first try, right in the end, seen (its result shown before the answer),
answered with the worked solution open, the refusals (moves the rules refused, recorded
with the rule: not questions), the most frequent slip of the wrong tries, and the trend of
the first tries: the last questions (at most ``RECENT``, and at most half of them all)
against the ones before. ``needs_help`` lists, per skill, the students whose first tries
are right too seldom on enough questions. ``skill_grid_csv`` is the grid as the
dashboard's CSV download. Pure computation: the dashboard's widget
(``mathcards.widgets.skill_grid``) only draws it.

Answers kept before tries were (no ``question`` id) are grouped as the table asked them:
an answer is a retry of the one before when it is the same student's next answer to the
same prompt (same game, source, numbers and expected answer) and the one before was wrong
and not seen; at a table a question had two tries at most.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mathcards.asking import EXERCISE, Answer
from mathcards.i18n import _
from mathcards.skills import OUTCOMES, SKILLS, SLIP_WORDS

RECENT = 20  # the trend compares at most this many last questions with the ones before
TREND_MARGIN = 0.15  # a change in first-try accuracy smaller than this is "steady"
TREND_LEAST = 4  # fewer questions than this in a cell: "too few to tell"
HELP_BELOW = 0.6  # "needs help": right at the first try under this share ...
HELP_LEAST = 3  # ... on at least this many questions
LEGACY_TRIES = 2  # a table asked a question twice at most before tries were recorded


@dataclass(frozen=True)
class QuestionRecord:
    """One question a student was asked, with its tries in order (``Answer`` records)."""

    student: str
    skill: str  # the skill of its first try (what the student did first)
    question: str  # its id
    tries: tuple[Answer, ...]

    @property
    def first_try_right(self) -> bool:
        return self.tries[0].right

    @property
    def right_in_the_end(self) -> bool:
        return any(a.right for a in self.tries)

    @property
    def seen(self) -> bool:
        """Its result was shown before the student's answer."""
        return any(a.seen for a in self.tries)

    @property
    def with_solution(self) -> bool:
        return any(a.slip == "with_solution" for a in self.tries)

    @property
    def hints(self) -> int:
        """The hints taken before its answers."""
        return max(a.hints for a in self.tries)

    @property
    def seconds(self) -> float:
        return round(sum(a.seconds for a in self.tries), 2)

    @property
    def slips(self) -> tuple[str, ...]:
        """The slips of its wrong tries (not the outcomes "seen", "with_solution")."""
        return tuple(a.slip or "other" for a in self.tries
                     if not a.right and a.slip not in OUTCOMES)

    @property
    def source(self) -> str:
        return self.tries[0].source

    @property
    def at(self) -> str:
        return self.tries[0].at


def _legacy_key(a: Answer) -> tuple[object, ...]:
    return (a.student, a.game, a.source, a.prompt, a.numbers, a.expected)


def questions_of(answers: Iterable[Answer]) -> tuple[list[QuestionRecord], list[Answer]]:
    """The questions of ``answers`` (each with its tries, in time order) and the refusals
    (answers with a rule: moves the rules refused, not questions)."""
    refusals: list[Answer] = []
    groups: dict[str, list[Answer]] = {}
    last_legacy: dict[tuple[object, ...], str] = {}  # the last legacy question by its key
    # stable, by time and try only: records of one millisecond keep the order made
    for answer in sorted(answers, key=lambda a: (a.at, a.attempt)):
        if answer.refusal:
            refusals.append(answer)
            continue
        if answer.question:
            groups.setdefault(answer.question, []).append(answer)
            continue
        key = _legacy_key(answer)
        before = groups.get(last_legacy.get(key, ""))
        if (before is not None and not before[-1].right and not before[-1].seen
                and (answer.source == EXERCISE or len(before) < LEGACY_TRIES)):
            before.append(answer)
            continue
        qid = f"legacy:{answer.uid}"
        groups[qid] = [answer]
        last_legacy[key] = qid
    records = [QuestionRecord(tries[0].student, tries[0].skill, qid, tuple(tries))
               for qid, tries in groups.items()]
    records.sort(key=lambda q: (q.at, q.question))
    return records, refusals


@dataclass(frozen=True)
class SkillCell:
    """One student's questions on one skill."""

    questions: int
    first_try: int  # right at the first try
    right: int  # right in the end (at the first try or a later one)
    slips: tuple[tuple[str, int], ...]  # (slip key, count) of the wrong tries, most first
    earlier: float | None  # first-try accuracy before the recent questions (None: none)
    recent: float | None
    from_play: int  # questions asked at a table (own moves or following the others)
    from_exercises: int
    seen: int = 0  # questions whose result was shown before the answer
    with_solution: int = 0  # answered with the worked solution open
    refusals: int = 0  # moves the rules refused (not questions)
    hinted: int = 0  # questions answered after a hint

    @property
    def accuracy(self) -> float:
        """The share of questions right at the first try."""
        return self.first_try / self.questions if self.questions else 0.0

    @property
    def top_slip(self) -> str:
        """The most frequent slip's key ("" when no wrong try)."""
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
    """Students (rows) by skills (columns, in the documented order); cells where asked."""

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
    """A skill's words in the page's language (an unknown key: the key's words)."""
    return _(SKILLS[skill]) if skill in SKILLS else skill.replace("_", " ")


def _cell(questions: list[QuestionRecord], refusals: list[Answer], recent: int) -> SkillCell:
    n = len(questions)
    last = min(recent, n // 2)
    earlier, newer = questions[:n - last], questions[n - last:]

    def accuracy(part: list[QuestionRecord]) -> float | None:
        return sum(q.first_try_right for q in part) / len(part) if part else None

    slips = Counter(slip for q in questions for slip in q.slips)
    order = list(SLIP_WORDS)
    ranked = sorted(slips.items(), key=lambda kv: (-kv[1], order.index(kv[0])
                                                   if kv[0] in order else len(order)))
    return SkillCell(
        questions=n, first_try=sum(q.first_try_right for q in questions),
        right=sum(q.right_in_the_end for q in questions), slips=tuple(ranked),
        earlier=accuracy(earlier) if last else None, recent=accuracy(newer) if last else None,
        from_play=sum(q.source != EXERCISE for q in questions),
        from_exercises=sum(q.source == EXERCISE for q in questions),
        seen=sum(q.seen for q in questions),
        with_solution=sum(q.with_solution for q in questions),
        refusals=len(refusals), hinted=sum(q.hints > 0 for q in questions))


def skill_grid(answers: Iterable[Answer], *, recent: int = RECENT) -> SkillGrid:
    """The class's answers as a student x skill grid of questions (in time order per
    cell); refusals are counted in their skill's cell apart from the questions."""
    questions, refusals = questions_of(answers)
    mine: dict[tuple[str, str], list[QuestionRecord]] = {}
    refused: dict[tuple[str, str], list[Answer]] = {}
    for q in questions:
        mine.setdefault((q.student, q.skill), []).append(q)
    for r in refusals:  # one refused by a rule of no skill (not the time...): CSV only
        if r.skill:
            refused.setdefault((r.student, r.skill), []).append(r)
    keys = set(mine) | set(refused)
    order = list(SKILLS)
    skills = tuple(sorted({skill for _s, skill in keys},
                          key=lambda s: (order.index(s) if s in order else len(order), s)))
    students = tuple(sorted({s for s, _k in keys}, key=lambda s: (s.casefold(), s)))
    cells = {key: _cell(mine.get(key, []), refused.get(key, []), recent) for key in keys}
    return SkillGrid(students, skills, cells)


def needs_help(grid: SkillGrid, skill: str, *, below: float = HELP_BELOW,
               least: int = HELP_LEAST) -> list[NeedsHelp]:
    """Who needs help with ``skill``: right at the first try under ``below`` on ``least``
    or more questions, the lowest first."""
    out = [NeedsHelp(student, cell.accuracy, cell.questions, cell.top_slip)
           for student in grid.students
           if (cell := grid.cell(student, skill)) is not None
           and cell.questions >= least and cell.accuracy < below]
    return sorted(out, key=lambda h: (h.accuracy, -h.questions, h.student.casefold()))


# The column names, the skill ids and "skill_words" (English) are the same in every language,
# so a teacher's spreadsheet reads any export; "label" is the skill in the page's language.
# "first_try_right": questions right at the first try ("accuracy" is their share);
# "right": right in the end; "seen": the result shown before the answer
GRID_COLUMNS = ("student", "class", "skill", "skill_words", "questions", "first_try_right",
                "right", "accuracy", "seen", "with_solution", "hinted", "refusals",
                "most_frequent_slip", "slip_words", "earlier_accuracy", "recent_accuracy",
                "trend", "from_play", "from_exercises", "needs_help", "label")


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
            english = SKILLS.get(skill, skill.replace("_", " "))
            writer.writerow((student, classes.get(student, ""), skill, english,
                             cell.questions, cell.first_try, cell.right,
                             share(cell.accuracy), cell.seen, cell.with_solution,
                             cell.hinted, cell.refusals, cell.top_slip, cell.top_slip_words,
                             share(cell.earlier), share(cell.recent), cell.trend,
                             cell.from_play, cell.from_exercises,
                             "yes" if (student, skill) in helped else "no",
                             skill_words(skill)))
    return out.getvalue()


__all__ = ["GRID_COLUMNS", "NeedsHelp", "QuestionRecord", "SkillCell", "SkillGrid",
           "needs_help", "questions_of", "skill_grid", "skill_grid_csv", "skill_words"]
