"""Moons and Planets: win prizes in tricks and put your cards down as planets and moons.

The rules are seed 004 and the rulings "Moons and Planets" in ``shared/RULINGS.md``.
Where both are silent this engine decides as a careful teacher would; each such
decision is listed here and tested in ``tests/games/test_moons_and_planets.py``.

Play, in the order the engine runs it:

1. 52 standard cards, no Jokers, 2-5 players, 9 cards each. The dealer is the
   last seat, so seat 0 (the dealer's left) leads the first trick.
2. Putting down ("After players have put down their initial sets"): before the
   first trick, starting with seat 0, each player in turn may put down any
   number of planets and moons and then says ``Done``. After every trick the
   same happens starting with the trick's winner (the card that takes the
   first prize) round the table.
3. A planet (one per player) is 2+ cards of one suit, no Aces, adding to
   15-18 with J Q K as 10, or the 5♣ alone. Moons need a planet first: a run
   of 3+ consecutive ranks (2..K, no wrap) of one colour, 2-4 cards of one
   rank, or a single Ace. Moons can be added to (``AddToMoon``) and regrouped
   (``Regroup``: all your moons are replaced by a new valid grouping of the
   same cards plus at least one card from your hand). Moon cards never go back
   to hand.
4. A trick: as many prizes as players are dealt face down from the deck; the
   leader turns one face up (``TurnPrize``) and leads. Follow suit if you can,
   else discard. Followers rank above discards; followers by rank K..2;
   discards by rank K..2, equal ranks by suit ♦ > ♣ > ♠ > ♥. The k-th highest
   card takes prize k. Trick cards go to the discard pile; prizes nobody
   takes go to the bottom of the deck.
5. The first player whose hand is empty after putting cards down wins.

Decisions where the rules are silent (each is tested):

- **The 5♣ switch** happens the moment the 5♣ arrives as a prize: it becomes
  that player's planet at once and the old planet's cards return to hand
  (event ``PlanetSwitched``). A player who holds the 5♣ and has no planet may
  declare only the 5♣ as a planet (any other planet would have to be
  switched straight back), so "holding the 5♣ with another planet down"
  never lasts.
- **Sitting out**: a player whose hand holds no card that may be played to a
  trick (only Aces and the 5♣, or nothing) sits the trick out. If the leader
  sits out, the next player round the table who can play leads and turns the
  prize.
- **Reshuffle**: when a prize is needed and the deck is empty, the discard
  pile is shuffled to make the new deck. If deck and discard pile are both
  empty, fewer prizes are dealt (possibly none: then no prize is turned).
- **Regrouping** must put down at least one card from the hand: moving moon
  cards around alone changes nothing, and this keeps every putting-down turn
  finite. Each regrouped moon holds a card of the old moons: a moon of hand
  cards alone is made with ``MakeMoon`` (before or after), so every layout
  stays reachable while the list of regroupings stays short.
- **An empty hand wins** at once when a putting-down move empties it; a player
  who reaches their putting-down turn with an empty hand (they played their
  last card and took no prize) wins when they say ``Done``.
- **Every game ends**: if nobody can play to a trick, or after ``trick_limit``
  tricks (a lesson-length cap, default 200), the game ends and the player(s)
  with the fewest cards in hand win (ties share the win).

Scores: 1 for each winner, 0 for everyone else (all 0 while the game runs).

The event log is the whole truth (prizes that were face down are named in
``PrizesAwarded``); ``observation(player)`` is what one player may see.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from mathcards.cards import SUIT_NAMES, Card, as_card, parse_cards, standard_deck
from mathcards.errors import CardParseError, MathCardsError, SettingsError
from mathcards.games.base import EMPTY, Event, Game, State, rng_for

HAND_SIZE = 9
PLANET_LOW, PLANET_HIGH = 15, 18
FIVE_OF_CLUBS = Card("C", 5)
# Discards of equal rank: diamonds highest, then clubs, spades, hearts.
DISCARD_SUIT_ORDER = {"D": 3, "C": 2, "S": 1, "H": 0}
SUITS_HIGH_TO_LOW = "♦ > ♣ > ♠ > ♥"

PUT_DOWN, TURN_PRIZE, PLAY, OVER = "put_down", "turn_prize", "play", "over"


# --- cards and words ---------------------------------------------------------
def _cards(value: Any) -> tuple[Card, ...]:
    """Cards from text ("9H 8H"), a Card, or an iterable of cards/text."""
    if type(value) is tuple and all(type(c) is Card for c in value):
        return value
    if isinstance(value, Card):
        return (value,)
    return parse_cards(value)


def _show(cards: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def planet_points(card: Card) -> int:
    """What a card counts towards a planet: its number, or 10 for J, Q, K."""
    return 10 if card.rank > 10 else card.rank


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _not_standard(cards: Iterable[Card]) -> str | None:
    odd = [c for c in cards if not c.is_standard]
    if odd:
        return f"{_show(odd)}: Moons and Planets uses the 52 standard cards (no Jokers)"
    return None


def _playable(card: Card) -> bool:
    rank = card.rank
    return rank != 1 and (rank != 5 or card.suit != "C")


_COLOUR = {"H": "red", "D": "red", "S": "black", "C": "black"}


# --- the pinned rules API ------------------------------------------------------
def planet_problem(cards: Iterable[Card | str]) -> str | None:
    """Why these cards are not a planet, or None when they are one."""
    group = _cards(cards)
    if not group:
        return "a planet needs cards: 2 or more of one suit adding to 15 to 18, or the 5♣"
    if len(set(group)) != len(group):
        return f"{_show(group)} names a card twice"
    foreign = _not_standard(group)
    if foreign:
        return foreign
    if FIVE_OF_CLUBS in group:
        if len(group) == 1:
            return None
        return "the 5♣ is a planet only on its own: it is never part of a larger planet"
    if len(group) < 2:
        return f"{_show(group)} is one card: a planet needs 2 or more cards of one suit"
    if any(c.rank == 1 for c in group):
        return "aces cannot be part of a planet"
    suits = {c.suit for c in group}
    if len(suits) > 1:
        return f"{_show(group)} mixes suits: a planet's cards are all one suit"
    total = sum(planet_points(c) for c in group)
    if not PLANET_LOW <= total <= PLANET_HIGH:
        return (
            f"{_show(group)} total {total}: a planet needs {PLANET_LOW} to {PLANET_HIGH} "
            f"(J, Q, K count 10)"
        )
    return None


def planet_reason(cards: Iterable[Card | str]) -> str:
    """One sentence saying whether (and why) these cards are a planet."""
    group = _cards(cards)
    problem = planet_problem(group)
    if problem:
        return problem
    if group == (FIVE_OF_CLUBS,):
        return "the 5♣ on its own is a planet"
    total = sum(planet_points(c) for c in group)
    suit = SUIT_NAMES[group[0].suit]
    return f"{_show(group)} total {total}: {len(group)} {suit} adding to 15-18 is a planet"


def is_planet(cards: Iterable[Card | str]) -> bool:
    """True when the cards are one planet (2+ of a suit, no aces, 15-18; or the 5♣ alone).

    >>> is_planet("9H 8H"), is_planet("9H 5H"), is_planet("5C"), is_planet("KS 5S")
    (True, False, True, True)
    """
    return planet_problem(cards) is None


def moon_kind(cards: Iterable[Card | str]) -> str | None:
    """``"ace"``, ``"set"`` or ``"run"`` for one valid moon, else None."""
    return _moon_kind_and_problem(_cards(cards))[0]


def moon_problem(cards: Iterable[Card | str]) -> str | None:
    """Why these cards are not one moon, or None when they are one."""
    return _moon_kind_and_problem(_cards(cards))[1]


@lru_cache(maxsize=1 << 16)
def _moon_kind_and_problem(group: tuple[Card, ...]) -> tuple[str | None, str | None]:
    if not group:
        return None, "a moon needs cards: a run of 3+, 2-4 of one rank, or an ace"
    shown = _show(group)
    if len(set(group)) != len(group):
        return None, f"{shown} names a card twice"
    foreign = _not_standard(group)
    if foreign:
        return None, foreign
    if FIVE_OF_CLUBS in group:
        return None, "the 5♣ is only ever a planet: it cannot be part of a moon"
    aces = sum(1 for c in group if c.rank == 1)
    if aces:
        if len(group) == 1:
            return "ace", None
        if aces == len(group):
            return None, f"{shown}: aces are moons only alone (put each ace down as its own moon)"
        return None, f"{shown}: an ace is a moon only on its own, never in a run or a set"
    ranks = [c.rank for c in group]
    if len(set(ranks)) == 1:
        if len(group) == 1:
            return None, f"{shown} alone is not a moon: only an ace is a moon on its own"
        return "set", None  # 2-4 cards: a single deck has at most 4 of a rank
    colours = {c.colour for c in group}
    if len(colours) > 1:
        return None, f"{shown} mixes red and black: a run is all one colour"
    if len(group) < 3:
        return None, f"{shown}: a run needs 3 or more cards (2-4 cards must share a rank)"
    ordered = sorted(ranks)
    if len(set(ordered)) != len(ordered) or ordered[-1] - ordered[0] != len(ordered) - 1:
        return None, (
            f"{shown}: a run needs consecutive ranks (2 ... 10 J Q K, no wrap, no repeats)"
        )
    return "run", None


def moon_reason(cards: Iterable[Card | str]) -> str:
    """One sentence saying whether (and why) these cards are one moon."""
    group = _cards(cards)
    kind, problem = _moon_kind_and_problem(group)
    if problem:
        return problem
    if kind == "ace":
        return f"{_show(group)}: an ace on its own is a moon"
    if kind == "set":
        return f"{_show(group)}: {len(group)} cards of one rank are a moon"
    return f"{_show(group)}: {len(group)} consecutive {group[0].colour} cards are a moon"


def is_moon(cards: Iterable[Card | str]) -> bool:
    """True when the cards are one moon (a same-colour run of 3+, 2-4 of a rank, or one ace).

    >>> is_moon("3H 4D 5H"), is_moon("7S 7H"), is_moon("AS"), is_moon("AS AH")
    (True, True, True, False)
    """
    return _moon_kind_and_problem(_cards(cards))[1] is None


def _rank_key(card: Card) -> tuple[int, int]:
    return card.rank, DISCARD_SUIT_ORDER[card.suit]


def prize_order(cards_in_play_order: Iterable[Card | str]) -> list[int]:
    """Indices of a trick's cards from first prize to last; the first card was led.

    Followers of the led suit rank above discards; each by rank K high to 2
    low; discards of one rank by suit ♦ > ♣ > ♠ > ♥.

    >>> prize_order("3S 2S 4H 8D")
    [0, 1, 3, 2]
    """
    trick = _cards(cards_in_play_order)
    if not trick:
        raise MathCardsError("a trick needs at least the led card")
    if len(set(trick)) != len(trick):
        raise MathCardsError(f"{_show(trick)} names a card twice")
    foreign = _not_standard(trick)
    if foreign:
        raise MathCardsError(foreign)
    for card in trick:
        if card.rank == 1:
            raise MathCardsError(f"{card.symbol}: aces cannot be played to a trick")
        if card == FIVE_OF_CLUBS:
            raise MathCardsError("5♣: the 5♣ cannot be played to a trick")
    return list(_prize_order(trick))


def _prize_order(trick: tuple[Card, ...]) -> tuple[int, ...]:
    """``prize_order`` of a trick the engine built (its cards are already checked)."""
    led = trick[0].suit
    return tuple(
        sorted(
            range(len(trick)),
            key=lambda i: (trick[i].suit == led, *_rank_key(trick[i])),
            reverse=True,
        )
    )


# --- explanations as data ----------------------------------------------------------
@dataclass(frozen=True)
class PrizeRanking:
    """Why one card of a trick landed where it did and which prize it took."""

    player: int
    card: Card
    place: int  # 1 = takes the first prize
    follows: bool
    prize: Card | None
    reason: str


def rank_trick(
    cards: tuple[Card, ...], players: tuple[int, ...], prizes: tuple[Card, ...]
) -> tuple[tuple[int, ...], tuple[PrizeRanking, ...]]:
    """The prize order of a trick and, per card, the ranking that put it there."""
    return _rank_trick(cards, players, prizes, tuple(prize_order(cards)))


def _rank_trick(
    cards: tuple[Card, ...],
    players: tuple[int, ...],
    prizes: tuple[Card, ...],
    order: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[PrizeRanking, ...]]:
    led = cards[0].suit
    suit_name = SUIT_NAMES[led]
    followers = sum(1 for c in cards if c.suit == led)
    reasons = []
    for place, index in enumerate(order, start=1):
        card = cards[index]
        follows = card.suit == led
        prize = prizes[place - 1] if place <= len(prizes) else None
        if follows:
            why = f"{card.symbol} follows {suit_name}"
            if followers > 1:
                nth = "highest" if place == 1 else f"{_ordinal(place)} highest"
                why += f": {nth} of {followers} {suit_name} (K high, 2 low)"
        else:
            position = place - followers
            why = f"{card.symbol} is a discard, below every {suit_name[:-1]}"
            ties = [c for c in cards if c.suit != led and c.rank == card.rank and c != card]
            why += f": {_ordinal(position)} of the discards (K high, 2 low)"
            if ties:
                why += f"; same rank as {_show(ties)}, so suits decide: {SUITS_HIGH_TO_LOW}"
        if prize is None:
            why += f"; {_ordinal(place)} place takes no prize (only {len(prizes)} dealt)"
        else:
            why += f"; {_ordinal(place)} place takes prize {place} ({prize.symbol})"
        reasons.append(PrizeRanking(players[index], card, place, follows, prize, why))
    return order, tuple(reasons)


# --- actions ------------------------------------------------------------------------
def _coerce_cards(obj: Any, name: str = "cards") -> None:
    """Cards from outside input, in the one order the engine lists them (``_in_order``):
    the same cards named in another order are the same move."""
    value = getattr(obj, name)
    if not (isinstance(value, tuple) and all(isinstance(c, Card) for c in value)):
        value = _cards(value)
    object.__setattr__(obj, name, _in_order(value))


def _order_key(card: Card) -> tuple[int, int, str]:
    # _rank_key's order, and a place for cards from other decks (refused later, by name)
    return card.rank, DISCARD_SUIT_ORDER.get(card.suit, -1), card.suit


def _in_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards low to high (rank, then suit ♥ ♠ ♣ ♦): the order every listed move uses."""
    return tuple(sorted(cards, key=_order_key))


def _layout_key(group: tuple[Card, ...]) -> tuple[tuple[int, int, str], ...]:
    return tuple(map(_order_key, group))


@dataclass(frozen=True)
class TurnPrize:
    """Turn prize ``index`` (0 = the first prize) face up before leading."""

    index: int

    def __post_init__(self) -> None:
        if isinstance(self.index, bool) or not isinstance(self.index, int):
            raise MathCardsError(
                f"a prize is chosen by its number (0 = the first prize), not {self.index!r}"
            )

    def __str__(self) -> str:
        return f"turn prize {self.index + 1} face up"


@dataclass(frozen=True)
class PlayCard:
    """Play one card from your hand to the trick."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"play {self.card.symbol}"


@dataclass(frozen=True)
class DeclarePlanet:
    """Put down your planet."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _coerce_cards(self)

    def __str__(self) -> str:
        return f"declare the planet {_show(self.cards)}"


@dataclass(frozen=True)
class MakeMoon:
    """Put down a new moon from your hand."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _coerce_cards(self)

    def __str__(self) -> str:
        return f"make the moon {_show(self.cards)}"


@dataclass(frozen=True)
class AddToMoon:
    """Add cards from your hand to your moon number ``moon`` (0 = the first)."""

    moon: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _coerce_cards(self)

    def __str__(self) -> str:
        number = self.moon + 1 if isinstance(self.moon, int) else self.moon
        return f"add {_show(self.cards)} to moon {number}"


@dataclass(frozen=True)
class Regroup:
    """Replace all your moons by new moons made of the same cards plus cards from your hand.

    The moons are kept in one order (each low to high, the lowest moon first), so the
    same layout named in another order is the same move.
    """

    groups: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        value = self.groups
        if not (
            isinstance(value, tuple)
            and all(isinstance(g, tuple) and all(isinstance(c, Card) for c in g) for g in value)
        ):
            if isinstance(value, str):
                raise CardParseError("write regrouped moons as a list of card lists")
            value = tuple(_cards(g) for g in value)
        # one order for the same moons (see _coerce_cards): each low to high, lowest first
        object.__setattr__(
            self, "groups", tuple(sorted((_in_order(g) for g in value), key=_layout_key))
        )

    def __str__(self) -> str:
        return "regroup the moons as " + " | ".join(_show(g) for g in self.groups)


@dataclass(frozen=True)
class Done:
    """Finish putting cards down."""

    def __str__(self) -> str:
        return "done putting cards down"


PUT_DOWN_ACTIONS = (DeclarePlanet, MakeMoon, AddToMoon, Regroup, Done)


# --- listed actions, built without re-checking what the engine already knows --------
# The engine lists thousands of moves per game; the constructors above coerce and
# check outside input, which is wasted work on tuples of Cards the engine made.
# These build the very same (equal, frozen) objects, and share the ones that recur.
def _listed(cls: type, **fields: Any) -> Any:
    action = object.__new__(cls)
    action.__dict__.update(fields)
    return action


DONE = Done()
_PLAY_CARD: dict[tuple[str, int], PlayCard] = {}
_TURN_PRIZES: dict[int, tuple[TurnPrize, ...]] = {}


def _play_card(card: Card) -> PlayCard:
    key = (card.suit, card.rank)
    action = _PLAY_CARD.get(key)
    if action is None:
        action = _PLAY_CARD[key] = PlayCard(card)
    return action


def _turn_prizes(count: int) -> tuple[TurnPrize, ...]:
    actions = _TURN_PRIZES.get(count)
    if actions is None:
        actions = _TURN_PRIZES[count] = tuple(TurnPrize(i) for i in range(count))
    return actions


# --- events -------------------------------------------------------------------------
@dataclass(frozen=True)
class CardsDealt(Event):
    hand_size: int = HAND_SIZE
    num_players: int = 2

    def describe(self) -> str:
        return f"{self.hand_size} cards dealt to each of {self.num_players} players"


@dataclass(frozen=True)
class PrizesDealt(Event):
    count: int = 0

    def describe(self) -> str:
        return f"{self.count} prize{'s' if self.count != 1 else ''} dealt face down"


@dataclass(frozen=True)
class PrizeTurned(Event):
    index: int = 0
    card: Card | None = None

    def describe(self) -> str:
        return f"Player {self.player + 1} turns prize {self.index + 1} face up: {self.card.symbol}"


@dataclass(frozen=True)
class SatOut(Event):
    reason: str = ""

    def describe(self) -> str:
        return f"Player {self.player + 1} sits this trick out: {self.reason}"


@dataclass(frozen=True)
class CardPlayed(Event):
    card: Card | None = None
    follows: bool = True
    led: bool = False

    def describe(self) -> str:
        how = "leads" if self.led else ("follows with" if self.follows else "discards")
        return f"Player {self.player + 1} {how} {self.card.symbol}"


@dataclass(frozen=True)
class PrizesAwarded(Event):
    """A finished trick: ``order`` indexes ``cards`` from first prize to last."""

    cards: tuple[Card, ...] = ()
    players: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    prizes: tuple[Card, ...] = ()
    ranking_reasons: tuple[PrizeRanking, ...] = ()
    returned: tuple[Card, ...] = ()

    @property
    def winner(self) -> int:
        """The player whose card took the first prize (they lead next)."""
        return self.players[self.order[0]]

    def describe(self) -> str:
        parts = []
        for r in self.ranking_reasons:
            won = f"prize {r.place}" if r.prize is not None else "no prize"
            parts.append(f"{r.card.symbol} takes {won}")
        led = SUIT_NAMES[self.cards[0].suit]
        if all(r.follows for r in self.ranking_reasons):
            rule = f"all follow {led}, highest first"
        else:
            rule = f"cards following {led} rank above discards"
        text = ", ".join(parts) + f": {rule}"
        if self.returned:
            text += f"; {len(self.returned)} untaken prize(s) go to the bottom of the deck"
        return text


@dataclass(frozen=True)
class PlanetDeclared(Event):
    cards: tuple[Card, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        return f"Player {self.player + 1} declares a planet: {self.reason}"


@dataclass(frozen=True)
class PlanetSwitched(Event):
    old_cards: tuple[Card, ...] = ()

    def describe(self) -> str:
        return (
            f"Player {self.player + 1} takes the 5♣: it becomes their planet and "
            f"{_show(self.old_cards)} go back to their hand"
        )


@dataclass(frozen=True)
class MoonMade(Event):
    cards: tuple[Card, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        return f"Player {self.player + 1} makes a moon: {self.reason}"


@dataclass(frozen=True)
class MoonExtended(Event):
    moon: int = 0
    cards: tuple[Card, ...] = ()
    result: tuple[Card, ...] = ()

    def describe(self) -> str:
        return (
            f"Player {self.player + 1} adds {_show(self.cards)} to moon {self.moon + 1}: "
            f"{moon_reason(self.result)}"
        )


@dataclass(frozen=True)
class MoonsRegrouped(Event):
    groups: tuple[tuple[Card, ...], ...] = ()
    added: tuple[Card, ...] = ()

    def describe(self) -> str:
        return (
            f"Player {self.player + 1} regroups their moons as "
            + " | ".join(_show(g) for g in self.groups)
            + f", putting down {_show(self.added)}"
        )


@dataclass(frozen=True)
class DeckReshuffled(Event):
    count: int = 0

    def describe(self) -> str:
        return f"the deck ran out: the {self.count} discards are shuffled to make a new deck"


@dataclass(frozen=True)
class GameWon(Event):
    winners: tuple[int, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        names = " and ".join(f"Player {w + 1}" for w in self.winners)
        return f"{names} win{'s' if len(self.winners) == 1 else ''}: {self.reason}"


# --- what one player sees -----------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """What ``player`` may see: own hand, the table, and other hands only as counts."""

    player: int
    phase: str
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    planets: tuple[tuple[Card, ...], ...]
    moons: tuple[tuple[tuple[Card, ...], ...], ...]
    prizes: tuple[Card | None, ...]  # None = face down
    face_up: int | None
    trick: tuple[Card, ...]
    trick_players: tuple[int, ...]
    deck_size: int
    discard_size: int
    tricks_played: int


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
        if len(chosen) >= 2 and PLANET_LOW <= total:
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
    rest = cards - {first}
    if first.rank == 1:
        tail = find_moon_grouping(rest)
        return None if tail is None else ((first,), *tail)
    if first == FIVE_OF_CLUBS:
        return None
    groups: list[tuple[Card, ...]] = []
    # a fixed order (never a set's): the same cards must group the same way in every
    # process, or seeded games and saves would differ with PYTHONHASHSEED
    ordered = sorted(rest, key=_rank_key)
    same = [c for c in ordered if c.rank == first.rank and _playable(c)]
    for size in range(1, len(same) + 1):
        groups.extend((first, *combo) for combo in itertools.combinations(same, size))
    columns: list[list[Card]] = [[first]]
    for rank in range(first.rank + 1, 14):
        options = [
            c for c in ordered if c.rank == rank and c.colour == first.colour and _playable(c)
        ]
        if not options:
            break
        columns.append(options)
        if len(columns) >= 3:
            groups.extend(itertools.product(*columns))
    for group in groups:
        tail = find_moon_grouping(rest - set(group))
        if tail is not None:
            return (tuple(group), *tail)
    return None


def moon_additions(
    group: tuple[Card, ...], hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """Every set of hand cards that, added to the moon ``group``, keeps it one moon."""
    if group[0].rank == 1:
        return ()  # an ace moon stays alone
    return _moon_additions(group, hand)


@lru_cache(maxsize=1 << 12)
def _moon_additions(
    group: tuple[Card, ...], hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
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
        _listed(Regroup, groups=layout)
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


def _planet_moves(hand: tuple[Card, ...]) -> tuple[Any, ...]:
    """The listed moves of a player with no planet yet: the planets, then ``Done``."""
    if FIVE_OF_CLUBS in hand:
        return (_listed(DeclarePlanet, cards=(FIVE_OF_CLUBS,)), DONE)
    return (*(_listed(DeclarePlanet, cards=p) for p in planet_options(hand)), DONE)


def _moon_moves(hand: tuple[Card, ...]) -> tuple[MakeMoon, ...]:
    return tuple(_listed(MakeMoon, cards=m) for m in moon_options(hand))


class PutDownOptions(Collection):
    """The moves of a putting-down turn: every planet, every new moon, every addition to
    a moon, every regrouping, then ``Done``.

    The list is the rule: a move is allowed exactly when it is in the list (moves naming
    the same cards in another order are the same move, see ``_coerce_cards``).
    """

    __slots__ = ("listed", "_ids", "_moves")

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



# --- the game -----------------------------------------------------------------------
@dataclass(frozen=True)
class MoonsAndPlanets(Game):
    """Moons and Planets for 2-5 players: tricks win prizes, planets and moons empty your hand."""

    name: ClassVar[str] = "moons_and_planets"
    title: ClassVar[str] = "Moons and Planets"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    actions: ClassVar[Mapping[str, type]] = {
        "turn-prize": TurnPrize,
        "play-card": PlayCard,
        "declare-planet": DeclarePlanet,
        "make-moon": MakeMoon,
        "add-to-moon": AddToMoon,
        "regroup": Regroup,
        "done": Done,
    }
    v1_actions: ClassVar[Mapping[str, str]] = {
        "TurnPrize": "turn-prize",
        "PlayCard": "play-card",
        "DeclarePlanet": "declare-planet",
        "MakeMoon": "make-moon",
        "AddToMoon": "add-to-moon",
        "Regroup": "regroup",
        "Done": "done",
    }

    trick_limit: int = 200

    def __post_init__(self) -> None:
        super().__post_init__()
        limit = self.trick_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
            raise SettingsError(
                f"trick_limit must be a whole number from 1 to 10000 (the tricks before the "
                f"fewest cards in hand win), not {limit!r}"
            )

    def deck(self) -> tuple[Card, ...]:
        return standard_deck()

    def _new_game(self, seed: int) -> MoonsAndPlanetsState:
        cards = list(standard_deck())
        rng_for(seed, 0).shuffle(cards)
        n = self.num_players
        hands = tuple(tuple(sorted(cards[i : n * HAND_SIZE : n])) for i in range(n))
        return MoonsAndPlanetsState(
            game=self,
            seed=seed,
            log=EMPTY.push((CardsDealt(None, HAND_SIZE, n),)),
            hands=hands,
            planets=((),) * n,
            moons=((),) * n,
            deck=tuple(cards[n * HAND_SIZE :]),
            queue=tuple(range(n)),
        )


@dataclass(frozen=True, kw_only=True)
class MoonsAndPlanetsState(State):
    """A position of Moons and Planets (see the module docstring for the rules)."""

    hands: tuple[tuple[Card, ...], ...]
    planets: tuple[tuple[Card, ...], ...]
    moons: tuple[tuple[tuple[Card, ...], ...], ...]
    deck: tuple[Card, ...]  # index 0 is the top
    discard: tuple[Card, ...] = ()
    prizes: tuple[Card, ...] = ()
    face_up: int | None = None
    trick: tuple[Card, ...] = ()
    trick_players: tuple[int, ...] = ()
    phase: str = PUT_DOWN
    queue: tuple[int, ...] = ()  # players still to put down this time, first is on turn
    leader: int = 0  # who leads the next trick (the last trick's winner)
    tricks_played: int = 0
    won_by: tuple[int, ...] = ()
    end_reason: str = ""

    # --- protocol ---------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase == PUT_DOWN:
            return self.queue[0]
        if self.phase == TURN_PRIZE:
            return self.trick_players[0]
        if self.phase == PLAY:
            return self.trick_players[len(self.trick)]
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(1 if p in self.won_by else 0 for p in range(self.game.num_players))

    def all_cards(self) -> Iterable[Card]:
        for hand in self.hands:
            yield from hand
        for planet in self.planets:
            yield from planet
        for groups in self.moons:
            for group in groups:
                yield from group
        yield from self.deck
        yield from self.discard
        yield from self.prizes
        yield from self.trick

    def observation(self, player: int) -> Observation:
        n = self.game.num_players
        if type(player) is not int or not 0 <= player < n:
            if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
                raise SettingsError(f"player must be a seat from 0 to {n - 1}, not {player!r}")
        # Built like the generated __init__ would (the same, equal Observation), without
        # its per-field frozen setattr calls: bots ask for one observation every move.
        seen = object.__new__(Observation)
        seen.__dict__.update(
            player=player,
            phase=self.phase,
            to_act=self.current_player,
            hand=self.hands[player],
            hand_sizes=tuple(map(len, self.hands)),
            planets=self.planets,
            moons=self.moons,
            prizes=self._visible_prizes(),
            face_up=self.face_up,
            trick=self.trick,
            trick_players=self.trick_players,
            deck_size=len(self.deck),
            discard_size=len(self.discard),
            tricks_played=self.tricks_played,
        )
        return seen

    def _visible_prizes(self) -> tuple[Card | None, ...]:
        if self.face_up is None:
            return (None,) * len(self.prizes)
        shown = [None] * len(self.prizes)
        shown[self.face_up] = self.prizes[self.face_up]
        return tuple(shown)

    # --- legal actions ------------------------------------------------------------
    def _legal_actions(self) -> Collection[Any]:
        if self.phase == TURN_PRIZE:
            return _turn_prizes(len(self.prizes))
        if self.phase == PLAY:
            return tuple(map(_play_card, self._playable_cards(self.current_player)))
        return self._put_down_options()

    def _playable_cards(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` may play to the trick: the led suit if they can follow."""
        hand = self.hands[player]
        if self.trick:
            led = self.trick[0].suit
            following = [c for c in hand if c.suit == led and _playable(c)]
            if following:
                return tuple(following)
        return tuple([c for c in hand if _playable(c)])

    def _put_down_options(self) -> PutDownOptions:
        player = self.queue[0]
        hand = self.hands[player]
        if not self.planets[player]:
            return PutDownOptions(_planet_moves(hand))
        listed = list(_moon_moves(hand))
        moons = self.moons[player]
        if moons:
            for i, group in enumerate(moons):
                listed.extend(
                    _listed(AddToMoon, moon=i, cards=cards)
                    for cards in moon_additions(group, hand)
                )
            listed.extend(regroup_options(hand, moons))
        listed.append(DONE)
        return PutDownOptions(tuple(listed))

    def _put_down_problem(self, action: Any) -> str | None:
        """The rule refusing a putting-down move (None: the move is allowed)."""
        if self.phase != PUT_DOWN:
            return self._not_now()
        if isinstance(action, Done):
            return None
        player = self.queue[0]
        hand = set(self.hands[player])
        planet = self.planets[player]
        moons = self.moons[player]
        if isinstance(action, Regroup):
            cards = tuple(c for g in action.groups for c in g)
        else:
            cards = action.cards
        if not cards:
            return "name the cards you want to put down"
        if len(set(cards)) != len(cards):
            return f"{_show(cards)} names a card twice"
        if isinstance(action, DeclarePlanet):
            if planet:
                return f"you already have a planet ({_show(planet)}): only one planet each"
            missing = [c for c in cards if c not in hand]
            if missing:
                return f"you do not hold {_show(missing)}"
            problem = planet_problem(cards)
            if problem:
                return problem
            if FIVE_OF_CLUBS in hand and cards != (FIVE_OF_CLUBS,):
                return (
                    "you hold the 5♣, the automatic planet: declare it (another planet would "
                    "have to be switched for it at once)"
                )
            return None
        if not planet:
            return "moons need a planet first: put down a planet before any moon"
        if isinstance(action, MakeMoon):
            missing = [c for c in cards if c not in hand]
            if missing:
                return f"you do not hold {_show(missing)}"
            return moon_problem(cards)
        if isinstance(action, AddToMoon):
            if isinstance(action.moon, bool) or not isinstance(action.moon, int):
                return "say which moon to add to by its number"
            if not 0 <= action.moon < len(moons):
                if not moons:
                    return "you have no moon to add to yet: make a moon first"
                return f"you have {len(moons)} moon(s): choose moon 1 to {len(moons)}"
            missing = [c for c in cards if c not in hand]
            if missing:
                return f"you do not hold {_show(missing)}"
            group = moons[action.moon]
            problem = moon_problem((*group, *cards))
            if problem:
                return f"adding {_show(cards)} to moon {_show(group)}: {problem}"
            return None
        if isinstance(action, Regroup):
            if not moons:
                return "you have no moons to regroup: make a moon first"
            moon_cards = {c for g in moons for c in g}
            missing = moon_cards - set(cards)
            if missing:
                return (
                    f"a regrouping must use every card of your moons "
                    f"(missing {_show(sorted(missing))}): moon cards never return to hand"
                )
            added = [c for c in cards if c not in moon_cards]
            foreign = [c for c in added if c not in hand]
            if foreign:
                return f"you do not hold {_show(foreign)}"
            if not added:
                return "a regrouping must put down at least one card from your hand"
            for g in action.groups:
                problem = moon_problem(g)
                if problem:
                    return problem
            for g in action.groups:
                if moon_cards.isdisjoint(g):
                    return (
                        f"{_show(g)} are all from your hand: make them a new moon, and "
                        f"regroup only moons that hold cards of your old moons"
                    )
            return None
        return "it is not a Moons and Planets move"  # pragma: no cover

    def _not_now(self) -> str:
        if self.phase == TURN_PRIZE:
            return f"Player {self.current_player + 1} must first turn a prize face up"
        if self.phase == PLAY:
            return f"a trick is being played: Player {self.current_player + 1} plays a card now"
        if self.phase == PUT_DOWN:
            return "cards are being put down now: play to a trick only once everyone is done"
        return "the game is over"

    def why_illegal(self, action: Any) -> str:
        if isinstance(action, PUT_DOWN_ACTIONS):
            problem = self._put_down_problem(action)
            return problem or "it is not one of the moves allowed now"
        if isinstance(action, TurnPrize):
            if self.phase != TURN_PRIZE:
                return (
                    "a prize is turned face up only before the lead"
                    if self.phase != PUT_DOWN
                    else self._not_now()
                )
            return f"choose a prize from 1 to {len(self.prizes)}"
        if isinstance(action, PlayCard):
            if self.phase != PLAY:
                return self._not_now()
            card = action.card
            if not card.is_standard:
                return _not_standard((card,))
            if card.rank == 1:
                return "aces cannot be played to a trick: an ace is only ever a moon"
            if card == FIVE_OF_CLUBS:
                return "the 5♣ cannot be played to a trick: it is only ever a planet"
            player = self.current_player
            if card not in self.hands[player]:
                return f"you do not hold {card.symbol}"
            led = self.trick[0].suit
            following = [c for c in self.hands[player] if c.suit == led and _playable(c)]
            return f"you must follow {SUIT_NAMES[led]}: you hold {_show(following)}"
        return "it is not one of the moves allowed now"

    # --- applying ----------------------------------------------------------------------
    def _apply(self, action: Any) -> tuple[dict[str, Any], list[Event]]:
        if isinstance(action, TurnPrize):
            card = self.prizes[action.index]
            player = self.current_player
            return {"face_up": action.index, "phase": PLAY}, [
                PrizeTurned(player, action.index, card)
            ]
        if isinstance(action, PlayCard):
            return self._play(action.card)
        return self._put_down(action)

    def _play(self, card: Card) -> tuple[dict[str, Any], list[Event]]:
        player = self.current_player
        led = not self.trick
        follows = led or card.suit == self.trick[0].suit
        hands = list(self.hands)
        hand = hands[player]
        at = hand.index(card)  # a legal card is in the hand exactly once
        hands[player] = hand[:at] + hand[at + 1 :]
        trick = (*self.trick, card)
        events: list[Event] = [CardPlayed(player, card, follows, led)]
        ch: dict[str, Any] = {"hands": tuple(hands), "trick": trick}
        if len(trick) < len(self.trick_players):
            return ch, events
        # The trick is complete: the k-th card takes prize k.
        order, reasons = _rank_trick(trick, self.trick_players, self.prizes, _prize_order(trick))
        taken = min(len(order), len(self.prizes))
        returned = self.prizes[taken:]
        planets = self.planets
        for place in range(taken):
            winner = self.trick_players[order[place]]
            prize = self.prizes[place]
            hands[winner] = tuple(sorted((*hands[winner], prize)))
        events.append(
            PrizesAwarded(
                self.trick_players[0],
                trick,
                self.trick_players,
                order,
                self.prizes,
                reasons,
                returned,
            )
        )
        # The 5♣ switch happens the moment it arrives (see the module docstring).
        for place in range(taken):
            winner = self.trick_players[order[place]]
            if self.prizes[place] == FIVE_OF_CLUBS and planets[winner]:
                old = planets[winner]
                hands[winner] = tuple(
                    sorted((*(c for c in hands[winner] if c != FIVE_OF_CLUBS), *old))
                )
                planets = (*planets[:winner], (FIVE_OF_CLUBS,), *planets[winner + 1 :])
                events.append(PlanetSwitched(winner, old))
        n = self.game.num_players
        first = self.trick_players[order[0]]
        ch.update(
            hands=tuple(hands),
            planets=planets,
            trick=(),
            trick_players=(),
            prizes=(),
            face_up=None,
            discard=self.discard + trick,
            deck=self.deck + returned,
            leader=first,
            tricks_played=self.tricks_played + 1,
            phase=PUT_DOWN,
            queue=tuple((first + i) % n for i in range(n)),
        )
        return ch, events

    def _put_down(self, action: Any) -> tuple[dict[str, Any], list[Event]]:
        player = self.queue[0]
        hand = self.hands[player]
        ch: dict[str, Any] = {}
        events: list[Event] = []
        if isinstance(action, Done):
            if not hand:
                return self._win(ch, events, player)
            if len(self.queue) > 1:
                return {"queue": self.queue[1:]}, events
            return self._begin_trick(ch, events)
        if isinstance(action, DeclarePlanet):
            cards = action.cards
            ch["planets"] = _replace_at(self.planets, player, cards)
            events.append(PlanetDeclared(player, cards, planet_reason(cards)))
        elif isinstance(action, MakeMoon):
            cards = action.cards
            ch["moons"] = _replace_at(self.moons, player, (*self.moons[player], cards))
            events.append(MoonMade(player, cards, moon_reason(cards)))
        elif isinstance(action, AddToMoon):
            cards = action.cards
            groups = list(self.moons[player])
            result = tuple(sorted((*groups[action.moon], *cards), key=_rank_key))
            groups[action.moon] = result
            ch["moons"] = _replace_at(self.moons, player, tuple(groups))
            events.append(MoonExtended(player, action.moon, cards, result))
        else:
            moon_cards = {c for g in self.moons[player] for c in g}
            cards = tuple(c for g in action.groups for c in g if c not in moon_cards)
            ch["moons"] = _replace_at(self.moons, player, action.groups)
            events.append(MoonsRegrouped(player, action.groups, cards))
        gone = set(cards)
        left = tuple(c for c in hand if c not in gone)
        ch["hands"] = _replace_at(self.hands, player, left)
        if not left:
            return self._win(ch, events, player)
        return ch, events

    def _win(self, ch: dict[str, Any], events: list[Event], player: int):
        events.append(
            GameWon(player, (player,), "their hand is empty after putting cards down")
        )
        ch.update(phase=OVER, queue=(), won_by=(player,), end_reason="empty hand")
        return ch, events

    def _begin_trick(self, ch: dict[str, Any], events: list[Event]):
        """Deal the prizes and find who plays: the start of every trick."""
        n = self.game.num_players
        hands = ch.get("hands", self.hands)
        if self.tricks_played >= self.game.trick_limit:
            return self._fewest_cards_win(
                ch, events, f"the {self.game.trick_limit}-trick limit is reached"
            )
        players = []
        for i in range(n):
            seat = (self.leader + i) % n
            if any(_playable(c) for c in hands[seat]):
                players.append(seat)
            else:
                events.append(SatOut(seat, "no card in hand can be played to a trick"))
        if not players:
            return self._fewest_cards_win(ch, events, "nobody can play to a trick")
        deck, discard = self.deck, self.discard
        prizes: list[Card] = []
        rng = None
        while len(prizes) < n:
            if not deck:
                if not discard:
                    break
                rng = rng or self.rng()
                pile = list(discard)
                rng.shuffle(pile)
                deck, discard = tuple(pile), ()
                events.append(DeckReshuffled(None, len(pile)))
            take = min(n - len(prizes), len(deck))
            prizes.extend(deck[:take])
            deck = deck[take:]
        events.append(PrizesDealt(None, len(prizes)))
        ch.update(
            deck=deck,
            discard=discard,
            prizes=tuple(prizes),
            face_up=None,
            trick=(),
            trick_players=tuple(players),
            queue=(),
            phase=TURN_PRIZE if prizes else PLAY,
        )
        return ch, events

    def _fewest_cards_win(self, ch: dict[str, Any], events: list[Event], why: str):
        hands = ch.get("hands", self.hands)
        fewest = min(len(h) for h in hands)
        winners = tuple(p for p, h in enumerate(hands) if len(h) == fewest)
        events.append(
            GameWon(winners[0], winners, f"{why}: the fewest cards in hand ({fewest}) win")
        )
        ch.update(phase=OVER, queue=(), won_by=winners, end_reason=why)
        return ch, events


def _replace_at(items: tuple, index: int, value: Any) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


# --- bots ---------------------------------------------------------------------------
def _usefulness(card: Card, hand: tuple[Card, ...], obs: Observation) -> float:
    """How much keeping ``card`` may help a future planet or moon (higher = keep)."""
    me = obs.player
    score = 0.0
    for other in hand:
        if other == card or not _playable(other):
            continue
        if other.rank == card.rank:
            score += 2
        elif other.colour == card.colour and abs(other.rank - card.rank) <= 2:
            score += 1.5 if abs(other.rank - card.rank) == 1 else 0.75
        if not obs.planets[me] and other.suit == card.suit:
            score += 0.5
    for group in obs.moons[me]:
        if group[0].rank != 1 and is_moon((*group, card)):
            score += 5
    return score


def _prize_helps(prize: Card, obs: Observation) -> bool:
    """Would this prize let the player put down more cards?"""
    me = obs.player
    hand = obs.hand
    if not obs.planets[me]:
        if prize == FIVE_OF_CLUBS:
            return True
        return any(prize in p for p in planet_options(tuple(sorted((*hand, prize)))))
    if prize.rank == 1:
        return True
    if any(g[0].rank != 1 and is_moon((*g, prize)) for g in obs.moons[me]):
        return True
    return any(prize in m for m in moon_options(tuple(sorted((*hand, prize)))))


def _chance_beaten(card: Card, follows: bool) -> float:
    """Rough chance that a later, unseen card ranks above ``card``."""
    higher = (13 - card.rank) / 11
    return 0.5 * higher if follows else 0.5 + 0.5 * higher


def strong_policy(observation: Observation, legal: Collection[Any], rng) -> Any:
    """Meld as early and as much as possible; bid for a face-up prize that helps; dump the rest."""
    obs = observation
    options = list(legal)
    if obs.phase == PUT_DOWN:
        best, best_key = None, None
        for action in options:
            if isinstance(action, DeclarePlanet):
                key = (3, len(action.cards))
            elif isinstance(action, MakeMoon):
                key = (2, len(action.cards))
            elif isinstance(action, AddToMoon):
                key = (2, len(action.cards))
            elif isinstance(action, Regroup):
                before = sum(len(g) for g in obs.moons[obs.player])
                key = (2, sum(len(g) for g in action.groups) - before)
            else:
                continue
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best if best is not None else options[-1]
    if obs.phase == TURN_PRIZE:
        return options[0]
    hand = obs.hand
    plays = [a.card for a in options]
    face_up = obs.prizes[obs.face_up] if obs.face_up is not None else None
    if face_up is not None and _prize_helps(face_up, obs) and len(obs.trick_players) > 1:
        target = obs.face_up
        later = len(obs.trick_players) - len(obs.trick) - 1

        def miss(card: Card) -> tuple[float, float]:
            trick = (*obs.trick, card)
            above = prize_order(trick).index(len(trick) - 1)
            follows = card.suit == trick[0].suit
            expected = above + later * _chance_beaten(card, follows)
            return abs(expected - target), _usefulness(card, hand, obs)

        return PlayCard(min(plays, key=miss))
    return PlayCard(min(plays, key=lambda c: (_usefulness(c, hand, obs), -c.rank)))


__all__ = [
    "AddToMoon",
    "DeclarePlanet",
    "Done",
    "MakeMoon",
    "MoonsAndPlanets",
    "MoonsAndPlanetsState",
    "Observation",
    "PlayCard",
    "Regroup",
    "TurnPrize",
    "is_moon",
    "is_planet",
    "moon_problem",
    "planet_problem",
    "prize_order",
    "strong_policy",
]
