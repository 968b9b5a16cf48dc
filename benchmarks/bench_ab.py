"""Bots' speed before and after a change: two checkouts, side by side, in one run.

Run: ``python -m benchmarks.bench_ab --before DIR [--rounds 3] [--seconds 1.5]``,
where DIR is another checkout of this repository with its own ``.venv`` (a
``git worktree`` of the commit before the change, ``make .venv/.installed-stamp``
there). For each game the two checkouts take turns, round after round
(before, after, before, after...), each in a fresh process running
``benchmarks.bench_bots`` for that game only, so a drift of the shared machine's
load falls on both alike. The table gives each side's median actions per CPU
second and the ratio after / before of the medians.

On a shared machine those rates can swing by a third between rounds, so a second
table counts work instead of time: the Python function calls per action of the same
seeded games in each checkout (cProfile; the same seeds play the same moves when the
rules are unchanged), which no other load on the machine changes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
from pathlib import Path

from benchmarks.bench_bots import SETTINGS

HERE = Path(__file__).resolve().parents[1]


def rates(checkout: Path, game: str, seconds: float) -> dict[str, float]:
    """Actions per CPU second of random and strong bots in ``game``, from ``checkout``."""
    out = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-m", "benchmarks.bench_bots",
         "--seconds", str(seconds), "--games", game],
        cwd=checkout, capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) > 2 and cells[0] == game:
            found[cells[1]] = float(cells[2].replace(",", ""))
    return found


# run by each checkout's own Python: function calls per action of 8 seeded 4-player games
CALLS = """
import cProfile, pstats, sys
from mathcards.bots import Bot
from mathcards.games.registry import make_game
name, kind = sys.argv[1:3]
game, actions, prof = make_game(name, num_players=4), 0, cProfile.Profile()
prof.enable()
for seed in range(8):
    bots = [Bot(name, kind, seed=seed * 10 + i) for i in range(4)]
    state = game.new_game(seed)
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
        actions += 1
prof.disable()
print(actions, pstats.Stats(prof).total_calls)
"""


def calls(checkout: Path, game: str, kind: str) -> tuple[int, int]:
    """(actions, function calls) of 8 seeded games of ``game`` in ``checkout``."""
    out = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", CALLS, game, kind],
        cwd=checkout, capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1])


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--games", nargs="*", default=list(SETTINGS))
    args = parser.parse_args(argv)
    lines = ["| game (4 players) | bots | before | after | after / before |",
             "|---|---|---:|---:|---:|"]
    for game in args.games:
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            runs["before"].append(rates(args.before.resolve(), game, args.seconds))
            runs["after"].append(rates(HERE, game, args.seconds))
        for kind in ("random", "strong"):
            before = statistics.median(r[kind] for r in runs["before"])
            after = statistics.median(r[kind] for r in runs["after"])
            lines.append(f"| {game} | {kind} | {before:,.0f} | {after:,.0f} "
                         f"| {after / before:.2f} |")
    lines += ["", ("| game (4 players) | bots | actions (8 seeded games) | calls/action before "
              "| after | after / before |"), "|---|---|---:|---:|---:|---:|"]
    for game in args.games:
        for kind in ("random", "strong"):
            (n0, c0), (n1, c1) = calls(args.before.resolve(), game, kind), calls(HERE, game, kind)
            same = str(n1) if n0 == n1 else f"{n0} / {n1}"
            lines.append(f"| {game} | {kind} | {same} | {c0 / n0:.1f} | {c1 / n1:.1f} "
                         f"| {(c1 / n1) / (c0 / n0):.3f} |")
    table = "\n".join(lines)
    print(table)
    return table


if __name__ == "__main__":
    main()
