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
from mathcards.i18n import _
from mathcards.students import StudentNameError, clean_name

NAME_FILE = "student.txt"
# where a teacher reads how to run a MathCards server (the teacher's guide, on the site)
SERVER_HELP = "teachers.ipynb#A-MathCards-server-or-the-static-site"
# the teacher's pages, in the order of the bar at the top of each (issue 38 item 5)
TEACHER_PAGES = (("Teacher's guide", "teachers.ipynb"), ("Write a set", "write_set.ipynb"),
                 ("Your classes", "classes.ipynb"), ("Assignments", "assignment.ipynb"),
                 ("Class results", "dashboard.ipynb"),
                 ("Practice page", "practice.ipynb"), ("All games", "index.ipynb"))


def teacher_bar(page: str) -> str:
    """The line of links at the top of the teacher's page ``page`` (a notebook's name):
    every teacher's page, the page itself in bold and not a link. Each teacher notebook's
    first cell holds it word for word (tests/test_lesson_words.py)."""
    return "**Teacher's pages:** " + " · ".join(
        f"**{label}**" if notebook == page else f"[{label}]({notebook})"
        for label, notebook in TEACHER_PAGES)


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
    line = _('{what} needs a MathCards server: <a href="{link}">how to run one</a>.').format(
        what=html.escape(what), link=SERVER_HELP)
    return f'<p class="mc-needs-server" role="note">{line}</p>'


def unpack_deferred(*names: str) -> None:
    """On the static site, the wheels of ``names`` (sympy and mpmath: the explainer's)
    unpacked now, once; elsewhere nothing.

    The site's pages start without them (unpacking sympy was about 6 s of every visit's
    start, for a page that may never explain a move): they stay in the site's lock file, and
    the first explanation fetches them from the site (the browser's cache after once) by a
    synchronous request, allowed in the kernel's worker, checked against the lock file's
    sha256."""
    if not in_browser():
        return
    import hashlib
    import importlib
    import io
    import sysconfig
    import zipfile

    import pyodide_js  # type: ignore[import-not-found]
    from js import URL, Object, XMLHttpRequest  # type: ignore[import-not-found]

    config = pyodide_js._api.config
    # the lock file names each wheel relative to the folder it is read from
    base = (getattr(config, "packageBaseUrl", None) or getattr(config, "lockFileURL", None)
            or config.indexURL)
    loaded = set(Object.keys(pyodide_js.loadedPackages))
    for name in names:
        if name in loaded:
            continue
        entry = getattr(pyodide_js._api.lockfile_packages, name)
        request = XMLHttpRequest.new()
        address = URL.new(entry.file_name, base).href
        request.open("GET", address, False)
        request.responseType = "arraybuffer"
        request.send()
        if request.status != 200:
            raise OSError(f"{address}: the site answered {request.status}")
        data = request.response.to_bytes()
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            raise OSError(f"{entry.file_name} is not the wheel the site's lock file names")
        with zipfile.ZipFile(io.BytesIO(data)) as wheel:
            wheel.extractall(sysconfig.get_path("purelib"))
        setattr(pyodide_js.loadedPackages, name, "mathcards.site")
    importlib.invalidate_caches()
