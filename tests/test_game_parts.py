"""A game is a folder (issue 39, item 2): its parts are modules with fixed names in its
package, found by those names (``mathcards.games.parts``) and checked against their
Protocols when first loaded."""

from __future__ import annotations

import dataclasses
import importlib
import sys
from pathlib import Path

import pytest

from examples.make_ten import SPEC as MAKE_TEN
from mathcards.errors import SettingsError
from mathcards.games import parts
from mathcards.games.registry import game_specs, registered
from tests.registered import every_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", every_game())
def test_each_part_of_a_game_is_the_module_of_that_name_in_its_folder(game):
    spec = next(s for s in game_specs() if s.name == game)
    folder = ROOT / Path(*parts.home(spec).split("."))
    assert (folder / "__init__.py").is_file()
    for part in parts.PARTS:
        there = (folder / f"{part}.py").is_file()
        assert bool(parts.part_path(spec, part)) == there, (game, part)
    moments = parts.moments_part(spec)
    exercises = parts.exercises_part(spec)
    explainer = parts.explain_part(spec)
    for found, protocol in ((moments, parts.MomentsPart), (exercises, parts.ExercisesPart),
                            (explainer, parts.ExplainPart)):
        assert found is None or isinstance(found, protocol)
    # every built-in game has moments and exercise kinds of its own
    if spec.engine.__module__.startswith("mathcards.games."):
        assert moments is not None and exercises is not None and exercises.KINDS


def test_a_game_folder_outside_mathcards_gets_its_parts_by_their_names_alone(tmp_path,
                                                                           monkeypatch):
    """A new folder with a moments.py and an exercises.py: the registration names neither,
    and MathCards finds both; a broken part is one line naming the game and the piece."""
    pkg = tmp_path / "ten_parts"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "moments.py").write_text(
        "def moment(before, after, names, here):\n    return None\n")
    (pkg / "exercises.py").write_text("KINDS = ()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = dataclasses.replace(MAKE_TEN, package="ten_parts")
    with registered(spec):
        assert parts.part_path(spec, "moments") == "ten_parts.moments"
        assert parts.part_path(spec, "questions") == ""
        found = parts.moments_part(spec)
        assert found is not None and found.moment(None, None, (), ()) is None
        exercises = parts.exercises_part(spec)
        assert exercises is not None and tuple(exercises.KINDS) == ()
    # the engine's own package when no package is given: make_ten's folder has none of them
    assert parts.home(MAKE_TEN) == "examples.make_ten"
    assert [parts.part_path(MAKE_TEN, p) for p in parts.PARTS] == ["", "", "", ""]


@pytest.mark.parametrize(("part", "text", "words"), [
    ("moments", "def not_moment():\n    pass\n", "has no function moment"),
    ("moments", "moment = 3\n", "moment in its moments.py is not a function"),
    ("exercises", "KINDS = 'FindCapture'\n", "must be a tuple of exercise kind classes"),
    ("exercises", "kinds = ()\n", "has no KINDS"),
    ("explain", "def steps(events):\n    return []\n", "has no function steps_for_events"),
])
def test_a_broken_part_is_refused_in_one_line_naming_the_game(tmp_path, monkeypatch, part,
                                                              text, words):
    name = f"broken_{part}_{abs(hash(text)) % 10_000}"
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / f"{part}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    spec = dataclasses.replace(MAKE_TEN, package=name)
    load = {"moments": parts.moments_part, "exercises": parts.exercises_part,
            "explain": parts.explain_part}[part]
    try:
        with pytest.raises(SettingsError) as refused:
            load(spec)
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == name]:
            del sys.modules[module]
    message = str(refused.value)
    assert "make_ten" in message and words in message and "\n" not in message


def test_a_part_that_is_not_one_of_the_fixed_names_is_refused():
    with pytest.raises(ValueError, match="questions, exercises, moments, explain"):
        parts.part_path(MAKE_TEN, "view")
