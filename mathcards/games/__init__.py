"""The games' rules engines, one package each, on one protocol (``base``); each registers
itself once with ``registry.register_game``."""

from mathcards.games.registry import (
    GameSpec,
    game_names,
    game_spec,
    game_specs,
    get_game_class,
    make_game,
    register_game,
)

__all__ = ["GameSpec", "game_names", "game_spec", "game_specs", "get_game_class", "make_game",
           "register_game"]
