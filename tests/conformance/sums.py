"""Conformance hooks for Sums: settings to play and scores recomputed from events."""

from __future__ import annotations

from collections import Counter

from mathcards.games import sums

SETTINGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 6},
    {"num_players": 2, "variant_return": True},
    {"num_players": 3, "variant_draw_or_play": True},
    {"num_players": 4, "variant_return": True, "variant_draw_or_play": True},
    {"num_players": 2, "variant_return": True, "variant_draw_or_play": True, "piles": 3},
    {"num_players": 5, "variant_return": True, "piles": 4},
    {"num_players": 6, "variant_draw_or_play": True, "decks": 1},
]

# the scoring table of the seed, written out again on purpose (not imported)
TABLE = {1: 3, 11: 2, 12: 2, 13: 3, **dict.fromkeys(range(2, 11), 1)}


def scores_from_events(events, game):
    """Follow every card onto and off each side and into each captured pile."""
    sides = [Counter() for _ in range(game.num_players)]
    caught = [Counter() for _ in range(game.num_players)]
    for event in events:
        if isinstance(event, sums.CardDealtFaceUp | sums.CardPlayed | sums.Countered):
            sides[event.player][event.card] += 1
        elif isinstance(event, sums.CardTakenBack):
            sides[event.player][event.card] -= 1
        elif isinstance(event, sums.Captured):
            sides[event.from_player][event.card] -= 1
            caught[event.player][event.card] += 1
    for zone in (*sides, *caught):
        assert all(count >= 0 for count in zone.values()), "a card left a side it was not on"
    return tuple(
        sum(TABLE[c.rank] * k for c, k in side.items())
        + sum(TABLE[c.rank] * k for c, k in won.items())
        for side, won in zip(sides, caught, strict=True)
    )
