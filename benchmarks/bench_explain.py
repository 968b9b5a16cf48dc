"""The explainer's cost: one move explained (warm), and the first explanation (cold).

Run: ``python -m benchmarks.bench_explain [--moves N] [--repeat R]``.

- *import* rows: ``import mathcards`` and ``import mathcards.explain`` in a
  fresh interpreter (neither may load sympy; the table says whether it did).
- *cold* row: in a fresh interpreter, the first move of a game explained and
  printed in plain text, LaTeX and HTML: this pays for importing sympy. The
  plain-text-only row shows what a page pays if it prints text first and
  lets LaTeX follow (``mathcards.explain.warm_up()`` loads sympy in the
  background meanwhile).
- *warm* rows: the median time to explain one bot move (``explain_events``
  and every step's text, LaTeX and HTML) once sympy is loaded, per game.

Every subprocess measurement is repeated and the median reported.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import subprocess
import sys
import time

GAMES = ("suns_to_moons", "dice_stacks", "sums")

_IMPORT = """
import json, sys, time
t = time.perf_counter()
import {module}
dt = time.perf_counter() - t
print(json.dumps({{"seconds": dt, "sympy": "sympy" in sys.modules}}))
"""

_COLD = """
import json, sys, time
import mathcards.explain as ex
from mathcards.games.registry import make_game
from mathcards.bots import Bot
game = make_game({name!r}, num_players=2)
state = game.new_game(1)
bot = Bot({name!r}, "strong", 1)
moves = []
while len(moves) < 40 and not state.is_over:
    after = state.apply(bot.choose(state))
    moves.append((state, after))
    state = after
# the first move that has arithmetic to show (a play, a stack, a capture)
def has_equation(pair):
    return any(s.equation is not None for s in ex.explain_events(*pair))
before, after = next((p for p in moves if has_equation(p)), moves[0])
assert "sympy" not in sys.modules
t = time.perf_counter()
steps = ex.explain_events(before, after)
text = [s.spoken for s in steps]
t_text = time.perf_counter() - t
latex = [s.latex for s in steps]
html = [s.html for s in steps]
dt = time.perf_counter() - t
print(json.dumps({{"seconds": dt, "text_seconds": t_text, "sympy": "sympy" in sys.modules}}))
"""


def _fresh(code: str, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    result = dict(runs[-1])
    for key in ("seconds", "text_seconds"):
        if key in result:
            result[key] = statistics.median(r[key] for r in runs)
    return result


def _available(name: str) -> bool:
    try:
        importlib.import_module(f"mathcards.games.{name}")
    except ModuleNotFoundError:
        return False
    return True


def warm_median(name: str, moves: int) -> tuple[float, float, int]:
    """(median seconds per move, with printing; median without LaTeX; moves timed)."""
    import mathcards.explain as ex
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game

    ex.warm_up(background=False)
    game = make_game(name, num_players=2)
    full, text_only = [], []
    seed = 0
    while len(full) < moves:
        bots = [Bot(name, "strong", seed * 10 + i) for i in range(2)]
        state = game.new_game(seed)
        while not state.is_over and len(full) < moves:
            after = state.apply(bots[state.current_player].choose(state))
            t = time.perf_counter()
            steps = ex.explain_events(state, after)
            for s in steps:
                s.spoken  # noqa: B018 - the cost being measured
            text_only.append(time.perf_counter() - t)
            t = time.perf_counter()
            steps = ex.explain_events(state, after)
            for s in steps:
                s.spoken  # noqa: B018
                s.latex  # noqa: B018
                s.html  # noqa: B018
            full.append(time.perf_counter() - t)
            state = after
        seed += 1
    return statistics.median(full), statistics.median(text_only), len(full)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000, help="moves timed per game (warm)")
    parser.add_argument("--repeat", type=int, default=5, help="fresh interpreters per cold row")
    args = parser.parse_args(argv)

    rows = []
    for module in ("mathcards", "mathcards.explain"):
        r = _fresh(_IMPORT.format(module=module), args.repeat)
        rows.append((f"`import {module}` (fresh interpreter)", _ms(r["seconds"]),
                     "yes" if r["sympy"] else "no"))
    r = _fresh("import json, time\nt = time.perf_counter()\nimport sympy\n"
               "print(json.dumps({'seconds': time.perf_counter() - t, 'sympy': True}))",
               args.repeat)
    rows.append(("`import sympy` alone (fresh interpreter)", _ms(r["seconds"]), "yes"))
    for name in GAMES:
        if not _available(name):
            rows.append((f"{name}: engine not written yet", "-", "-"))
            continue
        r = _fresh(_COLD.format(name=name), args.repeat)
        rows.append((f"{name}: first explanation, plain text only (cold)",
                     _ms(r["text_seconds"]), "no"))
        rows.append((f"{name}: first explanation, text + LaTeX + HTML (cold)",
                     _ms(r["seconds"]), "yes" if r["sympy"] else "no"))
    for name in GAMES:
        if not _available(name):
            continue
        full, text, n = warm_median(name, args.moves)
        rows.append((f"{name}: one move, text only (warm median of {n})", _ms(text), "loaded"))
        rows.append((f"{name}: one move, text + LaTeX + HTML (warm median of {n})",
                     _ms(full), "loaded"))

    print("| measurement | time | sympy imported |")
    print("|---|---:|:---:|")
    for row in rows:
        print(f"| {row[0]} | {row[1]} | {row[2]} |")


if __name__ == "__main__":
    main()
