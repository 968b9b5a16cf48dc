"""Time to interactive of the lessons' pages, as a ratio to a bare Voilà page.

    python -m benchmarks.bench_pages [--runs 5] [--pages index.ipynb play_sums.ipynb ...]

One Voilà server with the settings of ``make play`` (lessons/voila.json,
preheated kernels) serves a copy of lessons/ plus ``bare_button.ipynb`` (one
ipywidgets Button). Headless Chromium opens each page in a fresh browser
context (so every page starts from a cold browser cache, the bare page too);
time to interactive is from the request to the page's first control being
usable: the first visible enabled widget button (bare page, play pages), or
the game cards' links once Voilà shows the cells (landing page, which has no
widgets). By default it measures the landing page and every play page.

Pages are measured in turn, the order reversed every other round. Before each
page the server must be quiet: the kernel pool of the page measured last is
refilled and the new kernel has run its notebook as far as it can before a
visitor arrives (the CPU time of Voilà and its kernels stops growing), so no
page pays for the previous page's refill. The table gives, per page, the
median time to interactive, its ratio to the bare page's median (target ≤
1.3×), and the median time until the page's HTML had arrived (Voilà streams it
while the kernel runs the cells that wait for the request, so this is the
kernel's share; the rest is the browser: scripts, widget manager, views).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

from tests.browser.conftest import FIRST_WIDGET, launch_chromium
from tests.browser.server import LESSONS, VoilaServer

HERE = Path(__file__).resolve().parent
BARE = "bare_button.ipynb"
LANDING = "index.ipynb"
PLAY_PAGES = ("play_suns_to_moons.ipynb", "play_sums.ipynb", "play_dice_stacks.ipynb")
TARGET = 1.3


def _filled(server: VoilaServer, notebook: str) -> int:
    return server.log_text().count(f"Kernel pool of {notebook} is filled")


def _cpu_seconds(root: int) -> float:
    """User + system CPU seconds of process ``root`` and all its live descendants
    (Voilà starts each kernel in a session of its own, so a process group is not enough)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the command: state(0) ppid(1) ... utime(11) stime(12)
        parent[int(entry)] = int(fields[1])
        cpu[int(entry)] = int(fields[11]) + int(fields[12])
    total = 0
    for pid, ticks in cpu.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            total += ticks
    return total / tick


def wait_quiet(server: VoilaServer, window: float = 0.75, busy: float = 0.05,
               timeout: float = 60.0) -> None:
    """Until Voilà and its kernels use under ``busy`` of a core over ``window`` seconds."""
    root = server.process.pid
    deadline = time.monotonic() + timeout
    last = _cpu_seconds(root)
    while time.monotonic() < deadline:
        time.sleep(window)
        now = _cpu_seconds(root)
        if now - last < busy * window:
            return
        last = now


def _wait_refilled(server: VoilaServer, notebook: str, before: int, timeout: float = 120) -> None:
    """The pool of ``notebook`` is refilled and its new kernel has done its preheat work."""
    deadline = time.monotonic() + timeout
    while _filled(server, notebook) <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    # "filled" is logged once the kernel has started; it then runs the notebook
    # (in the background) up to the first cell that waits for the request.
    wait_quiet(server)


def time_to_interactive(browser, server: VoilaServer, notebook: str) -> tuple[float, float]:
    """Seconds from the request to the first usable control of ``notebook``, and to
    the end of its HTML (the kernel's share)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        start = time.perf_counter()
        # a play page without a name asks for one: the guest's page draws the table
        named = f"{notebook}?student=guest" if notebook.startswith("play_") else notebook
        page.goto(server.page(named), wait_until="commit")
        if notebook == LANDING:
            page.locator("#rendered_cells a.mc-button").first.wait_for(
                state="visible", timeout=120_000
            )
        else:
            page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
                state="visible", timeout=120_000
            )
        tti = time.perf_counter() - start
        html = page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return (n.responseEnd - n.requestStart) / 1000; }"
        )
        return tti, html
    finally:
        page.close(run_before_unload=True)
        context.close()


def ready_play_pages() -> tuple[list[str], list[str]]:
    """The play pages whose table has landed, and those still waiting for it."""
    from mathcards.games.registry import find_game

    ready, missing = [], []
    for notebook in PLAY_PAGES:
        spec = find_game(notebook.removeprefix("play_").removesuffix(".ipynb"))
        module = spec.view.partition(":")[0] if spec is not None else ""
        (ready if module and find_spec(module) else missing).append(notebook)
    return ready, missing


def start_site(tmp: Path) -> VoilaServer:
    """A server as ``make play`` starts it, serving a copy of lessons/ and the bare page
    under ``tmp``, once its pools are filled and it is quiet."""
    root = tmp / "site"
    root.mkdir()
    for notebook in LESSONS.glob("*.ipynb"):
        shutil.copy(notebook, root / notebook.name)
    shutil.copy(HERE / BARE, root / BARE)
    server = VoilaServer(tmp / "state", root_dir=root).start()
    try:
        # every notebook has a pool but those lessons/voila.json keeps from preheating
        # (the teacher's pages: counting them waited for pools that never fill)
        settings = json.loads((LESSONS / "voila.json").read_text(encoding="utf-8"))
        denied = set(settings.get("VoilaKernelManager", {}).get("preheat_denylist", []))
        server.wait_for_pools(len([p for p in root.glob("*.ipynb") if p.name not in denied]))
        wait_quiet(server, timeout=120)
    except BaseException:
        server.stop()
        raise
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds measured (median of them)")
    parser.add_argument("--pages", nargs="*", default=None,
                        help="notebooks to compare with the bare page (default: the landing "
                             "page and every play page whose table exists)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    from playwright.sync_api import sync_playwright

    missing: list[str] = []
    if args.pages is None:
        ready, missing = ready_play_pages()
        args.pages = [LANDING, *ready]
    pages = [BARE, *[p for p in args.pages if p != BARE]]
    with tempfile.TemporaryDirectory(prefix="mathcards-bench-") as tmp:
        server = start_site(Path(tmp))
        try:
            times: dict[str, list[float]] = {p: [] for p in pages}
            html: dict[str, list[float]] = {p: [] for p in pages}
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                # one warm-up round (not counted): first use of Chromium and of each page
                for notebook in pages:
                    before = _filled(server, notebook)
                    time_to_interactive(browser, server, notebook)
                    _wait_refilled(server, notebook, before)
                for run in range(args.runs):
                    order = pages if run % 2 == 0 else list(reversed(pages))
                    for notebook in order:
                        before = _filled(server, notebook)
                        tti, done = time_to_interactive(browser, server, notebook)
                        times[notebook].append(tti)
                        html[notebook].append(done)
                        _wait_refilled(server, notebook, before)
                browser.close()
        finally:
            server.stop()
    base = statistics.median(times[BARE])
    print(f"Time to interactive, median of {args.runs} runs (preheated kernels, same server, "
          f"cold browser cache; target ≤ {TARGET}× the bare page)\n")
    print("| page | median TTI (s) | ratio to bare button | HTML done (s) | runs (s) |")
    print("|---|---:|---:|---:|---|")
    worst = 0.0
    for notebook in pages:
        median = statistics.median(times[notebook])
        ratio = median / base
        if notebook != BARE:
            worst = max(worst, ratio)
        runs = ", ".join(f"{t:.2f}" for t in times[notebook])
        print(f"| {notebook} | {median:.2f} | {ratio:.2f}× | "
              f"{statistics.median(html[notebook]):.2f} | {runs} |")
    for notebook in missing:
        print(f"| {notebook} | – | – | – | table not landed yet |")
    print(f"\nWorst ratio: {worst:.2f}× ({'within' if worst <= TARGET else 'over'} the target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
