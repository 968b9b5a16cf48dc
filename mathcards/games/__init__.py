"""The five games' rules engines, one module each, on one protocol (``base``)."""

from mathcards.games.registry import GAMES, game_names, get_game_class, make_game

__all__ = ["GAMES", "game_names", "get_game_class", "make_game"]
