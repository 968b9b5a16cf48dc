"""The ``mathcards`` command: ``python -m mathcards check FILE...`` checks exercise sets.

Every problem is printed on one line, ``FILE: line N: ...`` with a fix; the
exit code is 0 when every file is clean, 1 when any has a problem, 2 for a
usage mistake. It never prints a traceback: an unexpected failure is one line
too (exit code 3), so a teacher always sees what to do next.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: python -m mathcards check FILE [FILE ...]

Checks exercise sets (YAML) before class: every problem with its line and a fix.
"""


def check(paths: Sequence[str], out=None) -> int:
    from mathcards.exercises import check_file

    out = out or sys.stdout
    status = 0
    for path in paths:
        try:
            problems = check_file(path)
        except Exception as exc:  # a bug of ours must still be one line, never a traceback
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
        print(USAGE, end="")
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command != "check":
        print(f"unknown command {command!r}: the command is 'check'\n{USAGE}", end="",
              file=sys.stderr)
        return 2
    if not rest:
        print(f"give the exercise files to check\n{USAGE}", end="", file=sys.stderr)
        return 2
    try:
        return check(rest)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
