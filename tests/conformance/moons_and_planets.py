"""Conformance hooks for Moons and Planets.

Scores mean: 1 for each winner (the first player to empty their hand, or
the players with the fewest cards in hand when the game has to stop), 0 for
everyone else. They are recomputed here from the ``GameWon`` event alone.
"""

from __future__ import annotations

SETTINGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 3, "trick_limit": 5},
]


def scores_from_events(events, game):
    scores = [0] * game.num_players
    won = [e for e in events if type(e).__name__ == "GameWon"]
    assert len(won) == 1, "a finished game has exactly one GameWon event"
    for player in won[0].winners:
        scores[player] = 1
    return scores
