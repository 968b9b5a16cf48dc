"""Where MathCards keeps a user's saved games and progress.

The default is the platform's user data folder (``platformdirs``); the
``MATHCARDS_DATA_DIR`` environment variable moves it (tests, a hub's shared
volume, a USB stick).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

try:
    import sqlite3 as _sqlite3

    #: what a store's database raises (none where Python has no sqlite3: Pyodide)
    DB_ERRORS: tuple[type[Exception], ...] = (_sqlite3.Error,)
except ImportError:  # the static site's browser kernel
    DB_ERRORS = ()
#: a store's file that cannot be used: the folder's errors and the database's
STORE_ERRORS: tuple[type[Exception], ...] = (OSError, *DB_ERRORS)

ENV_VAR = "MATHCARDS_DATA_DIR"
# The static site's browser kernel (Pyodide): JupyterLite's drive is mounted here and
# kept in the browser (IndexedDB) across reloads and a closed browser.
BROWSER_DRIVE = Path("/drive")


def in_browser() -> bool:
    """True in the static site's kernel: Python compiled to WebAssembly (Pyodide), where
    no MathCards server runs (no rooms, no class dashboard, no sqlite3, no threads)."""
    return sys.platform == "emscripten"


def has_sqlite() -> bool:
    """Whether this Python has ``sqlite3`` (Pyodide from npm has not)."""
    return bool(DB_ERRORS)


def data_dir() -> Path:
    """The folder for saves and progress, created when missing."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        path = Path(configured).expanduser()
    elif in_browser() and BROWSER_DRIVE.is_dir():
        path = BROWSER_DRIVE / "mathcards-data"
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("mathcards", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_database(path: Path, *, timeout: float) -> sqlite3.Connection:
    """A store's SQLite file (its folder made) for many processes at once: WAL journal
    (readers never wait for a writer), ``synchronous=NORMAL``, ``timeout`` seconds of busy
    timeout for a writer to wait, no automatic transactions (the store writes in
    ``write_transaction``) and usable from the store's threads, under the store's lock."""
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


@contextmanager
def write_transaction(db: sqlite3.Connection,
                      lock: AbstractContextManager[Any]) -> Iterator[sqlite3.Connection]:
    """One write transaction, holding the store's ``lock``: ``BEGIN IMMEDIATE`` takes the
    file's write lock at once (or waits up to the busy timeout); an error rolls back."""
    with lock:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
