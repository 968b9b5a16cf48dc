"""Every suite written for all games, run on Make Ten: this plugin registers the game.

From the repository's folder::

    python -m pytest -p examples.make_ten.pytest_plugin -k make_ten tests/test_conformance.py

(``docs/new_game.md`` lists the suites). The suites find the game through the registry
like any game; the plugin is the one place that says its name.
"""

from __future__ import annotations


def pytest_configure(config: object) -> None:
    from mathcards.games.registry import register_game

    from . import SPEC

    register_game(SPEC)
