"""Sums moves, each with a stable save name in the game (``Sums.actions``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathcards.cards import Card, as_card
from mathcards.games.base import seat_name


# --- actions ------------------------------------------------------------------
def _card_field(obj: Any, name: str) -> None:
    value = getattr(obj, name)
    if not isinstance(value, Card):
        object.__setattr__(obj, name, as_card(value))


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of a community pile (``pile`` counts from 0)."""

    pile: int

    def __str__(self) -> str:
        return f"draw from pile {self.pile + 1}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from your hand face up on your side."""

    card: Card

    def __post_init__(self) -> None:
        _card_field(self, "card")

    def __str__(self) -> str:
        return f"play {self.card.symbol}"


@dataclass(frozen=True, slots=True)
class Capture:
    """Choose which card your play captures when several qualify."""

    target: Card
    owner: int

    def __post_init__(self) -> None:
        _card_field(self, "target")

    def __str__(self) -> str:
        return f"capture {seat_name((), self.owner)}'s {self.target.symbol}"


@dataclass(frozen=True, slots=True)
class Counter:
    """Answer a threat to your card by playing a card that captures the threatening card."""

    card: Card

    def __post_init__(self) -> None:
        _card_field(self, "card")

    def __str__(self) -> str:
        return f"counter with {self.card.symbol}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not counter: the threatened card is captured."""

    def __str__(self) -> str:
        return "let the capture happen"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """("return" variant) Take one of your face-up cards back into your hand instead of playing."""

    card: Card

    def __post_init__(self) -> None:
        _card_field(self, "card")

    def __str__(self) -> str:
        return f"take {self.card.symbol} back into your hand"


@dataclass(frozen=True, slots=True)
class EndGame:
    """Make no last play: the game ends now."""

    def __str__(self) -> str:
        return "end the game without a last play"


_PLAY: dict[Card, Play] = {}
_COUNTER: dict[Card, Counter] = {}
_TAKE_BACK: dict[Card, TakeBack] = {}
_DRAW: dict[int, Draw] = {}
_DECLINE = Decline()
_END_GAME = EndGame()


def _cached(cache: dict[Any, Any], cls: type, key: Any) -> Any:
    action = cache.get(key)
    if action is None:
        action = cache[key] = cls(key)
    return action
