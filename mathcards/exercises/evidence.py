"""Exercises as evidence: each attempt of a practice page names a skill and is kept as an
``Answer`` (source ``"exercise"``) next to the answers given at the tables, so the
teacher's skill grid sees play and exercises together.

``KIND_SKILLS`` gives each kind of exercise its skill; a kind whose answer is a sum the
student worked says so itself (``Kind.worked_sum``: the question as a table asks it, its
skill refined by that sum, and the number the student meant), and a wrong answer's slip
then comes from ``mathcards.skills.classify_slip``; another kind may refine the skill by
the answer (``Kind.attempt_skill``) and name its wrong answers' slip (``Kind.wrong_slip``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mathcards.asking import DEFAULT_LEVEL, EXERCISE, Answer
from mathcards.exercises.kinds.base import Kind, Position, Result
from mathcards.skills import classify_slip

# kind name -> the skill its exercises practise (a key of mathcards.skills.SKILLS)
KIND_SKILLS: dict[str, str] = {
    "reach_goal": "cross_zero",  # refined by suns_skill
    "deck_value": "cross_zero",  # refined by suns_skill
    "make_stacks": "stack_sum",  # stack_difference when a stack is made by subtracting
    "is_stack": "stack_check",
    "find_capture": "capture_spot",
    "planet_or_not": "planet_sum",
    "moon_or_not": "moon_set",
    "which_prize": "prize_order",
    "who_takes_trick": "trick_winner",
    "is_play_legal": "legal_play",
}
_STACK_VALUE = {1: 1, 11: 11, 12: 12}


def exercise_answer(kind: Kind, position: Position, value: Any, result: Result, *,
                    student: str, seconds: float, level: str = DEFAULT_LEVEL,
                    prompt: str = "", uid: str = "", at: str = "") -> Answer:
    """The evidence of one exercise attempt: its skill, its numbers and, when wrong, its
    slip (``uid`` and ``at`` those of the attempt, so the two records are seen as one)."""
    given = kind.describe_answer(position, value)
    worked = kind.worked_sum(position, value)
    if worked is not None:
        question, meant = worked
        slip = classify_slip(question, meant)
        skill, numbers, expected = question.skill, question.numbers, str(question.expected)
    else:
        slip = kind.wrong_slip
        skill = kind.attempt_skill(position, value) or KIND_SKILLS.get(kind.name, "other")
        numbers, expected = (), ""
    answer = Answer(student=student, game=kind.game, skill=skill,
                    prompt=prompt or kind.prompt(position), numbers=numbers,
                    expected=expected, given=given, right=result.correct,
                    slip="" if result.correct else slip, seconds=seconds, level=level,
                    source=EXERCISE)
    return replace(answer, uid=uid or answer.uid, at=at or answer.at)


__all__ = ["KIND_SKILLS", "exercise_answer"]
