"""The teacher's view of the results: a class table and the most-missed exercises.

``read_results(source)`` reads a folder of CSV exports (every ``*.csv`` in it),
a class's progress folder (each student's database in it or one folder down,
``<student>/progress.sqlite3``: what a hub's students write to a shared
volume, ``MATHCARDS_CLASS_PROGRESS``), one CSV file, or one progress database
(``.sqlite3``/``.db``); attempts that appear in several files (same ``uid``)
count once. ``read_answers(source)`` reads the answers (play and exercises, by skill) from
the same sources. The dashboard
notebook draws ``class_table`` and ``most_missed`` with
``mathcards.widgets.exercises``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from mathcards.asking import Answer, LevelChange
from mathcards.exercises.progress import (
    ANSWER_COLUMNS,
    ANSWER_CSV_COLUMNS,
    LEVEL_COLUMNS,
    OLD_ANSWER_COLUMNS,
    Attempt,
    FinishedGame,
    ProgressError,
    ProgressStore,
    SolutionOpened,
    read_answers_csv,
    read_csv,
    read_level_changes_csv,
)
from mathcards.i18n import _

# ``.json``: the static site's progress file (a student's download; ``JsonTables``)
DB_SUFFIXES = (".sqlite3", ".sqlite", ".db", ".json")


def read_results(source: str | Path) -> list[Attempt]:
    """Attempts from a folder of CSV exports, a CSV file or a progress database."""
    path = Path(source).expanduser()
    if path.is_dir():  # the answers' and levels' exports are read by their own readers
        return _gathered(path, lambda p: [] if _is_other_export(p) else read_csv(p),
                         read_database)
    if not path.exists():
        raise ProgressError(f"no such file or folder: {path}")
    if path.suffix.lower() in DB_SUFFIXES:
        store = ProgressStore(path)
        try:
            return store.attempts()
        finally:
            store.close()
    return [] if _is_other_export(path) else read_csv(path)


_Record = TypeVar("_Record", Attempt, Answer, LevelChange)
_Record2 = TypeVar("_Record2", Attempt, SolutionOpened)


def _gathered(folder: Path, from_csv: Callable[[Path], list[_Record]],
              from_database: Callable[[Path], list[_Record]]) -> list[_Record]:
    """The records of a folder's CSV exports and class databases, each ``uid`` once, in
    the order they were made."""
    found: dict[str, _Record] = {}
    for csv_path in sorted(folder.glob("*.csv")):
        for record in from_csv(csv_path):
            found.setdefault(record.uid, record)
    for db_path in _class_databases(folder):
        for record in from_database(db_path):
            found.setdefault(record.uid, record)
    # by time only: the sort is stable, so records made in one millisecond keep the order
    # their file holds them in (the order made), not the order of random uids
    return sorted(found.values(), key=lambda r: r.at)


def _csv_header(path: Path) -> list[str]:
    try:
        with path.open(encoding="utf-8-sig") as f:
            return f.readline().strip().split(",")
    except OSError:
        return []


def _is_answers_export(path: Path) -> bool:
    """Whether a CSV file is an export of answers (``ProgressStore.export_answers_csv``; one
    made before tries were kept has the old columns only)."""
    header = _csv_header(path)
    return header in (list(ANSWER_CSV_COLUMNS), list(OLD_ANSWER_COLUMNS))


def _is_levels_export(path: Path) -> bool:
    """Whether a CSV file is an export of level changes (``export_levels_csv``)."""
    return _csv_header(path) == list(LEVEL_COLUMNS)


def _is_other_export(path: Path) -> bool:
    """A CSV export that holds no attempts (answers, or changes of level)."""
    return _is_answers_export(path) or _is_levels_export(path)


def read_answers(source: str | Path) -> list[Answer]:
    """Answers (play and exercises) from the same sources as ``read_results``: a folder of
    exports and databases, a class's progress folder, one answers CSV or one database;
    an answer in several files (same ``uid``) counts once; a file of attempts only, or a
    database written before answers were kept, has none."""
    path = Path(source).expanduser()
    if path.is_dir():
        return _gathered(path, lambda p: read_answers_csv(p) if _is_answers_export(p) else [],
                         read_database_answers)
    if not path.exists():
        raise ProgressError(f"no such file or folder: {path}")
    if path.suffix.lower() in DB_SUFFIXES:
        return read_database_answers(path)
    return read_answers_csv(path) if _is_answers_export(path) else []


def _class_databases(folder: Path) -> list[Path]:
    """Progress databases in a class folder: in it, and one folder down (one per student)."""
    found = [p for suffix in DB_SUFFIXES for pattern in (f"*{suffix}", f"*/*{suffix}")
             for p in folder.glob(pattern) if p.is_file()]
    return sorted(set(found))


def _read_only_rows(path: Path, table: str, columns: Sequence[str], after: int = 0,
                    *, with_id: bool = False) -> list[Any]:
    """The rows of ``table`` in a progress database opened read only (the teacher's reading
    never writes to it), those after row ``after``; a database without the table (written
    before answers or opened solutions were kept) has none. ``with_id`` puts each row's
    id first."""
    if path.suffix.lower() == ".json":  # the static site's progress file
        from mathcards.exercises.progress import JsonTables

        rows = JsonTables(path, read_only=True).select(table, columns, {}, after)
        return rows if with_id else [row[1:] for row in rows]
    import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise ProgressError(f"cannot open {path.parent.name}/{path.name} ({exc})") from None
    try:
        if table != "attempts" and not conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone():
            return []
        from mathcards.exercises.progress import ADDED_COLUMNS

        added = ADDED_COLUMNS.get(table, {})
        if added:  # a database written before a column existed: its old value
            present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            from mathcards.exercises.progress import _sql_value

            columns = [c if c in present or c not in added else f"{_sql_value(added[c])} AS {c}"
                       for c in columns]
        picked = ", ".join(["id", *columns] if with_id else columns)
        return conn.execute(f"SELECT {picked} FROM {table} WHERE id > ? ORDER BY id",
                            (after,)).fetchall()
    except sqlite3.Error as exc:
        raise ProgressError(f"{path.parent.name}/{path.name} is not a MathCards progress "
                            f"database ({exc}): move it out of the class folder") from None
    finally:
        conn.close()


def read_database(path: Path) -> list[Attempt]:
    """A student's progress database's attempts, read only."""
    from mathcards.exercises.progress import COLUMNS, attempt_from_row

    return [attempt_from_row(row) for row in _read_only_rows(path, "attempts", COLUMNS)]


def read_database_answers(path: Path) -> list[Answer]:
    """A student's progress database's answers, read only."""
    from mathcards.exercises.progress import answer_from_row

    return [answer_from_row(row) for row in _read_only_rows(path, "answers", ANSWER_COLUMNS)]


def read_level_changes(source: str | Path) -> list[LevelChange]:
    """The changes of the level of help at the tables, from the same sources as
    ``read_results`` (databases, and CSV exports of level changes), each ``uid`` once, in
    the order made; a database written before they were kept has none."""
    from mathcards.exercises.progress import level_change_from_row

    def from_database(db: Path) -> list[LevelChange]:
        return [level_change_from_row(row)
                for row in _read_only_rows(db, "level_changes", LEVEL_COLUMNS)]

    path = Path(source).expanduser()
    if path.is_dir():
        return _gathered(
            path, lambda p: read_level_changes_csv(p) if _is_levels_export(p) else [],
            from_database)
    if not path.exists():
        raise ProgressError(f"no such file or folder: {path}")
    if path.suffix.lower() in DB_SUFFIXES:
        return from_database(path)
    return read_level_changes_csv(path) if _is_levels_export(path) else []


def read_finished_games(source: str | Path) -> list[FinishedGame]:
    """The games students finished, from the progress databases of a source as
    ``read_results`` reads them (a file, or a class folder of them), in the order each
    database kept them; a database written before games were kept has none."""
    from mathcards.exercises.progress import GAME_COLUMNS, finished_game_from_row

    path = Path(source).expanduser()
    if path.is_dir():
        databases = _class_databases(path)
    elif not path.exists():
        raise ProgressError(f"no such file or folder: {path}")
    else:
        databases = [path] if path.suffix.lower() in DB_SUFFIXES else []
    return [finished_game_from_row(row) for db in databases
            for row in _read_only_rows(db, "games", GAME_COLUMNS)]


def read_solutions(source: str | Path) -> list[SolutionOpened]:
    """The worked solutions opened, from the databases of the same sources as
    ``read_results`` (CSV exports of attempts do not carry them)."""
    return ResultsReader(source).read()[1]


class ResultsReader:
    """Reads a source's attempts and opened solutions, then on each ``read`` only what is
    new: each database from the row it read last, each CSV export again only when the
    file changed (a dashboard that refreshes itself during a lesson stays cheap)."""

    def __init__(self, source: str | Path) -> None:
        self.path = Path(source).expanduser()
        self._rows: dict[tuple[Path, str], int] = {}  # (database, table) -> last row read
        self._csv_seen: dict[Path, tuple[float, int]] = {}
        self._uids: set[str] = set()
        self.attempts: list[Attempt] = []
        self.solutions: list[SolutionOpened] = []

    def read(self) -> tuple[list[Attempt], list[SolutionOpened]]:
        """Everything read so far (attempts in the order made); ``new`` says what is new."""
        self.new()
        return self.attempts, self.solutions

    def new(self) -> tuple[list[Attempt], list[SolutionOpened]]:
        """The attempts and opened solutions written since the last reading."""
        from mathcards.exercises.progress import (
            COLUMNS,
            SOLUTION_COLUMNS,
            attempt_from_row,
            solution_from_row,
        )

        path = self.path
        if path.is_dir():
            databases = _class_databases(path)
            csvs = [p for p in sorted(path.glob("*.csv")) if not _is_other_export(p)]
        elif not path.exists():
            raise ProgressError(f"no such file or folder: {path}")
        elif path.suffix.lower() in DB_SUFFIXES:
            databases, csvs = [path], []
        else:
            databases, csvs = [], [] if _is_other_export(path) else [path]
        attempts: list[Attempt] = []
        solutions: list[SolutionOpened] = []
        for csv_path in csvs:
            stat = csv_path.stat()
            if self._csv_seen.get(csv_path) != (stat.st_mtime, stat.st_size):
                self._csv_seen[csv_path] = (stat.st_mtime, stat.st_size)
                attempts += read_csv(csv_path)
        for db in databases:
            rows = self._new_rows(db, "attempts", COLUMNS)
            attempts += [attempt_from_row(r) for r in rows]
            solutions += [solution_from_row(r)
                          for r in self._new_rows(db, "solutions", SOLUTION_COLUMNS)]
        fresh = self._unseen(attempts)  # an attempt in two files (same uid) counts once
        fresh_solutions = self._unseen(solutions)
        # stable, by time only: one millisecond's records keep their file's order
        self.attempts = sorted([*self.attempts, *fresh], key=lambda r: r.at)
        self.solutions = sorted([*self.solutions, *fresh_solutions], key=lambda r: r.at)
        return fresh, fresh_solutions

    def _unseen(self, records: list[_Record2]) -> list[_Record2]:
        out = []
        for record in records:
            if record.uid not in self._uids:
                self._uids.add(record.uid)
                out.append(record)
        return out

    def _new_rows(self, db: Path, table: str, columns: Sequence[str]) -> list[Any]:
        rows = _read_only_rows(db, table, columns, self._rows.get((db, table), 0), with_id=True)
        if rows:
            self._rows[(db, table)] = int(rows[-1][0])
        return [row[1:] for row in rows]


@dataclass(frozen=True)
class ClassRow:
    """One student's work on one set."""

    student: str
    set_id: str
    set_title: str
    exercises: int  # exercises tried
    solved: int
    attempts: int
    mean_best: float  # mean of the best scores over the set's exercises (untried: 0)
    hints_used: int
    last_seen: str


def class_table(attempts: Iterable[Attempt],
                sizes: dict[str, int] | None = None) -> list[ClassRow]:
    """One row per student and set, in name order. ``sizes`` (set id -> its number of
    exercises) counts an untried exercise as not right, so skipping one never raises the
    mean; without it a set is as large as the exercises tried in it."""
    sizes = sizes or {}
    groups: dict[tuple[str, str], list[Attempt]] = defaultdict(list)
    for a in attempts:
        groups[(a.student, a.set_id)].append(a)
    rows = []
    for (student, set_id), mine in sorted(groups.items()):
        best: dict[str, float] = {}
        solved: set[str] = set()
        hints: dict[str, int] = {}
        for a in mine:
            best[a.exercise] = max(best.get(a.exercise, 0.0), a.score)
            hints[a.exercise] = max(hints.get(a.exercise, 0), a.hints_used)
            if a.correct:
                solved.add(a.exercise)
        rows.append(ClassRow(
            student=student, set_id=set_id, set_title=mine[-1].set_title,
            exercises=len(best), solved=len(solved), attempts=len(mine),
            mean_best=sum(best.values()) / max(len(best), sizes.get(set_id, 0)),
            hints_used=sum(hints.values()),
            last_seen=max(a.at for a in mine)))
    return rows


@dataclass(frozen=True)
class Missed:
    """How often one exercise was answered wrong."""

    set_id: str
    set_title: str
    exercise: str
    number: int
    title: str  # the kind's title
    wrong: int
    attempts: int
    students: int  # students who got it wrong at least once


def most_missed(attempts: Iterable[Attempt], top: int = 10) -> list[Missed]:
    """Exercises by wrong attempts, most first (ties: more students, then set order)."""
    from mathcards.exercises.kinds import KINDS

    groups: dict[tuple[str, str], list[Attempt]] = defaultdict(list)
    for a in attempts:
        groups[(a.set_id, a.exercise)].append(a)
    out = []
    for (set_id, exercise), mine in groups.items():
        wrong = [a for a in mine if not a.correct]
        if not wrong:
            continue
        kind = KINDS.get(mine[0].kind)
        out.append(Missed(set_id=set_id, set_title=mine[0].set_title, exercise=exercise,
                          number=mine[0].number, title=_(kind.title) if kind else mine[0].kind,
                          wrong=len(wrong), attempts=len(mine),
                          students=len({a.student for a in wrong})))
    out.sort(key=lambda m: (-m.wrong, -m.students, m.set_id, m.number))
    return out[:top]


__all__ = ["ClassRow", "Missed", "ResultsReader", "class_table", "most_missed",
           "read_answers", "read_database_answers", "read_level_changes", "read_results",
           "read_solutions"]
