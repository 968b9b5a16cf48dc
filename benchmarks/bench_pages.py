"""Time to interactive of the lessons' pages, as a ratio to a bare Voilà page.

    python -m benchmarks.bench_pages [--runs 5] [--game play_suns_to_moons.ipynb]

One Voilà server with the settings of ``make play`` (lessons/voila.json,
preheated kernels) serves a copy of lessons/ plus ``bare_button.ipynb`` (one
ipywidgets Button). Headless Chromium opens each page in a fresh browser
context; time to interactive is from the request to the page's first
control being usable: the first visible enabled widget button (bare page,
game page), or the game cards' links once Voilà shows the cells (landing
page, which has no widgets). Pages are measured in turn, each after its
kernel pool has been refilled, and the medians are printed as a Markdown
table with each page's ratio to the bare page (target ≤ 1.3×).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from tests.browser.conftest import FIRST_WIDGET, launch_chromium
from tests.browser.server import LESSONS, VoilaServer

HERE = Path(__file__).resolve().parent
BARE = "bare_button.ipynb"
LANDING = "index.ipynb"


def _filled(server: VoilaServer, notebook: str) -> int:
    return server.log_text().count(f"Kernel pool of {notebook} is filled")


def _wait_refilled(server: VoilaServer, notebook: str, before: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while _filled(server, notebook) <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # let the refill's execution settle so the next page starts on a quiet CPU


def time_to_interactive(browser, server: VoilaServer, notebook: str) -> float:
    """Seconds from the request to the first usable control of ``notebook``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(server.page(notebook), wait_until="commit")
        if notebook == LANDING:
            page.locator("#rendered_cells a.mc-button").first.wait_for(
                state="visible", timeout=120_000
            )
        else:
            page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
                state="visible", timeout=120_000
            )
        return time.perf_counter() - start
    finally:
        page.close(run_before_unload=True)
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="play_suns_to_moons.ipynb")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="mathcards-bench-") as tmp:
        root = Path(tmp) / "site"
        root.mkdir()
        for notebook in LESSONS.glob("*.ipynb"):
            shutil.copy(notebook, root / notebook.name)
        shutil.copy(HERE / BARE, root / BARE)
        pages = [BARE, LANDING, args.game]
        server = VoilaServer(Path(tmp) / "state", root_dir=root).start()
        try:
            server.wait_for_pools(len(list(root.glob("*.ipynb"))))
            time.sleep(2.0)
            times: dict[str, list[float]] = {p: [] for p in pages}
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                # one warm-up round: the browser's cache of Voilà's scripts, as for a class
                for notebook in pages:
                    before = _filled(server, notebook)
                    time_to_interactive(browser, server, notebook)
                    _wait_refilled(server, notebook, before)
                for run in range(args.runs):
                    order = pages if run % 2 == 0 else list(reversed(pages))
                    for notebook in order:
                        before = _filled(server, notebook)
                        times[notebook].append(time_to_interactive(browser, server, notebook))
                        _wait_refilled(server, notebook, before)
                browser.close()
        finally:
            server.stop()
    base = statistics.median(times[BARE])
    print(f"Time to interactive, median of {args.runs} runs (preheated kernels, same server)\n")
    print("| page | median TTI (s) | ratio to bare button | runs (s) |")
    print("|---|---:|---:|---|")
    for notebook in pages:
        median = statistics.median(times[notebook])
        runs = ", ".join(f"{t:.2f}" for t in times[notebook])
        print(f"| {notebook} | {median:.2f} | {median / base:.2f}× | {runs} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
