"""Dice Stacks explained: each stack as its expression, and why some cards are not a stack.

The arithmetic is the engine's: ``mathcards.games.dice_stacks_rule`` works out
a stack's shape (its operations in the order the cards were given: the
largest first when subtracting, Kings last) and why cards are not a stack;
this module only turns that, and the engine's events, into steps.

>>> stack_steps("QS 8D KH KC", (2, 3)).text
'(12 + 8) × ½ × ½ = 5'
>>> stack_steps("10H AS AD", (3, 5)).text
'10 − 1 − 1 = 8'
>>> stack_steps("10C 5S 4D", (5, 6))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathcards.explain.errors.NotAStackError: 10♣ 5♠ 4♦ is not a stack of 11: 10 + 5 − 4 mixes ...
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mathcards.cards import Card, as_card, parse_cards
from mathcards.errors import MathCardsError
from mathcards.explain.errors import ExplainError, NotAStackError
from mathcards.explain.steps import Fact, Hint, Refusal, StackExpression, Step
from mathcards.explain.terms import MINUS, Half, Neg, Node, Num, Product, Sum, text_of
from mathcards.games.base import seat_name
from mathcards.games.dice_stacks_rule import (
    KING,
    NotAStack,
    StackShape,
    check_dice,
    halvings,
    shape_of,
)
from mathcards.games.dice_stacks_rule import why_not as _analysis


def _cards(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(as_card(c) for c in cards)


def _dice(dice: Sequence[int]) -> tuple[int, int]:
    try:
        return check_dice(dice)
    except MathCardsError:
        raise ExplainError(
            f"dice must be two whole numbers from 1 to 6, not {dice!r}"
        ) from None


def _refuse(cards: Sequence[Card], target: int, reason: str) -> NotAStackError:
    shown = " ".join(c.symbol for c in cards)
    return NotAStackError(f"{shown} is not a stack of {target}: {reason}", reason)


def step_of(shape: StackShape, dice: tuple[int, int], player: int | None = None) -> StackExpression:
    """The step of a stack's shape (the engine's derivation)."""
    return StackExpression(
        cards=(*shape.cards, *shape.kings), values=shape.values, subtracts=shape.subtracts,
        kings=len(shape.kings), halves=shape.halves, target=shape.value, dice=dice,
        points=shape.points, player=player,
    )


def analyse_stack(
    cards: Iterable[Card | str] | str, dice: Sequence[int], *, ordered: bool = False
) -> StackExpression:
    """The stack these cards make for the dice, or ``NotAStackError`` saying why not.

    ``ordered=True`` reads the cards as a proposal in the order given, so a
    King placed before a number card is refused ("the King must come last").
    """
    cards = _cards(cards)
    d1, d2 = _dice(dice)
    target = d1 + d2
    if not cards:
        raise _refuse(cards, target, "a stack needs at least one card")
    for card in cards:
        if not card.is_standard:
            raise NotAStackError(
                f"{card.symbol} is not a Dice Stacks card: the game uses A-Q and Kings, "
                "no Jokers",
                f"{card.symbol} is not a Dice Stacks card",
            )
    numbers = [c for c in cards if c.rank != KING]
    kings = len(cards) - len(numbers)
    if not numbers:
        raise _refuse(
            cards, target, "Kings alone are not a stack: a King doubles or halves other cards"
        )
    if ordered and kings:
        first_king = next(i for i, c in enumerate(cards) if c.rank == KING)
        if any(c.rank != KING for c in cards[first_king:]):
            raise _refuse(
                cards, target,
                "the King must come last: Kings double or halve only after all the other "
                "cards are added or subtracted",
            )
    shape = shape_of(cards, (d1, d2))
    if shape is not None:
        return step_of(shape, (d1, d2))
    raise _refuse(cards, target, _words(_analysis([c.rank for c in numbers], kings, target)))


def _base_node(values: Sequence[int], subtracts: bool) -> Node:
    if subtracts:
        return Sum((Num(values[0]), *(Neg(Num(v)) for v in values[1:])))
    return Sum(tuple(Num(v) for v in values))


def _with_kings(base: Node, kings: int, halves: bool) -> Node:
    if not kings:
        return base
    return Product((base, *([Half() if halves else Num(2)] * kings)))


def _words(why: NotAStack) -> str:
    """The rule's analysis of cards that are not a stack, in words."""
    if why.mixed:
        plus, minus = why.mixed
        shown = " + ".join(str(v) for v in plus) + "".join(f" {MINUS} {v}" for v in minus)
        return f"{shown} mixes adding and subtracting"
    kings, target = why.kings, why.target
    if why.kings_split:
        doubles, halves = why.kings_split
        return (
            "Kings in one stack must all double or all halve: "
            f"{doubles} doubling and {halves} halving would make {target}"
        )
    made = []
    for attempt in why.attempts:
        node = _base_node(attempt.values, attempt.subtracts)
        base = attempt.base
        if not kings:
            made.append(f"{text_of(node)} = {_num(base)}")
            continue
        made.append(f"{text_of(_with_kings(node, kings, False))} = {_num(base * 2**kings)}")
        halved, odd, _ = halvings(base, kings)
        if halved is None:
            made.append(f"{_num(odd)} ÷ 2 is not a whole number")
        else:
            made.append(f"{text_of(_with_kings(node, kings, True))} = {_num(halved)}")
    return "; ".join(made) + f"; none makes {target}"


def _num(v: int | None) -> str:
    return f"{MINUS}{-v}" if v is not None and v < 0 else str(v)


def stack_steps(
    cards: Iterable[Card | str] | str, dice: Sequence[int], *, ordered: bool = False
) -> StackExpression:
    """The explanation of a stack: ``.text``, ``.latex``, ``.html``, its King steps.

    Raises ``NotAStackError`` (a ``ValueError``) with the reason in its message
    when the cards are not a stack for these dice.
    """
    return analyse_stack(cards, dice, ordered=ordered)


__all__ = ["analyse_stack", "stack_steps"]


# --- events -> steps ---------------------------------------------------------------
def steps_for_events(events: Sequence[Any], before: Any = None, after: Any = None,
                     names: Sequence[str] = ()) -> list[Step]:
    """The steps of one action's events: each stack laid as its expression, in order
    (``names``: the seats' names at the table)."""
    from mathcards.games.dice_stacks import DiceRolled, StackLaid

    out: list[Step] = []
    for ev in events:
        if isinstance(ev, StackLaid) and ev.shape is not None:
            out.append(step_of(ev.shape, ev.dice, ev.player))
        elif isinstance(ev, DiceRolled):
            d1, d2 = ev.dice
            draw = f"{min(d1, d2)} or {max(d1, d2)}" if d1 != d2 else f"{d1}"
            out.append(Fact(player=ev.player, sentence=(
                f"{seat_name(names, ev.player)} rolls {d1} and {d2}: stacks of {d1} + {d2} = "
                f"{d1 + d2}; draw {draw} cards")))
        else:
            out.append(Fact(player=ev.player, sentence=ev.describe(names).rstrip(".")))
    return out


def _laid(state: Any, action: Any) -> StackExpression | None:
    """What if: the step of the stack ``action`` lays, by applying it to ``state``."""
    from mathcards.games.dice_stacks import StackLaid

    if not state.is_legal(action):
        return None
    for ev in state.apply(action).new_events:
        if isinstance(ev, StackLaid) and ev.shape is not None:
            return step_of(ev.shape, ev.dice, ev.player)
    return None  # pragma: no cover - a legal LayStack always lays a stack


def hint(state: Any, level: int = 1) -> Hint:
    """A hint for the player to act: 1 how many stacks, 2 which cards, 3 one full stack."""
    from mathcards.games import dice_stacks as engine

    player = state.current_player
    if player is None:
        return Hint(level=level, sentence="the game is over")
    hand, dice = state.hands[player], state.dice
    if not dice:
        return Hint(level=level, sentence="roll the dice first")
    target = sum(dice)
    stacks = engine.best_stacks(hand, dice)
    if not stacks:
        return Hint(level=level, sentence=f"these cards make no stack of {target} yet")
    points = sum(engine.stack_points(s, dice) for s in stacks)
    count = len(stacks)
    made = f"{count} stack{'s' if count != 1 else ''} of {target}"
    if points != count:
        made += f" ({points} points)"
    if level <= 1:
        return Hint(level=1, sentence=f"these cards make {made}")
    first = stacks[0]
    cards = " and ".join(c.symbol for c in first)
    sentence = f"these cards make {made}; here is one: {cards}"
    step = _laid(state, engine.LayStack(first)) if level >= 3 else None
    if step is None:
        return Hint(level=2, sentence=sentence)
    return Hint(level=3, sentence=sentence, shown=(step,))


def why_not(state: Any, action: Any, reason: str) -> Refusal:
    """A refused stack with the arithmetic of why it is not one."""
    cards = getattr(action, "cards", None)
    dice = state.dice if state.current_player is not None else None
    detail: tuple[Step, ...] = ()
    if cards and dice:
        try:
            analyse_stack(cards, dice, ordered=True)
        except NotAStackError as exc:
            if exc.reason not in reason:
                detail = (Fact(sentence=exc.reason),)
    return Refusal(action=str(action), reason=reason, detail=detail)
