"""The Make Ten engine: settings, a position, its transitions, typed moves and a bot."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from mathcards.cards import Card, parse_card, standard_deck
from mathcards.errors import CardParseError
from mathcards.games.base import Event, Game, State, plural, reshuffle, rng_for

TEN = 10  # a card and the card it covers must make this to take the pile
HAND_SIZE = 4
TOP_RANK = 9  # Ace (1) to 9: every card has a partner that makes ten


@dataclass(frozen=True)
class Play:
    """Play one card from your hand onto the pile (``Play(Card("H", 7))``)."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.symbol}"


# --- events ----------------------------------------------------------------------------
@dataclass(frozen=True)
class CardPlayed(Event):
    """A card laid on the pile, over ``covered`` (None: the pile was empty)."""

    card: Card
    covered: Card | None

    @property
    def makes_ten(self) -> bool:
        return self.covered is not None and self.card.rank + self.covered.rank == TEN

    def describe(self, names: Sequence[str] = ()) -> str:
        if self.covered is None:
            return f"{self.who(names)} played {self.card.symbol} on the empty pile."
        total = self.card.rank + self.covered.rank
        verdict = "makes ten" if total == TEN else "does not make ten"
        return (f"{self.who(names)} played {self.card.symbol} on {self.covered.symbol}: "
                f"{self.card.rank} + {self.covered.rank} = {total}, {verdict}.")


@dataclass(frozen=True)
class PileTaken(Event):
    """The pile taken by the player who made ten."""

    cards: tuple[Card, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{self.who(names)} took the pile: {plural(len(self.cards), 'card')}."


@dataclass(frozen=True)
class GameEnded(Event):
    """Every hand is empty: the cards each player took are the scores."""

    scores: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        return "Every hand is empty: the game is over."


# --- the game --------------------------------------------------------------------------
@dataclass(frozen=True)
class MakeTen(Game):
    """Make Ten for 2-4 players."""

    name: ClassVar[str] = "make_ten"
    title: ClassVar[str] = "Make Ten"
    move_example: ClassVar[str] = "play 7H"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    actions: ClassVar[dict[str, type]] = {"play": Play}

    def deck(self) -> tuple[Card, ...]:
        return tuple(c for c in standard_deck() if c.rank <= TOP_RANK)

    def _new_game(self, seed: int) -> MakeTenState:
        cards = list(self.deck())
        rng_for(seed, 0).shuffle(cards)
        n = self.num_players
        hands = tuple(tuple(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(n))
        rest = cards[n * HAND_SIZE:]
        return MakeTenState(game=self, seed=seed, hands=hands, pile=(rest[0],),
                            stock=tuple(rest[1:]), taken=((),) * n, turn=0)

    def _private_deal(self, state: State, rng: random.Random,
                      known_seat: int | None) -> dict[str, Any]:
        """A table's deal: the other hands and the stock are hidden, so the table's secret
        shuffles them (the pile's card is face up: the deal code decides it)."""
        assert isinstance(state, MakeTenState)
        others = [i for i in range(self.num_players) if i != known_seat]
        zones = reshuffle(rng, [*(state.hands[i] for i in others), state.stock])
        hands = list(state.hands)
        for i, zone in zip(others, zones, strict=False):
            hands[i] = zone
        return {"hands": tuple(hands), "stock": zones[-1]}


@dataclass(frozen=True)
class MakeTenObservation:
    """What one seat may see: its own hand, the pile's top card and every count."""

    seat: int
    hand: tuple[Card, ...]
    top: Card | None
    pile_size: int
    stock_size: int
    hand_sizes: tuple[int, ...]
    taken: tuple[int, ...]
    current_player: int | None


# every action of this game: the classes of its ``actions`` (tests/test_typing.py checks)
MakeTenAction: TypeAlias = Play


@dataclass(frozen=True)
class MakeTenState(State[MakeTen, MakeTenAction]):
    hands: tuple[tuple[Card, ...], ...] = ()
    pile: tuple[Card, ...] = ()
    stock: tuple[Card, ...] = ()
    taken: tuple[tuple[Card, ...], ...] = ()
    turn: int = 0

    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(len(cards) for cards in self.taken)

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def _legal_actions(self) -> Collection[Any]:
        return tuple(Play(card) for card in self.hands[self.turn])

    def why_illegal(self, action: Any) -> str:
        return f"you hold no {action.card.symbol}: play a card from your hand"

    def _apply(self, action: Any) -> tuple[dict[str, Any], Iterable[Event]]:
        me, card = self.turn, action.card
        played = CardPlayed(me, card, self.top)
        events: list[Event] = [played]
        hand = list(self.hands[me])
        hand.remove(card)
        pile, stock, taken = (*self.pile, card), self.stock, list(self.taken)
        if played.makes_ten:
            taken[me] = (*taken[me], *pile)
            events.append(PileTaken(me, pile))
            pile, stock = stock[:1], stock[1:]
        if stock:
            hand.append(stock[0])
            stock = stock[1:]
        hands = tuple(tuple(hand) if i == me else h for i, h in enumerate(self.hands))
        n = self.game.num_players
        turn = next(((me + k) % n for k in range(1, n + 1) if hands[(me + k) % n]), me)
        if not any(hands):
            events.append(GameEnded(None, tuple(map(len, taken))))
        return {"hands": hands, "pile": pile, "stock": stock, "taken": tuple(taken),
                "turn": turn}, events

    def observation(self, player: int) -> MakeTenObservation:
        return MakeTenObservation(
            seat=player, hand=self.hands[player], top=self.top, pile_size=len(self.pile),
            stock_size=len(self.stock), hand_sizes=tuple(map(len, self.hands)),
            taken=self.scores, current_player=self.current_player)

    def all_cards(self) -> Iterable[Card]:
        for zone in (*self.hands, self.pile, self.stock, *self.taken):
            yield from zone


# --- typed moves and the bot -----------------------------------------------------------
def parse_move(state: MakeTenState, text: str) -> Play:
    """The legal play ``text`` names (``7H`` or ``play 7H``): ``CardParseError`` when it
    names no card, ``IllegalActionError`` (with the rule) when it is not in the hand."""
    words = text.split()
    if words and words[0].lower() == "play":
        words = words[1:]
    if len(words) != 1:
        raise CardParseError(f"{text.strip()[:30]!r} is not a move: name one card, e.g. 'play 7H'")
    action = Play(parse_card(words[0]))
    state.check_legal(action)
    return action


def strong_policy(observation: MakeTenObservation, legal: Collection[Any],
                  rng: random.Random) -> Any:
    """Make ten when a card in hand does; else lay the highest card (a pile topped by 9
    is taken only with an Ace)."""
    plays = sorted(legal, key=lambda a: (a.card.rank, a.card.suit))
    top = observation.top
    for action in plays:
        if top is not None and action.card.rank + top.rank == TEN:
            return action
    return plays[-1]
