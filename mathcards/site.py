"""MathCards on the static site (``make site``: Voici, Python in the student's browser).

No MathCards server runs there: rooms and the class dashboard are absent (a page that
would offer them says so in one line, ``needs_server_html``), there is no ``sqlite3``
(progress is a JSON file, ``mathcards.exercises.progress.JsonTables``) and no threads.
The page's address does not reach the kernel, so the student's name is asked once and
kept in the browser (``kept_name``/``keep_name``: a file on JupyterLite's drive, which
the browser keeps across reloads and a closed browser, like the saved games and the
progress beside it). Variants come from the student's name: there is no server secret.
"""

from __future__ import annotations

import html

from mathcards import storage
from mathcards.students import StudentNameError, clean_name

NAME_FILE = "student.txt"
# where a teacher reads how to run a MathCards server (the teacher's guide, on the site)
SERVER_HELP = "teachers.ipynb#A-MathCards-server-or-the-static-site"


def in_browser() -> bool:
    """True on the static site (Pyodide): ``sys.platform == "emscripten"``."""
    return storage.in_browser()


def kept_name() -> str | None:
    """The student's name kept in this browser, or None (none yet, or one the name rule
    refuses now)."""
    try:
        text = (storage.data_dir() / NAME_FILE).read_text(encoding="utf-8")
        return clean_name(text.strip())
    except (OSError, StudentNameError):
        return None


def keep_name(name: str) -> None:
    """Keep ``name`` in this browser for every page of the site."""
    (storage.data_dir() / NAME_FILE).write_text(clean_name(name), encoding="utf-8")


def forget_name() -> None:
    """Forget the kept name (another student at this browser: "not you?")."""
    (storage.data_dir() / NAME_FILE).unlink(missing_ok=True)


def needs_server_html(what: str) -> str:
    """One line for a feature the static site cannot offer (``what``: "Playing with
    classmates", "The class results")."""
    return (f'<p class="mc-needs-server" role="note">{html.escape(what)} needs a MathCards '
            f'server: <a href="{SERVER_HELP}">how to run one</a>.</p>')
