"""Steps: what a move did, as immutable records that printers turn into words.

Each ``Step`` is a frozen dataclass holding the engine's numbers and cards
(never text from a page). Its ``equation`` (if any) is the arithmetic the move
made, with the engine's own result on the right; ``notes`` are sentences in
words; ``children`` are smaller steps (a stack's Kings, one by one). The same
step prints as plain text (``text``, ``spoken``: screen readers, logs, tests),
LaTeX (``latex``: ``ipywidgets.HTMLMath``/MathJax, through sympy) and HTML
(``html``). Only LaTeX needs sympy, imported the first time it is asked for.

>>> from mathcards.cards import parse_card
>>> step = SignedAddition(player=0, card=parse_card("10S"), value=10, before=7,
...                       contribution=-10, after=-3)
>>> step.text, step.record
('10♠ takes away 10: 7 + (−10) = −3', '− 10(−3)')
"""

from __future__ import annotations

import html as _html
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from mathcards.cards import Card
from mathcards.explain.terms import (
    MINUS,
    Equation,
    Half,
    Neg,
    Node,
    Num,
    Product,
    Sum,
    latex_of,
    number_text,
    signed_text,
    text_of,
)
from mathcards.games.base import seat_name
from mathcards.games.sums import CaptureWay
from mathcards.games.suns_to_moons import BOUND, MIN_DECK_FOR_GOAL, within_bound
from mathcards.i18n import _, ngettext


def latex_text(words: str) -> str:
    """Words inside LaTeX, as ``\\text{...}``.

    MathJax shows the inside of ``\\text`` literally; braces and backslashes
    (which would end it early) become look-alike brackets and slashes.
    """
    return r"\text{" + words.translate(_TEXT_SAFE) + "}"


_TEXT_SAFE = str.maketrans({"{": "(", "}": ")", "\\": "/", "$": "\uff04"})


@dataclass(frozen=True, kw_only=True)
class Step:
    """One step of an explanation: an equation and/or sentences, maybe smaller steps."""

    kind: ClassVar[str] = "step"

    @property
    def equation(self) -> Equation | None:
        """The arithmetic of this step, the engine's number on the right (or None)."""
        return None

    @property
    def headline(self) -> str:
        """The step in words when it has no equation."""
        return ""

    @property
    def label(self) -> str:
        """Words before the equation that name what moved ("10♠ takes away 10"), or ""."""
        return ""

    @property
    def notes(self) -> tuple[str, ...]:
        """Sentences that say what the arithmetic means in the game."""
        return ()

    @property
    def children(self) -> tuple[Step, ...]:
        return ()

    # --- printers ----------------------------------------------------------
    @cached_property
    def text(self) -> str:
        """The main line in plain text: the equation (after its label), else the sentence."""
        eq = self.equation
        if eq is None:
            return self.headline
        return f"{self.label}: {text_of(eq)}" if self.label else text_of(eq)

    @cached_property
    def latex(self) -> str:
        """The main line in LaTeX for MathJax (sympy prints the equation)."""
        eq = self.equation
        return latex_of(eq) if eq is not None else latex_text(self.headline)

    @property
    def spoken(self) -> str:
        """Everything in plain words, one line, for a screen reader or a log."""
        parts = [self.text, *self.notes]
        return ". ".join(p.rstrip(".") for p in parts if p) + "."

    @property
    def html(self) -> str:
        """HTML for ``HTMLMath``: the LaTeX between ``\\(...\\)``, then the notes."""
        label = _html.escape(self.spoken, quote=True)
        if self.equation is not None:
            main = f'<span class="mc-math">\\({_html.escape(self.latex, quote=False)}\\)</span>'
            if self.label:
                main = f'<span class="mc-words">{_html.escape(self.label)}:</span> {main}'
        else:
            main = f'<span class="mc-words">{_html.escape(self.headline)}</span>'
        notes = "".join(
            f' <span class="mc-note">{_html.escape(n)}</span>' for n in self.notes
        )
        kids = "".join(c.html for c in self.children)
        kids = f'<div class="mc-substeps">{kids}</div>' if kids else ""
        return (
            f'<div class="mc-step mc-{self.kind}" role="group" aria-label="{label}">'
            f"{main}{notes}{kids}</div>"
        )

    def walk(self) -> Iterator[Step]:
        """This step and every smaller step inside it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, kw_only=True)
class Fact(Step):
    """A plain sentence: who deals, who wins, a dice roll."""

    kind: ClassVar[str] = "fact"
    sentence: str
    player: int | None = None

    @property
    def headline(self) -> str:
        return self.sentence


# --- Suns to Moons ---------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class DeckJump(Step):
    """A move that takes the deck's value from ``before`` to ``after`` (a card or a Joker)."""

    player: int | None
    before: int
    after: int  # the engine's deck value after the move
    goal: int | None = None

    def svg(self) -> str:
        """The jump on a number line (SVG text)."""
        from mathcards.explain.numberline import number_line_svg
        from mathcards.games.suns_to_moons.rules import BOUND

        return number_line_svg(self.before, self.after, goal=self.goal, bound=BOUND,
                               label=self.spoken)


@dataclass(frozen=True, kw_only=True)
class SignedAddition(DeckJump):
    """A card added to the deck with its sign: ``7 + (−10) = −3``."""

    kind: ClassVar[str] = "signed-addition"
    card: Card
    value: int  # the card's value as played (an Ace 1 or 14)
    contribution: int

    @property
    def equation(self) -> Equation:
        return Equation(Sum((Num(self.before), Num(self.contribution, signed=True))), self.after)

    @property
    def record(self) -> str:
        """The rule text's notation for this play: ``− 10(−3)``."""
        op = "+" if self.contribution >= 0 else MINUS
        return f"{op} {abs(self.contribution)}({number_text(self.after)})"

    @property
    def label(self) -> str:
        if self.contribution > 0:
            return _("{card} adds {value}").format(card=self.card.symbol, value=self.value)
        return _("{card} takes away {value}").format(card=self.card.symbol, value=self.value)

    @property
    def notes(self) -> tuple[str, ...]:
        if self.contribution > 0:
            text = _("{card} is played across: it counts {signed}")
        else:
            text = _("{card} is played upright: it counts {signed}")
        out = [text.format(card=self.card.symbol, signed=signed_text(self.contribution))]
        if self.card.rank == 1 and self.card.is_standard:
            out.append(_("the Ace counts {value} here (an Ace is 1 or 14)").format(
                value=self.value))
        return tuple(out)


@dataclass(frozen=True, kw_only=True)
class JokerRemoval(DeckJump):
    """A Joker takes away the last counted card: ``5 − (+13) = −8``."""

    kind: ClassVar[str] = "joker"
    removed_card: Card | None
    removed_contribution: int

    @property
    def equation(self) -> Equation | None:
        if self.removed_card is None:
            return None
        lhs = Sum((Num(self.before), Neg(Num(self.removed_contribution, signed=True))))
        return Equation(lhs, self.after)

    @property
    def headline(self) -> str:
        return _("the Joker has no card left to remove: the deck stays {value}").format(
            value=number_text(self.after))

    @property
    def label(self) -> str:
        if self.removed_card is None:
            return ""
        return _("the Joker covers {card}").format(card=self.removed_card.symbol)

    @property
    def record(self) -> str:
        return f"~JOKER~({number_text(self.after)})"

    @property
    def notes(self) -> tuple[str, ...]:
        if self.removed_card is None:
            return ()
        return (
            _("the Joker takes away {card}'s {signed}, the last card still counted").format(
                card=self.removed_card.symbol, signed=signed_text(self.removed_contribution)),
        )


@dataclass(frozen=True, kw_only=True)
class Chain(Step):
    """A deck's counted cards as one sum, in the order they were played.

    With one card still counted there is no sum to write ("1 = 1" says nothing): the
    step says the deck's value in words.
    """

    kind: ClassVar[str] = "chain"
    terms: tuple[int, ...]  # signed contributions still counted, centre card first
    value: int  # the engine's deck value
    played: str = ""  # the deck card by card in words, Jokers included (``played_words``)
    goal: int | None = None

    @property
    def equation(self) -> Equation | None:
        if len(self.terms) < 2:
            return None
        return Equation(Sum(tuple(Num(t) for t in self.terms)), self.value)

    @property
    def headline(self) -> str:
        v = number_text(self.value)
        if not self.terms:
            return _("no card is still counted: the deck is {value}").format(value=v)
        return _("one card is still counted: the deck is {value}").format(value=v)

    @property
    def sum_text(self) -> str:
        """The sum and its value ("7 − 5 + 1 = 3"), or the value alone when there is no sum
        to add ("1")."""
        eq = self.equation
        return text_of(eq) if eq is not None else number_text(self.value)

    @property
    def notes(self) -> tuple[str, ...]:
        out = []
        if self.played:
            out.append(_("card by card: {played}").format(played=self.played))
        if self.goal is not None:
            out.append(_("the goal is {goal}").format(goal=number_text(self.goal)))
        return tuple(out)


@dataclass(frozen=True, kw_only=True)
class GoalCheck(Step):
    """Is the deck on the goal, with enough cards to count? ("−3 is not the goal 0")."""

    kind: ClassVar[str] = "goal-check"
    value: int
    goal: int
    deck_size: int

    @property
    def reached(self) -> bool:
        return self.value == self.goal

    @property
    def counts(self) -> bool:
        return self.reached and self.deck_size >= MIN_DECK_FOR_GOAL

    @property
    def headline(self) -> str:
        v, g = number_text(self.value), number_text(self.goal)
        if not self.reached:
            return _("{value} is not the goal {goal}").format(value=v, goal=g)
        if self.counts:
            return _("{value} is the goal {goal}, with {n} cards in the deck: a win").format(
                value=v, goal=g, n=self.deck_size)
        return ngettext("{value} is the goal {goal}, but the deck has only {n} card: it needs "
                        "{least} or more to count",
                        "{value} is the goal {goal}, but the deck has only {n} cards: it needs "
                        "{least} or more to count", self.deck_size).format(
            value=v, goal=g, n=self.deck_size, least=MIN_DECK_FOR_GOAL)


@dataclass(frozen=True, kw_only=True)
class BoundCheck(Step):
    """The ±10 rule when it decides: "+9 would make 14; −9 keeps you within ±10"."""

    kind: ClassVar[str] = "bound-check"
    card: Card
    contribution: int
    after: int
    other_after: int | None  # the deck had the card been turned the other way
    bound_applied: bool  # the ±10 rule removed some option this turn

    @property
    def headline(self) -> str:
        c, a = self.contribution, self.after
        if not within_bound(a) and not self.bound_applied:
            return _("no play keeps the deck within ±{bound}, so {signed} making {value} is "
                     "allowed").format(bound=BOUND, signed=signed_text(c), value=number_text(a))
        if self.other_after is not None and not within_bound(self.other_after):
            return _("{other} would make {value}; {signed} keeps you within ±{bound}").format(
                other=signed_text(-c), value=number_text(self.other_after),
                signed=signed_text(c), bound=BOUND)
        return _("{signed} keeps you within ±{bound}").format(signed=signed_text(c), bound=BOUND)


# --- Dice Stacks ---------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class KingStep(Step):
    """One King doubling or halving: ``20 × ½ = 10``."""

    kind: ClassVar[str] = "king"
    before: int
    halves: bool
    after: int

    @property
    def equation(self) -> Equation:
        return Equation(Product((Num(self.before), Half() if self.halves else Num(2))), self.after)

    @property
    def notes(self) -> tuple[str, ...]:
        return (_("a King halves it"),) if self.halves else (_("a King doubles it"),)


@dataclass(frozen=True, kw_only=True)
class StackExpression(Step):
    """A stack as its expression: ``(12 + 8) × ½ × ½ = 5``."""

    kind: ClassVar[str] = "stack"
    cards: tuple[Card, ...]  # in the order printed: numbers first (largest first if subtracting)
    values: tuple[int, ...]  # the number cards' values, in that order
    subtracts: bool
    kings: int
    halves: bool
    target: int  # the engine's target (the dice sum)
    dice: tuple[int, ...] = ()
    points: int = 1
    player: int | None = None

    @property
    def base(self) -> Node:
        if self.subtracts:
            return Sum((Num(self.values[0]), *(Neg(Num(v)) for v in self.values[1:])))
        return Sum(tuple(Num(v) for v in self.values))

    @property
    def expression(self) -> Node:
        if not self.kings:
            return self.base
        factor: Node = Half() if self.halves else Num(2)
        return Product((self.base, *([factor] * self.kings)))

    @property
    def alone(self) -> bool:
        """One card and no King: no sum to write ("8 = 8" says nothing)."""
        return len(self.values) == 1 and not self.kings

    @property
    def equation(self) -> Equation | None:
        return None if self.alone else Equation(self.expression, self.target)

    @property
    def headline(self) -> str:
        if not self.alone:
            return ""
        return _("{card} makes {target} on its own").format(card=self.cards[0].symbol,
                                                            target=self.target)

    @property
    def base_value(self) -> int:
        if self.subtracts:
            return self.values[0] - sum(self.values[1:])
        return sum(self.values)

    @property
    def children(self) -> tuple[Step, ...]:
        steps = []
        value = self.base_value
        for _k in range(self.kings):
            after = value // 2 if self.halves else value * 2
            steps.append(KingStep(before=value, halves=self.halves, after=after))
            value = after
        return tuple(steps)

    @property
    def notes(self) -> tuple[str, ...]:
        out = []
        if self.points == 2 and len(self.dice) == 2:
            a, b = (str(v) for v in self.values)
            out.append(_("{a} and {b} match both dice: 2 points").format(a=a, b=b))
        elif self.points:
            out.append(_("a stack of {target}: 1 point").format(target=self.target))
        if self.kings:
            if self.kings == 1:
                text = (_("the King halves last, after the other cards") if self.halves
                        else _("the King doubles last, after the other cards"))
            elif self.halves:  # two Kings or more
                text = ngettext("{n} King halves last, after the other cards",
                                "{n} Kings halve last, after the other cards", self.kings)
            else:
                text = ngettext("{n} King doubles last, after the other cards",
                                "{n} Kings double last, after the other cards", self.kings)
            out.append(text.format(n=self.kings))
        return tuple(out)


# --- Sums -------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CaptureStep(Step):
    """A capture written the way a student computes it: ``7 + 5 = 12 = Q♦``, ``5 − 2 = 3 = 3♣``.

    A difference puts the larger card first, so it never goes below zero; the
    captured card is named at the end. ``stage`` is ``"threat"`` (waiting for
    the owner's answer), ``"capture"`` (the card is taken) or ``"counter"``
    (the owner answers with ``played``). ``result`` is the engine's number
    (``CaptureWay.result``: the captured card's value).
    """

    kind: ClassVar[str] = "capture"
    player: int | None
    played: Card
    helper: Card
    op: str  # "+" or "-"
    target: Card
    target_owner: int | None
    stage: str = "capture"
    names: tuple[str, ...] = ()  # the seats' names at the table (else "Player N")
    result: int | None = None  # the engine's value of the way (None: the target's value)
    you: int | None = None  # the seat spoken to ("you capture their 7♥"), its opponents "they"

    @property
    def way(self) -> CaptureWay:
        """The engine's capture way this step prints."""
        result = self.target.rank if self.result is None else self.result
        return CaptureWay(self.target, self.helper, self.op, result, self.played)

    @property
    def value(self) -> int:
        """What ``played op helper`` makes in play order (the engine's: −6 for 3 − 9)."""
        return self.way.value

    @property
    def terms(self) -> tuple[Card, Card]:
        """The two cards in the order written: the larger first when subtracting."""
        if self.op == "-" and self.helper.rank > self.played.rank:
            return self.helper, self.played
        return self.played, self.helper

    @property
    def equation(self) -> Equation:
        first, second = (Num(c.rank) for c in self.terms)
        lhs = Sum((first, second)) if self.op == "+" else Sum((first, Neg(second)))
        return Equation(lhs, self.way.result, (self.target.symbol,))

    def _whose(self, seat: int | None, card: Card) -> str:
        """A seat's card: "Ana's 7♥", "your 7♥", "their 7♥" (one phrase per language)."""
        if self.you is None:
            return _("{owner}'s {card}").format(owner=seat_name(self.names, seat),
                                                card=card.symbol)
        if seat == self.you:
            return _("your {card}").format(card=card.symbol)
        return _("their {card}").format(card=card.symbol)

    @property
    def notes(self) -> tuple[str, ...]:
        out = []
        cards = {"played": self.played.symbol, "helper": self.helper.symbol,
                 "target": self._whose(self.target_owner, self.target)}
        if self.you is None:
            who = seat_name(self.names, self.player)
            counter = _("{who} counters with {played} and {helper}: {target} is threatened "
                        "instead")
            capture = _("{who} captures {target} with {played} and {helper}")
        elif self.player == self.you:
            who = ""
            counter = _("you counter with {played} and {helper}: {target} is threatened "
                        "instead")
            capture = _("you capture {target} with {played} and {helper}")
        else:
            who = ""
            counter = _("they counter with {played} and {helper}: {target} is threatened "
                        "instead")
            capture = _("they capture {target} with {played} and {helper}")
        if self.stage == "counter":
            out.append(counter.format(who=who, **cards))
        elif self.stage == "threat":
            out.append(_("{played} with {helper} threatens {target}").format(
                **{**cards, "played": self._whose(self.player, self.played)}))
        else:
            out.append(capture.format(who=who, **cards))
        if self.op == "-":
            big, small = self.terms
            out.append(_("{big} and {small} are {result} apart").format(
                big=big.rank, small=small.rank, result=self.way.result))
        if self.target.rank == 1:
            out.append(_("an Ace can be captured only with a Queen, and {card} is one").format(
                card=self.played.symbol))
        elif self.target.rank == 13:
            out.append(_("a King can be captured only with a 2, and {card} is one").format(
                card=self.played.symbol))
        return tuple(out)


# --- refusals and hints -----------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Refusal(Step):
    """Why the rules refuse a move, with the arithmetic that shows it."""

    kind: ClassVar[str] = "refusal"
    action: str
    reason: str
    detail: tuple[Step, ...] = ()

    @property
    def headline(self) -> str:
        return f"{self.action} is not allowed: {self.reason}"

    @property
    def children(self) -> tuple[Step, ...]:
        return self.detail


@dataclass(frozen=True, kw_only=True)
class WhatIf(Step):
    """Arithmetic of a move that was not made (inside a refusal or a hint)."""

    kind: ClassVar[str] = "what-if"
    lhs: Node
    value: int
    comment: str = ""

    @property
    def equation(self) -> Equation:
        return Equation(self.lhs, self.value)

    @property
    def notes(self) -> tuple[str, ...]:
        return (self.comment,) if self.comment else ()


HINT_LEVELS = ("nudge", "card", "step")


@dataclass(frozen=True, kw_only=True)
class Hint(Step):
    """A hint at one of three levels: a nudge, which card, or the full step."""

    kind: ClassVar[str] = "hint"
    level: int  # 1 nudge, 2 which card, 3 the full step
    sentence: str
    shown: tuple[Step, ...] = ()  # the step(s) shown at level 3

    @property
    def headline(self) -> str:
        return self.sentence

    @property
    def children(self) -> tuple[Step, ...]:
        return self.shown

    @property
    def spoken(self) -> str:
        parts = [self.sentence, *(c.spoken for c in self.shown)]
        return ". ".join(p.rstrip(".") for p in parts if p) + "."


__all__ = [
    "HINT_LEVELS", "BoundCheck", "CaptureStep", "Chain", "Fact", "GoalCheck", "Hint",
    "JokerRemoval", "KingStep", "Refusal", "SignedAddition", "StackExpression", "Step",
    "WhatIf", "latex_text",
]
