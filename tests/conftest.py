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


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


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
