"""The games a test is about, asked of the registry (issue 39 item 5).

A test meant for every game (or every game of a kind) iterates these, never a list of
names: a new game is tested the day it registers. A test about one game's own rules
names that game. ``tests/test_registered_games.py`` checks no test module keeps a list
of game names.
"""

from __future__ import annotations

from mathcards.games.base import Game
from mathcards.games.parts import part_path
from mathcards.games.registry import GameSpec, game_specs


def every_game() -> list[str]:
    """Every registered game, in the landing page's order."""
    return [s.name for s in game_specs()]


def asking_games() -> list[str]:
    """The games whose table asks "I count" questions (a ``questions.py`` in its folder)."""
    return [s.name for s in game_specs() if part_path(s, "questions")]


def explained_games() -> list[str]:
    """The games with an explainer of their own (an ``explain.py`` in its folder)."""
    return [s.name for s in game_specs() if part_path(s, "explain")]


def lessons() -> list[str]:
    """Every landing card's lesson notebook (``LandingCard.lesson``)."""
    return [s.card.lesson for s in game_specs() if s.card is not None]


def private_deal_games() -> list[str]:
    """The games whose hidden cards come from a table's secret (``saves.has_private_deal``):
    their engine deals privately."""
    return [s.name for s in game_specs() if s.engine._private_deal is not Game._private_deal]


def _is_trick_table(spec: GameSpec) -> bool:
    from mathcards.games.registry import resolve
    from mathcards.widgets.tricks import TrickView

    view = resolve(spec.view)
    return isinstance(view, type) and issubclass(view, TrickView)


def trick_tables() -> list[str]:
    """The games whose table is a trick table (``mathcards.widgets.tricks.TrickView``)."""
    return [s.name for s in game_specs() if s.view and _is_trick_table(s)]


def card_tables() -> list[str]:
    """The games with a table that is not a trick table: a hand of cards to click,
    the stakes on the table (each its own view in ``mathcards.widgets``)."""
    return [s.name for s in game_specs() if s.view and not _is_trick_table(s)]


def play_pages() -> list[str]:
    """Every landing card's play page (``LandingCard.play``), where it has one."""
    return [s.card.play for s in game_specs() if s.card is not None and s.card.play]
