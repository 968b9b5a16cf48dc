"""Suns to Moons moves from text: the one parser for typed moves and exercise answers."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mathcards.cards import parse_card
from mathcards.errors import CardParseError, MathCardsError
from mathcards.games.suns_to_moons.actions import END_TURN, JOKER_PLAY, PASS, EndTurn, Pass, Play
from mathcards.games.suns_to_moons.rules import card_values

if TYPE_CHECKING:
    from mathcards.games.suns_to_moons.state import SunsToMoonsState


# --- the one move notation ---------------------------------------------------
class MoveTextError(MathCardsError):
    """Typed text that is not a Suns to Moons move; the message says how to write one."""


_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})
_SIGN_FIRST = re.compile(r"^([+-])\s*([^\s=+-]+)(?:\s*=\s*(\S+))?$")  # +7H, -10S, +AS=14
_SIGN_AFTER = re.compile(r"^([^\s=+-]+)\s*([+-])\s*(\S+)?$")  # 7H -, AH +14
_HOW = "type a card and a sign, like 7H - or +QS (an Ace: AH +14 or +AH=14)"


def move_text(action: Any) -> str:
    """A move in the notation ``parse_move`` reads: ``+7H``, ``-10S``, ``+AS=14``, ``JK``."""
    if isinstance(action, EndTurn):
        return "end"
    if isinstance(action, Pass):
        return "pass"
    if action.card.suit == "JK":
        return "JK"
    ace = "=14" if action.card.rank == 1 and action.value == 14 else ""
    return f"{'+' if action.sign > 0 else '-'}{action.card}{ace}"


def parse_move(state: SunsToMoonsState | None, text: str) -> Play | EndTurn | Pass:
    """The move ``text`` names: ``+7H``, ``7H -``, ``-10S``, ``+ Q♠``, ``AH +14``, ``+AS=14``,
    ``JK`` (or ``joker``), ``end``, ``pass``. The one parser of typed moves.

    It reads the move only; whether the rules allow it is ``state.apply``'s
    business. An Ace needs its value when ``state`` leaves both open; without a
    state (an exercise's answer) ``+AS`` is the Ace as 1.

    >>> parse_move(None, "-10S"), parse_move(None, "AH +14").value
    (Play(card=Card('10S'), sign=-1, value=10), 14)
    """
    raw = str(text).strip()
    low = raw.lower()
    if low in ("end", "end turn", "stop"):
        return END_TURN
    if low == "pass":
        return PASS
    if low in ("jk", "joker"):
        return JOKER_PLAY
    norm = raw.translate(_MINUSES)
    sign_text = value_text = None
    m = _SIGN_FIRST.match(norm)
    if m:
        sign_text, card_text, value_text = m.groups()
    else:
        m = _SIGN_AFTER.match(norm)
        if m:
            card_text, sign_text, value_text = m.groups()
        else:
            card_text = norm
    try:
        card = parse_card(card_text)
    except (CardParseError, MathCardsError):
        raise MoveTextError(
            f"{raw!r} is not a move: {card_text!r} is not a card (ranks are A 2–10 J Q K, "
            f"suits S H D C, JK for a Joker); {_HOW}") from None
    if card.suit == "JK":
        if sign_text or value_text:
            raise MoveTextError(f"{raw!r}: a Joker has no sign: write JK")
        return JOKER_PLAY
    if not card.is_standard:
        raise MoveTextError(f"{raw!r}: Suns to Moons uses no Shoot the Moon cards; {_HOW}")
    if sign_text is None:
        raise MoveTextError(
            f"{raw!r} has no sign: write +{card_text} (played across, adds) or -{card_text} "
            f"(played upright, subtracts); say + or − for every card but a Joker")
    sign = 1 if sign_text == "+" else -1
    values = card_values(card)
    if value_text is None:
        if card.rank == 1 and state is not None:
            fits = [v for v in values if state.is_legal(Play(card, sign, v))]
            if len(fits) != 1:
                raise MoveTextError(f"an Ace counts 1 or 14: type {card} {sign_text}1 or "
                                    f"{card} {sign_text}14")
            return Play(card, sign, fits[0])
        return Play(card, sign, values[0])
    if not re.fullmatch(r"[0-9]{1,2}", value_text):  # digits 0-9 only
        raise MoveTextError(f"{raw!r} is not a move: {_HOW}")
    value = int(value_text)
    if value not in values:
        if card.rank == 1:
            raise MoveTextError(f"{raw!r}: an Ace counts 1 or 14")
        raise MoveTextError(f"{raw!r}: {card.symbol} counts {values[0]}, not {value}; only an "
                            f"Ace chooses its value (=1 or =14)")
    return Play(card, sign, value)
