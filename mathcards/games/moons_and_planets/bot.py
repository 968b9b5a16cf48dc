"""The strong Moons and Planets bot: it sees only its observation and the legal moves."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from mathcards.cards import Card
from mathcards.games.moons_and_planets.actions import (
    AddToMoon,
    DeclarePlanet,
    MakeMoon,
    PlayCard,
    Regroup,
)
from mathcards.games.moons_and_planets.rules import (
    FIVE_OF_CLUBS,
    PUT_DOWN,
    TURN_PRIZE,
    _playable,
    is_moon,
    prize_order,
)
from mathcards.games.moons_and_planets.search import moon_options, planet_options
from mathcards.games.moons_and_planets.state import Observation


# --- bots ---------------------------------------------------------------------------
def _usefulness(card: Card, hand: tuple[Card, ...], obs: Observation) -> float:
    """How much keeping ``card`` may help a future planet or moon (higher = keep)."""
    me = obs.player
    score = 0.0
    for other in hand:
        if other == card or not _playable(other):
            continue
        if other.rank == card.rank:
            score += 2
        elif other.colour == card.colour and abs(other.rank - card.rank) <= 2:
            score += 1.5 if abs(other.rank - card.rank) == 1 else 0.75
        if not obs.planets[me] and other.suit == card.suit:
            score += 0.5
    for group in obs.moons[me]:
        if group[0].rank != 1 and is_moon((*group, card)):
            score += 5
    return score


def _prize_helps(prize: Card, obs: Observation) -> bool:
    """Would this prize let the player put down more cards?"""
    me = obs.player
    hand = obs.hand
    if not obs.planets[me]:
        if prize == FIVE_OF_CLUBS:
            return True
        return any(prize in p for p in planet_options(tuple(sorted((*hand, prize)))))
    if prize.rank == 1:
        return True
    if any(g[0].rank != 1 and is_moon((*g, prize)) for g in obs.moons[me]):
        return True
    return any(prize in m for m in moon_options(tuple(sorted((*hand, prize)))))


def _chance_beaten(card: Card, follows: bool) -> float:
    """Rough chance that a later, unseen card ranks above ``card``."""
    higher = (13 - card.rank) / 11
    return 0.5 * higher if follows else 0.5 + 0.5 * higher


def strong_policy(
    observation: Observation, legal: Collection[Any], rng: random.Random
) -> Any:
    """Meld as early and as much as possible; bid for a face-up prize that helps; dump the rest."""
    obs = observation
    options = list(legal)
    if obs.phase == PUT_DOWN:
        best, best_key = None, None
        for action in options:
            if isinstance(action, DeclarePlanet):
                key = (3, len(action.cards))
            elif isinstance(action, (MakeMoon, AddToMoon)):
                key = (2, len(action.cards))
            elif isinstance(action, Regroup):
                before = sum(len(g) for g in obs.moons[obs.player])
                key = (2, sum(len(g) for g in action.groups) - before)
            else:
                continue
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best if best is not None else options[-1]
    if obs.phase == TURN_PRIZE:
        return options[0]
    hand = obs.hand
    plays = [a.card for a in options]
    target = obs.face_up
    face_up = obs.prizes[target] if target is not None else None
    if (
        target is not None
        and face_up is not None
        and _prize_helps(face_up, obs)
        and len(obs.trick_players) > 1
    ):
        later = len(obs.trick_players) - len(obs.trick) - 1

        def miss(card: Card) -> tuple[float, float]:
            trick = (*obs.trick, card)
            above = prize_order(trick).index(len(trick) - 1)
            follows = card.suit == trick[0].suit
            expected = above + later * _chance_beaten(card, follows)
            return abs(expected - target), _usefulness(card, hand, obs)

        return PlayCard(min(plays, key=miss))
    return PlayCard(min(plays, key=lambda c: (_usefulness(c, hand, obs), -c.rank)))

