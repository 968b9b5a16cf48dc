"""What one first visit costs the server: Voilà's own process and the page's kernel.

Run: ``python -m benchmarks.bench_page_cpu [--visits 8] [--rounds 2]``.

One server started as ``make play`` starts it (forked kernels, preheated pools) serves
the bare one-button page and play_sums.ipynb; visitors come one at a time (each with its
own cookies and ``?student=``, as a class's links give), so the CPU each visit costs is
not mixed with another's. Voilà's process (the one a whole class shares: it reads every
message each kernel sends) and the kernels are counted apart, with the play page's
figures as ratios to the bare page's of the same round. Each round: the bare page's
visits, then the play page's; kernels are shut down after each batch. The kernels'
column includes the pools' refills the visits cause (the same for both pages).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.bench_classroom import (
    BARE,
    PAGE,
    _site,
    _start,
    _wait_warm,
    fetch,
    pooled,
    shut_down,
)
from benchmarks.bench_pages import _cpu_seconds


def split(root: int) -> tuple[float, float]:
    """(Voilà's own CPU seconds, its kernels' and their children's) so far (/proc)."""
    with open(f"/proc/{root}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own, _cpu_seconds(root) - own


def visits(server, notebook: str, n: int, tag: str) -> tuple[float, float, int]:
    """Voilà's and the kernels' CPU seconds per visit for ``n`` visits one at a time."""
    root = server.process.pid
    own0, kernels0 = split(root)
    results = [fetch(server, notebook, f"{tag}{i}") for i in range(n)]
    time.sleep(4)  # the last kernel's messages read, before its CPU is counted
    own1, kernels1 = split(root)
    shut_down(server, [kernel for _, _, kernel in results if kernel])
    time.sleep(3)
    return (own1 - own0) / n, (kernels1 - kernels0) / n, sum(ok for ok, _, _ in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="mc-page-cpu-"))
    root = _site(tmp)
    server = _start(tmp, root, "server", None)
    rows: list[tuple[int, str, float, float, int]] = []
    try:
        _wait_warm(server, pooled(root))
        for round_ in range(1, args.rounds + 1):
            for notebook in (BARE, PAGE):
                own, kernels, ok = visits(server, notebook, args.visits,
                                          f"r{round_}{notebook[:4]}")
                rows.append((round_, notebook, own, kernels, ok))
    finally:
        server.stop()
    print(f"CPU per first visit, {args.visits} visits one at a time per page and round "
          "(server as `make play` starts it)\n")
    print("| round | page | visits completed | Voilà's process (CPU s) | kernels (CPU s) "
          "| both (CPU s) |")
    print("|---:|---|---:|---:|---:|---:|")
    for round_, notebook, own, kernels, ok in rows:
        print(f"| {round_} | {notebook} | {ok}/{args.visits} | {own:.3f} | {kernels:.3f} "
              f"| {own + kernels:.3f} |")
    ratios = []
    for round_ in range(1, args.rounds + 1):
        bare = next(r for r in rows if r[0] == round_ and r[1] == BARE)
        play = next(r for r in rows if r[0] == round_ and r[1] == PAGE)
        ratios.append((play[2] / bare[2], play[3] / bare[3],
                       (play[2] + play[3]) / (bare[2] + bare[3])))
    own_r, kernel_r, both_r = (statistics.median(r[i] for r in ratios) for i in range(3))
    print(f"\n{PAGE} / {BARE}, medians of the rounds: Voilà's process {own_r:.2f}×, "
          f"kernels {kernel_r:.2f}×, both {both_r:.2f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
