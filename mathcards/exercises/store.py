"""The server's exercise sets written on the teacher's page: drafts, published sets
and their versions.

A set the teacher writes in the browser (``lessons/write_set.ipynb``) is kept in
MathCards' data folder, ``sets/`` (``MATHCARDS_SETS`` names another folder: on a
JupyterHub, one of the class volume that every server mounts). A **published** set
is ``sets/<name>.yaml`` and students can open it on the practice page; a **draft** is
``sets/drafts/<name>.yaml`` and only the teacher's page sees it. A set may have both:
a draft of a published set is the teacher's next version, and saving it never touches
what students see (only *Publish* or *Unpublish* does).

Published sets are versions: each text published is also kept as
``sets/versions/<name>/<n>.yaml`` (1, 2, ...), and a student's answer is stored with the
version it answered (``Attempt.set_version``). Publishing a changed text makes the next
version; publishing the same text again changes nothing. A set published before
versions were kept (no ``versions/<name>/``) is version 1, and so are the answers stored
without a version.

The file's name comes from the set's ``id`` (or its title), made safe
(``safe_name``): small letters, digits, ``_`` and ``-`` only, so no name from a page
can reach another folder. Publishing runs the whole check
(``python -m mathcards check``): a set with a problem is refused with its first
problem, and nothing is written. Every write is atomic (a temporary file, then a
rename), so a student never opens half a file.
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mathcards.errors import MathCardsError
from mathcards.exercises.loader import MAX_BYTES, parse_yaml, read_set_text

SETS_ENV = "MATHCARDS_SETS"  # the sets folder, when the class's servers share another place
DRAFT = "draft"
PUBLISHED = "published"
MAX_NAME = 60
_NAME = re.compile(rf"^[a-z0-9][a-z0-9_-]{{0,{MAX_NAME - 1}}}$")


class StoreError(MathCardsError):
    """A set that cannot be saved, published or found: one line saying what to change."""


def safe_name(text: object) -> str:
    """A file name for a set from its id or title: ``Integers 7B!`` gives ``integers_7b``.

    Accents are dropped, every run of other characters becomes ``_``; raises
    StoreError when nothing usable is left."""
    raw = unicodedata.normalize("NFKD", str(text)[:200])
    ascii_text = raw.encode("ascii", "ignore").decode("ascii").lower()
    name = re.sub(r"[^a-z0-9_-]+", "_", ascii_text).strip("_-")[:MAX_NAME].strip("_-")
    if not name:
        raise StoreError(f"{str(text)[:40]!r} gives no file name: give the set an id made of "
                         "letters and digits, like 'id: integers_7b'")
    return name


def _top_line(text: str, key: str, value: str) -> str:
    """``text`` with its top-level ``key:`` line set to ``key: value`` (the other lines, the
    teacher's comments included, as they were); a missing line goes after ``title:`` (or
    first)."""
    line = f"{key}: {value}"
    pattern = re.compile(rf"^{key}[ \t]*:.*$", re.MULTILINE)
    if pattern.search(text):
        return pattern.sub(lambda _m: line, text, count=1)
    title = re.search(r"^title[ \t]*:.*$", text, re.MULTILINE)
    if title is None:
        return f"{line}\n{text}"
    return f"{text[:title.end()]}\n{line}{text[title.end():]}"


def _yaml_scalar(value: str) -> str:
    import yaml

    return yaml.safe_dump(value, allow_unicode=True, width=200).removesuffix("\n...\n") \
        .rstrip("\n")


def copy_of(text: str, taken: Iterable[str]) -> str:
    """A set's text as a new set to change: its title followed by "(copy)" and an ``id``
    that no set in ``taken`` (the server's and the samples' names) has, every other line
    as it was. Raises StoreError when the text is not a set."""
    data, _lines, problems = parse_yaml(text)
    if not isinstance(data, dict):
        first = f" ({problems[0]})" if problems else ""
        raise StoreError(f"this set cannot be copied{first}")
    title = str(data.get("title") or set_name_of(text)).strip()[:100]
    base = safe_name(f"{set_name_of(text)}_copy")[:MAX_NAME - 3]
    used = set(taken)
    name = next(n for n in (base, *(f"{base}{i}" for i in range(2, 1000))) if n not in used)
    copied = _top_line(_top_line(text, "title", _yaml_scalar(f"{title} (copy)")), "id", name)
    return _checked_edit(copied, data, {"title": f"{title} (copy)", "id": name})


def _checked_edit(edited: str, data: dict[str, object], changes: dict[str, object]) -> str:
    """``edited`` when it reads as ``data`` with ``changes`` (a line edit keeps the
    teacher's comments), else the set written out again (a title over several lines)."""
    import yaml

    wanted = {**data, **changes}
    again, _lines, problems = parse_yaml(edited)
    if not problems and again == wanted:
        return edited
    return yaml.safe_dump(wanted, sort_keys=False, allow_unicode=True, width=200)


def with_solution_after(text: str, attempts: int) -> str:
    """``text`` with the set's rule for the worked solution: it opens after ``attempts``
    wrong attempts (the set's ``solution_after``; an exercise may keep its own)."""
    if isinstance(attempts, bool) or not isinstance(attempts, int) or \
            not 1 <= attempts <= 20:
        raise StoreError("the worked solution opens after 1 to 20 wrong attempts")
    data, _lines, problems = parse_yaml(text)
    if not isinstance(data, dict):
        first = f" ({problems[0]})" if problems else ""
        raise StoreError(f"fix the YAML first{first}")
    return _checked_edit(_top_line(text, "solution_after", str(attempts)), data,
                         {"solution_after": attempts})


@dataclass(frozen=True)
class StoredSet:
    """A set on the server: its file name (``name``), ``draft`` or ``published``."""

    name: str
    status: str
    version: int = 0  # a published set's version (0 for a draft)
    replaced: int = 0  # the version this publishing replaced (0: none, or the same text)


def set_name_of(text: str) -> str:
    """The file name a set's text asks for: its ``id``, else its ``title``."""
    data, _lines, problems = parse_yaml(text)
    if not isinstance(data, dict):
        first = f" ({problems[0]})" if problems else ""
        raise StoreError(f"the set cannot be named{first}: start it with 'title:' and 'id:'")
    for key in ("id", "title"):
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return safe_name(value)
    raise StoreError("give the set an 'id:' (or a 'title:') so it can be saved under a name")


class SetStore:
    """The sets folder: ``folder``, else ``$MATHCARDS_SETS``, else ``sets/`` in MathCards'
    data folder.

    ``reserved`` names (the sample sets shipped in ``lessons/exercises/``) cannot be
    used, so a teacher's set never hides a sample of the same name."""

    def __init__(self, folder: str | Path | None = None, *,
                 reserved: tuple[str, ...] | list[str] = ()) -> None:
        if folder is None:
            from mathcards.storage import data_dir

            configured = os.environ.get(SETS_ENV, "").strip()
            folder = Path(configured).expanduser() if configured else data_dir() / "sets"
        self.folder = Path(folder)
        self.reserved = frozenset(reserved)

    @property
    def drafts_folder(self) -> Path:
        return self.folder / "drafts"

    @property
    def versions_folder(self) -> Path:
        return self.folder / "versions"

    def _version_files(self, name: str) -> dict[int, Path]:
        folder = self.versions_folder / name
        if not _NAME.match(name) or not folder.is_dir():
            return {}
        return {int(p.stem): p for p in folder.glob("*.yaml") if p.stem.isdigit()}

    def version(self, name: str) -> int:
        """The version students see of published set ``name`` (0 when it is not
        published); a set published before versions were kept is version 1."""
        if self.path(name) is None:
            return 0
        return max(self._version_files(name), default=1)

    def versions(self, name: str) -> list[int]:
        """The versions of ``name`` ever published, oldest first."""
        found = sorted(self._version_files(name))
        return found or ([1] if self.path(name) is not None else [])

    def read_version(self, name: str, version: int) -> str:
        """The text of version ``version`` of ``name`` as it was published."""
        path = self._version_files(name).get(version)
        if path is None and version == 1 and not self._version_files(name):
            path = self.path(name)
        if path is None:
            raise StoreError(f"set {name!r} has no version {version}")
        return path.read_text(encoding="utf-8")

    def _path(self, name: str, status: str) -> Path:
        if not isinstance(name, str) or not _NAME.match(name):
            raise StoreError(f"there is no set {str(name)[:MAX_NAME]!r}")
        return (self.drafts_folder if status == DRAFT else self.folder) / f"{name}.yaml"

    @staticmethod
    def _names(folder: Path) -> list[str]:
        if not folder.is_dir():
            return []
        return sorted(p.stem for p in folder.glob("*.yaml") if _NAME.match(p.stem))

    # --- reading ---------------------------------------------------------------------------
    def published(self) -> list[str]:
        """The names students may open."""
        return self._names(self.folder)

    def drafts(self) -> list[str]:
        return self._names(self.drafts_folder)

    def sets(self) -> list[StoredSet]:
        """Every set on the server, by name, with its status."""
        found = [StoredSet(n, PUBLISHED) for n in self.published()]
        found += [StoredSet(n, DRAFT) for n in self.drafts()]
        return sorted(found, key=lambda s: (s.name, s.status))

    def status(self, name: str) -> str | None:
        """``published`` when students see it (it may also have a draft), else ``draft``."""
        for status in (PUBLISHED, DRAFT):
            if self._path(name, status).is_file():
                return status
        return None

    def has_draft(self, name: str) -> bool:
        return self._path(name, DRAFT).is_file()

    def path(self, name: str) -> Path | None:
        """The published file of ``name`` (None for a draft or an unknown name)."""
        try:
            path = self._path(name, PUBLISHED)
        except StoreError:
            return None
        return path if path.is_file() else None

    def read(self, name: str, status: str | None = None) -> str:
        """The text of set ``name``: its ``status`` file, else the published one, else
        its draft."""
        if status not in (PUBLISHED, DRAFT):
            status = self.status(name)
        if status is None or not self._path(name, status).is_file():
            raise StoreError(f"there is no set {name!r} on this server")
        return self._path(name, status).read_text(encoding="utf-8")

    # --- writing ---------------------------------------------------------------------------
    def _name_for(self, text: str) -> str:
        if not isinstance(text, str):
            raise StoreError("a set is YAML text")
        if len(text.encode("utf-8")) > MAX_BYTES:
            raise StoreError("the set is over 1 MB: split it into smaller sets")
        name = set_name_of(text)
        if name in self.reserved:
            raise StoreError(f"'{name}' is the name of a sample set: give your set another "
                             "id, like 'id: my_" + name + "'")
        return name

    def _write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".saving-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # --- the editor's unsaved text --------------------------------------------------------
    @property
    def unsaved_path(self) -> Path:
        """The write-a-set page's text not yet saved (a name no set can have)."""
        return self.drafts_folder / ".unsaved.yaml"

    def keep_unsaved(self, text: str) -> bool:
        """Keep the editor's text as the teacher types it, so a reload or a closed tab
        loses nothing (False when it is too long to keep)."""
        if not isinstance(text, str) or len(text.encode("utf-8")) > MAX_BYTES:
            return False
        self._write(self.unsaved_path, text)
        return True

    def unsaved(self) -> str:
        """The text kept by ``keep_unsaved`` ("" when none)."""
        try:
            return self.unsaved_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    def forget_unsaved(self) -> None:
        self.unsaved_path.unlink(missing_ok=True)

    def save_draft(self, text: str) -> StoredSet:
        """Keep ``text`` as a draft (problems and all). A published set of the same name
        stays as it is: students go on seeing it until the draft is published."""
        name = self._name_for(text)
        self._write(self._path(name, DRAFT), text)
        return StoredSet(name, DRAFT)

    def publish(self, text: str) -> StoredSet:
        """Publish ``text`` for students, when the checker finds no problem in it."""
        name = self._name_for(text)
        exercise_set, problems = read_set_text(text, name=name)
        if exercise_set is not None:
            problems = exercise_set.problems()
        if problems or exercise_set is None:
            first = str(problems[0]) if problems else "it cannot be read"
            raise StoreError(f"not published: {first}")
        published = self._path(name, PUBLISHED)
        before = self.version(name)
        versions = self._version_files(name)
        last = max(versions, default=0)
        replaced = 0
        if before and published.read_text(encoding="utf-8") == text:
            version = before  # the same text: the same version
        elif not before and last and versions[last].read_text(encoding="utf-8") == text:
            version = last  # published again as it was unpublished
            self._write(published, text)
        else:
            if before and not self._version_files(name):  # published before versions
                self._write(self.versions_folder / name / "1.yaml",
                            published.read_text(encoding="utf-8"))
            versions = self._version_files(name)
            version = max(versions, default=0) + 1  # never a number used before
            replaced = before
            self._write(self.versions_folder / name / f"{version}.yaml", text)
            self._write(published, text)
        self._path(name, DRAFT).unlink(missing_ok=True)
        return StoredSet(name, PUBLISHED, version, replaced)

    def unpublish(self, name: str) -> StoredSet:
        """Take a published set back to the drafts: students no longer see it. A draft
        the set already has is kept (the published text stays in its versions)."""
        source = self._path(name, PUBLISHED)
        if not source.is_file():
            raise StoreError(f"'{name}' is not published" if self.status(name) == DRAFT
                             else f"there is no set {name!r} on this server")
        text = source.read_text(encoding="utf-8")
        if not self._version_files(name):  # published before versions: keep it as 1
            self._write(self.versions_folder / name / "1.yaml", text)
        if not self.has_draft(name):
            self._write(self._path(name, DRAFT), text)
        source.unlink()
        return StoredSet(name, DRAFT)


__all__ = ["DRAFT", "PUBLISHED", "SETS_ENV", "SetStore", "StoreError", "StoredSet", "safe_name",
           "set_name_of"]
