"""The Voilà server against a restart and a script (issue 26 items 3, 4, 5, 10, 11), on a
real server started as ``make play`` starts it."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.request
import uuid
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


def _teacher_lessons(root: Path) -> Path:
    """A teacher's page (named as the dashboard: not preheated) that says whether it opens."""
    root.mkdir(parents=True, exist_ok=True)
    code = ("from mathcards.widgets.teacher import teacher_only\n"
            "print('TEACHER-' + ('OPEN' if teacher_only(show=False) else 'LOCKED'))")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbformat.write(nb, root / "dashboard.ipynb")
    return root


def _shows(browser: Browser, url: str) -> str:
    html = browser.open(url)
    found = re.findall(r"TEACHER-(OPEN|LOCKED)", html)
    assert len(set(found)) == 1, html[-2000:]
    return found[0]


def test_the_teacher_signs_in_once_and_no_key_reaches_the_log(tmp_path):
    """Item 10: the key was in every address (a projector shows it) and a 429 or 503
    logged the whole address."""
    import urllib.error

    state = tmp_path / "state"
    data = state / "mathcards_data"
    data.mkdir(parents=True)
    key = "a-classroom-key-" + uuid.uuid4().hex
    (data / "teacher-key").write_text(key + "\n")  # as keys.teacher_key() reads it
    server = VoilaServer(state, root_dir=_teacher_lessons(tmp_path / "lessons"),
                         extra_args=["--ClassroomKernelManager.max_kernels=6",
                                     "--ClassroomKernelManager.unconnected_grace=600"]).start()
    try:
        page = server.page("dashboard.ipynb")
        teacher = Browser()
        assert _shows(teacher, f"{page}?key={key}&student=ms-lee") == "OPEN"
        cookie = next(c for c in teacher.jar if c.name == "mathcards-teacher")
        assert cookie.has_nonstandard_attr("HttpOnly") and key not in cookie.value
        assert _shows(teacher, page) == "OPEN"  # the cookie alone, no key in the address
        stranger = Browser()
        assert _shows(stranger, page) == "LOCKED"
        assert _shows(stranger, f"{page}?key={key[:-1]}x") == "LOCKED"
        forged = Browser()
        forged.opener.addheaders.append(("Cookie", f"mathcards-teacher={cookie.value[:-2]}xx"))
        assert _shows(forged, page) == "LOCKED"
        # the server is full (six kernels run): the key in a refused address is not logged
        hold = Browser().open(page)
        for _ in range(2):
            with pytest.raises(urllib.error.HTTPError) as full:
                teacher.open(f"{page}?key={key}")
            assert full.value.code == 503
        with pytest.raises(urllib.error.HTTPError):
            stranger.open(f"{page}?key={key}x")
        assert hold
        log = server.log_text()
    finally:
        server.stop()
    assert "503 GET" in log
    assert key not in log, [line for line in log.splitlines() if key in line]
