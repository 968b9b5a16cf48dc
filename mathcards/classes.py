"""A teacher's classes: each a short id the links carry (``?class=7b``) and its list of names.

The teacher types a class's names once (one a line) on the teacher's page
*Classes*; the landing page ``index.ipynb?class=7b`` then shows them as buttons,
and a student picks their own instead of typing it into an address. Every name
is checked by the one rule of names (``mathcards.students.clean_name``), so a
class list never holds a name a page would refuse. A class may also give each
student a code (six letters or digits, printed by the teacher): the landing
page then asks for the code instead of showing the names, so a classmate cannot
pick someone else's name first. Codes are not guessed: each code typed counts in
the wrong-codes limit of room codes (``rooms.RoomStore.try_code``: a few a
minute per browser and per address), so of 24**6 (191 million) codes a guesser
tries a handful. The three-character codes of earlier releases still open their
names (a teacher printed them), and a kept name keeps its code; the teacher's
*New codes for everyone* gives a class long ones.

The classes live in ``classes.sqlite3`` in the data folder (one row per class,
one per name); the same name may be in two classes (a student in 7b and in a
club): it is one student with one progress record on this server.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mathcards import storage
from mathcards.errors import MathCardsError
from mathcards.i18n import N_, _, language, ngettext
from mathcards.students import StudentNameError, clean_name

CLASSES_FILE = "classes.sqlite3"
MAX_NAMES = 60  # a class, not a school
CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY34679"  # no 0/O, 1/I, 2/Z, 5/S, 8/B look-alikes
CODE_LENGTH = 6  # 24**6 codes: guessed a few a minute (the wrong-codes limit), never found
OLD_CODE_LENGTH = 3  # the codes of earlier releases, still typed from printed lists
CODE_RULE = f"{CODE_LENGTH} letters or digits"
CLASS_RULE = N_("use 1-20 letters a-z, digits or -, starting with a letter or digit, like 7b")
_CLASS_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,19}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    id TEXT PRIMARY KEY,        -- what the links carry: ?class=7b
    codes INTEGER NOT NULL,     -- 1: each student types their code on the landing page
    made REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS members (
    class TEXT NOT NULL REFERENCES classes(id),
    student TEXT NOT NULL,      -- the student id (students.student_id)
    name TEXT NOT NULL,         -- as the teacher typed it (students.clean_name)
    code TEXT,                  -- the student's code in this class, or NULL
    pos INTEGER NOT NULL,       -- the teacher's order
    PRIMARY KEY (class, student)
);
"""


class ClassError(MathCardsError):
    """A class id or list the store cannot take (the message says what to change)."""


@dataclass(frozen=True)
class Member:
    name: str  # as shown (clean_name)
    code: str | None


@dataclass(frozen=True)
class SchoolClass:
    id: str
    codes: bool
    members: tuple[Member, ...]

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members]

    @property
    def short_codes(self) -> bool:
        """True when a member still has a code of an earlier release (3 characters)."""
        return any(m.code is not None and len(m.code) < CODE_LENGTH for m in self.members)


def class_id(text: object) -> str:
    """The class id of ``text`` (``7B`` -> ``7b``); raises ClassError."""
    if not isinstance(text, str):
        raise ClassError(_("a class is named by text: {rule}").format(rule=_(CLASS_RULE)))
    folded = text.strip().casefold()
    if not _CLASS_ID.fullmatch(folded):
        raise ClassError(_("class {name} cannot be used: {rule}").format(
            name=repr(text[:30]), rule=_(CLASS_RULE)))
    return folded


def parse_names(text: str) -> list[str]:
    """The names of a class list as the teacher typed it (one a line, or separated by
    commas), each checked by the one rule of names; raises ClassError naming every
    name that cannot be used, and a name given twice (``Ana`` and ``ana`` are one)."""
    raw = [part for line in str(text)[:20_000].splitlines() for part in line.split(",")]
    names: list[str] = []
    seen: dict[str, str] = {}
    problems: list[str] = []
    for part in raw:
        if not part.strip():
            continue
        try:
            name = clean_name(part)
        except StudentNameError as exc:
            problems.append(str(exc))
            continue
        key = name.casefold()
        if key in seen:
            problems.append(_("{name} is on the list twice (as {other} too): keep one").format(
                name=repr(name), other=repr(seen[key])))
            continue
        seen[key] = name
        names.append(name)
    if problems:
        more = len(problems) - 5
        raise ClassError("; ".join(problems[:5]) + (
            ngettext("; and {n} more", "; and {n} more", more).format(n=more)
            if more > 0 else ""))
    if not names:
        raise ClassError(_("the class has no names: type one name a line"))
    if len(names) > MAX_NAMES:
        raise ClassError(_("{n} names is more than a class ({most}): split it into two "
                           "classes").format(n=len(names), most=MAX_NAMES))
    return names


def clean_code(text: object) -> str:
    """A typed code as stored (capitals, no spaces); "" for anything that is no code."""
    if not isinstance(text, str):
        return ""
    code = "".join(text[:40].split()).replace("-", "").upper()  # "k7p 4xm", "K7P-4XM"
    if len(code) in (CODE_LENGTH, OLD_CODE_LENGTH) and all(c in CODE_LETTERS for c in code):
        return code
    return ""


class ClassStore:
    """The classes table: ``save`` on the teacher's page, ``get`` on the students' pages."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else storage.data_dir() / CLASSES_FILE
        self._lock = threading.Lock()
        self._db = storage.open_database(self.path, timeout=10.0)
        with storage.write_transaction(self._db, self._lock) as db:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ClassStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def save(self, cid: str, names: Iterable[str] | str, *, codes: bool = False,
             new_codes: bool = False, now: float | None = None) -> SchoolClass:
        """Make class ``cid`` or give it a new list: ``names`` is a list of names or the
        teacher's text (``parse_names``). A name kept from the old list keeps its code
        (unless ``new_codes``: every name gets a new one, to print again); a new one gets
        a code of its own (unique in the class) when ``codes``."""
        key = class_id(cid)
        listed = parse_names(names if isinstance(names, str) else "\n".join(names))
        now = time.time() if now is None else now
        with storage.write_transaction(self._db, self._lock) as db:
            old = {row[0]: row[1] for row in db.execute(
                "SELECT student, code FROM members WHERE class = ?", (key,))}
            db.execute("DELETE FROM members WHERE class = ?", (key,))
            db.execute("INSERT INTO classes VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE "
                       "SET codes = excluded.codes", (key, int(codes), now))
            used = {c for c in old.values() if c}
            for pos, name in enumerate(listed):
                student = name.casefold()
                code = old.get(student) if codes and not new_codes else None
                if codes and not code:
                    code = _new_code(used)
                if code:
                    used.add(code)
                db.execute("INSERT INTO members VALUES (?, ?, ?, ?, ?)",
                           (key, student, name, code, pos))
        found = self.get(key)
        assert found is not None
        return found

    def get(self, cid: object) -> SchoolClass | None:
        """Class ``cid`` with its names in the teacher's order, or None (no such class, or
        an id that breaks the rule)."""
        try:
            key = class_id(cid)
        except ClassError:
            return None
        row = self._db.execute("SELECT codes FROM classes WHERE id = ?", (key,)).fetchone()
        if row is None:
            return None
        members = tuple(Member(name, code) for name, code in self._db.execute(
            "SELECT name, code FROM members WHERE class = ? ORDER BY pos", (key,)))
        return SchoolClass(key, bool(row[0]), members)

    def classes(self) -> list[SchoolClass]:
        """Every class, by id."""
        ids = [row[0] for row in self._db.execute("SELECT id FROM classes ORDER BY id")]
        return [c for c in (self.get(i) for i in ids) if c is not None]

    def coded(self, name: str) -> bool:
        """True when ``name`` is on the list of a class with codes."""
        row = self._db.execute(
            "SELECT 1 FROM members JOIN classes ON classes.id = members.class "
            "WHERE members.student = ? AND classes.codes = 1 LIMIT 1",
            (clean_name(name).casefold(),)).fetchone()
        return row is not None

    def remove(self, cid: str) -> bool:
        """Forget class ``cid`` (its students' progress stays). True when it existed."""
        key = class_id(cid)
        with storage.write_transaction(self._db, self._lock) as db:
            db.execute("DELETE FROM members WHERE class = ?", (key,))
            return db.execute("DELETE FROM classes WHERE id = ?", (key,)).rowcount > 0


def code_cards_html(school_class: SchoolClass, address: str = "") -> str:
    """A page to print for a class with codes: one card a student, their name and their
    code in large type (and where to type it), on one A4 page for a class of up to 30
    (``MAX_NAMES`` on two). Names are escaped; nothing is fetched."""
    from html import escape

    where = ('<p class="where">' + (
        _("Open {address} and type your code.").format(address=f"<b>{escape(address)}</b>")
        if address else _("Type your code on the MathCards page.")) + "</p>")
    cards = "".join(
        f'<div class="card"><p class="name">{escape(m.name)}</p>'
        f'<p class="code">{escape(m.code or "")}</p>{where}</div>'
        for m in school_class.members if m.code)
    return (
        f'<!doctype html><html lang="{escape(language())}"><head><meta charset="utf-8">'
        "<title>" + escape(_("Codes of class {name}").format(name=school_class.id))
        + "</title><style>"
        "@page{size:A4;margin:10mm}body{font-family:sans-serif;margin:0}"
        "h1{font-size:14pt;margin:0 0 4mm}"
        ".cards{display:grid;grid-template-columns:repeat(3,1fr);gap:3mm}"
        ".card{border:1px dashed #555;padding:3mm;break-inside:avoid;height:24mm;"
        "overflow:hidden}.name{font-size:14pt;margin:0}"
        ".code{font-size:28pt;font-family:monospace;letter-spacing:.15em;margin:1mm 0}"
        ".where{font-size:8pt;margin:0;word-break:break-all}</style></head><body>"
        "<h1>" + _("MathCards: the codes of class {name} (cut along the lines)").format(
            name=escape(school_class.id)) + "</h1>"
        f'<div class="cards">{cards}</div></body></html>')


def _new_code(used: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _i in range(CODE_LENGTH))
        if code not in used:
            return code


def find_class(cid: object) -> SchoolClass | None:
    """Class ``cid`` from this server's store, or None (no such class, a bad id, or a
    store that cannot be read: the page then asks for a typed name)."""
    try:
        with ClassStore() as store:
            return store.get(cid)
    except storage.STORE_ERRORS:
        return None


def needs_code(name: str) -> bool:
    """True when ``name`` is on a class list with codes: its student claims it on this
    server by typing their code (``names.claim``), not by the name alone."""
    with ClassStore() as store:
        return store.coded(name)


def member_for_code(school_class: SchoolClass, code: object) -> Member | None:
    """The member whose code ``code`` is (typed in any case), or None."""
    typed = clean_code(code)
    if not typed:
        return None
    for member in school_class.members:
        if member.code and secrets.compare_digest(member.code, typed):
            return member
    return None


def member_named(school_class: SchoolClass, name: object) -> Member | None:
    """The member of the class with that name (under the one rule: ``ANA`` is ``Ana``)."""
    try:
        key = clean_name(name).casefold()
    except StudentNameError:
        return None
    return next((m for m in school_class.members if m.name.casefold() == key), None)
