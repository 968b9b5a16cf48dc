"""Conformance hooks for Dice Stacks: settings to play and scores from the event log."""

from __future__ import annotations

from mathcards.games.dice_stacks import GameEnded, RanOut, StackLaid, TurnEnded

# One deck keeps most playouts short; the default (one deck per two players)
# and an extra deck cover the rest.
SETTINGS = [
    {"num_players": 2, "decks": 1},
    {"num_players": 3, "decks": 1},
    {"num_players": 4, "decks": 1},
    {"num_players": 2},
    {"num_players": 5, "decks": 1},
    {"num_players": 6, "decks": 1},
    {"num_players": 3},
    {"num_players": 8, "decks": 1},
]


def scores_from_events(events, game):
    """Stack points + run-out points - the cards in hand at each player's last turn end."""
    n = game.num_players
    points = [0] * n
    in_hand = [0] * n
    ended = False
    for event in events:
        if isinstance(event, StackLaid):
            points[event.player] += event.points
        elif isinstance(event, RanOut):
            points[event.player] += 1
        elif isinstance(event, TurnEnded):
            in_hand[event.player] = event.cards_in_hand
        elif isinstance(event, GameEnded):
            ended = True
    if not ended:
        return tuple(points)
    return tuple(p - h for p, h in zip(points, in_hand, strict=True))
