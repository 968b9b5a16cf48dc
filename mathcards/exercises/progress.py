"""Every attempt a student makes, kept in SQLite so nothing is lost; exported as CSV.

The database is one file, by default ``progress.sqlite3`` in the user's data
folder (``mathcards.storage.data_dir()``). The location is a setting: pass
``path`` to ``ProgressStore``, or set ``MATHCARDS_PROGRESS`` to a file (a hub's
shared volume, say). Each attempt is written in its own transaction
(``BEGIN IMMEDIATE`` ... ``COMMIT``), the journal is WAL and every connection
waits up to ``busy_timeout`` for another writer, so two tabs (two kernels,
two processes) writing at once both keep their attempts.

The ``solutions`` table keeps each opening of a worked solution (``record_solution``,
``solutions``): the teacher's grid shows it, and an answer typed after it is not counted
as the student's own solve. A file written before it existed opens and gains it.

Next to the attempts, the ``answers`` table keeps every ``mathcards.asking.Answer``: each
question a table asked during play and each exercise attempt named by its skill
(``record_answer``, ``answers``; ``export_answers_csv`` and ``import_answers_csv`` as
for attempts). A file written before the table existed opens as it is and gains it.

The ``level_changes`` table keeps each ``mathcards.asking.LevelChange``: a student who
stepped down to "Show me the sums" at a table, or back up (``record_level``,
``level_changes``; ``export_levels_csv`` and ``import_levels_csv`` as for attempts); the
teacher's skill grid shows them and its download gives them as ``levels.csv``. A file
written before it existed opens and gains it (every table is created when missing: no other
migration).

CSV export writes one row per attempt with the columns of ``Attempt``;
``read_csv`` reads it back to equal ``Attempt`` records, and
``ProgressStore.import_csv`` merges files (each attempt has a unique ``uid``,
so importing twice adds nothing).

Where Python has no ``sqlite3`` (the static site's browser kernel, Pyodide), the store
keeps the same four tables in a JSON file beside it (``progress.json``, written whole
after each transaction, ``JsonTables``): on the static site it lies on JupyterLite's
drive, kept in the browser across reloads.

On a hub each student's server writes its own database (``MATHCARDS_PROGRESS``
pointing into the student's own folder of a shared volume) and the teacher's
dashboard reads the whole class folder (``MATHCARDS_CLASS_PROGRESS``), so no
two students ever write, or can read, one file (deploy/README.md).
"""

from __future__ import annotations

import csv
import io
import json
import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from mathcards import storage
from mathcards.asking import LEVELS, Answer, LevelChange
from mathcards.errors import MathCardsError

ENV_VAR = "MATHCARDS_PROGRESS"
# The folder the teacher's dashboard reads when it is given none: the students'
# progress databases, each in it or in a folder of its own (a hub's shared volume).
CLASS_ENV = "MATHCARDS_CLASS_PROGRESS"
FILE_NAME = "progress.sqlite3"
JSON_FILE_NAME = "progress.json"
BUSY_TIMEOUT_MS = 30_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    student TEXT NOT NULL,
    set_id TEXT NOT NULL,
    set_title TEXT NOT NULL,
    exercise TEXT NOT NULL,
    number INTEGER NOT NULL,
    kind TEXT NOT NULL,
    variant TEXT NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    score REAL NOT NULL,
    hints_used INTEGER NOT NULL,
    seconds REAL NOT NULL,
    set_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS attempts_by_student ON attempts (student, set_id, exercise);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    student TEXT NOT NULL,
    game TEXT NOT NULL,
    skill TEXT NOT NULL,
    prompt TEXT NOT NULL,
    numbers TEXT NOT NULL,
    expected TEXT NOT NULL,
    given TEXT NOT NULL,
    right INTEGER NOT NULL,
    slip TEXT NOT NULL,
    seconds REAL NOT NULL,
    level TEXT NOT NULL,
    source TEXT NOT NULL,
    question TEXT NOT NULL DEFAULT '',
    attempt INTEGER NOT NULL DEFAULT 1,
    hints INTEGER NOT NULL DEFAULT 0,
    rule TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS answers_by_student ON answers (student, skill);
CREATE TABLE IF NOT EXISTS level_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    student TEXT NOT NULL,
    game TEXT NOT NULL,
    before TEXT NOT NULL,
    after TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS solutions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    student TEXT NOT NULL,
    set_id TEXT NOT NULL,
    exercise TEXT NOT NULL,
    number INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    student TEXT NOT NULL,
    game TEXT NOT NULL,
    level TEXT NOT NULL,
    won INTEGER NOT NULL
);
"""


class ProgressError(MathCardsError):
    """A progress file or export that cannot be read or written."""


@dataclass(frozen=True)
class Attempt:
    """One answer a student gave: who, which exercise and variant, what, right or not."""

    uid: str
    at: str  # ISO 8601 UTC time
    student: str
    set_id: str
    set_title: str
    exercise: str  # the exercise's id
    number: int  # its place in the set (1 = first)
    kind: str
    variant: str  # the position the student saw, in card notation
    answer: str
    correct: bool
    score: float
    hints_used: int
    seconds: float
    # the version of the set answered (mathcards.exercises.store): an attempt stored
    # before versions were kept answered version 1
    set_version: int = 1

    @classmethod
    def new(cls, **values: Any) -> Attempt:
        return cls(**_stamped(values))


def _stamped(values: dict[str, Any]) -> dict[str, Any]:
    """A new record's values with a unique ``uid`` and the time now, unless given."""
    values.setdefault("uid", uuid.uuid4().hex)
    values.setdefault("at", datetime.now(timezone.utc).isoformat(timespec="milliseconds"))
    return values


@dataclass(frozen=True)
class FinishedGame:
    """A game a student played to its end at a table (the assignments count them): which
    game, at which level of help, won or not."""

    uid: str
    at: str  # ISO 8601 UTC time
    student: str
    game: str
    level: str
    won: bool

    @classmethod
    def new(cls, **values: Any) -> FinishedGame:
        return cls(**_stamped(values))


GAME_COLUMNS = ("uid", "at", "student", "game", "level", "won")


def finished_game_from_row(row: Sequence[Any]) -> FinishedGame:
    values = dict(zip(GAME_COLUMNS, row, strict=True))
    values["won"] = bool(values["won"])
    return FinishedGame(**values)


@dataclass(frozen=True)
class SolutionOpened:
    """A student opened an exercise's worked solution (the dashboard shows it, and an
    answer given after it is not a solve of the student's own)."""

    uid: str
    at: str  # ISO 8601 UTC time
    student: str
    set_id: str
    exercise: str
    number: int

    @classmethod
    def new(cls, **values: Any) -> SolutionOpened:
        return cls(**_stamped(values))


COLUMNS = tuple(f.name for f in fields(Attempt))
# columns a file written before them lacks, and the value its rows have (a database gains
# them when opened for writing; a reader of the old form gives them their old value)
ADDED_COLUMNS: dict[str, dict[str, int | str]] = {
    "attempts": {"set_version": 1},
    # an answer kept before tries were: its own question ("": grouped by its prompt when
    # read, ``mathcards.exercises.skill_grid.questions_of``), the first try, no hint known,
    # not a refusal
    "answers": {"question": "", "attempt": 1, "hints": 0, "rule": ""},
}
SOLUTION_COLUMNS = tuple(f.name for f in fields(SolutionOpened))
LEVEL_COLUMNS = ("uid", "at", "student", "game", "before", "after")
# The answers table's columns, in the order of CSV exports (``numbers`` as "3 -5").
OLD_ANSWER_COLUMNS = ("uid", "at", "student", "game", "skill", "prompt", "numbers",
                      "expected", "given", "right", "slip", "seconds", "level", "source")
ANSWER_COLUMNS = (*OLD_ANSWER_COLUMNS, "question", "attempt", "hints", "rule")
# an answers CSV: the stored columns and "seen" (yes: the result was shown before the
# answer); an export made before tries were kept has OLD_ANSWER_COLUMNS only
ANSWER_CSV_COLUMNS = (*OLD_ANSWER_COLUMNS[:-1], "seen", "source", "question", "attempt",
                      "hints", "rule")


def default_progress_path() -> Path:
    """Where progress is kept: ``$MATHCARDS_PROGRESS``, else the user's data folder."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    return storage.data_dir() / (FILE_NAME if storage.has_sqlite() else JSON_FILE_NAME)


def class_progress_folder() -> Path | None:
    """The class's progress folder (``$MATHCARDS_CLASS_PROGRESS``), or None when unset."""
    configured = os.environ.get(CLASS_ENV)
    return Path(configured).expanduser() if configured else None


class JsonTables:
    """The progress tables in one JSON file, for a Python without ``sqlite3`` (Pyodide):
    rows keep the order written (``id`` counts from 1), a row whose ``uid`` is present is
    skipped, and the file is replaced whole after each transaction (a few thousand rows
    at most: one student's own progress)."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.tables: dict[str, list[dict[str, Any]]] = {
            "attempts": [], "answers": [], "solutions": [], "level_changes": [], "games": []}
        if path.exists() or read_only:
            try:
                stored = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(stored, dict) or not isinstance(stored.get("attempts"), list):
                    raise ValueError("no attempts in it")
                for table in self.tables:
                    self.tables[table] = [dict(row) for row in stored.get(table, [])]
            except (OSError, ValueError, TypeError, AttributeError) as exc:
                raise ProgressError(f"{path.name} is not a MathCards progress file ({exc}): "
                                    "move it aside") from None
        self._uids = {table: {row.get("uid") for row in rows}
                      for table, rows in self.tables.items()}

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Rows inserted inside are written to the file when it ends (not on an error)."""
        saved = {table: list(rows) for table, rows in self.tables.items()}
        try:
            yield
        except BaseException:
            self.tables = saved
            self._uids = {t: {row.get("uid") for row in rows} for t, rows in saved.items()}
            raise
        self.path.parent.mkdir(parents=True, exist_ok=True)
        spare = self.path.with_name(self.path.name + ".tmp")
        spare.write_text(json.dumps(self.tables), encoding="utf-8")
        os.replace(spare, self.path)

    def insert(self, table: str, row: dict[str, Any]) -> None:
        if row["uid"] in self._uids[table]:
            return
        rows = self.tables[table]
        rows.append({**row, "id": (rows[-1]["id"] + 1) if rows else 1})
        self._uids[table].add(row["uid"])

    def select(self, table: str, columns: Sequence[str], filters: dict[str, Any],
               after: int = 0) -> list[tuple[Any, ...]]:
        """(id, *columns) of the rows after row ``after`` whose columns equal the filters."""
        wanted = {column: value for column, value in filters.items() if value is not None}
        added = ADDED_COLUMNS.get(table, {})
        return [(row["id"], *(row[column] if column in row else added[column]
                              for column in columns))
                for row in self.tables[table]
                if row["id"] > after and all(row[c] == v for c, v in wanted.items())]

    def count(self, table: str) -> int:
        return len(self.tables[table])


class ProgressStore:
    """The attempts database: ``record`` one attempt, read them back, export CSV.

    SQLite where Python has it; a ``JsonTables`` file where it has not (the browser), or
    for a path ending in ``.json``."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_progress_path()
        self._lock = threading.Lock()
        self._json: JsonTables | None = None
        if self.path.suffix == ".json" or not storage.has_sqlite():
            self._json = JsonTables(self.path.with_suffix(".json"))
            return
        import sqlite3

        try:
            self._conn = storage.open_database(self.path, timeout=BUSY_TIMEOUT_MS / 1000)
            with storage.write_transaction(self._conn, self._lock):
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self._conn.execute(statement)
                _add_missing_columns(self._conn)
        except sqlite3.DatabaseError as exc:
            raise ProgressError(f"cannot use {self.path} for progress ({exc}): move it aside "
                                f"or set {ENV_VAR} to another file") from None

    # --- writing -------------------------------------------------------------------------
    @contextmanager
    def _transaction(self) -> Iterator[None]:
        if self._json is not None:
            with self._lock, self._json.transaction():
                yield
        else:
            with storage.write_transaction(self._conn, self._lock):
                yield

    def _insert_row(self, table: str, columns: Sequence[str], row: dict[str, Any]) -> None:
        """One row, inside a transaction; one already present (same uid) is skipped."""
        if self._json is not None:
            self._json.insert(table, {c: row[c] for c in columns})
            return
        self._conn.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) "
                           f"VALUES ({', '.join(':' + c for c in columns)})", row)

    def _insert(self, attempt: Attempt) -> None:
        """One attempt's row, inside a transaction; one already present (same uid) is skipped."""
        row = asdict(attempt)
        row["correct"] = int(attempt.correct)
        self._insert_row("attempts", COLUMNS, row)

    def record(self, attempt: Attempt, answer: Answer | None = None) -> Attempt:
        """Write one attempt (and the ``Answer`` that is its evidence, when given) in its own
        transaction (it is on disk when this returns)."""
        with self._transaction():
            self._insert(attempt)
            if answer is not None:
                self._insert_answer(answer)
        return attempt

    def add_many(self, attempts: Iterable[Attempt]) -> int:
        """Merge attempts (an import); ones already present (same uid) are skipped."""
        return self._merge("attempts", attempts, self._insert)

    def _merge(self, table: str, records: Iterable[Any], insert: Any) -> int:
        """Insert records in one transaction; how many were new (not the same uid)."""
        before = self._count(table)
        with self._transaction():
            for record in records:
                insert(record)
        return self._count(table) - before

    def _insert_answer(self, answer: Answer) -> None:
        self._insert_row("answers", ANSWER_COLUMNS, _answer_row(answer))

    def record_answer(self, answer: Answer) -> Answer:
        """Write one answer (a table's question or an exercise) in its own transaction."""
        with self._transaction():
            self._insert_answer(answer)
        return answer

    def add_answers(self, answers: Iterable[Answer]) -> int:
        """Merge answers (an import); ones already present (same uid) are skipped."""
        return self._merge("answers", answers, self._insert_answer)

    def record_solution(self, opened: SolutionOpened) -> SolutionOpened:
        """Write that a worked solution was opened, in its own transaction."""
        with self._transaction():
            self._insert_row("solutions", SOLUTION_COLUMNS, asdict(opened))
        return opened

    def record_level(self, change: LevelChange) -> LevelChange:
        """Write a change of the level of help at a table, in its own transaction (one
        already present, same uid, is kept as it was)."""
        with self._transaction():
            self._insert_level(change)
        return change

    def record_game(self, game: FinishedGame) -> FinishedGame:
        """Write that the student finished a game, in its own transaction."""
        with self._transaction():
            self._insert_row("games", GAME_COLUMNS, {**asdict(game), "won": int(game.won)})
        return game

    def finished_games(self, student: str | None = None,
                       game: str | None = None) -> list[FinishedGame]:
        """The games finished, in the order they ended, filtered as asked."""
        rows = self._select("games", GAME_COLUMNS, {"student": student, "game": game})
        return [finished_game_from_row(row) for row in rows]

    def _insert_level(self, change: LevelChange) -> None:
        self._insert_row("level_changes", LEVEL_COLUMNS,
                         {c: getattr(change, c) for c in LEVEL_COLUMNS})

    # --- reading -------------------------------------------------------------------------
    def level_changes(self, student: str | None = None,
                      game: str | None = None) -> list[LevelChange]:
        """The changes of level, in the order they were made, filtered as asked."""
        rows = self._select("level_changes", LEVEL_COLUMNS, {"student": student, "game": game})
        return [level_change_from_row(row) for row in rows]

    def solutions(self, *, student: str | None = None,
                  set_id: str | None = None) -> list[SolutionOpened]:
        """The worked solutions opened, in the order they were opened."""
        rows = self._select("solutions", SOLUTION_COLUMNS,
                            {"student": student, "set_id": set_id})
        return [solution_from_row(row) for row in rows]

    def answers(self, student: str | None = None, game: str | None = None,
                skill: str | None = None) -> list[Answer]:
        """Answers in the order they were given, filtered as asked."""
        rows = self._select("answers", ANSWER_COLUMNS,
                            {"student": student, "game": game, "skill": skill})
        return [answer_from_row(row) for row in rows]

    def count_answers(self) -> int:
        return self._count("answers")

    def _select(self, table: str, columns: Sequence[str],
                filters: dict[str, str | None]) -> list[Any]:
        """The rows of ``table`` (in the order written) whose columns equal the filters
        given (a filter of None is no filter)."""
        return [row[1:] for row in self._select_after(table, columns, filters, 0)]

    def _select_after(self, table: str, columns: Sequence[str],
                      filters: dict[str, str | None], after: int) -> list[Any]:
        """(id, *columns) of the rows after row ``after``, filtered, in the order written."""
        if self._json is not None:
            with self._lock:
                return self._json.select(table, columns, filters, after)
        where: list[str] = ["id > ?"]
        args: list[int | str] = [after]
        for column, value in filters.items():
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        sql = (f"SELECT id, {', '.join(columns)} FROM {table} WHERE {' AND '.join(where)} "
               "ORDER BY id")
        with self._lock:
            return list(self._conn.execute(sql, args).fetchall())

    def _count(self, table: str) -> int:
        with self._lock:
            if self._json is not None:
                return self._json.count(table)
            return int(self._conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    def attempts(self, *, student: str | None = None, set_id: str | None = None,
                 exercise: str | None = None) -> list[Attempt]:
        """Attempts in the order they were made, filtered as asked."""
        rows = self._select("attempts", COLUMNS,
                            {"student": student, "set_id": set_id, "exercise": exercise})
        return [attempt_from_row(row) for row in rows]

    def attempts_after(self, row: int, *, student: str | None = None,
                       set_id: str | None = None) -> tuple[list[Attempt], int]:
        """Attempts written after row ``row`` (0: all), and the last row read: a page that
        keeps what it read asks only for what is new (an indexed range, however long
        the student's history)."""
        rows = self._select_after("attempts", COLUMNS,
                                  {"student": student, "set_id": set_id}, row)
        if not rows:
            return [], row
        return [attempt_from_row(r[1:]) for r in rows], int(rows[-1][0])

    def count(self) -> int:
        return self._count("attempts")

    def close(self) -> None:
        if self._json is None:
            with self._lock:
                self._conn.close()

    # --- CSV -----------------------------------------------------------------------------
    def export_csv(self, path: str | Path | None = None, **filters: str | None) -> str:
        """Attempts as CSV text (also written to ``path`` when given)."""
        return _written(attempts_csv(self.attempts(**filters)), path)

    def import_csv(self, path: str | Path) -> int:
        return self.add_many(read_csv(path))

    def export_answers_csv(self, path: str | Path | None = None,
                           **filters: str | None) -> str:
        """Answers as CSV text (also written to ``path`` when given)."""
        return _written(answers_csv(self.answers(**filters)), path)

    def import_answers_csv(self, path: str | Path) -> int:
        return self.add_answers(read_answers_csv(path))

    def add_level_changes(self, changes: Iterable[LevelChange]) -> int:
        """Merge changes of level (an import); ones already present (same uid) are skipped."""
        return self._merge("level_changes", changes, self._insert_level)

    def export_levels_csv(self, path: str | Path | None = None,
                          **filters: str | None) -> str:
        """The changes of the level of help as CSV text (also written to ``path``)."""
        return _written(level_changes_csv(self.level_changes(**filters)), path)

    def import_levels_csv(self, path: str | Path) -> int:
        return self.add_level_changes(read_level_changes_csv(path))


def _written(text: str, path: str | Path | None) -> str:
    """``text``, written to ``path`` first when one is given."""
    if path is not None:
        Path(path).write_text(text, encoding="utf-8", newline="")
    return text


def _numbers_text(numbers: Iterable[int]) -> str:
    return " ".join(str(n) for n in numbers)


def _numbers_of(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split())


def _answer_row(answer: Answer) -> dict[str, Any]:
    row = {c: getattr(answer, c) for c in ANSWER_COLUMNS}
    row["numbers"] = _numbers_text(answer.numbers)
    row["right"] = int(answer.right)
    return row


def _answer_values(values: dict[str, Any]) -> dict[str, Any]:
    """An ``Answer``'s fields from a stored row (old rows: the added columns' values)."""
    for column, value in ADDED_COLUMNS["answers"].items():
        if values.get(column) in (None, ""):
            values[column] = value
    values["attempt"] = int(values["attempt"])
    values["hints"] = int(values["hints"])
    values["question"], values["rule"] = str(values["question"]), str(values["rule"])
    return values


def answer_from_row(row: Sequence[Any]) -> Answer:
    """An ``Answer`` from a database row of ``ANSWER_COLUMNS``."""
    values = dict(zip(ANSWER_COLUMNS, row, strict=True))
    values["numbers"] = _numbers_of(values["numbers"])
    values["right"] = bool(values["right"])
    values["seconds"] = float(values["seconds"])
    return Answer(**_answer_values(values))


def answers_csv(answers: Iterable[Answer]) -> str:
    """Answers as CSV text: one row per answer (a try of a question, or a refusal), the
    columns of ``ANSWER_CSV_COLUMNS``: ``attempt`` the try, ``seen`` yes when its result was
    shown before it."""
    return _csv_of(ANSWER_CSV_COLUMNS, (
        {**_answer_row(a), "right": "yes" if a.right else "no", "seconds": repr(a.seconds),
         "seen": "yes" if a.seen else "no"}
        for a in answers))


def _csv_of(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    """CSV text: a header of ``columns``, then each row's values in that order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(row[c] for c in columns)
    return out.getvalue()


def read_answers_csv(source: str | Path | io.StringIO) -> list[Answer]:
    """Answers from a CSV export of answers (a path or text stream); a bad row names its
    line."""
    def answer(row: dict[str, str]) -> Answer:
        values: dict[str, Any] = {c: row.get(c) for c in ANSWER_COLUMNS}
        values["numbers"] = _numbers_of(row["numbers"])
        values["right"] = _yes(row["right"])
        values["seconds"] = float(row["seconds"])
        return Answer(**_answer_values(values))

    # an export made before tries were kept has the old columns only
    return _csv_records(source, OLD_ANSWER_COLUMNS, " of answers", answer)


def _yes(text: str) -> bool:
    return text.strip().lower() in ("yes", "1", "true")


_R = TypeVar("_R")


def _csv_records(source: str | Path | io.StringIO, columns: Sequence[str], what: str,
                 record: Callable[[dict[str, str]], _R]) -> list[_R]:
    """The records of a CSV export with ``columns``; a file without them, or a bad row,
    is named in one line."""
    text, name = _csv_text(source)
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise ProgressError(f"{name} is not a MathCards export{what}: it has no column "
                            f"{', '.join(missing)}")
    out = []
    for row in reader:
        try:
            out.append(record(row))
        except (TypeError, ValueError) as exc:
            raise ProgressError(f"{name} line {reader.line_num}: {exc}") from None
    return out


def _csv_text(source: str | Path | io.StringIO) -> tuple[str, str]:
    """The text of a CSV export and the name a message calls it by."""
    if isinstance(source, (str, Path)):
        try:
            return Path(source).read_text(encoding="utf-8-sig"), Path(source).name
        except OSError as exc:
            raise ProgressError(f"cannot read {source}: {exc.strerror or exc}") from None
    return source.read(), "the CSV"


def level_changes_csv(changes: Iterable[LevelChange]) -> str:
    """Changes of the level of help as CSV text: one row per change, ``LEVEL_COLUMNS``."""
    return _csv_of(LEVEL_COLUMNS, ({c: getattr(ch, c) for c in LEVEL_COLUMNS}
                                   for ch in changes))


def read_level_changes_csv(source: str | Path | io.StringIO) -> list[LevelChange]:
    """Changes of level from a CSV export of them; a bad row (a level MathCards does not
    have) names its line."""
    def change(row: dict[str, str]) -> LevelChange:
        for column in ("before", "after"):
            if row[column] not in LEVELS:
                raise ValueError(f"the {column} level {row[column]!r} is not one of "
                                 f"{', '.join(LEVELS)}")
        return LevelChange(**{c: row[c] for c in LEVEL_COLUMNS})

    return _csv_records(source, LEVEL_COLUMNS, " of level changes", change)


def level_change_from_row(row: Sequence[Any]) -> LevelChange:
    """A ``LevelChange`` from a database row of ``LEVEL_COLUMNS``."""
    return LevelChange(**dict(zip(LEVEL_COLUMNS, row, strict=True)))


def solution_from_row(row: Sequence[Any]) -> SolutionOpened:
    """A ``SolutionOpened`` from a database row of ``SOLUTION_COLUMNS``."""
    values = dict(zip(SOLUTION_COLUMNS, row, strict=True))
    values["number"] = int(values["number"])
    return SolutionOpened(**values)


def attempt_from_row(row: Sequence[Any]) -> Attempt:
    """An ``Attempt`` from a database row of ``COLUMNS``."""
    values = dict(zip(COLUMNS, row, strict=True))
    values["correct"] = bool(values["correct"])
    values["set_version"] = int(values["set_version"] or 1)
    return Attempt(**values)


def _add_missing_columns(conn: Any) -> None:
    """Give a database written before a column existed that column (inside the opening
    transaction): its rows get the column's old value (``ADDED_COLUMNS``)."""
    for table, added in ADDED_COLUMNS.items():
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for column, value in added.items():
            if column not in present:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} "
                             f"{_column_type(value)} NOT NULL DEFAULT {_sql_value(value)}")


def _column_type(value: int | str) -> str:
    return "TEXT" if isinstance(value, str) else "INTEGER"


def _sql_value(value: int | str) -> str:
    """An added column's old value as SQL (MathCards' own constants, never a page's)."""
    return "'" + value.replace("'", "''") + "'" if isinstance(value, str) else str(int(value))


def attempts_csv(attempts: Iterable[Attempt]) -> str:
    return _csv_of(COLUMNS, (
        {**asdict(a), "correct": "yes" if a.correct else "no", "score": repr(a.score),
         "seconds": repr(a.seconds)} for a in attempts))


def read_csv(source: str | Path | io.StringIO) -> list[Attempt]:
    """Attempts from a CSV export (a path or text stream); a bad row names its line."""
    def attempt(row: dict[str, str]) -> Attempt:
        return Attempt(
            uid=row["uid"], at=row["at"], student=row["student"], set_id=row["set_id"],
            set_title=row["set_title"], exercise=row["exercise"], number=int(row["number"]),
            kind=row["kind"], variant=row["variant"], answer=row["answer"],
            correct=_yes(row["correct"]), score=float(row["score"]),
            hints_used=int(row["hints_used"]), seconds=float(row["seconds"]),
            set_version=int(row.get("set_version") or 1))

    # an export made before versions were kept has no set_version: version 1
    return _csv_records(source, [c for c in COLUMNS if c != "set_version"], "", attempt)


__all__ = ["ADDED_COLUMNS", "ANSWER_COLUMNS", "ANSWER_CSV_COLUMNS", "CLASS_ENV", "COLUMNS",
           "ENV_VAR", "LEVEL_COLUMNS", "OLD_ANSWER_COLUMNS", "SOLUTION_COLUMNS", "Attempt",
           "ProgressError", "ProgressStore", "SolutionOpened",
           "answer_from_row", "answers_csv", "attempt_from_row", "attempts_csv",
           "class_progress_folder", "default_progress_path", "level_change_from_row",
           "level_changes_csv", "read_answers_csv", "read_csv", "read_level_changes_csv",
           "solution_from_row"]
