"""Students' names on a shared Voilà server: a name belongs to the browser that first used it.

Outside a hub, ``?student=ana`` is the only thing that tells one student from
another. Here a name is *claimed* by the first browser that opens a page with
it (its token from ``mathcards.visitors``: Voilà's signed identity cookie, never
the cookie itself), in a small SQLite table in the data folder. The same
browser keeps its name; another browser asking for it is refused in one line
and plays as the shared guest: it sees neither that student's saved game nor
their progress, and answers nothing in their name.

Names are compared after the one rule of ``mathcards.students`` (NFKC, then
casefold): ``ANA`` and full-width ``ａｎａ`` are ``ana``.

What a name does not protect: a browser that loses its cookie (cleared cookies,
a private window, another computer) is another browser, and is refused its own
name until the teacher releases it (``release``, or the dashboard's *Release a
name*); a claim also lapses ``CLAIM_DAYS`` after it was made, when the identity
cookie that made it has expired, so the next browser to use the name claims it.
On a JupyterHub the login is the student and nothing is claimed here.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

from mathcards import storage
from mathcards.i18n import N_, _
from mathcards.students import student_id

NAMES_FILE = "names.sqlite3"
SHARED = "guest"  # the name of the saved game and progress every visitor without a name shares
CLAIM_DAYS = 30  # the life of Voilà's identity cookie (tornado's set_secure_cookie default)
# the refusals, worded in the page's language where they are made: ``_(TAKEN)``
TAKEN = N_("the name {name!r} is taken on this server by another browser: pick another name "
           "(?student=...), or ask your teacher to release it")
CODED = N_("the name {name!r} is on a class list with codes: open your class's page and "
           "type your code (your teacher has it)")
UNCHECKED = N_("your name cannot be checked on this server right now (its names file cannot "
               "be opened): reload the page in a minute, or tell your teacher")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    name TEXT PRIMARY KEY,      -- the student id (NFKC, casefold)
    holder TEXT NOT NULL,       -- the browser's token (mathcards.visitors)
    claimed REAL NOT NULL,      -- when that browser first used the name (epoch seconds)
    seen REAL NOT NULL          -- when it last did
)
"""


@dataclass(frozen=True)
class Claim:
    name: str
    claimed: float
    seen: float


class NameClaims:
    """The claims table: ``claim`` on a page, ``release`` by the teacher."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else storage.data_dir() / NAMES_FILE
        self._lock = threading.Lock()
        self._db = storage.open_database(self.path, timeout=10.0)
        with storage.write_transaction(self._db, self._lock) as db:
            db.execute(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def claim(self, name: str, holder: str, now: float | None = None) -> bool:
        """True when ``holder`` may use ``name``: it had no claim (or a lapsed one, which
        ``holder`` now holds) or ``holder`` holds it; False when another browser does.
        Raises ``StudentNameError`` for a name that breaks the rule."""
        key = student_id(name)
        now = time.time() if now is None else now
        with storage.write_transaction(self._db, self._lock) as db:
            row = db.execute("SELECT holder, claimed FROM claims WHERE name = ?",
                             (key,)).fetchone()
            if row is None or now - row[1] > CLAIM_DAYS * 86400:
                db.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?)",
                           (key, holder, now, now))
                return True
            if row[0] != holder:
                return False
            db.execute("UPDATE claims SET seen = ? WHERE name = ?", (now, key))
            return True

    def holds(self, name: str, holder: str, now: float | None = None) -> bool:
        """True when ``holder`` holds a claim on ``name`` that has not lapsed."""
        now = time.time() if now is None else now
        row = self._db.execute("SELECT holder, claimed FROM claims WHERE name = ?",
                               (student_id(name),)).fetchone()
        return row is not None and row[0] == holder and now - row[1] <= CLAIM_DAYS * 86400

    def release(self, name: str) -> bool:
        """Free ``name`` (the teacher's side): the next browser to use it claims it. True
        when it was claimed."""
        key = student_id(name)
        with storage.write_transaction(self._db, self._lock) as db:
            return db.execute("DELETE FROM claims WHERE name = ?", (key,)).rowcount > 0

    def claims(self) -> list[Claim]:
        """Every claimed name, in alphabetical order."""
        rows = self._db.execute("SELECT name, claimed, seen FROM claims ORDER BY name")
        return [Claim(*row) for row in rows]


def claim(name: str, holder: str, *, by_code: bool = False) -> str:
    """The problem with ``holder`` using ``name`` on this server, in one line ("" when it
    may: the name is now its own, or already was). When the table cannot be read the
    name is refused too: a name nobody can check protects nobody. The guest's name is
    everyone's. A name on a class list with codes (``mathcards.classes``) is claimed only
    ``by_code`` (the student typed their code); a browser that holds it keeps it."""
    if student_id(name) == SHARED:
        return ""
    try:
        claims = NameClaims()
        try:
            if not by_code and not claims.holds(name, holder):
                from mathcards.classes import needs_code

                if needs_code(name):
                    return _(CODED).format(name=name)
            ok = claims.claim(name, holder)
        finally:
            claims.close()
    except storage.STORE_ERRORS:
        return _(UNCHECKED)
    return "" if ok else _(TAKEN).format(name=name)


def release(name: str) -> bool:
    """Free a claimed name (for the teacher): True when it was claimed."""
    claims = NameClaims()
    try:
        return claims.release(name)
    finally:
        claims.close()
