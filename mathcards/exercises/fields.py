"""The fields of an exercise: cards, numbers, dice, a Suns to Moons deck, and their templates.

A field is written in the card notation of the rulings (``7H 10S QD``,
``R12 BIG``) or as a *template* that each student's variant fills in:

- cards: ``5 random cards``, ``3 random red cards``, ``2 random hearts``,
  ``4 random number cards`` (2-10 only), ``5 random cards with jokers``,
  ``2 random cards from 7H 8H 9H 10H``;
- whole numbers: ``-3..3`` (both ends included; ``−`` works as a minus);
- dice: ``random`` (two dice), or two numbers/ranges like ``[3, 1..6]``;
- a Suns to Moons deck: ``3 random cards`` (a centre card and signed plays).

Every problem is a ``FieldError`` whose message says what is accepted.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from mathcards.cards import CARD_SEPARATORS, Card, moon_deck, parse_card, standard_deck
from mathcards.errors import CardParseError, MathCardsError
from mathcards.games.registry import game_spec, game_specs
from mathcards.games.suns_to_moons import (
    MoveTextError,
    Play,
    card_values,
    move_text,
    parse_move,
    within_bound,
)
from mathcards.i18n import N_, and_list, gettext

MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})
# Each refusal is one sentence in the catalog (the card letters are the English notation in
# every language: mathcards.cards); a template's words are English in every language too,
# so they are filled in ({examples}), never translated.
_NOT_A_CARD = N_("{text} is not a card: ranks are A 2–10 J Q K, suits S H D C (JK for a Joker)")
_NOT_A_MOON_CARD = N_("{text} is not a card: Shoot the Moon cards are R G P B with 1–12, BIG, "
                      "LITTLE")
_TEMPLATES = ("'5 random cards', '3 random red cards', '2 random hearts', "
              "'4 random number cards', '5 random cards with jokers'")
_LAST_TEMPLATE = "'2 random cards from 7H 8H 9H'"
_MOON_ONLY = {"green": N_("{text}: green cards are Shoot the Moon cards; use red or black"),
              "purple": N_("{text}: purple cards are Shoot the Moon cards; use red or black"),
              "blue": N_("{text}: blue cards are Shoot the Moon cards; use red or black")}


class FieldError(MathCardsError):
    """A field value an exercise cannot use; the message says what would work."""


# --- decks of the games -----------------------------------------------------------------
def _moon_cards(game: str) -> bool:
    """Whether ``game`` is played with Shoot the Moon's cards (its ``GameSpec.deck``)."""
    return game_spec(game).deck == "moon"


def _joker_games() -> str:
    return and_list(s.title for s in game_specs() if s.jokers)  # titles stay as they are


def game_deck(game: str, *, jokers: bool = False) -> tuple[Card, ...]:
    """Every card a game's exercises may draw from (one deck)."""
    if _moon_cards(game):
        return moon_deck()
    return standard_deck(jokers=2 if jokers else 0)


def read_card(text: Any, game: str) -> Card:
    """One card of ``game`` from its text, or a FieldError that says what is accepted."""
    if isinstance(text, Card):
        card, raw = text, str(text)
    elif isinstance(text, bool) or not isinstance(text, (str, int)):
        raise FieldError(gettext("{text} is not a card: write cards like 7H, 10S, QD").format(
            text=repr(text)))
    else:
        raw = str(text).strip()
        try:
            card = parse_card(raw)
        except CardParseError:
            refusal = _NOT_A_MOON_CARD if _moon_cards(game) else _NOT_A_CARD
            raise FieldError(gettext(refusal).format(text=repr(raw))) from None
    spec = game_spec(game)
    if spec.deck == "moon":
        if card.is_standard or card.is_joker:
            raise FieldError(gettext(
                "{text} is not a Shoot the Moon card: Shoot the Moon cards are R G P B with "
                "1–12, BIG, LITTLE").format(text=repr(raw)))
    elif not (card.is_standard or (card.is_joker and spec.jokers)):
        refusal = (N_("{text}: {game} uses no Jokers: ranks are A 2–10 J Q K, suits S H D C "
                      "(JK for a Joker)") if card.is_joker else
                   N_("{text}: {game} uses no Shoot the Moon cards: ranks are A 2–10 J Q K, "
                      "suits S H D C (JK for a Joker)"))
        # the game's name as its engine writes it
        raise FieldError(gettext(refusal).format(text=repr(raw), game=spec.title))
    return card


def split_cards(value: Any) -> list[Any]:
    """Card texts (or cards) from ``"7H 8S, 9D"``, a YAML list, or a tuple of cards."""
    if isinstance(value, str):
        return [p for p in CARD_SEPARATORS.split(value.strip()) if p]
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, Card) or (isinstance(value, int) and not isinstance(value, bool)):
        return [value]
    raise FieldError(gettext("{value} is not a list of cards: write them like 7H 10S QD").format(
        value=shown(value)))


def shown(value: Any) -> str:
    """A value quoted for a message: text and numbers as given, anything else by its kind."""
    if isinstance(value, (str, int, float)) or value is None:
        return repr(value if not isinstance(value, str) else value[:40])
    if isinstance(value, Card):
        return repr(str(value))
    return gettext("a {kind}").format(kind=type(value).__name__)


# --- templates --------------------------------------------------------------------------
_CARDS_TEMPLATE = re.compile(
    r"^([0-9]+)\s+random\s+(?:(red|black|green|purple|blue|number|face|hearts?|spades?|diamonds?"
    r"|clubs?)\s+)?cards?(\s+with\s+jokers?)?(?:\s+from\s+(.+))?$"
    r"|^([0-9]+)\s+random\s+(hearts|spades|diamonds|clubs)(\s+with\s+jokers?)?$",
    re.IGNORECASE,
)
_RANGE = re.compile(r"^\s*(-?[0-9]+)\s*\.\.\s*(-?[0-9]+)\s*$")  # digits 0-9 only
_SUIT_WORDS = {"heart": "H", "spade": "S", "diamond": "D", "club": "C"}
_MOON_COLOUR_WORDS = {"red": "R", "green": "G", "purple": "P", "blue": "B"}


@dataclass(frozen=True)
class CardsTemplate:
    """``N random cards``: drawn for each student from what the other fields left."""

    count: int
    kind: str | None  # red, black, hearts, number, ...
    jokers: bool
    source: tuple[Card, ...] | None
    text: str

    def pool_filter(self, card: Card) -> bool:
        k = self.kind
        if k is None:
            return True
        if card.is_joker:
            return True
        if card.is_standard:
            if k in ("red", "black"):
                return card.colour == k
            if k == "number":
                return 2 <= card.rank <= 10
            if k == "face":
                return card.rank >= 11
            return card.suit == _SUIT_WORDS.get(k.rstrip("s"), "?")
        if card.is_moon_card:
            return card.suit == _MOON_COLOUR_WORDS.get(k, "?")
        return False


@dataclass(frozen=True)
class IntTemplate:
    """``lo..hi``: a whole number from lo to hi, both included."""

    low: int
    high: int
    text: str

    def draw(self, rng: random.Random) -> int:
        return rng.randint(self.low, self.high)


@dataclass(frozen=True)
class DeckTemplate:
    """``N random cards`` for a Suns to Moons deck: a centre card, then signed plays."""

    count: int
    text: str

    def draw(self, pool: list[Card], rng: random.Random) -> tuple[DeckPlay, ...]:
        """A random deck of ``count`` cards from ``pool`` (taken out of it): the centre
        card, then each card laid with a sign and value that keep the deck within the
        bound when one can."""
        cards = [c for c in pool if not c.is_joker][:self.count]
        for card in cards:
            pool.remove(card)
        plays = [DeckPlay(cards[0], 1, cards[0].rank)]
        value = cards[0].rank
        for card in cards[1:]:
            options = [(s, v) for v in card_values(card) for s in (1, -1)]
            inside = [(s, v) for s, v in options if within_bound(value + s * v)]
            sign, val = rng.choice(inside or options)
            plays.append(DeckPlay(card, sign, val))
            value += sign * val
        return tuple(plays)


def is_template(value: Any) -> bool:
    if isinstance(value, (CardsTemplate, IntTemplate, DeckTemplate)):
        return True
    if isinstance(value, (list, tuple)):
        return any(is_template(v) for v in value)
    return False


def cards_template(text: str, game: str) -> CardsTemplate | None:
    """A cards template from its text, None when the text is not one."""
    norm = " ".join(text.split())
    m = _CARDS_TEMPLATE.match(norm)
    if not m:
        if re.match(r"^[0-9]+\s+random\b", norm, re.IGNORECASE):
            raise FieldError(gettext("{text} is not a template I know: write {examples} or "
                                     "{last}").format(text=repr(text), examples=_TEMPLATES,
                                                      last=_LAST_TEMPLATE))
        return None
    if m.group(1) is not None:
        count, kind, jokers, source = m.group(1), m.group(2), m.group(3), m.group(4)
    else:
        count, kind, jokers, source = m.group(5), m.group(6), m.group(7), None
    n = int(count)
    if not 1 <= n <= 20:
        raise FieldError(gettext("{text}: draw 1 to 20 random cards").format(text=repr(text)))
    if jokers and not game_spec(game).jokers:
        raise FieldError(gettext("{text}: only {games} uses Jokers").format(
            text=repr(text), games=_joker_games()))
    kind = kind.lower() if kind else None
    if kind in ("green", "purple", "blue") and not _moon_cards(game):
        raise FieldError(gettext(_MOON_ONLY[kind]).format(text=repr(text)))
    src = None
    if source:
        src = tuple(read_card(c, game) for c in split_cards(source))
        if len(src) < n:
            raise FieldError(gettext("{text}: cannot draw {n} cards from only {given}").format(
                text=repr(text), n=n, given=len(src)))
    return CardsTemplate(n, kind, bool(jokers), src, norm)


def int_template(value: Any) -> IntTemplate | None:
    if not isinstance(value, str):
        return None
    m = _RANGE.match(value.translate(MINUSES))
    if not m:
        return None
    lo, hi = int(m.group(1)), int(m.group(2))
    if lo > hi:
        raise FieldError(gettext("{text}: the range runs from the smaller number, like {range}")
                         .format(text=repr(value), range=f"{hi}..{lo}"))
    return IntTemplate(lo, hi, value)


# --- field readers (fixed value or template) --------------------------------------------
def read_int(value: Any, *, low: int | None = None, high: int | None = None,
             what: str = N_("a whole number")) -> int | IntTemplate:
    """A whole number, or a ``lo..hi`` template, within ``low..high``; ``what`` (marked
    with ``N_``) names it in a refusal, in the reader's language."""
    tmpl = int_template(value)
    if tmpl is not None:
        for end in (tmpl.low, tmpl.high):
            _check_bounds(end, low, high, what, value)
        return tmpl
    if isinstance(value, str):
        text = value.translate(MINUSES).strip()
        if re.fullmatch(r"[+-]?[0-9]+", text):
            value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(gettext("{text} is not {what}: write a number like 4, or a range like "
                                 "-3..3").format(text=repr(value), what=gettext(what)))
    _check_bounds(value, low, high, what, value)
    return value


def _check_bounds(n: int, low: int | None, high: int | None, what: str, shown: Any) -> None:
    if (low is not None and n < low) or (high is not None and n > high):
        lo = "" if low is None else str(low)
        hi = "" if high is None else str(high)
        raise FieldError(gettext("{text}: {what} must be from {low} to {high}").format(
            text=repr(shown), what=gettext(what), low=lo, high=hi))


def read_cards(value: Any, game: str, *, low: int = 1,
               high: int = 20) -> tuple[Card, ...] | CardsTemplate:
    """A list of cards of ``game`` (or a cards template)."""
    if isinstance(value, str):
        tmpl = cards_template(value, game)
        if tmpl is not None:
            if not low <= tmpl.count <= high:
                raise FieldError(gettext("{text}: this field takes {low} to {high} cards")
                                 .format(text=repr(value), low=low, high=high))
            return tmpl
    cards = tuple(read_card(c, game) for c in split_cards(value))
    if not low <= len(cards) <= high:
        raise FieldError(gettext("this field takes {low} to {high} cards, not {n}").format(
            low=low, high=high, n=len(cards)))
    return cards


def read_one_card(value: Any, game: str, *,
                  allow_none: bool = False) -> Card | CardsTemplate | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "-", "")):
        if allow_none:
            return None
        raise FieldError(gettext("this field needs a card, like 7H"))
    if isinstance(value, str):
        tmpl = cards_template(value, game)
        if tmpl is not None:
            if tmpl.count != 1:
                raise FieldError(gettext("{text}: this field is one card: write {template}")
                                 .format(text=repr(value), template="'1 random card'"))
            return tmpl
    parts = split_cards(value)
    if len(parts) != 1:
        raise FieldError(gettext("{text}: this field is one card, like 7H").format(
            text=repr(value)))
    return read_card(parts[0], game)


def read_dice(value: Any) -> tuple[Any, Any]:
    """Two dice 1-6: ``[3, 5]``, ``3 5``, ``random`` or ranges ``[1..6, 2]``."""
    if isinstance(value, str) and value.strip().lower() in ("random", "random dice"):
        return (IntTemplate(1, 6, "1..6"), IntTemplate(1, 6, "1..6"))
    parts = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(parts, (list, tuple)) or len(parts) != 2:
        raise FieldError(gettext("{text} is not two dice: write them like [3, 5] or {random}")
                         .format(text=repr(value), random="'random'"))
    return tuple(read_int(p, low=1, high=6, what=N_("a die")) for p in parts)  # type: ignore[return-value]


# --- Suns to Moons decks ----------------------------------------------------------------
_CENTRE = re.compile(r"^([+-]?)(.+?)(?:=(1|14))?$")


class DeckPlay(Play):
    """One card of an exercise's deck: an engine ``Play`` written in the move notation
    (``+7H``, ``-10S``, ``JK``); the centre card is ``DeckPlay(card, 1, rank)``."""

    def __str__(self) -> str:
        return move_text(self)


def _centre_card(text: str) -> DeckPlay:
    """The centre card: unsigned, counting + its value (an Ace 1, a Joker 0)."""
    m = _CENTRE.match(text)
    assert m is not None  # the pattern matches any text
    sign_text, card_text, ace = m.groups()
    card = read_card(card_text, "suns_to_moons")
    if card.is_joker:
        if sign_text or ace:
            raise FieldError(gettext("{text}: a Joker has no sign: write JK").format(
                text=repr(text)))
        return DeckPlay(card, 0, 0)
    if ace and card.rank != 1:
        raise FieldError(gettext("{text}: only an Ace chooses its value (=1 or =14)").format(
            text=repr(text)))
    if sign_text:
        raise FieldError(gettext("{text}: the centre card has no sign (it counts + its "
                                 "value): write {card}").format(text=repr(text), card=card))
    if ace == "14":
        raise FieldError(gettext("{text}: an Ace as centre card counts 1: write {card}").format(
            text=repr(text), card=card))
    return DeckPlay(card, 1, card.rank)


def read_deck(value: Any) -> tuple[DeckPlay, ...] | DeckTemplate:
    """A Suns to Moons deck: ``7H -10S +6D JK +AS=14`` (centre card first, unsigned).

    The cards after the centre card are moves in the engine's one notation
    (``parse_move``)."""
    if isinstance(value, str):
        norm = " ".join(value.split())
        m = re.fullmatch(r"([0-9]+)\s+random\s+cards?", norm, re.IGNORECASE)
        if m:
            n = int(m.group(1))
            if not 1 <= n <= 12:
                raise FieldError(gettext("{text}: a deck template has 1 to 12 cards").format(
                    text=repr(value)))
            return DeckTemplate(n, norm)
    tokens = split_cards(value)
    if not tokens:
        raise FieldError(gettext("the deck needs at least its centre card, like 7H"))
    plays = [_centre_card(str(tokens[0]).translate(MINUSES).strip())]
    for token in tokens[1:]:
        try:
            play = parse_move(None, str(token).strip())
        except MoveTextError as exc:
            raise FieldError(str(exc)) from None
        if not isinstance(play, Play):
            raise FieldError(gettext("{text} is not a card of the deck: write +7H, -10S, JK or "
                                     "+AS=14").format(text=repr(token)))
        plays.append(DeckPlay(play.card, play.sign, play.value))
    return tuple(plays)
