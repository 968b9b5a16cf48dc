"""The table's work before and after a change: two checkouts, side by side, in one run.

Run: ``python -m benchmarks.bench_table_ab --before DIR [--rounds 3]``, where DIR is another
checkout with its own ``.venv`` (as for ``benchmarks.bench_ab``). Each checkout's own Python
plays, through the table (``TableController`` and the ipywidgets ``GameTable``, no browser):

- four strong bots at a fast table (``bot_delay=0``; a first game unmeasured loads the
  explainer and sympy): Python calls per move (cProfile,
  which the machine's load does not change) and moves per CPU second (unprofiled, median
  of ``--rounds`` alternating rounds: read with the load's swing in mind);
- a student's random clicks (``tests/widgets/helpers.py`` ``click_something``) against a
  strong bot, three seeded games: calls per click. The same clicks and moves on both sides
  say the table behaves the same.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GAMES = ("suns_to_moons", "sums", "dice_stacks")

BOTS = """
import cProfile, pstats, sys, time
from mathcards import saves
saves.new_private_seed = lambda: 1
from mathcards.games.registry import make_game
from mathcards.table import TableController
from mathcards.widgets import make_view
name, profiled = sys.argv[1], sys.argv[2] == "calls"
TableController(make_view(name), make_game(name, num_players=4), seats=("strong",) * 4,
                seed=99, bot_delay=0, save=False)  # warm: the explainer's first LaTeX loads sympy
moves, cpu, prof = 0, 0.0, cProfile.Profile()
for seed in range(4 if profiled else 6):
    view = make_view(name)
    if profiled:
        prof.enable()
    t0 = time.process_time()
    ctl = TableController(view, make_game(name, num_players=4), seats=("strong",) * 4,
                          seed=seed, bot_delay=0, save=False, bot_seed=seed)
    cpu += time.process_time() - t0
    if profiled:
        prof.disable()
    moves += len(ctl.state.history)
print(moves, pstats.Stats(prof).total_calls if profiled else moves / cpu)
"""

CLICKS = """
import cProfile, pstats, random, sys
from mathcards import saves
saves.new_private_seed = lambda: 1
from mathcards.asking import SHOW
from mathcards.games.registry import make_game
from mathcards.widgets import make_view
from mathcards.widgets.table import GameTable
from tests.widgets.helpers import click_something
name = sys.argv[1]
GameTable(make_view(name), make_game(name, num_players=2), seats=("strong", "strong"),
          seed=99, bot_delay=0, save=False)  # warm: imports and sympy's first LaTeX
clicks, moves, prof = 0, 0, cProfile.Profile()
for seed in range(3):
    table = GameTable(make_view(name), make_game(name, num_players=2),
                      seats=("human", "strong"), seed=seed, bot_delay=0, save=False, level=SHOW)
    rng = random.Random(seed)
    while not table.state.is_over and clicks < 400 * (seed + 1):
        prof.enable()
        click_something(table, rng)
        prof.disable()
        clicks += 1
    moves += len(table.state.history)
print(clicks, moves, pstats.Stats(prof).total_calls)
"""


def run(checkout: Path, script: str, *args: str) -> list[float]:
    out = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", script, *args],
        cwd=checkout, capture_output=True, text=True, check=True).stdout.split()
    return [float(x) for x in out]


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    before = args.before.resolve()
    lines = [("| game (4 strong bots) | moves | calls/move before | after | after / before "
             "| moves/CPU s before | after | after / before |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for game in GAMES:
        (n0, c0), (n1, c1) = run(before, BOTS, game, "calls"), run(HERE, BOTS, game, "calls")
        rates: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            rates["before"].append(run(before, BOTS, game, "rate")[1])
            rates["after"].append(run(HERE, BOTS, game, "rate")[1])
        r0, r1 = statistics.median(rates["before"]), statistics.median(rates["after"])
        moves = f"{n1:.0f}" if n0 == n1 else f"{n0:.0f} / {n1:.0f}"
        lines.append(f"| {game} | {moves} | {c0 / n0:.1f} | {c1 / n1:.1f} "
                     f"| {(c1 / n1) / (c0 / n0):.3f} | {r0:,.0f} | {r1:,.0f} | {r1 / r0:.2f} |")
    lines += ["", ("| table (you and a strong bot) | clicks | moves | calls/click before | after "
              "| after / before |"), "|---|---:|---:|---:|---:|---:|"]
    for game in ("sums", "suns_to_moons"):
        (k0, m0, c0), (k1, m1, c1) = run(before, CLICKS, game), run(HERE, CLICKS, game)
        same = f"{k1:.0f} | {m1:.0f}" if (k0, m0) == (k1, m1) else \
            f"{k0:.0f} / {k1:.0f} | {m0:.0f} / {m1:.0f}"
        lines.append(f"| {game} | {same} | {c0 / k0:,.1f} | {c1 / k1:,.1f} "
                     f"| {(c1 / k1) / (c0 / k0):.3f} |")
    table = "\n".join(lines)
    print(table)
    return table


if __name__ == "__main__":
    main()
