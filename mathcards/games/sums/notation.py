"""Sums moves from text: the one parser for typed moves and exercise answers."""

from __future__ import annotations

import re
from typing import Any

from mathcards.cards import Card, parse_card, whole_number
from mathcards.errors import MathCardsError
from mathcards.games.sums.actions import _DECLINE, _END_GAME, Capture, Counter, Draw, Play, TakeBack
from mathcards.games.sums.pieces import Phase
from mathcards.games.sums.state import SumsState

# --- typed moves ------------------------------------------------------------------------
_WORDS = re.compile(r"^(draw|pile|play|capture|take|counter|back)\b\s*(.*)$")
_NOT_A_MOVE = "is not a move: try draw 1, play 7H, capture 3H, counter 9S, decline, or end"


def _typed_card(text: str, raw: str) -> Card:
    try:
        return parse_card(text)
    except MathCardsError:
        raise MathCardsError(f"{raw!r} {_NOT_A_MOVE}") from None


def parse_move(state: SumsState, text: str) -> Any:
    """The move ``text`` names in ``state`` (the one move notation of Sums):
    ``draw 1``, ``play 7H`` (or just ``7H``), ``capture 3H``, ``counter 9S``,
    ``decline``, ``take back 7H``, ``end``. A move not allowed now is returned for
    the engine to refuse with its reason; text naming no move is a ``MathCardsError``.
    """
    raw = " ".join(text.strip().split())
    low = raw.lower()
    if low in ("decline", "no", "let it go"):
        return _DECLINE
    if low in ("end", "end game"):
        return _END_GAME
    m = _WORDS.match(low)
    verb, rest = (m.group(1), m.group(2)) if m else ("", low)
    if verb in ("draw", "pile"):
        rest = rest.removeprefix("from").strip().removeprefix("pile").strip()
        pile = whole_number(rest, longest=2)
        if pile is None or rest[:1] in "+-":
            raise MathCardsError("say which pile to draw from with the digits 0-9, like: draw 1")
        return Draw(pile - 1)
    if verb == "take":
        return TakeBack(_typed_card(rest.removeprefix("back").strip(), raw))
    if verb == "back":
        return TakeBack(_typed_card(rest, raw))
    if verb == "capture":
        target = _typed_card(rest, raw)
        for action in state.legal_actions():
            if isinstance(action, Capture) and action.target == target:
                return action
        actor = state.current_player or 0
        return Capture(target, (actor + 1) % state.game.num_players)
    card = _typed_card(rest, raw)
    if verb == "counter" or (not verb and state.phase == Phase.COUNTER):
        return Counter(card)
    return Play(card)
