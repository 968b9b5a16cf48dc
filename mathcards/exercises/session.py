"""One student working through a set: variants, checking, hints, solutions, progress.

The widget view (``mathcards.widgets.exercises``) is a thin skin over a
``Session``; everything a click does happens here, in the kernel, so it is
tested without a browser. Each answer is recorded as an ``Attempt`` (with the
hints used and the seconds since the exercise was shown) in the progress
store; the count of wrong attempts, and so whether the worked solution is
offered, is read back from the store, so it survives a kernel restart. Each attempt is
also kept as evidence, an ``Answer`` named by its skill (``mathcards.exercises.evidence``),
so the teacher's skill grid sees exercises and play together.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from mathcards.asking import DEFAULT_LEVEL, Answer
from mathcards.errors import MathCardsError
from mathcards.exercises.evidence import exercise_answer
from mathcards.exercises.kinds import Kind, Result
from mathcards.exercises.progress import Attempt, ProgressStore, SolutionOpened
from mathcards.i18n import _, ngettext
from mathcards.students import student_id


# What a session reads of its set (``mathcards.exercises.model``: ``ExerciseSet``,
# ``Exercise``, ``Variant``, whose ``ExerciseSet.session`` makes the session): this module
# does not import the model.
class ExerciseVariant(Protocol):
    """One student's version of an exercise (``model.Variant``)."""

    @property
    def position(self) -> dict[str, Any]: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def text(self) -> str: ...
    def prompt(self) -> str: ...
    def hint(self, level: int = 1) -> Any: ...
    def solution(self) -> Result: ...


class SetExercise(Protocol):
    """One exercise of a set (``model.Exercise``)."""

    @property
    def id(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def prompt(self) -> str: ...
    @property
    def kind(self) -> Kind: ...
    def variant(self, student: str = "") -> ExerciseVariant: ...


class ExerciseSetLike(Protocol):
    """An exercise set (``model.ExerciseSet``)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    def shown_title(self) -> str: ...
    def shown_instructions(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def instructions(self) -> str: ...
    def __getitem__(self, key: int | str) -> SetExercise: ...
    def __iter__(self) -> Iterator[SetExercise]: ...
    def __len__(self) -> int: ...
    def attempts_allowed(self, exercise: Any) -> int: ...


class MemoryStore:
    """Progress kept in memory only (a teacher trying a set; nothing is written)."""

    def __init__(self) -> None:
        self._attempts: list[Attempt] = []
        self._answers: list[Answer] = []
        self._solutions: list[SolutionOpened] = []

    def record_solution(self, opened: SolutionOpened) -> SolutionOpened:
        self._solutions.append(opened)
        return opened

    def solutions(self, *, student: str | None = None,
                  set_id: str | None = None) -> list[SolutionOpened]:
        return [s for s in self._solutions
                if (student is None or s.student == student)
                and (set_id is None or s.set_id == set_id)]

    def record_answer(self, answer: Answer) -> Answer:
        self._answers.append(answer)
        return answer

    def answers(self, student: str | None = None, game: str | None = None,
                skill: str | None = None) -> list[Answer]:
        return [a for a in self._answers
                if (student is None or a.student == student)
                and (game is None or a.game == game)
                and (skill is None or a.skill == skill)]

    def record(self, attempt: Attempt, answer: Answer | None = None) -> Attempt:
        self._attempts.append(attempt)
        if answer is not None:
            self._answers.append(answer)
        return attempt

    def attempts(self, *, student: str | None = None, set_id: str | None = None,
                 exercise: str | None = None) -> list[Attempt]:
        return [a for a in self._attempts
                if (student is None or a.student == student)
                and (set_id is None or a.set_id == set_id)
                and (exercise is None or a.exercise == exercise)]

    def attempts_after(self, row: int, *, student: str | None = None,
                       set_id: str | None = None) -> tuple[list[Attempt], int]:
        new = self.attempts(student=student, set_id=set_id)
        fresh = [a for i, a in enumerate(self._attempts, start=1)
                 if i > row and a in new]
        return fresh, len(self._attempts) if fresh else row


@dataclass(frozen=True)
class ExerciseProgress:
    """How one exercise went for one student."""

    number: int
    exercise: str
    title: str
    attempts: int
    solved: bool
    best_score: float
    hints_used: int


@dataclass(frozen=True)
class SetEnd:
    """The end of a set for one student: how it went, and what to practise next."""

    exercises: int
    first_try_right: int
    solved: int
    practise: tuple[tuple[str, int], ...]  # (skill, wrong answers), the most first

    def words(self) -> str:
        """The score in words (no percentages for a 12-year-old to decode)."""
        n = self.exercises
        if self.first_try_right == n:
            return ngettext("All {count} right at the first try.",
                            "All {count} right at the first try.", n).format(count=n)
        return ngettext("{right} of {count} right at the first try, {solved} of {count} "
                        "solved in the end.",
                        "{right} of {count} right at the first try, {solved} of {count} "
                        "solved in the end.", n).format(
                            right=self.first_try_right, solved=self.solved, count=n)


class Session:
    """A student's run through a set (``teacher=True`` may open solutions at once)."""

    def __init__(self, exercise_set: ExerciseSetLike, student: str = "guest", *,
                 store: Any = None, teacher: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 level: str = DEFAULT_LEVEL) -> None:
        self.set = exercise_set
        self.level = level  # the page's level of help, kept with each answer
        self.student = student_id(student)  # the one rule: ``Ana`` and ``ana`` are one student
        if store is None:
            from mathcards.hub_client import progress_store

            store = progress_store()  # the hub's service, where there is one
        elif store is False:
            store = MemoryStore()
        self.store: ProgressStore | MemoryStore = store
        self.teacher = teacher
        self._clock = clock
        self._variants: dict[int, ExerciseVariant] = {}
        self._hint_level: dict[int, int] = {}
        self._shown_at: dict[int, float] = {}
        # this student's attempts at this set, read once and then only what is new
        self._read: list[Attempt] = []
        self._read_to = 0

    def __len__(self) -> int:
        return len(self.set)

    # --- what the student sees -------------------------------------------------------------
    def variant(self, number: int) -> ExerciseVariant:
        """Exercise ``number`` (1 = first) as this student sees it."""
        if number not in self._variants:
            self._variants[number] = self.set[number].variant(self.student)
        self._shown_at.setdefault(number, self._clock())
        return self._variants[number]

    def attempts(self, number: int | None = None) -> list[Attempt]:
        exercise = None if number is None else self.set[number].id
        new, self._read_to = self.store.attempts_after(self._read_to, student=self.student,
                                                       set_id=self.set.id)
        self._read.extend(new)  # answers from this page and from another tab alike
        return [a for a in self._read if exercise is None or a.exercise == exercise]

    def wrong_attempts(self, number: int) -> int:
        return sum(1 for a in self.attempts(number) if not a.correct)

    def solved(self, number: int) -> bool:
        return any(a.correct for a in self.attempts(number))

    # --- answering --------------------------------------------------------------------
    def check(self, number: int, answer: Any) -> Result:
        """Judge ``answer`` in the kernel and record the attempt (``AnswerError`` if unreadable)."""
        variant = self.variant(number)
        kind = variant.kind
        value = kind.read_answer(variant.position, answer)  # raises AnswerError, nothing recorded
        result = kind.check(variant.position, value)
        now = self._clock()
        exercise = self.set[number]
        seconds = round(max(0.0, now - self._shown_at.get(number, now)), 2)
        attempt = Attempt.new(
            student=self.student, set_id=self.set.id, set_title=self.set.title,
            exercise=exercise.id, number=number, kind=kind.name, variant=variant.text,
            answer=kind.describe_answer(variant.position, value), correct=result.correct,
            score=round(result.score, 4), hints_used=self._hint_level.get(number, 0),
            seconds=seconds, set_version=self.set.version)
        # the attempt and its evidence (the same uid and time) in one write
        self.store.record(attempt, exercise_answer(
            kind, variant.position, value, result, student=self.student, seconds=seconds,
            level=self.level, prompt=variant.prompt(), uid=attempt.uid, at=attempt.at))
        self._shown_at[number] = now
        return result

    def hint(self, number: int) -> Any:
        """The next hint: a nudge, then which card, then the full step (then the step again)."""
        level = min(self._hint_level.get(number, 0) + 1, 3)
        self._hint_level[number] = level
        return self.variant(number).hint(level)

    def attempts_before_solution(self, number: int) -> int:
        return self.set.attempts_allowed(self.set[number])

    def solution_ready(self, number: int) -> bool:
        """The worked solution is offered after N wrong attempts (the teacher's N), or solved."""
        if self.teacher:
            return True
        return (self.solved(number)
                or self.wrong_attempts(number) >= self.attempts_before_solution(number))

    def solution(self, number: int) -> Result:
        """The worked solution, when it is offered; a student's opening of it is recorded
        (the teacher's grid shows it, and an answer typed after it is no solve of their own)."""
        if not self.solution_ready(number):
            left = self.attempts_before_solution(number) - self.wrong_attempts(number)
            raise MathCardsError(ngettext(
                "the worked solution opens after {count} more attempt",
                "the worked solution opens after {count} more attempts", left).format(
                    count=left))
        result = self.variant(number).solution()
        record = getattr(self.store, "record_solution", None)  # a hub's service keeps none
        if not self.teacher and record is not None:
            record(SolutionOpened.new(student=self.student, set_id=self.set.id,
                                      exercise=self.set[number].id, number=number))
        return result

    # --- progress ---------------------------------------------------------------------
    def finished(self) -> SetEnd | None:
        """The end of the set, once every exercise has been answered at least once (None
        before): first-try rights, solves, and the skills with the most slips in it."""
        from collections import Counter

        mine = self.attempts()
        by_exercise: dict[str, list[Attempt]] = {}
        for a in mine:
            by_exercise.setdefault(a.exercise, []).append(a)
        if any(e.id not in by_exercise for e in self.set):
            return None
        wrong_uids = {a.uid for a in mine if not a.correct}
        reader = getattr(self.store, "answers", None)  # a hub's service keeps them apart
        answers = reader(student=self.student) if reader is not None else []
        slips = Counter(a.skill for a in answers if a.uid in wrong_uids and not a.right)
        return SetEnd(
            exercises=len(self.set),
            first_try_right=sum(1 for tries in by_exercise.values() if tries[0].correct),
            solved=sum(1 for tries in by_exercise.values() if any(a.correct for a in tries)),
            practise=tuple(sorted(slips.items(), key=lambda kv: (-kv[1], kv[0]))[:3]))

    def progress(self) -> list[ExerciseProgress]:
        """One line per exercise: attempts, solved, best score, hints."""
        by_exercise: dict[str, list[Attempt]] = {}
        for a in self.attempts():
            by_exercise.setdefault(a.exercise, []).append(a)
        out = []
        for exercise in self.set:
            mine = by_exercise.get(exercise.id, [])
            out.append(ExerciseProgress(
                number=exercise.number, exercise=exercise.id,
                title=exercise.prompt or _(exercise.kind.title), attempts=len(mine),
                solved=any(a.correct for a in mine),
                best_score=max((a.score for a in mine), default=0.0),
                hints_used=max((a.hints_used for a in mine), default=0)))
        return out


__all__ = ["ExerciseProgress", "MemoryStore", "Session", "SetEnd"]
