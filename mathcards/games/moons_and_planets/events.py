"""Moons and Planets events: what happened, with the derivations the explainer needs,
worded by ``describe(names)`` (seat names from the table, else "Player N")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathcards.cards import SUIT_NAMES, Card, cards_shown
from mathcards.games.base import Event, seat_name
from mathcards.games.moons_and_planets.rules import (
    HAND_SIZE,
    PrizeRanking,
    moon_reason,
    planet_reason,
)
from mathcards.i18n import Said, _, ngettext


# --- events -------------------------------------------------------------------------
@dataclass(frozen=True)
class CardsDealt(Event):
    hand_size: int = HAND_SIZE
    num_players: int = 2

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{size} cards dealt to each of {n} players").format(size=self.hand_size,
                                                                    n=self.num_players)


@dataclass(frozen=True)
class PrizesDealt(Event):
    count: int = 0

    def describe(self, names: Sequence[str] = ()) -> str:
        return ngettext("{n} prize dealt face down", "{n} prizes dealt face down",
                        self.count).format(n=self.count)


@dataclass(frozen=True)
class PrizeTurned(Event):
    index: int
    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} turns prize {n} face up: {card}").format(
            who=self.who(names), n=self.index + 1, card=self.card.symbol)


@dataclass(frozen=True)
class SatOut(Event):
    reason: Said | str = ""  # said in the language of the page that shows it

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} sits this trick out: {reason}").format(who=self.who(names),
                                                               reason=self.reason)


@dataclass(frozen=True)
class CardPlayed(Event):
    card: Card
    follows: bool = True
    led: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        values = {"who": self.who(names), "card": self.card.symbol}
        if self.led:
            return _("{who} leads {card}").format(**values)
        if self.follows:
            return _("{who} follows with {card}").format(**values)
        return _("{who} discards {card}").format(**values)


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

    def describe(self, names: Sequence[str] = ()) -> str:
        parts = ", ".join(
            _("{card} takes prize {n}").format(card=r.card.symbol, n=r.place)
            if r.prize is not None else _("{card} takes no prize").format(card=r.card.symbol)
            for r in self.ranking_reasons)
        led = _(SUIT_NAMES[self.cards[0].suit])
        if all(r.follows for r in self.ranking_reasons):
            text = _("{parts}: all follow {suit}, highest first").format(parts=parts, suit=led)
        else:
            text = _("{parts}: cards following {suit} rank above discards").format(parts=parts,
                                                                                   suit=led)
        if self.returned:
            n = len(self.returned)
            text = ngettext("{text}; {n} untaken prize goes to the bottom of the deck",
                            "{text}; {n} untaken prizes go to the bottom of the deck",
                            n).format(text=text, n=n)
        return text


@dataclass(frozen=True)
class PlanetDeclared(Event):
    cards: tuple[Card, ...] = ()
    reason: str = ""  # the rule's sentence when declared (``describe`` words it anew)

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} declares a planet: {reason}").format(who=self.who(names),
                                                             reason=planet_reason(self.cards))


@dataclass(frozen=True)
class PlanetSwitched(Event):
    old_cards: tuple[Card, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} takes the 5♣: it becomes their planet and {cards} go back to their "
                 "hand").format(who=self.who(names), cards=cards_shown(self.old_cards))


@dataclass(frozen=True)
class MoonMade(Event):
    cards: tuple[Card, ...] = ()
    reason: str = ""  # the rule's sentence when made (``describe`` words it anew)

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} makes a moon: {reason}").format(who=self.who(names),
                                                        reason=moon_reason(self.cards))


@dataclass(frozen=True)
class MoonExtended(Event):
    moon: int = 0
    cards: tuple[Card, ...] = ()
    result: tuple[Card, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} adds {cards} to moon {n}: {reason}").format(
            who=self.who(names), cards=cards_shown(self.cards), n=self.moon + 1,
            reason=moon_reason(self.result))


@dataclass(frozen=True)
class MoonsRegrouped(Event):
    groups: tuple[tuple[Card, ...], ...] = ()
    added: tuple[Card, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} regroups their moons as {moons}, putting down {cards}").format(
            who=self.who(names), moons=" | ".join(cards_shown(g) for g in self.groups),
            cards=cards_shown(self.added))


@dataclass(frozen=True)
class DeckReshuffled(Event):
    count: int = 0

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("the deck ran out: the {n} discards are shuffled to make a new deck").format(
            n=self.count)


@dataclass(frozen=True)
class GameWon(Event):
    winners: tuple[int, ...] = ()
    reason: Said | str = ""  # said in the language of the page that shows it

    def describe(self, names: Sequence[str] = ()) -> str:
        who = seat_name(names, self.winners[0]) if self.winners else ""
        for w in self.winners[1:]:  # "Ana and Zoe", "Ana and Bo and Zoe"
            who = _("{first} and {last}").format(first=who, last=seat_name(names, w))
        return ngettext("{who} wins: {reason}", "{who} win: {reason}", len(self.winners)).format(
            who=who, reason=self.reason)

