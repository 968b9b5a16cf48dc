"""Dice Stacks explained: each stack as its expression, and why some cards are not a stack.

The arithmetic is the engine's: ``mathcards.games.dice_stacks.rule`` works out
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

from mathcards.cards import Card, parse_cards
from mathcards.errors import MathCardsError
from mathcards.explain.errors import ExplainError, NotAStackError
from mathcards.explain.steps import Fact, Hint, Refusal, StackExpression, Step
from mathcards.games.base import seat_name
from mathcards.games.dice_stacks.rule import StackShape, check_dice, not_a_stack, shape_of
from mathcards.i18n import _, and_list, ngettext


def _dice(dice: Sequence[int]) -> tuple[int, int]:
    try:
        return check_dice(dice)
    except MathCardsError:
        raise ExplainError(
            f"dice must be two whole numbers from 1 to 6, not {dice!r}"
        ) from None


def step_of(shape: StackShape, dice: tuple[int, int], player: int | None = None) -> StackExpression:
    """The step of a stack's shape (the engine's derivation)."""
    return StackExpression(
        cards=(*shape.cards, *shape.kings), values=shape.values, subtracts=shape.subtracts,
        kings=len(shape.kings), halves=shape.halves, target=shape.value, dice=dice,
        points=shape.points, player=player,
    )


def stack_steps(
    cards: Iterable[Card | str] | str, dice: Sequence[int], *, ordered: bool = False
) -> StackExpression:
    """The explanation of a stack: ``.text``, ``.latex``, ``.html``, its King steps.

    Raises ``NotAStackError`` (a ``ValueError``) with the reason in its message
    when the cards are not a stack for these dice: the rule's one wording
    (``not_a_stack``). ``ordered=True`` reads the cards as a proposal in the
    order given, so a King placed before a number card is refused ("the King
    must come last").
    """
    cards = parse_cards(cards)
    rolled = _dice(dice)
    reason = not_a_stack(cards, rolled, ordered=ordered)
    if reason is not None:
        shown = " ".join(c.symbol for c in cards)
        raise NotAStackError(f"{shown} is not a stack of {sum(rolled)}: {reason}", reason)
    shape = shape_of(cards, rolled)
    assert shape is not None  # not_a_stack found these cards a stack
    return step_of(shape, rolled)


__all__ = ["stack_steps"]


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
            fewest, most = ev.draws  # the engine's counts: the dice, capped by the stock
            short = most != max(ev.dice)  # the stock holds fewer than the larger die
            if fewest != most and short:
                text = _("{who} rolls {a} and {b}: stacks of {a} + {b} = {total}; draw {fewest} "
                         "or {most} cards, all the stock has")
            elif fewest != most:
                text = _("{who} rolls {a} and {b}: stacks of {a} + {b} = {total}; draw {fewest} "
                         "or {most} cards")
            elif short:
                text = ngettext("{who} rolls {a} and {b}: stacks of {a} + {b} = {total}; draw "
                                "{most} card, all the stock has",
                                "{who} rolls {a} and {b}: stacks of {a} + {b} = {total}; draw "
                                "{most} cards, all the stock has", most)
            else:
                text = ngettext("{who} rolls {a} and {b}: stacks of {a} + {b} = {total}; draw "
                                "{most} card",
                                "{who} rolls {a} and {b}: stacks of {a} + {b} = {total}; draw "
                                "{most} cards", most)
            out.append(Fact(player=ev.player, sentence=text.format(
                who=seat_name(names, ev.player), a=d1, b=d2, total=d1 + d2, fewest=fewest,
                most=most)))
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


def stacks_words(stacks: Sequence[Sequence[Card]], target: int, points: int, *,
                 one: bool = False) -> str:
    """How many stacks a hand makes, in the page's language: "these cards make 2 stacks
    of 8 (3 points)"; with ``one``, the first of them too ("...; here is one: 3♥ and
    5♣"). The table's hint and the exercise's say it alike."""
    count = len(stacks)
    made = (ngettext("these cards make {n} stack of {target}",
                     "these cards make {n} stacks of {target}", count) if points == count else
            ngettext("these cards make {n} stack of {target} ({points} points)",
                     "these cards make {n} stacks of {target} ({points} points)", count)
            ).format(n=count, target=target, points=points)
    if not one:
        return made
    return _("{made}; here is one: {cards}").format(
        made=made, cards=and_list(c.symbol for c in stacks[0]))


def hint(state: Any, level: int = 1) -> Hint:
    """A hint for the player to act: 1 how many stacks, 2 which cards, 3 one full stack."""
    from mathcards.games import dice_stacks as engine

    player = state.current_player
    if player is None:
        return Hint(level=level, sentence=_("the game is over"))
    hand, dice = state.hands[player], state.dice
    if not dice:
        return Hint(level=level, sentence=_("roll the dice first"))
    target = sum(dice)
    stacks = engine.best_stacks(hand, dice)
    if not stacks:
        return Hint(level=level, sentence=_("these cards make no stack of {target} yet").format(
            target=target))
    points = sum(engine.stack_points(s, dice) for s in stacks)
    if level <= 1:
        return Hint(level=1, sentence=stacks_words(stacks, target, points))
    first = stacks[0]
    sentence = stacks_words(stacks, target, points, one=True)
    step = _laid(state, engine.LayStack(first)) if level >= 3 else None
    if step is None:
        return Hint(level=2, sentence=sentence)
    return Hint(level=3, sentence=sentence, shown=(step,))


def why_not(state: Any, action: Any, reason: str) -> Refusal:
    """A refused stack, with why its cards are not a stack when the reason does not say."""
    cards = getattr(action, "cards", None)
    dice = state.dice if state.current_player is not None else None
    problem = not_a_stack(cards, dice) if cards and dice else None
    detail = (Fact(sentence=problem),) if problem and problem not in reason else ()
    return Refusal(action=str(action), reason=reason, detail=detail)
