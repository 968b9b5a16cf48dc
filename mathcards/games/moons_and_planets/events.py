"""Moons and Planets events: what happened, with the derivations the explainer needs,
worded by ``describe(names)`` (seat names from the table, else "Player N")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathcards.cards import SUIT_NAMES, Card, cards_shown
from mathcards.games.base import Event, plural, seat_name
from mathcards.games.moons_and_planets.rules import HAND_SIZE, PrizeRanking, moon_reason


# --- events -------------------------------------------------------------------------
@dataclass(frozen=True)
class CardsDealt(Event):
    hand_size: int = HAND_SIZE
    num_players: int = 2

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.hand_size} cards dealt to each of {self.num_players} players"


@dataclass(frozen=True)
class PrizesDealt(Event):
    count: int = 0

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.count} prize{'s' if self.count != 1 else ''} dealt face down"


@dataclass(frozen=True)
class PrizeTurned(Event):
    index: int
    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.who(names)} turns prize {self.index + 1} face up: {self.card.symbol}"


@dataclass(frozen=True)
class SatOut(Event):
    reason: str = ""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.who(names)} sits this trick out: {self.reason}"


@dataclass(frozen=True)
class CardPlayed(Event):
    card: Card
    follows: bool = True
    led: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        how = "leads" if self.led else ("follows with" if self.follows else "discards")
        return f"{self.who(names)} {how} {self.card.symbol}"


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
            go = "goes" if len(self.returned) == 1 else "go"
            text += (f"; {plural(len(self.returned), 'untaken prize')} {go} to the bottom of "
                     "the deck")
        return text


@dataclass(frozen=True)
class PlanetDeclared(Event):
    cards: tuple[Card, ...] = ()
    reason: str = ""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.who(names)} declares a planet: {self.reason}"


@dataclass(frozen=True)
class PlanetSwitched(Event):
    old_cards: tuple[Card, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{self.who(names)} takes the 5♣: it becomes their planet and "
            f"{cards_shown(self.old_cards)} go back to their hand"
        )


@dataclass(frozen=True)
class MoonMade(Event):
    cards: tuple[Card, ...] = ()
    reason: str = ""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.who(names)} makes a moon: {self.reason}"


@dataclass(frozen=True)
class MoonExtended(Event):
    moon: int = 0
    cards: tuple[Card, ...] = ()
    result: tuple[Card, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{self.who(names)} adds {cards_shown(self.cards)} to moon {self.moon + 1}: "
            f"{moon_reason(self.result)}"
        )


@dataclass(frozen=True)
class MoonsRegrouped(Event):
    groups: tuple[tuple[Card, ...], ...] = ()
    added: tuple[Card, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{self.who(names)} regroups their moons as "
            + " | ".join(cards_shown(g) for g in self.groups)
            + f", putting down {cards_shown(self.added)}"
        )


@dataclass(frozen=True)
class DeckReshuffled(Event):
    count: int = 0

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"the deck ran out: the {self.count} discards are shuffled to make a new deck"


@dataclass(frozen=True)
class GameWon(Event):
    winners: tuple[int, ...] = ()
    reason: str = ""

    def describe(self, names: Sequence[str] = ()) -> str:
        who = " and ".join(seat_name(names, w) for w in self.winners)
        return f"{who} win{'s' if len(self.winners) == 1 else ''}: {self.reason}"

