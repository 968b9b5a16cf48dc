"""Moons and Planets' moment: who emptied their hand."""

from __future__ import annotations

from collections.abc import Sequence

from mathcards.games.base import State
from mathcards.moments import Moment, _headline


def moment(before: State, after: State, names: Sequence[str],
           here: Sequence[int]) -> Moment | None:
    """Moons and Planets: who emptied their hand (its scores are no points to add)."""
    if not after.is_over:
        return None
    from mathcards.games.moons_and_planets.events import GameWon

    lines = [e.describe(names) for e in after.new_events if isinstance(e, GameWon)]
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", "Game over", headline, tuple(lines), win, tuple(after.winners))
