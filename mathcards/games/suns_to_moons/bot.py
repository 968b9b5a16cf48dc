"""The strong Suns to Moons bot: it sees only its observation and the legal moves."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from mathcards.games.suns_to_moons.actions import Play
from mathcards.games.suns_to_moons.rules import MIN_DECK_FOR_GOAL, after_joker
from mathcards.games.suns_to_moons.state import SunsToMoonsView
from mathcards.games.suns_to_moons.turns import legal_turns


# --- bots ----------------------------------------------------------------
def _unseen(obs: SunsToMoonsView) -> dict[int, int]:
    """Copies of each rank (0 = Joker) the player has not seen in hand or on the deck."""
    left = dict.fromkeys(range(1, 14), 4 * obs.num_decks)
    left[0] = 2 * obs.num_decks
    for c in obs.hand:
        left[c.rank] -= 1
    for pl in obs.table:
        left[pl.card.rank] -= 1
    return left


def _one_card_hits(distance: int, unseen: dict[int, int]) -> int:
    """How many unseen cards could cover ``distance`` with one play (any sign)."""
    d = abs(distance)
    if d == 0 or d > 14:
        return 0
    return unseen[1 if d in (1, 14) else d]


def _risk(counted: tuple[int, ...], goal: int, unseen: dict[int, int]) -> float:
    """How easily the next player could reach the goal from here with one turn."""
    value = sum(counted)
    risk: float = _one_card_hits(goal - value, unseen)
    if unseen[0] > 0:
        joker_value = sum(after_joker(counted))
        if joker_value == goal:
            risk += 2 * unseen[0]
        else:
            risk += 0.25 * unseen[0] * min(1, _one_card_hits(goal - joker_value, unseen))
    return risk


def strong_policy(observation: SunsToMoonsView, legal: Collection[Any],
                  rng: random.Random) -> Any:
    """Reach the goal when possible; else leave the next player the fewest one-card wins.

    Whole turns are planned (a Joker and its second card together) from the
    public information only: the player's hand, the deck and the scores.
    """
    options = list(legal)
    if len(options) == 1:
        return options[0]
    obs = observation
    goal = obs.goal
    unseen = _unseen(obs)
    # candidate = (first action, plays of the whole remaining turn)
    candidates: list[tuple[Any, tuple[Play, ...]]]
    if obs.after_joker:
        candidates = [(a, (a,) if isinstance(a, Play) else ()) for a in options]
    else:
        candidates = [(t.plays[0], t.plays) for t in legal_turns(obs.hand, obs.counted)]
        candidates = [c for c in candidates if c[0] in set(options)] or [
            (a, (a,)) for a in options
        ]
    best_key = None
    best: Any = options[0]
    for first, plays in candidates:
        counted = obs.counted
        size = obs.deck_size
        wins = False
        for pl in plays:
            if pl.is_joker:
                counted = after_joker(counted)
            else:
                counted += (pl.contribution,)
            size += 1
            if sum(counted) == goal and size >= MIN_DECK_FOR_GOAL:
                wins = True
                break
        uses_joker = any(pl.is_joker for pl in plays)
        key = (
            0 if wins else 1,
            0.0 if wins else _risk(counted, goal, unseen),
            1 if uses_joker and not wins else 0,
            rng.random(),
        )
        if best_key is None or key < best_key:
            best_key, best = key, first
    return best
