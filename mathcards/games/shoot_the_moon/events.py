"""Shoot the Moon events: what happened and why, worded by ``describe(names)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathcards.cards import (
    Card,
    cards_shown,
)
from mathcards.games.base import Event, seat_name
from mathcards.games.shoot_the_moon.rules import HAND_SIZE, _and_names, _explain
from mathcards.i18n import Said, _, ngettext


@dataclass(frozen=True)
class HandDealt(Event):
    """A new round: ``player`` is the dealer."""

    round_number: int
    leader: int
    hand_size: int = HAND_SIZE
    dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        values = {"round": self.round_number, "who": self.who(names), "n": self.hand_size,
                  "leader": seat_name(names, self.leader)}
        if self.dummy:
            return ngettext("Round {round}: {who} deals {n} card each and a face-down dummy "
                            "hand; {leader} leads.",
                            "Round {round}: {who} deals {n} cards each and a face-down "
                            "dummy hand; {leader} leads.", self.hand_size).format(**values)
        return ngettext("Round {round}: {who} deals {n} card each; {leader} leads.",
                        "Round {round}: {who} deals {n} cards each; {leader} leads.",
                        self.hand_size).format(**values)


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card played to the trick; ``player`` is the seat, or dummy's (= num_players)."""

    card: Card
    by_dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        if self.by_dummy:
            return _("Dummy turns up {card}.").format(card=self.card.symbol)
        return _("{who} plays {card}.").format(who=self.who(names), card=self.card.symbol)


@dataclass(frozen=True)
class TrickWon(Event):
    """A finished trick: who took it (``player``; dummy is num_players) and why."""

    cards: tuple[Card, ...]
    players: tuple[int, ...]
    winner_index: int
    rule: str
    reason: str  # the rule's sentence when the trick was taken (``describe`` words it anew)
    chips_change: int = 0

    by_dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        why = _explain(self.cards)[2]  # in the page's language
        if self.by_dummy:
            return _("Dummy takes the trick {cards} ({why}).").format(
                cards=cards_shown(self.cards), why=why)
        return _("{who} takes the trick {cards} ({why}).").format(
            who=self.who(names), cards=cards_shown(self.cards), why=why)


@dataclass(frozen=True)
class ChipsChanged(Event):
    """Chips won or lost: ``player`` is the seat (partnerships: the side's first seat)."""

    delta: int
    reason: Said | str  # said in the language of the page that shows it
    chips: int
    seats: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        who = self.who(names)
        if len(self.seats) > 1:
            who = _and_names([seat_name(names, s) for s in self.seats])
        sign = "+" if self.delta >= 0 else "−"
        change = ngettext("{sign}{n} chip", "{sign}{n} chips", abs(self.delta)).format(
            sign=sign, n=abs(self.delta))
        return ngettext("{who}: {change}, {reason}; now {n} chip.",
                        "{who}: {change}, {reason}; now {n} chips.", self.chips).format(
            who=who, change=change, reason=self.reason, n=self.chips)


@dataclass(frozen=True)
class RoundScored(Event):
    """End of a round: tricks per seat, the tricks each seat's side counted, chips won."""

    round_number: int
    tricks: tuple[int, ...]
    side_tricks: tuple[int, ...]
    awards: tuple[int, ...]
    chips: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        parts = [
            _("{who}: {tricks}, {chips}").format(
                who=seat_name(names, i),
                tricks=ngettext("{n} trick", "{n} tricks", t).format(n=t),
                chips=ngettext("+{n} chip", "+{n} chips", a).format(n=a))
            for i, (t, a) in enumerate(zip(self.side_tricks, self.awards, strict=True))
        ]
        return _("Round {round} scored: {parts}.").format(round=self.round_number,
                                                          parts="; ".join(parts))


@dataclass(frozen=True)
class GameWon(Event):
    """The game is won (partnerships: ``seats`` are both or all partners)."""

    chips: int = 0
    seats: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        if len(self.seats) > 1:
            who = _and_names([seat_name(names, s) for s in self.seats])
            return ngettext("{who} win with {n} chip.", "{who} win with {n} chips.",
                            self.chips).format(who=who, n=self.chips)
        return ngettext("{who} wins with {n} chip.", "{who} wins with {n} chips.",
                        self.chips).format(who=self.who(names), n=self.chips)

