"""An exercise answered after its worked solution opened is "answered with the solution"
(issue 37 item 6): never a solve of the student's own, never a right answer of its skill.

``with_solution_answers`` reads the exercises' evidence (``Answer``s, source "exercise")
against the attempts and the opened solutions: an answer whose attempt came at or after
the first opening of that exercise's solution, by that student, is kept as not right with
the slip ``"with_solution"``. Play answers are left as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from mathcards.asking import EXERCISE, Answer
from mathcards.exercises.progress import Attempt, SolutionOpened

WITH_SOLUTION = "with_solution"


def with_solution_answers(answers: Iterable[Answer], attempts: Iterable[Attempt],
                          solutions: Iterable[SolutionOpened]) -> list[Answer]:
    """``answers`` with each exercise answer given after its solution opened made not
    right (slip ``with_solution``)."""
    opened: dict[tuple[str, str, str], str] = {}
    for s in solutions:
        key = (s.student, s.set_id, s.exercise)
        opened[key] = min(opened.get(key, s.at), s.at)
    after = {a.uid for a in attempts
             if (seen := opened.get((a.student, a.set_id, a.exercise))) is not None
             and a.at >= seen}
    return [dataclasses.replace(a, right=False, slip=WITH_SOLUTION)
            if a.source == EXERCISE and a.uid in after else a for a in answers]


__all__ = ["WITH_SOLUTION", "with_solution_answers"]
