"""The scaffold command (issue 39 item 2): a new game's folder passes every suite written
for all games as it is.

``new_game_in_a_copy`` copies the repository (its tracked files) to a temporary folder,
runs ``python -m mathcards.scaffold`` there as a person would, and checks that the new
folder is the only change (``git status``). The game is then registered as an outside game
is (``register_game(SPEC)``, by the pytest plugin the scaffold wrote in its folder, as
docs/new_game.md says) and the copy's own all-games suites are run on it in a subprocess: they
find it through the registry (``tests/registered.py``) like any game, so nothing but the
registration says its name. The copy's ``mathcards`` is the one imported (checked): the
editable install points at this checkout, which ``PYTHONPATH`` overrides.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mathcards import scaffold

REPO = Path(__file__).resolve().parents[1]
NAME = "add_up"
# every test file with a test for all games that the new game is a case of (each asks the
# registry or tests/registered.py; `pytest --collect-only -k add_up tests` lists them)
SUITES = (
    "tests/test_conformance.py",  # seeded and hypothesis playouts, bots, corrupted saves
    "tests/games/test_event_wording.py",
    "tests/test_table_controller.py",  # whole games by clicks, typed moves
    "tests/test_table_value.py",
    "tests/widgets/test_clicks.py",
    "tests/widgets/test_wording.py",
    "tests/widgets/test_student_words.py",
    "tests/widgets/test_deal_privacy.py",
    "tests/test_rooms.py",
    "tests/test_i18n.py",
)
# tests for all games that loop over the registry without a case per game
LOOPS = ("tests/test_typing.py::test_each_games_state_names_the_actions_of_its_game",)


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def copy_env(copy: Path, *more: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (copy, *more))
    env.pop("PYTEST_ADDOPTS", None)
    return env


def copy_repository(dest: Path) -> Path:
    """The tracked files of this checkout, as they are now, in a new git repository."""
    files = run(["git", "ls-files", "-z"], REPO).stdout.split("\0")
    for name in filter(None, files):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the copy"]):
        assert run([*git, *args], dest).returncode == 0
    return dest


def new_game_in_a_copy(dest: Path) -> Path:
    """A copy of the repository with ``examples/add_up`` made by the command."""
    copy = copy_repository(dest)
    made = run([sys.executable, "-m", "mathcards.scaffold", NAME, "--title", "Add Up"], copy,
               copy_env(copy))
    assert made.returncode == 0, made.stderr
    assert f"examples/{NAME}/" in made.stdout
    return copy


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return new_game_in_a_copy(tmp_path_factory.mktemp("repository"))


def test_the_command_writes_the_new_folder_and_nothing_else(copy):
    status = run(["git", "status", "--porcelain", "--untracked-files=all"], copy).stdout
    written = sorted(line.removeprefix("?? ") for line in status.splitlines())
    assert written == sorted(f"examples/{NAME}/{f}" for f in (
        "__init__.py", "rules.py", "moments.py", "view.py", "conformance.py",
        "pytest_plugin.py", f"play_{NAME}.ipynb")), status
    code = "import mathcards, examples.add_up as g; print(mathcards.__file__, g.__file__)"
    found = run([sys.executable, "-c", code], copy, copy_env(copy))
    assert [Path(line).resolve().is_relative_to(copy.resolve())
            for line in found.stdout.split()] == [True, True], found


def test_the_new_game_is_ruff_and_mypy_strict_clean(copy, tmp_path):
    folder = f"examples/{NAME}"
    ruff = run([str(Path(sys.executable).with_name("ruff")), "check", "--no-cache", folder],
               copy)
    assert ruff.returncode == 0, ruff.stdout
    mypy = run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), folder],
               copy, copy_env(copy))  # the copy's pyproject.toml: strict
    assert mypy.returncode == 0 and "Success" in mypy.stdout, mypy.stdout


def run_all_games_suites(root: Path, package: str, name: str, report: Path) -> dict[str, int]:
    """Run the suites for all games in ``root`` on the game ``name``, registered by
    ``package``'s pytest plugin; how many cases of it each test file ran (all passed)."""
    result = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  "-p", f"{package}.pytest_plugin", f"--junitxml={report}", "-k",
                  f"{name} or test_each_games_state_names_the_actions_of_its_game",
                  *SUITES, *LOOPS], root, copy_env(root), timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    ran: dict[str, int] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        assert not any(child.tag in ("failure", "error", "skipped") for child in case), \
            ET.tostring(case, encoding="unicode")[:2000]
        source = case.get("classname", "").replace(".", "/") + ".py"
        ran[source] = ran.get(source, 0) + 1
    # every suite had a case of the game (a suite that stopped finding it fails here)
    assert sorted(ran) == sorted([*SUITES, *(loop.partition("::")[0] for loop in LOOPS)]), ran
    assert ran["tests/test_conformance.py"] >= 4 and ran["tests/test_table_controller.py"] >= 3
    return ran


def test_the_new_game_passes_every_all_games_suite(copy, tmp_path):
    run_all_games_suites(copy, f"examples.{NAME}", NAME, tmp_path / "report.xml")


@pytest.mark.parametrize("name, why", [
    ("Add_Up", "cannot be a game's name"), ("1up", "cannot be a game's name"),
    ("add-up", "cannot be a game's name"), ("a" * 21, "cannot be a game's name"),
    ("class", "is a word of Python"), ("match", "is a word of Python"),
    ("sums", "already registered"),
])
def test_a_bad_or_taken_name_is_refused_in_one_line_and_nothing_is_written(
        tmp_path, capsys, name, why):
    assert scaffold.main([name, "--dest", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert why in err and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_refused_and_left_as_it_was(tmp_path, capsys):
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "notes.txt").write_text("mine", encoding="utf-8")
    assert scaffold.main([NAME, "--dest", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / NAME).iterdir()] == ["notes.txt"]
    assert scaffold.main([NAME, "--title", 'Add "Up"', "--dest", str(tmp_path / "b")]) == 2
    assert "cannot be a title" in capsys.readouterr().err and not (tmp_path / "b").exists()


def test_the_docs_name_every_file_it_writes_and_every_suite_it_runs():
    """docs/new_game.md's table of the files and its command for the suites say what the
    scaffold writes and what this test runs."""
    import re

    doc = (REPO / "docs" / "new_game.md").read_text(encoding="utf-8")
    files = re.findall(r"^\| `([\w.]+)` \|", doc, flags=re.MULTILINE)
    assert files == [target.format(name=NAME) for target in scaffold.FILES.values()]
    command = doc[doc.index(f"python -m pytest -p examples.{NAME}.pytest_plugin"):]
    command = command[:command.index("```")]
    assert re.findall(r"tests/[\w/]+\.py", command) == list(SUITES)
    assert f"python -m mathcards.scaffold {NAME}" in doc and f"make game NAME={NAME}" in doc


def test_mathcards_new_game_is_the_same_command(tmp_path, capsys):
    from mathcards.__main__ import main

    assert main(["new-game", "class", "--dest", str(tmp_path)]) == 2
    assert "is a word of Python" in capsys.readouterr().err
    assert main(["new-game", NAME, "--title", "Add Up", "--dest", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {tmp_path / NAME}/")
    assert sorted(p.name for p in (tmp_path / NAME).iterdir()) == sorted(
        target.format(name=NAME) for target in scaffold.FILES.values())
    rules = (tmp_path / NAME / "rules.py").read_text(encoding="utf-8")
    assert 'title: ClassVar[str] = "Add Up"' in rules and "class AddUp(Game):" in rules
    assert 'code="ADDUP"' in (tmp_path / NAME / "__init__.py").read_text(encoding="utf-8")
