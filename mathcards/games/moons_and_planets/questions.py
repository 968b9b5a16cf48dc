"""The questions a Moons and Planets table asks: what a planet totals; a moon the engine checks.

At "I count" the student builds a planet or a moon from cards they pick (the table lists
none of them): putting down a planet of two or more cards asks what its cards total, J,
Q and K counting 10 (skill ``planet_sum``), before it is laid; a moon (cards of one rank,
a run of one colour, an Ace alone) asks no number: the engine checks it, and a moon laid
is a right answer of the skill ``moon_set`` (``accepted_move``), a selection the engine
refuses as a moon a wrong one (``refused_move``). A planet the engine refuses for its
total is a wrong ``planet_sum`` answer. Following the others, another player's planet asks
the same question.

Every expected number is the engine's: the sum of ``planet_points`` of the planet's cards
(the rule's own count); the explainer's step prints the same sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathcards.asking import Question
from mathcards.asking.registry import NUDGE, NUDGES, read_number
from mathcards.cards import Card, cards_shown
from mathcards.explain.steps import WhatIf
from mathcards.explain.terms import Num, Sum
from mathcards.games.base import seat_name
from mathcards.games.moons_and_planets import (
    AddToMoon,
    DeclarePlanet,
    MakeMoon,
    PlanetDeclared,
)
from mathcards.games.moons_and_planets.rules import (
    PLANET_HIGH,
    PLANET_LOW,
    moon_problem,
    planet_points,
    planet_problem,
)
from mathcards.i18n import _

GAME = "moons_and_planets"


@dataclass(frozen=True)
class PlanetQuestion(Question):
    """A planet's total (or a moon's check), with the cards it is about."""

    group: tuple[Card, ...] = ()


def _planet_question(cards: tuple[Card, ...], seat: int, follow: bool) -> Question | None:
    if len(cards) < 2:  # the 5♣ alone: a planet by the rule, nothing to add
        return None
    shown = cards_shown(cards)
    if follow:
        prompt = _("{who} puts down the planet {cards}: what do its cards total? (J, Q, K "
                   "count 10)").format(who=seat_name((), seat), cards=shown)
    else:
        prompt = _("You put down the planet {cards}: what do its cards total? (J, Q, K count "
                   "10)").format(cards=shown)
    points = tuple(planet_points(c) for c in cards)
    return PlanetQuestion(game=GAME, skill="planet_sum", prompt=prompt, numbers=points,
                          expected=sum(points), seat=seat, follow=follow,
                          cards=tuple(str(c) for c in cards), group=cards)


def _moon_question(cards: tuple[Card, ...], seat: int, why: str) -> Question:
    return PlanetQuestion(game=GAME, skill="moon_set", kind="cards",
                          prompt=_("Is {cards} a moon?").format(cards=cards_shown(cards)),
                          numbers=tuple(c.rank for c in cards),
                          expected=f"not a moon: {why}" if why else "a moon", seat=seat,
                          cards=tuple(str(c) for c in cards), group=cards)


def _moon_cards(state: Any, action: Any, seat: int) -> tuple[Card, ...] | None:
    """The cards of the moon ``action`` would make (a new moon, or a moon with cards
    added), else None."""
    if isinstance(action, MakeMoon):
        return tuple(action.cards)
    if isinstance(action, AddToMoon):
        moons = state.moons[seat]
        if isinstance(action.moon, int) and not isinstance(action.moon, bool) \
                and 0 <= action.moon < len(moons):
            return (*moons[action.moon], *action.cards)
    return None


def before_move(state: Any, action: Any, seat: int) -> Question | None:
    """Putting down a planet of two or more cards: what do its cards total? (asked
    before it is laid; None for every other move)."""
    if not isinstance(action, DeclarePlanet) or not state.is_legal(action):
        return None
    return _planet_question(tuple(action.cards), seat, False)


def accepted_move(state: Any, action: Any, seat: int) -> Question | None:
    """A moon the student built and the engine accepts: a right ``moon_set`` answer
    (recorded, nothing asked)."""
    cards = _moon_cards(state, action, seat)
    if cards is None or not state.is_legal(action):
        return None
    return _moon_question(cards, seat, "")


def refused_move(state: Any, action: Any, seat: int) -> Question | None:
    """A selection the engine refuses as a moon (``moon_set``) or as a planet for its
    total (``planet_sum``): a wrong answer. A move refused for another rule (no planet
    yet, a card not held) is not one."""
    if not state.planets[seat] and isinstance(action, DeclarePlanet):
        cards = tuple(action.cards)
        if planet_problem(cards) is None or len(cards) < 2:
            return None
        same_suit = len({c.suit for c in cards}) == 1 and all(c.rank != 1 for c in cards)
        total = sum(planet_points(c) for c in cards)
        if same_suit and not PLANET_LOW <= total <= PLANET_HIGH:
            return _planet_question(cards, seat, False)
        return None
    if not state.planets[seat]:
        return None
    moon = _moon_cards(state, action, seat)
    if moon is None or any(c not in state.hands[seat] for c in getattr(action, "cards", ())):
        return None
    problem = moon_problem(moon)
    return _moon_question(moon, seat, problem) if problem else None


def rule_words(state: Any, action: Any, reason: str) -> str:
    """A refused planet in words at "I count": the rule, not what its cards total."""
    if (isinstance(action, DeclarePlanet) and state.current_player is not None
            and refused_move(state, action, state.current_player) is not None):
        return _("{cards} is not a planet: a planet's cards are one suit and total {low} to "
                 "{high} (J, Q, K count 10)").format(cards=cards_shown(tuple(action.cards)),
                                                     low=PLANET_LOW, high=PLANET_HIGH)
    return reason


def after_move(before: Any, after: Any, seat: int, *, follow: bool) -> Question | None:
    """Following the others: another player's planet, what do its cards total?"""
    if not follow:
        return None
    for event in after.new_events:
        if isinstance(event, PlanetDeclared) and event.player not in (seat, None):
            return _planet_question(tuple(event.cards), int(event.player), True)
    return None


def read_answer(question: Question, text: str) -> int:
    """The student's number (typed or on the number pad)."""
    return read_number(text)


def check(question: Question, given: int | str) -> bool:
    return isinstance(given, int) and not isinstance(given, bool) and given == question.expected


def nudge(question: Question, given: int | str, slip: str) -> str:
    """A first wrong answer's words, by its slip: a face card's value is 10 in a planet
    (the table's words for that slip name J 11, Q 12, K 13, the other games' values)."""
    if slip == "face_value":
        return _("Not quite: in a planet J, Q and K each count 10. Add the cards again.")
    return _(NUDGES.get(slip, NUDGE))


def slip(question: Question, given: int | str) -> str | None:
    """A moon refused: the moon's rule (no number to classify); else the classifier's."""
    return "other" if question.skill == "moon_set" else None


def explain(question: Question, before: Any = None, after: Any = None) -> list[Any]:
    """The explainer's step: the planet's cards as a sum (J, Q, K as 10)."""
    assert isinstance(question, PlanetQuestion)
    total = int(question.expected)
    inside = PLANET_LOW <= total <= PLANET_HIGH
    comment = (_("J, Q, K count 10; a planet totals {low} to {high}") if inside else
               _("J, Q, K count 10; a planet totals {low} to {high}: {total} is not")).format(
        low=PLANET_LOW, high=PLANET_HIGH, total=total)
    return [WhatIf(lhs=Sum(tuple(Num(n) for n in question.numbers)), value=total,
                   comment=comment)]


__all__ = ["PlanetQuestion", "accepted_move", "after_move", "before_move", "check",
           "explain", "nudge", "read_answer", "refused_move", "rule_words", "slip"]
