"""Run every benchmark and write the results page, docs/benchmarks.md.

``python -m benchmarks`` (or ``make bench``) runs each benchmark in its own
process, one after the other (this machine is shared: never two at once), and
keeps each one's markdown table under its heading. ``--only NAME`` runs some.
Each benchmark reports ratios measured side by side in the same run; absolute
times drift with the machine's load.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = {
    "bench_bots": ("Bot-vs-bot play", ("Random and strong bots, 4 players; target >= 20,000 "
                   "random-bot actions/s per game (RLCard reports 6.7k-29k for its card games).")),
    "bench_best_stacks": ("Dice Stacks best_stacks", ("Exact optimum vs the plain memoised "
                          "rank-count search, hands from two decks; targets median <= 50 ms at "
                          "30 cards, <= 250 ms at 40, no hand over 2 s.")),
    "bench_explain": ("The explainer", ("Warm time per move, and the cold cost of the first "
                      "explanation (sympy import) beside `import mathcards`.")),
    "bench_click": ("Click round trip in the browser", ("Click-to-updated-table latency as a "
                    "ratio to a bare ipywidgets button round trip on the same Voilà server "
                    "(target <= 1.5x), and a bot's move time.")),
    "bench_pages": ("Time to interactive", ("Landing and game pages as a ratio to a bare "
                    "one-button Voilà notebook on the same server settings (target <= 1.3x).")),
    "bench_rooms": ("Classmates at their own screens", ("A move's time to the other "
                    "student's screen in a room (two browsers, one Sums game) beside a bare "
                    "ipywidgets round trip in the same run; target: median <= 0.5 s.")),
    "bench_network": ("What a page costs the school's network", ("Bytes on the wire, "
                      "requests reaching the server and time to the first usable control "
                      "with Chromium throttled to 2 Mbit/s and 40 ms, cold and warm, beside "
                      "the bare page, and a cold visit without compression (as before); "
                      "targets: a cold play page <= 1.5 MB, a warm visit <= 20 "
                      "requests, cold first control <= 10 s (0.4x of 25 s).")),
    "bench_site": ("The static site beside Voilà", ("The first usable control and the table "
                   "of play_suns_to_moons on the static site (`make site`, plain files, Python in "
                   "the browser) cold and warm in Chromium, with the bytes the site sends, beside "
                   "the Voilà page in the same run; targets: warm <= 3 s, cold <= 15 s.")),
    "bench_classroom": ("A class opening one page at once", ("30 and 60 simultaneous first "
                        "visits to play_sums.ipynb, class not warmed, beside the same bursts "
                        "of a bare page on the same server, alternating, three runs; targets: "
                        "0 failed pages, slowest <= 1.0x the bare page's at 30 and <= 1.2x "
                        "at 60.")),
    "bench_page_cpu": ("What one first visit costs the server", ("CPU seconds of Voilà's "
                       "own process and of the page's kernel for first visits one at a time, "
                       "play_sums.ipynb beside the bare page in the same run.")),
    "bench_step": ("The table as a value beside the controller", ("Moves per CPU second "
                   "of the same seeded games (a person's clicks against strong bots) through "
                   "`table_value.step` and through `TableController`, taking turns in one "
                   "process; target: step no slower (>= 0.9x).")),
    "bench_language": ("A play page in Spanish beside English", ("Time to interactive and "
                       "a sign click's round trip on the Suns to Moons page with ?lang=es "
                       "and ?lang=en, taking turns on one server; target: Spanish no "
                       "slower.")),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=list(BENCHMARKS), default=list(BENCHMARKS))
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    sections = []
    failed = 0
    for name in args.only:
        title, what = BENCHMARKS[name]
        print(f"== {name}", flush=True)
        run = subprocess.run([sys.executable, "-m", f"benchmarks.{name}"], cwd=ROOT,
                             capture_output=True, text=True, env=os.environ.copy())
        print(run.stdout, flush=True)
        body = run.stdout.strip()
        if not body.startswith("|") and "\n|" not in body:  # plain lines, not a table
            body = f"```\n{body}\n```"
        if run.returncode != 0:
            failed += 1
            last = (run.stderr.strip().splitlines() or ["(no message)"])[-1]
            body += f"\n\n**This benchmark failed:** {last}"
        sections.append(f"## {title}\n\n{what} `python -m benchmarks.{name}`\n\n{body}\n")
    if set(args.only) != set(BENCHMARKS) and Path(args.output).exists():
        # some benchmarks: replace their sections, keep the others as last measured
        text = Path(args.output).read_text(encoding="utf-8")
        head, *old = text.split("\n## ")
        kept = {part.split("\n", 1)[0]: "## " + part for part in old}
        today = datetime.date.today().isoformat()
        for name, section in zip(args.only, sections, strict=True):
            kept[section.split("\n", 1)[0][3:]] = (
                section.rstrip() + f"\n\n_Measured on {today} on its own "
                f"(`python -m benchmarks --only {name}`)._\n")
        order = [BENCHMARKS[n][0] for n in BENCHMARKS]
        body = [kept[t] for t in order if t in kept] + [
            v for t, v in kept.items() if t not in order]
        Path(args.output).write_text(
            head.rstrip() + "\n\n" + "\n".join(b.rstrip() + "\n" for b in body),
            encoding="utf-8")
        print(f"updated {args.output} ({', '.join(args.only)})")
    if set(args.only) == set(BENCHMARKS):
        stamp = datetime.date.today().isoformat()
        head = (
            "# Benchmarks\n\nMeasured with `make bench` on "
            f"{stamp}, {platform.python_implementation()} {platform.python_version()}, "
            f"{os.cpu_count()} cores (a shared machine: compare the ratios, which are measured "
            "side by side in one run; absolute times drift with the load).\n"
        )
        # sections no benchmark here writes (a one-off comparison of two revisions) stay
        titles = {f"## {t}" for t, _ in BENCHMARKS.values()}
        if Path(args.output).exists():
            old = Path(args.output).read_text(encoding="utf-8").split("\n## ")[1:]
            sections.extend("## " + part.rstrip() + "\n" for part in old
                            if "## " + part.split("\n", 1)[0] not in titles)
        Path(args.output).write_text(head + "\n" + "\n".join(sections), encoding="utf-8")
        print(f"wrote {args.output}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
