"""Fixtures for the real-browser tests: a Voilà server as ``make play`` runs
it, and headless Chromium from the OS packages driven by Playwright.

Playwright never downloads a browser here: it drives ``/usr/bin/chromium``
(Debian's package, see ``.ci/ensure-chromium``). Without it the browser tests
are skipped with a message, and fail in CI (``CI=true``). The tests run one
page at a time: a cold page costs several CPU-seconds on this machine.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.server import LESSONS, VoilaServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# A first widget that can be clicked: Voilà has rendered the page, the widget
# manager has connected to the kernel and drawn the views.
FIRST_WIDGET = ".jupyter-widgets button:enabled, .widget-button:enabled"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


def require_chromium() -> None:
    """Skip (or, in CI, fail) when Debian's Chromium is not installed."""
    if CHROMIUM.exists():
        return
    message = (
        f"{CHROMIUM} is missing: install Debian's chromium (`sudo apt-get install chromium` "
        "or `make browser`) to run the browser tests"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def launch_chromium(playwright):
    """Headless Chromium from the OS, with nothing that phones home."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )


_SHARED: list[VoilaServer] = []  # the session's server, once started


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voilà serving lessons/ exactly as ``make play`` does, all state in a tmp folder."""
    require_chromium()
    server = VoilaServer(tmp_path_factory.mktemp("voila_state"), root_dir=LESSONS)
    server.start()
    _SHARED.append(server)
    try:
        yield server
    finally:
        _SHARED.remove(server)
        server.stop()


@pytest.fixture(autouse=True)
def _a_rerun_finds_no_name_taken(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's second try (tests/conftest.py) is a new browser: the names its
    first try claimed on the shared server are released first. Before, the second try of
    a test with ``?student=`` met "the name ... is taken on this server by another
    browser" and failed again, whatever the first try's trouble was."""
    if getattr(request.node, "execution_count", 1) > 1:
        from mathcards.names import NAMES_FILE, NameClaims

        for server in _SHARED:
            claims = NameClaims(server.state_dir / "mathcards_data" / NAMES_FILE)
            try:
                for claim in claims.claims():
                    claims.release(claim.name)
            finally:
                claims.close()
    yield


class ConsoleLog:
    """What a page wrote to the browser console, and the errors among it."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.messages: list[str] = []
        self.requests: list[str] = []

    def on_console(self, message) -> None:
        text = f"{message.type}: {message.text}"
        self.messages.append(text)
        if message.type == "error":
            self.errors.append(text)

    def on_page_error(self, error) -> None:
        self.errors.append(f"uncaught: {error}")


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A fresh 1280x800 page; ``page.console_errors`` lists console errors so far,
    ``page.requests`` every address the page fetched."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    log = ConsoleLog()
    page.on("console", log.on_console)
    page.on("pageerror", log.on_page_error)
    page.on("request", lambda request: log.requests.append(request.url))
    page.console_errors = log.errors
    page.console_messages = log.messages
    page.requests = log.requests
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        # run_before_unload: Voilà's unload handler shuts the page's kernel down.
        page.close(run_before_unload=True)
        context.close()


def wait_for_first_widget(page, timeout: float = 60_000):
    """The first enabled widget button once the page is interactive."""
    button = page.locator(FIRST_WIDGET).filter(visible=True).first
    button.wait_for(state="visible", timeout=timeout)
    return button


def wait_for_rendered(page, timeout: float = 60_000) -> None:
    """Voilà has finished executing and shows the cells (the spinner is gone)."""
    page.wait_for_selector("#rendered_cells", state="visible", timeout=timeout)
