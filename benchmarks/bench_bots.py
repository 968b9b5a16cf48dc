"""Bot-vs-bot play per game: actions per second and whole games per second.

Run: ``python -m benchmarks.bench_bots [--seconds S]``. Each game is played by
random bots and by strong bots, seeds 0, 1, 2, ... until the time budget is
spent; the two rows of a game are measured side by side in the same run.
Every action is a full protocol step: the bot reads ``observation(seat)`` and
``legal_actions()``, then ``apply`` validates the action and builds the next
state. Rates are per second of this process's CPU time: the machine is shared
and other processes stretch wall-clock time (wall-clock rates are printed too).
"""

from __future__ import annotations

import argparse
import time

from mathcards.bots import Bot
from mathcards.games.registry import game_names, make_game

SETTINGS = {
    "suns_to_moons": {"num_players": 4},
    "dice_stacks": {"num_players": 4},
    "sums": {"num_players": 4},
    "shoot_the_moon": {"num_players": 4},
    "moons_and_planets": {"num_players": 4},
}


def measure(name: str, kind: str, seconds: float) -> dict[str, float]:
    game = make_game(name, **SETTINGS[name])
    actions = games = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    seed = 0
    while time.process_time() - cpu_started < seconds or games == 0:
        bots = [Bot(name, kind, seed=seed * 10 + i) for i in range(game.num_players)]
        state = game.new_game(seed)
        while not state.is_over:
            state = state.apply(bots[state.current_player].choose(state))
            actions += 1
        games += 1
        seed += 1
    wall = time.perf_counter() - started
    elapsed = time.process_time() - cpu_started
    return {
        "actions_per_s": actions / elapsed,
        "wall_actions_per_s": actions / wall,
        "games_per_s": games / elapsed,
        "actions_per_game": actions / games,
        "games": games,
    }


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and bot kind")
    parser.add_argument("--games", nargs="*", default=list(game_names()))
    args = parser.parse_args(argv)
    lines = [
        ("| game (4 players) | bots | actions/s (CPU) | games/s (CPU) | actions/s (wall) "
        "| actions/game | games played |"),
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name in args.games:
        for kind in ("random", "strong"):
            r = measure(name, kind, args.seconds)
            lines.append(
                f"| {name} | {kind} | {r['actions_per_s']:,.0f} | {r['games_per_s']:,.1f} "
                f"| {r['wall_actions_per_s']:,.0f} | {r['actions_per_game']:,.0f} | {r['games']} |"
            )
    table = "\n".join(lines)
    print(table)
    return table


if __name__ == "__main__":
    main()
