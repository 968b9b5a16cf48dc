"""Issue 39 item 2: a game is a folder. Every built-in game is a package
``mathcards/games/<name>/`` that registers itself in its ``__init__``."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from mathcards.games.registry import BUILTIN_GAMES, game_spec


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_every_builtin_game_is_a_package_that_registers_itself(name: str) -> None:
    package = importlib.import_module(f"mathcards.games.{name}")
    assert hasattr(package, "__path__"), f"mathcards.games.{name} is a module, not a folder"
    assert Path(package.__file__ or "").name == "__init__.py"
    assert game_spec(name).engine.__module__.startswith(f"mathcards.games.{name}.")


def test_no_game_module_lies_beside_the_packages() -> None:
    games = Path(importlib.import_module("mathcards.games").__file__ or "").parent
    loose = sorted(p.name for p in games.glob("*.py")
                   if p.stem not in {"__init__", "base", "parts", "registry"})
    assert loose == []
