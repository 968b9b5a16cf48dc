"""Bots and the harness that lets them play.

A bot sees only ``state.observation(seat)`` and the legal actions (which are
the seat's own options, so they reveal nothing hidden). Each game module
offers a ``strong_policy(observation, legal, rng)``; ``random`` is shared.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from mathcards.errors import SettingsError
from mathcards.games.base import Game, State
from mathcards.games.registry import game_spec

Policy = Callable[[Any, Collection[Any], random.Random], Any]
BOT_KINDS = ("random", "strong")


def random_policy(observation: Any, legal: Collection[Any], rng: random.Random) -> Any:
    """Any legal action, uniformly."""
    options = legal if isinstance(legal, Sequence) else list(legal)
    return options[rng.randrange(len(options))]


@dataclass
class Bot:
    """A seat played by a policy with its own seeded random source."""

    game_name: str
    kind: str = "random"
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in BOT_KINDS:
            raise SettingsError(f"unknown bot {self.kind!r}: choose one of {', '.join(BOT_KINDS)}")
        spec = game_spec(self.game_name)  # SettingsError for an unknown game
        self.policy: Policy = random_policy if self.kind == "random" else spec.strong_policy
        self.rng = random.Random(self.seed)

    def choose(self, state: State) -> Any:
        seat = state.current_player
        if seat is None:
            raise SettingsError("the game is over: there is no move to choose")
        return self.policy(state.observation(seat), state.legal_actions(), self.rng)


def play_game(
    game: Game,
    seed: int,
    bots: Sequence[str] | str = "random",
    max_actions: int = 200_000,
) -> State:
    """Play a whole game between bots and return the final state."""
    kinds = [bots] * game.num_players if isinstance(bots, str) else list(bots)
    players = [Bot(game.name, kind, seed=seed * 31 + i) for i, kind in enumerate(kinds)]
    state = game.new_game(seed)
    for _ in range(max_actions):
        if state.is_over:
            return state
        seat = state.current_player
        assert seat is not None  # a game not over always has a seat to act
        state = state.apply(players[seat].choose(state))
    raise RuntimeError(f"{game.name} seed {seed} did not end within {max_actions} actions")
