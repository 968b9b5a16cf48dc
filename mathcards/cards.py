"""Cards in the one notation used everywhere: API, exercises, tests, UI labels.

Standard cards are rank then suit (``10H``, ``QS``, ``AD``, ``5C``); Jokers are
``JK``. The Shoot the Moon deck is colour then number (``R12``, ``G1``) plus the
specials ``BIG`` and ``LITTLE``; sentences and drawings show them as ``Card.symbol``
(``▲12``, ``☾1``, ``Big Moon``), which the parser reads too.

>>> parse_cards("10H qs A♦")
(Card('10H'), Card('QS'), Card('AD'))
>>> str(parse_card("t♣"))
'10C'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from mathcards.errors import CardParseError
from mathcards.i18n import N_, gettext

STANDARD_SUITS = ("S", "H", "D", "C")
MOON_COLOURS = ("R", "G", "P", "B")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
MOON_COLOUR_NAMES = {"R": "red", "G": "green", "P": "purple", "B": "blue"}
# a shape per moon colour, so colour is never the only cue: drawn on the cards, written in sentences
MOON_SHAPES = {"R": "▲", "G": "☾", "P": "★", "B": "●"}
MOON_SUIT_NAMES = {
    "R": N_("red rocket"),
    "G": N_("green crescent moon"),
    "P": N_("purple star"),
    "B": N_("blue full moon"),
}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
# a card's rank in words
RANK_NAMES = {
    1: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"),
    7: N_("seven"), 8: N_("eight"), 9: N_("nine"), 10: N_("ten"), 11: N_("jack"),
    12: N_("queen"), 13: N_("king"),
}
JOKER = "JK"
BIG_MOON = "BIG"
LITTLE_MOON = "LITTLE"

# A card a student or teacher types is in the English notation in every language: a
# language's own letters would clash (Spanish C is corazones here, clubs in English; T is
# tréboles and 10); docs/translate.md. The refusal says what is accepted in the reader's
# language, the letters as they are.
_NOT_A_CARD = N_(
    "{text} is not a card: ranks A 2-10 J Q K (T for 10) then a suit S H D C (or ♠ ♥ ♦ ♣), "
    "JK for a Joker, or a Shoot the Moon card R/G/P/B (or ▲ ☾ ★ ●) 1-12, BIG, LITTLE"
)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card.

    ``suit`` is ``S H D C`` for standard cards (``rank`` 1 = Ace ... 13 = King),
    ``R G P B`` for Shoot the Moon colours (``rank`` 1-12), or one of ``JK``,
    ``BIG``, ``LITTLE`` with ``rank`` 0.
    """

    suit: str
    rank: int

    def __post_init__(self) -> None:
        ok = (
            (self.suit in STANDARD_SUITS and 1 <= self.rank <= 13)
            or (self.suit in MOON_COLOURS and 1 <= self.rank <= 12)
            or (self.suit in (JOKER, BIG_MOON, LITTLE_MOON) and self.rank == 0)
        )
        if not ok:
            raise CardParseError(f"no such card: suit {self.suit!r} with rank {self.rank!r}")

    # --- kinds -----------------------------------------------------------
    @property
    def is_standard(self) -> bool:
        return self.suit in STANDARD_SUITS

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER

    @property
    def is_moon_card(self) -> bool:
        """A numbered Shoot the Moon card (R/G/P/B 1-12)."""
        return self.suit in MOON_COLOURS

    @property
    def is_big_moon(self) -> bool:
        return self.suit == BIG_MOON

    @property
    def is_little_moon(self) -> bool:
        return self.suit == LITTLE_MOON

    @property
    def colour(self) -> str | None:
        """``red``/``black`` for standard cards, the colour name for moon cards."""
        if self.suit in ("H", "D"):
            return "red"
        if self.suit in ("S", "C"):
            return "black"
        return MOON_COLOUR_NAMES.get(self.suit)

    @property
    def rank_text(self) -> str:
        return RANK_TEXT.get(self.rank, str(self.rank))

    # --- text ------------------------------------------------------------
    def __str__(self) -> str:
        return _card_text(self.suit, self.rank)

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def symbol(self) -> str:
        """A card in a sentence, as drawn: ``10♥``, ``Q♠``, ``JK``, ``▲12``, ``Big Moon``.

        >>> parse_card("R12").symbol, parse_card("p9").symbol, parse_card("little").symbol
        ('▲12', '★9', 'Little Moon')
        """
        if self.is_standard:
            return self.rank_text + SUIT_SYMBOLS[self.suit]
        if self.is_moon_card:
            return f"{MOON_SHAPES[self.suit]}{self.rank}"
        return JOKER if self.is_joker else self.name  # the Big and Little Moons in words

    @property
    def name(self) -> str:
        """Words a screen reader speaks: ``seven of hearts``, ``red rocket 12``."""
        if self.is_standard:
            # Translators: a card's name, e.g. "seven of hearts"
            return gettext("{rank} of {suit}").format(
                rank=gettext(RANK_NAMES[self.rank]), suit=gettext(SUIT_NAMES[self.suit]))
        if self.is_moon_card:
            return f"{gettext(MOON_SUIT_NAMES[self.suit])} {self.rank}"
        return gettext({JOKER: N_("joker"), BIG_MOON: N_("Big Moon"),
                        LITTLE_MOON: N_("Little Moon")}[self.suit])


@cache
def _card_text(suit: str, rank: int) -> str:
    if suit in STANDARD_SUITS:
        return RANK_TEXT.get(rank, str(rank)) + suit
    if suit in MOON_COLOURS:
        return f"{suit}{rank}"
    return suit


_SYMBOL_TO_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
                   **{shape: colour for colour, shape in MOON_SHAPES.items()}}
_STANDARD_RE = re.compile(r"^(10|[2-9]|[AJQKT])([SHDC])$")
_MOON_RE = re.compile(r"^([RGPB])(1[0-2]|[1-9])$")
_RANK_VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


@lru_cache(maxsize=512)
def parse_card(text: str | Card) -> Card:
    """Read one card; a Card is returned as it is.

    >>> parse_card("jk"), parse_card("R12"), parse_card("▲12"), parse_card("Little Moon")
    (Card('JK'), Card('R12'), Card('R12'), Card('LITTLE'))
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardParseError(gettext("{text} is not card text: write cards like 7H, 10S, QD, JK")
                             .format(text=repr(text)))
    raw = text.strip()
    norm = "".join(_SYMBOL_TO_SUIT.get(ch, ch) for ch in raw).upper()
    if norm in ("JK", "JOKER"):
        return Card(JOKER, 0)
    if norm in ("BIG", "LITTLE", "BIG MOON", "LITTLE MOON"):
        return Card(norm.split()[0], 0)
    m = _STANDARD_RE.match(norm)
    if m:
        rank_txt, suit = m.groups()
        return Card(suit, _RANK_VALUE.get(rank_txt) or int(rank_txt))
    m = _MOON_RE.match(norm)
    if m:
        return Card(m.group(1), int(m.group(2)))
    raise CardParseError(gettext(_NOT_A_CARD).format(text=repr(raw)))


# Numbers typed on a page or written in a file: ASCII digits only. '²' and '①' pass
# str.isdigit() and then fail int(); '٣' passes both; none of them is a number here.
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def whole_number(text: object, *, longest: int = 6) -> int | None:
    """The whole number ``text`` spells in the digits 0-9 (a leading + or − allowed), else None.

    >>> whole_number(" −3 "), whole_number("+7"), whole_number("²"), whole_number("①")
    (-3, 7, None, None)
    """
    if not isinstance(text, str):
        return None
    norm = text.strip().replace("\u2212", "-")
    if len(norm) > longest or not _WHOLE_NUMBER.fullmatch(norm):
        return None
    return int(norm)


CARD_SEPARATORS = re.compile(r"[\s,;]+")  # between the cards of a list: spaces, commas, semicolons


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards from text separated by spaces or commas, or from a list.

    >>> parse_cards("7H, 8S")
    (Card('7H'), Card('8S'))
    """
    if isinstance(text, str):
        return tuple(parse_card(p) for p in CARD_SEPARATORS.split(text.strip()) if p)
    return tuple(as_card(c) for c in text)  # a Card as it is (games pass their own cards)


def as_card(card: str | Card) -> Card:
    """A Card from a Card or its text (the pinned APIs accept both)."""
    return card if isinstance(card, Card) else parse_card(card)


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def cards_shown(cards: Iterable[Card]) -> str:
    """Cards in a sentence, as drawn: ``▲5 Big Moon ☾3``."""
    return " ".join(c.symbol for c in cards)


def standard_deck(jokers: int = 0, decks: int = 1) -> tuple[Card, ...]:
    """``decks`` standard 52-card decks, each with ``jokers`` Jokers, in order."""
    one = [Card(s, r) for s in STANDARD_SUITS for r in range(1, 14)]
    one += [Card(JOKER, 0)] * jokers
    return tuple(one * decks)


def moon_deck() -> tuple[Card, ...]:
    """The 52-card Shoot the Moon deck: 4 colours of 1-12, two Big and two Little Moons."""
    cards = [Card(c, n) for c in MOON_COLOURS for n in range(1, 13)]
    cards += [Card(BIG_MOON, 0)] * 2 + [Card(LITTLE_MOON, 0)] * 2
    return tuple(cards)
