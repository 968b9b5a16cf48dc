"""The legal options of a Suns to Moons turn: the ±10 bound of ruling 3, in one place.

A turn is a single card, a Joker alone, or a Joker and one more card; if any
option ends within −10..10, only those are legal (``legal_turns``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mathcards.cards import Card, as_card
from mathcards.errors import MathCardsError
from mathcards.games.suns_to_moons.actions import JOKER_PLAY, Play, Turn
from mathcards.games.suns_to_moons.rules import BOUND, after_joker, card_values, within_bound

# keyed by (suit, rank): a plain tuple hashes in C, a Card's hash runs Python code
_PLAYS: dict[tuple[str, int], tuple[tuple[Play, int], ...]] = {}


def _plays_of(card: Card) -> tuple[tuple[Play, int], ...]:
    """The ways to place one non-Joker card, each with its contribution."""
    plays = _PLAYS.get((card.suit, card.rank))
    if plays is None:
        plays = _PLAYS[(card.suit, card.rank)] = tuple(
            (Play(card, s, v), s * v) for v in card_values(card) for s in (1, -1)
        )
    return plays


@dataclass(frozen=True)
class _Options:
    """The legal options of a turn, compactly: what ``legal_turns`` and the engine share."""

    singles: tuple[Play, ...]  # legal one-card turns
    joker_alone: bool  # a Joker alone is a legal turn
    seconds: tuple[Play, ...]  # legal second cards after a Joker
    bound_applied: bool  # the ±10 bound removed some option
    value: int
    joker_value: int

    def firsts(self) -> tuple[Play, ...]:
        if self.joker_alone or self.seconds:
            return (*self.singles, JOKER_PLAY)
        return self.singles


def _turn_options(hand: tuple[Card, ...], value: int, joker_value: int) -> _Options:
    """Every option of a turn filtered by the ±10 bound of ruling 3 (the one implementation)."""
    plays: list[tuple[Play, int]] = []
    seen: set[tuple[str, int]] = set()
    has_joker = False
    for card in hand:
        key = (card.suit, card.rank)
        if key[0] == "JK":
            has_joker = True
        elif key not in seen:
            seen.add(key)
            plays.extend(_plays_of(card))
    lo, hi = -BOUND - value, BOUND - value
    singles = tuple(p for p, c in plays if lo <= c <= hi)
    if has_joker:
        jlo, jhi = -BOUND - joker_value, BOUND - joker_value
        seconds = tuple(p for p, c in plays if jlo <= c <= jhi)
        joker_alone = within_bound(joker_value)
    else:
        seconds, joker_alone = (), False
    if singles or seconds or joker_alone:
        removed = len(singles) < len(plays) or (
            has_joker and (not joker_alone or len(seconds) < len(plays))
        )
        return _Options(singles, joker_alone, seconds, removed, value, joker_value)
    # nothing stays within ±10: every option is legal
    every = tuple(p for p, _ in plays)
    return _Options(every, has_joker, every if has_joker else (), False, value, joker_value)


def _check_counted(counted: Iterable[int]) -> tuple[int, ...]:
    out = tuple(counted)
    for c in out:
        if isinstance(c, bool) or not isinstance(c, int):
            raise MathCardsError(
                f"counted must list whole numbers (the signed values still counted), not {c!r}"
            )
    return out


def legal_turns(hand: Iterable[Card | str], counted: Sequence[int]) -> list[Turn]:
    """Every legal way to play a turn from ``hand`` on a deck with these counted values.

    ``counted`` lists the signed contributions still counted, the centre card
    first (a Joker centre card counts 0 and is not listed; cards concealed by
    Jokers are not listed either). The ±10 bound of ruling 3 applies: if any option ends within
    −10..10, only such options are returned.

    >>> sorted(t.value_after for t in legal_turns(["KS", "KH"], [1]))
    [-12, -12, 14, 14]
    >>> [str(t) for t in legal_turns(["JK", "KS"], [9, -8])]
    ['play the Joker (deck 9)', 'play the Joker then play K♠ as −13 (deck −4)']
    """
    cards = tuple(as_card(c) for c in hand)
    values = _check_counted(counted)
    opts = _turn_options(cards, sum(values), sum(after_joker(values)))
    turns = [Turn((p,), opts.value + p.contribution) for p in opts.singles]
    if opts.joker_alone:
        turns.append(Turn((JOKER_PLAY,), opts.joker_value))
    turns.extend(Turn((JOKER_PLAY, p), opts.joker_value + p.contribution) for p in opts.seconds)
    return turns
