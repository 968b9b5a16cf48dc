"""Short names of the five games, imported only when first asked for."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mathcards.errors import SaveFileError, SettingsError

if TYPE_CHECKING:
    from mathcards.games.base import Game

GAMES: dict[str, tuple[str, str]] = {
    "suns_to_moons": ("mathcards.games.suns_to_moons", "SunsToMoons"),
    "dice_stacks": ("mathcards.games.dice_stacks", "DiceStacks"),
    "sums": ("mathcards.games.sums", "Sums"),
    "shoot_the_moon": ("mathcards.games.shoot_the_moon", "ShootTheMoon"),
    "moons_and_planets": ("mathcards.games.moons_and_planets", "MoonsAndPlanets"),
}


def game_names() -> tuple[str, ...]:
    return tuple(GAMES)


def get_game_class(name: Any) -> type[Game]:
    if name not in GAMES:
        raise SettingsError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    module, cls = GAMES[name]
    found: type[Game] = getattr(importlib.import_module(module), cls)
    return found


def make_game(name: str, **settings: Any) -> Game:
    """``make_game("sums", num_players=3)``: a Game with validated settings."""
    cls = get_game_class(name)
    try:
        return cls(**settings)
    except TypeError as exc:
        raise SettingsError(f"bad settings for {name}: {exc}") from None


__all__ = ["GAMES", "SaveFileError", "game_names", "get_game_class", "make_game"]
