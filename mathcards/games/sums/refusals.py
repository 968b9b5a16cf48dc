"""Why Sums refuses a move, in words a student can act on (``SumsState.why_illegal``)."""

from __future__ import annotations

from typing import Any, Protocol

from mathcards.cards import Card
from mathcards.games.base import seat_name
from mathcards.games.sums.actions import Capture, Counter, Decline, Draw, EndGame, Play, TakeBack
from mathcards.games.sums.pieces import CHOOSE, COUNTER, LAST, PLAY, START, Phase, Threat
from mathcards.games.sums.rules import TAKE_BACK_LIMIT, why_no_capture
from mathcards.games.sums.settings import SumsSettings


class SumsPosition(Protocol):
    """What a refusal reads of a position: ``SumsState`` (which asks this module) has it."""

    @property
    def game(self) -> SumsSettings: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def actor(self) -> int | None: ...
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def sides(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def threat(self) -> Threat | None: ...
    def _played_cards(self, player: int) -> tuple[Card, ...]: ...


def why_illegal(state: SumsPosition, action: Any) -> str:
    """Why ``action`` is not allowed in ``state`` (the engine's reason for a refusal)."""
    phase, p = state.phase, state.actor
    assert p is not None
    hand, side = state.hands[p], state.sides[p]
    game = state.game
    waiting = {
        CHOOSE: "first choose which card your play captures",
        COUNTER: "first answer the threat: counter it or let the capture happen",
    }
    if isinstance(action, Draw):
        if phase in waiting:
            return waiting[phase]
        if phase == PLAY:
            return "you have drawn already: now play a card from your hand"
        pile = action.pile
        if isinstance(pile, bool) or not isinstance(pile, int):
            return f"piles are numbered 1 to {len(state.piles)}"
        if not 0 <= pile < len(state.piles):
            return f"there is no pile {pile + 1}: piles are numbered 1 to {len(state.piles)}"
        ending = "the game is ending: play one last card without drawing, or end the game"
        if not state.piles[pile]:
            return f"that pile is empty, so {ending}"
        return f"a pile is empty, so nobody draws any more and {ending}"
    if isinstance(action, Play):
        if phase in waiting:
            return waiting[phase]
        if phase == START and not game.variant_draw_or_play:
            return "draw a card first"
        return f"you do not hold {action.card.symbol}"
    if isinstance(action, Capture):
        if phase != CHOOSE:
            return "there is no capture to choose now"
        if not (isinstance(action.owner, int) and 0 <= action.owner < game.num_players):
            return f"there is no player {action.owner}"
        if action.owner == p:
            return "you cannot capture your own card"
        if action.target not in state.sides[action.owner]:
            return f"{seat_name((), action.owner)} has no {action.target} face up"
        played = side[-1]
        return why_no_capture(played, action.target, side[:-1])
    if isinstance(action, Counter):
        if phase != COUNTER:
            return "there is no capture to counter now"
        if action.card not in hand:
            return f"you do not hold {action.card.symbol}"
        threat = state.threat
        assert threat is not None
        return "a counter must capture the threatening card: " + why_no_capture(
            action.card, threat.played, side
        )
    if isinstance(action, Decline):
        return "there is no capture to counter now"
    if isinstance(action, TakeBack):
        if not game.variant_return:
            return "taking a card back is the 'return' variant, which is off in this game"
        if phase in waiting:
            return waiting[phase]
        if phase == LAST:
            return "a pile is empty: you may only play one last card or end the game"
        if phase == START and not game.variant_draw_or_play:
            return "draw a card first"
        if len(hand) >= TAKE_BACK_LIMIT:
            return (
                f"you may take a card back only with fewer than {TAKE_BACK_LIMIT} cards "
                f"in hand; you hold {len(hand)}"
            )
        if action.card not in side:
            return f"you have no {action.card.symbol} face up on your side"
        if action.card not in state._played_cards(p):
            return (
                f"{action.card.symbol} is the card you were dealt face up: you may take back "
                "only a card you played yourself"
            )
        return "draw a card before you take back another (otherwise the game could never end)"
    if isinstance(action, EndGame):
        return "the game ends only when a pile is empty at the start of a turn"
    return "it is not one of the moves allowed now"  # pragma: no cover
