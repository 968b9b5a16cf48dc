"""Dealing in Suns to Moons: a round's hands and centre card, refills from the stock."""

from __future__ import annotations

import random
from typing import Any

from mathcards.cards import Card
from mathcards.games.base import Event
from mathcards.games.suns_to_moons.actions import JOKER_PLAY, Play
from mathcards.games.suns_to_moons.events import HandsDealt, RoundStarted, StockReshuffled
from mathcards.games.suns_to_moons.rules import HAND_SIZE


def _draw(stock: tuple[Card, ...], junk: tuple[Card, ...], count: int,
          rng: random.Random, events: list[Event]
          ) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Take up to ``count`` cards from the top (end) of the stock, reshuffling junk if short."""
    if len(stock) < count and junk:
        pile = list(junk)
        rng.shuffle(pile)
        stock = tuple(pile) + stock
        junk = ()
        events.append(StockReshuffled(None, len(pile)))
    k = min(count, len(stock))
    cut = len(stock) - k
    return stock[cut:], stock[:cut], junk


def _deal_round(stock: tuple[Card, ...], junk: tuple[Card, ...], *, dealer: int,
                round_number: int, points: tuple[int, ...], rng: random.Random,
                events: list[Event], num_players: int) -> dict[str, Any]:
    """Deal 5 cards to each player and turn up the centre card (the state fields)."""
    n = num_players
    first = (dealer + 1) % n
    dealt, stock, junk = _draw(stock, junk, HAND_SIZE * n + 1, rng, events)
    hands = tuple(dealt[1 + i * HAND_SIZE: 1 + (i + 1) * HAND_SIZE] for i in range(n))
    centre = dealt[0]
    if centre.suit == "JK":
        initial = JOKER_PLAY
        counted: tuple[int, ...] = ()
        counted_cards: tuple[Card, ...] = ()
    else:
        initial = Play(centre, 1, centre.rank)  # an Ace turned up counts 1
        counted = (centre.rank,)
        counted_cards = (centre,)
    events.append(HandsDealt(dealer, HAND_SIZE))
    events.append(
        RoundStarted(dealer, round_number, first, centre, sum(counted), max(points))
    )
    return {
        "dealer": dealer,
        "first_player": first,
        "round_number": round_number,
        "turn": first,
        "hands": hands,
        "stock": stock,
        "junk": junk,
        "table": (initial,),
        "counted": counted,
        "counted_cards": counted_cards,
        "pending": None,
        "may_end_turn": False,
        "bound_applied": False,
        "passes": 0,
    }
