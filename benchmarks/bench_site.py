"""The static site's play page (``make site``: Python in the browser) beside Voilà's.

    python -m benchmarks.bench_site [--runs 3] [--before OTHER_BUILD]

Headless Chromium opens ``play_suns_to_moons`` twice per round with a fresh profile
folder (a disk cache, as a student's browser has: an incognito context's memory cache keeps
no entry as large as Pyodide's 8.6 MB ``pyodide.asm.wasm``): **cold** (empty cache, a
student's first visit) and **warm** (a new tab in the same profile: the browser's cache,
and on the site the name kept in the browser). No throttling: the figures are this
machine's CPU and the bytes moved.

- The site (``_site``, built when missing) is served as plain files by Python's
  ``http.server`` in this process, with a count of every byte it writes (headers and
  bodies) and every response: what the site sends, the kernel's worker's fetches (the
  Python runtime, the wheels) among them. A first visit shows the name prompt: its
  *Start* button is the first usable control; the table follows once the name is given
  (the time to it, from the request, includes typing the name). On the warm visit the
  name is kept and the table comes first.
- Voilà (``make play``'s settings, a preheated kernel waiting, as ``bench_pages``) serves
  ``play_suns_to_moons.ipynb?student=guest``; its bytes are Chromium's network log
  (``encodedDataLength``, as ``bench_network``).

``--before`` names another build of the site (an earlier commit's ``_site``, copied): it is
measured in the same rounds, right before this one, so a change is compared under one load.

First usable control: the first visible enabled widget button. Table: a card of the hand
or a move that can be played. Medians of ``--runs`` rounds, each visit with the 1-minute
load average at its end. Targets (issue 40, the site's pages start from a memory
snapshot): the site's first playable card warm <= 2.5 s, cold <= 5 s, on a quiet machine.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from benchmarks.bench_network import NetworkLog
from benchmarks.bench_pages import _filled, _wait_refilled, start_site
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, FIRST_WIDGET
from tests.browser.test_game_pages import PLAYABLE, wait_visible
from tests.browser.test_static_site import SITE, ensure_site

PAGE = "play_suns_to_moons"
TIMEOUT_MS = 300_000
WARM_TARGET = 2.5
COLD_TARGET = 5.0


class _Sent:
    """What the site's server has written: bytes and responses."""

    def __init__(self) -> None:
        self.bytes = 0
        self.responses = 0
        self.lock = threading.Lock()

    def add(self, n: int, response: bool = False) -> None:
        with self.lock:
            self.bytes += n
            self.responses += int(response)


class _Counted:
    def __init__(self, stream, sent: _Sent) -> None:
        self.stream = stream
        self.sent = sent

    def write(self, data: bytes) -> int:
        self.sent.add(len(data))
        return int(self.stream.write(data))

    def __getattr__(self, name: str) -> object:  # flush, close, closed: the stream's
        return getattr(self.stream, name)


class _Handler(SimpleHTTPRequestHandler):
    sent: _Sent

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counted(self.wfile, self.sent)  # type: ignore[assignment]

    def send_response(self, code: int, message: str | None = None) -> None:
        self.sent.add(0, response=True)
        super().send_response(code, message)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def counting_server(folder: Path) -> Iterator[tuple[str, _Sent]]:
    """``folder`` served as plain files on a free port, with a count of what is sent."""
    sent = _Sent()
    handler = type("Handler", (_Handler,), {"sent": sent})
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", sent
    finally:
        server.shutdown()
        server.server_close()


def _settled(page) -> None:
    with contextlib.suppress(Exception):
        page.wait_for_load_state("networkidle", timeout=30_000)
    page.wait_for_timeout(500)


Row = tuple[float, float, int, int, float]


def site_visit(context, base: str, sent: _Sent, *, name: str) -> Row:
    """(seconds to the first usable control, to the table, bytes sent, responses, the
    load average)."""
    page = context.new_page()
    before_bytes, before_responses = sent.bytes, sent.responses
    try:
        start = time.perf_counter()
        page.goto(f"{base}/voici/render/{PAGE}.html", wait_until="commit", timeout=TIMEOUT_MS)
        page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
            state="visible", timeout=TIMEOUT_MS)
        first = time.perf_counter() - start
        asked = page.locator(".mathcards button:has-text('Start')")
        if asked.count() and asked.first.is_visible():
            page.locator(".mathcards input[type=text]").first.fill(name)
            asked.first.click()
        wait_visible(page, PLAYABLE, timeout=TIMEOUT_MS)
        table = time.perf_counter() - start
        load = os.getloadavg()[0]
        _settled(page)
        return first, table, sent.bytes - before_bytes, sent.responses - before_responses, load
    finally:
        page.close()


def voila_visit(context, server, notebook: str) -> Row:
    """(seconds to the first usable control, to the table, bytes, responses, the load
    average) of Voilà."""
    page = context.new_page()
    try:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        log = NetworkLog(cdp)
        start = time.perf_counter()
        page.goto(server.page(f"{notebook}?student=guest"), wait_until="commit",
                  timeout=TIMEOUT_MS)
        page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
            state="visible", timeout=TIMEOUT_MS)
        first = time.perf_counter() - start
        wait_visible(page, PLAYABLE, timeout=TIMEOUT_MS)
        table = time.perf_counter() - start
        load = os.getloadavg()[0]
        _settled(page)
        return first, table, log.bytes, log.requests, load
    finally:
        page.close(run_before_unload=True)


def _profile(playwright, folder: Path):
    """Headless Chromium with a profile folder of its own (its disk cache starts empty)."""
    return playwright.chromium.launch_persistent_context(
        str(folder), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 800})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds measured (median of them)")
    parser.add_argument("--before", type=Path, help="another build of the site, measured "
                        "in the same rounds (a change's before and after)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    from playwright.sync_api import sync_playwright

    ensure_site()
    notebook = f"{PAGE}.ipynb"
    rows: dict[str, list[Row]] = {
        k: [] for k in ("before cold", "before warm", "site cold", "site warm", "voila cold",
                        "voila warm")}
    sites = [("site", SITE)] if args.before is None else [("before", args.before),
                                                          ("site", SITE)]
    with tempfile.TemporaryDirectory(prefix="mathcards-bench-") as tmp, \
            contextlib.ExitStack() as servers:
        served = [(key, *servers.enter_context(counting_server(folder)))
                  for key, folder in sites]
        server = start_site(Path(tmp))
        try:
            with sync_playwright() as playwright:
                for run in range(args.runs):
                    for key, base, sent in served:
                        context = _profile(playwright, Path(tmp) / f"{key}{run}")
                        try:
                            for kind in ("cold", "warm"):
                                rows[f"{key} {kind}"].append(
                                    site_visit(context, base, sent, name=f"bench{run}"))
                        finally:
                            context.close()
                    context = _profile(playwright, Path(tmp) / f"voila{run}")
                    try:
                        for kind in ("cold", "warm"):
                            before = _filled(server, notebook)
                            rows[f"voila {kind}"].append(voila_visit(context, server, notebook))
                            _wait_refilled(server, notebook, before)
                    finally:
                        context.close()
        finally:
            server.stop()
    _report(rows, args.runs)
    return 0


def _median(rows: list[Row], i: int) -> float:
    return statistics.median(r[i] for r in rows)


def _report(rows: dict[str, list[Row]], runs: int) -> None:
    print(f"{PAGE}, Chromium unthrottled on this machine; medians of {runs} runs. Cold: "
          "a fresh profile, its disk cache empty (on the site: the name prompt first, the "
          "table once the name is given); warm: a new tab with that cache (on the site the "
          "name is kept). "
          "Bytes: what the site's file server wrote; for Voilà, Chromium's network log.\n")
    print("| server | visit | first usable control (s) | table playable (s) | sent (MB) | "
          "responses | load average | runs, table playable (s) |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for key, label in (("before", "static site, the build before (`--before`)"),
                       ("site", "static site (`make site`, plain files)"),
                       ("voila", "Voilà (`make play`, preheated kernel)")):
        for kind in ("cold", "warm"):
            got = rows[f"{key} {kind}"]
            if not got:
                continue
            print(f"| {label} | {kind} | {_median(got, 0):.1f} | {_median(got, 1):.1f} | "
                  f"{_median(got, 2) / 1e6:.2f} | {_median(got, 3):.0f} | "
                  f"{_median(got, 4):.1f} ({min(r[4] for r in got):.1f}-"
                  f"{max(r[4] for r in got):.1f}) | "
                  + ", ".join(f"{r[1]:.1f}" for r in got) + " |")
    cold = _median(rows["site cold"], 1)
    warm = _median(rows["site warm"], 1)

    def verdict(value: float, target: float) -> str:
        return f"{value:.1f} s ({'within' if value <= target else 'over'} the {target:g} s target)"

    print(f"\nThe site's first playable card: cold {verdict(cold, COLD_TARGET)}, warm "
          f"{verdict(warm, WARM_TARGET)}; Voilà's in the same run: cold "
          f"{_median(rows['voila cold'], 1):.1f} s, warm {_median(rows['voila warm'], 1):.1f} s"
          f" (load average {os.getloadavg()[0]:.1f} at the end).")


if __name__ == "__main__":
    raise SystemExit(main())
