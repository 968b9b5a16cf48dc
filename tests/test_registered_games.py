"""Tests ask the registry (issue 39 item 5).

Every test meant for every game, or every game of a kind, iterates the registered games
(``tests/registered.py``), so a new game is tested the day it registers. This test reads
every test module (ast) and fails when one holds a literal list, tuple or set that names
two or more games (by their names, lessons or play pages), with the module and line. A
test about one game's own rules names that one game; a dict of each game's own data (its
settings, its seed, its drivers) is that data, not a list of the games. The modules below
keep a list on purpose, each for the reason given.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from mathcards.games.registry import game_names

TESTS = Path(__file__).resolve().parent

FIXED_LISTS = {
    # the registry's own order of the built-in games (the landing page's), checked as such
    "test_protocol.py": "the order of BUILTIN_GAMES",
    # the release-1 saves keep the games that existed then (their fixture file)
    "test_saves_compat.py": "the games of the first release",
    # the game-over moment that writes each score as its sum: two games' moments
    "test_moments.py": "the two games whose scores are sums of cards",
    # "I count" refusals: a hand-written driver for each of two games
    "test_refusal_words.py": "the two games with a refusal driver",
    # a real browser is costly: resume and tablet layout on a sample of two tables
    "browser/test_game_pages.py": "a sample of tables for the browser's budget",
    # examples of the readers of game names themselves
    "test_import_graph.py": "examples for its reader of game names",
    "test_registered_games.py": "examples for its reader of game lists",
}


def _unpacked(tree: ast.AST) -> set[int]:
    """The tuples on the right of ``A, B = "x", "y"``: each name its own constant."""
    found = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple)
                and any(isinstance(t, ast.Tuple) for t in node.targets)):
            found.add(id(node.value))
    return found


def _game_of(text: str, names: set[str]) -> str | None:
    """The game ``text`` names: its name, its lesson (``sums.ipynb``) or its play page
    (``play_sums.ipynb``)."""
    stem = text.removesuffix(".ipynb").removeprefix("play_") if text.endswith(
        ".ipynb") else text
    return stem if stem in names else None


def game_lists_in(source: str, names: set[str]) -> Iterator[tuple[int, list[str]]]:
    """(line, the names) of each literal list, tuple or set of two or more game names."""
    tree = ast.parse(source)
    unpacked = _unpacked(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.List | ast.Tuple | ast.Set) or id(node) in unpacked:
            continue
        found = [e.value for e in node.elts
                 if isinstance(e, ast.Constant) and isinstance(e.value, str)
                 and _game_of(e.value, names) is not None]
        if len({_game_of(text, names) for text in found}) >= 2:
            yield node.lineno, found


def test_the_reader_finds_lists_of_game_names() -> None:
    names = {"sums", "dice_stacks", "shoot_the_moon"}
    source = ('A = ["sums", "dice_stacks"]\n'
              'B = ("sums",)\n'
              '@pytest.mark.parametrize("game", {"sums", "shoot_the_moon", "x"})\n'
              'def f(game): pass\n'
              'S, D = "sums", "dice_stacks"\n'
              'C = {"sums": 1, "dice_stacks": 2}\n'
              'E = [("sums", 2), ("dice_stacks", 3)]\n'
              'F = ("sums", "sums")\n'
              'G = {"index.ipynb", "sums.ipynb", "play_dice_stacks.ipynb"}\n'
              'H = ["sums.ipynb", "play_sums.ipynb", "xsums.ipynb"]\n')
    assert sorted(line for line, _ in game_lists_in(source, names)) == [1, 3, 9]


def test_no_test_keeps_a_list_of_the_games() -> None:
    names = set(game_names())
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(TESTS).as_posix()
        lists = [f"line {line}: {found_names}"
                 for line, found_names in game_lists_in(path.read_text("utf-8"), names)]
        if lists and relative not in FIXED_LISTS:
            found[relative] = lists
    assert not found, ("test modules list games: iterate the registry (tests/registered.py) "
                       "instead:\n" + "\n".join(f"  tests/{m}: " + "; ".join(lines)
                                                for m, lines in sorted(found.items())))
