"""The games' rules engines, one package each, on one protocol (``base``); each registers
itself once with ``registry.register_game``.

This package is where the two meet: ``base`` (the protocol) knows no registry, and a saved
game's name is found through the lookup passed in here, before any module of the package
is used.
"""

from mathcards.games import base, registry
from mathcards.games.registry import (
    GameSpec,
    game_names,
    game_spec,
    game_specs,
    get_game_class,
    make_game,
    register_game,
)

base.use_game_lookup(registry.get_game_class)

__all__ = ["GameSpec", "game_names", "game_spec", "game_specs", "get_game_class", "make_game",
           "register_game"]
