"""The Voilà server against a restart and a script (issue 26 items 3, 4, 5, 10, 11), on a
real server started as ``make play`` starts it."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tests.browser.server import VoilaServer

pytestmark = pytest.mark.slow


def _tiny_lessons(root: Path) -> Path:
    """A folder with one small page (its kernel is all a visit needs here)."""
    root.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('hello')")])
    nbformat.write(nb, root / "hello.ipynb")
    return root


def _kernel_id(html: str) -> str:
    match = re.search(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})', html)
    assert match, "the page names no kernel"
    return match.group(1)


class Browser:
    """A browser: its own cookie jar."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def open(self, url: str) -> str:
        with self.opener.open(url, timeout=180) as response:
            return response.read().decode("utf-8", "replace")


def _seat_token(server: VoilaServer, kernel_id: str) -> str:
    """What the server told this page's kernel about its visitor (rooms hold seats by it)."""
    return (server.state_dir / "mathcards_data" / "visitors" / kernel_id).read_text()


def test_a_restart_keeps_every_browser_and_its_seat(tmp_path):
    """Item 3: Voilà made a new cookie secret at each start, so every identity cookie (and
    the room seat it holds) died with the process."""
    root = _tiny_lessons(tmp_path / "lessons")
    state = tmp_path / "state"
    student = Browser()
    server = VoilaServer(state, root_dir=root).start()
    try:
        before = _seat_token(server, _kernel_id(student.open(server.page("hello.ipynb"))))
        assert student.jar, "Voilà gave no identity cookie"
        port = server.port
    finally:
        server.stop()
    server = VoilaServer(state, root_dir=root, port=port).start()  # a restart, same address
    try:
        after = _seat_token(server, _kernel_id(student.open(server.page("hello.ipynb"))))
        assert "Clearing invalid/expired login cookie" not in server.log_text()
        stranger = Browser()
        other = _seat_token(server, _kernel_id(stranger.open(server.page("hello.ipynb"))))
    finally:
        server.stop()
    assert after == before, "the restarted server did not recognise the browser's cookie"
    assert other != before  # another browser is still someone else
    secret = state / "mathcards_data" / "cookie-secret"
    assert secret.stat().st_mode & 0o077 == 0, "the cookie secret is readable by others"
