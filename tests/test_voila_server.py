"""The Voilà server's kernels, on a real server (issue 11 items 3 and 4, issue 12).

- The teacher's pages are not preheated: they read the database when opened.
- A pooled kernel that waited longer than the idle timeout is not culled under
  its first visitor before the page connects.
- A kernel whose page never connects is shut down soon after it rendered.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import json
import re
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator

import pytest

from tests.browser.server import LESSONS, VoilaServer

pytestmark = pytest.mark.slow


def _kernel_id(html: str) -> str:
    match = re.search(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})', html)
    assert match, "the page names no kernel"
    return match.group(1)


def _open(server: VoilaServer, notebook: str) -> str:
    with urllib.request.urlopen(server.page(notebook), timeout=180) as response:
        return response.read().decode("utf-8", "replace")


async def _kernel_answers(server: VoilaServer, kernel_id: str) -> bool:
    """Connect to the kernel as the page does and ask for kernel_info."""
    from tornado.httpclient import HTTPClientError
    from tornado.websocket import websocket_connect

    url = (f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels"
           f"?session_id={uuid.uuid4().hex}")
    try:
        ws = await websocket_connect(url, connect_timeout=20)
    except (HTTPClientError, OSError):
        return False
    msg_id = uuid.uuid4().hex
    ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "test",
                   "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell", "buffers": [],
    }))
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(ws.read_message(), timeout=30)
            if raw is None:
                return False
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") == msg_id and \
                    msg["header"]["msg_type"] == "kernel_info_reply":
                return True
    finally:
        ws.close()
    return False


def _answers(server, kernel_id) -> bool:
    return asyncio.run(_kernel_answers(server, kernel_id))


@contextlib.contextmanager
def serving(state, *extra_args: str) -> Iterator[VoilaServer]:
    """The lessons served as make play serves them (plus ``extra_args``), pools ready."""
    server = VoilaServer(state, root_dir=LESSONS, extra_args=list(extra_args)).start()
    try:
        server.wait_for_pools(9)
        yield server
    finally:
        server.stop()


@pytest.fixture
def quick_culling_server(tmp_path):
    """The lessons served as by make play, with the idle timeout cut to 3 s."""
    with serving(tmp_path / "state", "--MappingKernelManager.cull_idle_timeout=3",
                 "--MappingKernelManager.cull_interval=1",
                 "--ClassroomKernelManager.unconnected_grace=12") as server:
        yield server


def test_kernels_wait_for_their_page_and_pages_that_never_connect_free_theirs(
        quick_culling_server):
    server = quick_culling_server
    log = server.log_text()
    assert "Kernel pool of dashboard.ipynb" not in log  # read when a teacher opens it
    assert "Kernel pool of teachers.ipynb" not in log
    time.sleep(6)  # the pooled kernels are now idle for longer than the timeout
    # the first visitor after a quiet spell: the culler runs before the page connects
    first = _kernel_id(_open(server, "shoot_the_moon.ipynb"))
    time.sleep(7)  # a slow page: connects after more than the idle timeout
    assert _answers(server, first), "the visitor's kernel was culled before the page connected"
    # a page fetched but never connected: its kernel is shut down after the grace
    lost = _kernel_id(_open(server, "sums.ipynb"))
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and "its page never connected" not in server.log_text():
        time.sleep(1)
    assert f"Shutting down kernel {lost}" in server.log_text()
    assert not _answers(server, lost)
    assert f"Shutting down kernel {first}" not in server.log_text()  # the connected one stays


@pytest.fixture(scope="module")
def play_server(tmp_path_factory):
    """The lessons served exactly as make play serves them."""
    with serving(tmp_path_factory.mktemp("state")) as server:
        yield server


def test_ten_visitors_at_once_all_get_a_working_table(play_server):
    """Ten students open the same play page in the same second (issue 12): every page
    completes with the table, on its own kernel, and every kernel answers."""
    gate = threading.Barrier(10)

    def visit(i: int) -> str:
        gate.wait()
        return _open(play_server, f"play_sums.ipynb?student=burst{i}")

    with cf.ThreadPoolExecutor(10) as pool:
        pages = list(pool.map(visit, range(10)))
    kernels = set()
    for html in pages:
        assert "GameTable(" in html and "There was an error" not in html
        kernels.add(_kernel_id(html))
    assert len(kernels) == 10
    for kernel in kernels:
        assert _answers(play_server, kernel)
    log = play_server.log_text()
    assert "Address already in use" not in log  # kernels talk over ipc, not TCP ports


def test_a_class_setting_warms_that_many_kernels(tmp_path, monkeypatch):
    """make play CLASS=3:play_sums keeps three preheated play_sums kernels ready."""
    monkeypatch.setenv("MATHCARDS_CLASS", "3:play_sums")
    with serving(tmp_path / "state") as server:
        assert "Kernel pool of play_sums.ipynb is filled with 3 kernel(s)" in server.log_text()
        for i in range(3):
            _open(server, f"play_sums.ipynb?student=warm{i}")
        assert server.log_text().count("Using pre-heated kernel") == 3


def test_a_visitor_over_the_kernel_cap_gets_one_line(tmp_path):
    # 12 pooled kernels: the cap is reached, the pool's kernels are still handed out
    with serving(tmp_path / "state", "--ClassroomKernelManager.max_kernels=12") as server:
        for i in range(2):
            assert "GameTable(" in _open(server, f"play_sums.ipynb?student=cap{i}")
        with pytest.raises(urllib.error.HTTPError) as refused:  # this one needs a new kernel
            _open(server, "play_sums.ipynb?student=cap2")
        page = refused.value.read().decode("utf-8", "replace")
        assert refused.value.code == 503
        assert "This server is full right now" in page and "Traceback" not in page


def test_one_browser_holds_a_few_kernels_and_others_still_get_pages(tmp_path):
    """Someone reloading again and again gets one line; the class is not refused."""
    import http.cookiejar

    def browser():
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        return opener, jar

    with serving(tmp_path / "state", "--ClassroomKernelManager.max_kernels_per_visitor=3",
                 "--ClassroomKernelManager.refill_quiet=60") as server:
        reloader, jar = browser()
        reloader.open(server.url("voila/tree/"), timeout=120).read()  # a browser that has
        pages = []  # been here before (the landing page) carries Voilà's identity cookie
        for _ in range(3):  # the pool's two kernels, then a fresh one
            with reloader.open(server.page("play_sums.ipynb?student=again"), timeout=120) as r:
                pages.append(r.read().decode())
            assert jar, "Voilà gave no identity cookie"
        assert all("GameTable(" in page for page in pages)
        with pytest.raises(urllib.error.HTTPError) as refused:
            reloader.open(server.page("play_sums.ipynb?student=again"), timeout=120).read()
        assert refused.value.code == 429
        assert "too many MathCards pages open" in refused.value.read().decode()
        classmate, _ = browser()  # another browser, and a first visit without a cookie
        with classmate.open(server.page("play_sums.ipynb?student=other"), timeout=120) as r:
            assert "GameTable(" in r.read().decode()
        assert "GameTable(" in _open(server, "play_sums.ipynb?student=third")


def test_a_browser_counts_the_pages_it_has_open_not_the_pages_it_opened(tmp_path):
    """Issue 36 item 11: a student clicking from page to page (each tab closed before the
    next) was refused at the 8th page in 20 s, the closed pages' kernels still counted (fails
    before: the 4th page here, with a cap of 3, got 429). Pages kept open still count."""
    from tests.hostile import HostilePage, browser_jar

    with serving(tmp_path / "state", "--ClassroomKernelManager.max_kernels_per_visitor=3",
                 "--ClassroomKernelManager.refill_quiet=60") as server:
        jar = browser_jar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(server.url("voila/tree/"), timeout=120).read()  # the identity cookie
        for i in range(7):  # opened, connected, closed: one page open at a time
            page = HostilePage.open(server, f"play_sums.ipynb?student=clicker{i}", jar=jar)
            assert page.models, "the page's widgets did not load"
            page.close()
            time.sleep(0.5)  # the tab's websocket closes as the next page is asked for
        assert "Refusing a kernel" not in server.log_text()
        kept = [HostilePage.open(server, f"play_sums.ipynb?student=open{i}", jar=jar)
                for i in range(3)]
        try:
            with pytest.raises(urllib.error.HTTPError) as refused:  # three open: the cap
                opener.open(server.page("play_sums.ipynb?student=open3"), timeout=120).read()
            assert refused.value.code == 429
        finally:
            for page in kept:
                page.close()
