"""Sums rules on cards: values, points, and the capture rule (a capture's way).

Each rule is computed here only; the engine, the events, the bot, the explainer,
the hints and the exercise kinds ask it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mathcards.cards import Card, as_card
from mathcards.i18n import _

# --- values and scoring ----------------------------------------------------
RED_SUITS = frozenset(("H", "D"))
HAND_SIZE = 5
HAND_SIZE_FOUR_PLAYERS = 3
TAKE_BACK_LIMIT = 5  # "return" needs fewer than this many cards in hand
MAX_DECKS = 8


def card_value(card: Card | str) -> int:
    """A card's value in play: A 1, 2-10 face value, J 11, Q 12, K 13."""
    return as_card(card).rank


def card_points(card: Card | str) -> int:
    """A card's points at the end: 2-10 one point, J and Q two, A and K three."""
    rank = as_card(card).rank
    if rank in (1, 13):
        return 3
    if rank in (11, 12):
        return 2
    return 1


_POINTS = {rank: card_points(Card("S", rank)) for rank in range(1, 14)}


# --- the capture rule (one implementation) ----------------------------------
@dataclass(frozen=True, slots=True)
class CaptureWay:
    """One way a played card captures: ``played op helper`` makes ``target``'s value."""

    target: Card
    helper: Card
    op: str  # "+": played + helper = target; "-": played − helper = ±target
    result: int  # the target's value, which the sum or difference makes
    played: Card

    @property
    def value(self) -> int:
        """What ``played op helper`` makes: the target's value, or its negative."""
        p, h = self.played.rank, self.helper.rank
        return p + h if self.op == "+" else p - h

    @property
    def equation(self) -> str:
        """The arithmetic of this capture as a student computes it: ``7 + 3 = 10``,
        ``9 − 2 = 7``, and a difference always larger card first: 3 played with a 7
        makes ``7 − 3 = 4`` (not ``3 − 7 = −4, the negative of 4``)."""
        p, h, v = self.played.rank, self.helper.rank, self.value
        if self.op == "+":
            return f"{p} + {h} = {v}"
        if v >= 0:
            return f"{p} − {h} = {v}"
        return f"{h} − {p} = {-v}"


def _exception_blocks(played_rank: int, target_rank: int) -> bool:
    """An Ace falls only to a Queen, a King only to a 2 (ruling 4)."""
    if target_rank == 1:
        return played_rank != 12
    if target_rank == 13:
        return played_rank != 2
    return False


def _ways(played: Card, own: Iterable[Card], opponent: Iterable[Card]) -> list[CaptureWay]:
    red = played.suit in RED_SUITS
    p = played.rank
    helpers = [h for h in own if (h.suit in RED_SUITS) is red]
    if not helpers:
        return []
    reach = set()
    for helper in helpers:
        reach.add(p + helper.rank)
        reach.add(abs(p - helper.rank))
    ways: list[CaptureWay] = []
    for target in opponent:
        o = target.rank
        if o not in reach or (target.suit in RED_SUITS) is not red or _exception_blocks(p, o):
            continue
        for helper in helpers:
            h = helper.rank
            if p + h == o:
                ways.append(CaptureWay(target, helper, "+", o, played))
            elif abs(p - h) == o:
                ways.append(CaptureWay(target, helper, "-", o, played))
    return ways


def capture_ways(
    played: Card | str,
    own_face_up: Iterable[Card | str],
    opponent_face_up: Iterable[Card | str],
) -> list[CaptureWay]:
    """Every way playing ``played`` captures one of ``opponent_face_up``.

    ``own_face_up`` are your *other* face-up cards (the helpers). A way is a
    target, a helper of the played card's colour and ``+`` (P + H = O) or
    ``-`` (P − H = O or its negative). Opponent cards come in their order,
    helpers in yours.

    >>> [w.equation for w in capture_ways("9H", ["2H", "5S"], ["7H", "7S"])]
    ['9 − 2 = 7']
    """
    return _ways(
        as_card(played),
        [as_card(c) for c in own_face_up],
        [as_card(c) for c in opponent_face_up],
    )


def capture_targets(
    played: Card | str,
    own_face_up: Iterable[Card | str],
    opponent_face_up: Iterable[Card | str],
) -> list[Card]:
    """Every opponent card that playing ``played`` could capture.

    ``own_face_up`` are your other face-up cards. A target is listed once per
    copy on the table, in the opponent's order. This is ``capture_ways``
    (which the engine uses) seen by target only.

    >>> capture_targets("QH", ["JD"], ["AH", "AS", "KD"])
    [Card('AH')]
    >>> capture_targets("3C", ["4C"], ["7C", "AS", "7S", "7H"])
    [Card('7C'), Card('7S')]
    """
    opponent = [as_card(c) for c in opponent_face_up]
    hit = {id(w.target) for w in capture_ways(played, own_face_up, opponent)}
    return [card for card in opponent if id(card) in hit]


def why_no_capture(played: Card, target: Card, helpers: Sequence[Card]) -> str:
    """Why ``played`` with these helpers cannot capture ``target``, in words."""
    if (played.suit in RED_SUITS) != (target.suit in RED_SUITS):
        if target.suit in RED_SUITS:
            text = _("{target} is red and {played} is black: a capture needs cards of one "
                     "colour")
        else:
            text = _("{target} is black and {played} is red: a capture needs cards of one "
                     "colour")
        return text.format(target=target.symbol, played=played.symbol)
    if target.rank == 1 and played.rank != 12:
        return _("an opponent's Ace can be captured only with a Queen")
    if target.rank == 13 and played.rank != 2:
        return _("an opponent's King can be captured only with a 2")
    same = [h for h in helpers if h.colour == played.colour]
    if not same:
        if played.suit in RED_SUITS:
            text = _("you have no other red card face up to help {played}: a capture needs a "
                     "helper card")
        else:
            text = _("you have no other black card face up to help {played}: a capture needs "
                     "a helper card")
        return text.format(played=played.symbol)
    if played.suit in RED_SUITS:
        text = _("no red card on your side makes {target} with {played} ({rank} + helper or "
                 "{rank} − helper)")
    else:
        text = _("no black card on your side makes {target} with {played} ({rank} + helper "
                 "or {rank} − helper)")
    return text.format(target=target.rank, played=played.symbol, rank=played.rank)
