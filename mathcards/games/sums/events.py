"""Sums events: what happened and why, worded by ``describe(names)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathcards.cards import Card
from mathcards.games.base import Event, possessive, seat_name
from mathcards.games.sums.rules import CaptureWay
from mathcards.i18n import _, pgettext


def whose(names: Sequence[str], seat: int | None, card: Card, *, start: bool = False) -> str:
    """A seat's card in a sentence: "Ana's 7♥", "your 7♥" ("Your 7♥" at the ``start``);
    one phrase per language, since the owner goes after the card in some ("el 7♥ de Ana")."""
    owner = possessive(names, seat, start=start)
    if owner in ("Your", "your"):
        text = pgettext("sentence start", "Your {card}") if start else _("your {card}")
        return text.format(card=card.symbol)
    text = pgettext("sentence start", "{owner}'s {card}") if start else _("{owner}'s {card}")
    return text.format(owner=owner.removesuffix("'s"), card=card.symbol)


# --- events ---------------------------------------------------------------------
@dataclass(frozen=True)
class CardDealtFaceUp(Event):
    """A card dealt face up onto a player's side at the start."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} was dealt {card} face up.").format(
            who=seat_name(names, self.player), card=self.card.symbol)


@dataclass(frozen=True)
class CardDrawn(Event):
    """A player drew the top card of a community pile."""

    pile: int
    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} drew {card} from pile {pile}.").format(
            who=seat_name(names, self.player), card=self.card.symbol, pile=self.pile + 1)


@dataclass(frozen=True)
class CardPlayed(Event):
    """A player put a card from their hand face up on their side."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} played {card}.").format(who=seat_name(names, self.player),
                                                card=self.card.symbol)


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
        return _("{played} with {helper} makes {equation}: it threatens {target}.").format(
            played=whose(names, self.player, self.played, start=True),
            helper=self.helper.symbol, equation=self.way.equation,
            target=whose(names, self.target_owner, self.target))


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
        return _("{who} countered with {card}: with {helper} it makes {equation}, so "
                 "{target} is threatened instead.").format(
            who=seat_name(names, self.player), card=self.card.symbol, helper=self.helper.symbol,
            equation=self.way.equation, target=whose(names, self.target_owner, self.target))


@dataclass(frozen=True)
class CounterDeclined(Event):
    """The threatened player did not counter: the capture goes ahead."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} did not counter.").format(who=seat_name(names, self.player))


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
        return _("{who} captured {card} ({equation}).").format(
            who=seat_name(names, self.player), card=whose(names, self.from_player, self.card),
            equation=self.way.equation)


@dataclass(frozen=True)
class CardTakenBack(Event):
    """("return" variant) A player took a face-up card back into their hand."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("{who} took {card} back into their hand.").format(
            who=seat_name(names, self.player), card=self.card.symbol)


@dataclass(frozen=True)
class TurnSkipped(Event):
    """A player's regular turn is skipped because they used it to counter."""

    def describe(self, names: Sequence[str] = ()) -> str:
        if possessive(names, self.player) == "your":
            return _("Your turn is skipped: it was used to counter.")
        return _("{owner}'s turn is skipped: it was used to counter.").format(
            owner=possessive(names, self.player).removesuffix("'s"))


@dataclass(frozen=True)
class LastPlay(Event):
    """A pile is empty at the start of this player's turn: one last play, then the end."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return _("A pile is empty: {who} may play one last card without drawing, then the "
                 "game ends.").format(who=seat_name(names, self.player))


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over; ``scores`` are the final points by the table."""

    scores: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        listed = ", ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(self.scores))
        return _("The game is over. Scores: {scores}.").format(scores=listed)
