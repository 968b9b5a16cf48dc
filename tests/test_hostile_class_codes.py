"""Guessing a class's student codes at the name picker, on a real Voilà server (issue 36
item 3).

The attack of the issue, as a script: one page of the class's landing page (served by
the command ``make play`` runs, ``tests/browser/server.py``), driven over its kernel's
websocket as a browser console can (``tests/hostile.py``): the code box set and *Start*
clicked, code after code, in bursts, for at most 60 seconds. Before the fix one such
page claimed 24 of 30 names of a class in a minute; now the page is told to wait after
a few wrong codes (the room codes' limit), claims no name, and a classmate with the
right code, in a browser of their own behind the same address, still gets in.
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mathcards.classes import CODE_LENGTH, CODE_LETTERS, ClassStore
from tests.browser.server import LESSONS, VoilaServer
from tests.hostile import HostilePage, browser_jar

pytestmark = pytest.mark.slow

ATTACK_SECONDS = 60.0
BURST = 40  # guesses sent before waiting for the kernel to handle them


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[VoilaServer]:
    """The lessons served as make play serves them."""
    server = VoilaServer(tmp_path_factory.mktemp("state"), root_dir=LESSONS).start()
    try:
        yield server
    finally:
        server.stop()


def data(server: VoilaServer) -> Path:
    return server.state_dir / "mathcards_data"


def claimed(server: VoilaServer) -> list[str]:
    """The names claimed on the server (its real names file)."""
    path = data(server) / "names.sqlite3"
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT name FROM claims ORDER BY name")]


def code_box(page: HostilePage) -> str:
    (box,) = page.find("Text", description="Your code:")
    return box


def test_guessing_class_codes_for_a_minute_claims_no_name(server):
    names = [f"s{i:02d}" for i in range(30)]
    with ClassStore(data(server) / "classes.sqlite3") as store:
        made = store.save("7b", names, codes=True)
    codes = {m.code for m in made.members}
    attacker = HostilePage.open(server, "index.ipynb?class=7b", jar=browser_jar())
    sent = 0
    try:
        box, start = code_box(attacker), attacker.button("Start")
        guesses = ("".join(g) for g in itertools.product(CODE_LETTERS, repeat=CODE_LENGTH))
        end = time.monotonic() + ATTACK_SECONDS
        while time.monotonic() < end:
            for guess in itertools.islice(guesses, BURST):
                attacker.update(box, {"value": guess}, wait=False)
                attacker.click(start, wait=False)
                sent += 1
            attacker.settle(timeout=max(5.0, end - time.monotonic() + 30))
        shown = attacker.text()
    finally:
        attacker.close()
    assert sent > 100, f"the attack sent only {sent} codes"
    assert claimed(server) == [], f"{sent} codes claimed {claimed(server)}"
    assert "too many wrong codes: wait" in shown and "Playing as" not in shown
    assert "taken" not in shown
    # a classmate, in a browser of their own behind the same address, types their code
    last = made.members[-1]
    assert last.code in codes
    classmate = HostilePage.open(server, "index.ipynb?class=7b", jar=browser_jar())
    try:
        classmate.update(code_box(classmate), {"value": last.code.lower()})
        classmate.click(classmate.button("Start"))
        assert f"Playing as <b>{last.name}</b>" in classmate.text(), classmate.text()[-800:]
    finally:
        classmate.close()
    assert claimed(server) == [last.name]
