"""Sums: capture an opponent's card by making its value from two of your own cards.

The rules are the seed text ``seeds/002`` with the rulings "Sums" of
``RULINGS.md``. In short: on your turn you draw the top card of a community
pile, then play one card from your hand face up on your side. If the card you
played (P), plus or minus another card of its colour already face up on your
side (the helper H), makes the value of an opponent's face-up card O of that
colour (P + H = O, or P − H = ±O), that card is captured; the owner may
counter first.

Values: A 1, 2-10 face value, J 11, Q 12, K 13. Scoring at the end: 2-10
one point, J and Q two, A and K three, for every card on your side and every
card you captured.

Choices made here where the seed and the rulings are silent (each is tested
in ``tests/games/test_sums.py``):

- Capturing is compulsory. The seed says the card "is removed", so when a
  play can capture, it does; the player only chooses *which* card when
  several different cards qualify (``Capture``). When only one card
  qualifies it is threatened at once. The engine records one helper and
  operation (the first helper on your side, ``+`` before ``-``);
  ``capture_ways`` lists every way for hints.
- A capture is threatened, not taken, until the owner answers: the owner of
  the threatened card may ``Counter`` with a card from hand that captures
  the threatening card by the same rule, or ``Decline``. An owner who has
  no counter is not asked: the capture resolves at once (as at a table,
  where such a player simply says "no").
- A counter is its player's turn. After a threat resolves, play goes on
  from the player whose turn started it, and every counter skips its
  player's next regular turn. In a game of 3 or more this is the ruling's
  skipped turn; with 2 players it is simply "players alternate".
- The first player is seat 0 (player 1).
- "Return" variant: after drawing, a player with fewer than 5 cards in hand
  may take back one card they played themselves (never the face-up card they
  were dealt: ruling Sums 7) instead of playing. With more than one deck,
  while a copy of the dealt card is on the side, one copy counts as the
  dealt card.
- "Draw or play" variant: a turn is a draw, a play, or (with "return" too)
  a take-back. With both variants on, a player must draw between two
  take-backs; otherwise players could take back and replay cards forever
  and the game would never end.
- End: when a pile is empty at the start of a player's turn, that player
  may play one last card without drawing (it may capture; it cannot be
  countered) or ``EndGame``; then the game is over. A counter played while a
  pile is empty is its player's last play (ruling Sums 6): it captures, it
  cannot be countered, and the game ends. A player who has no
  card in hand at that moment has nothing to play and the game ends at
  once. The game always ends: every turn of the plain game draws a card,
  and in "draw or play" hands empty out unless players draw.
- Identical cards (with more than one deck) are interchangeable:
  ``capture_targets`` lists each copy, the actions name a card once.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from mathcards.cards import Card, as_card, parse_card, standard_deck, whole_number
from mathcards.errors import MathCardsError, SettingsError
from mathcards.games.base import EMPTY, Event, Game, State, reshuffle, rng_for, seat_name

# --- values and scoring ----------------------------------------------------
RED_SUITS = frozenset(("H", "D"))
HAND_SIZE = 5
HAND_SIZE_FOUR_PLAYERS = 3
TAKE_BACK_LIMIT = 5  # "return" needs fewer than this many cards in hand
MAX_DECKS = 8


def card_value(card: Card | str) -> int:
    """A card's value in play: A 1, 2-10 face value, J 11, Q 12, K 13."""
    return as_card(card).rank


def card_points(card: Card | str) -> int:
    """A card's points at the end: 2-10 one point, J and Q two, A and K three."""
    rank = as_card(card).rank
    if rank in (1, 13):
        return 3
    if rank in (11, 12):
        return 2
    return 1


_POINTS = {rank: card_points(Card("S", rank)) for rank in range(1, 14)}


def _player(names: Sequence[str], seat: int | None) -> str:
    return seat_name(names, seat) if seat is not None else "nobody"


# --- the capture rule (one implementation) ----------------------------------
@dataclass(frozen=True, slots=True)
class CaptureWay:
    """One way a played card captures: ``played op helper`` makes ``target``'s value."""

    target: Card
    helper: Card
    op: str  # "+": played + helper = target; "-": played − helper = ±target
    result: int  # the target's value, which the sum or difference makes
    played: Card

    @property
    def value(self) -> int:
        """What ``played op helper`` makes: the target's value, or its negative."""
        p, h = self.played.rank, self.helper.rank
        return p + h if self.op == "+" else p - h

    @property
    def equation(self) -> str:
        """The arithmetic of this capture: ``7 + 3 = 10``, ``9 − 2 = 7``,
        ``3 − 7 = −4, the negative of 4``."""
        p, h, v = self.played.rank, self.helper.rank, self.value
        if self.op == "+":
            return f"{p} + {h} = {v}"
        if v >= 0:
            return f"{p} − {h} = {v}"
        return f"{p} − {h} = −{-v}, the negative of {-v}"


def _exception_blocks(played_rank: int, target_rank: int) -> bool:
    """An Ace falls only to a Queen, a King only to a 2 (ruling 4)."""
    if target_rank == 1:
        return played_rank != 12
    if target_rank == 13:
        return played_rank != 2
    return False


def _ways(played: Card, own: Iterable[Card], opponent: Iterable[Card]) -> list[CaptureWay]:
    red = played.suit in RED_SUITS
    p = played.rank
    helpers = [h for h in own if (h.suit in RED_SUITS) is red]
    if not helpers:
        return []
    reach = set()
    for helper in helpers:
        reach.add(p + helper.rank)
        reach.add(abs(p - helper.rank))
    ways: list[CaptureWay] = []
    for target in opponent:
        o = target.rank
        if o not in reach or (target.suit in RED_SUITS) is not red or _exception_blocks(p, o):
            continue
        for helper in helpers:
            h = helper.rank
            if p + h == o:
                ways.append(CaptureWay(target, helper, "+", o, played))
            elif abs(p - h) == o:
                ways.append(CaptureWay(target, helper, "-", o, played))
    return ways


def capture_ways(
    played: Card | str,
    own_face_up: Iterable[Card | str],
    opponent_face_up: Iterable[Card | str],
) -> list[CaptureWay]:
    """Every way playing ``played`` captures one of ``opponent_face_up``.

    ``own_face_up`` are your *other* face-up cards (the helpers). A way is a
    target, a helper of the played card's colour and ``+`` (P + H = O) or
    ``-`` (P − H = O or its negative). Opponent cards come in their order,
    helpers in yours.

    >>> [w.equation for w in capture_ways("9H", ["2H", "5S"], ["7H", "7S"])]
    ['9 − 2 = 7']
    """
    return _ways(
        as_card(played),
        [as_card(c) for c in own_face_up],
        [as_card(c) for c in opponent_face_up],
    )


def capture_targets(
    played: Card | str,
    own_face_up: Iterable[Card | str],
    opponent_face_up: Iterable[Card | str],
) -> list[Card]:
    """Every opponent card that playing ``played`` could capture.

    ``own_face_up`` are your other face-up cards. A target is listed once per
    copy on the table, in the opponent's order. This is ``capture_ways``
    (which the engine uses) seen by target only.

    >>> capture_targets("QH", ["JD"], ["AH", "AS", "KD"])
    [Card('AH')]
    >>> capture_targets("3C", ["4C"], ["7C", "AS", "7S", "7H"])
    [Card('7C'), Card('7S')]
    """
    opponent = [as_card(c) for c in opponent_face_up]
    hit = {id(w.target) for w in capture_ways(played, own_face_up, opponent)}
    return [card for card in opponent if id(card) in hit]


def why_no_capture(played: Card, target: Card, helpers: Sequence[Card]) -> str:
    """Why ``played`` with these helpers cannot capture ``target``, in words."""
    if (played.suit in RED_SUITS) != (target.suit in RED_SUITS):
        return (
            f"{target.symbol} is {target.colour} and {played.symbol} is {played.colour}: "
            "a capture needs cards of one colour"
        )
    if target.rank == 1 and played.rank != 12:
        return "an opponent's Ace can be captured only with a Queen"
    if target.rank == 13 and played.rank != 2:
        return "an opponent's King can be captured only with a 2"
    same = [h for h in helpers if h.colour == played.colour]
    if not same:
        return (
            f"you have no other {played.colour} card face up to help {played.symbol}: "
            "a capture needs a helper card"
        )
    return (
        f"no {played.colour} card on your side makes {target.rank} with {played.symbol} "
        f"({played.rank} + helper or {played.rank} − helper)"
    )


# --- actions ------------------------------------------------------------------
def _card_field(obj: Any, name: str) -> None:
    value = getattr(obj, name)
    if not isinstance(value, Card):
        object.__setattr__(obj, name, as_card(value))


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of a community pile (``pile`` counts from 0)."""

    pile: int

    def __str__(self) -> str:
        return f"draw from pile {self.pile + 1}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from your hand face up on your side."""

    card: Card

    def __post_init__(self) -> None:
        _card_field(self, "card")

    def __str__(self) -> str:
        return f"play {self.card.symbol}"


@dataclass(frozen=True, slots=True)
class Capture:
    """Choose which card your play captures when several qualify."""

    target: Card
    owner: int

    def __post_init__(self) -> None:
        _card_field(self, "target")

    def __str__(self) -> str:
        return f"capture {_player((), self.owner)}'s {self.target.symbol}"


@dataclass(frozen=True, slots=True)
class Counter:
    """Answer a threat to your card by playing a card that captures the threatening card."""

    card: Card

    def __post_init__(self) -> None:
        _card_field(self, "card")

    def __str__(self) -> str:
        return f"counter with {self.card.symbol}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not counter: the threatened card is captured."""

    def __str__(self) -> str:
        return "let the capture happen"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """("return" variant) Take one of your face-up cards back into your hand instead of playing."""

    card: Card

    def __post_init__(self) -> None:
        _card_field(self, "card")

    def __str__(self) -> str:
        return f"take {self.card.symbol} back into your hand"


@dataclass(frozen=True, slots=True)
class EndGame:
    """Make no last play: the game ends now."""

    def __str__(self) -> str:
        return "end the game without a last play"


_PLAY: dict[Card, Play] = {}
_COUNTER: dict[Card, Counter] = {}
_TAKE_BACK: dict[Card, TakeBack] = {}
_DRAW: dict[int, Draw] = {}
_DECLINE = Decline()
_END_GAME = EndGame()


def _cached(cache: dict[Any, Any], cls: type, key: Any) -> Any:
    action = cache.get(key)
    if action is None:
        action = cache[key] = cls(key)
    return action


# --- events ---------------------------------------------------------------------
@dataclass(frozen=True)
class CardDealtFaceUp(Event):
    """A card dealt face up onto a player's side at the start."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_player(names, self.player)} was dealt {self.card.symbol} face up."


@dataclass(frozen=True)
class CardDrawn(Event):
    """A player drew the top card of a community pile."""

    pile: int
    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_player(names, self.player)} drew {self.card.symbol} from pile {self.pile + 1}."


@dataclass(frozen=True)
class CardPlayed(Event):
    """A player put a card from their hand face up on their side."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_player(names, self.player)} played {self.card.symbol}."


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
            f"{_player(names, self.player)}'s {self.played.symbol} with {self.helper.symbol} makes "
            f"{self.way.equation}: it threatens "
            f"{_player(names, self.target_owner)}'s {self.target.symbol}."
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
            f"{_player(names, self.player)} countered with {self.card.symbol}: with "
            f"{self.helper.symbol} it makes {self.way.equation}, "
            f"so {_player(names, self.target_owner)}'s {self.target.symbol} is threatened instead."
        )


@dataclass(frozen=True)
class CounterDeclined(Event):
    """The threatened player did not counter: the capture goes ahead."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_player(names, self.player)} did not counter."


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
            f"{_player(names, self.player)} captured "
            f"{_player(names, self.from_player)}'s {self.card.symbol} ({self.way.equation})."
        )


@dataclass(frozen=True)
class CardTakenBack(Event):
    """("return" variant) A player took a face-up card back into their hand."""

    card: Card

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_player(names, self.player)} took {self.card.symbol} back into their hand."


@dataclass(frozen=True)
class TurnSkipped(Event):
    """A player's regular turn is skipped because they used it to counter."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_player(names, self.player)}'s turn is skipped: they used it to counter."


@dataclass(frozen=True)
class LastPlay(Event):
    """A pile is empty at the start of this player's turn: one last play, then the end."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"A pile is empty: {_player(names, self.player)} may play one last card without "
            "drawing, then the game ends."
        )


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over; ``scores`` are the final points by the table."""

    scores: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        listed = ", ".join(f"{_player(names, i)} {s}" for i, s in enumerate(self.scores))
        return f"The game is over. Scores: {listed}."


# --- public pieces of a state ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Threat:
    """A capture waiting for the owner's answer: ``attacker``'s ``way`` on ``target_owner``."""

    attacker: int
    way: CaptureWay
    target_owner: int

    @property
    def played(self) -> Card:
        return self.way.played

    @property
    def target(self) -> Card:
        return self.way.target


class Phase(StrEnum):
    """Where the game is."""

    START = "start"  # a regular turn begins: draw (or, in "draw or play", draw/play/take back)
    PLAY = "play"  # drawn: play (or take back)
    CHOOSE = "choose"  # several cards can be captured: choose one
    COUNTER = "counter"  # the threatened card's owner counters or declines
    LAST = "last"  # a pile is empty: one last play without drawing, or end
    OVER = "over"


START, PLAY, CHOOSE, COUNTER, LAST, OVER = (
    Phase.START, Phase.PLAY, Phase.CHOOSE, Phase.COUNTER, Phase.LAST, Phase.OVER
)


@dataclass(frozen=True, slots=True)
class SumsObservation:
    """What one player may see: own hand and captured cards, the public table, counts."""

    player: int
    num_players: int
    current_player: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    sides: tuple[tuple[Card, ...], ...]  # everyone's face-up cards, in play order
    captured: tuple[Card, ...]  # own captured cards (face down, but you know them)
    captured_counts: tuple[int, ...]
    pile_tops: tuple[Card | None, ...]
    pile_sizes: tuple[int, ...]
    threat: Threat | None
    skipped_turns: tuple[int, ...]
    variant_return: bool
    variant_draw_or_play: bool
    last_play: bool  # this is the last play of the game (it cannot be countered)


# --- the game -----------------------------------------------------------------------
@dataclass(frozen=True)
class Sums(Game):
    """Sums for 2-8 players: capture cards whose value you make with a sum or difference."""

    name: ClassVar[str] = "sums"
    title: ClassVar[str] = "Sums"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    actions: ClassVar[Mapping[str, type]] = {
        "draw": Draw,
        "play": Play,
        "capture": Capture,
        "counter": Counter,
        "decline": Decline,
        "take-back": TakeBack,
        "end-game": EndGame,
    }
    v1_actions: ClassVar[Mapping[str, str]] = {
        "Draw": "draw",
        "Play": "play",
        "Capture": "capture",
        "Counter": "counter",
        "Decline": "decline",
        "TakeBack": "take-back",
        "EndGame": "end-game",
    }

    decks: int | None = None
    piles: int = 2
    variant_return: bool = False
    variant_draw_or_play: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        d = self.decks
        bad_decks = isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_DECKS
        if d is not None and bad_decks:
            raise SettingsError(
                f"decks must be a whole number from 1 to {MAX_DECKS} (or None for one deck "
                f"per 4 players), not {d!r}"
            )
        for flag in ("variant_return", "variant_draw_or_play"):
            if not isinstance(getattr(self, flag), bool):
                raise SettingsError(f"{flag} must be True or False, not {getattr(self, flag)!r}")
        p = self.piles
        if isinstance(p, bool) or not isinstance(p, int) or p < 2:
            raise SettingsError(
                f"piles must be a whole number, 2 or more (the seed says at least two), not {p!r}"
            )
        left = 52 * self.deck_count - self.num_players * (self.hand_size + 1)
        if left < p:
            raise SettingsError(
                f"{self.deck_count} deck(s) leave {max(left, 0)} card(s) after the deal to "
                f"{self.num_players} players, too few for {p} piles: use more decks or fewer piles"
            )

    @property
    def deck_count(self) -> int:
        """Decks used: the setting, or one per 4 players rounded up."""
        return self.decks if self.decks is not None else math.ceil(self.num_players / 4)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand: 5, or 3 in a 4-player game."""
        return HAND_SIZE_FOUR_PLAYERS if self.num_players == 4 else HAND_SIZE

    def deck(self) -> tuple[Card, ...]:
        return standard_deck(0, self.deck_count)

    def position(
        self,
        hand: Iterable[Card | str],
        own: Iterable[Card | str],
        opponent: Iterable[Card | str],
        *,
        seed: int = 0,
    ) -> SumsState:
        """A real state from an exercise's position: seat 0 has drawn and plays from
        ``hand`` with ``own`` face up; seat 1 has ``opponent`` face up and no hand (so
        cannot counter); the piles are empty."""
        n = self.num_players
        sides = (tuple(map(as_card, own)), tuple(map(as_card, opponent))) + ((),) * (n - 2)
        return SumsState(
            game=self, seed=seed, hands=(tuple(map(as_card, hand)),) + ((),) * (n - 1),
            sides=sides, captured=((),) * n, piles=((),) * self.piles, turn_player=0,
            actor=0, phase=PLAY, pending=None, threat=None, skips=(0,) * n,
            may_take_back=(True,) * n, dealt=(None,) * n,
        )

    def _new_game(self, seed: int) -> SumsState:
        cards = list(self.deck())
        rng_for(seed, 0).shuffle(cards)
        n, h = self.num_players, self.hand_size
        hands = tuple(tuple(cards[i * h:(i + 1) * h]) for i in range(n))
        face_up = cards[n * h:n * h + n]
        rest = cards[n * h + n:]
        piles = tuple(tuple(rest[i::self.piles]) for i in range(self.piles))
        deal = tuple(CardDealtFaceUp(i, card) for i, card in enumerate(face_up))
        return SumsState(
            game=self,
            seed=seed,
            log=EMPTY.push(deal),
            hands=hands,
            sides=tuple((card,) for card in face_up),
            captured=((),) * n,
            piles=piles,
            turn_player=0,
            actor=0,
            phase=START,
            pending=None,
            threat=None,
            skips=(0,) * n,
            may_take_back=(True,) * n,
            dealt=tuple(face_up),
        )

    def _private_deal(
        self, state: State, rng: random.Random, known_seat: int | None
    ) -> dict[str, Any]:
        """Other hands and the cards under each pile's top are hidden; the face-up
        cards and the piles' face-up top cards are public."""
        assert isinstance(state, SumsState)
        hands = state.hands
        others = [i for i in range(self.num_players) if i != known_seat]
        under = [pile[:-1] for pile in state.piles]
        zones = reshuffle(rng, [hands[i] for i in others] + under)
        new_hands = list(hands)
        for i, zone in zip(others, zones, strict=False):
            new_hands[i] = zone
        piles = tuple(zone + pile[-1:] for zone, pile in
                      zip(zones[len(others):], state.piles, strict=True))
        return {"hands": tuple(new_hands), "piles": piles}


def _remove(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1:])


def _unique(cards: Iterable[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


@dataclass(frozen=True, kw_only=True)
class SumsState(State[Sums]):
    """A position of Sums: hands, each side's face-up cards, captured piles, community piles."""

    hands: tuple[tuple[Card, ...], ...]
    sides: tuple[tuple[Card, ...], ...]
    captured: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]  # top card last
    turn_player: int  # whose regular turn it is (who started a pending capture)
    actor: int | None  # who acts now
    phase: Phase
    pending: tuple[tuple[int, CaptureWay], ...] | None = None  # CHOOSE: (owner, way)
    threat: Threat | None
    skips: tuple[int, ...]  # regular turns each player still has to skip
    may_take_back: tuple[bool, ...]  # draw-or-play + return: must draw between take-backs
    # the face-up card each player was dealt, while a copy of it is on their side
    # ("return" never takes it back: ruling Sums 7); None once it is captured
    dealt: tuple[Card | None, ...] = ()
    last: bool = False  # the pending play is the last of the game


    # --- protocol basics ---------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.actor

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of the cards on each side plus each player's captured cards."""
        return tuple(
            sum(_POINTS[c.rank] for c in side) + sum(_POINTS[c.rank] for c in caught)
            for side, caught in zip(self.sides, self.captured, strict=True)
        )

    def all_cards(self) -> Iterable[Card]:
        for group in (self.hands, self.sides, self.captured, self.piles):
            for cards in group:
                yield from cards

    def observation(self, player: int) -> SumsObservation:
        return SumsObservation(
            player=player,
            num_players=self.game.num_players,
            current_player=self.actor,
            phase=self.phase,
            hand=self.hands[player],
            hand_sizes=tuple(map(len, self.hands)),
            sides=self.sides,
            captured=self.captured[player],
            captured_counts=tuple(map(len, self.captured)),
            pile_tops=tuple([p[-1] if p else None for p in self.piles]),
            pile_sizes=tuple(map(len, self.piles)),
            threat=self.threat,
            skipped_turns=self.skips,
            variant_return=self.game.variant_return,
            variant_draw_or_play=self.game.variant_draw_or_play,
            last_play=self.last or self.phase == LAST or self._counter_is_last,
        )

    # --- rule helpers ------------------------------------------------------------
    def captures_by(self, card: Card, player: int | None = None) -> list[tuple[int, CaptureWay]]:
        """What playing ``card`` onto ``player``'s side (the one to act) would threaten:
        (owner, the first way) for each different opponent card it captures."""
        p = self.actor if player is None else player
        assert p is not None
        helpers = self.sides[p]
        firsts: dict[tuple[int, Card], CaptureWay] = {}
        for owner, side in enumerate(self.sides):
            if owner != p and side:
                for way in _ways(card, helpers, side):
                    firsts.setdefault((owner, way.target), way)
        return [(owner, way) for (owner, _), way in firsts.items()]

    def _counter_way(self, card: Card) -> CaptureWay | None:
        """The way ``card`` from the threatened owner's hand captures the threatening card."""
        threat = self.threat
        assert threat is not None
        ways = _ways(card, self.sides[threat.target_owner], (threat.played,))
        return ways[0] if ways else None

    @property
    def _counter_is_last(self) -> bool:
        """A counter now would be its player's last play: a pile is empty (ruling Sums 6)."""
        return self.phase == COUNTER and not all(self.piles)

    def _played_cards(self, player: int) -> tuple[Card, ...]:
        """The cards on ``player``'s side they played themselves (not the one dealt them)."""
        side = self.sides[player]
        dealt = self.dealt[player] if self.dealt else None
        return _remove(side, dealt) if dealt is not None and dealt in side else side

    def _can_take_back(self, player: int) -> bool:
        game = self.game
        return (
            game.variant_return
            and len(self.hands[player]) < TAKE_BACK_LIMIT
            and bool(self._played_cards(player))
            and (not game.variant_draw_or_play or self.may_take_back[player])
        )

    # --- legal actions ------------------------------------------------------------
    def _legal_actions(self) -> tuple[Any, ...]:
        phase, p = self.phase, self.actor
        assert p is not None
        if phase == START:
            actions = [_cached(_DRAW, Draw, i) for i in range(len(self.piles))]
            if self.game.variant_draw_or_play:
                actions += [_cached(_PLAY, Play, c) for c in _unique(self.hands[p])]
                if self._can_take_back(p):
                    actions += [
                        _cached(_TAKE_BACK, TakeBack, c) for c in _unique(self._played_cards(p))
                    ]
            return tuple(actions)
        if phase == PLAY:
            actions = [_cached(_PLAY, Play, c) for c in _unique(self.hands[p])]
            if self._can_take_back(p):
                actions += [
                    _cached(_TAKE_BACK, TakeBack, c) for c in _unique(self._played_cards(p))
                ]
            return tuple(actions)
        if phase == CHOOSE:
            return tuple(Capture(w.target, owner) for owner, w in self.pending or ())
        if phase == COUNTER:
            actions = [
                _cached(_COUNTER, Counter, c)
                for c in _unique(self.hands[p])
                if self._counter_way(c) is not None
            ]
            actions.append(_DECLINE)
            return tuple(actions)
        if phase == LAST:
            return (*(_cached(_PLAY, Play, c) for c in _unique(self.hands[p])), _END_GAME)
        return ()

    def why_illegal(self, action: Any) -> str:
        phase, p = self.phase, self.actor
        assert p is not None
        hand, side = self.hands[p], self.sides[p]
        game = self.game
        waiting = {
            CHOOSE: "first choose which card your play captures",
            COUNTER: "first answer the threat: counter it or let the capture happen",
        }
        if isinstance(action, Draw):
            if phase in waiting:
                return waiting[phase]
            if phase == PLAY:
                return "you have drawn already: now play a card from your hand"
            pile = action.pile
            if isinstance(pile, bool) or not isinstance(pile, int):
                return f"piles are numbered 1 to {len(self.piles)}"
            if not 0 <= pile < len(self.piles):
                return f"there is no pile {pile + 1}: piles are numbered 1 to {len(self.piles)}"
            ending = "the game is ending: play one last card without drawing, or end the game"
            if not self.piles[pile]:
                return f"that pile is empty, so {ending}"
            return f"a pile is empty, so nobody draws any more and {ending}"
        if isinstance(action, Play):
            if phase in waiting:
                return waiting[phase]
            if phase == START and not game.variant_draw_or_play:
                return "draw a card first"
            return f"you do not hold {action.card}"
        if isinstance(action, Capture):
            if phase != CHOOSE:
                return "there is no capture to choose now"
            if not (isinstance(action.owner, int) and 0 <= action.owner < game.num_players):
                return f"there is no player {action.owner}"
            if action.owner == p:
                return "you cannot capture your own card"
            if action.target not in self.sides[action.owner]:
                return f"{_player((), action.owner)} has no {action.target} face up"
            played = side[-1]
            return why_no_capture(played, action.target, side[:-1])
        if isinstance(action, Counter):
            if phase != COUNTER:
                return "there is no capture to counter now"
            if action.card not in hand:
                return f"you do not hold {action.card}"
            threat = self.threat
            assert threat is not None
            return "a counter must capture the threatening card: " + why_no_capture(
                action.card, threat.played, side
            )
        if isinstance(action, Decline):
            return "there is no capture to counter now"
        if isinstance(action, TakeBack):
            if not game.variant_return:
                return "taking a card back is the 'return' variant, which is off in this game"
            if phase in waiting:
                return waiting[phase]
            if phase == LAST:
                return "a pile is empty: you may only play one last card or end the game"
            if phase == START and not game.variant_draw_or_play:
                return "draw a card first"
            if len(hand) >= TAKE_BACK_LIMIT:
                return (
                    f"you may take a card back only with fewer than {TAKE_BACK_LIMIT} cards "
                    f"in hand; you hold {len(hand)}"
                )
            if action.card not in side:
                return f"you have no {action.card} face up on your side"
            if action.card not in self._played_cards(p):
                return (
                    f"{action.card} is the card you were dealt face up: you may take back "
                    "only a card you played yourself"
                )
            return "draw a card before you take back another (otherwise the game could never end)"
        if isinstance(action, EndGame):
            return "the game ends only when a pile is empty at the start of a turn"
        return "it is not one of the moves allowed now"  # pragma: no cover

    # --- applying actions ------------------------------------------------------------
    def _apply(self, action: Any) -> tuple[dict[str, Any], list[Event]]:
        p = self.actor
        assert p is not None
        events: list[Event] = []
        changes: dict[str, Any] = {}
        kind = type(action)
        if kind is Draw:
            pile = self.piles[action.pile]
            card = pile[-1]
            events.append(CardDrawn(p, action.pile, card))
            changes["piles"] = _set(self.piles, action.pile, pile[:-1])
            changes["hands"] = _set(self.hands, p, self.hands[p] + (card,))
            if not self.may_take_back[p]:
                changes["may_take_back"] = _set(self.may_take_back, p, True)
            if self.game.variant_draw_or_play:
                self._next_turn(changes, events)
            else:
                changes["phase"] = PLAY
        elif kind is Play:
            self._play(p, action.card, changes, events)
        elif kind is Capture:
            for owner, way in self.pending or ():
                if owner == action.owner and way.target == action.target:
                    self._threaten(p, owner, way, self.last, changes, events)
                    break
        elif kind is Counter:
            threat = self.threat
            assert threat is not None
            counter_way = self._counter_way(action.card)
            assert counter_way is not None
            way = counter_way
            attacker = threat.attacker
            events.append(Countered(p, action.card, way.helper, way.op, way.target, attacker))
            changes["hands"] = _set(self.hands, p, _remove(self.hands[p], action.card))
            changes["sides"] = _set(self.sides, p, self.sides[p] + (action.card,))
            if self._counter_is_last:
                # a pile is empty: this counter is its player's last play; it
                # captures, it cannot be countered, and the game ends (ruling Sums 6)
                self._resolve(Threat(p, way, threat.attacker), True, changes, events)
            else:
                changes["skips"] = _set(self.skips, p, self.skips[p] + 1)
                self._ask_owner(Threat(p, way, threat.attacker), changes, events)
        elif kind is Decline:
            assert self.threat is not None
            events.append(CounterDeclined(p))
            self._resolve(self.threat, False, changes, events)
        elif kind is TakeBack:
            events.append(CardTakenBack(p, action.card))
            changes["sides"] = _set(self.sides, p, _remove(self.sides[p], action.card))
            changes["hands"] = _set(self.hands, p, self.hands[p] + (action.card,))
            if self.game.variant_draw_or_play:
                changes["may_take_back"] = _set(self.may_take_back, p, False)
            self._next_turn(changes, events)
        elif kind is EndGame:
            self._end(changes, events)
        else:  # pragma: no cover - apply() only passes legal actions
            raise AssertionError(f"unknown action {action!r}")
        return changes, events

    def _play(self, p: int, card: Card, changes: dict[str, Any], events: list[Event]) -> None:
        """Put ``card`` on ``p``'s side; a capture it makes is compulsory."""
        events.append(CardPlayed(p, card))
        helpers = self.sides[p]
        changes["hands"] = _set(self.hands, p, _remove(self.hands[p], card))
        changes["sides"] = _set(self.sides, p, (*helpers, card))
        last = self.phase == LAST
        # the first way (helper and operation) for each different target
        firsts = self.captures_by(card, p)
        if not firsts:
            if last:
                self._end(changes, events)
            else:
                self._next_turn(changes, events)
        elif len(firsts) == 1:
            ((owner, way),) = firsts
            self._threaten(p, owner, way, last, changes, events)
        else:
            changes["phase"] = CHOOSE
            changes["pending"] = tuple(firsts)
            changes["last"] = last

    def _threaten(
        self,
        p: int,
        owner: int,
        way: CaptureWay,
        last: bool,
        changes: dict[str, Any],
        events: list[Event],
    ) -> None:
        changes["pending"] = None
        threat = Threat(p, way, owner)
        if last:  # the last play of the game cannot be countered
            self._resolve(threat, True, changes, events)
            return
        events.append(CaptureThreatened(p, way.played, way.helper, way.op, way.target, owner))
        self._ask_owner(threat, changes, events)

    def _ask_owner(self, threat: Threat, changes: dict[str, Any], events: list[Event]) -> None:
        """Let the threatened card's owner counter, or resolve at once if they cannot."""
        owner = threat.target_owner
        hands = changes.get("hands", self.hands)
        sides = changes.get("sides", self.sides)
        for card in _unique(hands[owner]):
            if _ways(card, sides[owner], (threat.played,)):
                changes.update(phase=COUNTER, actor=owner, threat=threat)
                return
        self._resolve(threat, False, changes, events)

    def _resolve(
        self, threat: Threat, final: bool, changes: dict[str, Any], events: list[Event]
    ) -> None:
        """The threatened card goes to the attacker's captured pile; then play goes on."""
        way, owner, attacker = threat.way, threat.target_owner, threat.attacker
        sides = changes.get("sides", self.sides)
        changes["sides"] = _set(sides, owner, _remove(sides[owner], way.target))
        changes["captured"] = _set(self.captured, attacker, self.captured[attacker] + (way.target,))
        dealt = self.dealt[owner] if self.dealt else None
        if dealt == way.target and dealt not in changes["sides"][owner]:
            changes["dealt"] = _set(changes.get("dealt", self.dealt), owner, None)
        changes["threat"] = None
        events.append(Captured(attacker, way.target, owner, way.played, way.helper, way.op))
        if final:
            self._end(changes, events)
        else:
            self._next_turn(changes, events)

    def _next_turn(self, changes: dict[str, Any], events: list[Event]) -> None:
        """Start the next regular turn after ``turn_player``, skipping turns used to counter.

        If a pile is empty, that player gets the last play; with no card in
        hand there is nothing to play and the game ends at once.
        """
        n = self.game.num_players
        seat = (self.turn_player + 1) % n
        skips = changes.get("skips", self.skips)
        if any(skips):
            left = list(skips)
            while left[seat]:
                left[seat] -= 1
                if n > 2:
                    events.append(TurnSkipped(seat))
                seat = (seat + 1) % n
            skips = tuple(left)
        changes.update(
            turn_player=seat, actor=seat, skips=skips, phase=START,
            pending=None, threat=None, last=False,
        )
        if all(changes.get("piles", self.piles)):
            return
        events.append(LastPlay(seat))
        if changes.get("hands", self.hands)[seat]:
            changes["phase"] = LAST
        else:  # nothing to play: the game ends at once
            self._end(changes, events)

    def _end(self, changes: dict[str, Any], events: list[Event]) -> None:
        changes.update(phase=OVER, actor=None, threat=None, pending=None, last=False)
        sides = changes.get("sides", self.sides)
        captured = changes.get("captured", self.captured)
        scores = tuple(
            sum(_POINTS[c.rank] for c in side) + sum(_POINTS[c.rank] for c in caught)
            for side, caught in zip(sides, captured, strict=True)
        )
        events.append(GameEnded(None, scores))


# --- typed moves ------------------------------------------------------------------------
_WORDS = re.compile(r"^(draw|pile|play|capture|take|counter|back)\b\s*(.*)$")
_NOT_A_MOVE = "is not a move: try draw 1, play 7H, capture 3H, counter 9S, decline, or end"


def _typed_card(text: str, raw: str) -> Card:
    try:
        return parse_card(text)
    except MathCardsError:
        raise MathCardsError(f"{raw!r} {_NOT_A_MOVE}") from None


def parse_move(state: SumsState, text: str) -> Any:
    """The move ``text`` names in ``state`` (the one move notation of Sums):
    ``draw 1``, ``play 7H`` (or just ``7H``), ``capture 3H``, ``counter 9S``,
    ``decline``, ``take back 7H``, ``end``. A move not allowed now is returned for
    the engine to refuse with its reason; text naming no move is a ``MathCardsError``.
    """
    raw = " ".join(text.strip().split())
    low = raw.lower()
    if low in ("decline", "no", "let it go"):
        return _DECLINE
    if low in ("end", "end game"):
        return _END_GAME
    m = _WORDS.match(low)
    verb, rest = (m.group(1), m.group(2)) if m else ("", low)
    if verb in ("draw", "pile"):
        rest = rest.removeprefix("from").strip().removeprefix("pile").strip()
        pile = whole_number(rest, longest=2)
        if pile is None or rest[:1] in "+-":
            raise MathCardsError("say which pile to draw from with the digits 0-9, like: draw 1")
        return Draw(pile - 1)
    if verb == "take":
        return TakeBack(_typed_card(rest.removeprefix("back").strip(), raw))
    if verb == "back":
        return TakeBack(_typed_card(rest, raw))
    if verb == "capture":
        target = _typed_card(rest, raw)
        for action in state.legal_actions():
            if isinstance(action, Capture) and action.target == target:
                return action
        actor = state.current_player or 0
        return Capture(target, (actor + 1) % state.game.num_players)
    card = _typed_card(rest, raw)
    if verb == "counter" or (not verb and state.phase == Phase.COUNTER):
        return Counter(card)
    return Play(card)


# --- the strong bot ---------------------------------------------------------------------
def _best_capture_points(card: Card, me: int, sides: Sequence[tuple[Card, ...]]) -> int:
    best = 0
    own = sides[me]
    for owner, side in enumerate(sides):
        if owner != me and side:
            for way in _ways(card, own, side):
                best = max(best, _POINTS[way.target.rank])
    return best


def _exposure(card: Card, me: int, sides: Sequence[tuple[Card, ...]]) -> int:
    """How many opponents hold a face-up card of ``card``'s colour (a possible helper)."""
    red = card.suit in RED_SUITS
    return sum(
        1
        for owner, side in enumerate(sides)
        if owner != me and any((c.suit in RED_SUITS) == red for c in side)
    )


def strong_policy(observation: SumsObservation, legal: Sequence[Any], rng: Any) -> Any:
    """Capture the highest-scoring card, counter when able, draw what enables the best
    capture, otherwise play a card that sets up helpers without offering captures."""
    obs = observation
    me, sides = obs.player, obs.sides
    legal = list(legal)
    captures = [a for a in legal if isinstance(a, Capture)]
    if captures:
        return max(captures, key=lambda a: _POINTS[a.target.rank])
    counters = [a for a in legal if isinstance(a, Counter)]
    if counters:
        # the counter card stays on your side: prefer the one worth most
        return max(counters, key=lambda a: _POINTS[a.card.rank])
    plays = [a for a in legal if isinstance(a, Play)]
    draws = [a for a in legal if isinstance(a, Draw)]
    capture_now = {a: _best_capture_points(a.card, me, sides) for a in plays}
    best_now = max(capture_now.values(), default=0)
    if best_now:
        return max(plays, key=lambda a: (capture_now[a], -_POINTS[a.card.rank]))
    if draws and (not plays or not obs.variant_draw_or_play or len(obs.hand) <= 2):

        def draw_value(action: Draw) -> tuple[int, int]:
            top = obs.pile_tops[action.pile]
            if top is None:
                return (-1, 0)
            return (_best_capture_points(top, me, sides), _POINTS[top.rank])

        return max(draws, key=draw_value)
    if plays:
        if obs.last_play:
            return max(plays, key=lambda a: _POINTS[a.card.rank])

        def play_value(action: Play) -> float:
            card = action.card
            red = card.suit in RED_SUITS
            targets = sum(
                1
                for owner, side in enumerate(sides)
                if owner != me
                for c in side
                if (c.suit in RED_SUITS) == red
            )
            risk = _exposure(card, me, sides)
            worth = _POINTS[card.rank]
            return (worth if risk == 0 else -worth * risk) + 0.1 * targets

        return max(plays, key=play_value)
    for action in legal:
        if isinstance(action, Decline | EndGame):
            return action
    return legal[rng.randrange(len(legal))]


__all__ = [
    "Capture",
    "CaptureThreatened",
    "CaptureWay",
    "Captured",
    "CardDealtFaceUp",
    "CardDrawn",
    "CardPlayed",
    "CardTakenBack",
    "Counter",
    "CounterDeclined",
    "Countered",
    "Decline",
    "Draw",
    "EndGame",
    "GameEnded",
    "LastPlay",
    "Phase",
    "Play",
    "Sums",
    "SumsObservation",
    "SumsState",
    "TakeBack",
    "Threat",
    "TurnSkipped",
    "capture_targets",
    "capture_ways",
    "card_points",
    "card_value",
    "parse_move",
    "strong_policy",
    "why_no_capture",
]
