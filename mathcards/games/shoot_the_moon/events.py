"""Shoot the Moon events: what happened and why, worded by ``describe(names)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathcards.cards import (
    Card,
    cards_shown,
)
from mathcards.games.base import Event, plural, seat_name
from mathcards.games.shoot_the_moon.rules import HAND_SIZE, _and_names


@dataclass(frozen=True)
class HandDealt(Event):
    """A new round: ``player`` is the dealer."""

    round_number: int
    leader: int
    hand_size: int = HAND_SIZE
    dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        extra = " and a face-down dummy hand" if self.dummy else ""
        return (
            f"Round {self.round_number}: {self.who(names)} deals {self.hand_size} cards "
            f"each{extra}; {seat_name(names, self.leader)} leads."
        )


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card played to the trick; ``player`` is the seat, or dummy's (= num_players)."""

    card: Card
    by_dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        who = "Dummy turns up" if self.by_dummy else f"{self.who(names)} plays"
        return f"{who} {self.card.symbol}."


@dataclass(frozen=True)
class TrickWon(Event):
    """A finished trick: who took it (``player``; dummy is num_players) and why."""

    cards: tuple[Card, ...]
    players: tuple[int, ...]
    winner_index: int
    rule: str
    reason: str
    chips_change: int = 0

    by_dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        who = "Dummy" if self.by_dummy else self.who(names)
        return f"{who} takes the trick {cards_shown(self.cards)} ({self.reason})."


@dataclass(frozen=True)
class ChipsChanged(Event):
    """Chips won or lost: ``player`` is the seat (partnerships: the side's first seat)."""

    delta: int
    reason: str
    chips: int
    seats: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        who = self.who(names)
        if len(self.seats) > 1:
            who = _and_names([seat_name(names, s) for s in self.seats])
        sign = "+" if self.delta >= 0 else "−"
        return (f"{who}: {sign}{plural(abs(self.delta), 'chip')}, {self.reason}; now "
                f"{plural(self.chips, 'chip')}.")


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
            f"{seat_name(names, i)}: {plural(t, 'trick')}, +{plural(a, 'chip')}" for i, (t, a) in
            enumerate(zip(self.side_tricks, self.awards, strict=True))
        ]
        return f"Round {self.round_number} scored: " + "; ".join(parts) + "."


@dataclass(frozen=True)
class GameWon(Event):
    """The game is won (partnerships: ``seats`` are both or all partners)."""

    chips: int = 0
    seats: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        if len(self.seats) > 1:
            who = _and_names([seat_name(names, s) for s in self.seats])
            return f"{who} win with {plural(self.chips, 'chip')}."
        return f"{self.who(names)} wins with {plural(self.chips, 'chip')}."

