"""Teacher-authored exercises: write a set in YAML, every student gets a variant, results come back.

>>> from mathcards.exercises import Exercise
>>> Exercise("who_takes_trick", trick="G12 G3 R3").check("R3").correct
True

``load_set(path)`` reads a set file (see ``model`` for the format and why it
is YAML); ``set.show(student)`` is the widget view; ``python -m mathcards
check FILE`` reports every problem of a file with its line. Progress is kept
in SQLite (``ProgressStore``) and exported as CSV for the teacher's dashboard.
"""

from typing import Any

from mathcards.exercises.kinds import KINDS, AnswerError, Kind, Result
from mathcards.exercises.loader import (
    check_file,
    load_set,
    load_set_text,
    read_set_file,
    read_set_text,
)
from mathcards.exercises.model import (
    Constraint,
    Exercise,
    ExerciseFileError,
    ExerciseSet,
    Problem,
    Variant,
    VariantError,
    variant_seed,
)


def __getattr__(name: str) -> Any:
    # progress and sessions load sqlite3 only when asked for
    if name in ("ProgressStore", "Attempt", "read_csv", "default_progress_path"):
        from mathcards.exercises import progress

        return getattr(progress, name)
    if name == "Session":
        from mathcards.exercises.session import Session

        return Session
    raise AttributeError(f"module 'mathcards.exercises' has no attribute {name!r}")


__all__ = [
    "KINDS", "AnswerError", "Attempt", "Constraint", "Exercise", "ExerciseFileError",
    "ExerciseSet", "Kind", "Problem", "ProgressStore", "Result", "Session", "Variant",
    "VariantError", "check_file", "default_progress_path", "load_set", "load_set_text",
    "read_csv", "read_set_file", "read_set_text", "variant_seed",
]
