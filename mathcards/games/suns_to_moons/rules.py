"""Suns to Moons rules on numbers: the ±10 bound, the Joker, counting a deck, card values.

Each rule is computed here only; the engine, the explainer, the exercises, the
table's deck drawing and the lessons ask it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from mathcards.cards import Card

BOUND = 10
MIN_DECK_FOR_GOAL = 3
HAND_SIZE = 5
JOKER = Card("JK", 0)

_T = TypeVar("_T")


# --- the rules every other module asks ------------------------------------
def within_bound(value: int) -> bool:
    """Whether a deck value is within the ±10 bound of ruling 3.

    >>> within_bound(-10), within_bound(11)
    (True, False)
    """
    return -BOUND <= value <= BOUND


def after_joker(counted: tuple[_T, ...]) -> tuple[_T, ...]:
    """What stays counted after a Joker (ruling 4): all but the most recent counted card.

    The one implementation of the Joker rule; with nothing counted (a Joker as
    centre card, or every card already removed) it removes nothing.

    >>> after_joker((5, 13)), after_joker(())
    ((5,), ())
    """
    return counted[:-1]


@dataclass(frozen=True)
class DeckCount:
    """A deck replayed card by card: what is still counted and the value after each card."""

    counted: tuple[int, ...]  # the signed values still counted, centre card first
    places: tuple[int, ...]  # the deck places (0 = centre card) of the counted cards
    running: tuple[int, ...]  # the deck value after each card

    @property
    def value(self) -> int:
        return sum(self.counted)

    def removed(self, place: int, terms: Sequence[int | None]) -> bool:
        """Whether the card at ``place`` was removed by a Joker (Jokers are never removed)."""
        return terms[place] is not None and place not in self.places


def count_deck(terms: Iterable[int | None]) -> DeckCount:
    """Replay a deck: each term is a card's signed value (the centre card's is +its value)
    and None is a Joker.

    The rule text's third example, by its own rule (ruling 5):

    >>> count_deck([5, 13, None, -9]).running
    (5, 18, 5, -4)
    """
    counted: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    running: list[int] = []
    for place, term in enumerate(terms):
        if term is None:
            counted, places = after_joker(counted), after_joker(places)
        else:
            counted, places = (*counted, term), (*places, place)
        running.append(sum(counted))
    return DeckCount(counted, places, tuple(running))


def deck_terms(plays: Iterable[Any]) -> list[int | None]:
    """The terms of ``count_deck`` for plays (anything with ``card``, ``sign``, ``value``)."""
    return [None if p.card.suit == "JK" else p.sign * p.value for p in plays]


def card_values(card: Card) -> tuple[int, ...]:
    """The values a card may count: an Ace 1 or 14, J 11, Q 12, K 13, others their number."""
    if card.suit == "JK":
        return ()
    if card.rank == 1:
        return (1, 14)
    return (card.rank,)


def signed(n: int) -> str:
    """A signed contribution: ``+7``, ``−7``."""
    return f"−{-n}" if n < 0 else f"+{n}"


def lies_across(sign: int) -> bool:
    """Whether a card of this sign lies across the deck (ruling 2).

    The centre card and every added card lie across; a subtracted card stands
    upright. Every picture of a deck (table, lesson, practice page) asks here.
    """
    return sign > 0
