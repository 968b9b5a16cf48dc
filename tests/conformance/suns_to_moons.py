"""Conformance hooks for Suns to Moons: settings to play and scores from the event log."""

from __future__ import annotations

from mathcards.games.suns_to_moons import RoundWon

# Low targets keep thousands of playouts fast; one entry plays the seed's 10.
SETTINGS = [
    {"num_players": 2, "target_score": 3},
    {"num_players": 3, "target_score": 2},
    {"num_players": 4, "target_score": 2},
    {"num_players": 5, "target_score": 2, "decks": 1},
    {"num_players": 6, "target_score": 2},
    {"num_players": 2},
    {"num_players": 3, "target_score": 2, "decks": 2},
    {"num_players": 8, "target_score": 1},
]


def scores_from_events(events, game):
    """One point per round won: count the RoundWon events of each seat."""
    scores = [0] * game.num_players
    for event in events:
        if isinstance(event, RoundWon):
            scores[event.player] += 1
            assert event.new_score == scores[event.player]
    return tuple(scores)
