"""The static site (``make site``: Voici, Python in the browser) served as plain files by
``python -m http.server``, in Chromium (issue 30's Must show).

A student opens the landing page and gives a name (kept in the browser: the page's
address does not reach the kernel on this path, so the play page opens at its default
level, "I count"), plays a Suns to Moons move against a bot by answering the table's
question in the answer box, answers a practice exercise, reloads both pages and finds the
game and the answer kept, and downloads the progress file; the teacher's dashboard code
reads a folder holding it. Every request the browser makes stays on the site's address.

A page's Python starts from the site's memory snapshot (issue 40): checked with it, with
it removed and with it corrupt (the page then starts from the wheels), and two starts from
it hold different secrets.

``make test`` builds ``_site`` first (``make site``, downloads cached); run alone, the
test builds it when it is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mathcards.exercises.results import read_answers, read_results
from tests.browser.test_asking import _choose, _give, _question, answer_of
from tests.browser.test_game_pages import (
    PLAYABLE,
    move_number,
    render_number,
    wait_settled,
    wait_visible,
)

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "_site"
NAME = "ana"
# a cold page downloads and starts Python in the browser: well under this on this machine
START = 180_000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_site() -> None:
    """Build ``_site`` (``make site``'s command) when it is missing."""
    if not (SITE / "voici" / "render" / "play_suns_to_moons.html").exists():
        subprocess.run([sys.executable, str(REPO / "deploy" / "site" / "build.py"),
                        "--out", str(SITE)], check=True)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The built site served by Python's plain static file server; its address."""
    ensure_site()
    with serve(SITE) as address:
        yield address


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """``folder`` served by Python's plain static file server; its address."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "-d", str(folder),
         str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                server.poll()
                assert server.returncode is None, "python -m http.server did not start"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _page_of(site: str, name: str) -> str:
    return f"{site}/voici/render/{name}.html"


def _play_one_move(page) -> None:
    """Choose a card and its sign until the table asks for the deck's new value, then
    answer it rightly in the answer box; the move is laid and the bot answers."""
    moves = move_number(page)
    for _ in range(12):
        wait_settled(page)
        if _question(page):
            break
        cards = page.locator(".mc-hand .mc-cardbtn:enabled")
        for i in range(cards.count()):
            if _choose(page, cards.nth(i)) and _question(page):
                break
        else:
            raise AssertionError("no card of the hand could be played")
    prompt = _question(page)
    assert prompt, "the table asked nothing at 'I count'"
    _give(page, answer_of(prompt), pad=False)
    # the student's move and the bot's answers, until the student is to move again: then
    # nothing is pending and the saved game is the one shown (read while the bot was still
    # to move, the move number raced the bot's moves the saved game then held: 3 against 2,
    # then 3 against 4, in CI); a round won waits for "Next round"
    page.wait_for_function(
        "(m) => Number(document.querySelector('.mc-header [data-move]').dataset.move) > m",
        arg=moves, timeout=60_000)
    next_round = ".mc-choices .mc-choice:visible:has-text('Next round')"
    for _ in range(5):
        wait_settled(page, timeout=60_000)  # no bot about to move
        # the bots wait a moment after the feedback of a right answer (issue 37 item 7):
        # the student's turn, or a round won, comes after it
        page.locator(f".mc-turn.mc-turn-you, {next_round}").first.wait_for(timeout=60_000)
        if page.locator(".mc-turn.mc-turn-you").count():
            return
        # a round won: its moment holds the table until "Next round" (the table's pool of
        # choice buttons keeps hidden ones with their last words: the visible one)
        render = render_number(page)
        page.locator(next_round).click()
        wait_settled(page, render, timeout=60_000)
    raise AssertionError("the student never came to move again")


def _open_set(page) -> None:
    button = page.locator(".mathcards button:has-text('suns to moons')")
    button.wait_for(state="visible", timeout=START)
    button.click()
    page.get_by_text("Suns to Moons: reach the goal").first.wait_for()


def test_the_static_site_plays_keeps_and_hands_over_a_students_work(site, browser, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(60_000)
    try:
        # the landing page: the name, asked once and kept in this browser
        page.goto(site + "/", timeout=START)
        box = page.locator(".mathcards input[type=text]").first
        box.wait_for(state="visible", timeout=START)
        box.fill(NAME)
        page.locator(".mathcards button:has-text('Start')").first.click()
        page.locator(".mc-hello", has_text=f"Playing as {NAME}").wait_for(timeout=60_000)

        # a lesson's worked examples: their LaTeX is sympy's, which a page's start leaves
        # out (mathcards.site.unpack_deferred unpacks it from the site on first use)
        page.goto(_page_of(site, "suns_to_moons"), timeout=START)
        steps = page.locator("button:has-text('Next ▶')")
        steps.nth(2).wait_for(state="visible", timeout=START)
        assert "Error" not in page.locator("body").inner_text()

        # a Suns to Moons move against a bot, the table's question answered (anywidget)
        page.goto(_page_of(site, "play_suns_to_moons"), timeout=START)
        wait_visible(page, PLAYABLE, timeout=START)
        assert f"Playing as {NAME}" in page.locator(".mc-header").first.inner_text()
        assert page.locator(".mc-levels button.mod-active").inner_text() == "I count"
        assert "needs a MathCards server" in page.locator(".mathcards").first.inner_text()
        _play_one_move(page)
        wait_settled(page)
        moves = move_number(page)

        # reload: the saved game is offered and resumes at the same move
        page.reload(timeout=START)
        resume = page.locator(".mathcards button:has-text('Resume my saved game')")
        resume.wait_for(state="visible", timeout=START)
        resume.click()
        wait_settled(page)
        wait_visible(page, PLAYABLE)
        assert move_number(page) == moves

        # a practice exercise: deck 9, −4, +2 is 7
        page.goto(_page_of(site, "practice"), timeout=START)
        _open_set(page)
        page.get_by_placeholder("the deck value, like -3").fill("7")
        page.locator(".mathcards button:has-text('Check')").first.click()
        page.locator(".mc-result.mc-right").wait_for()
        page.locator("tr.mc-attempt").first.wait_for()

        # reload: the answer is kept
        page.reload(timeout=START)
        _open_set(page)
        page.locator("tr.mc-attempt").first.wait_for()
        row = page.locator("tr.mc-attempt").first.inner_text()
        assert "exercise 1" in row and "7" in row and "right" in row, row

        # the progress file, downloaded: the teacher's dashboard reads a folder of them
        page.locator(".mathcards button:has-text('All sets')").click()
        page.locator(".mathcards button:has-text('Download my progress')").click()
        link = page.locator(f"a[download='mathcards-progress-{NAME}.json']")
        with page.expect_download() as download:
            link.click()
        folder = tmp_path / "class"
        folder.mkdir()
        download.value.save_as(folder / download.value.suggested_filename)
        attempts = read_results(folder)
        assert [(a.student, a.answer, a.correct) for a in attempts] == [(NAME, "7", True)]
        answers = read_answers(folder)
        assert {a.student for a in answers} == {NAME}
        assert {a.source for a in answers} >= {"play", "exercise"}, answers
    finally:
        page.close()
        context.close()
    # nothing fetched from another host: every request stays on the site's address
    elsewhere = sorted({url for url in requests
                        if not url.startswith((site + "/", "data:", "blob:"))})
    assert not elsewhere, elsewhere
    # (the log holds the kernel worker's fetches too: the runtime and the wheels)
    assert any(url.endswith("/pyodide.asm.wasm") for url in requests), requests[:20]
    assert any(url.endswith("-py3-none-any.whl") for url in requests), requests[:20]
    assert errors == [], errors


SNAPSHOT = Path("static") / "pyodide" / "mathcards-snapshot.bin.gz"


def _site_copy(folder: Path, variant: str) -> Path:
    """A copy of ``_site`` (hard links) whose start-up snapshot is as ``variant`` says."""
    shutil.copytree(SITE, folder, copy_function=os.link)
    snapshot = folder / SNAPSHOT
    data = snapshot.read_bytes()
    snapshot.unlink()  # a hard link: _site's own file stays as it is
    if variant == "corrupt snapshot":
        middle = len(data) // 2
        snapshot.write_bytes(data[:middle] + bytes(b ^ 0x5A for b in data[middle:middle + 4096])
                             + data[middle + 4096:])
    return folder


def _fresh_hand(browser, site: str) -> tuple[str, list[str], list[str]]:
    """A first visit to the play page (a fresh browser): the hand dealt, every request,
    and the page's errors."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(_page_of(site, "play_suns_to_moons"), timeout=START)
        box = page.locator(".mathcards input[type=text]").first
        box.wait_for(state="visible", timeout=START)
        box.fill(NAME)
        page.locator(".mathcards button:has-text('Start')").first.click()
        hand = page.locator(".mc-hand").first
        page.locator(".mc-hand .mc-cardbtn:enabled").first.wait_for(timeout=START)
        return hand.inner_text(), requests, errors
    finally:
        page.close(run_before_unload=True)
        context.close()


@pytest.mark.parametrize("variant", ["snapshot", "no snapshot", "corrupt snapshot"])
def test_a_play_page_starts_from_the_snapshot_and_without_a_good_one(
        variant, browser, tmp_path):
    """Issue 40: a page starts Python from the site's memory snapshot (no wheel fetched);
    with the snapshot missing or corrupt it starts as before, from the wheels. Two fresh
    visits deal different hands: nothing random is frozen into the snapshot."""
    ensure_site()
    folder = SITE if variant == "snapshot" else _site_copy(tmp_path / "site", variant)
    with serve(folder) as address:
        hand, requests, errors = _fresh_hand(browser, address)
        assert errors == [], errors
        elsewhere = sorted({url for url in requests
                            if not url.startswith((address + "/", "data:", "blob:"))})
        assert not elsewhere, elsewhere
        wheels = [url for url in requests if url.endswith(".whl")]
        if variant == "snapshot":
            assert any(url.endswith("/mathcards-snapshot.bin.gz") for url in requests)
            assert wheels == [], wheels
            other_hand, _, other_errors = _fresh_hand(browser, address)
            assert other_errors == [], other_errors
            assert hand != other_hand, hand
        else:
            assert any("/mathcards-" in url for url in wheels), wheels


# a visit's start in Node: the worker's loadPyodide (deploy/site/snapshot-start.js) with
# the site's Pyodide, fetching the snapshot from the served site
RESTORE_JS = r"""
const fs = require("fs");
const [site, address, start] = process.argv.slice(1);
globalThis.self = { location: { href: address + "/voici/render/play_suns_to_moons.html" } };
const { loadPyodide } = require(site + "/static/pyodide/pyodide.js");
const warnings = [];
console.warn = (text) => warnings.push(String(text));
(async () => {
  const load = eval(fs.readFileSync(start, "utf-8"))(
    loadPyodide, "../../static/pyodide/pyodide.js");
  const pyodide = await load({ indexURL: site + "/static/pyodide/", stdout: () => {} });
  const found = pyodide.runPython(`
import random, sys
import mathcards.visitors, mathcards.saves
" ".join([str("pyodide_kernel" in sys.modules), mathcards.visitors._THIS_KERNEL,
          repr(random.random()), str(mathcards.saves.new_private_seed())])`);
  process.stdout.write(JSON.stringify({ found, warnings }));
})().catch((error) => { console.error(error); process.exit(1); });
"""


def test_two_starts_from_the_snapshot_hold_different_secrets(site):
    """Issue 40: a snapshot freezes Python's memory, the random state and the secrets made
    at import among it (pyodide#4652): each start from it reseeds `random` and makes
    mathcards.visitors' kernel secret again."""
    runs = []
    for _ in range(2):
        done = subprocess.run(
            ["node", "-e", RESTORE_JS, str(SITE), site,
             str(REPO / "deploy" / "site" / "snapshot-start.js")],
            capture_output=True, text=True, timeout=300, check=True)
        result = json.loads(done.stdout)
        assert result["warnings"] == [], result["warnings"]  # started from the snapshot
        restored, secret, number, seed = result["found"].split()
        assert restored == "True"  # the kernel was imported: its memory came from the snapshot
        runs.append((secret, number, seed))
    (secret_1, number_1, seed_1), (secret_2, number_2, seed_2) = runs
    assert secret_1.startswith("kernel:") and secret_1 != secret_2
    assert number_1 != number_2
    assert seed_1 != seed_2
