"""Move to the other screen: two students in a room, against a bare ipywidgets round trip.

Run: ``.venv/bin/python -m benchmarks.bench_rooms`` (needs /usr/bin/chromium).

One Voilà server (as the browser tests start it) serves a bare page (a Button whose
handler sets a Label) and the Sums play page. Two browser contexts (two students)
join one room and play a Sums game. For each click that makes a move, the time from
the click on one screen (``Date.now()`` just before it) to the other screen's
table showing the move (a MutationObserver there, ``Date.now()`` when the move
number changes) is one sample: the path is the first page's kernel, the room's
SQLite file, the second page's kernel (it polls every 0.15 s) and its browser.
The bare round trip is measured in the same run, the same way on one page.
Target: median <= 0.5 s.
"""

from __future__ import annotations

import random
import shutil
import statistics
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLES = 25

# on the watching page: resolve with Date.now() when the move number passes ``after``
WATCH = """(after) => {
  window.__seen = new Promise(resolve => {
    const moved = () => {
      const m = document.querySelector('.mc-header [data-move]');
      return m && Number(m.dataset.move) > after;
    };
    const obs = new MutationObserver(() => {
      if (moved()) { obs.disconnect(); resolve(Date.now()); }
    });
    obs.observe(document.body, {subtree: true, childList: true, characterData: true,
                                attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(-1); }, 5000);
  });
}"""
CLICK = """([sel, i]) => {
  const b = [...document.querySelectorAll(sel)].filter(e => e.checkVisibility())[i];
  if (!b) return -1;  // the hand was redrawn since the buttons were counted
  const t = Date.now();
  b.click();
  return t;
}"""


def measure() -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    from benchmarks.bench_click import MEASURE, bare_and_sums_server

    root, server = bare_and_sums_server("bench_rooms_")
    out: dict[str, list[float]] = {"bare": [], "room": []}
    playable = (".mc-hand .mc-cardbtn:not([disabled]), "
                ".mc-choices .mc-choice:not([disabled])")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.set_default_timeout(120_000)
            page.goto(server.page("bare.ipynb"))
            page.wait_for_selector(".bare-ping")
            for i in range(SAMPLES + 3):
                took = page.evaluate(MEASURE, [".bare-ping", ".bare-count", ""])
                if i >= 3 and took >= 0:
                    out["bare"].append(took)
            page.close(run_before_unload=True)

            url = server.page("play_sums.ipynb")
            pages = []
            for name in ("Ana", "Ben"):
                ctx = browser.new_context()
                p = ctx.new_page()
                p.set_default_timeout(120_000)
                # "Show me the sums": the loop clicks the moves' buttons (an older page
                # ignores the parameter, so the same file measures the code before)
                p.goto(f"{url}?student={name}&delay=0&level=show")
                p.get_by_role("button", name="Make a room").wait_for()
                pages.append(p)
            ana, ben = pages
            ana.get_by_role("button", name="Make a room").click()
            room = ana.locator(".mc-rooms [data-room]").first
            room.wait_for()
            ben.locator(".mc-rooms input").first.fill(room.get_attribute("data-room"))
            ben.locator(".mc-rooms input").first.press("Enter")
            ana.locator(".mc-rooms", has_text="Ben").wait_for()
            ana.get_by_role("button", name="Start the room's game").click()
            rng = random.Random(1)
            for p in pages:
                p.locator(".mc-header [data-room]").wait_for()
            over = ".mc-status:has-text('Game over')"
            while len(out["room"]) < SAMPLES:
                if ana.locator(over).count() and ben.locator(over).count():
                    break  # one whole game: fewer samples
                acting = [p for p in pages if p.evaluate(
                    "() => document.querySelector('.mc-sync')?.dataset.busy === '0'")
                    and p.locator(playable).count() and not p.locator(over).count()]
                if not acting:
                    ana.wait_for_timeout(50)
                    continue
                me = acting[0]
                other = ben if me is ana else ana
                moves = int(other.locator(".mc-header [data-move]").first
                            .get_attribute("data-move"))
                other.evaluate(WATCH, moves)
                n = me.evaluate("(sel) => [...document.querySelectorAll(sel)]"
                                ".filter(e => e.checkVisibility()).length", playable)
                if not n:  # only hidden ones (a redraw under way): look again
                    continue
                clicked = me.evaluate(CLICK, [playable, rng.randrange(n)])
                if clicked < 0:  # nothing clicked: count and look again
                    continue
                seen = other.evaluate("() => window.__seen")
                if seen > 0:
                    out["room"].append(float(seen - clicked))
                me.wait_for_timeout(30)  # the clicking page's own redraw
            for p in pages:
                p.close(run_before_unload=True)
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return out


def main() -> None:
    res = measure()
    bare, room = sorted(res["bare"]), sorted(res["room"])

    def p95(xs: list[float]) -> float:
        return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]

    print("| path | samples | median (ms) | p95 (ms) |")
    print("|---|---|---|---|")
    print(f"| bare ipywidgets button round trip (one page) | {len(bare)} | "
          f"{statistics.median(bare):.0f} | {p95(bare):.0f} |")
    print(f"| a move to the other student's screen (room) | {len(room)} | "
          f"{statistics.median(room):.0f} | {p95(room):.0f} |")
    print()
    print(f"Ratio of medians room / bare: {statistics.median(room) / statistics.median(bare):.1f}x;"
          f" target: median <= 500 ms ({'met' if statistics.median(room) <= 500 else 'NOT met'}).")


if __name__ == "__main__":
    main()
