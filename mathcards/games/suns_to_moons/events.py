"""Suns to Moons events: what happened and why, worded by ``describe(names)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mathcards.cards import Card
from mathcards.games.base import Event, number, plural, seat_name
from mathcards.games.suns_to_moons.rules import signed

if TYPE_CHECKING:
    from mathcards.games.suns_to_moons.actions import Play


# --- events --------------------------------------------------------------
@dataclass(frozen=True)
class RoundStarted(Event):
    """A round is dealt: ``player`` is the dealer."""

    round_number: int
    first_player: int
    initial_card: Card
    initial_value: int
    goal: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"Round {self.round_number}: {seat_name(names, self.player)} deals; the centre card is "
            f"{self.initial_card.symbol} (deck {number(self.initial_value)}); the goal is "
            f"{self.goal}; {seat_name(names, self.first_player)} plays first."
        )


@dataclass(frozen=True)
class HandsDealt(Event):
    """Every player is dealt ``cards_each`` cards at the start of a round (``player`` deals)."""

    cards_each: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} deals {self.cards_each} cards to each player."


@dataclass(frozen=True)
class CardsDealt(Event):
    """A player who used all their cards is dealt new ones (fewer if the cards ran out)."""

    count: int

    def describe(self, names: Sequence[str] = ()) -> str:
        who = seat_name(names, self.player)
        if self.count == 0:
            return f"{who} has no cards, and there are none left to deal."
        return f"{who} used all their cards and is dealt {self.count} new ones."


@dataclass(frozen=True)
class StockReshuffled(Event):
    """The junk pile (the used cards) is shuffled under the stock: the stock ran short."""

    cards: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (f"The stock ran short: the {plural(self.cards, 'used card')} are shuffled "
                "into it.")


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card is placed on the deck, adding or subtracting its value."""

    card: Card
    sign: int
    value: int
    contribution: int
    before: int
    after: int
    deck_size: int
    goal: int
    other_sign_after: int | None
    bound_applied: bool
    counted: tuple[int, ...] = ()  # the signed values still counted after the card

    def describe(self, names: Sequence[str] = ()) -> str:
        way = "across, adding" if self.sign > 0 else "upright, subtracting"
        return (
            f"{seat_name(names, self.player)} plays {self.card.symbol} {way} {self.value}: "
            f"{number(self.before)} {'+' if self.sign > 0 else '−'} {self.value} = "
            f"{number(self.after)}."
        )


@dataclass(frozen=True)
class JokerPlayed(Event):
    """A Joker conceals the most recent counted card and removes its value.

    ``removed_card`` is None when nothing was counted, or when an exercise gave the
    removed value without its card (then ``removed`` is still True).
    """

    removed_card: Card | None
    removed_contribution: int
    before: int
    after: int
    deck_size: int
    goal: int
    counted: tuple[int, ...] = ()  # the signed values still counted after the Joker
    removed: bool = False  # whether a counted card was removed

    def describe(self, names: Sequence[str] = ()) -> str:
        who = seat_name(names, self.player)
        if not self.removed:
            return f"{who} plays a Joker; there is no card left for it to remove."
        on = f" on {self.removed_card.symbol}" if self.removed_card is not None else ""
        return (
            f"{who} plays a Joker{on}, removing "
            f"{signed(self.removed_contribution)}: the deck goes from {number(self.before)} "
            f"to {number(self.after)}."
        )


@dataclass(frozen=True)
class TurnEnded(Event):
    """The player ends their Joker turn without a second card."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} ends the turn after the Joker."


@dataclass(frozen=True)
class GoalReached(Event):
    """The deck equals the goal with 3 or more cards: the round is won."""

    goal: int
    value: int
    deck_size: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{seat_name(names, self.player)} makes the deck {number(self.value)}, the goal, with "
            f"{self.deck_size} cards in the deck."
        )


@dataclass(frozen=True)
class GoalTooEarly(Event):
    """The deck equals the goal with fewer than 3 cards: it does not count."""

    goal: int
    value: int
    deck_size: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"The deck is {number(self.value)}, the goal, but holds only {self.deck_size} "
            f"card{'s' if self.deck_size != 1 else ''}; a win needs 3 or more, so play goes on."
        )


@dataclass(frozen=True)
class RoundWon(Event):
    """The round's winner scores one point; ``table`` is the deck that reached the goal
    (the table shows it until the next round is started)."""

    goal: int
    new_score: int
    counted: tuple[int, ...]
    table: tuple[Play, ...] = ()  # the round's plays, centre card first

    def describe(self, names: Sequence[str] = ()) -> str:
        who = seat_name(names, self.player)
        return f"{who} wins the round and now has {plural(self.new_score, 'point')}."


@dataclass(frozen=True)
class Passed(Event):
    """A player with no cards and none to get passes."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} has no cards and passes."


@dataclass(frozen=True)
class RoundAbandoned(Event):
    """Everyone passed: the round ends with no winner (``player`` is None)."""

    round_number: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"Everyone passed: round {self.round_number} ends with no winner."


@dataclass(frozen=True)
class GameWon(Event):
    """A player reached the target score: the game is over."""

    score: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (f"{seat_name(names, self.player)} reaches {plural(self.score, 'point')} and "
                "wins the game.")
