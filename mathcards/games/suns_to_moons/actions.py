"""Suns to Moons moves (play a card, end a Joker turn, pass) and whole turns."""

from __future__ import annotations

from dataclasses import dataclass

from mathcards.cards import Card, parse_card
from mathcards.games.base import number
from mathcards.games.suns_to_moons.rules import JOKER, signed


# --- actions -------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Place one card on the deck: sign +1 across (adds), −1 upright (subtracts).

    ``value`` is the card's value (an Ace 1 or 14). A Joker is ``Play(JK, 0, 0)``
    (see ``JOKER_PLAY``): it has no orientation; it conceals the previous card.
    """

    card: Card
    sign: int
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", parse_card(self.card))
        if type(self.sign) is bool:
            object.__setattr__(self, "sign", int(self.sign))
        if type(self.value) is bool:
            object.__setattr__(self, "value", int(self.value))

    @property
    def is_joker(self) -> bool:
        return self.card.suit == "JK"

    @property
    def contribution(self) -> int:
        """What this card adds to the deck (negative when played upright)."""
        return self.sign * self.value

    def __str__(self) -> str:
        if self.is_joker:
            return "play the Joker"
        return f"play {self.card.symbol} as {signed(self.contribution)}"


JOKER_PLAY = Play(JOKER, 0, 0)


@dataclass(frozen=True)
class EndTurn:
    """End the turn after a Joker without a second card."""

    def __str__(self) -> str:
        return "end the turn after the Joker"


@dataclass(frozen=True)
class Pass:
    """Pass: no cards in hand and none left to be dealt."""

    def __str__(self) -> str:
        return "pass"


END_TURN = EndTurn()
PASS = Pass()


@dataclass(frozen=True)
class Turn:
    """One way to play a whole turn: one card, a Joker, or a Joker and one more card."""

    plays: tuple[Play, ...]
    value_after: int

    def __str__(self) -> str:
        return " then ".join(str(p) for p in self.plays) + f" (deck {number(self.value_after)})"
