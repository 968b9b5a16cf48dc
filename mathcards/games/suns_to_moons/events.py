"""Suns to Moons events: what happened and why, worded by ``describe(names)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mathcards.cards import Card
from mathcards.games.base import Event, number, seat_name
from mathcards.games.suns_to_moons.rules import signed
from mathcards.i18n import _, ngettext

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
        return _("Round {round}: {dealer} deals; the centre card is {card} (deck {deck}); "
                 "the goal is {goal}; {first} plays first.").format(
            round=self.round_number, dealer=seat_name(names, self.player),
            card=self.initial_card.symbol, deck=number(self.initial_value), goal=self.goal,
            first=seat_name(names, self.first_player))


@dataclass(frozen=True)
class HandsDealt(Event):
    """Every player is dealt ``cards_each`` cards at the start of a round (``player`` deals)."""

    cards_each: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return ngettext("{dealer} deals {n} card to each player.",
                        "{dealer} deals {n} cards to each player.", self.cards_each).format(
            dealer=seat_name(names, self.player), n=self.cards_each)


@dataclass(frozen=True)
class CardsDealt(Event):
    """A player who used all their cards is dealt new ones (fewer if the cards ran out)."""

    count: int

    def describe(self, names: Sequence[str] = ()) -> str:
        who = seat_name(names, self.player)
        if self.count == 0:
            return _("{who} has no cards, and there are none left to deal.").format(who=who)
        return ngettext("{who} used all their cards and is dealt {n} new one.",
                        "{who} used all their cards and is dealt {n} new ones.",
                        self.count).format(who=who, n=self.count)


@dataclass(frozen=True)
class StockReshuffled(Event):
    """The junk pile (the used cards) is shuffled under the stock: the stock ran short."""

    cards: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return ngettext("The stock ran short: the {n} used card is shuffled into it.",
                        "The stock ran short: the {n} used cards are shuffled into it.",
                        self.cards).format(n=self.cards)


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
        if self.sign > 0:
            text = _("{who} plays {card} across, adding {value}: {before} + {value} = {after}.")
        else:
            text = _("{who} plays {card} upright, subtracting {value}: "
                     "{before} − {value} = {after}.")
        return text.format(who=seat_name(names, self.player), card=self.card.symbol,
                           value=self.value, before=number(self.before),
                           after=number(self.after))


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
            return _("{who} plays a Joker; there is no card left for it to remove.").format(
                who=who)
        if self.removed_card is not None:
            text = _("{who} plays a Joker on {card}, removing {removed}: the deck goes from "
                     "{before} to {after}.")
        else:
            text = _("{who} plays a Joker, removing {removed}: the deck goes from {before} "
                     "to {after}.")
        return text.format(who=who, removed=signed(self.removed_contribution),
                           card=self.removed_card.symbol if self.removed_card else "",
                           before=number(self.before), after=number(self.after))


@dataclass(frozen=True)
class TurnEnded(Event):
    """The player ends their Joker turn without a second card."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} ends the turn after the Joker.").format(
            who=seat_name(names, self.player))


@dataclass(frozen=True)
class GoalReached(Event):
    """The deck equals the goal with 3 or more cards: the round is won."""

    goal: int
    value: int
    deck_size: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return ngettext("{who} makes the deck {value}, the goal, with {n} card in the deck.",
                        "{who} makes the deck {value}, the goal, with {n} cards in the deck.",
                        self.deck_size).format(who=seat_name(names, self.player),
                                               value=number(self.value), n=self.deck_size)


@dataclass(frozen=True)
class GoalTooEarly(Event):
    """The deck equals the goal with fewer than 3 cards: it does not count."""

    goal: int
    value: int
    deck_size: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return ngettext("The deck is {value}, the goal, but holds only {n} card; a win needs "
                        "3 or more, so play goes on.",
                        "The deck is {value}, the goal, but holds only {n} cards; a win needs "
                        "3 or more, so play goes on.",
                        self.deck_size).format(value=number(self.value), n=self.deck_size)


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
        return ngettext("{who} wins the round and now has {n} point.",
                        "{who} wins the round and now has {n} points.",
                        self.new_score).format(who=who, n=self.new_score)


@dataclass(frozen=True)
class Passed(Event):
    """A player with no cards and none to get passes."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} has no cards and passes.").format(who=seat_name(names, self.player))


@dataclass(frozen=True)
class RoundAbandoned(Event):
    """Everyone passed: the round ends with no winner (``player`` is None)."""

    round_number: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("Everyone passed: round {round} ends with no winner.").format(
            round=self.round_number)


@dataclass(frozen=True)
class GameWon(Event):
    """A player reached the target score: the game is over."""

    score: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return ngettext("{who} reaches {n} point and wins the game.",
                        "{who} reaches {n} points and wins the game.",
                        self.score).format(who=seat_name(names, self.player), n=self.score)
