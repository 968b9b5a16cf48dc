"""The settings of a game of Sums and their checks (``Sums`` in ``game.py`` adds the deal).

A position (``state.py``) reads its game's settings from here, so the state and the game
that deals it do not import each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mathcards.cards import Card, standard_deck
from mathcards.errors import SettingsError
from mathcards.games.base import Game
from mathcards.games.sums.rules import HAND_SIZE, HAND_SIZE_FOUR_PLAYERS, MAX_DECKS


@dataclass(frozen=True)
class SumsSettings(Game):
    """A Sums game's settings: decks, piles and the two variants."""

    decks: int | None = None
    piles: int = 2
    variant_return: bool = False
    variant_draw_or_play: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        d = self.decks
        bad_decks = isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_DECKS
        if d is not None and bad_decks:
            raise SettingsError(
                f"decks must be a whole number from 1 to {MAX_DECKS} (or None for one deck "
                f"per 4 players), not {d!r}"
            )
        for flag in ("variant_return", "variant_draw_or_play"):
            if not isinstance(getattr(self, flag), bool):
                raise SettingsError(f"{flag} must be True or False, not {getattr(self, flag)!r}")
        p = self.piles
        if isinstance(p, bool) or not isinstance(p, int) or p < 2:
            raise SettingsError(
                f"piles must be a whole number, 2 or more (the rules say at least two), not {p!r}"
            )
        left = 52 * self.deck_count - self.num_players * (self.hand_size + 1)
        if left < p:
            raise SettingsError(
                f"{self.deck_count} deck(s) leave {max(left, 0)} card(s) after the deal to "
                f"{self.num_players} players, too few for {p} piles: use more decks or fewer piles"
            )

    @property
    def deck_count(self) -> int:
        """Decks used: the setting, or one per 4 players rounded up."""
        return self.decks if self.decks is not None else math.ceil(self.num_players / 4)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand: 5, or 3 in a 4-player game."""
        return HAND_SIZE_FOUR_PLAYERS if self.num_players == 4 else HAND_SIZE

    def deck(self) -> tuple[Card, ...]:
        return standard_deck(0, self.deck_count)
