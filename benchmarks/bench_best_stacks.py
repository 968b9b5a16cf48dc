"""How fast ``dice_stacks.best_stacks`` finds the exact best stacks, beside a plain search.

Run: ``python -m benchmarks.bench_best_stacks [--hands N] [--cap SECONDS]``.
Seeded random hands of 10, 20, 30 and 40 cards from two decks, random dice.
Targets on a 2-core machine: median <= 50 ms at 30 cards, <= 250 ms at 40,
no hand over 2 s. The baseline is the plain memoised search over rank counts
(every stack holding the lowest rank left, memo on the counts), stopped after
``--cap`` seconds per hand and reported as "> cap" when it does not finish.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mathcards.cards import standard_deck
from mathcards.games.dice_stacks import best_stacks, stack_points
from mathcards.games.dice_stacks.solver import plain_memo_best

SIZES = (10, 20, 30, 40)


def hands(size: int, count: int, seed: int = 2024):
    rng = random.Random(seed * 100 + size)
    deck = standard_deck(decks=2)
    for _ in range(count):
        yield rng.sample(deck, size), (rng.randint(1, 6), rng.randint(1, 6))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def measure(size: int, count: int, cap: float, baseline_count: int) -> dict[str, str]:
    times = []
    base_times: list[float | None] = []
    for i, (hand, dice) in enumerate(hands(size, count)):
        started = time.perf_counter()
        stacks = best_stacks(hand, dice)
        times.append(time.perf_counter() - started)
        if i < baseline_count:
            counts = [0] * 13
            for card in hand:
                counts[card.rank - 1] += 1
            started = time.perf_counter()
            plain = plain_memo_best(counts, dice, deadline=started + cap)
            took = time.perf_counter() - started
            base_times.append(None if plain is None else took)
            if plain is not None:
                ours = sum(stack_points(s, dice) for s in stacks)
                assert ours == plain, f"best_stacks {ours} != plain {plain}: {hand} {dice}"
    paired = times[: len(base_times)]  # our times on the hands the plain search saw
    times.sort()
    row = {
        "cards": str(size),
        "hands": str(count),
        "median": _ms(statistics.median(times)),
        "p95": _ms(times[min(len(times) - 1, int(0.95 * len(times)))]),
        "max": _ms(times[-1]),
    }
    done = sorted(t for t in base_times if t is not None)
    capped = len(base_times) - len(done)
    if base_times:
        ordered = sorted(base_times, key=lambda t: float("inf") if t is None else t)
        mid = ordered[len(ordered) // 2]
        worst = ordered[-1]
        row["plain median"] = f"> {cap:g} s" if mid is None else _ms(mid)
        row["plain max"] = f"> {cap:g} s" if worst is None else _ms(worst)
        row["plain capped"] = f"{capped}/{len(base_times)}"
        ours_median = statistics.median(paired)
        if mid is not None and ours_median > 0:
            row["ratio (median)"] = f"{mid / ours_median:.1f}x"
        else:
            row["ratio (median)"] = f"> {cap / max(ours_median, 1e-9):.0f}x"
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per size (default 200)")
    parser.add_argument(
        "--cap", type=float, default=5.0, help="seconds per hand for the plain search"
    )
    parser.add_argument(
        "--baseline-hands", type=int, default=10, help="hands per size for the plain search"
    )
    args = parser.parse_args(argv)
    rows = [measure(size, args.hands, args.cap, args.baseline_hands) for size in SIZES]
    headers = list(rows[0])
    print("| " + " | ".join(headers) + " |")
    print("|" + "|".join("---" for _ in headers) + "|")
    for row in rows:
        print("| " + " | ".join(row.get(h, "") for h in headers) + " |")


if __name__ == "__main__":
    main()
