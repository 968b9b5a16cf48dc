"""Shoot the Moon moves (one: play a card), with a stable save name in the game."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from mathcards.cards import (
    Card,
    as_card,
)


# --- actions, events, observation -----------------------------------------
@dataclass(frozen=True)
class Play:
    """Play one card from your hand to the trick (``Play("G4")`` also works)."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"play {self.card.symbol}"


@cache
def _play(card: Card) -> Play:
    return Play(card)

