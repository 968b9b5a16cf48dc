"""`mypy --strict` over mathcards/, examples/ and every file of widgets/ (issue 39 item 4:
typed to the edges): the suite fails on a new type error, not only `make lint`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_config_checks_every_widgets_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert {"mathcards", "examples", "widgets"} <= set(config["files"])


def test_mypy_strict_is_clean_over_mathcards_examples_and_widgets() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    checked = re.search(r"no issues found in (\d+) source files", run.stdout)
    assert checked is not None, run.stdout
    sources = [p for folder in ("mathcards", "examples", "widgets")
               for p in (ROOT / folder).rglob("*.py")]
    widgets = list((ROOT / "widgets").glob("*.py"))
    assert len(widgets) > 20  # the views, the tables, the server's parts
    assert int(checked.group(1)) >= len(sources)


def test_each_games_state_names_the_actions_of_its_game() -> None:
    """``State[Game, Action]``: the action union a state declares is exactly the classes
    of its game's ``actions`` (what saves and the rules use), for every registered game."""
    import typing

    from mathcards.games.base import State
    from mathcards.games.registry import game_spec
    from tests.registered import every_game

    for name in every_game():
        engine = game_spec(name).engine
        state_cls = type(engine(num_players=max(2, engine.min_players)).new_game(1))
        base = next(b for b in state_cls.__orig_bases__  # type: ignore[attr-defined]
                    if typing.get_origin(b) is State)
        _game, action = typing.get_args(base)
        declared = set(typing.get_args(action)) or {action}
        assert declared == set(engine.actions.values()), name


def test_mypy_refuses_another_games_action_and_types_the_legal_ones(tmp_path: Path) -> None:
    """mypy itself: a Sums state takes only Sums actions, and its legal actions are typed
    (a wrong use is an error; the right use, beside it, is none)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from mathcards.games.dice_stacks import Roll\n"
        "from mathcards.games.sums import Draw, SumsState\n"
        "def right(s: SumsState) -> SumsState:\n"
        "    for action in s.legal_actions():\n"
        "        if isinstance(action, Draw):\n"
        "            return s.apply(action)\n"
        "    return s.apply(Draw(0))\n"
        "def wrong(s: SumsState) -> None:\n"
        "    s.apply(Roll())\n"
        "    n: int = next(iter(s.legal_actions()))\n",
        encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--follow-imports=silent", str(probe)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=False)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, run.stdout
    assert "probe.py:9:" in errors[0] and "arg-type" in errors[0], errors
    assert "probe.py:10:" in errors[1] and "assignment" in errors[1], errors
