"""The questions a Dice Stacks table asks: what the dice make, and what a stack makes.

After a roll the player says what their stacks must make (the sum of the dice, skill
``dice_sum``); laying a stack down, they say what it makes (adding: ``stack_sum``;
subtracting: ``stack_difference``; with Kings, what the doubling or halving gives:
``double`` or ``halve``). Following the others, the same questions about another
player's roll or stack.

Every expected value is the engine's: the target of the state after the roll
(``DiceStacksState.target``), the ``StackLaid`` event's shape (``shape_of``, the one
stack rule) of the stack the engine lays; the explainer prints the same shape
(``explain`` returns its step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathcards.asking import Question
from mathcards.asking.registry import read_number
from mathcards.cards import Card, cards_shown
from mathcards.explain.dice_stacks import step_of
from mathcards.explain.steps import WhatIf
from mathcards.explain.terms import Num, Sum
from mathcards.games.base import State, seat_name
from mathcards.games.dice_stacks import DiceRolled, LayStack, StackLaid
from mathcards.games.dice_stacks_rule import KingOp, shape_of

GAME = "dice_stacks"


@dataclass(frozen=True)
class DiceStacksQuestion(Question):
    """A Dice Stacks question, with what it is about: the dice, or the stack's cards."""

    dice: tuple[int, int] = (1, 1)
    stack: tuple[Card, ...] = ()  # the stack's cards (empty for the dice)


def _dice_question(event: DiceRolled, target: int, seat: int, follow: bool) -> Question:
    a, b = event.dice
    if follow:
        prompt = (f"{seat_name((), event.player)} rolled {a} and {b}: "
                  "what must their stacks make?")
    else:
        prompt = f"You rolled {a} and {b}: what must your stacks make?"
    return DiceStacksQuestion(game=GAME, skill="dice_sum", prompt=prompt, numbers=(a, b),
                              expected=target, seat=event.player, follow=follow,
                              dice=event.dice)


def _stack_question(event: StackLaid, follow: bool) -> Question | None:
    shape = event.shape
    if shape is None:  # pragma: no cover - a laid stack always has its shape
        return None
    if shape.kings:
        skill = "halve" if shape.king_op is KingOp.HALVE else "double"
    elif shape.subtracts:
        skill = "stack_difference"
    else:
        skill = "stack_sum"
    shown = cards_shown(event.cards)
    if follow:
        prompt = f"{seat_name((), event.player)} lays {shown}: what does the stack make?"
    else:
        prompt = f"You lay {shown}: what does the stack make?"
    if shape.kings:
        prompt = prompt[:-1] + " after the Kings?"
    numbers = (*shape.values, *(card.rank for card in shape.kings))
    return DiceStacksQuestion(game=GAME, skill=skill, prompt=prompt, numbers=numbers,
                              expected=shape.value, seat=event.player, follow=follow,
                              dice=event.dice, stack=event.cards)


def before_move(state: State, action: Any, seat: int) -> Question | None:
    """Laying a stack down: what does it make? (asked before it is laid; None for other
    moves and for moves the rules refuse: the table refuses those with the engine's reason)."""
    if not isinstance(action, LayStack) or not state.is_legal(action):
        return None
    laid = next((e for e in state.apply(action).new_events if isinstance(e, StackLaid)), None)
    return _stack_question(laid, False) if laid is not None else None


def after_move(before: State, after: State, seat: int, *, follow: bool) -> Question | None:
    """About a move just made by ``seat``: the dice just rolled (what must the stacks
    make?) and, following the others (``follow``), another player's stack."""
    for event in after.new_events:
        if isinstance(event, DiceRolled):
            target = getattr(after, "target", None)
            if target is None:  # pragma: no cover - the dice are on the table after a roll
                return None
            return _dice_question(event, target, event.player, follow)
        if follow and isinstance(event, StackLaid):
            return _stack_question(event, True)
    return None


def read_answer(question: Question, text: str) -> int:
    """The student's number (typed or on the number pad)."""
    return read_number(text)


def check(question: Question, given: int | str) -> bool:
    return isinstance(given, int) and not isinstance(given, bool) and given == question.expected


def explain(question: Question, before: State | None = None, after: State | None = None
            ) -> list[Any]:
    """The explainer's step for the question: ``3 + 5 = 8`` for the dice, the stack's
    expression (``(12 + 8) × ½ × ½ = 5``) for a stack."""
    assert isinstance(question, DiceStacksQuestion)
    if not question.stack:
        a, b = question.dice
        return [WhatIf(lhs=Sum((Num(a), Num(b))), value=int(question.expected),
                       comment=f"every stack this turn must make {question.expected}")]
    shape = shape_of(question.stack, question.dice)
    assert shape is not None
    return [step_of(shape, question.dice, question.seat)]




def nudge(question: Question, given: int | str, slip: str) -> str:
    """The words after a first wrong answer, about the thing counted: the dice, or the
    stack's cards and Kings (never "this card" about dice; never the answer)."""
    from mathcards.asking.registry import NUDGE, NUDGES

    dice = isinstance(question, DiceStacksQuestion) and not question.stack
    if dice:
        if slip in ("off_by_one", "off_by_two"):
            return "Close, but not quite: count the dots of both dice again."
        return "Not quite: your stacks must make the two dice added together. Add them again."
    if slip in ("added_not_subtracted", "subtracted_not_added"):
        return "Not quite: does your stack add its cards or take them away?"
    if slip in ("doubled_not_halved", "halved_not_doubled"):
        return "Not quite: do the Kings double or halve here?"
    return NUDGES.get(slip, NUDGE)


__all__ = ["DiceStacksQuestion", "after_move", "before_move", "check", "explain", "nudge",
           "read_answer"]
