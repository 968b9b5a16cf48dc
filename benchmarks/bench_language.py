"""A page in Spanish against the same page in English (issue 41): time to interactive and
click latency, side by side on one server.

    python -m benchmarks.bench_language [--runs 5] [--clicks 15]

One Voilà server with the settings of ``make play`` (``benchmarks.bench_pages.start_site``)
serves the Suns to Moons play page. Each round opens it once with ``?lang=en`` and once
with ``?lang=es`` (the order swapped every other round), each in a fresh browser context
after the server is quiet again: time to interactive is from the request to the first
usable control. Then on one page per language (the same deal, "Show me the sums") the
time from a sign's click to the table's redraw with the move laid is measured
(``benchmarks.bench_click.MEASURE``), the languages taking turns click by click. The
ratios Spanish / English are the result (target: no worse, ≤ 1.05× within the noise).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from benchmarks.bench_classroom import browser_tti
from benchmarks.bench_click import MEASURE
from benchmarks.bench_pages import _filled, _wait_refilled, start_site, wait_quiet
from tests.browser.conftest import launch_chromium

NOTEBOOK = "play_suns_to_moons.ipynb"
LANGS = ("en", "es")
# a sign's button ("−8 → −3" in every language); MEASURE clicks the first one on the page
SIGN_SHOWN = ".mc-choices .mc-choice:not([disabled])"
ARROW = "→"
CARD = ".mc-hand .mc-cardbtn:not([disabled]):not(.mc-hide)"
HEADER = ".mc-header [data-move]"


def tti(browser, server, lang: str) -> float:
    return browser_tti(browser, server, NOTEBOOK, "guest", query=f"lang={lang}")


def _render(page) -> int:
    return int(page.locator(".mc-sync").first.get_attribute("data-render"))


def _settled(page, after: int = -1) -> None:
    """A redraw later than ``after`` has arrived and no bot is about to move."""
    page.wait_for_function(
        "(after) => { const s = document.querySelector('.mc-sync');"
        " return !!s && Number(s.dataset.render) > after && s.dataset.busy === '0'; }",
        arg=after, timeout=60_000)


def click_pages(browser, server, clicks: int) -> dict[str, list[float]]:
    """Sign clicks that lay a move, on one page per language, taking turns."""
    from mathcards.games.registry import make_game
    from mathcards.saves import deal_code

    code = deal_code(make_game("suns_to_moons", num_players=2, target_score=10), 4)
    pages = {}
    for lang in LANGS:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(120_000)
        page.goto(server.page(NOTEBOOK) + f"?deal={code}&delay=0.05&student=bench_{lang}"
                  f"&level=show&lang={lang}")
        page.locator(CARD).first.wait_for(state="visible")
        pages[lang] = page
    out: dict[str, list[float]] = {lang: [] for lang in LANGS}
    warm = 2
    for _ in range(clicks * 6):
        if all(len(v) >= clicks for v in out.values()):
            break
        for lang, page in pages.items():
            _settled(page)
            if page.locator(".mc-turn:has-text('Game over'), "
                            ".mc-turn:has-text('Fin de la partida')").count():
                continue
            moment = page.locator(".mc-moment-box button.mc-primary").filter(visible=True)
            if moment.count():  # a round won: its moment holds the table until Next round
                rendered = _render(page)
                moment.first.click()
                _settled(page, rendered)
                continue
            if not page.locator(CARD).filter(visible=True).count():
                continue
            rendered = _render(page)
            page.locator(CARD).filter(visible=True).first.click()
            _settled(page, rendered)
            if not page.locator(SIGN_SHOWN).filter(visible=True, has_text=ARROW).count():
                continue  # a Joker: laid at once, no sign to click
            took = page.evaluate(MEASURE, [SIGN_SHOWN, HEADER, ARROW])
            if warm <= 0 and took >= 0 and len(out[lang]) < clicks:
                out[lang].append(took)
        warm -= 1
    for page in pages.values():
        page.close(run_before_unload=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clicks", type=int, default=15)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {lang: [] for lang in LANGS}
    with tempfile.TemporaryDirectory(prefix="mathcards-bench-") as tmp:
        server = start_site(Path(tmp))
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                for run in range(args.runs + 1):  # the first round warms up
                    order = LANGS if run % 2 == 0 else tuple(reversed(LANGS))
                    for lang in order:
                        before = _filled(server, NOTEBOOK)
                        took = tti(browser, server, lang)
                        if run:
                            times[lang].append(took)
                        _wait_refilled(server, NOTEBOOK, before)
                wait_quiet(server)
                clicked = click_pages(browser, server, args.clicks)
                browser.close()
        finally:
            server.stop()
    print(f"Suns to Moons play page, English and Spanish side by side ({args.runs} rounds; "
          f"{args.clicks} sign clicks each)\n")
    print("| measurement | English | Spanish | ratio es / en |")
    print("|---|---:|---:|---:|")
    en, es = statistics.median(times["en"]), statistics.median(times["es"])
    print(f"| time to interactive (median, s) | {en:.2f} | {es:.2f} | {es / en:.2f}× |")
    en, es = statistics.median(clicked["en"]), statistics.median(clicked["es"])
    print(f"| sign click to the move laid (median, ms) | {en:.0f} | {es:.0f} | "
          f"{es / en:.2f}× |")
    print("\nTTI runs (s): " + "; ".join(
        f"{lang} " + ", ".join(f"{t:.2f}" for t in times[lang]) for lang in LANGS))
    print("clicks (ms): " + "; ".join(
        f"{lang} " + ", ".join(f"{t:.0f}" for t in clicked[lang]) for lang in LANGS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
