"""Sums explained: a capture as the sum or difference that makes the captured card.

``7 + 5 = 12 = Q♦``; ``9 − 3 = 6 = 6♥`` (the larger card first, whichever was
played: the rule text's "value or negative" is the two cards' distance); the Ace/Queen and
King/2 exceptions in words; a counter as the same arithmetic the other way.
The ways come from the engine: its events carry them, and a hint asks the
engine what a card would capture (``SumsState.captures_by``) or applies the
counter to the real state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathcards.explain.steps import CaptureStep, Fact, Hint, Step
from mathcards.games.base import seat_name
from mathcards.games.sums import (
    Captured,
    CaptureThreatened,
    CaptureWay,
    Countered,
    Draw,
    Phase,
    Play,
    SumsState,
    card_points,
)
from mathcards.i18n import N_, _

# the hint when no card to play captures (the asker tells it apart: it answers no claim)
NO_CAPTURE_NOW = N_("no card you can play captures now: play one that leaves your cards hard "
                    "to capture")


def steps_for_events(events: Sequence[Any], before: Any = None, after: Any = None,
                     names: Sequence[str] = ()) -> list[Step]:
    """The steps of one action's events, in order (a threat answered at once is one step);
    ``names`` are the seats' names at the table."""
    out: list[Step] = []
    names = tuple(names)
    for ev in events:
        if isinstance(ev, CaptureThreatened):
            out.append(_way_step(ev.way, ev.player, ev.target_owner, "threat", names))
        elif isinstance(ev, Countered):
            out.append(_way_step(ev.way, ev.player, ev.target_owner, "counter", names))
        elif isinstance(ev, Captured):
            step = _way_step(ev.way, ev.player, ev.from_player, "capture", names)
            last = out[-1] if out else None
            if (isinstance(last, CaptureStep) and last.stage == "threat"
                    and last.played == step.played and last.target == step.target):
                out[-1] = step  # nobody could counter: the threat is the capture
            else:
                out.append(step)
        else:
            out.append(Fact(player=ev.player, sentence=ev.describe(names).rstrip(".")))
    return out


def _way_step(way: CaptureWay, player: int | None, owner: int, stage: str,
              names: tuple[str, ...] = ()) -> CaptureStep:
    return CaptureStep(player=player, played=way.played, helper=way.helper, op=way.op,
                       target=way.target, target_owner=owner, stage=stage, names=names,
                       result=way.result)


def _best(ways: list[tuple[int, CaptureWay]]) -> tuple[int, CaptureWay]:
    return max(ways, key=lambda ow: (card_points(ow[1].target), ow[1].target.rank))


def hint(state: SumsState, level: int = 1) -> Hint:
    """A hint for the player to act: 1 a nudge, 2 which card, 3 the whole capture and its sum."""
    player = state.current_player
    if player is None:
        return Hint(level=level, sentence=_("the game is over"))
    legal = list(state.legal_actions())
    if state.phase == Phase.COUNTER:
        threat = state.threat
        assert threat is not None
        # what if: each counter applied to the real state, its way from the event
        counters = [ev.way for action in legal
                    for ev in state.apply(action).new_events if isinstance(ev, Countered)]
        way = counters[0]
        if level <= 1:
            return Hint(level=1, sentence=_("you can save your {card}: one of your cards "
                                            "counters").format(card=threat.target.symbol))
        if level == 2:
            return Hint(level=2, sentence=_("counter with your {card}").format(
                card=way.played.symbol))
        sentence = _("your {card} with your {helper} captures their {target} and saves "
                     "your {saved}").format(card=way.played.symbol, helper=way.helper.symbol,
                                            target=way.target.symbol,
                                            saved=threat.target.symbol)
        return Hint(level=3, sentence=sentence,
                    shown=(_way_step(way, player, threat.attacker, "counter"),))
    if state.phase == Phase.CHOOSE:
        owner, way = _best(list(state.pending or ()))
        if level <= 1:
            return Hint(level=1, sentence=_("your play can capture more than one card: "
                                            "choose the one worth most"))
        if level == 2:
            return Hint(level=2, sentence=_("take their {card}: it is worth most").format(
                card=way.target.symbol))
        sentence = _("your {card} with your {helper} captures their {target}").format(
            card=way.played.symbol, helper=way.helper.symbol, target=way.target.symbol)
        return Hint(level=3, sentence=sentence, shown=(_way_step(way, player, owner, "threat"),))
    candidates = [a.card for a in legal if isinstance(a, Play)]
    drawing = not candidates and any(isinstance(a, Draw) for a in legal)
    if drawing:  # a regular turn starts with a draw: look at the tops of the piles
        candidates = [pile[-1] for pile in state.piles if pile] + list(state.hands[player])
    ways = [ow for card in candidates for ow in state.captures_by(card, player)]
    if not ways:
        sentence = _(NO_CAPTURE_NOW) if not drawing else _("draw a card first; no card in "
                                                           "reach captures yet")
        return Hint(level=level, sentence=sentence)
    owner, way = _best(ways)
    if level <= 1:
        return Hint(level=1, sentence=_("you can capture one of {who}'s cards").format(
            who=seat_name((), owner)))
    from_pile = drawing and way.played not in state.hands[player]
    if from_pile and level == 2:
        return Hint(level=2, sentence=_("play your {card} (draw it from the top of its "
                                        "pile first): it can capture").format(
            card=way.played.symbol))
    if level == 2:
        return Hint(level=2, sentence=_("play your {card}: it can capture").format(
            card=way.played.symbol))
    sentence = (_("play your {card} (draw it from the top of its pile first): with your "
                  "{helper} it captures their {target}") if from_pile else
                _("play your {card}: with your {helper} it captures their {target}")).format(
        card=way.played.symbol, helper=way.helper.symbol, target=way.target.symbol)
    return Hint(level=3, sentence=sentence, shown=(_way_step(way, player, owner, "threat"),))
