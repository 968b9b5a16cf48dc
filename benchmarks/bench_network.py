"""What a page costs a school's network: bytes, requests and waiting on a student's link.

    python -m benchmarks.bench_network [--runs 3] [--pages play_sums.ipynb ...]

One Voilà server with the settings of ``make play`` serves a copy of lessons/ plus
``bare_button.ipynb`` (one ipywidgets Button), as ``bench_pages`` does. Headless
Chromium visits each page twice in a fresh browser context: a **cold** visit (empty
cache: a student's first visit) and then a **warm** one (a new tab in the same
context, its cache kept: the same student coming back). Chromium's network is
throttled by its DevTools protocol (``Network.emulateNetworkConditions``) to a
student's share of a school link: ``DOWN_KBIT`` kbit/s down, ``UP_KBIT`` up,
``LATENCY_MS`` ms round trip.

Chromium takes brotli from this server (127.0.0.1 is a secure address; so is any https
one, a hub's). Two more cold visits per page come from a browser that takes gzip only
(``Accept-Encoding: gzip, deflate``: what Chromium sends to a plain-http address on a
school's network, a teacher's laptop running ``make play``) and from one that takes no
compression (``Accept-Encoding: identity``): the page as every browser got it before
issue 29, the "before" of the same run.

Per visit, from Chromium's own network log: the bytes on the wire (the sum of
``encodedDataLength``: headers and bodies as sent, compressed where they were), the
requests that reached the server (every HTTP response not served from the browser's
cache, 304s included, plus websocket handshakes), and the time from the request to the
first usable control (the first visible enabled widget button; a play page without a
name shows the guest's table). The figures are counted once the page's network is idle.
Medians of ``--runs`` rounds, the pages in turn (order reversed every other round), each
with a preheated kernel waiting (the pool refilled and quiet before each visit, as in
``bench_pages``). Ratios are to the bare page measured in the same run.

Targets (issue 29): a cold play page at most 1.5 MB on the wire; a warm visit at most
20 responses from the server and no slower than the bare page's warm visit; the cold
throttled time to the first usable control within 0.4x of 25 s (10 s).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_pages import (
    BARE,
    PLAY_PAGES,
    _filled,
    _wait_refilled,
    ready_play_pages,
    start_site,
)
from benchmarks.link import ShapedLink
from tests.browser.conftest import FIRST_WIDGET, launch_chromium
from tests.browser.server import VoilaServer

DOWN_KBIT = 2000
UP_KBIT = 1000
LATENCY_MS = 40
MAX_COLD_MB = 1.5
MAX_WARM_REQUESTS = 20
MAX_COLD_SECONDS = 0.4 * 25
UNZIPPED = "cold, no gzip"
GZIP_ONLY = "cold, gzip only"
TIMEOUT_MS = 300_000
# a browser's visits in one context: cold then warm; and a cold visit by a browser that
# takes no compression (Voilà's files as every browser got them before issue 29)
VISITS: list[tuple[tuple[str, ...], dict[str, str]]] = [
    (("cold", "warm"), {}), ((GZIP_ONLY,), {"Accept-Encoding": "gzip, deflate"}),
    ((UNZIPPED,), {"Accept-Encoding": "identity"})]


class NetworkLog:
    """Chromium's network log of one tab: bytes on the wire and requests to the server."""

    def __init__(self, cdp) -> None:
        self.bytes = 0
        self.requests = 0
        self.cached: set[str] = set()
        self.responses: dict[str, dict] = {}
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketHandshakeResponseReceived", self._socket)

    def _response(self, event: dict) -> None:
        self.responses[event["requestId"]] = event["response"]

    def _from_server(self, request_id: str) -> bool:
        response = self.responses.get(request_id)
        if response is None or request_id in self.cached:
            return False
        if response.get("url", "").startswith("data:"):
            return False
        return not (response.get("fromDiskCache") or response.get("fromMemoryCache")
                    or response.get("fromServiceWorker") or response.get("fromPrefetchCache"))

    def _finished(self, event: dict) -> None:
        if self._from_server(event["requestId"]):
            self.requests += 1
            self.bytes += int(event.get("encodedDataLength", 0))

    def _socket(self, event: dict) -> None:
        self.requests += 1


def visit(context, server: VoilaServer, notebook: str,
          link: ShapedLink | None = None) -> tuple[float, int, int]:
    """Seconds to the first usable control, bytes on the wire, requests to the server.
    With ``link`` the browser reaches the server through it (real bytes delayed, the
    bytes counted there) instead of Chromium's throttling."""
    page = context.new_page()
    try:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        if link is None:
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": LATENCY_MS,
                "downloadThroughput": DOWN_KBIT * 1000 / 8,
                "uploadThroughput": UP_KBIT * 1000 / 8,
            })
        log = NetworkLog(cdp)
        named = f"{notebook}?student=guest" if notebook.startswith("play_") else notebook
        address = server.page(named)
        if link is not None:
            address = address.replace(f":{server.port}/", f":{link.port}/", 1)
            carried = link.counted()[0]
        start = time.perf_counter()
        page.goto(address, wait_until="commit", timeout=TIMEOUT_MS)
        try:
            page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
                state="visible", timeout=TIMEOUT_MS)
        except Exception as exc:
            shown = " ".join(page.inner_text("body").split())[:200]
            raise RuntimeError(f"no control in {TIMEOUT_MS // 1000} s; the page said: "
                               f"{shown!r}") from exc
        tti = time.perf_counter() - start
        # what the page still loads after its first control counts too (a page that
        # keeps polling: what came within the time)
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=30_000)
        page.wait_for_timeout(500)
        if link is not None:  # every byte the server sent, websockets included, as sent
            return tti, link.counted()[0] - carried, log.requests
        return tti, log.bytes, log.requests
    finally:
        page.close(run_before_unload=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds measured (median of them)")
    parser.add_argument("--pages", nargs="*", default=None,
                        help="notebooks to compare with the bare page (default: every play "
                             "page whose table exists)")
    parser.add_argument("--link", choices=("devtools", "shaped"), default="devtools",
                        help="devtools: Chromium's own throttling (counts a websocket's "
                             "bytes uncompressed); shaped: the browser reaches the server "
                             "through benchmarks.link.ShapedLink, real bytes at the same "
                             "rate and round trip, counted as sent")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    if args.pages is None:
        args.pages, _ = ready_play_pages()
    pages = [BARE, *[p for p in args.pages if p != BARE]]
    # page -> visit kind -> list of (seconds, bytes, requests)
    results: dict[str, dict[str, list[tuple[float, int, int]]]] = {
        p: {kind: [] for kinds, _ in VISITS for kind in kinds} for p in pages}
    failed = {kind: 0 for kinds, _ in VISITS for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="mathcards-bench-") as tmp:
        server = start_site(Path(tmp))
        link = None
        if args.link == "shaped":
            link = ShapedLink(server.port, down_kbit=DOWN_KBIT, up_kbit=UP_KBIT,
                              latency_ms=LATENCY_MS).start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                # one round not counted: the server's first answers (gzip copies made)
                rounds = [("warm-up", pages)] + [
                    ("run", pages if r % 2 == 0 else list(reversed(pages)))
                    for r in range(args.runs)]
                for kind, order in rounds:
                    for notebook in order:
                        for visit_kinds, headers in VISITS:
                            context = browser.new_context(
                                viewport={"width": 1280, "height": 800},
                                extra_http_headers=headers)
                            try:
                                for visit_kind in visit_kinds:
                                    before = _filled(server, notebook)
                                    try:
                                        measured = visit(context, server, notebook, link)
                                    except (PlaywrightError, RuntimeError) as exc:
                                        # counted as failed, the run goes on
                                        print(f"{notebook} {visit_kind}: failed "
                                              f"({str(exc).splitlines()[0]})", file=sys.stderr)
                                        failed[visit_kind] += 1
                                        continue
                                    if kind == "run":
                                        results[notebook][visit_kind].append(measured)
                                    _wait_refilled(server, notebook, before)
                            finally:
                                context.close()
                browser.close()
        finally:
            if link is not None:
                link.stop()
            server.stop()
    if link is not None:
        print("Through a shaped link: the bytes are every byte the server sent, websockets "
              "included, as sent.\n")
    _report(pages, results, args.runs, shaped=link is not None)
    if any(failed.values()):
        print("\nVisits that never showed a control within "
              f"{TIMEOUT_MS // 1000} s (left out): "
              + ", ".join(f"{n} {kind}" for kind, n in failed.items() if n) + ".")
    return 0


def _median(rows: list[tuple[float, int, int]], i: int) -> float:
    return statistics.median(r[i] for r in rows) if rows else float("nan")


def _report(pages: list[str], results: dict, runs: int, shaped: bool = False) -> None:
    how = "A shaped link (benchmarks/link.py)" if shaped else "Chromium throttled"
    print(f"{how} to {DOWN_KBIT / 1000:g} Mbit/s down, {UP_KBIT / 1000:g} Mbit/s "
          f"up, {LATENCY_MS} ms round trip; medians of {runs} runs, ratios to the bare "
          "one-button page in the same run. Cold: empty browser cache (brotli taken); warm: "
          "a new tab with the cache of the cold visit; cold, gzip only: a browser at a "
          "plain-http address; cold, no gzip: a browser that takes no compression (what "
          "every visit cost before issue 29).\n")
    print("| page | visit | on the wire (MB) | ratio | requests to the server | ratio | "
          "first usable control (s) | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for notebook in pages:
        for kind in ("cold", "warm", GZIP_ONLY, UNZIPPED):
            rows = results[notebook][kind]
            bare = results[BARE][kind]
            mb, req, tti = _median(rows, 1) / 1e6, _median(rows, 2), _median(rows, 0)
            print(f"| {notebook} | {kind} | {mb:.2f} | {mb / (_median(bare, 1) / 1e6):.2f}× | "
                  f"{req:.0f} | {req / _median(bare, 2):.2f}× | {tti:.1f} | "
                  f"{tti / _median(bare, 0):.2f}× |")
    play = [p for p in pages if p in PLAY_PAGES]
    if not play:
        return
    cold_mb = max(_median(results[p]["cold"], 1) for p in play) / 1e6
    gzip_mb = max(_median(results[p][GZIP_ONLY], 1) for p in play) / 1e6
    warm_req = max(_median(results[p]["warm"], 2) for p in play)
    cold_s = max(_median(results[p]["cold"], 0) for p in play)
    warm_s = max(_median(results[p]["warm"], 0) for p in play)
    bare_warm = _median(results[BARE]["warm"], 0)
    gain = max(_median(results[p]["cold"], 0) / _median(results[p][UNZIPPED], 0)
               for p in play)

    def verdict(ok: bool) -> str:
        return "within the target" if ok else "over the target"

    print(f"\nLargest cold play page: {cold_mb:.2f} MB ({verdict(cold_mb <= MAX_COLD_MB)} of "
          f"{MAX_COLD_MB} MB; {gzip_mb:.2f} MB as gzip only, "
          f"{verdict(gzip_mb <= MAX_COLD_MB)}). Most requests on a warm visit: {warm_req:.0f} "
          f"({verdict(warm_req <= MAX_WARM_REQUESTS)} of {MAX_WARM_REQUESTS}). Slowest cold "
          f"play page: {cold_s:.1f} s ({verdict(cold_s <= MAX_COLD_SECONDS)} of "
          f"{MAX_COLD_SECONDS:.0f} s). Slowest warm play page: {warm_s:.1f} s against "
          f"{bare_warm:.1f} s for the bare page ({warm_s / bare_warm:.2f}×). A cold play "
          f"page's first control with gzip / without it, same run: at most {gain:.2f}×.")


if __name__ == "__main__":
    raise SystemExit(main())
