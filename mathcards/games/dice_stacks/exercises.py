"""Dice Stacks exercises: make the best stacks, and is this a stack?"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from mathcards.cards import Card
from mathcards.exercises.exercise_grid import NO_STACKS
from mathcards.exercises.fields import (
    FieldError,
    read_card,
    read_dice,
    split_cards,
)
from mathcards.exercises.kinds.base import (
    AnswerError,
    FieldSpec,
    Kind,
    Position,
    Result,
    YesNoKind,
    _cards_field,
    fact,
    make_hint,
)
from mathcards.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from mathcards.explain.steps import Hint


def _cards_words(cards: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _dice_field(value: Any, game: str) -> tuple[Any, Any]:
    return read_dice(value)


def _stack_step(cards: Sequence[Card], dice: tuple[int, int]) -> Any:
    """The explainer's step for cards laid as a stack (its expression, or why it is not one)."""
    from mathcards.explain import NotAStackError, stack_steps

    try:
        return stack_steps(list(cards), dice)  # the rule's shape and points
    except NotAStackError as exc:
        return fact(exc.reason)


def _stack_skill(position: Position, stacks: Sequence[Sequence[Any]]) -> str:
    target = sum(position["dice"])
    for stack in stacks:
        values = [c.rank for c in stack if c.rank != 13]
        if any(c.rank == 13 for c in stack):
            return "halve" if sum(values) > target else "double"
        if len(values) > 1 and sum(values) != target:
            return "stack_difference"
    return "stack_sum"


class MakeStacks(Kind):
    """Dice Stacks: lay as many points of stacks as the hand allows."""

    name = "make_stacks"
    game = "dice_stacks"
    title = N_("Make stacks")
    question = N_("Make stacks of the dice total. The best stacks score the most points.")
    answer_style = "stacks"
    measure_names = ("best stacks", "best points")
    fields = (
        FieldSpec("dice", _dice_field, help=N_("two dice: [3, 5] or random")),
        FieldSpec("hand", _cards_field(1, 14), help=N_("the cards in hand")),
    )

    def prompt(self, position: Position) -> str:
        d1, d2 = position["dice"]
        return _("The dice show {a} and {b}: make stacks of {total}. Full marks for the most "
                 "points these cards can make.").format(a=d1, b=d2, total=d1 + d2)

    def best(self, position: Position) -> tuple[list[tuple[Card, ...]], int]:
        from mathcards.games import dice_stacks as ds
        dice = tuple(position["dice"])
        stacks = [tuple(s) for s in ds.best_stacks(list(position["hand"]), dice)]
        return stacks, sum(ds.stack_points(list(s), dice) for s in stacks)

    def measures(self, position: Position) -> dict[str, int]:
        stacks, points = self.best(position)
        return {"best stacks": len(stacks), "best points": points}

    def problems(self, position: Position) -> list[str]:
        if not self.best(position)[0]:
            d1, d2 = position["dice"]
            return [f"these cards make no stack of {d1 + d2}: add cards or change the dice"]
        return []

    def read_answer(self, position: Position, answer: Any) -> tuple[tuple[Card, ...], ...]:
        if isinstance(answer, str):
            groups = [g for g in answer.split("|") if g.strip()]
        elif isinstance(answer, (list, tuple)):
            groups = list(answer)  # each stack: text, or a list or tuple of cards
        else:
            raise AnswerError("give stacks like '8C | 6H 2S' or a list of stacks of cards")
        stacks = []
        for group in groups:
            try:
                cards = tuple(read_card(c, "dice_stacks") for c in split_cards(group))
            except FieldError as exc:
                raise AnswerError(str(exc)) from None
            if cards:
                stacks.append(cards)
        return tuple(stacks)

    def answer_text(self, answer: Any) -> str:
        return " | ".join(" ".join(str(c) for c in s) for s in answer) or NO_STACKS

    def state(self, position: Position) -> Any:
        """The position as a real engine state: you to lay stacks with this hand."""
        from mathcards.games import dice_stacks as ds
        return ds.DiceStacks(num_players=2).position(position["hand"], position["dice"])

    def attempt_skill(self, position: Position, answer: Any) -> str | None:
        return _stack_skill(position, answer)

    def check(self, position: Position, answer: Any) -> Result:
        from mathcards.games import dice_stacks as ds
        stacks = self.read_answer(position, answer)
        dice = tuple(position["dice"])
        _stacks, best = self.best(position)
        state = self.state(position)
        steps: list[Any] = []
        points = 0
        refused = 0
        from mathcards.explain import why_not
        from mathcards.games.dice_stacks.explain import step_of

        for stack in stacks:  # each stack laid on the real state, in turn
            action = ds.LayStack(stack)
            if not state.is_legal(action):
                refused += 1
                refusal = why_not(state, action)  # the engine's reason
                taken = [c for c in dict.fromkeys(stack) if stack.count(c) > state.hands[0].count(c)
                         and c in position["hand"]]  # in the hand, but laid in a stack above
                if taken:
                    refusal = dataclasses.replace(refusal, detail=(*refusal.detail, fact(
                        f"{_cards_words(taken)} is already in one of your stacks above: a card "
                        "goes in one stack only")))
                steps.append(refusal)
                continue
            state = state.apply(action)
            laid = next(e for e in state.new_events if isinstance(e, ds.StackLaid))
            points += laid.points
            # a legal stack always has the engine's shape; the explainer's own step otherwise
            steps.append(step_of(laid.shape, laid.dice) if laid.shape is not None
                         else _stack_step(stack, dice))
        score = points / best if best else 0.0
        if refused:
            score = min(score, (best - 1) / best if best else 0.0)
        if not refused and points >= best:
            return Result(True, 1.0, ngettext(
                "Right: {n} point, the most these cards can make.",
                "Right: {n} points, the most these cards can make.", points).format(n=points),
                tuple(steps))
        if not stacks:
            head = _("Not quite: no stacks yet; these cards can make {best} points.").format(
                best=best)
        elif refused:
            head = ngettext("Not quite: {refused} of your stacks is not allowed; the rest "
                            "score {n} of {best} points.",
                            "Not quite: {refused} of your stacks are not allowed; the rest "
                            "score {n} of {best} points.", refused).format(
                refused=refused, n=points, best=best)
        else:
            head = ngettext("Partly right: your stacks score {n} point; these cards can make "
                            "{best}.", "Partly right: your stacks score {n} points; these "
                            "cards can make {best}.", points).format(n=points, best=best)
        return Result(False, score, head, tuple(steps))

    def hint(self, position: Position, level: int) -> Hint:
        stacks, points = self.best(position)
        target = sum(position["dice"])
        from mathcards.games.dice_stacks.explain import stacks_words

        if level <= 1:
            return make_hint(1, stacks_words(stacks, target, points))
        first = stacks[0]
        sentence = stacks_words(stacks, target, points, one=True)
        if level == 2:
            return make_hint(2, sentence)
        return make_hint(3, sentence, [_stack_step(first, tuple(position["dice"]))])

    def solution(self, position: Position) -> Result:
        stacks, points = self.best(position)
        dice = tuple(position["dice"])
        steps = [_stack_step(s, dice) for s in stacks]
        return Result(True, 1.0, _("The best stacks score {n} points:").format(n=points),
                      tuple(steps))


class IsStack(YesNoKind):
    """Dice Stacks: do these cards make a stack of the dice total?"""

    name = "is_stack"
    game = "dice_stacks"
    title = N_("Is this a stack?")
    question = N_("Is this a stack?")
    measure_names = ("answer", "points")
    fields = (
        FieldSpec("dice", _dice_field, help=N_("two dice: [3, 5] or random")),
        FieldSpec("cards", _cards_field(1, 8), help=N_("the cards of the stack, Kings last")),
    )

    def prompt(self, position: Position) -> str:
        d1, d2 = position["dice"]
        return _("The dice show {a} and {b}. Do these cards make a stack of {total}?").format(
            a=d1, b=d2, total=d1 + d2)

    def truth(self, position: Position) -> bool:
        from mathcards.games import dice_stacks as ds
        return ds.stack_points(list(position["cards"]), tuple(position["dice"])) > 0

    def measures(self, position: Position) -> dict[str, int]:
        from mathcards.games import dice_stacks as ds
        points = ds.stack_points(list(position["cards"]), tuple(position["dice"]))
        return {"answer": int(points > 0), "points": points}

    def reason(self, position: Position) -> list[Any]:
        return [_stack_step(position["cards"], tuple(position["dice"]))]

    def hint(self, position: Position, level: int) -> Hint:
        target = sum(position["dice"])
        cards = position["cards"]
        if level <= 1:
            return make_hint(1, _("a stack adds all its number cards, or takes the largest "
                                  "minus the others; Kings double or halve at the end"))
        values = ", ".join("K" if c.rank == 13 else str(c.rank) for c in cards)
        if level == 2:
            return make_hint(2, _("the values are {values}; the stack must make {target}")
                             .format(values=values, target=target))
        from mathcards.games.dice_stacks.rule import KING, why_not

        numbers = [c.rank for c in cards if c.rank != KING]
        kings = len(cards) - len(numbers)
        parts = [(_("the largest minus the others makes {n}") if attempt.subtracts
                  else _("added they make {n}")).format(n=attempt.base)
                 for attempt in (why_not(numbers, kings, target).attempts if numbers else ())]
        if kings:
            parts.append(ngettext("then {n} King doubles or halves",
                                  "then {n} Kings double or halve", kings).format(n=kings))
        return make_hint(3, _("{parts}; is one of these {target}?").format(
            parts="; ".join(parts), target=target))


# this game's exercise kinds (mathcards.games.parts finds them by this name)
KINDS = (MakeStacks, IsStack)
