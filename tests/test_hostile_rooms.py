"""Rooms against a hostile page, on a real Voilà server (issue 26 items 1, 2, 6, 7).

Each test drives the real play pages the way the hostile classmate did: widget
messages sent over the page's kernel websocket (``tests/hostile.py``), hidden
widgets included, with or without Voilà's identity cookie; the rooms file is the
server's real SQLite file.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.server import LESSONS, VoilaServer
from tests.hostile import HostilePage

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[VoilaServer]:
    """The lessons served as make play serves them."""
    server = VoilaServer(tmp_path_factory.mktemp("state"), root_dir=LESSONS).start()
    try:
        server.wait_for_pools(9)
        yield server
    finally:
        server.stop()


def rooms_file(server: VoilaServer) -> Path:
    return server.state_dir / "mathcards_data" / "rooms.sqlite3"


def stored(server: VoilaServer, sql: str, args: tuple = ()) -> list[tuple]:
    with sqlite3.connect(rooms_file(server)) as db:
        return db.execute(sql, args).fetchall()


def room_code(page: HostilePage) -> str:
    match = re.search(r'data-room="([A-Z0-9]{5})"', page.text())
    assert match, "the page shows no room code:\n" + page.text()[-1500:]
    return match.group(1)


def test_a_hostile_page_reads_and_drives_every_widget(server):
    """The harness itself: a page loaded without the cookie, its widgets read from the
    kernel, a hidden panel's button clicked over the websocket."""
    page = HostilePage.open(server, "play_sums.ipynb?student=smoke")
    try:
        assert page.find("Dropdown", description="Players:")
        assert "Playing as smoke" in page.text()
        page.click(page.button("Make a room"))
        page.settle(quiet=0.5)
        code = room_code(page)
        assert stored(server, "SELECT count(*) FROM seats WHERE code=?", (code,)) == [(2,)]
    finally:
        page.close()
