"""Why Sums refuses a move, in words a student can act on (``SumsState.why_illegal``)."""

from __future__ import annotations

from typing import Any, Protocol

from mathcards.cards import Card
from mathcards.games.base import seat_name
from mathcards.games.sums.actions import Capture, Counter, Decline, Draw, EndGame, Play, TakeBack
from mathcards.games.sums.pieces import CHOOSE, COUNTER, LAST, PLAY, START, Phase, Threat
from mathcards.games.sums.rules import TAKE_BACK_LIMIT, why_no_capture
from mathcards.games.sums.settings import SumsSettings
from mathcards.i18n import _


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
        CHOOSE: _("first choose which card your play captures"),
        COUNTER: _("first answer the threat: counter it or let the capture happen"),
    }
    if isinstance(action, Draw):
        if phase in waiting:
            return waiting[phase]
        if phase == PLAY:
            return _("you have drawn already: now play a card from your hand")
        pile = action.pile
        if isinstance(pile, bool) or not isinstance(pile, int):
            return _("piles are numbered 1 to {n}").format(n=len(state.piles))
        if not 0 <= pile < len(state.piles):
            return _("there is no pile {pile}: piles are numbered 1 to {n}").format(
                pile=pile + 1, n=len(state.piles))
        if not state.piles[pile]:
            return _("that pile is empty, so the game is ending: play one last card without "
                     "drawing, or end the game")
        return _("a pile is empty, so nobody draws any more and the game is ending: play one "
                 "last card without drawing, or end the game")
    if isinstance(action, Play):
        if phase in waiting:
            return waiting[phase]
        if phase == START and not game.variant_draw_or_play:
            return _("draw a card first")
        return _("you do not hold {card}").format(card=action.card.symbol)
    if isinstance(action, Capture):
        if phase != CHOOSE:
            return _("there is no capture to choose now")
        if not (isinstance(action.owner, int) and 0 <= action.owner < game.num_players):
            return _("there is no player {owner}").format(owner=action.owner)
        if action.owner == p:
            return _("you cannot capture your own card")
        if action.target not in state.sides[action.owner]:
            return _("{who} has no {card} face up").format(who=seat_name((), action.owner),
                                                         card=action.target)
        played = side[-1]
        return why_no_capture(played, action.target, side[:-1])
    if isinstance(action, Counter):
        if phase != COUNTER:
            return _("there is no capture to counter now")
        if action.card not in hand:
            return _("you do not hold {card}").format(card=action.card.symbol)
        threat = state.threat
        assert threat is not None
        return _("a counter must capture the threatening card: {why}").format(
            why=why_no_capture(action.card, threat.played, side))
    if isinstance(action, Decline):
        return _("there is no capture to counter now")
    if isinstance(action, TakeBack):
        if not game.variant_return:
            return _("taking a card back is the 'return' variant, which is off in this game")
        if phase in waiting:
            return waiting[phase]
        if phase == LAST:
            return _("a pile is empty: you may only play one last card or end the game")
        if phase == START and not game.variant_draw_or_play:
            return _("draw a card first")
        if len(hand) >= TAKE_BACK_LIMIT:
            return _("you may take a card back only with fewer than {limit} cards in hand; "
                     "you hold {n}").format(limit=TAKE_BACK_LIMIT, n=len(hand))
        if action.card not in side:
            return _("you have no {card} face up on your side").format(card=action.card.symbol)
        if action.card not in state._played_cards(p):
            return _("{card} is the card you were dealt face up: you may take back only a card "
                     "you played yourself").format(card=action.card.symbol)
        return _("draw a card before you take back another (otherwise the game could never end)")
    if isinstance(action, EndGame):
        return _("the game ends only when a pile is empty at the start of a turn")
    return _("it is not one of the moves allowed now")  # pragma: no cover
