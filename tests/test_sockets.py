"""Voilà's websockets against a stranger (issue 36 items 1, 5 and 6), on a real server
started as ``make play`` starts it (``tests/browser/server.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from tests.browser.server import LESSONS, VoilaServer
from tests.hostile import HostilePage
from tests.test_server_restart_and_scripts import Browser, RecordingPage

pytestmark = pytest.mark.slow

PAGE_BUDGET = 120.0  # Voilà's own budget for a page's silence (VoilaExecutor.iopub_timeout)


# --- item 1: a kernel stuck rendering a page nobody sees is shut down ------------------
def _stuck_lessons(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("print('rendering')"),
        nbformat.v4.new_code_cell("import time\nwhile True:\n    time.sleep(1)")])
    nbformat.write(nb, root / "stuck.ipynb")
    return root


def test_a_busy_kernel_whose_page_never_connected_is_shut_down(tmp_path):
    server = VoilaServer(
        tmp_path / "state", root_dir=_stuck_lessons(tmp_path / "lessons"),
        extra_args=["--MappingKernelManager.cull_interval=1",
                    "--ClassroomKernelManager.busy_unconnected_grace=12",
                    "--VoilaConfiguration.preheat_kernel=False"]).start()
    try:
        # the page never finishes: its visitor leaves
        with contextlib.suppress(TimeoutError, urllib.error.URLError):
            page = urllib.request.urlopen(server.page("stuck.ipynb"), timeout=4).read()
            pytest.fail(f"the page finished: {page[-1500:]!r}\n{server.log_text()[-3000:]}")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "its page never connected" not in \
                server.log_text():
            time.sleep(1)
        assert re.search(r"Shutting down kernel \S+: busy for \d+ s and its page never "
                         r"connected", server.log_text()), server.log_text()[-3000:]
    finally:
        server.stop()


@pytest.fixture(scope="module")
def play_server(tmp_path_factory) -> Iterator[VoilaServer]:
    """The Sums play page (a pool of two preheated kernels) served as make play serves it."""
    root = tmp_path_factory.mktemp("lessons")
    shutil.copy(LESSONS / "play_sums.ipynb", root / "play_sums.ipynb")
    server = VoilaServer(tmp_path_factory.mktemp("state"), root_dir=root).start()
    try:
        server.wait_for_pools(1)
        yield server
    finally:
        server.stop()


def _send_raw(page: HostilePage, text: str | bytes) -> None:
    asyncio.set_event_loop(page.loop)
    page.ws.write_message(text, binary=isinstance(text, bytes))


def _message(msg_type: str, content: dict, channel: str = "shell") -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "x",
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel,
            "buffers": []}


# --- item 5: tracebacks and crashes from the websocket ---------------------------------
def test_a_widget_opened_by_the_page_gets_no_traceback_and_the_page_goes_on(play_server):
    page = RecordingPage.open(play_server, "play_sums.ipynb?student=opener")
    try:
        comm_id = uuid.uuid4().hex
        page.settle(quiet=1.0)
        seen = len(page.seen)  # what the page got before
        page._send("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget",
                                 "data": {"state": {}}, "metadata": {}}, {"version": "0.1"})
        page.settle(quiet=2.0)
        answer = page.seen[seen:]
        sent = json.dumps(answer, default=str)
        for leak in ("Traceback", "site-packages", ".py\\\"", str(LESSONS.parent)):
            assert leak not in sent, leak
        said = "".join(m["content"].get("text", "") for m in answer
                       if m.get("header", {}).get("msg_type") == "stream")
        assert len(said.strip().splitlines()) <= 1, said  # at most one line
        closed = [m for m in answer if m.get("header", {}).get("msg_type") == "comm_close"]
        assert [m["content"]["comm_id"] for m in closed] == [comm_id]  # refused: closed
        page.click(page.button(re.compile("New game|Hint")))  # the page still works
    finally:
        page.close()


def test_a_huge_number_in_a_message_is_dropped_and_the_socket_stays(play_server):
    page = HostilePage.open(play_server, "play_sums.ipynb?student=digits")
    try:
        msg = _message("comm_msg", {"comm_id": "x", "data": {}})
        text = json.dumps(msg)[:-1] + ', "n": ' + "7" * 5000 + "}"
        _send_raw(page, text)
        page.settle(quiet=1.0)
        page.click(page.button(re.compile("New game|Hint")))  # the same socket still works
        log = play_server.log_text()
        assert "Uncaught exception" not in log and "Traceback" not in log
        assert f"Dropped a message to kernel {page.kernel_id} the server cannot read" in log
    finally:
        page.close()


def test_a_page_cannot_restart_its_kernel(play_server):
    page = HostilePage.open(play_server, "play_sums.ipynb?student=restarter")
    try:
        before = len(page.models)
        _send_raw(page, json.dumps(_message("shutdown_request", {"restart": True}, "control")))
        page.settle(quiet=5.0)
        log = play_server.log_text()
        assert f"kernel {page.kernel_id} restarted" not in log
        assert f"Dropped a page's shutdown_request to kernel {page.kernel_id}" in log
        again = HostilePage(page.base_url, page.html, page.kernel_id)  # the page reloaded:
        try:  # its kernel still holds the table's every widget
            again._run(again._connect(60))
            assert len(again.models) >= before
        finally:
            again.close()
    finally:
        page.close()


# --- item 6: no buffered replies for a socket closed for misbehaving ------------------------
def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def test_replies_of_a_socket_cut_off_for_not_reading_are_not_kept(play_server):
    server = play_server
    before = _rss_mb(server.process.pid)
    hoarder = HostilePage.open(server, "play_sums.ipynb?student=hoard6")
    size = len(json.dumps(hoarder.models))
    control = uuid.uuid4().hex
    hoarder._send("comm_open", {"comm_id": control, "data": {}, "metadata": {},
                                "target_name": "jupyter.widget.control"}, {"version": "1.0.0"})
    for _ in range((48 << 20) // size + 1):  # 48 MB of answers, never read
        hoarder._send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "left 16 MB unread" not in server.log_text():
        time.sleep(1)
    assert "left 16 MB unread" in server.log_text()
    time.sleep(20)  # the kernel goes on answering what it was asked
    log = server.log_text()
    assert f"Starting buffering for {hoarder.kernel_id}:{hoarder.session}" not in log
    assert f"Not buffering kernel {hoarder.kernel_id}'s replies" in log
    grown = _rss_mb(server.process.pid) - before
    assert grown < 120, f"Voilà grew by {grown:.0f} MB"
    hoarder.close()


# --- item 1: a stranger's request-info sockets ---------------------------------------------
async def _open_two_close_both(port: int, rounds: int, budget: float) -> int:
    """The attack: sockets to a random kernel id, no cookie; the second closed first."""
    from tornado.httpclient import HTTPClientError
    from tornado.websocket import websocket_connect

    done = 0
    end = time.monotonic() + budget
    for _ in range(rounds):
        if time.monotonic() > end:
            break
        url = f"ws://127.0.0.1:{port}/voila/query/{uuid.uuid4()}"
        try:
            first = await websocket_connect(url, connect_timeout=10)
            second = await websocket_connect(url, connect_timeout=10)
        except (HTTPClientError, OSError):
            done += 1  # refused outright: as good as closed
            continue
        second.close()
        await asyncio.sleep(0.05)
        first.close()
        await asyncio.sleep(0.05)
        done += 1
    return done


def _page_seconds(browser: Browser, url: str) -> float:
    start = time.monotonic()
    with browser.opener.open(url, timeout=PAGE_BUDGET) as response:
        html = response.read().decode("utf-8", "replace")
    assert "GameTable(" in html and "There was an error" not in html, html[-1500:]
    return time.monotonic() - start


def test_strangers_sockets_cannot_hang_a_classmates_page(play_server):
    """Item 1: twenty cycles of two sockets to a random kernel id (no cookie, a few
    seconds) removed the waiters of the preheated kernels: every later page hung at
    "Executing 1 of 2"."""
    server = play_server
    usual = _page_seconds(Browser(), server.page("play_sums.ipynb?student=before"))
    server.wait_for_pools(2)  # the pool refilled
    time.sleep(8)  # refill_quiet: the pool's kernels are waiting for their visitors
    rounds = asyncio.run(_open_two_close_both(server.port, 20, budget=60))
    assert rounds == 20
    for i in range(3):  # the pool's two kernels, then a fresh one
        try:
            took = _page_seconds(Browser(), server.page(f"play_sums.ipynb?student=mate{i}"))
        except TimeoutError:
            pytest.fail(f"classmate {i}'s page hung after the attack")
        assert took < max(PAGE_BUDGET / 2, 10 * usual), (took, usual)
