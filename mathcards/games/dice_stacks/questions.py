"""The questions a Dice Stacks table asks: what the dice make, and how a stack makes it.

After a roll the player says what their stacks must make (the sum of the dice, skill
``dice_sum``). Building a stack is the next question: the student's cards and the way
they say they made the dice total with them are the answer (issue 37 item 3). Laying
cards down at "I count" asks how they make it: by adding them all, or by taking the
others away from the largest, and, with Kings, whether the Kings double or halve
(buttons, ``answer_choices``). The table judges the cards and the way together, without
computing anything on the page: right, the stack is laid; cards that are not a stack are
a wrong answer (recorded with its slip, the rule said in words, nothing laid) and the
student builds again: the same question's next try. A single card without Kings is its
own answer (nothing to say about it). The skill and the slip come from what the student
did: an added stack is ``stack_sum`` (its slip, when the cards make the total by taking
away, ``added_not_subtracted``), a stack taken away ``stack_difference``, Kings ``double``
or ``halve``. Following the others, the same question about another player's stack.

Every expected value is the engine's: the target of the state after the roll
(``DiceStacksState.target``), the stack rule's ``shape_of`` and ``value_by``
(``mathcards.games.dice_stacks.rule``); the explainer prints the same shape
(``explain`` returns its step).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from mathcards.asking import Question
from mathcards.asking.registry import AnswerError, read_number
from mathcards.cards import Card, cards_shown
from mathcards.explain.steps import WhatIf
from mathcards.explain.terms import Num, Sum
from mathcards.games.base import State, seat_name
from mathcards.games.dice_stacks import DiceRolled, LayStack, Phase, StackLaid
from mathcards.games.dice_stacks.explain import step_of
from mathcards.games.dice_stacks.rule import KING, MINUS, KingOp, StackShape, shape_of, value_by
from mathcards.i18n import N_, _

GAME = "dice_stacks"


@dataclass(frozen=True)
class DiceStacksQuestion(Question):
    """A Dice Stacks question, with what it is about: the dice, or the stack's cards."""

    dice: tuple[int, int] = (1, 1)
    stack: tuple[Card, ...] = ()  # the stack's cards (empty for the dice)


def _dice_question(event: DiceRolled, target: int, seat: int, follow: bool) -> Question:
    a, b = event.dice
    if follow:
        prompt = _("{who} rolled {a} and {b}: what must their stacks make?").format(
            who=seat_name((), event.player), a=a, b=b)
    else:
        prompt = _("You rolled {a} and {b}: what must your stacks make?").format(a=a, b=b)
    return DiceStacksQuestion(game=GAME, skill="dice_sum", prompt=prompt, numbers=(a, b),
                              expected=target, seat=event.player, follow=follow,
                              dice=event.dice)


ADDING, TAKING_AWAY = "adding", "taking away"
_OPS = {"+": ADDING, MINUS: TAKING_AWAY}
_KING_WORDS = {KingOp.DOUBLE: "Kings double", KingOp.HALVE: "Kings halve"}
NOT_A_STACK = "not a stack"
# the canonical ways, as the feedback says them back ("Right! adding, Kings halve.")
_SAID_WAYS = (N_("adding"), N_("taking away"), N_("adding, Kings double"),
              N_("adding, Kings halve"), N_("taking away, Kings double"),
              N_("taking away, Kings halve"))


def way_text(op: str, kings_op: KingOp | None) -> str:
    """The canonical words of a way: "adding", "taking away, Kings halve"."""
    words = _OPS["+" if op == "+" else MINUS]
    return f"{words}, {_KING_WORDS[kings_op]}" if kings_op is not None else words


def _way_of(text: str) -> tuple[str, KingOp | None]:
    """The way of canonical words (anything else: adding, no Kings' way)."""
    op, _, kings = text.partition(", ")
    found = next((k for k, w in _KING_WORDS.items() if w == kings), None)
    return (MINUS if op == TAKING_AWAY else "+"), found


def _plain(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(c for c in cards if c.rank != KING)


def _stack_question(cards: tuple[Card, ...], dice: tuple[int, int], seat: int,
                    follow: bool, shape: StackShape | None) -> Question:
    """How ``cards`` make the dice total (``shape``: how the rule makes it; None: they are
    not a stack). The skill is the shape's; the answer's is what the student said
    (``answer_skill``)."""
    kings = len(cards) - len(_plain(cards))
    if shape is not None and shape.kings:
        skill = "halve" if shape.king_op is KingOp.HALVE else "double"
    elif shape is not None and shape.subtracts:
        skill = "stack_difference"
    else:
        skill = "stack_sum"
    shown = cards_shown(cards)
    who = seat_name((), seat)
    if len(_plain(cards)) > 1 and kings:
        prompt = (_("{who} lays {cards}: how do they make the dice total: by adding, or by "
                    "taking away, and do the Kings double or halve?") if follow else
                  _("You lay {cards}: how do they make the dice total: by adding, or by "
                    "taking away, and do the Kings double or halve?"))
    elif len(_plain(cards)) > 1:
        prompt = (_("{who} lays {cards}: how do they make the dice total: by adding, or by "
                    "taking away?") if follow else
                  _("You lay {cards}: how do they make the dice total: by adding, or by "
                    "taking away?"))
    elif kings:
        prompt = (_("{who} lays {cards}: do the Kings double or halve it to make the dice "
                    "total?") if follow else
                  _("You lay {cards}: do the Kings double or halve it to make the dice "
                    "total?"))
    else:
        prompt = (_("{who} lays {cards}: one card as a stack") if follow else
                  _("You lay {cards}: one card as a stack"))
    prompt = prompt.format(who=who, cards=shown)
    expected = (way_text(shape.op, shape.king_op) if shape is not None else NOT_A_STACK)
    return DiceStacksQuestion(game=GAME, skill=skill, kind="stack", prompt=prompt,
                              numbers=tuple(c.rank for c in cards), expected=expected,
                              seat=seat, follow=follow, dice=dice, stack=cards,
                              cards=tuple(str(c) for c in cards))


def _selection(state: State, action: Any, seat: int) -> tuple[Card, ...] | None:
    """The cards of a stack ``seat`` builds from their hand now, else None."""
    if (not isinstance(action, LayStack) or not action.cards
            or getattr(state, "phase", None) != Phase.STACKS or state.current_player != seat):
        return None
    held: Counter[Card] = Counter(getattr(state, "hands", ())[seat])
    if any(held[c] < n for c, n in Counter(action.cards).items()):
        return None
    return tuple(action.cards)


def before_move(state: State, action: Any, seat: int) -> Question | None:
    """Laying cards down as a stack: how do they make the dice total? Asked before anything
    is laid, whether the cards are a stack or not (the answer says; the table judges it).
    None for other moves, for a single card without Kings (its own answer) and for Kings
    alone (refused with the rule)."""
    cards = _selection(state, action, seat)
    if cards is None or not _plain(cards) or len(cards) == 1:
        return None
    dice = state.rolled  # type: ignore[attr-defined]
    return _stack_question(cards, dice, seat, False, shape_of(cards, dice))


ASKS_REFUSED = True  # before_move asks about cards that are not a stack too


def accepted_move(state: State, action: Any, seat: int) -> Question | None:
    """A single card that is a stack by itself: a right answer, nothing to say about it."""
    cards = _selection(state, action, seat)
    if cards is None or len(cards) != 1 or not _plain(cards) or not state.is_legal(action):
        return None
    dice = state.rolled  # type: ignore[attr-defined]
    return _stack_question(cards, dice, seat, False, shape_of(cards, dice))


def refused_move(state: State, action: Any, seat: int) -> Question | None:
    """Cards that are not a stack (a single card, Kings alone, or cards the student said a
    way for): the question they answered wrong; None for a move refused for another rule
    (not the time to lay a stack, a card not held)."""
    cards = _selection(state, action, seat)
    if cards is None or state.is_legal(action):
        return None
    dice = state.rolled  # type: ignore[attr-defined]
    return _stack_question(cards, dice, seat, False, None)


def after_move(before: State, after: State, seat: int, *, follow: bool) -> Question | None:
    """About a move just made by ``seat``: the dice just rolled (what must the stacks
    make?) and, following the others (``follow``), how another player's stack makes it."""
    for event in after.new_events:
        if isinstance(event, DiceRolled):
            target = getattr(after, "target", None)
            if target is None:  # pragma: no cover - the dice are on the table after a roll
                return None
            return _dice_question(event, target, event.player, follow)
        if follow and isinstance(event, StackLaid) and len(event.cards) > 1:
            return _stack_question(tuple(event.cards), event.dice, event.player, True,
                                   event.shape)
    return None


def read_answer(question: Question, text: Any) -> int | str:
    """The dice's total (a number); how a stack makes it: "+" or "adding", "−" or "taking
    away", and with Kings "double" or "halve" (the buttons give these words)."""
    if getattr(question, "kind", "number") != "stack":
        return read_number(text)
    if not isinstance(text, str) or not text.strip() or len(text) > 40:
        raise AnswerError(_("click how your cards make the dice total: by adding or by "
                            "taking away"))
    said = text.strip().casefold()
    plain = [n for n in question.numbers if n != KING]
    if said.startswith(("+", "add", "sum")):
        op = "+"
    elif said.startswith(("-", "−", "tak", "subtract", "rest")):
        op = MINUS
    elif len(plain) == 1:
        op = "+"  # one card and its Kings: nothing is added or taken away
    else:
        raise AnswerError(_("click how your cards make the dice total: by adding or by "
                            "taking away"))
    kings_op = (KingOp.DOUBLE if "double" in said or "dobla" in said else
                KingOp.HALVE if "halve" in said or "mitad" in said else None)
    if kings_op is None and len(plain) < len(question.numbers):
        raise AnswerError(_("say whether the Kings double or halve too"))
    if len(plain) == len(question.numbers):
        kings_op = None
    return way_text(op, kings_op)


def _made(question: Question, given: str) -> int | None:
    """What the question's cards make the way ``given`` says (the rule's arithmetic)."""
    assert isinstance(question, DiceStacksQuestion)
    op, kings_op = _way_of(given)
    return value_by(question.stack, op, kings_op)


def check(question: Question, given: int | str) -> bool:
    if question.kind == "stack":
        assert isinstance(question, DiceStacksQuestion)
        return (isinstance(given, str) and question.expected != NOT_A_STACK
                and _made(question, given) == sum(question.dice))
    return isinstance(given, int) and not isinstance(given, bool) and given == question.expected


def answer_skill(question: Question, given: int | str) -> str:
    """What the student did: a stack they added is ``stack_sum``, one they took away
    ``stack_difference``, Kings they said double or halve ``double`` or ``halve``."""
    if (question.kind != "stack" or not isinstance(given, str)
            or not given.startswith((ADDING, TAKING_AWAY))):
        return question.skill
    op, kings_op = _way_of(given)
    if kings_op is not None:
        return "halve" if kings_op is KingOp.HALVE else "double"
    return "stack_sum" if op == "+" else "stack_difference"


def slip(question: Question, given: int | str) -> str | None:
    """The slip of a wrong way: the other way makes the total (added instead of taking
    away, and the reverse; Kings doubled instead of halved, and the reverse); else what the
    cards make the student's way read against the total (off by one, a face card's
    value...: ``classify_slip``); None for the dice's total (the classifier's)."""
    if question.kind != "stack" or not isinstance(given, str):
        return None
    assert isinstance(question, DiceStacksQuestion)
    target = sum(question.dice)
    op, kings_op = _way_of(given)
    other_op = MINUS if op == "+" else "+"
    if len(_plain(question.stack)) > 1 and value_by(question.stack, other_op,
                                                    kings_op) == target:
        return "added_not_subtracted" if op == "+" else "subtracted_not_added"
    if kings_op is not None:
        other_kings = KingOp.HALVE if kings_op is KingOp.DOUBLE else KingOp.DOUBLE
        if value_by(question.stack, op, other_kings) == target:
            return ("doubled_not_halved" if kings_op is KingOp.DOUBLE
                    else "halved_not_doubled")
    made = _made(question, given)
    if made is None:
        return "other"
    from mathcards.skills import classify_slip

    as_sum = Question(game=GAME, skill="stack_sum" if op == "+" else "stack_difference",
                      prompt="", numbers=tuple(c.rank for c in _plain(question.stack)),
                      expected=target, cards=tuple(str(c) for c in _plain(question.stack)))
    return classify_slip(as_sum, made)


def nudge(question: Question, given: int | str, slip_name: str) -> str:
    """The words after a first wrong answer, about the thing counted: the dice ("count
    the dots"), or the stack's way and its Kings; the rule, never what the cards make."""
    if question.kind != "stack":  # the dice total: never "this card" about dice
        if slip_name in ("off_by_one", "off_by_two"):
            return _("Close, but not quite: count the dots of both dice again.")
        return _("Not quite: your stacks must make the two dice added together. Add them "
                 "again.")
    if slip_name in ("doubled_not_halved", "halved_not_doubled"):
        return _("Not quite: does each King double the cards or halve them here?")
    return _("Not quite: a stack adds all its cards, or takes the others away from the "
             "largest. Which way makes the dice total?")


def rule_words(state: State, action: Any, reason: str) -> str:
    """A refused move in words at "I count": the rule, never what the cards make."""
    cards = _selection(state, action, state.current_player) \
        if state.current_player is not None else None
    if cards is None:
        return reason
    return _("{cards} is not a stack of the dice total: a stack adds all its cards, or takes "
             "the others away from the largest, and its Kings then double or halve "
             "it").format(cards=cards_shown(cards))


def hint(state: State, level: int) -> str:
    """The hints at "I count": the rule (level 1) and a card to start a stack with
    (level 2), never how many stacks the cards make nor what they make."""
    from mathcards.games import dice_stacks as engine

    player = state.current_player
    if player is None:
        return _("the game is over")
    if getattr(state, "phase", None) != Phase.STACKS:
        return _("roll the dice, then draw your cards")
    stacks = engine.best_stacks(state.hands[player], state.rolled)  # type: ignore[attr-defined]
    if not stacks:
        return _("a stack adds all its cards, or takes the others away from the largest; "
                 "Kings then double or halve it; every stack makes the dice total: if you "
                 "find none, end your turn")
    if level <= 1:
        return _("a stack adds all its cards, or takes the others away from the largest; "
                 "Kings then double or halve it; every stack makes the dice total")
    return _("start a stack with your {card}").format(card=stacks[0][0].symbol)


def explain(question: Question, before: State | None = None, after: State | None = None
            ) -> list[Any]:
    """The explainer's step for the question: ``3 + 5 = 8`` for the dice, the stack's
    expression (``(12 + 8) × ½ × ½ = 5``) for a stack."""
    assert isinstance(question, DiceStacksQuestion)
    if not question.stack:
        a, b = question.dice
        return [WhatIf(lhs=Sum((Num(a), Num(b))), value=int(question.expected),
                       comment=_("every stack this turn must make {total}").format(
                           total=question.expected))]
    shape = shape_of(question.stack, question.dice)
    return [step_of(shape, question.dice, question.seat)] if shape is not None else []


# --- the way at the table: buttons ----------------------------------------------------
_WAY_KEYS = (("ans:op:+", N_("adding"), N_("every card added")),
             ("ans:op:-", N_("taking away"), N_("the others taken away from the largest")))
_KING_KEYS = (("ans:k:double", N_("Kings double"), N_("each King doubles")),
              ("ans:k:halve", N_("Kings halve"), N_("each King halves")))


def answer_choices(question: Question, state: Any, picks: tuple[str, ...]
                   ) -> list[tuple[str, str, str, bool]]:
    """The way's buttons (key, label, tooltip, picked), in one fixed order: adding, taking
    away (two or more cards besides the Kings), Kings double, Kings halve (with Kings)."""
    if question.kind != "stack":
        return []
    plain = [n for n in question.numbers if n != KING]
    out = []
    if len(plain) > 1:
        out += [(k, _(label), _(tip), k in picks) for k, label, tip in _WAY_KEYS]
    if len(plain) < len(question.numbers):
        out += [(k, _(label), _(tip), k in picks) for k, label, tip in _KING_KEYS]
    return out


def pick(question: Question, picks: tuple[str, ...], key: str
         ) -> tuple[tuple[str, ...], str | None]:
    """A way's button clicked: the picks after it (one way, one Kings' way), and the answer
    once every button the question needs is picked."""
    role = key.split(":")[1]
    picks = (*(k for k in picks if k.split(":")[1] != role), key)
    plain = [n for n in question.numbers if n != KING]
    roles = {k.split(":")[1]: k.split(":", 2)[2] for k in picks}
    need_op = len(plain) > 1
    need_kings = len(plain) < len(question.numbers)
    if (need_op and "op" not in roles) or (need_kings and "k" not in roles):
        return picks, None
    op = "+" if roles.get("op", "+") == "+" else MINUS
    kings = {"double": KingOp.DOUBLE, "halve": KingOp.HALVE}.get(roles.get("k", ""))
    return (), way_text(op, kings if need_kings else None)


__all__ = ["ASKS_REFUSED", "NOT_A_STACK", "DiceStacksQuestion", "accepted_move", "after_move",
           "answer_choices", "answer_skill", "before_move", "check", "explain", "hint",
           "nudge", "pick", "read_answer", "refused_move", "rule_words", "slip", "way_text"]
