"""The ``mathcards`` command: ``python -m mathcards check FILE...`` checks exercise sets;
``python -m mathcards teacher-key`` prints the key that opens the teacher's pages;
``python -m mathcards rooms GAME PLAYERS COUNT`` makes room codes for a class;
``python -m mathcards hub-service`` is the service a JupyterHub runs (``mathcards.hub``);
``python -m mathcards new-game NAME`` writes a new game's folder (``mathcards.scaffold``).

Every problem is printed on one line, ``FILE: line N: ...`` with a fix; the
exit code is 0 when every file is clean, 1 when any has a problem, 2 for a
usage mistake. It never prints a traceback: an unexpected failure is one line
too (exit code 3), so a teacher always sees what to do next.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Sequence
from typing import TextIO

# each command: its usage line and what it does (``--help`` after a command prints these)
COMMANDS = {
    "check": (
        "check FILE [FILE ...]",
        ("check: checks exercise sets (YAML) before class: every problem with its line and "
         "a fix.")),
    "teacher-key": (
        "teacher-key [--url BASE]",
        ("teacher-key: prints the key that opens the teacher's pages on Voila (made on first\n"
         "use; MATHCARDS_TEACHER_KEY overrides it); with --url, the teacher's links.")),
    "rooms": (
        "rooms GAME PLAYERS COUNT [--url BASE] [--leave-after SECONDS]",
        # {games}: the registered games' names, filled in when the help is printed
        ("rooms: makes COUNT rooms of GAME ({games}) for PLAYERS players each and prints "
         "their codes (with --url, the links to hand out); the first student in a room starts "
         "it; --leave-after hands a seat whose student left to a bot.")),
    "hub-service": (
        "hub-service [--ip=ADDRESS]",
        ("hub-service: the MathCards service a JupyterHub runs (deploy/README.md): rooms, the\n"
         "variant secret and the class's progress, for students' servers that hold none of them.")),
    "new-game": (
        "new-game NAME [--title TITLE] [--dest DIR]",
        ("new-game: writes DIR/NAME (DIR is examples unless given), a new game that passes\n"
         "every suite for all games as it is; docs/new_game.md says what to change first.")),
}


def _help_text(text: str) -> str:
    """A command's help as printed: the games' names from the registry (only when asked
    for: they import every game), wrapped."""
    if "{games}" not in text:
        return text
    from mathcards.games.registry import game_names

    return textwrap.fill(text.format(games=", ".join(game_names())), width=84)


def usage() -> str:
    """Every command's usage line, then what each does."""
    return ("usage: " + "\n       ".join(f"python -m mathcards {line}"
                                         for line, _ in COMMANDS.values())
            + "\n\n" + "\n".join(_help_text(text) for _, text in COMMANDS.values()) + "\n")
HELP_FLAGS = ("-h", "--help")
TEACHER_PAGES = ("write_set.ipynb", "classes.ipynb", "assignment.ipynb", "dashboard.ipynb",
                 "teachers.ipynb")


def command_usage(command: str) -> str:
    """One command's usage line and what it does."""
    line, text = COMMANDS[command]
    return f"usage: python -m mathcards {line}\n\n{_help_text(text)}\n"


def teacher_key(rest: Sequence[str], out: TextIO | None = None) -> int:
    from urllib.parse import quote

    from mathcards.errors import MathCardsError
    from mathcards.keys import teacher_key as key

    out = out or sys.stdout
    if rest and (rest[0] != "--url" or len(rest) != 2):
        print(f"teacher-key takes only --url BASE\n{usage()}", end="", file=sys.stderr)
        return 2
    try:
        value = key()
    except MathCardsError as exc:
        print(f"cannot make the teacher's key: {exc}", file=sys.stderr)
        return 1
    if not rest:
        print(value, file=out)
        return 0
    base = rest[1].rstrip("/")
    for page in TEACHER_PAGES:
        print(f"teacher's page: {base}/voila/render/{page}?key={quote(value)}", file=out)
    return 0


def rooms(rest: Sequence[str], out: TextIO | None = None) -> int:
    """Room codes for a class tournament (see ``usage()``)."""
    from mathcards.errors import MathCardsError
    from mathcards.games.registry import find_game, game_names
    from mathcards.hub_client import teacher_rooms

    out = out or sys.stdout
    args, url, leave = list(rest), "", None
    try:
        while "--url" in args or "--leave-after" in args:
            flag = "--url" if "--url" in args else "--leave-after"
            i = args.index(flag)
            value = args[i + 1]
            del args[i:i + 2]
            if flag == "--url":
                url = value.rstrip("/")
            else:
                leave = float(value)
                if not 10 <= leave <= 3600:
                    raise ValueError
        game_name, players, count = args[0], int(args[1]), int(args[2])
        if len(args) != 3 or find_game(game_name) is None or not 1 <= count <= 100:
            raise ValueError
    except (IndexError, ValueError):
        print(f"rooms takes a game ({', '.join(game_names())}), the players per room, how many "
              f"rooms (1-100), and --leave-after 10-3600 seconds\n{usage()}", end="",
              file=sys.stderr)
        return 2
    try:
        codes = teacher_rooms(game_name, players, count, leave_after=leave)
    except (MathCardsError, OSError) as exc:
        print(f"cannot make the rooms: {exc}", file=sys.stderr)
        return 1
    for code in codes:
        link = f"  {url}/voila/render/play_{game_name}.ipynb?room={code}" if url else ""
        print(f"{code}{link}", file=out)
    return 0


def check(paths: Sequence[str], out: TextIO | None = None) -> int:
    from mathcards.exercises import check_file

    out = out or sys.stdout
    status = 0
    for path in paths:
        try:
            problems = check_file(path)
        except Exception as exc:  # noqa: BLE001 - a bug of ours must still be one line, never a traceback
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"{path}: cannot check this file ({first}); please report it", file=out)
            status = max(status, 3)
            continue
        for problem in problems:
            print(f"{path}: {problem}", file=out)
        if problems:
            status = max(status, 1)
            n = len(problems)
            print(f"{path}: {n} problem{'s' if n != 1 else ''}", file=out)
        else:
            print(f"{path}: OK", file=out)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage(), end="")
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command in COMMANDS and any(a in HELP_FLAGS for a in rest):
        print(command_usage(command), end="")  # "check --help" is a question, not a file
        return 0
    if command == "teacher-key":
        return teacher_key(rest)
    if command == "rooms":
        return rooms(rest)
    if command == "new-game":
        from mathcards.scaffold import main as new_game

        return new_game(rest)
    if command == "hub-service":
        from mathcards.hub import serve

        return serve(rest)
    if command != "check":
        print(f"unknown command {command!r}: the commands are 'check', 'teacher-key', "
              "'rooms', 'hub-service' and 'new-game'"
              f"\n{usage()}", end="", file=sys.stderr)
        return 2
    if not rest:
        print(f"give the exercise files to check\n{usage()}", end="", file=sys.stderr)
        return 2
    try:
        return check(rest)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
