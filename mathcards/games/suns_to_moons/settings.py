"""The settings of a game of Suns to Moons and their checks (``SunsToMoons`` in
``game.py`` adds the deal).

A position (``state.py``) reads its game's settings from here, so the state and the game
that deals it do not import each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mathcards.cards import Card, standard_deck
from mathcards.errors import SettingsError
from mathcards.games.base import Game


@dataclass(frozen=True)
class SunsToMoonsSettings(Game):
    """A Suns to Moons game's settings: the score to reach and the decks."""

    target_score: int = 10
    decks: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        t = self.target_score
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 99:
            raise SettingsError(
                f"target_score must be a whole number from 1 to 99 (the rules play to 10), "
                f"not {t!r}"
            )
        d = self.decks
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 8):
            raise SettingsError(
                f"decks must be a whole number from 1 to 8, or None for one deck per 4 "
                f"players, not {d!r}"
            )

    @property
    def num_decks(self) -> int:
        """Decks in play: the setting, or one per 4 players rounded up."""
        return self.decks if self.decks is not None else math.ceil(self.num_players / 4)

    def deck(self) -> tuple[Card, ...]:
        return standard_deck(jokers=2, decks=self.num_decks)
