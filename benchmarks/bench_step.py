"""The table as a value beside the controller: moves per CPU second, the same games.

Run: ``python -m benchmarks.bench_step [--rounds 3]``. For each game with a table, a
person (random clicks from what the table offers, seeded) against strong bots at a fast
table, the same seeds through ``mathcards.table_value.step`` (a new frozen table per click
and per bot move) and through ``TableController`` (one mutable controller), taking turns
round after round in this one process. Both play the same moves
(``tests/test_table_value.py`` checks it click for click); a warm-up game first loads the
explainer and sympy. Reported: moves per CPU second of each (median of the rounds), and
the Python calls per move of each (cProfile: the machine's load does not change them).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time

from mathcards import saves
from mathcards.games.registry import game_spec, game_specs, resolve
from mathcards.table import TableController
from mathcards.table_value import (
    ClickCard,
    ClickChoice,
    Ready,
    card_states,
    deal,
    holding,
    offered_choices,
    run,
    waiting_for_ready,
)

SEEDS = (1, 2, 3)


def _setup(name: str, seed: int):
    cls = game_spec(name).engine
    game = cls(num_players=max(2, cls.min_players))
    seats = ("human",) + ("strong",) * (game.num_players - 1)
    private = saves.new_private_seed() if saves.has_private_deal(game) else None
    return deal(resolve(game_spec(name).view)(), game, seats, seed, private_seed=private,
                bot_seed=seed)


def _pick(t, rng):
    if holding(t):
        return ClickChoice("next-round")
    if waiting_for_ready(t) is not None:
        return Ready()
    cards = [ClickCard(c.key) for c in card_states(t) if c.enabled]
    choices = [ClickChoice(c.key) for c in offered_choices(t)
               if not c.key.startswith("off:") and c.key not in ("back", "clear")]
    return rng.choice(cards + choices)


def script(name: str, seed: int) -> tuple[object, list[object]]:
    """The deal and the person's clicks of one seeded game (played once through step)."""
    table, effects = _setup(name, seed)
    first = table
    t, _ = run(table, [], pending=effects)
    rng, clicks = random.Random(seed), []
    while not t.state.is_over:
        click = _pick(t, rng)
        clicks.append(click)
        t, _ = run(t, [click])
    return (first, effects), clicks


def by_step(games: list[tuple[tuple[object, object], list[object]]]) -> tuple[int, float]:
    moves, start = 0, time.process_time()
    for (table, effects), clicks in games:
        t, _ = run(table, clicks, pending=effects)  # type: ignore[arg-type]
        moves += len(t.state.history)
    return moves, time.process_time() - start


def by_controller(games: list[tuple[tuple[object, object], list[object]]]) -> tuple[int, float]:
    moves, start = 0, time.process_time()
    for (table, _effects), clicks in games:
        ctl = TableController(table.view, state=table.state, seats=table.seats,  # type: ignore[attr-defined]
                              bot_delay=0, save=False,
                              bot_seed=table.state.seed)  # type: ignore[attr-defined]
        for click in clicks:
            if isinstance(click, ClickCard):
                ctl.attempt(ctl.click_card, click.key)
            elif isinstance(click, ClickChoice):
                ctl.attempt(ctl.click_choice, click.key)
            else:
                ctl.ready()
        moves += len(ctl.state.history)
    return moves, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    names = [s.name for s in game_specs() if s.view]
    print("| game (you and strong bots, seeds 1-3) | moves | step moves/CPU s | "
          "controller moves/CPU s | step / controller | calls/move step | controller | "
          "step / controller |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        games = [script(name, seed) for seed in SEEDS]  # also the warm-up
        rates: dict[str, list[float]] = {"step": [], "ctl": []}
        played: dict[str, int] = {}
        for _round in range(args.rounds):
            for kind, fn in (("step", by_step), ("ctl", by_controller)):
                played[kind], cpu = fn(games)  # type: ignore[operator]
                rates[kind].append(played[kind] / cpu)
        moves = played["step"]
        if played["ctl"] != moves:
            raise SystemExit(f"{name}: the controller played {played['ctl']} moves, "
                             f"step {moves}: not the same games")
        s, c = statistics.median(rates["step"]), statistics.median(rates["ctl"])
        calls = {}
        for kind, fn in (("step", by_step), ("ctl", by_controller)):
            prof = cProfile.Profile()
            prof.enable()
            fn(games)  # type: ignore[operator]
            prof.disable()
            calls[kind] = pstats.Stats(prof).total_calls / moves  # type: ignore[attr-defined]
        print(f"| {name} | {moves} | {s:,.0f} | {c:,.0f} | {s / c:.2f} | {calls['step']:,.0f} "
              f"| {calls['ctl']:,.0f} | {calls['step'] / calls['ctl']:.2f} |")


if __name__ == "__main__":
    main()
