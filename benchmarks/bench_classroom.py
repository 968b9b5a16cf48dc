"""A whole class opening one page at once, on one server started as ``make play``.

    python -m benchmarks.bench_classroom [--sizes 30 60]

For each class size N, N clients request ``play_sums.ipynb`` in the same
second, each with its own ``?student=``, as plain concurrent HTTP requests (a
browser per student would not fit on 2 cores); the bare one-button page
(``bare_button.ipynb``) gets the same burst on the same server in the same
run. A page counts as completed when the whole page arrived with its widget
output and no error cell. Per burst: completed / failed, median and slowest
server time to a complete page, the CPU seconds of Voilà and its kernels until
the server is quiet again, and the resident memory of Voilà and its kernels
after the burst. During each play-page burst one real Chromium page is opened
too: its time to the first usable control is what a student waits.

Then the same with the class warmed (``make play CLASS=N:play_sums``: N
preheated kernels of the page, started before the class arrives), and the
visitor right after the first (one visitor, then another at once) against one
fresh bare page. After each burst its kernels are shut down the way a closed
tab does (``/voila/api/shutdown``), so bursts do not add up.

Targets (ratios in one run): 0 failed pages in every burst; the slowest page
≤ the bare page's slowest with the class warmed (≤ 1.5× without); the visitor
right after the first ≤ 1.2× a fresh bare page.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import http.cookiejar
import os
import re
import shutil
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.bench_pages import _cpu_seconds, wait_quiet
from tests.browser.conftest import FIRST_WIDGET, launch_chromium
from tests.browser.server import LESSONS, VoilaServer

HERE = Path(__file__).resolve().parent
BARE = "bare_button.ipynb"
PAGE = "play_sums.ipynb"
KERNEL = re.compile(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})')


def _rss_mb(root: int) -> float:
    """Resident memory (MB) of process ``root`` and all its descendants."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/statm") as f:
                pages = int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parent[int(entry)] = int(fields[1])
        rss[int(entry)] = pages
    total = 0
    for pid, pages in rss.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            total += pages
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20


def fetch(server: VoilaServer, notebook: str, student: str) -> tuple[bool, float, str]:
    """(complete, seconds, kernel id) for one visitor's page, read to its end. Each visitor
    is a browser of its own (its cookies); a first visit past the server's allowance of
    cookie-less pages gets the cookie and reloads, as the page's script makes a browser do."""
    start = time.perf_counter()
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    try:
        for _ in range(2):
            with opener.open(server.page(f"{notebook}?student={student}"),
                             timeout=600) as response:
                html = response.read().decode("utf-8", "replace")
                status = response.status
            if 'content="cookie-first"' not in html:
                break
    except (urllib.error.URLError, OSError, TimeoutError):
        return False, time.perf_counter() - start, ""
    seconds = time.perf_counter() - start
    match = KERNEL.search(html)
    ok = (status == 200 and "widget-view+json" in html and "There was an error" not in html
          and match is not None)
    return ok, seconds, match.group(1) if match else ""


def shut_down(server: VoilaServer, kernels: list[str]) -> None:
    """Close the visitors' tabs: Voilà's shutdown request for each kernel."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(server.url("voila/tree/"), timeout=60).read()
    xsrf = next((c.value for c in jar if c.name == "_xsrf"), "")
    for kernel in kernels:
        request = urllib.request.Request(server.url(f"voila/api/shutdown/{kernel}"),
                                         method="POST", headers={"X-XSRFToken": xsrf})
        with contextlib.suppress(urllib.error.URLError, OSError):
            opener.open(request, timeout=60).read()


def browser_tti(browser, server: VoilaServer, notebook: str, student: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(server.page(f"{notebook}?student={student}"), wait_until="commit",
                  timeout=600_000)
        page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
            state="visible", timeout=600_000)
        return time.perf_counter() - start
    finally:
        page.close(run_before_unload=True)
        context.close()


def burst(server: VoilaServer, notebook: str, n: int, tag: str,
          browser=None) -> dict[str, float]:
    """N visitors at once (one of them a real browser when ``browser`` is given)."""
    wait_quiet(server, timeout=300)
    root = server.process.pid
    cpu0 = _cpu_seconds(root)
    gate = threading.Barrier(n)

    def visitor(i: int):
        gate.wait()
        return fetch(server, notebook, f"{tag}{i}")

    tti = float("nan")
    with cf.ThreadPoolExecutor(n) as pool:
        futures = [pool.submit(visitor, i) for i in range(n - (1 if browser else 0))]
        if browser is not None:
            gate.wait()
            tti = browser_tti(browser, server, notebook, f"{tag}browser")
        results = [f.result() for f in futures]
    wait_quiet(server, timeout=600)
    cpu = _cpu_seconds(root) - cpu0
    rss = _rss_mb(root)
    times = [s for ok, s, _ in results if ok]
    out = {
        "n": n, "completed": len(times) + (0 if tti != tti else 1),
        "failed": sum(1 for ok, _, _ in results if not ok),
        "median": statistics.median(times) if times else float("nan"),
        "slowest": max(times) if times else float("nan"),
        "cpu": cpu, "rss": rss, "tti": tti,
    }
    shut_down(server, [k for _, _, k in results if k])
    return out


def _site(tmp: Path) -> Path:
    root = tmp / "site"
    root.mkdir()
    for notebook in LESSONS.glob("*.ipynb"):
        shutil.copy(notebook, root / notebook.name)
    shutil.copytree(LESSONS / "exercises", root / "exercises")
    shutil.copy(HERE / BARE, root / BARE)
    return root


def _start(tmp: Path, root: Path, name: str, warm: str | None) -> VoilaServer:
    if warm:
        os.environ["MATHCARDS_CLASS"] = warm
    try:
        server = VoilaServer(tmp / name, root_dir=root).start()
    finally:
        os.environ.pop("MATHCARDS_CLASS", None)
    return server


def _wait_warm(server: VoilaServer, pools: int, timeout: float = 900) -> float:
    start = time.monotonic()
    server.wait_for_pools(pools, timeout=timeout)
    wait_quiet(server, timeout=timeout)
    return time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[30, 60])
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rows: list[tuple[str, dict[str, float]]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mathcards-class-") as tmp_name, \
            sync_playwright() as playwright:
        tmp = Path(tmp_name)
        root = _site(tmp)
        pools = len(list(root.glob("*.ipynb"))) - 2  # the teacher's pages are not preheated
        browser = launch_chromium(playwright)
        server = _start(tmp, root, "plain", None)
        try:
            idle = _wait_warm(server, pools)
            notes.append(f"Server with the settings of `make play`: pools ready in {idle:.0f} s, "
                         f"{_rss_mb(server.process.pid):.0f} MB resident before any visitor.")
            browser_tti(browser, server, BARE, "warmup")  # Chromium's own first start
            # the visitor right after the first, and one fresh bare page
            wait_quiet(server, timeout=300)
            first = fetch(server, PAGE, "first")
            second = fetch(server, PAGE, "second")
            wait_quiet(server, timeout=300)
            fetch(server, BARE, "bare-pool")  # empty the bare page's pool ...
            bare_fresh = fetch(server, BARE, "bare-fresh")  # ... so this one starts fresh
            shut_down(server, [first[2], second[2], bare_fresh[2]])
            notes.append(
                f"One visitor then another at once: {first[1]:.2f} s and {second[1]:.2f} s "
                f"for {PAGE}; a fresh bare page {bare_fresh[1]:.2f} s: the second visitor "
                f"waits {second[1] / bare_fresh[1]:.2f}× a fresh bare page (target ≤ 1.2×).")
            for n in args.sizes:
                rows.append((f"bare page, {n} at once", burst(server, BARE, n, f"b{n}-")))
                rows.append((f"{PAGE}, {n} at once", burst(server, PAGE, n, f"s{n}-",
                                                           browser=browser)))
        finally:
            server.stop()
        for n in args.sizes:
            server = _start(tmp, root, f"class{n}", f"{n}:play_sums")
            try:
                ready = _wait_warm(server, pools)
                rss = _rss_mb(server.process.pid)
                notes.append(f"`make play CLASS={n}:play_sums`: ready in {ready:.0f} s, "
                             f"{rss:.0f} MB resident before the class arrives.")
                rows.append((f"{PAGE}, {n} at once, class warmed",
                             burst(server, PAGE, n, f"w{n}-", browser=browser)))
                rows.append((f"bare page, {n} at once (same server)",
                             burst(server, BARE, n, f"v{n}-")))
            finally:
                server.stop()
        browser.close()
    print("| burst | completed | failed | median (s) | slowest (s) | CPU (s) | "
          "memory after (MB) | browser: first control (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        tti = "–" if r["tti"] != r["tti"] else f"{r['tti']:.2f}"
        print(f"| {name} | {r['completed']:.0f} | {r['failed']:.0f} | {r['median']:.2f} | "
              f"{r['slowest']:.2f} | {r['cpu']:.0f} | {r['rss']:.0f} | {tti} |")
    print()
    by = dict(rows)
    for n in args.sizes:
        bare = by[f"bare page, {n} at once"]["slowest"]
        plain = by[f"{PAGE}, {n} at once"]["slowest"]
        warm = by[f"{PAGE}, {n} at once, class warmed"]["slowest"]
        bare_warm_server = by[f"bare page, {n} at once (same server)"]["slowest"]
        notes.append(
            f"N={n}: slowest {PAGE} page / slowest bare page: {plain / bare:.2f}× without "
            f"warming (target ≤ 1.5×), {warm / bare_warm_server:.2f}× with the class warmed "
            f"(target ≤ 1×).")
    failed = sum(r["failed"] for _, r in rows)
    notes.append(f"Failed pages in all bursts: {failed:.0f} (target 0).")
    for note in notes:
        print(f"- {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
