"""Suite-wide order: the real-browser tests run last.

Playwright's sync API keeps an asyncio loop marked as running in the main
thread for as long as the session's browser lives; tests after it that look for
a running loop (the bots' pause on the kernel's loop) would find Playwright's.
Running the browser tests last keeps every other test in a plain interpreter,
and keeps the browser's CPU cost in one block (one page at a time).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

# Every test process (and every process it starts) keeps MathCards' files out of
# the home folder and uses one known variant secret, so variants replay across
# processes; tests of the secrets themselves set their own.
_STATE = tempfile.mkdtemp(prefix="mathcards-tests-")
atexit.register(shutil.rmtree, _STATE, ignore_errors=True)
os.environ.setdefault("MATHCARDS_DATA_DIR", os.path.join(_STATE, "data"))
os.environ.setdefault("MATHCARDS_SECRET", "variant-secret-of-the-test-suite")
# The suite may itself run inside a JupyterHub server: outside-a-hub behaviour is
# tested as such, and the hub tests set JUPYTERHUB_USER themselves.
os.environ.pop("JUPYTERHUB_USER", None)


# Tests that drive a real Voilà server or JupyterHub with Chromium get one more try
# (pytest-rerunfailures): on a loaded 2-core CI machine a page can miss a wait. A second
# try is never silent: the summary says RERUN, and tests/.reruns.txt lists every rerun
# with the first try's error, to be fixed at its cause.
RERUNS = os.path.join(os.path.dirname(__file__), ".reruns.txt")


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=2))


def pytest_sessionstart(session):
    if os.path.exists(RERUNS):
        os.remove(RERUNS)


def pytest_runtest_logreport(report):
    if report.outcome == "rerun":
        crash = getattr(report.longrepr, "reprcrash", None)
        why = (crash.message if crash is not None else str(report.longrepr)).strip()
        with open(RERUNS, "a", encoding="utf-8") as f:
            f.write(f"{report.nodeid}: {why.splitlines()[0][:300] if why else ''}\n")


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, one for the whole run: the Voilà pages' tests and the
    hub's share it (Playwright's sync API keeps one event loop per process)."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import launch_chromium, require_chromium

    require_chromium()
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()
