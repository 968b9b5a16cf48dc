"""Click-to-updated-table latency in a real browser, against a bare ipywidgets round trip.

Run: ``.venv/bin/python -m benchmarks.bench_click`` (needs /usr/bin/chromium).

One Voilà server serves two pages from a temporary folder: a bare page (a
Button whose handler sets a Label) and the Sums play page. In the browser,
the time from ``button.click()`` to the changed DOM is measured the same way
for both (a MutationObserver in the page), and the table's median is given
as a ratio to the bare median (target ≤ 1.5×). Also: a bot's move time in
the widget layer (choose + apply + explain + redraw, no browser).
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat

REPO = Path(__file__).resolve().parents[1]
ROUNDS = 15

BARE = """import ipywidgets as W
count = W.Label("0")
button = W.Button(description="Ping")
button.add_class("bare-ping")
count.add_class("bare-count")
def ping(_b):
    count.value = str(int(count.value) + 1)
button.on_click(ping)
W.VBox([button, count])
"""

# time one click until the watched element's text changes
MEASURE = """async ([button, watched, text]) => {
  const b = [...document.querySelectorAll(button)]
      .find(e => !text || e.textContent.includes(text));
  if (!b) return -2;  // the table changed meanwhile (a bot moved): not measured
  const w = document.querySelector(watched);
  const before = w.textContent + (w.dataset.move || '');
  const t0 = performance.now();
  const done = new Promise(resolve => {
    const obs = new MutationObserver(() => {
      const now = document.querySelector(watched);
      if (now.textContent + (now.dataset.move || '') !== before) {
        obs.disconnect(); resolve(performance.now() - t0);
      }
    });
    obs.observe(document.body, {subtree: true, childList: true, characterData: true,
                                attributes: true});
  });
  b.click();
  // a click the table turns down changes nothing: give up after 10 s (-1)
  return await Promise.race([done, new Promise(r => setTimeout(() => r(-1), 10000))]);
}"""


def _notebook(source: str, path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nbformat.write(nb, path)


def bot_move_times(game: str, players: int = 3, kind: str = "strong") -> list[float]:
    """Seconds per bot move through the widget layer (no pause, no browser)."""
    from mathcards.widgets import play

    times: list[float] = []
    table = play(game, seats=[kind] * players, bot_delay=30, save=False, query="")
    for _ in range(300):
        if table.state.is_over:
            break
        t0 = time.perf_counter()
        table.ctl._bot_move(table.ctl._generation)
        times.append(time.perf_counter() - t0)
    return times


def bare_and_sums_server(prefix: str) -> tuple[Path, Any]:
    """A Voilà server (as the browser tests start it) over a temporary folder with the
    bare one-button page and the Sums play page: (the folder, the started server)."""
    sys.path.insert(0, str(REPO))
    from tests.browser.server import VoilaServer

    root = Path(tempfile.mkdtemp(prefix=prefix))
    _notebook(BARE, root / "bare.ipynb")
    shutil.copy(REPO / "lessons" / "play_sums.ipynb", root / "play_sums.ipynb")
    return root, VoilaServer(root / "state", root_dir=root).start()


def browser_latency() -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    from mathcards.games.registry import make_game
    from mathcards.saves import deal_code

    root, server = bare_and_sums_server("bench_click_")
    results: dict[str, list[float]] = {"bare": [], "table": []}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(120_000)
            page.goto(server.page("bare.ipynb"))
            page.wait_for_selector(".bare-ping")
            for _ in range(3):  # warm up
                page.evaluate(MEASURE, [".bare-ping", ".bare-count", ""])
            for _ in range(ROUNDS):
                took = page.evaluate(MEASURE, [".bare-ping", ".bare-count", ""])
                if took >= 0:
                    results["bare"].append(took)
            page.close(run_before_unload=True)

            code = deal_code(make_game("sums", num_players=2, piles=2), 1)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(120_000)
            # the guest (a page without a name asks for one) at "Show me the sums": this loop
            # clicks the moves' buttons (at "I count" a card's play asks for a claim first)
            page.goto(server.page("play_sums.ipynb")
                      + f"?deal={code}&delay=0.05&student=guest&level=show")
            choice = ".mc-choices .mc-choice:not([disabled]):not(.mc-hide)"
            card = ".mc-hand .mc-cardbtn:not([disabled]):not(.mc-hide)"
            header = ".mc-header [data-move]"
            playable = f"{choice}, {card}"
            warm = 2
            for _ in range(400):
                if len(results["table"]) >= ROUNDS:
                    break
                page.wait_for_function(  # any match visible, not only the first
                    "(sel) => [...document.querySelectorAll(sel)].some(e => e.checkVisibility())"
                    " || (document.querySelector('.mc-status')?.textContent || '')"
                    ".includes('Game over')",
                    arg=playable, timeout=120_000)
                if page.locator(".mc-status:has-text('Game over')").count():
                    break
                if page.locator(choice, has_text="Draw").count():
                    # a draw: the click's answer redraws the table (the bot does not move)
                    took = page.evaluate(MEASURE, [choice, header, "Draw"])
                    if warm:
                        warm -= 1
                    elif took >= 0:
                        results["table"].append(took)
                elif page.locator(card).count():
                    page.evaluate(MEASURE, [card, header, ""])
                else:
                    page.evaluate(MEASURE, [choice, header, ""])
            page.close(run_before_unload=True)
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return results


def main() -> None:
    for game in ("suns_to_moons", "sums"):
        times = bot_move_times(game)
        print(f"bot move ({game}, strong, widget layer): median "
              f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
              f"over {len(times)} moves")
    res = browser_latency()
    bare = statistics.median(res["bare"])
    table = statistics.median(res["table"])
    print(f"bare ipywidgets button round trip: median {bare:.1f} ms ({ROUNDS} clicks)")
    print(f"Sums table click to updated table: median {table:.1f} ms ({ROUNDS} clicks)")
    print(f"ratio table / bare: {table / bare:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
