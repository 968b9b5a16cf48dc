"""A class's assignments (issue 38): an exercise set, or a game at a level ("Suns to Moons
at I count, 3 games"), given to a class with an opening and a due date.

The teacher assigns on *Your classes*; a student of the class sees the class's open
assignments first on the landing page, and the teacher follows each one on its own
page: every student of the class is a row (``progress_of``), *not started*, *in
progress*, *done* or *done late* (work after the due date counts, and is marked late).

What "done" means is what a teacher would take it to mean:

- **A set** is done when every one of its exercises has been finished: answered right,
  or answered with its worked solution open (then it is done, but not right: the
  first-try figure counts only answers given before any solution was opened). Attempts
  made before the assignment opened do not count for it.
- **A game** is done when the student finished that many games of it at the assigned
  level (won or not) from the opening on; a game played at another level does not
  count.

The assignments live in ``classes.sqlite3`` (beside the classes, one row each); the
figures come from the answers and finished games the progress stores already keep.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mathcards import storage
from mathcards.classes import CLASSES_FILE, ClassError, class_id
from mathcards.errors import MathCardsError
from mathcards.exercises.progress import FinishedGame

SET, GAME = "set", "game"
NOT_STARTED, IN_PROGRESS, DONE, DONE_LATE = "not started", "in progress", "done", "done late"
MAX_GAMES = 20
_ID_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS assignments (
    id TEXT PRIMARY KEY,        -- what the assignment's page link carries
    class TEXT NOT NULL,        -- the class id (classes.id)
    kind TEXT NOT NULL,         -- 'set' or 'game'
    target TEXT NOT NULL,       -- the set's name, or the game's name
    level TEXT NOT NULL,        -- a game's level ('' for a set)
    games INTEGER NOT NULL,     -- games to finish (0 for a set)
    opens TEXT NOT NULL,        -- YYYY-MM-DD, the first day it counts
    due TEXT NOT NULL,          -- YYYY-MM-DD, the last day it is on time
    made REAL NOT NULL
)
"""


class AssignmentError(MathCardsError):
    """An assignment the store cannot take: one line saying what to change."""


@dataclass(frozen=True)
class Assignment:
    id: str
    class_id: str
    kind: str  # SET or GAME
    target: str  # the set's name, or the game's name
    level: str  # a game's level (mathcards.asking.LEVELS), "" for a set
    games: int  # games to finish, 0 for a set
    opens: dt.date
    due: dt.date
    made: float = 0.0

    def open_on(self, day: dt.date) -> bool:
        """Whether the assignment is open (to do, or late) on ``day``."""
        return day >= self.opens


@dataclass(frozen=True)
class StudentProgress:
    """One student's row on an assignment's page."""

    student: str  # the student id
    state: str  # NOT_STARTED, IN_PROGRESS, DONE or DONE_LATE
    done: int  # exercises finished, or games finished
    needed: int  # exercises in the set, or games asked for
    questions: int  # exercises answered (a set; 0 for a game)
    first_try: int  # exercises right at the first try, no solution open (a set)
    last_at: str  # the student's last work on it ("" when none)
    overdue: bool  # not done and past the due date


def _date(value: object, what: str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip()[:10])
    except ValueError:
        raise AssignmentError(f"the {what} date {str(value)[:20]!r} is not a date: write it "
                              "as 2026-12-01") from None


def _day_of(at: str) -> dt.date:
    """The day of an ISO time (UTC), as the dates of assignments are days."""
    return dt.date.fromisoformat(at[:10])


class AssignmentStore:
    """The assignments table, in the classes' file (``classes.sqlite3`` in the data
    folder, or ``path``)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else storage.data_dir() / CLASSES_FILE
        self._lock = threading.Lock()
        self._db = storage.open_database(self.path, timeout=10.0)
        # every named student's landing page of a class reads it: the table is made once,
        # not in a write transaction per page (a class opening its page at once)
        if self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                            "name = 'assignments'").fetchone() is None:
            with storage.write_transaction(self._db, self._lock) as db:
                db.execute(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> AssignmentStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def add(self, cid: object, kind: str, target: str, *, opens: object, due: object,
            level: str = "", games: int = 0, now: float | None = None) -> Assignment:
        """Assign ``target`` (a published set's name, or a game's name with its ``level``
        and number of ``games``) to class ``cid`` from ``opens`` to ``due`` (days)."""
        try:
            key = class_id(cid)
        except ClassError as exc:
            raise AssignmentError(str(exc)) from None
        start, end = _date(opens, "opening"), _date(due, "due")
        if end < start:
            raise AssignmentError(f"the due date {end} is before the opening date {start}: "
                                  "choose a due date on or after it")
        target = str(target).strip()[:80]
        if kind == SET:
            if not target:
                raise AssignmentError("choose the exercise set to assign")
            level, games = "", 0
        elif kind == GAME:
            from mathcards.asking import LEVELS
            from mathcards.games.registry import game_names

            if target not in game_names():
                raise AssignmentError(f"there is no game {target!r}: choose one of "
                                      f"{', '.join(game_names())}")
            if level not in LEVELS:
                raise AssignmentError(f"choose the level: one of {', '.join(LEVELS.values())}")
            if isinstance(games, bool) or not isinstance(games, int) or \
                    not 1 <= games <= MAX_GAMES:
                raise AssignmentError(f"choose how many games: 1 to {MAX_GAMES}")
        else:
            raise AssignmentError("assign an exercise set or a game")
        made = time.time() if now is None else now
        with storage.write_transaction(self._db, self._lock) as db:
            used = {row[0] for row in db.execute("SELECT id FROM assignments")}
            aid = next(i for i in iter(lambda: "".join(
                secrets.choice(_ID_LETTERS) for _ in range(6)), None) if i not in used)
            db.execute("INSERT INTO assignments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (aid, key, kind, target, level, games, start.isoformat(),
                        end.isoformat(), made))
        return Assignment(aid, key, kind, target, level, games, start, end, made)

    @staticmethod
    def _from_row(row: Sequence[object]) -> Assignment:
        aid, cid, kind, target, level, games, opens, due, made = row
        return Assignment(str(aid), str(cid), str(kind), str(target), str(level),
                          int(str(games)), dt.date.fromisoformat(str(opens)),
                          dt.date.fromisoformat(str(due)), float(str(made)))

    def get(self, aid: object) -> Assignment | None:
        row = self._db.execute("SELECT * FROM assignments WHERE id = ?",
                               (str(aid)[:20],)).fetchone()
        return None if row is None else self._from_row(row)

    def for_class(self, cid: object) -> list[Assignment]:
        """The class's assignments, soonest due first (none for a bad class id)."""
        try:
            key = class_id(cid)
        except ClassError:
            return []
        return [self._from_row(r) for r in self._db.execute(
            "SELECT * FROM assignments WHERE class = ? ORDER BY due, opens, made", (key,))]

    def all(self) -> list[Assignment]:
        return [self._from_row(r) for r in self._db.execute(
            "SELECT * FROM assignments ORDER BY due, opens, made")]

    def remove(self, aid: object) -> bool:
        with storage.write_transaction(self._db, self._lock) as db:
            return db.execute("DELETE FROM assignments WHERE id = ?",
                              (str(aid)[:20],)).rowcount > 0


def _state(done: bool, started: bool, finished_at: str, due: dt.date) -> str:
    if done:
        return DONE_LATE if _day_of(finished_at) > due else DONE
    return IN_PROGRESS if started else NOT_STARTED


def set_progress(assignment: Assignment, students: Sequence[str], exercises: Sequence[str],
                 attempts: Iterable[object], solutions: Iterable[object] = (),
                 today: dt.date | None = None) -> list[StudentProgress]:
    """Each student's row for a set assignment: ``exercises`` are the set's exercise ids,
    ``attempts`` the class's ``Attempt`` records, ``solutions`` its ``SolutionOpened``
    records (the worked solution opened for a student at an exercise)."""
    today = dt.date.today() if today is None else today
    wanted = set(exercises)
    tries: dict[str, dict[str, list[tuple[str, bool]]]] = {}
    for a in attempts:
        if getattr(a, "set_id", None) != assignment.target:
            continue
        at, exercise = str(getattr(a, "at", "")), str(getattr(a, "exercise", ""))
        if exercise not in wanted or not at or _day_of(at) < assignment.opens:
            continue
        tries.setdefault(str(getattr(a, "student", "")), {}).setdefault(exercise, []).append(
            (at, bool(getattr(a, "correct", False))))
    opened: dict[tuple[str, str], str] = {}
    for s in solutions:
        if getattr(s, "set_id", None) == assignment.target:
            key = (str(getattr(s, "student", "")), str(getattr(s, "exercise", "")))
            at = str(getattr(s, "at", ""))
            if at and _day_of(at) >= assignment.opens:
                opened[key] = min(opened.get(key, at), at)
    rows = []
    for student in students:
        mine = tries.get(student, {})
        finished_at: list[str] = []
        first_try = 0
        for exercise, answers in mine.items():
            answers.sort()
            solution_at = opened.get((student, exercise))
            # finished: answered right, or answered with the worked solution open
            ends = [at for at, ok in answers
                    if ok or (solution_at is not None and at >= solution_at)]
            if ends:
                finished_at.append(ends[0])
            first_at, first_ok = answers[0]
            if first_ok and (solution_at is None or first_at < solution_at):
                first_try += 1
        done = len(finished_at) == len(wanted) and bool(wanted)
        last = max((at for answers in mine.values() for at, _ in answers), default="")
        rows.append(StudentProgress(
            student, _state(done, bool(mine), max(finished_at, default=""), assignment.due),
            len(finished_at), len(wanted), len(mine), first_try, last,
            not done and today > assignment.due))
    return rows


def _first_tries(assignment: Assignment, answers: Iterable[object]) -> list[object]:
    """The answers of a game assignment's questions: that game at that level, from the
    opening on, first tries only (a retry is no extra answer), no refusal."""
    return [a for a in answers
            if getattr(a, "game", None) == assignment.target
            and getattr(a, "level", None) == assignment.level
            and str(getattr(a, "at", "")) and _day_of(str(getattr(a, "at", ""))) >= assignment.opens
            and int(getattr(a, "attempt", 1)) == 1 and not getattr(a, "rule", "")]


def game_progress(assignment: Assignment, students: Sequence[str],
                  finished: Iterable[FinishedGame], answers: Iterable[object] = (),
                  today: dt.date | None = None) -> list[StudentProgress]:
    """Each student's row for a game assignment: games of that game at that level
    finished from the opening day on (``finished``: the class's finished games), and the
    questions the tables asked there (``answers``: answered, right at the first try)."""
    today = dt.date.today() if today is None else today
    asked: dict[str, list[bool]] = {}
    for a in _first_tries(assignment, answers):
        asked.setdefault(str(getattr(a, "student", "")), []).append(
            bool(getattr(a, "right", False)))
    games: dict[str, list[str]] = {}
    for g in finished:
        if g.game == assignment.target and g.level == assignment.level and g.at and \
                _day_of(g.at) >= assignment.opens:
            games.setdefault(g.student, []).append(g.at)
    rows = []
    for student in students:
        ats = sorted(games.get(student, []))
        done = len(ats) >= assignment.games
        finished_at = ats[assignment.games - 1] if done else ""
        mine = asked.get(student, [])
        rows.append(StudentProgress(
            student, _state(done, bool(ats) or bool(mine), finished_at, assignment.due),
            min(len(ats), assignment.games), assignment.games, len(mine), sum(mine),
            ats[-1] if ats else "", not done and today > assignment.due))
    return rows


# the order a teacher reads the rows in: who to see first on top
_FIRST = {NOT_STARTED: 1, IN_PROGRESS: 0, DONE_LATE: 3, DONE: 4}
HELP_BELOW, HELP_LEAST = 0.6, 3  # as the skill grid's "needs help" (skill_grid.py)


def needs_help(row: StudentProgress) -> bool:
    """A student under 60% right at the first try on at least 3 questions (a set's
    exercises, or a game's questions)."""
    return row.questions >= HELP_LEAST and row.first_try / row.questions < HELP_BELOW


def for_the_teacher(rows: Iterable[StudentProgress]) -> list[StudentProgress]:
    """The rows with the students to see first on top: overdue before on time, then
    in progress (stuck?) before not started before done late before done, then those
    needing help, then the fewest right at the first try, then by name."""
    def key(r: StudentProgress) -> tuple[int, int, int, float, str]:
        share = r.first_try / r.questions if r.questions else 1.0
        return (0 if r.overdue else 1, _FIRST[r.state], 0 if needs_help(r) else 1, share,
                r.student)
    return sorted(rows, key=key)


def most_missed(assignment: Assignment, attempts: Iterable[object],
                students: Sequence[str]) -> tuple[str, int]:
    """The set's exercise the most students of ``students`` missed at their first try
    (its id, and how many), from the opening on; ("", 0) when nobody missed one."""
    firsts: dict[tuple[str, str], tuple[str, bool]] = {}
    wanted = set(students)
    for a in attempts:
        student, exercise = str(getattr(a, "student", "")), str(getattr(a, "exercise", ""))
        at = str(getattr(a, "at", ""))
        if getattr(a, "set_id", None) != assignment.target or student not in wanted or \
                not at or _day_of(at) < assignment.opens:
            continue
        seen = firsts.get((student, exercise))
        if seen is None or at < seen[0]:
            firsts[(student, exercise)] = (at, bool(getattr(a, "correct", False)))
    missed: dict[str, int] = {}
    for (_student, exercise), (_at, right) in firsts.items():
        if not right:
            missed[exercise] = missed.get(exercise, 0) + 1
    if not missed:
        return "", 0
    exercise = max(sorted(missed), key=lambda e: missed[e])
    return exercise, missed[exercise]


def most_missed_skill(assignment: Assignment, answers: Iterable[object],
                      students: Sequence[str]) -> tuple[str, int]:
    """A game assignment's skill the most first tries missed (of ``students``), and how
    many; ("", 0) when none was missed."""
    wanted = set(students)
    missed: dict[str, int] = {}
    for a in _first_tries(assignment, answers):
        if str(getattr(a, "student", "")) in wanted and not getattr(a, "right", False):
            skill = str(getattr(a, "skill", ""))
            missed[skill] = missed.get(skill, 0) + 1
    if not missed:
        return "", 0
    skill = max(sorted(missed), key=lambda k: missed[k])
    return skill, missed[skill]


REPORT_COLUMNS = ("student", "name", "state", "done", "needed", "answered",
                  "right_at_first_try", "needs_help", "overdue", "last_activity")


def report_csv(rows: Iterable[StudentProgress], names: dict[str, str]) -> str:
    """The assignment's rows as CSV text (the page's download), in the page's order."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(REPORT_COLUMNS)
    for r in rows:
        writer.writerow([r.student, names.get(r.student, r.student), r.state, r.done,
                         r.needed, r.questions, r.first_try,
                         "yes" if needs_help(r) else "no", "yes" if r.overdue else "no",
                         r.last_at])
    return out.getvalue()


__all__ = ["DONE", "DONE_LATE", "GAME", "IN_PROGRESS", "NOT_STARTED", "SET", "Assignment",
           "AssignmentError", "AssignmentStore", "FinishedGame", "StudentProgress",
           "game_progress", "set_progress"]
