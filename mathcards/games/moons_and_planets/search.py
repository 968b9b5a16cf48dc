"""Moons and Planets move search: every planet, moon, addition and regrouping a hand allows.

The searches are pure functions of the cards, memoised by value (the same hands recur
from state to state); the listed moves of one position are kept by that position
(``State.legal_actions`` is a cached property of the state).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterator
from functools import lru_cache
from typing import Any

from mathcards.cards import Card
from mathcards.games.moons_and_planets.actions import (
    DONE,
    PUT_DOWN_ACTIONS,
    AddToMoon,
    DeclarePlanet,
    MakeMoon,
    Regroup,
)
from mathcards.games.moons_and_planets.rules import (
    _COLOUR,
    FIVE_OF_CLUBS,
    PLANET_HIGH,
    PLANET_LOW,
    _in_order,
    _playable,
    _rank_key,
    planet_points,
)


# --- option search (cached: the same hands recur) ------------------------------------
# The caches are kept small: a hand recurs soon or not at all, and every entry keeps
# its cards alive for the garbage collector to walk through again and again.
@lru_cache(maxsize=1 << 11)
def planet_options(hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every planet that can be made from these cards."""
    out: list[tuple[Card, ...]] = []
    by_suit: dict[str, list[Card]] = {"S": [], "H": [], "D": [], "C": []}
    five = False
    for c in hand:
        rank = c.rank
        if rank == 1:
            continue
        if rank == 5 and c.suit == "C":
            five = True
            continue
        cards = by_suit.get(c.suit)
        if cards is not None:
            cards.append(c)
    if five:
        out.append((FIVE_OF_CLUBS,))

    def grow(cards: list[Card], start: int, chosen: list[Card], total: int) -> None:
        if len(chosen) >= 2 and total >= PLANET_LOW:
            out.append(_in_order(chosen))
        for i in range(start, len(cards)):
            value = planet_points(cards[i])
            if total + value <= PLANET_HIGH:
                chosen.append(cards[i])
                grow(cards, i + 1, chosen, total + value)
                chosen.pop()

    for cards in by_suit.values():  # S H D C
        # A suit adding to less than 15 altogether makes no planet.
        if len(cards) >= 2 and sum(map(planet_points, cards)) >= PLANET_LOW:
            cards.sort(key=planet_points, reverse=True)
            grow(cards, 0, [], 0)
    return tuple(out)


@lru_cache(maxsize=1 << 11)
def moon_options(hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every single moon that can be made from these cards."""
    out: list[tuple[Card, ...]] = [(c,) for c in hand if c.rank == 1]
    by_rank: dict[int, list[Card]] = {}
    by_colour: dict[str, dict[int, list[Card]]] = {"red": {}, "black": {}}
    for c in hand:
        if _playable(c):
            by_rank.setdefault(c.rank, []).append(c)
            by_colour[_COLOUR[c.suit]].setdefault(c.rank, []).append(c)
    for cards in by_rank.values():
        cards.sort(key=_rank_key)  # the order every listed move uses (_in_order)
        for size in range(2, len(cards) + 1):
            out.extend(itertools.combinations(cards, size))
    for colour in ("red", "black"):
        ranks = by_colour[colour]
        if len(ranks) < 3:
            continue
        for low in range(2, 12):
            if low not in ranks or low + 1 not in ranks or low + 2 not in ranks:
                continue  # no run of 3 starts here
            columns = [ranks[low], ranks[low + 1]]
            for rank in range(low + 2, 14):
                options = ranks.get(rank)
                if not options:
                    break
                columns.append(options)
                out.extend(itertools.product(*columns))
    return tuple(out)


@lru_cache(maxsize=1 << 15)
def find_moon_grouping(cards: frozenset[Card]) -> tuple[tuple[Card, ...], ...] | None:
    """One way to split all these cards into valid moons, or None if there is none."""
    if not cards:
        return ()
    first = min(cards, key=_rank_key)
    if first == FIVE_OF_CLUBS:
        return None
    rest = cards - {first}
    # a fixed order (never a set's): the same cards must group the same way in every
    # process, or seeded games and saves would differ with PYTHONHASHSEED
    higher = tuple(c for c in sorted(rest, key=_rank_key) if _playable(c))
    for group in _moons_from(first, higher):
        tail = find_moon_grouping(rest - set(group))
        if tail is not None:
            return (tuple(group), *tail)
    return None


def _moon_additions(
    group: tuple[Card, ...], hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """Every set of hand cards that, added to the moon ``group`` (not an ace), keeps it one
    moon."""
    ranks = {c.rank for c in group}
    playable = [c for c in _in_order(hand) if _playable(c)]
    if len(ranks) == 1:  # a set: more of its rank, up to 4 cards in all
        rank = group[0].rank
        same = [c for c in playable if c.rank == rank]
        return tuple(
            combo
            for size in range(1, 5 - len(group))
            for combo in itertools.combinations(same, size)
        )
    colour = _COLOUR[group[0].suit]  # a run: more of its colour at either end

    def column(rank: int) -> list[Card]:
        return [c for c in playable if c.rank == rank and _COLOUR[c.suit] == colour]

    below: list[list[Card]] = []
    rank = min(ranks) - 1
    while rank >= 2 and (cards := column(rank)):
        below.append(cards)
        rank -= 1
    above: list[list[Card]] = []
    rank = max(ranks) + 1
    while rank <= 13 and (cards := column(rank)):
        above.append(cards)
        rank += 1
    out: list[tuple[Card, ...]] = []
    for low in range(len(below) + 1):
        for high in range(len(above) + 1):
            if low or high:
                out.extend(itertools.product(*below[:low][::-1], *above[:high]))
    return tuple(out)


def regroup_options(
    hand: tuple[Card, ...], moons: tuple[tuple[Card, ...], ...]
) -> tuple[Regroup, ...]:
    """Every regrouping allowed: all the moons' cards and at least one hand card laid out
    as valid moons, each holding a card of the old moons; each layout once (moons low to
    high, the lowest moon first)."""
    if not moons:
        return ()
    return _regroup_layouts(hand, frozenset(c for g in moons for c in g))


def _joinable(hand: tuple[Card, ...], moon_cards: frozenset[Card]) -> list[Card]:
    """The hand cards that could be in some moon made of these cards at all."""
    cards = [c for c in (*moon_cards, *hand) if _playable(c)]
    by_rank = Counter(c.rank for c in cards)
    present = {(_COLOUR[c.suit], c.rank) for c in cards}
    out = []
    for c in hand:
        if _playable(c):  # an ace from the hand is a new moon of its own (MakeMoon)
            colour, rank = _COLOUR[c.suit], c.rank
            if by_rank[rank] > 1 or any(
                all((colour, r) in present for r in range(low, low + 3))
                for low in (rank - 2, rank - 1, rank)
            ):
                out.append(c)
    return out


@lru_cache(maxsize=1 << 10)
def _regroup_layouts(hand: tuple[Card, ...], moon_cards: frozenset[Card]) -> tuple[Regroup, ...]:
    joinable = _joinable(hand, moon_cards)
    if not joinable:
        return ()
    from_hand = frozenset(joinable)
    pool = tuple(sorted((*moon_cards, *joinable), key=_rank_key))
    memo: dict[tuple[Card, ...], list[tuple[tuple[Card, ...], ...]]] = {}

    def layouts(rest: tuple[Card, ...]) -> list[tuple[tuple[Card, ...], ...]]:
        """Every way to lay all moon cards of ``rest`` out as moons, with any of its hand
        cards; the moon holding the lowest card comes first, so each layout comes once."""
        if not rest:
            return [()]
        found = memo.get(rest)
        if found is not None:
            return found
        first, tail = rest[0], rest[1:]
        found = list(layouts(tail)) if first in from_hand else []  # it stays in hand
        for group in _moons_from(first, tail):
            if moon_cards.isdisjoint(group):
                continue  # hand cards alone make a new moon (MakeMoon), not a regrouping
            left = tuple(c for c in tail if c not in group)
            found.extend((group, *more) for more in layouts(left))
        memo[rest] = found
        return found

    return tuple(
        Regroup(groups=layout, listed=True)
        for layout in layouts(pool)
        if any(c in from_hand for group in layout for c in group)
    )


def _moons_from(first: Card, higher: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Every moon whose lowest card is ``first``, the rest from ``higher`` (low to high)."""
    if first.rank == 1:
        return [(first,)]
    same = [c for c in higher if c.rank == first.rank]
    moons = [
        (first, *combo)
        for size in range(1, len(same) + 1)
        for combo in itertools.combinations(same, size)
    ]
    colour = _COLOUR[first.suit]
    columns: list[list[Card]] = [[first]]
    for rank in range(first.rank + 1, 14):
        cards = [c for c in higher if c.rank == rank and _COLOUR[c.suit] == colour]
        if not cards:
            break
        columns.append(cards)
        if len(columns) >= 3:
            moons.extend(itertools.product(*columns))
    return moons


# The listed moves are memoised by hand like the searches, each from the searches'
# unmemoised bodies (``__wrapped__``), so a hand is hashed once per question.
@lru_cache(maxsize=1 << 11)
def _planet_moves(hand: tuple[Card, ...]) -> tuple[Any, ...]:
    """The listed moves of a player with no planet yet: the planets, then ``Done``."""
    if FIVE_OF_CLUBS in hand:
        return (DeclarePlanet(cards=(FIVE_OF_CLUBS,), listed=True), DONE)
    return (*(DeclarePlanet(cards=p, listed=True) for p in planet_options.__wrapped__(hand)), DONE)


@lru_cache(maxsize=1 << 11)
def _moon_moves(hand: tuple[Card, ...]) -> tuple[MakeMoon, ...]:
    return tuple(MakeMoon(cards=m, listed=True) for m in moon_options.__wrapped__(hand))


@lru_cache(maxsize=1 << 12)
def _addition_moves(
    moon: int, group: tuple[Card, ...], hand: tuple[Card, ...]
) -> tuple[AddToMoon, ...]:
    """Every addition of hand cards to the moon ``group`` (your moon number ``moon``)."""
    if group[0].rank == 1:
        return ()  # an ace moon stays alone
    return tuple(
        AddToMoon(moon=moon, cards=cards, listed=True)
        for cards in _moon_additions(group, hand)
    )


class PutDownOptions(Collection[Any]):
    """The moves of a putting-down turn: every planet, every new moon, every addition to
    a moon, every regrouping, then ``Done``.

    The list is the rule: a move is allowed exactly when it is in the list (moves naming
    the same cards in another order are the same move, see ``_coerce_cards``).
    """

    __slots__ = ("_ids", "_moves", "listed")

    def __init__(self, listed: tuple[Any, ...]) -> None:
        self.listed = listed
        self._ids: frozenset[int] | None = None
        self._moves: frozenset[Any] | None = None

    def __iter__(self) -> Iterator[Any]:
        return iter(self.listed)

    def __len__(self) -> int:
        return len(self.listed)

    def __contains__(self, action: object) -> bool:
        # a listed object itself (what a bot or a button hands back) is found by identity
        ids = self._ids
        if ids is None:
            ids = self._ids = frozenset(map(id, self.listed))
        if id(action) in ids:
            return True
        if not isinstance(action, PUT_DOWN_ACTIONS):
            return False
        moves = self._moves
        if moves is None:
            moves = self._moves = frozenset(self.listed)
        return action in moves

    def __getitem__(self, i: int) -> Any:
        return self.listed[i]


