"""Sums events: what happened and why, worded by ``describe(names)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathcards.cards import Card
from mathcards.games.base import Event, possessive, seat_name
from mathcards.games.sums.rules import CaptureWay


# --- events ---------------------------------------------------------------------
@dataclass(frozen=True)
class CardDealtFaceUp(Event):
    """A card dealt face up onto a player's side at the start."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} was dealt {self.card.symbol} face up."


@dataclass(frozen=True)
class CardDrawn(Event):
    """A player drew the top card of a community pile."""

    pile: int
    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} drew {self.card.symbol} from pile {self.pile + 1}."


@dataclass(frozen=True)
class CardPlayed(Event):
    """A player put a card from their hand face up on their side."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} played {self.card.symbol}."


@dataclass(frozen=True)
class CaptureThreatened(Event):
    """A play makes an opponent's card: played op helper = target (or its negative)."""

    played: Card
    helper: Card
    op: str
    target: Card
    target_owner: int

    @property
    def way(self) -> CaptureWay:
        """The capture's way (the engine's): played op helper = target, with its sign."""
        return CaptureWay(self.target, self.helper, self.op, self.target.rank, self.played)

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{possessive(names, self.player, start=True)} {self.played.symbol} with "
            f"{self.helper.symbol} makes {self.way.equation}: it threatens "
            f"{possessive(names, self.target_owner)} {self.target.symbol}."
        )


@dataclass(frozen=True)
class Countered(Event):
    """The threatened player answered with a card that makes the threatening card."""

    card: Card
    helper: Card
    op: str
    target: Card  # the card now threatened (the one that threatened before)
    target_owner: int

    @property
    def way(self) -> CaptureWay:
        """The counter's way (the engine's): card op helper = target, with its sign."""
        return CaptureWay(self.target, self.helper, self.op, self.target.rank, self.card)

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{seat_name(names, self.player)} countered with {self.card.symbol}: with "
            f"{self.helper.symbol} it makes {self.way.equation}, so "
            f"{possessive(names, self.target_owner)} {self.target.symbol} is threatened instead."
        )


@dataclass(frozen=True)
class CounterDeclined(Event):
    """The threatened player did not counter: the capture goes ahead."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} did not counter."


@dataclass(frozen=True)
class Captured(Event):
    """A card moved from ``from_player``'s side to ``player``'s captured pile."""

    card: Card
    from_player: int
    played: Card
    helper: Card
    op: str

    @property
    def way(self) -> CaptureWay:
        """The capture's way (the engine's): played op helper = card, with its sign."""
        return CaptureWay(self.card, self.helper, self.op, self.card.rank, self.played)

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{seat_name(names, self.player)} captured "
            f"{possessive(names, self.from_player)} {self.card.symbol} ({self.way.equation})."
        )


@dataclass(frozen=True)
class CardTakenBack(Event):
    """("return" variant) A player took a face-up card back into their hand."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{seat_name(names, self.player)} took {self.card.symbol} back into their hand."


@dataclass(frozen=True)
class TurnSkipped(Event):
    """A player's regular turn is skipped because they used it to counter."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return (f"{possessive(names, self.player, start=True)} turn is skipped: it was used "
                "to counter.")


@dataclass(frozen=True)
class LastPlay(Event):
    """A pile is empty at the start of this player's turn: one last play, then the end."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"A pile is empty: {seat_name(names, self.player)} may play one last card without "
            "drawing, then the game ends."
        )


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over; ``scores`` are the final points by the table."""

    scores: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        listed = ", ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(self.scores))
        return f"The game is over. Scores: {listed}."
