"""Sums explained: a capture as the sum or difference that makes the captured card.

``7 + 5 = 12 = Q♦``; ``3 − 9 = −6``, the negative of 6♥; the Ace/Queen and
King/2 exceptions in words; a counter as the same arithmetic the other way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathcards.explain.steps import CaptureStep, Fact, Hint, Refusal, Step, seat_name


def steps_for_events(events: Sequence[Any], before: Any = None, after: Any = None) -> list[Step]:
    """The steps of one action's events, in order (a threat answered at once is one step)."""
    out: list[Step] = []
    for ev in events:
        name = type(ev).__name__
        if name == "CaptureThreatened":
            out.append(CaptureStep(player=ev.player, played=ev.played, helper=ev.helper,
                                   op=ev.op, target=ev.target, target_owner=ev.target_owner,
                                   stage="threat"))
        elif name == "Countered":
            out.append(CaptureStep(player=ev.player, played=ev.card, helper=ev.helper,
                                   op=ev.op, target=ev.target, target_owner=ev.target_owner,
                                   stage="counter"))
        elif name == "Captured":
            step = CaptureStep(player=ev.player, played=ev.played, helper=ev.helper, op=ev.op,
                               target=ev.card, target_owner=ev.from_player, stage="capture")
            last = out[-1] if out else None
            if (isinstance(last, CaptureStep) and last.stage == "threat"
                    and last.played == step.played and last.target == step.target):
                out[-1] = step  # nobody could counter: the threat is the capture
            else:
                out.append(step)
        else:
            out.append(Fact(player=ev.player, sentence=ev.describe().rstrip(".")))
    return out


def _way_step(way: Any, player: int, owner: int, stage: str) -> CaptureStep:
    return CaptureStep(player=player, played=way.played, helper=way.helper, op=way.op,
                       target=way.target, target_owner=owner, stage=stage)


def _best(ways: list[tuple[Any, int]]) -> tuple[Any, int]:
    from mathcards.games.sums import card_points

    return max(ways, key=lambda wo: (card_points(wo[0].target), wo[0].target.rank))


def hint(state: Any, level: int = 1) -> Hint:
    """A hint for the player to act: 1 a nudge, 2 which card, 3 the full capture."""
    from mathcards.games import sums as engine

    player = state.current_player
    if player is None:
        return Hint(level=level, sentence="the game is over")
    legal = list(state.legal_actions())
    names = {type(a).__name__ for a in legal}
    sides = state.sides
    if "Counter" in names:
        threat = state.threat
        ways = []
        for action in legal:
            if type(action).__name__ == "Counter":
                for way in engine.capture_ways(action.card, sides[player], (threat.played,)):
                    ways.append((way, threat.attacker))
        way, owner = ways[0]
        if level <= 1:
            return Hint(level=1, sentence=f"you can save your {threat.target.symbol}: "
                                          f"one of your cards counters")
        sentence = (f"your {way.played.symbol} captures their {way.target.symbol} "
                    f"and saves your {threat.target.symbol}")
        if level == 2:
            return Hint(level=2, sentence=sentence)
        return Hint(level=3, sentence=sentence, shown=(_way_step(way, player, owner, "counter"),))
    if "Capture" in names:
        ways = [(w, o) for o, w in state.pending or ()]
        way, owner = _best(ways)
        if level <= 1:
            return Hint(level=1, sentence="your play can capture more than one card: "
                                          "choose the one worth most")
        sentence = f"your {way.played.symbol} captures their {way.target.symbol}"
        if level == 2:
            return Hint(level=2, sentence=sentence)
        return Hint(level=3, sentence=sentence, shown=(_way_step(way, player, owner, "threat"),))
    plays = [a for a in legal if type(a).__name__ == "Play"]
    candidates = [a.card for a in plays]
    drawing = not plays and "Draw" in names
    if drawing:  # a regular turn starts with a draw: look at the tops of the piles
        candidates = [pile[-1] for pile in state.piles if pile] + list(state.hands[player])
    ways = []
    for card in candidates:
        for owner, side in enumerate(sides):
            if owner != player and side:
                for way in engine.capture_ways(card, sides[player], side):
                    ways.append((way, owner))
    if not ways:
        sentence = ("no card you can play captures now: play one that leaves your cards "
                    "hard to capture" if not drawing else "draw a card first; no card in "
                    "reach captures yet")
        return Hint(level=level, sentence=sentence)
    way, owner = _best(ways)
    if level <= 1:
        return Hint(level=1, sentence=f"you can capture one of {seat_name(owner)}'s cards")
    where = ""
    if drawing and way.played not in state.hands[player]:
        where = " (draw it from the top of its pile first)"
    sentence = f"your {way.played.symbol} captures their {way.target.symbol}{where}"
    if level == 2:
        return Hint(level=2, sentence=sentence)
    return Hint(level=3, sentence=sentence, shown=(_way_step(way, player, owner, "threat"),))


def why_not(state: Any, action: Any, reason: str) -> Refusal:
    """A refused Sums move with the rule's reason (the engine names it)."""
    return Refusal(action=str(action), reason=reason)
