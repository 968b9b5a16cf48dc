"""Conformance hooks for Shoot the Moon: every player count, with and without partnerships.

``scores_from_events`` recomputes the chips from the trick and round events
alone (the cards each trick held and who took it), not from the engine's own
chip arithmetic.
"""

from __future__ import annotations

from mathcards.cards import Card
from mathcards.games.shoot_the_moon import RoundScored, TrickWon

SETTINGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 6},
    {"num_players": 4, "partnerships": True},
    {"num_players": 6, "partnerships": True},
]

BIG = Card("BIG", 0)
LITTLE = Card("LITTLE", 0)


def scores_from_events(events, game):
    n = game.num_players

    def side(seat: int) -> int:
        return seat % 2 if game.partnerships else seat

    sides = 2 if game.partnerships else n
    chips = [2] * sides
    tricks = [0] * sides
    for event in events:
        if isinstance(event, TrickWon):
            assert event.players[event.winner_index] == event.player
            if event.player >= n:  # dummy: no chips to anyone
                continue
            s = side(event.player)
            tricks[s] += 1
            chips[s] = max(0, chips[s] + event.cards.count(BIG) - event.cards.count(LITTLE))
        elif isinstance(event, RoundScored):
            for s in range(sides):
                chips[s] += 2 if tricks[s] == 5 else tricks[s] % 2
            tricks = [0] * sides
            assert tuple(event.chips) == tuple(chips[side(p)] for p in range(n))
    return tuple(chips[side(p)] for p in range(n))
