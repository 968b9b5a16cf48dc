"""Where MathCards keeps a user's saved games and progress.

The default is the platform's user data folder (``platformdirs``); the
``MATHCARDS_DATA_DIR`` environment variable moves it (tests, a hub's shared
volume, a USB stick).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

ENV_VAR = "MATHCARDS_DATA_DIR"


def data_dir() -> Path:
    """The folder for saves and progress, created when missing."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        path = Path(configured).expanduser()
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
