"""Suns to Moons: add and subtract card values to make the deck equal the leader's score.

The rules are the seed text 000 with the rulings (../shared/RULINGS.md,
"Suns to Moons"). In short: a card played horizontally (sign +1) adds its
value to the deck, vertically (sign −1) subtracts it; 2-10 count their
number, J 11, Q 12, K 13, an Ace 1 or 14 as the player chooses. The goal is
the highest score among the players; reaching it with 3 or more cards in the
deck wins the round and one point. A Joker removes the most recent card that
is still counted and may be followed by one more (non-Joker) card.

The ±10 bound (ruling 3) lives in one place, ``legal_turns``: the options of a
turn are every single-card play, a Joker alone and a Joker followed by one
more card; if any option ends within −10..10 only those are legal. The engine
plays a Joker turn as two actions (the Joker, then a second card or
``EndTurn``), and offers exactly the first and second steps of legal options.

Choices where the seed and the rulings are silent (a careful teacher's):

- The last seat deals the first round, so seat 0 plays first; after that the
  first player of a round deals the next one (ruling 7).
- An Ace turned up as the centre card counts 1 (nobody has chosen yet, and 1
  keeps the deck within ±10).
- A Joker with nothing left to remove (every counted card already concealed,
  or a Joker as centre card) removes nothing; it still counts as a card in the
  deck for the 3-card minimum.
- If the Joker itself leaves the deck on the goal with 3+ cards, the round is
  won at once and no second card is played. If no second card may follow a
  Joker (no other card, or none within the bound), the turn ends by itself.
- Cards concealed by Jokers stay public knowledge: everyone saw them played,
  so observations list every card of the centre deck (``table``) in order.
- Dealing at the start of a round and the 5-card refill come from the top of
  the stock; when it is short, the junk pile is shuffled and put under it.
- "Everyone passes" means every player passes in a row; the round then ends
  with no winner, the cards go to the junk pile and the next round is dealt.
"""

from __future__ import annotations

import enum
import math
import random
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from mathcards.cards import Card, as_card, parse_card, standard_deck
from mathcards.errors import CardParseError, MathCardsError, SettingsError
from mathcards.games.base import EMPTY, Event, Game, State, cached, reshuffle, rng_for, seat_name

BOUND = 10
MIN_DECK_FOR_GOAL = 3
HAND_SIZE = 5
JOKER = Card("JK", 0)

_T = TypeVar("_T")


# --- the rules every other module asks ------------------------------------
def within_bound(value: int) -> bool:
    """Whether a deck value is within the ±10 bound of ruling 3.

    >>> within_bound(-10), within_bound(11)
    (True, False)
    """
    return -BOUND <= value <= BOUND


def after_joker(counted: tuple[_T, ...]) -> tuple[_T, ...]:
    """What stays counted after a Joker (ruling 4): all but the most recent counted card.

    The one implementation of the Joker rule; with nothing counted (a Joker as
    centre card, or every card already removed) it removes nothing.

    >>> after_joker((5, 13)), after_joker(())
    ((5,), ())
    """
    return counted[:-1]


@dataclass(frozen=True)
class DeckCount:
    """A deck replayed card by card: what is still counted and the value after each card."""

    counted: tuple[int, ...]  # the signed values still counted, centre card first
    places: tuple[int, ...]  # the deck places (0 = centre card) of the counted cards
    running: tuple[int, ...]  # the deck value after each card

    @property
    def value(self) -> int:
        return sum(self.counted)

    def removed(self, place: int, terms: Sequence[int | None]) -> bool:
        """Whether the card at ``place`` was removed by a Joker (Jokers are never removed)."""
        return terms[place] is not None and place not in self.places


def count_deck(terms: Iterable[int | None]) -> DeckCount:
    """Replay a deck: each term is a card's signed value (the centre card's is +its value)
    and None is a Joker.

    The seed's third example, by its text (ruling 5):

    >>> count_deck([5, 13, None, -9]).running
    (5, 18, 5, -4)
    """
    counted: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    running: list[int] = []
    for place, term in enumerate(terms):
        if term is None:
            counted, places = after_joker(counted), after_joker(places)
        else:
            counted, places = (*counted, term), (*places, place)
        running.append(sum(counted))
    return DeckCount(counted, places, tuple(running))


def deck_terms(plays: Iterable[Any]) -> list[int | None]:
    """The terms of ``count_deck`` for plays (anything with ``card``, ``sign``, ``value``)."""
    return [None if p.card.suit == "JK" else p.sign * p.value for p in plays]


def card_values(card: Card) -> tuple[int, ...]:
    """The values a card may count: an Ace 1 or 14, J 11, Q 12, K 13, others their number."""
    if card.suit == "JK":
        return ()
    if card.rank == 1:
        return (1, 14)
    return (card.rank,)


def number(n: int) -> str:
    """A number as printed for students, with a true minus sign: ``−14``."""
    return f"−{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """A signed contribution: ``+7``, ``−7``."""
    return f"−{-n}" if n < 0 else f"+{n}"


def lies_across(sign: int) -> bool:
    """Whether a card of this sign lies across the deck (ruling 2).

    The centre card and every added card lie horizontal; a subtracted card stands
    upright. Every picture of a deck (table, lesson, practice page) asks here.
    """
    return sign > 0


# --- actions -------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Place one card on the deck: sign +1 horizontal (adds), −1 vertical (subtracts).

    ``value`` is the card's value (an Ace 1 or 14). A Joker is ``Play(JK, 0, 0)``
    (see ``JOKER_PLAY``): it has no orientation; it conceals the previous card.
    """

    card: Card
    sign: int
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", parse_card(self.card))
        if type(self.sign) is bool:
            object.__setattr__(self, "sign", int(self.sign))
        if type(self.value) is bool:
            object.__setattr__(self, "value", int(self.value))

    @property
    def is_joker(self) -> bool:
        return self.card.suit == "JK"

    @property
    def contribution(self) -> int:
        """What this card adds to the deck (negative when played vertically)."""
        return self.sign * self.value

    def __str__(self) -> str:
        if self.is_joker:
            return "play the Joker"
        return f"play {self.card.symbol} as {signed(self.contribution)}"


JOKER_PLAY = Play(JOKER, 0, 0)


@dataclass(frozen=True)
class EndTurn:
    """End the turn after a Joker without a second card."""

    def __str__(self) -> str:
        return "end the turn after the Joker"


@dataclass(frozen=True)
class Pass:
    """Pass: no cards in hand and none left to be dealt."""

    def __str__(self) -> str:
        return "pass"


END_TURN = EndTurn()
PASS = Pass()


@dataclass(frozen=True)
class Turn:
    """One way to play a whole turn: one card, a Joker, or a Joker and one more card."""

    plays: tuple[Play, ...]
    value_after: int

    def __str__(self) -> str:
        return " then ".join(str(p) for p in self.plays) + f" (deck {number(self.value_after)})"


# --- the one move notation ---------------------------------------------------
class MoveTextError(MathCardsError):
    """Typed text that is not a Suns to Moons move; the message says how to write one."""


_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})
_SIGN_FIRST = re.compile(r"^([+-])\s*([^\s=+-]+)(?:\s*=\s*(\S+))?$")  # +7H, -10S, +AS=14
_SIGN_AFTER = re.compile(r"^([^\s=+-]+)\s*([+-])\s*(\S+)?$")  # 7H -, AH +14
_HOW = "type a card and a sign, like 7H - or +QS (an Ace: AH +14 or +AH=14)"


def move_text(action: Any) -> str:
    """A move in the notation ``parse_move`` reads: ``+7H``, ``-10S``, ``+AS=14``, ``JK``."""
    if isinstance(action, EndTurn):
        return "end"
    if isinstance(action, Pass):
        return "pass"
    if action.card.suit == "JK":
        return "JK"
    ace = "=14" if action.card.rank == 1 and action.value == 14 else ""
    return f"{'+' if action.sign > 0 else '-'}{action.card}{ace}"


def parse_move(state: SunsToMoonsState | None, text: str) -> Play | EndTurn | Pass:
    """The move ``text`` names: ``+7H``, ``7H -``, ``-10S``, ``+ Q♠``, ``AH +14``, ``+AS=14``,
    ``JK`` (or ``joker``), ``end``, ``pass``. The one parser of typed moves.

    It reads the move only; whether the rules allow it is ``state.apply``'s
    business. An Ace needs its value when ``state`` leaves both open; without a
    state (an exercise's answer) ``+AS`` is the Ace as 1.

    >>> parse_move(None, "-10S"), parse_move(None, "AH +14").value
    (Play(card=Card('10S'), sign=-1, value=10), 14)
    """
    raw = str(text).strip()
    low = raw.lower()
    if low in ("end", "end turn", "stop"):
        return END_TURN
    if low == "pass":
        return PASS
    if low in ("jk", "joker"):
        return JOKER_PLAY
    norm = raw.translate(_MINUSES)
    sign_text = value_text = None
    m = _SIGN_FIRST.match(norm)
    if m:
        sign_text, card_text, value_text = m.groups()
    else:
        m = _SIGN_AFTER.match(norm)
        if m:
            card_text, sign_text, value_text = m.groups()
        else:
            card_text = norm
    try:
        card = parse_card(card_text)
    except (CardParseError, MathCardsError):
        raise MoveTextError(
            f"{raw!r} is not a move: {card_text!r} is not a card (ranks are A 2–10 J Q K, "
            f"suits S H D C, JK for a Joker); {_HOW}") from None
    if card.suit == "JK":
        if sign_text or value_text:
            raise MoveTextError(f"{raw!r}: a Joker has no sign: write JK")
        return JOKER_PLAY
    if not card.is_standard:
        raise MoveTextError(f"{raw!r}: Suns to Moons uses no Shoot the Moon cards; {_HOW}")
    if sign_text is None:
        raise MoveTextError(
            f"{raw!r} has no sign: write +{card_text} (played across, adds) or -{card_text} "
            f"(played upright, subtracts); say + or − for every card but a Joker")
    sign = 1 if sign_text == "+" else -1
    values = card_values(card)
    if value_text is None:
        if card.rank == 1 and state is not None:
            fits = [v for v in values if state.is_legal(Play(card, sign, v))]
            if len(fits) != 1:
                raise MoveTextError(f"an Ace counts 1 or 14: type {card} {sign_text}1 or "
                                    f"{card} {sign_text}14")
            return Play(card, sign, fits[0])
        return Play(card, sign, values[0])
    if not re.fullmatch(r"[0-9]{1,2}", value_text):  # digits 0-9 only
        raise MoveTextError(f"{raw!r} is not a move: {_HOW}")
    value = int(value_text)
    if value not in values:
        if card.rank == 1:
            raise MoveTextError(f"{raw!r}: an Ace counts 1 or 14")
        raise MoveTextError(f"{raw!r}: {card.symbol} counts {values[0]}, not {value}; only an "
                            f"Ace chooses its value (=1 or =14)")
    return Play(card, sign, value)


# keyed by (suit, rank): a plain tuple hashes in C, a Card's hash runs Python code
_PLAYS: dict[tuple[str, int], tuple[tuple[Play, int], ...]] = {}


def _plays_of(card: Card) -> tuple[tuple[Play, int], ...]:
    """The ways to place one non-Joker card, each with its contribution."""
    plays = _PLAYS.get((card.suit, card.rank))
    if plays is None:
        plays = _PLAYS[(card.suit, card.rank)] = tuple(
            (Play(card, s, v), s * v) for v in card_values(card) for s in (1, -1)
        )
    return plays


@dataclass(frozen=True)
class _Options:
    """The legal options of a turn, compactly: what ``legal_turns`` and the engine share."""

    singles: tuple[Play, ...]  # legal one-card turns
    joker_alone: bool  # a Joker alone is a legal turn
    seconds: tuple[Play, ...]  # legal second cards after a Joker
    bound_applied: bool  # the ±10 bound removed some option
    value: int
    joker_value: int

    def firsts(self) -> tuple[Play, ...]:
        if self.joker_alone or self.seconds:
            return (*self.singles, JOKER_PLAY)
        return self.singles


def _turn_options(hand: tuple[Card, ...], value: int, joker_value: int) -> _Options:
    """Every option of a turn filtered by the ±10 bound of ruling 3 (the one implementation)."""
    plays: list[tuple[Play, int]] = []
    seen: set[tuple[str, int]] = set()
    has_joker = False
    for card in hand:
        key = (card.suit, card.rank)
        if key[0] == "JK":
            has_joker = True
        elif key not in seen:
            seen.add(key)
            plays.extend(_plays_of(card))
    lo, hi = -BOUND - value, BOUND - value
    singles = tuple(p for p, c in plays if lo <= c <= hi)
    if has_joker:
        jlo, jhi = -BOUND - joker_value, BOUND - joker_value
        seconds = tuple(p for p, c in plays if jlo <= c <= jhi)
        joker_alone = within_bound(joker_value)
    else:
        seconds, joker_alone = (), False
    if singles or seconds or joker_alone:
        removed = len(singles) < len(plays) or (
            has_joker and (not joker_alone or len(seconds) < len(plays))
        )
        return _Options(singles, joker_alone, seconds, removed, value, joker_value)
    # nothing stays within ±10: every option is legal
    every = tuple(p for p, _ in plays)
    return _Options(every, has_joker, every if has_joker else (), False, value, joker_value)


def _check_counted(counted: Iterable[int]) -> tuple[int, ...]:
    out = tuple(counted)
    for c in out:
        if isinstance(c, bool) or not isinstance(c, int):
            raise MathCardsError(
                f"counted must list whole numbers (the signed values still counted), not {c!r}"
            )
    return out


def legal_turns(hand: Iterable[Card | str], counted: Sequence[int]) -> list[Turn]:
    """Every legal way to play a turn from ``hand`` on a deck with these counted values.

    ``counted`` lists the signed contributions still counted, the centre card
    first (a Joker centre card counts 0 and is not listed; cards concealed by
    Jokers are not listed either). The ±10 bound of ruling 3 applies: if any option ends within
    −10..10, only such options are returned.

    >>> sorted(t.value_after for t in legal_turns(["KS", "KH"], [1]))
    [-12, -12, 14, 14]
    >>> [str(t) for t in legal_turns(["JK", "KS"], [9, -8])]
    ['play the Joker (deck 9)', 'play the Joker then play K♠ as −13 (deck −4)']
    """
    cards = tuple(as_card(c) for c in hand)
    values = _check_counted(counted)
    opts = _turn_options(cards, sum(values), sum(after_joker(values)))
    turns = [Turn((p,), opts.value + p.contribution) for p in opts.singles]
    if opts.joker_alone:
        turns.append(Turn((JOKER_PLAY,), opts.joker_value))
    turns.extend(Turn((JOKER_PLAY, p), opts.joker_value + p.contribution) for p in opts.seconds)
    return turns


# --- events --------------------------------------------------------------
def _seat(p: int | None, names: Sequence[str] = ()) -> str:
    return "nobody" if p is None else seat_name(names, p)


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round is dealt: ``player`` is the dealer."""

    round_number: int
    first_player: int
    initial_card: Card
    initial_value: int
    goal: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"Round {self.round_number}: {_seat(self.player, names)} deals; the centre card is "
            f"{self.initial_card.symbol} (deck {number(self.initial_value)}); the goal is "
            f"{self.goal}; {_seat(self.first_player, names)} plays first."
        )


@dataclass(frozen=True)
class HandsDealt(Event):
    """Every player is dealt ``cards_each`` cards at the start of a round (``player`` deals)."""

    cards_each: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_seat(self.player, names)} deals {self.cards_each} cards to each player."


@dataclass(frozen=True)
class CardsDealt(Event):
    """A player who used all their cards is dealt new ones (fewer if the cards ran out)."""

    count: int

    def describe(self, names: Sequence[str] = ()) -> str:
        who = _seat(self.player, names)
        if self.count == 0:
            return f"{who} has no cards, and there are none left to deal."
        return f"{who} used all their cards and is dealt {self.count} new ones."


@dataclass(frozen=True)
class StockReshuffled(Event):
    """The junk pile is shuffled under the stock because the stock ran short."""

    cards: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"The stock ran short: the {self.cards} junk cards are shuffled into it."


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card is placed on the deck, adding or subtracting its value."""

    card: Card
    sign: int
    value: int
    contribution: int
    before: int
    after: int
    deck_size: int
    goal: int
    other_sign_after: int | None
    bound_applied: bool
    counted: tuple[int, ...] = ()  # the signed values still counted after the card

    def describe(self, names: Sequence[str] = ()) -> str:
        way = "horizontally, adding" if self.sign > 0 else "vertically, subtracting"
        return (
            f"{_seat(self.player, names)} plays {self.card.symbol} {way} {self.value}: "
            f"{number(self.before)} {'+' if self.sign > 0 else '−'} {self.value} = "
            f"{number(self.after)}."
        )


@dataclass(frozen=True)
class JokerPlayed(Event):
    """A Joker conceals the most recent counted card and removes its value.

    ``removed_card`` is None when nothing was counted, or when an exercise gave the
    removed value without its card (then ``removed`` is still True).
    """

    removed_card: Card | None
    removed_contribution: int
    before: int
    after: int
    deck_size: int
    goal: int
    counted: tuple[int, ...] = ()  # the signed values still counted after the Joker
    removed: bool = False  # whether a counted card was removed

    def describe(self, names: Sequence[str] = ()) -> str:
        who = _seat(self.player, names)
        if not self.removed:
            return f"{who} plays a Joker; there is no card left for it to remove."
        on = f" on {self.removed_card.symbol}" if self.removed_card is not None else ""
        return (
            f"{who} plays a Joker{on}, removing "
            f"{signed(self.removed_contribution)}: the deck goes from {number(self.before)} "
            f"to {number(self.after)}."
        )


@dataclass(frozen=True)
class TurnEnded(Event):
    """The player ends their Joker turn without a second card."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_seat(self.player, names)} ends the turn after the Joker."


@dataclass(frozen=True)
class GoalReached(Event):
    """The deck equals the goal with 3 or more cards: the round is won."""

    goal: int
    value: int
    deck_size: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"{_seat(self.player, names)} makes the deck {number(self.value)}, the goal, with "
            f"{self.deck_size} cards in the deck."
        )


@dataclass(frozen=True)
class GoalTooEarly(Event):
    """The deck equals the goal with fewer than 3 cards: it does not count."""

    goal: int
    value: int
    deck_size: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return (
            f"The deck is {number(self.value)}, the goal, but holds only {self.deck_size} "
            f"card{'s' if self.deck_size != 1 else ''}; a win needs 3 or more, so play goes on."
        )


@dataclass(frozen=True)
class RoundWon(Event):
    """The round's winner scores one point."""

    goal: int
    new_score: int
    counted: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_seat(self.player, names)} wins the round and now has {self.new_score} points."


@dataclass(frozen=True)
class Passed(Event):
    """A player with no cards and none to get passes."""

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_seat(self.player, names)} has no cards and passes."


@dataclass(frozen=True)
class RoundAbandoned(Event):
    """Everyone passed: the round ends with no winner (``player`` is None)."""

    round_number: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"Everyone passed: round {self.round_number} ends with no winner."


@dataclass(frozen=True)
class GameWon(Event):
    """A player reached the target score: the game is over."""

    score: int

    def describe(self, names: Sequence[str] = ()) -> str:
        return f"{_seat(self.player, names)} reaches {self.score} points and wins the game."


# --- the game ------------------------------------------------------------
@dataclass(frozen=True)
class SunsToMoons(Game):
    """Suns to Moons for 2-8 players: make the deck's value equal the leader's score."""

    name = "suns_to_moons"
    title = "Suns to Moons"
    min_players = 2
    max_players = 8
    actions: ClassVar[Mapping[str, type]] = {
        "play": Play,
        "end-turn": EndTurn,
        "pass": Pass,
    }
    v1_actions: ClassVar[Mapping[str, str]] = {
        "Play": "play",
        "EndTurn": "end-turn",
        "Pass": "pass",
    }

    target_score: int = 10
    decks: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        t = self.target_score
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 99:
            raise SettingsError(
                f"target_score must be a whole number from 1 to 99 (the seed plays to 10), "
                f"not {t!r}"
            )
        d = self.decks
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 8):
            raise SettingsError(
                f"decks must be a whole number from 1 to 8, or None for one deck per 4 "
                f"players, not {d!r}"
            )

    @property
    def num_decks(self) -> int:
        """Decks in play: the setting, or one per 4 players rounded up."""
        return self.decks if self.decks is not None else math.ceil(self.num_players / 4)

    def deck(self) -> tuple[Card, ...]:
        return standard_deck(jokers=2, decks=self.num_decks)

    @classmethod
    def position(cls, hand: Iterable[Card | str], *, deck: Iterable[Play] | None = None,
                 counted: Iterable[int] | None = None, goal: int = 0) -> SunsToMoonsState:
        """An exercise's position as a real engine state (as a chess board from its FEN).

        One player holds ``hand`` and plays turn after turn until the deck equals
        ``goal`` with 3 or more cards. The deck is given as its plays (centre card
        first) or only as the signed values still counted. Its moves are judged,
        and its events told, by the same rules as a game at the table.

        >>> state = SunsToMoons.position(["3H"], counted=[7, -10], goal=0)
        >>> state.apply(parse_move(state, "+3H")).is_over
        True
        """
        cards = tuple(as_card(c) for c in hand)
        if isinstance(goal, bool) or not isinstance(goal, int):
            raise MathCardsError(f"the goal must be a whole number, not {goal!r}")
        if deck is not None:
            table = tuple(Play(p.card, p.sign, p.value) for p in deck)
            count = count_deck(deck_terms(table))
            values = count.counted
            behind: tuple[Card | None, ...] = tuple(table[i].card for i in count.places)
            earlier = 0
        else:
            table, values = (), _check_counted(counted or ())
            behind, earlier = (None,) * len(values), len(values)
        game = cls(num_players=2, target_score=1)  # the goal reached ends the exercise
        return SunsToMoonsState(
            game=game, seed=0, points=(0, 0), dealer=1, first_player=0, round_number=1,
            turn=0, hands=(cards, ()), stock=(), junk=(), table=table, counted=values,
            counted_cards=behind, practice_goal=goal, earlier_cards=earlier,
        )

    def _new_game(self, seed: int) -> SunsToMoonsState:
        rng = rng_for(seed, 0)
        stock = list(self.deck())
        rng.shuffle(stock)
        n = self.num_players
        events: list[Event] = []
        changes = _deal_round(
            tuple(stock), (), dealer=n - 1, round_number=1, points=(0,) * n, rng=rng,
            events=events, num_players=n,
        )
        return SunsToMoonsState(
            game=self, seed=seed, points=(0,) * n, log=EMPTY.push(tuple(events)), **changes
        )

    def _private_deal(self, state: State, rng: random.Random,
                      known_seat: int | None) -> dict[str, Any]:
        """Other hands and the stock are hidden; the centre card is public."""
        assert isinstance(state, SunsToMoonsState)
        hands = state.hands
        others = [i for i in range(self.num_players) if i != known_seat]
        zones = reshuffle(rng, [hands[i] for i in others] + [state.stock])
        new_hands = list(hands)
        for i, zone in zip(others, zones, strict=False):
            new_hands[i] = zone
        return {"hands": tuple(new_hands), "stock": zones[-1]}


def _draw(stock: tuple[Card, ...], junk: tuple[Card, ...], count: int,
          rng: random.Random, events: list[Event]
          ) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Take up to ``count`` cards from the top (end) of the stock, reshuffling junk if short."""
    if len(stock) < count and junk:
        pile = list(junk)
        rng.shuffle(pile)
        stock = tuple(pile) + stock
        junk = ()
        events.append(StockReshuffled(None, len(pile)))
    k = min(count, len(stock))
    cut = len(stock) - k
    return stock[cut:], stock[:cut], junk


def _deal_round(stock: tuple[Card, ...], junk: tuple[Card, ...], *, dealer: int,
                round_number: int, points: tuple[int, ...], rng: random.Random,
                events: list[Event], num_players: int) -> dict[str, Any]:
    """Deal 5 cards to each player and turn up the centre card (the state fields)."""
    n = num_players
    first = (dealer + 1) % n
    dealt, stock, junk = _draw(stock, junk, HAND_SIZE * n + 1, rng, events)
    hands = tuple(dealt[1 + i * HAND_SIZE: 1 + (i + 1) * HAND_SIZE] for i in range(n))
    centre = dealt[0]
    if centre.suit == "JK":
        initial = JOKER_PLAY
        counted: tuple[int, ...] = ()
        counted_cards: tuple[Card, ...] = ()
    else:
        initial = Play(centre, 1, centre.rank)  # an Ace turned up counts 1
        counted = (centre.rank,)
        counted_cards = (centre,)
    events.append(HandsDealt(dealer, HAND_SIZE))
    events.append(
        RoundStarted(dealer, round_number, first, centre, sum(counted), max(points))
    )
    return {
        "dealer": dealer,
        "first_player": first,
        "round_number": round_number,
        "turn": first,
        "hands": hands,
        "stock": stock,
        "junk": junk,
        "table": (initial,),
        "counted": counted,
        "counted_cards": counted_cards,
        "pending": None,
        "may_end_turn": False,
        "bound_applied": False,
        "passes": 0,
    }


class Phase(enum.Enum):
    """Where a turn stands: what kind of move the player to act makes next."""

    TURN = "turn"  # a new turn: a card or a Joker
    AFTER_JOKER = "after joker"  # one more card, or end the turn if the Joker alone may
    MUST_PASS = "must pass"  # no cards and none left to deal
    OVER = "over"


@dataclass(frozen=True)
class SunsToMoonsView:
    """What one player may see: their own hand and everything on the table."""

    player: int
    hand: tuple[Card, ...]
    table: tuple[Play, ...]
    counted: tuple[int, ...]
    counted_cards: tuple[Card | None, ...]
    deck_value: int
    deck_size: int
    goal: int
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    junk_size: int
    current_player: int | None
    dealer: int
    first_player: int
    round_number: int
    after_joker: bool
    target_score: int
    num_decks: int


@dataclass(frozen=True, kw_only=True)
class SunsToMoonsState(State[SunsToMoons]):
    """A Suns to Moons position: hands, stock, junk pile, the centre deck and scores."""

    points: tuple[int, ...]
    dealer: int
    first_player: int
    round_number: int
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    junk: tuple[Card, ...]
    table: tuple[Play, ...]
    counted: tuple[int, ...]
    # the card behind each counted value (None: an exercise gave only the value)
    counted_cards: tuple[Card | None, ...]
    pending: tuple[Play, ...] | None = None
    may_end_turn: bool = False
    bound_applied: bool = False
    passes: int = 0
    over: bool = False
    # an exercise's position (``SunsToMoons.position``): its goal, one player playing
    # turn after turn, and cards under the deck known only by their counted values
    practice_goal: int | None = None
    earlier_cards: int = 0

    # --- reading the position ------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def scores(self) -> tuple[int, ...]:
        return self.points

    @property
    def goal(self) -> int:
        """The highest score among the players: the value the deck must reach."""
        return max(self.points) if self.practice_goal is None else self.practice_goal

    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        if self.pending is not None:
            return Phase.AFTER_JOKER
        return Phase.TURN if self.hands[self.turn] else Phase.MUST_PASS

    @property
    def deck_value(self) -> int:
        return sum(self.counted)

    @property
    def deck_size(self) -> int:
        """Cards in the centre deck, the centre card and Jokers included."""
        return self.earlier_cards + len(self.table)

    @property
    def after_joker(self) -> bool:
        """True between a Joker and the second card (or EndTurn) of the same turn."""
        return self.pending is not None

    @cached
    def _options(self) -> _Options:
        counted = self.counted
        return _turn_options(self.hands[self.turn], sum(counted), sum(after_joker(counted)))

    def turn_options(self) -> list[Turn]:
        """The legal whole-turn options of the player to act (at the start of a turn)."""
        return legal_turns(self.hands[self.turn], self.counted)

    def _legal_actions(self) -> Collection[Any]:
        # the phases of ``phase``, tested inline: this runs once per move of every playout
        if self.pending is not None:  # Phase.AFTER_JOKER
            return self.pending + ((END_TURN,) if self.may_end_turn else ())
        if not self.hands[self.turn]:  # Phase.MUST_PASS
            return (PASS,)
        return self._options.firsts()

    # --- moves -----------------------------------------------------------
    def _apply(self, action: Any) -> tuple[dict[str, Any], list[Event]]:
        p = self.turn
        n = self.game.num_players
        events: list[Event] = []
        if isinstance(action, Pass):
            events.append(Passed(p))
            passes = self.passes + 1
            if passes >= n:
                events.append(RoundAbandoned(None, self.round_number))
                return self._next_round(events, self.points), events
            return {"turn": (p + 1) % n, "passes": passes}, events
        if isinstance(action, EndTurn):
            events.append(TurnEnded(p))
            return self._end_turn(p, self.hands[p], events, {}), events

        hand = self.hands[p]
        i = hand.index(action.card)
        new_hand = hand[:i] + hand[i + 1:]
        table = (*self.table, action)
        size = self.earlier_cards + len(self.table) + 1  # deck_size, inline (a hot path)
        before = sum(self.counted)
        goal = max(self.points) if self.practice_goal is None else self.practice_goal
        if action.is_joker:
            counted = after_joker(self.counted)
            counted_cards = after_joker(self.counted_cards)
            removed_card = self.counted_cards[-1] if self.counted_cards else None
            removed = self.counted[-1] if self.counted else 0
            after = sum(counted)
            events.append(JokerPlayed(p, removed_card, removed, before, after, size, goal,
                                      counted, bool(self.counted)))
        else:
            c = action.contribution
            counted = (*self.counted, c)
            counted_cards = (*self.counted_cards, action.card)
            after = before + c
            bound = self.bound_applied if self.pending is not None else self._options.bound_applied
            events.append(
                CardPlayed(p, action.card, action.sign, action.value, c, before, after,
                           size, goal, before - c, bound, counted)
            )
        changes: dict[str, Any] = {
            "hands": (*self.hands[:p], new_hand, *self.hands[p + 1:]),
            "table": table,
            "counted": counted,
            "counted_cards": counted_cards,
            "passes": 0,
        }
        if after == goal:
            if size >= MIN_DECK_FOR_GOAL:
                events.append(GoalReached(p, goal, after, size))
                points = (*self.points[:p], self.points[p] + 1, *self.points[p + 1:])
                events.append(RoundWon(p, goal, points[p], counted))
                if points[p] >= self.game.target_score:
                    events.append(GameWon(p, points[p]))
                    changes.update(points=points, over=True, pending=None, may_end_turn=False)
                    return changes, events
                hands = changes["hands"]
                return self._next_round(events, points, hands=hands, table=table), events
            events.append(GoalTooEarly(p, goal, after, size))
        if action.is_joker and self.pending is None:
            opts = self._options
            if opts.seconds:
                changes.update(pending=opts.seconds, may_end_turn=opts.joker_alone,
                               bound_applied=opts.bound_applied)
                return changes, events
        return self._end_turn(p, new_hand, events, changes), events

    def _end_turn(self, p: int, hand: tuple[Card, ...], events: list[Event],
                  changes: dict[str, Any]) -> dict[str, Any]:
        # an exercise's one player plays on; at a table the next seat does
        turn = p if self.practice_goal is not None else (p + 1) % self.game.num_players
        changes.update(turn=turn, pending=None,
                       may_end_turn=False, bound_applied=False)
        if not hand:
            dealt, stock, junk = _draw(self.stock, self.junk, HAND_SIZE, self.rng(), events)
            events.append(CardsDealt(p, len(dealt)))
            hands = changes.get("hands", self.hands)
            changes.update(hands=(*hands[:p], dealt, *hands[p + 1:]), stock=stock, junk=junk)
        return changes

    def _next_round(self, events: list[Event], points: tuple[int, ...], *,
                    hands: tuple[tuple[Card, ...], ...] | None = None,
                    table: tuple[Play, ...] | None = None) -> dict[str, Any]:
        hands = self.hands if hands is None else hands
        table = self.table if table is None else table
        junk = self.junk + tuple(c for h in hands for c in h) + tuple(pl.card for pl in table)
        changes = _deal_round(
            self.stock, junk, dealer=self.first_player, round_number=self.round_number + 1,
            points=points, rng=self.rng(), events=events, num_players=self.game.num_players,
        )
        changes["points"] = points
        return changes

    # --- explaining refusals ------------------------------------------
    def why_illegal(self, action: Any) -> str:
        hand = self.hands[self.turn]
        if isinstance(action, Pass):
            return ("you hold cards, so you must play one; you may pass only with no cards "
                    "and none left to deal")
        if isinstance(action, EndTurn):
            if self.pending is None:
                return "you may end your turn without a card only right after playing a Joker"
            return (f"after the Joker the deck is {number(self.deck_value)}, outside ±10, and "
                    f"a second card can bring it back within ±10: you must play one")
        if not isinstance(action, Play):  # pragma: no cover - base checks the type
            return "it is not a Suns to Moons move"
        card = action.card
        if not hand:
            return "you have no cards and there are none left to deal: you must pass"
        if card.suit == "JK":
            if self.pending is not None:
                return "after a Joker you may play one more card that is not a Joker"
            if card not in hand:
                return "you do not hold a Joker"
            if action.sign != 0 or action.value != 0:
                return ("a Joker has no orientation or value: play it as Play(JK, 0, 0); it "
                        "removes the last card still counted")
            after = sum(after_joker(self.counted))
            return (f"the Joker would leave the deck at {number(after)} and no card after it "
                    f"brings the deck within ±10; you must stay within ±10 while another play "
                    f"can")
        if card not in hand:
            return f"you do not hold {card.symbol}"
        if action.sign not in (1, -1):
            return ("a card is played horizontally (sign +1, it adds) or vertically "
                    "(sign −1, it subtracts)")
        values = card_values(card)
        if action.value not in values:
            if card.rank == 1:
                return "an Ace counts 1 or 14"
            return f"{card.symbol} counts {values[0]}"
        after = self.deck_value + action.contribution
        return (f"{card.symbol} as {signed(action.contribution)} would make the deck "
                f"{number(after)}; you must stay within ±10 while another play can")

    # --- what a player sees --------------------------------------------
    def observation(self, player: int) -> SunsToMoonsView:
        return SunsToMoonsView(
            player=player,
            hand=self.hands[player],
            table=self.table,
            counted=self.counted,
            counted_cards=self.counted_cards,
            deck_value=sum(self.counted),
            deck_size=self.earlier_cards + len(self.table),
            goal=max(self.points) if self.practice_goal is None else self.practice_goal,
            scores=self.points,
            hand_sizes=tuple(map(len, self.hands)),
            stock_size=len(self.stock),
            junk_size=len(self.junk),
            current_player=self.current_player,
            dealer=self.dealer,
            first_player=self.first_player,
            round_number=self.round_number,
            after_joker=self.pending is not None,
            target_score=self.game.target_score,
            num_decks=self.game.num_decks,
        )

    def all_cards(self) -> Iterable[Card]:
        for h in self.hands:
            yield from h
        yield from self.stock
        yield from self.junk
        for pl in self.table:
            yield pl.card


# --- bots ----------------------------------------------------------------
def _unseen(obs: SunsToMoonsView) -> dict[int, int]:
    """Copies of each rank (0 = Joker) the player has not seen in hand or on the deck."""
    left = dict.fromkeys(range(1, 14), 4 * obs.num_decks)
    left[0] = 2 * obs.num_decks
    for c in obs.hand:
        left[c.rank] -= 1
    for pl in obs.table:
        left[pl.card.rank] -= 1
    return left


def _one_card_hits(distance: int, unseen: dict[int, int]) -> int:
    """How many unseen cards could cover ``distance`` with one play (any sign)."""
    d = abs(distance)
    if d == 0 or d > 14:
        return 0
    return unseen[1 if d in (1, 14) else d]


def _risk(counted: tuple[int, ...], goal: int, unseen: dict[int, int]) -> float:
    """How easily the next player could reach the goal from here with one turn."""
    value = sum(counted)
    risk: float = _one_card_hits(goal - value, unseen)
    if unseen[0] > 0:
        joker_value = sum(after_joker(counted))
        if joker_value == goal:
            risk += 2 * unseen[0]
        else:
            risk += 0.25 * unseen[0] * min(1, _one_card_hits(goal - joker_value, unseen))
    return risk


def strong_policy(observation: SunsToMoonsView, legal: Collection[Any],
                  rng: random.Random) -> Any:
    """Reach the goal when possible; else leave the next player the fewest one-card wins.

    Whole turns are planned (a Joker and its second card together) from the
    public information only: the player's hand, the deck and the scores.
    """
    options = list(legal)
    if len(options) == 1:
        return options[0]
    obs = observation
    goal = obs.goal
    unseen = _unseen(obs)
    # candidate = (first action, plays of the whole remaining turn)
    candidates: list[tuple[Any, tuple[Play, ...]]]
    if obs.after_joker:
        candidates = [(a, (a,) if isinstance(a, Play) else ()) for a in options]
    else:
        candidates = [(t.plays[0], t.plays) for t in legal_turns(obs.hand, obs.counted)]
        candidates = [c for c in candidates if c[0] in set(options)] or [
            (a, (a,)) for a in options
        ]
    best_key = None
    best: Any = options[0]
    for first, plays in candidates:
        counted = obs.counted
        size = obs.deck_size
        wins = False
        for pl in plays:
            if pl.is_joker:
                counted = after_joker(counted)
            else:
                counted += (pl.contribution,)
            size += 1
            if sum(counted) == goal and size >= MIN_DECK_FOR_GOAL:
                wins = True
                break
        uses_joker = any(pl.is_joker for pl in plays)
        key = (
            0 if wins else 1,
            0.0 if wins else _risk(counted, goal, unseen),
            1 if uses_joker and not wins else 0,
            rng.random(),
        )
        if best_key is None or key < best_key:
            best_key, best = key, first
    return best


__all__ = [
    "BOUND", "JOKER_PLAY", "CardPlayed", "CardsDealt", "DeckCount", "EndTurn", "GameWon",
    "GoalReached", "GoalTooEarly", "HandsDealt", "JokerPlayed", "MoveTextError", "Pass",
    "Passed", "Phase", "Play", "RoundAbandoned", "RoundStarted", "RoundWon", "StockReshuffled",
    "SunsToMoons", "SunsToMoonsState", "SunsToMoonsView", "Turn", "TurnEnded", "after_joker",
    "card_values", "count_deck", "deck_terms", "legal_turns", "lies_across", "move_text",
    "parse_move", "strong_policy", "within_bound",
]
