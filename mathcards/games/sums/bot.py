"""The strong Sums bot: it sees only its observation and the legal moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathcards.cards import Card
from mathcards.games.sums.actions import Capture, Counter, Decline, Draw, EndGame, Play
from mathcards.games.sums.pieces import SumsObservation
from mathcards.games.sums.rules import _POINTS, RED_SUITS, _ways


# --- the strong bot ---------------------------------------------------------------------
def _best_capture_points(card: Card, me: int, sides: Sequence[tuple[Card, ...]]) -> int:
    best = 0
    own = sides[me]
    for owner, side in enumerate(sides):
        if owner != me and side:
            for way in _ways(card, own, side):
                best = max(best, _POINTS[way.target.rank])
    return best


def _exposure(card: Card, me: int, sides: Sequence[tuple[Card, ...]]) -> int:
    """How many opponents hold a face-up card of ``card``'s colour (a possible helper)."""
    red = card.suit in RED_SUITS
    return sum(
        1
        for owner, side in enumerate(sides)
        if owner != me and any((c.suit in RED_SUITS) == red for c in side)
    )


def strong_policy(observation: SumsObservation, legal: Sequence[Any], rng: Any) -> Any:
    """Capture the highest-scoring card, counter when able, draw what enables the best
    capture, otherwise play a card that sets up helpers without offering captures."""
    obs = observation
    me, sides = obs.player, obs.sides
    legal = list(legal)
    captures = [a for a in legal if isinstance(a, Capture)]
    if captures:
        return max(captures, key=lambda a: _POINTS[a.target.rank])
    counters = [a for a in legal if isinstance(a, Counter)]
    if counters:
        # the counter card stays on your side: prefer the one worth most
        return max(counters, key=lambda a: _POINTS[a.card.rank])
    plays = [a for a in legal if isinstance(a, Play)]
    draws = [a for a in legal if isinstance(a, Draw)]
    capture_now = {a: _best_capture_points(a.card, me, sides) for a in plays}
    best_now = max(capture_now.values(), default=0)
    if best_now:
        return max(plays, key=lambda a: (capture_now[a], -_POINTS[a.card.rank]))
    if draws and (not plays or not obs.variant_draw_or_play or len(obs.hand) <= 2):

        def draw_value(action: Draw) -> tuple[int, int]:
            top = obs.pile_tops[action.pile]
            if top is None:
                return (-1, 0)
            return (_best_capture_points(top, me, sides), _POINTS[top.rank])

        return max(draws, key=draw_value)
    if plays:
        if obs.last_play:
            return max(plays, key=lambda a: _POINTS[a.card.rank])

        def play_value(action: Play) -> float:
            card = action.card
            red = card.suit in RED_SUITS
            targets = sum(
                1
                for owner, side in enumerate(sides)
                if owner != me
                for c in side
                if (c.suit in RED_SUITS) == red
            )
            risk = _exposure(card, me, sides)
            worth = _POINTS[card.rank]
            return (worth if risk == 0 else -worth * risk) + 0.1 * targets

        return max(plays, key=play_value)
    for action in legal:
        if isinstance(action, Decline | EndGame):
            return action
    return legal[rng.randrange(len(legal))]
