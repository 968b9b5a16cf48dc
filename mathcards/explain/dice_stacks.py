"""Dice Stacks explained: each stack as its expression, and why some cards are not a stack.

A stack for the dice sum T (ruling 1-3 of Dice Stacks): number cards added,
or subtracted (the largest minus all the others), then Kings that all double
or all halve, each halving leaving a whole number. This module works the
arithmetic out from the cards itself and prints it in the order the cards
were given (the largest first when subtracting, Kings last); the engine's
``stack_points`` is the judge, and the tests check the two agree.

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

import dataclasses
from collections.abc import Iterable, Sequence
from itertools import product
from typing import Any

from mathcards.cards import Card, as_card, parse_cards
from mathcards.explain.errors import ExplainError, NotAStackError
from mathcards.explain.steps import Fact, Hint, Refusal, StackExpression, Step, seat_name
from mathcards.explain.terms import (
    MINUS,
    Half,
    Neg,
    Node,
    Num,
    Product,
    Sum,
    text_of,
)

KING = 13
MAX_MIXED_SEARCH = 12  # number cards; 2**12 sign patterns is still instant


def _cards(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(as_card(c) for c in cards)


def _dice(dice: Sequence[int]) -> tuple[int, int]:
    try:
        d = tuple(dice)
    except TypeError:
        d = ()
    if len(d) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6
                          for v in d):
        raise ExplainError(f"dice must be two whole numbers from 1 to 6, not {dice!r}")
    return d  # type: ignore[return-value]


def _value(card: Card) -> int:
    if not card.is_standard:
        raise NotAStackError(
            f"{card.symbol} is not a Dice Stacks card: the game uses A-Q and Kings, no Jokers",
            f"{card.symbol} is not a Dice Stacks card",
        )
    return card.rank


def _halvings(base: int, kings: int) -> tuple[int | None, int | None]:
    """(the value after ``kings`` whole halvings or None, the odd number that failed)."""
    value = base
    for _ in range(kings):
        if value % 2:
            return None, value
        value //= 2
    return value, None


def _base_node(values: Sequence[int], subtracts: bool) -> Node:
    if subtracts:
        return Sum((Num(values[0]), *(Neg(Num(v)) for v in values[1:])))
    return Sum(tuple(Num(v) for v in values))


def _with_kings(base: Node, kings: int, halves: bool) -> Node:
    if not kings:
        return base
    return Product((base, *([Half() if halves else Num(2)] * kings)))


def _refuse(cards: Sequence[Card], target: int, reason: str) -> NotAStackError:
    shown = " ".join(c.symbol for c in cards)
    return NotAStackError(f"{shown} is not a stack of {target}: {reason}", reason)


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
        _value(card)
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
    values = [c.rank for c in numbers]
    options: list[tuple[bool, list[Card]]] = [(False, numbers)]
    if len(numbers) >= 2:
        top = max(range(len(numbers)), key=lambda i: (values[i], -i))
        order = [numbers[top], *numbers[:top], *numbers[top + 1:]]
        options.append((True, order))
    for subtracts, order in options:
        vals = tuple(c.rank for c in order)
        base = vals[0] - sum(vals[1:]) if subtracts else sum(vals)
        modes = (False,) if not kings else (False, True)
        for halves in modes:
            if halves:
                value, _ = _halvings(base, kings)
            else:
                value = base * 2**kings
            if value == target:
                points = 2 if (not kings and sorted(vals) == sorted((d1, d2))) else 1
                return StackExpression(
                    cards=(*order, *(c for c in cards if c.rank == KING)),
                    values=vals, subtracts=subtracts, kings=kings, halves=halves,
                    target=target, dice=(d1, d2), points=points,
                )
    raise _refuse(cards, target, _why_not(numbers, kings, target))


def _why_not(numbers: Sequence[Card], kings: int, target: int) -> str:
    """The reason number cards (+ Kings) do not make ``target``, in words."""
    values = [c.rank for c in numbers]
    # 1. adding and subtracting mixed would make it
    if 3 <= len(values) <= MAX_MIXED_SEARCH:
        for signs in product((1, -1), repeat=len(values)):
            if signs.count(1) < 2 or signs.count(-1) < 1:
                continue  # one plus and the rest minus is plain subtraction
            plus = [v for v, s in zip(values, signs, strict=True) if s > 0]
            minus = [v for v, s in zip(values, signs, strict=True) if s < 0]
            if target in _king_results(sum(plus) - sum(minus), kings):
                shown = " + ".join(str(v) for v in plus) + "".join(
                    f" {MINUS} {v}" for v in minus
                )
                return f"{shown} mixes adding and subtracting"
    bases = [(False, values, sum(values))]
    if len(values) >= 2:
        rest = list(values)
        rest.remove(max(values))
        ordered = [max(values), *rest]  # the largest first, the others as given
        bases.append((True, ordered, ordered[0] - sum(ordered[1:])))
    # 2. Kings doubling and halving together would make it
    if kings >= 2:
        for _, _, base in bases:
            for doubles in range(1, kings):
                if _mixed_kings(base, doubles, kings - doubles) == target:
                    return (
                        "Kings in one stack must all double or all halve: "
                        f"{doubles} doubling and {kings - doubles} halving would make {target}"
                    )
    # 3. otherwise: say what each way makes
    made = []
    for subtracts, vals, base in bases:
        node = _base_node(vals, subtracts)
        if not kings:
            made.append(f"{text_of(node)} = {_num(base)}")
            continue
        made.append(f"{text_of(_with_kings(node, kings, False))} = {_num(base * 2**kings)}")
        halved, odd = _halvings(base, kings)
        if halved is None:
            made.append(f"{_num(odd)} ÷ 2 is not a whole number")
        else:
            made.append(f"{text_of(_with_kings(node, kings, True))} = {_num(halved)}")
    return "; ".join(made) + f"; none makes {target}"


def _num(v: int | None) -> str:
    return f"{MINUS}{-v}" if v is not None and v < 0 else str(v)


def _king_results(base: int, kings: int) -> set[int]:
    if not kings:
        return {base}
    out = {base * 2**kings}
    halved, _ = _halvings(base, kings)
    if halved is not None:
        out.add(halved)
    return out


def _mixed_kings(base: int, doubles: int, halves: int) -> int | None:
    value = base * 2**doubles  # doubling first keeps every halving whole when it can be
    for _ in range(halves):
        if value % 2:
            return None
        value //= 2
    return value


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
def steps_for_events(events: Sequence[Any], before: Any = None, after: Any = None) -> list[Step]:
    """The steps of one action's events: each stack laid as its expression, in order."""
    out: list[Step] = []
    for ev in events:
        name = type(ev).__name__
        if name == "StackLaid":
            try:
                step = analyse_stack(ev.cards, ev.dice)
            except NotAStackError as exc:  # the engine is the judge; say what we could not
                out.append(Fact(player=ev.player, sentence=f"{ev.describe().rstrip('.')} "
                                                           f"({exc.reason})"))
                continue
            out.append(dataclasses.replace(step, player=ev.player, target=ev.target,
                                           points=ev.points))
        elif name == "DiceRolled":
            d1, d2 = ev.dice
            out.append(Fact(player=ev.player, sentence=(
                f"{seat_name(ev.player)} rolls {d1} and {d2}: stacks of {d1} + {d2} = "
                f"{d1 + d2}; draw {min(d1, d2)} or {max(d1, d2)} cards"
                if d1 != d2 else
                f"{seat_name(ev.player)} rolls {d1} and {d2}: stacks of {d1} + {d2} = "
                f"{d1 + d2}; draw {d1} cards")))
        else:
            out.append(Fact(player=ev.player, sentence=ev.describe().rstrip(".")))
    return out


def _hand_and_dice(state: Any) -> tuple[tuple[Card, ...], tuple[int, int] | None]:
    player = state.current_player
    obs = state.observation(player)
    hand = tuple(getattr(obs, "hand", ()))
    dice = getattr(obs, "dice", None) or getattr(state, "dice", None)
    return hand, (tuple(dice) if dice else None)  # type: ignore[return-value]


def hint(state: Any, level: int = 1) -> Hint:
    """A hint for the player to act: 1 how many stacks, 2 which cards, 3 one full stack."""
    from mathcards.games import dice_stacks as engine

    if state.current_player is None:
        return Hint(level=level, sentence="the game is over")
    hand, dice = _hand_and_dice(state)
    if not dice:
        return Hint(level=level, sentence="roll the dice first")
    target = sum(dice)
    stacks = [tuple(s) for s in engine.best_stacks(hand, dice)]
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
    if level == 2:
        return Hint(level=2, sentence=sentence)
    step = dataclasses.replace(analyse_stack(first, dice),
                               points=engine.stack_points(first, dice))
    return Hint(level=3, sentence=sentence, shown=(step,))


def why_not(state: Any, action: Any, reason: str) -> Refusal:
    """A refused stack with the arithmetic of why it is not one."""
    cards = getattr(action, "cards", None)
    _, dice = _hand_and_dice(state) if state.current_player is not None else ((), None)
    detail: tuple[Step, ...] = ()
    if cards and dice:
        try:
            analyse_stack(cards, dice, ordered=True)
        except NotAStackError as exc:
            if exc.reason not in reason:
                detail = (Fact(sentence=exc.reason),)
    return Refusal(action=str(action), reason=reason, detail=detail)
