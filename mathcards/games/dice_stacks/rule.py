"""The Dice Stacks stack rule, in one place: what makes a stack, how, and its points.

A stack for the target T (the sum of the two dice) is one or more non-King
cards combined by adding them all, or (two or more) by taking the largest
minus all the others, then any number of Kings that all double or all halve
(every halving must leave a whole number). A two-card stack whose values are
exactly the two dice is special and scores 2 points.

The engine judges and scores stacks here, the solver searches with
``counts_points`` and ``king_bases``, and the explainer prints the
``StackShape`` (a stack's operations in order); ``not_a_stack`` says why
cards are not a stack, in the one wording the engine's refusals and the
explainer's ``NotAStackError`` both use. Nothing else does the arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import product

from mathcards.cards import Card
from mathcards.games.base import number
from mathcards.i18n import _

KING = 13
MINUS = "−"


class KingOp(str, Enum):
    """What the Kings of a stack do (all the same)."""

    DOUBLE = "double"
    HALVE = "halve"


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Two whole numbers 1-6, or a clear error."""
    from mathcards.errors import MathCardsError

    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise MathCardsError(f"dice must be two numbers 1-6 like (3, 5), not {dice!r}") from None
    for d in (d1, d2):
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise MathCardsError(f"a die shows 1-6, not {d!r}: give dice like (3, 5)")
    return d1, d2


@lru_cache(maxsize=4096)
def king_bases(target: int, kings: int) -> dict[int, int]:
    """The values the non-King cards may make, each with the Kings it needs.

    With k Kings halving, the cards must make ``target * 2**k``; with k Kings
    doubling they must make ``target / 2**k`` (a whole number). No value needs
    two different numbers of Kings.
    """
    bases = {target: 0}
    for k in range(1, kings + 1):
        bases[target << k] = k
        if target % (1 << k) == 0:
            bases[target >> k] = k
    return bases


def king_op(base: int, kings: int, target: int) -> KingOp | None:
    """How ``kings`` Kings take ``base`` to ``target``: double, halve, or None (no
    Kings, or they cannot)."""
    if base <= 0 or kings == 0:
        return None
    if base == target << kings:
        return KingOp.HALVE
    if base << kings == target:
        return KingOp.DOUBLE
    return None


def _hits(base: int, kings: int, target: int) -> bool:
    if base <= 0:
        return False
    if base == target << kings:  # halving k times (k = 0: the value itself)
        return True
    return kings > 0 and base << kings == target


def is_stack_value(total: int, top: int, n: int, kings: int, target: int) -> bool:
    """Whether n non-King cards adding to ``total`` (largest ``top``) and ``kings``
    Kings make ``target`` by adding or by subtracting."""
    if _hits(total, kings, target):
        return True
    return n >= 2 and _hits(2 * top - total, kings, target)


def counts(cards: Iterable[Card]) -> list[int]:
    """Rank counts: ``counts[r - 1]`` cards of rank r (13 = King)."""
    out = [0] * 13
    for card in cards:
        out[card.rank - 1] += 1
    return out


def counts_make(counts: Sequence[int], target: int) -> bool:
    """Whether cards with these rank counts make ``target`` (by adding or subtracting,
    then their Kings); Kings alone make nothing."""
    total = n = top = 0
    for i in range(12):
        c = counts[i]
        if c:
            total += c * (i + 1)
            n += c
            top = i + 1
    return n > 0 and is_stack_value(total, top, n, counts[12], target)


def counts_points(counts: Sequence[int], dice: tuple[int, int]) -> int:
    """Points of the cards with these rank counts: 0, 1, or 2 (special)."""
    d1, d2 = dice
    if counts[12] == 0 and counts[d1 - 1] and counts[d2 - 1] and sum(counts) == 2 and (
        d1 != d2 or counts[d1 - 1] == 2
    ):
        return 2
    return 1 if counts_make(counts, d1 + d2) else 0


# --- a stack's shape: its operations in order ----------------------------------
@dataclass(frozen=True)
class StackShape:
    """How a stack makes its target, in the order it is printed.

    ``op`` is ``"+"`` (adding; a lone card too) or ``"−"`` (the first card
    minus the others); ``cards`` are the non-King cards in print order (sums
    in the order given, subtraction largest first, the others as given);
    ``kings`` the Kings and ``king_op`` ``"double"``, ``"halve"`` or None.
    """

    op: str
    cards: tuple[Card, ...]
    kings: tuple[Card, ...]
    king_op: KingOp | None
    base: int
    value: int
    points: int

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(c.rank for c in self.cards)

    @property
    def subtracts(self) -> bool:
        return self.op == MINUS

    @property
    def halves(self) -> bool:
        return self.king_op is KingOp.HALVE

    def expression(self) -> str:
        """``(12 + 8) × ½ × ½ = 5``, ``10 − 1 − 1 = 8``, ``6 × 2 = 12``; a lone card
        ``8 on its own`` (never ``8 = 8``)."""
        if len(self.cards) == 1 and not self.kings:
            return _("{value} on its own").format(value=self.value)
        join = " + " if self.op == "+" else f" {MINUS} "
        text = join.join(str(v) for v in self.values)
        if self.kings:
            if len(self.cards) > 1:
                text = f"({text})"
            factor = " × 2" if self.king_op is KingOp.DOUBLE else " × ½"
            text += factor * len(self.kings)
        return f"{text} = {self.value}"

    def __str__(self) -> str:
        return self.expression()


def shape_of(cards: Sequence[Card], dice: tuple[int, int]) -> StackShape | None:
    """How standard ``cards`` make the dice's sum (adding first), or None."""
    points = counts_points(counts(cards), dice)
    if not points:
        return None
    target = dice[0] + dice[1]
    plain = tuple(c for c in cards if c.rank != KING)
    kings = tuple(c for c in cards if c.rank == KING)
    k = len(kings)
    total = sum(c.rank for c in plain)
    if _hits(total, k, target):
        return StackShape("+", plain, kings, king_op(total, k, target), total, target, points)
    top = max(plain, key=lambda c: c.rank)
    rest = list(plain)
    rest.remove(top)
    base = top.rank - sum(c.rank for c in rest)
    return StackShape(MINUS, (top, *rest), kings, king_op(base, k, target), base, target, points)


def value_by(cards: Sequence[Card], op: str, kings_op: KingOp | None) -> int | None:
    """What ``cards`` make the way a student says they made them: ``op`` ``"+"`` (adding
    every card but the Kings) or ``"−"`` (the largest minus the others), then each King
    doubling or halving (``kings_op``); None when that way makes nothing (no card but
    Kings, Kings without a way, a halving that leaves a half).

    >>> from mathcards.cards import parse_cards
    >>> value_by(parse_cards("7H 3S"), "−", None), value_by(parse_cards("8H 4S KC"), "+",
    ...                                                      KingOp.HALVE)
    (4, 6)
    """
    plain = [c.rank for c in cards if c.rank != KING]
    kings = len(cards) - len(plain)
    if not plain or (kings and kings_op is None):
        return None
    value = sum(plain) if op == "+" or len(plain) == 1 else 2 * max(plain) - sum(plain)
    for _k in range(kings):
        if kings_op is KingOp.DOUBLE:
            value *= 2
        elif value % 2:
            return None
        else:
            value //= 2
    return value


# --- why cards are not a stack -----------------------------------------------------
def halvings(base: int, kings: int) -> tuple[int | None, int | None, int]:
    """Halve ``base`` ``kings`` times: (the value, or None; the odd number that could
    not be halved, or None; the whole halvings done)."""
    value = base
    for step in range(kings):
        if value % 2:
            return None, value, step
        value //= 2
    return value, None, kings


@dataclass(frozen=True)
class Attempt:
    """One way of combining the number cards: adding, or the largest minus the rest."""

    subtracts: bool
    values: tuple[int, ...]  # in print order
    base: int


@dataclass(frozen=True)
class NotAStack:
    """Why number cards (``values``) and ``kings`` Kings do not make ``target``.

    ``mixed``: signs (plus, minus) mixing adding and subtracting that would
    make it; ``kings_split``: (doubling, halving) Kings that would make it;
    ``attempts``: what adding and subtracting make.
    """

    values: tuple[int, ...]
    kings: int
    target: int
    mixed: tuple[tuple[int, ...], tuple[int, ...]] | None
    kings_split: tuple[int, int] | None
    attempts: tuple[Attempt, ...]


MAX_MIXED_SEARCH = 12  # number cards; 2**12 sign patterns is still instant


def _results(base: int, kings: int) -> set[int]:
    out = {base << kings if base > 0 else base * 2**kings}
    halved, _odd, _step = halvings(base, kings)
    if halved is not None:
        out.add(halved)
    return out


def why_not(values: Sequence[int], kings: int, target: int) -> NotAStack:
    """The analysis of number cards that (with ``kings`` Kings) are not a stack.

    ``values`` in the order given: the subtraction takes the largest first
    and the others as given.
    """
    vals = tuple(values)
    mixed = None
    if 3 <= len(vals) <= MAX_MIXED_SEARCH:
        for signs in product((1, -1), repeat=len(vals)):
            if signs.count(1) < 2 or signs.count(-1) < 1:
                continue  # one plus and the rest minus is plain subtraction
            plus = tuple(v for v, s in zip(vals, signs, strict=True) if s > 0)
            minus = tuple(v for v, s in zip(vals, signs, strict=True) if s < 0)
            if target in _results(sum(plus) - sum(minus), kings):
                mixed = (plus, minus)
                break
    attempts = [Attempt(False, vals, sum(vals))]
    if len(vals) >= 2:
        rest = list(vals)
        rest.remove(max(vals))
        order = (max(vals), *rest)
        attempts.append(Attempt(True, order, order[0] - sum(order[1:])))
    split = None
    if kings >= 2:
        for attempt in attempts:
            for doubles in range(1, kings):
                halved, _odd, _step = halvings(attempt.base << doubles, kings - doubles)
                if attempt.base > 0 and halved == target:
                    split = (doubles, kings - doubles)
                    break
            if split:
                break
    return NotAStack(vals, kings, target, mixed, split, tuple(attempts))


def _halving_words(base: int, kings: int) -> str:
    """``20 ÷ 2 ÷ 2 = 5``, or where halving stops being whole: ``11 ÷ 2 is not a whole number``."""
    value, odd, step = halvings(base, kings)
    if odd is not None:
        if step:
            return _("{halved} = {odd} and {odd} ÷ 2 is not a whole number").format(
                halved=f"{base}{' ÷ 2' * step}", odd=odd)
        return _("{odd} ÷ 2 is not a whole number").format(odd=odd)
    return f"{base}{' ÷ 2' * kings} = {value}"


def not_a_stack(
    cards: Sequence[Card], dice: tuple[int, int], *, ordered: bool = False
) -> str | None:
    """Why ``cards`` are not a stack for ``dice``, in words; None when they are one.

    The one wording of "why these cards are not a stack": the engine refuses a
    ``LayStack`` with it and the explainer's ``NotAStackError`` carries it. The
    cards are read in the order given (the engine gives stack order);
    ``ordered=True`` also refuses a King placed before a number card.

    >>> from mathcards.cards import parse_cards
    >>> not_a_stack(parse_cards("10S 5H 4D"), (5, 6))
    '10 + 5 − 4 mixes adding and subtracting: a stack only adds or only subtracts'
    >>> not_a_stack(parse_cards("6H 2S"), (4, 5))
    '6 + 2 = 8 and 6 − 2 = 4, not 9'
    """
    target = dice[0] + dice[1]
    if not cards:
        return _("a stack needs at least one card")
    for card in cards:
        if not card.is_standard:
            return _("{card} is not a Dice Stacks card (the game uses A-Q and Kings, "
                     "no Jokers)").format(card=card.symbol)
    values = [c.rank for c in cards if c.rank != KING]
    k = len(cards) - len(values)
    if not values:
        return _("Kings alone are not a stack: Kings double or halve other cards")
    if ordered and any(c.rank != KING for c in cards[len(values):]):
        return _("the King must come last: Kings double or halve only after all the other "
                 "cards are added or subtracted")
    if counts_points(counts(cards), dice):
        return None
    why = why_not(values, k, target)
    if why.kings_split:
        doubles, halves = why.kings_split
        return _("Kings in one stack must all double or all halve: {doubles} doubling and "
                 "{halves} halving would make {target}").format(doubles=doubles, halves=halves,
                                                                target=target)
    if why.mixed:
        plus, minus = why.mixed
        text = " + ".join(map(str, plus)) + "".join(f" {MINUS} {v}" for v in minus)
        text = f"({text})" if k else text
        return _("{sum} mixes adding and subtracting: a stack only adds or only "
                 "subtracts").format(sum=text)
    exprs = [((f" {MINUS} " if a.subtracts else " + ").join(map(str, a.values)), a.base)
             for a in why.attempts]
    if k == 0:
        if len(values) == 1:
            return _("a lone {value} makes {value}, not {target}").format(value=values[0],
                                                                          target=target)
        # a list of sums joined by "and" (pieces of arithmetic), then one sentence
        tried = _(" and ").join(f"{expr} = {number(base)}" for expr, base in exprs)
        return _("{tried}, not {target}").format(tried=tried, target=target)
    parts = []
    for expr, base in exprs:
        if base <= 0:
            parts.append(_("{sum} = {base} leaves nothing to double or halve").format(
                sum=expr, base=number(base)))
            continue
        start = f"{expr} = {base}, " if len(values) > 1 else ""
        parts.append(f"{start}{base}{' × 2' * k} = {base << k}, {_halving_words(base, k)}")
    return _("{tried}: none makes {target}").format(tried="; ".join(parts), target=target)
