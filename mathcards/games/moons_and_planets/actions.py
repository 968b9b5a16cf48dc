"""Moons and Planets moves: what a player may do, with its stable save name in the game."""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from typing import Any

from mathcards.cards import Card, as_card, cards_shown
from mathcards.errors import CardParseError, MathCardsError
from mathcards.games.moons_and_planets.rules import _cards, _in_order, _layout_key
from mathcards.i18n import _


def _coerce_cards(obj: Any) -> None:
    """Cards from outside input, in the one order the engine lists them (``_in_order``):
    the same cards named in another order are the same move."""
    object.__setattr__(obj, "cards", _in_order(_cards(obj.cards)))


@dataclass(frozen=True)
class TurnPrize:
    """Turn prize ``index`` (0 = the first prize) face up before leading."""

    index: int

    def __post_init__(self) -> None:
        if isinstance(self.index, bool) or not isinstance(self.index, int):
            raise MathCardsError(
                _("a prize is chosen by its number (0 = the first prize), not {value}").format(
                    value=repr(self.index))
            )

    def __str__(self) -> str:
        return _("turn prize {n} face up").format(n=self.index + 1)


@dataclass(frozen=True)
class PlayCard:
    """Play one card from your hand to the trick."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return _("play {card}").format(card=self.card.symbol)


@dataclass(frozen=True)
class _PutDownCards:
    """A move putting cards from the hand down as one group."""

    cards: tuple[Card, ...]

    # True only from the move search, whose cards are already Cards in the one order:
    # not a field (never saved, never compared), it skips re-checking them
    listed: InitVar[bool] = False

    def __post_init__(self, listed: bool) -> None:
        if not listed:
            _coerce_cards(self)


@dataclass(frozen=True)
class DeclarePlanet(_PutDownCards):
    """Put down your planet."""

    def __str__(self) -> str:
        return _("declare the planet {cards}").format(cards=cards_shown(self.cards))


@dataclass(frozen=True)
class MakeMoon(_PutDownCards):
    """Put down a new moon from your hand."""

    def __str__(self) -> str:
        return _("make the moon {cards}").format(cards=cards_shown(self.cards))


@dataclass(frozen=True)
class AddToMoon:
    """Add cards from your hand to your moon number ``moon`` (0 = the first)."""

    moon: int
    cards: tuple[Card, ...]
    listed: InitVar[bool] = False  # as in _PutDownCards

    def __post_init__(self, listed: bool) -> None:
        if not listed:
            _coerce_cards(self)

    def __str__(self) -> str:
        number = self.moon + 1 if isinstance(self.moon, int) else self.moon
        return _("add {cards} to moon {n}").format(cards=cards_shown(self.cards), n=number)


@dataclass(frozen=True)
class Regroup:
    """Replace all your moons by new moons made of the same cards plus cards from your hand.

    The moons are kept in one order (each low to high, the lowest moon first), so the
    same layout named in another order is the same move.
    """

    groups: tuple[tuple[Card, ...], ...]
    listed: InitVar[bool] = False  # as in _PutDownCards

    def __post_init__(self, listed: bool) -> None:
        if listed:
            return
        if isinstance(self.groups, str):
            raise CardParseError(_("write regrouped moons as a list of card lists"))
        value = tuple(_cards(g) for g in self.groups)  # _cards keeps a tuple of Cards as is
        # one order for the same moons (see _coerce_cards): each low to high, lowest first
        object.__setattr__(
            self, "groups", tuple(sorted((_in_order(g) for g in value), key=_layout_key))
        )

    def __str__(self) -> str:
        return _("regroup the moons as {moons}").format(
            moons=" | ".join(cards_shown(g) for g in self.groups))


@dataclass(frozen=True)
class Done:
    """Finish putting cards down."""

    def __str__(self) -> str:
        return _("done putting cards down")


PUT_DOWN_ACTIONS = (DeclarePlanet, MakeMoon, AddToMoon, Regroup, Done)


# --- moves the engine lists, shared where they recur -------------------------------
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
