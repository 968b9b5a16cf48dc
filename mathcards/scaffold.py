"""A new game's folder from a template: ``python -m mathcards.scaffold NAME``.

``python -m mathcards.scaffold add_up --title "Add Up"`` (or ``mathcards new-game add_up``,
or ``make game NAME=add_up``) writes ``examples/add_up/``: a tiny but whole game, each part
under the name MathCards looks for (``docs/new_game.md`` says what each file is and what
to change first):

- ``__init__.py``: its one registration, ``SPEC`` (a ``GameSpec``);
- ``rules.py``: the engine (settings, actions, events, the state, ``why_illegal``,
  ``parse_move``, ``strong_policy``);
- ``moments.py``: the game-over moment its table shows;
- ``view.py``: its table's view (HTML from ``mathcards.widgets.cards``, no widgets);
- ``conformance.py``: the settings the conformance suite plays and the scores worked out
  from the events;
- ``pytest_plugin.py``: registers the game for a test run (``python -m pytest -p
  examples.add_up.pytest_plugin -k add_up tests/...`` runs the suites for all games on it);
- ``play_NAME.ipynb``: its play page, to copy into ``lessons/``.

The folder passes every suite written for all games as it is (``tests/test_scaffold.py``
scaffolds one in a copy of the repository, registers it and runs them). The command writes
the new folder only, never another file. A bad name (not a word of small letters, digits
and ``_``, or a Python keyword), a taken name (a game MathCards has) or an existing folder
is refused with one line and exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from string import Template

TEMPLATES = Path(__file__).with_name("scaffold_template")
# template file -> the file it becomes in the game's folder
FILES = {
    "__init__.py.tmpl": "__init__.py",
    "rules.py.tmpl": "rules.py",
    "moments.py.tmpl": "moments.py",
    "view.py.tmpl": "view.py",
    "conformance.py.tmpl": "conformance.py",
    "pytest_plugin.py.tmpl": "pytest_plugin.py",
    "play.ipynb.tmpl": "play_{name}.ipynb",
}
NAME = re.compile(r"[a-z][a-z0-9_]{0,19}")  # at most 20: the lines stay short
TITLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '\-]{0,39}")


class ScaffoldError(ValueError):
    """A name, title or folder the scaffold refuses (one line, what would work)."""


def check_name(name: str) -> None:
    """Refuse a name that is not a word of small letters, digits and _, a Python keyword,
    or the name of a game MathCards has."""
    if not NAME.fullmatch(name) or not name.isidentifier():
        raise ScaffoldError(f"{name!r} cannot be a game's name: use at most 20 small "
                            "letters, digits and _, starting with a letter, like 'add_up'")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise ScaffoldError(f"{name!r} is a word of Python: choose another name, like 'add_up'")
    from mathcards.games.registry import game_names

    if name in game_names():
        raise ScaffoldError(f"a game named {name!r} is already registered: choose another name")


def deal_code(name: str) -> str:
    """The deal code's first word: the name's letters in capitals (at most 6), a digit
    added when a registered game already has it."""
    from mathcards.games.registry import game_specs

    taken = {s.code for s in game_specs()}
    base = re.sub(r"[^a-z0-9]", "", name).upper()[:6]
    code, n = base, 2
    while code in taken:
        code, n = f"{base}{n}", n + 1
    return code


def package_for(folder: Path) -> str:
    """The dotted name ``folder`` is imported by: its path from the current folder
    (``examples/add_up`` -> ``examples.add_up``), or its own name when it is elsewhere
    (then its parent folder must be on ``sys.path``)."""
    folder = folder.resolve()
    try:
        parts = folder.relative_to(Path.cwd().resolve()).parts
    except ValueError:
        parts = (folder.name,)
    if not all(p.isidentifier() and not keyword.iskeyword(p) for p in parts):
        raise ScaffoldError(f"{folder} cannot be imported as a package: every folder of its "
                            "path needs a name like 'examples'")
    return ".".join(parts)


def render(name: str, title: str, package: str, code: str) -> dict[str, str]:
    """Every file of the new game: its name in the folder -> its text."""
    camel = "".join(part.capitalize() for part in name.split("_") if part)
    values = {"name": name, "Name": camel, "title": title, "package": package, "code": code}
    files = {}
    for source, target in FILES.items():
        text = (TEMPLATES / source).read_text(encoding="utf-8")
        if source.endswith(".ipynb.tmpl"):  # inside JSON strings
            values_here = {k: json.dumps(v)[1:-1] for k, v in values.items()}
        else:
            values_here = values
        files[target.format(name=name)] = Template(text).substitute(values_here)
    return files


def scaffold(name: str, title: str = "", dest: Path | str = "examples") -> Path:
    """Write the new game ``name`` into ``dest/name`` and return that folder;
    ScaffoldError (nothing written) for a bad or taken name or an existing folder."""
    check_name(name)
    title = title or name.replace("_", " ").strip().title()
    if not TITLE.fullmatch(title):
        raise ScaffoldError(f"{title!r} cannot be a title: use letters, digits, spaces, ' "
                            "and -, at most 40 characters, like 'Add Up'")
    folder = Path(dest) / name
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists: choose another name or --dest")
    files = render(name, title, package_for(folder), deal_code(name))
    folder.mkdir(parents=True)
    for target, text in files.items():
        (folder / target).write_text(text, encoding="utf-8")
    return folder


USAGE = "python -m mathcards.scaffold NAME [--title TITLE] [--dest DIR]"


def main(argv: Sequence[str] | None = None) -> int:
    """The command: 0 when the folder is written, 2 (one line, nothing written) when not."""
    parser = argparse.ArgumentParser(
        prog="python -m mathcards.scaffold", usage=USAGE,
        description="Write a new game's folder (DIR/NAME, DIR is examples unless given) "
                    "that passes every suite for all games as it is.")
    parser.add_argument("name", help="the game's short name, like add_up")
    parser.add_argument("--title", default="", help='the title students read, like "Add Up"')
    parser.add_argument("--dest", default="examples", help="the folder to write it in")
    args = parser.parse_args(argv)
    try:
        folder = scaffold(args.name, args.title, args.dest)
    except (ScaffoldError, OSError) as exc:
        print(f"cannot make the game: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {folder}/ ({', '.join(sorted(p.name for p in folder.iterdir()))}): "
          "docs/new_game.md says what to change first", file=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
