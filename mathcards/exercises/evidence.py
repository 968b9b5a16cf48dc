"""Exercises as evidence: each attempt of a practice page names a skill and is kept as an
``Answer`` (source ``"exercise"``) next to the answers given at the tables, so the
teacher's skill grid sees play and exercises together.

``KIND_SKILLS`` gives each kind of exercise its skill; the Suns to Moons kinds refine it
by the sum the student worked (``suns_skill``: across zero, taking away, adding). A wrong
answer's slip comes from ``mathcards.skills.classify_slip`` where the kind's answer is a
number the student worked out: the deck value, or (reach the goal) the goal the student
meant their plays to make, read against what the plays make.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mathcards.asking import DEFAULT_LEVEL, EXERCISE, Answer, Question
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


def suns_skill(start: int, steps: Sequence[int], *, joker_took_negative: bool = False) -> str:
    """The Suns to Moons skill of a chain: the deck ``start`` changed by ``steps`` in turn.

    >>> suns_skill(7, [-10]), suns_skill(3, [4]), suns_skill(11, [-4, -2]), suns_skill(1, [4],
    ...                                                                   joker_took_negative=True)
    ('cross_zero', 'add_positive', 'subtract_positive', 'subtract_negative')
    """
    value, crossed = start, False
    for step in steps:
        after = value + step
        crossed = crossed or (value > 0 > after) or (value < 0 < after)
        value = after
    if crossed:
        return "cross_zero"
    if joker_took_negative:
        return "subtract_negative"
    return "subtract_positive" if any(s < 0 for s in steps) else "add_positive"


def _counted_plays(deck: Sequence[Any]) -> list[Any]:
    """The plays of a deck still counted after its Jokers (ruling 4), centre card first."""
    from mathcards.games.suns_to_moons.rules import after_joker

    counted: tuple[Any, ...] = ()
    for play in deck:
        counted = after_joker(counted) if play.card.is_joker else (*counted, play)
    return list(counted)


def _deck_value_question(kind: Kind, position: Position) -> Question:
    counted = tuple(kind.counted(position))  # type: ignore[attr-defined]
    plays = _counted_plays(position["deck"])
    cards = tuple(str(p.card) for p in plays) if len(plays) == len(counted) else ()
    joker_took_negative = False
    seen: list[Any] = []
    for play in position["deck"]:
        if play.card.is_joker:
            joker_took_negative = joker_took_negative or bool(seen and seen[-1].contribution < 0)
            seen = seen[:-1]
        else:
            seen.append(play)
    skill = suns_skill(counted[0] if counted else 0, counted[1:],
                       joker_took_negative=joker_took_negative)
    return Question(kind.game, skill, kind.prompt(position), counted, sum(counted),
                    cards=cards)


def _reach_goal_question(kind: Kind, position: Position, plays: Sequence[Any]) -> Question:
    """What the student's plays make, asked as a sum: the deck, then each play's change.
    The student meant them to make the goal, so the goal is read as their answer."""
    from mathcards.exercises.kinds.suns_to_moons import _sm_apply, _sm_moves, position_state

    state = position_state(position)
    start = value = state.deck_value
    steps: list[int] = []
    cards: list[str] = [""]
    joker_took_negative = False
    for play in plays:
        if play not in _sm_moves(state):
            break  # refused by the rules: what came before is what was worked
        state = _sm_apply(state, play)
        step = state.deck_value - value
        joker_took_negative = joker_took_negative or (play.card.is_joker and step > 0)
        steps.append(step)
        cards.append(str(play.card))
        value = state.deck_value
    if not steps:
        skill = "bound"  # no play the rules allow: the ±10 bound, most often
    else:
        skill = suns_skill(start, steps, joker_took_negative=joker_took_negative)
    return Question(kind.game, skill, kind.prompt(position), (start, *steps), value,
                    cards=tuple(cards))


def _stack_skill(position: Position, stacks: Sequence[Sequence[Any]]) -> str:
    target = sum(position["dice"])
    for stack in stacks:
        values = [c.rank for c in stack if c.rank != 13]
        if any(c.rank == 13 for c in stack):
            return "halve" if sum(values) > target else "double"
        if len(values) > 1 and sum(values) != target:
            return "stack_difference"
    return "stack_sum"


def exercise_answer(kind: Kind, position: Position, value: Any, result: Result, *,
                    student: str, seconds: float, level: str = DEFAULT_LEVEL,
                    prompt: str = "", uid: str = "", at: str = "") -> Answer:
    """The evidence of one exercise attempt: its skill, its numbers and, when wrong, its
    slip (``uid`` and ``at`` those of the attempt, so the two records are seen as one)."""
    given = kind.describe_answer(position, value)
    question: Question | None = None
    if kind.name == "deck_value":
        question = _deck_value_question(kind, position)
        slip = classify_slip(question, value)
    elif kind.name == "reach_goal":
        question = _reach_goal_question(kind, position, value)
        slip = classify_slip(question, position["goal"])
    elif kind.name == "find_capture":
        slip = "wrong_capture"
    else:
        slip = "other"
    if question is not None:
        skill, numbers, expected = question.skill, question.numbers, str(question.expected)
    else:
        skill = (_stack_skill(position, value) if kind.name == "make_stacks"
                 else KIND_SKILLS.get(kind.name, "other"))
        numbers, expected = (), ""
    answer = Answer(student=student, game=kind.game, skill=skill,
                    prompt=prompt or kind.prompt(position), numbers=numbers,
                    expected=expected, given=given, right=result.correct,
                    slip="" if result.correct else slip, seconds=seconds, level=level,
                    source=EXERCISE)
    return replace(answer, uid=uid or answer.uid, at=at or answer.at)


__all__ = ["KIND_SKILLS", "exercise_answer", "suns_skill"]
