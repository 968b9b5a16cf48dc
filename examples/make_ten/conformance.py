"""Conformance hooks for Make Ten (``tests/test_conformance.py`` reads them through
``GameSpec.conformance``): settings to play and the scores recomputed from events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from examples.make_ten.rules import TEN, CardPlayed, MakeTen

SETTINGS: list[dict[str, Any]] = [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}]


def scores_from_events(events: Sequence[Any], game: MakeTen) -> tuple[int, ...]:
    """Count the pile card by card: a play that makes ten with the card it covers takes
    every card of the pile, the one that began it included."""
    taken = [0] * game.num_players
    pile = 1  # the deal's face-up card
    for event in events:
        if not isinstance(event, CardPlayed):
            continue
        # a play on an empty pile (the stock ran out as a pile was taken) begins a new one
        pile = pile + 1 if event.covered is not None else 1
        if event.covered is not None and event.covered.rank + event.card.rank == TEN:
            assert event.player is not None
            taken[event.player] += pile
            pile = 1  # the stock's next card begins the new pile (if the stock has one)
    return tuple(taken)
