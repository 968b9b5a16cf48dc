"""Moons and Planets rules on cards: planets, moons and a trick's prize order.

Each rule is computed here and only here; the engine (``state``), the move search,
the wording of events, the bots and the exercise kinds all ask these functions.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mathcards.cards import SUIT_NAMES, Card, cards_shown, parse_cards
from mathcards.errors import MathCardsError
from mathcards.games.base import ordinal
from mathcards.i18n import N_, _

HAND_SIZE = 9
PLANET_LOW, PLANET_HIGH = 15, 18
FIVE_OF_CLUBS = Card("C", 5)
# Discards of equal rank: diamonds highest, then clubs, spades, hearts.
DISCARD_SUIT_ORDER = {"D": 3, "C": 2, "S": 1, "H": 0}
SUITS_HIGH_TO_LOW = "♦ > ♣ > ♠ > ♥"


class Phase(enum.StrEnum):
    """What the table is doing now (a ``str``: ``Phase.PLAY == "play"``)."""

    PUT_DOWN = "put_down"
    TURN_PRIZE = "turn_prize"
    PLAY = "play"
    OVER = "over"


PUT_DOWN, TURN_PRIZE, PLAY, OVER = Phase.PUT_DOWN, Phase.TURN_PRIZE, Phase.PLAY, Phase.OVER


# --- cards and words ---------------------------------------------------------
def _cards(value: Any) -> tuple[Card, ...]:
    """Cards from text ("9H 8H"), a Card, or an iterable of cards/text."""
    if type(value) is tuple and all(type(c) is Card for c in value):
        return value
    if isinstance(value, Card):
        return (value,)
    return parse_cards(value)


def planet_points(card: Card) -> int:
    """What a card counts towards a planet: its number, or 10 for J, Q, K."""
    return 10 if card.rank > 10 else card.rank


def _not_standard(cards: Iterable[Card]) -> str | None:
    odd = [c for c in cards if not c.is_standard]
    if odd:
        return _("{cards}: Moons and Planets uses the 52 standard cards (no Jokers)").format(
            cards=cards_shown(odd))
    return None


def _playable(card: Card) -> bool:
    rank = card.rank
    return rank != 1 and (rank != 5 or card.suit != "C")


_COLOUR = {"H": "red", "D": "red", "S": "black", "C": "black"}
# one card of a suit, as a sentence says it ("below every heart"): SUIT_NAMES' singular
_SUIT_ONE = {"S": N_("spade"), "H": N_("heart"), "D": N_("diamond"), "C": N_("club")}


# --- the pinned rules API ------------------------------------------------------
def planet_problem(cards: Iterable[Card | str]) -> str | None:
    """Why these cards are not a planet, or None when they are one."""
    group = _cards(cards)
    if not group:
        return _("a planet needs cards: 2 or more of one suit adding to {low} to {high}, or "
                 "the 5♣").format(low=PLANET_LOW, high=PLANET_HIGH)
    if len(set(group)) != len(group):
        return _("{cards} names a card twice").format(cards=cards_shown(group))
    foreign = _not_standard(group)
    if foreign:
        return foreign
    if FIVE_OF_CLUBS in group:
        if len(group) == 1:
            return None
        return _("the 5♣ is a planet only on its own: it is never part of a larger planet")
    if len(group) < 2:
        return _("{cards} is one card: a planet needs 2 or more cards of one suit").format(
            cards=cards_shown(group))
    if any(c.rank == 1 for c in group):
        return _("aces cannot be part of a planet")
    suits = {c.suit for c in group}
    if len(suits) > 1:
        return _("{cards} mixes suits: a planet's cards are all one suit").format(
            cards=cards_shown(group))
    total = sum(planet_points(c) for c in group)
    if not PLANET_LOW <= total <= PLANET_HIGH:
        return _("{cards} total {total}: a planet needs {low} to {high} (J, Q, K count "
                 "10)").format(cards=cards_shown(group), total=total, low=PLANET_LOW,
                               high=PLANET_HIGH)
    return None


def planet_reason(cards: Iterable[Card | str]) -> str:
    """One sentence saying whether (and why) these cards are a planet."""
    group = _cards(cards)
    problem = planet_problem(group)
    if problem:
        return problem
    if group == (FIVE_OF_CLUBS,):
        return _("the 5♣ on its own is a planet")
    total = sum(planet_points(c) for c in group)
    return _("{cards} total {total}: {n} {suit} adding to {low}-{high} is a planet").format(
        cards=cards_shown(group), total=total, n=len(group), suit=_(SUIT_NAMES[group[0].suit]),
        low=PLANET_LOW, high=PLANET_HIGH)


def is_planet(cards: Iterable[Card | str]) -> bool:
    """True when the cards are one planet (2+ of a suit, no aces, 15-18; or the 5♣ alone).

    >>> is_planet("9H 8H"), is_planet("9H 5H"), is_planet("5C"), is_planet("KS 5S")
    (True, False, True, True)
    """
    return planet_problem(cards) is None


def moon_kind(cards: Iterable[Card | str]) -> str | None:
    """``"ace"``, ``"set"`` or ``"run"`` for one valid moon, else None."""
    return _moon_kind_and_problem(_cards(cards))[0]


def moon_problem(cards: Iterable[Card | str]) -> str | None:
    """Why these cards are not one moon, or None when they are one."""
    group = _cards(cards)
    problem = _moon_kind_and_problem(group)[1]
    return None if problem is None else _moon_problem_words(group, problem)


def _moon_problem_words(group: tuple[Card, ...], problem: str) -> str:
    """A problem of ``_moon_kind_and_problem`` in the page's language (``{cards}``: the
    group, or its cards from another deck)."""
    odd = [c for c in group if not c.is_standard]
    if odd and problem == _NOT_STANDARD:
        return _(problem).format(cards=cards_shown(odd))
    return _(problem).format(cards=cards_shown(group))


_NOT_STANDARD = N_("{cards}: Moons and Planets uses the 52 standard cards (no Jokers)")


# the problems are kept untranslated (the cache outlives a page's language): words by
# _moon_problem_words
@lru_cache(maxsize=1 << 16)
def _moon_kind_and_problem(group: tuple[Card, ...]) -> tuple[str | None, str | None]:
    if not group:
        return None, N_("a moon needs cards: a run of 3+, 2-4 of one rank, or an ace")
    if len(set(group)) != len(group):
        return None, N_("{cards} names a card twice")
    if any(not c.is_standard for c in group):
        return None, _NOT_STANDARD
    if FIVE_OF_CLUBS in group:
        return None, N_("the 5♣ is only ever a planet: it cannot be part of a moon")
    aces = sum(1 for c in group if c.rank == 1)
    if aces:
        if len(group) == 1:
            return "ace", None
        if aces == len(group):
            return None, N_("{cards}: aces are moons only alone (put each ace down as its own "
                            "moon)")
        return None, N_("{cards}: an ace is a moon only on its own, never in a run or a set")
    ranks = [c.rank for c in group]
    if len(set(ranks)) == 1:
        if len(group) == 1:
            return None, N_("{cards} alone is not a moon: only an ace is a moon on its own")
        return "set", None  # 2-4 cards: a single deck has at most 4 of a rank
    colours = {c.colour for c in group}
    if len(colours) > 1:
        return None, N_("{cards} mixes red and black: a run is all one colour")
    if len(group) < 3:
        return None, N_("{cards}: a run needs 3 or more cards (2-4 cards must share a rank)")
    ordered = sorted(ranks)
    if len(set(ordered)) != len(ordered) or ordered[-1] - ordered[0] != len(ordered) - 1:
        return None, N_("{cards}: a run needs consecutive ranks (2 ... 10 J Q K, no wrap, no "
                        "repeats)")
    return "run", None


def moon_reason(cards: Iterable[Card | str]) -> str:
    """One sentence saying whether (and why) these cards are one moon."""
    group = _cards(cards)
    kind, problem = _moon_kind_and_problem(group)
    if problem:
        return _moon_problem_words(group, problem)
    shown, n = cards_shown(group), len(group)
    if kind == "ace":
        return _("{cards}: an ace on its own is a moon").format(cards=shown)
    if kind == "set":
        return _("{cards}: {n} cards of one rank are a moon").format(cards=shown, n=n)
    if group[0].colour == "red":
        return _("{cards}: {n} consecutive red cards are a moon").format(cards=shown, n=n)
    return _("{cards}: {n} consecutive black cards are a moon").format(cards=shown, n=n)


def is_moon(cards: Iterable[Card | str]) -> bool:
    """True when the cards are one moon (a same-colour run of 3+, 2-4 of a rank, or one ace).

    >>> is_moon("3H 4D 5H"), is_moon("7S 7H"), is_moon("AS"), is_moon("AS AH")
    (True, True, True, False)
    """
    return _moon_kind_and_problem(_cards(cards))[1] is None


def _rank_key(card: Card) -> tuple[int, int]:
    return card.rank, DISCARD_SUIT_ORDER[card.suit]


def prize_order(cards_in_play_order: Iterable[Card | str]) -> list[int]:
    """Indices of a trick's cards from first prize to last; the first card was led.

    Followers of the led suit rank above discards; each by rank K high to 2
    low; discards of one rank by suit ♦ > ♣ > ♠ > ♥.

    >>> prize_order("3S 2S 4H 8D")
    [0, 1, 3, 2]
    """
    trick = _cards(cards_in_play_order)
    if not trick:
        raise MathCardsError(_("a trick needs at least the led card"))
    if len(set(trick)) != len(trick):
        raise MathCardsError(_("{cards} names a card twice").format(cards=cards_shown(trick)))
    foreign = _not_standard(trick)
    if foreign:
        raise MathCardsError(foreign)
    for card in trick:
        if card.rank == 1:
            raise MathCardsError(_("{card}: aces cannot be played to a trick").format(
                card=card.symbol))
        if card == FIVE_OF_CLUBS:
            raise MathCardsError(_("5♣: the 5♣ cannot be played to a trick"))
    return list(_prize_order(trick))


def _prize_order(trick: tuple[Card, ...]) -> tuple[int, ...]:
    """``prize_order`` of a trick the engine built (its cards are already checked)."""
    led = trick[0].suit
    return tuple(
        sorted(
            range(len(trick)),
            key=lambda i: (trick[i].suit == led, *_rank_key(trick[i])),
            reverse=True,
        )
    )


# --- explanations as data ----------------------------------------------------------
@dataclass(frozen=True)
class PrizeRanking:
    """Why one card of a trick landed where it did and which prize it took: worded when
    read (``ranking``, ``reason``), in the language of the page that reads it."""

    player: int
    card: Card
    place: int  # 1 = takes the first prize
    follows: bool
    prize: Card | None
    trick: tuple[Card, ...] = ()  # the trick's cards in play order
    dealt: int = 0  # the prizes dealt for the trick

    @property
    def ranking(self) -> str:
        """Why the card ranks in this place (the reason without the prize)."""
        trick, card, place = self.trick, self.card, self.place
        led = trick[0].suit
        followers = sum(1 for c in trick if c.suit == led)
        if self.follows:
            suit = _(SUIT_NAMES[led])
            if followers == 1:
                return _("{card} follows {suit}").format(card=card.symbol, suit=suit)
            if place == 1:
                return _("{card} follows {suit}: highest of {n} {suit} (K high, 2 low)").format(
                    card=card.symbol, suit=suit, n=followers)
            return _("{card} follows {suit}: {nth} highest of {n} {suit} (K high, 2 low)"
                     ).format(card=card.symbol, suit=suit, n=followers, nth=ordinal(place))
        one, nth = _(_SUIT_ONE[led]), ordinal(place - followers)  # "heart", among discards
        ties = [c for c in trick if c.suit != led and c.rank == card.rank and c != card]
        if ties:
            return _("{card} is a discard, below every {suit}: {nth} of the discards (K high, 2 "
                     "low); same rank as {cards}, so suits decide: {order}").format(
                card=card.symbol, suit=one, nth=nth, cards=cards_shown(ties),
                order=SUITS_HIGH_TO_LOW)
        return _("{card} is a discard, below every {suit}: {nth} of the discards (K high, 2 "
                 "low)").format(card=card.symbol, suit=one, nth=nth)

    @property
    def reason(self) -> str:
        """The whole sentence: the ranking, then the prize it takes."""
        if self.prize is None:
            takes = _("{nth} place takes no prize (only {n} dealt)").format(
                nth=ordinal(self.place), n=self.dealt)
        else:
            takes = _("{nth} place takes prize {place} ({prize})").format(
                nth=ordinal(self.place), place=self.place, prize=self.prize.symbol)
        return f"{self.ranking}; {takes}"


def rank_trick(
    cards: tuple[Card, ...], players: tuple[int, ...], prizes: tuple[Card, ...]
) -> tuple[tuple[int, ...], tuple[PrizeRanking, ...]]:
    """The prize order of a trick and, per card, the ranking that put it there."""
    return _rank_trick(cards, players, prizes, tuple(prize_order(cards)))


def _rank_trick(
    cards: tuple[Card, ...],
    players: tuple[int, ...],
    prizes: tuple[Card, ...],
    order: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[PrizeRanking, ...]]:
    led = cards[0].suit
    dealt = len(prizes)
    reasons = []
    for place, index in enumerate(order, start=1):
        card = cards[index]
        prize = prizes[place - 1] if place <= dealt else None
        reasons.append(PrizeRanking(players[index], card, place, card.suit == led, prize, cards,
                                    dealt))
    return order, tuple(reasons)


def _order_key(card: Card) -> tuple[int, int, str]:
    # _rank_key's order, and a place for cards from other decks (refused later, by name)
    return card.rank, DISCARD_SUIT_ORDER.get(card.suit, -1), card.suit


def _in_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards low to high (rank, then suit ♥ ♠ ♣ ♦): the order every listed move uses."""
    return tuple(sorted(cards, key=_order_key))


def _layout_key(group: tuple[Card, ...]) -> tuple[tuple[int, int, str], ...]:
    return tuple(map(_order_key, group))

