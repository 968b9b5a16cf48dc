"""Dice Stacks: roll two dice, draw cards, and lay stacks that make the dice's sum.

The rules (docs/rules/dice_stacks.md: the rule text with the rulings):

- Cards: A = 1, 2-10 face value, J = 11, Q = 12. Kings have no value: they
  double or halve. No Jokers. Decks: one per two players, rounded up (setting).
- Everyone rolls two dice; the highest sum starts; tied players roll again.
- A turn: roll both dice; draw as many cards as one die shows (the smaller
  number first, then the player may draw the rest or stop; fewer if the
  stock runs short); then lay any number of stacks (none is allowed) that
  make the target, the sum of the dice.
- A stack is one or more non-King cards combined by adding them all or, with
  two or more, by taking the largest minus all the others; then any number of
  Kings that all double or all halve (every halving leaves a whole number).
  A lone card of the target's value is a stack; Kings alone are not. Each
  stack scores 1 point. Two cards whose values are exactly the two dice make
  a special stack: 2 points.
- A player whose hand is empty after laying stacks scores 1 point (a card is
  turned up from the stock as its marker, if there is one) and takes another
  whole turn.
- The game ends when the stock is empty at the end of a turn. Score: stack
  points + run-out points - cards left in hand. Ties share the win.

Choices where the rules are silent (a careful teacher's, tested):

- The game ends when the stock is empty at the end of a turn even if that
  player has just run out: an empty hand and an empty stock leave nothing to
  do in the extra turn. The run-out point still counts.
- ``scores`` during play is the standing (stack and run-out points); once the
  game is over it is the final score, cards left in hand subtracted.
- When cards make the target both by adding and by subtracting, the
  explainer shows the adding (``stack_shape``).
- Only the players tied for the highest first roll roll again.
"""

from __future__ import annotations

import bisect
import dataclasses
import random
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import product
from typing import Any, ClassVar, TypeAlias

from mathcards.cards import Card, parse_cards, standard_deck
from mathcards.errors import MathCardsError, SettingsError
from mathcards.games.base import EMPTY, Event, Game, State, cached, reshuffle, rng_for, seat_name
from mathcards.games.dice_stacks.rule import (
    KING,
    MINUS,
    StackShape,
    check_dice,
    counts_points,
    not_a_stack,
    shape_of,
)
from mathcards.games.dice_stacks.rule import counts as _counts
from mathcards.games.dice_stacks.solver import best_stack_counts, stack_shapes
from mathcards.i18n import _, ngettext

__all__ = [
    "DiceStacks",
    "DiceStacksState",
    "DiceStacksView",
    "Draw",
    "DrawRest",
    "EndTurn",
    "LayStack",
    "Phase",
    "Roll",
    "StackShape",
    "StopDrawing",
    "best_stacks",
    "parse_move",
    "stack_points",
    "stack_problem",
    "stack_shape",
    "strong_policy",
]


class Phase(StrEnum):
    """Where a turn is: roll the dice, draw, draw more or stop, lay stacks; or over."""

    ROLL = "roll"
    DRAW = "draw"
    MORE = "more"
    STACKS = "stacks"
    OVER = "over"


# --- cards and stacks -------------------------------------------------------
def _card_order(card: Card) -> tuple[bool, int, str]:
    """Stack order: non-King cards from highest to lowest, Kings last."""
    return (card.rank == KING, -card.rank, card.suit)


def _check_cards(cards: Sequence[Card]) -> None:
    for card in cards:
        if not card.is_standard:
            raise MathCardsError(
                f"{card} is not a Dice Stacks card: the game uses standard cards A-K, no Jokers"
            )


def stack_points(cards: Iterable[Card | str] | str, dice: Sequence[int]) -> int:
    """Points these cards score as one stack: 0 (not a stack), 1, or 2 (special).

    >>> stack_points("QS 8H KD KC", (2, 3))
    1
    >>> stack_points("2C 4D", (2, 4))
    2
    >>> stack_points("10S 5H 4D", (5, 6))
    0
    """
    shape = stack_shape(cards, dice)
    return shape.points if shape is not None else 0


_STACK_ORDER = (*range(12, 0, -1), KING)  # highest first, Kings last


def best_stacks(hand: Iterable[Card | str] | str, dice: Sequence[int]) -> list[tuple[Card, ...]]:
    """Disjoint stacks from ``hand`` with the largest total of points (exact).

    Each stack is a tuple of cards in stack order (highest first, Kings last).

    >>> best_stacks("QD 8C KH KS 3S 2H 9D", (2, 3))
    [(Card('3S'), Card('2H')), (Card('QD'), Card('8C'), Card('KH'), Card('KS'))]
    """
    dice = check_dice(dice)
    cards = sorted(parse_cards(hand), key=_card_order)
    _check_cards(cards)
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    stacks = []
    for shape in best_stack_counts(_counts(cards), dice):
        stack: list[Card] = []
        for rank in _STACK_ORDER:
            # a plain loop: one or two cards a rank, where a generator costs more (bots)
            for _i in range(shape[rank - 1]):
                stack.append(by_rank[rank].pop(0))  # noqa: PERF401
        stacks.append(tuple(stack))
    return stacks


def stack_shape(cards: Iterable[Card | str] | str, dice: Sequence[int]) -> StackShape | None:
    """How ``cards`` make the dice's sum, or None when they are not a stack.

    >>> stack_shape("QS 8H KD KC", (2, 3)).expression()
    '(12 + 8) × ½ × ½ = 5'
    >>> stack_shape("AH 10S AD", (4, 4)).expression()
    '10 − 1 − 1 = 8'
    """
    dice = check_dice(dice)
    cards = parse_cards(cards)
    if any(not c.is_standard for c in cards):
        return None
    return shape_of(cards, dice)


def stack_problem(cards: Iterable[Card | str] | str, dice: Sequence[int]) -> str | None:
    """Why ``cards`` are not a stack for the dice, in words; None when they are.

    The rule's one wording (``rule.not_a_stack``), the cards read
    in stack order as a ``LayStack`` holds them.

    >>> stack_problem("10S 5H 4D", (5, 6))
    '10 + 5 − 4 mixes adding and subtracting: a stack only adds or only subtracts'
    >>> stack_problem("KS KH", (3, 4))
    'Kings alone are not a stack: Kings double or halve other cards'
    >>> stack_problem("2S 6H", (4, 5))
    '6 + 2 = 8 and 6 − 2 = 4, not 9'
    """
    dice = check_dice(dice)
    return not_a_stack(sorted(parse_cards(cards), key=_card_order), dice)

# --- actions -----------------------------------------------------------------
@dataclass(frozen=True)
class Roll:
    """Roll both dice."""

    def __str__(self) -> str:
        return "roll the dice"


@dataclass(frozen=True)
class Draw:
    """Draw the smaller die's number of cards (fewer if the stock runs short)."""

    count: int

    def __str__(self) -> str:
        return f"draw {self.count} card{'s' if self.count != 1 else ''}"


@dataclass(frozen=True)
class DrawRest:
    """Draw the rest, up to the larger die's number."""

    count: int

    def __str__(self) -> str:
        return f"draw {self.count} more card{'s' if self.count != 1 else ''}"


@dataclass(frozen=True)
class StopDrawing:
    """Keep the smaller number of cards and start making stacks."""

    def __str__(self) -> str:
        return "stop drawing"


@dataclass(frozen=True)
class LayStack:
    """Lay these cards down as one stack (kept in stack order: equal stacks are equal)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = parse_cards(self.cards)
        object.__setattr__(self, "cards", tuple(sorted(cards, key=_card_order)))

    def __str__(self) -> str:
        return "lay " + " ".join(c.symbol for c in self.cards) + " as a stack"


def _lay(cards: tuple[Card, ...]) -> LayStack:
    """A LayStack from cards already in stack order (skips the re-sort)."""
    action = object.__new__(LayStack)
    object.__setattr__(action, "cards", cards)
    return action


@dataclass(frozen=True)
class EndTurn:
    """Finish making stacks; the cards left stay in hand."""

    def __str__(self) -> str:
        return "end your turn"


# --- events ------------------------------------------------------------------
@dataclass(frozen=True)
class FirstPlayerRolls(Event):
    """Everyone rolled two dice to choose the first player (ties rolled again)."""

    rolls: tuple[tuple[tuple[int, tuple[int, int]], ...], ...]
    first_player: int

    def describe(self, names: Sequence[str] = ()) -> str:
        # a list of rolls: one phrase per roll, joined (the whole sentence is one msgid)
        rounds = [
            ", ".join(_("{who} rolled {a}+{b}").format(who=seat_name(names, p), a=a, b=b)
                      for p, (a, b) in group)
            for group in self.rolls
        ]
        return _("{rolls}: {first} goes first.").format(
            rolls=_("; then ").join(rounds), first=seat_name(names, self.first_player))


@dataclass(frozen=True)
class DiceRolled(Event):
    """The dice rolled; ``draws``: the fewest and most cards the player may now draw (the
    smaller and the larger die, each at most what the stock holds)."""

    player: int
    dice: tuple[int, int]
    draws: tuple[int, int]

    def describe(self, names: Sequence[str] = ()) -> str:
        a, b = self.dice
        return _("{who} rolled {a} and {b}: making {total}s.").format(
            who=seat_name(names, self.player), a=a, b=b, total=a + b)


@dataclass(frozen=True)
class CardsDrawn(Event):
    player: int
    cards: tuple[Card, ...]
    count: int

    def describe(self, names: Sequence[str] = ()) -> str:
        n = self.count
        return ngettext("{who} drew {n} card.", "{who} drew {n} cards.", n).format(
            who=seat_name(names, self.player), n=n)


@dataclass(frozen=True)
class StackLaid(Event):
    """A stack laid, with its ``shape``: how it makes the target (the rule's derivation,
    worked out by the one stack rule when first asked: bots' playouts never ask)."""

    player: int
    cards: tuple[Card, ...]
    dice: tuple[int, int]
    target: int
    points: int

    @cached
    def shape(self) -> StackShape | None:
        return shape_of(self.cards, self.dice)

    def describe(self, names: Sequence[str] = ()) -> str:
        how = self.shape.expression() if self.shape else str(self.target)
        cards = " ".join(c.symbol for c in self.cards)
        if self.points == 2:
            text = _("{who} laid {cards}: {how} (special stack), {n} points.")
        else:
            text = ngettext("{who} laid {cards}: {how}, {n} point.",
                            "{who} laid {cards}: {how}, {n} points.", self.points)
        return text.format(who=seat_name(names, self.player), cards=cards, how=how,
                           n=self.points)


@dataclass(frozen=True)
class RanOut(Event):
    player: int
    marker: Card | None

    def describe(self, names: Sequence[str] = ()) -> str:
        # the marker card says what it is for: it counts the run-out point on the table
        who = seat_name(names, self.player)
        if self.marker:
            return _("{who} ran out of cards: 1 point ({card} from the stock is turned face up "
                     "beside them to count it) and another turn.").format(
                who=who, card=self.marker.symbol)
        return _("{who} ran out of cards: 1 point and another turn.").format(who=who)


@dataclass(frozen=True)
class TurnEnded(Event):
    player: int
    cards_in_hand: int

    def describe(self, names: Sequence[str] = ()) -> str:
        who = seat_name(names, self.player)
        return _("{who} ended the turn with {n} in hand.").format(who=who, n=self.cards_in_hand)


@dataclass(frozen=True)
class GameEnded(Event):
    scores: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        text = ", ".join(f"{seat_name(names, i)}: {s}" for i, s in enumerate(self.scores))
        return _("The stock is empty: the game is over ({scores}).").format(scores=text)


# --- the game ----------------------------------------------------------------
@dataclass(frozen=True)
class DiceStacks(Game):
    """Dice Stacks for 2-8 players; ``decks`` None means one per two players."""

    name: ClassVar[str] = "dice_stacks"
    title: ClassVar[str] = "Dice Stacks"
    move_example: ClassVar[str] = "lay 10H AS AD"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    actions: ClassVar[Mapping[str, type]] = {
        "roll": Roll,
        "draw": Draw,
        "draw-rest": DrawRest,
        "stop-drawing": StopDrawing,
        "lay-stack": LayStack,
        "end-turn": EndTurn,
    }
    v1_actions: ClassVar[Mapping[str, str]] = {
        "Roll": "roll",
        "Draw": "draw",
        "DrawRest": "draw-rest",
        "StopDrawing": "stop-drawing",
        "LayStack": "lay-stack",
        "EndTurn": "end-turn",
    }

    decks: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        d = self.decks
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 8):
            raise SettingsError(
                f"decks must be a whole number 1-8 (or None for one per two players), not {d!r}"
            )

    @property
    def num_decks(self) -> int:
        return self.decks if self.decks is not None else (self.num_players + 1) // 2

    def deck(self) -> tuple[Card, ...]:
        return standard_deck(jokers=0, decks=self.num_decks)

    def position(
        self, hand: Iterable[Card | str] | str, dice: Sequence[int], *, seed: int = 0
    ) -> DiceStacksState:
        """A real state from an exercise's position: seat 0 to make stacks of the dice
        with ``hand`` (drawn), the others with empty hands, the stock empty."""
        cards = parse_cards(hand)
        _check_cards(cards)
        n = self.num_players
        hands = (tuple(sorted(cards, key=_card_order)),) + ((),) * (n - 1)
        return DiceStacksState(
            game=self, seed=seed, turn=0, first_player=0, phase=Phase.STACKS,
            dice=check_dice(dice), stock=(), hands=hands, stacks=((),) * n,
            stack_points=(0,) * n, run_outs=(0,) * n, markers=((),) * n,
        )

    def _new_game(self, seed: int) -> DiceStacksState:
        rng = rng_for(seed, 0)
        stock = list(self.deck())
        rng.shuffle(stock)
        first, rolls = _first_player_rolls(rng, self.num_players)
        n = self.num_players
        return DiceStacksState(
            game=self,
            seed=seed,
            log=EMPTY.push((FirstPlayerRolls(None, rolls, first),)),
            turn=first,
            first_player=first,
            phase=Phase.ROLL,
            dice=None,
            stock=tuple(stock),
            hands=((),) * n,
            stacks=((),) * n,
            stack_points=(0,) * n,
            run_outs=(0,) * n,
            markers=((),) * n,
        )

    def _private_deal(
        self, state: State, rng: random.Random, known_seat: int | None
    ) -> dict[str, Any]:
        """Nobody holds a card at the start: the whole stock is hidden (the first-player
        rolls are public); the dice of every turn come from the private seed."""
        assert isinstance(state, DiceStacksState)
        return {"stock": reshuffle(rng, [state.stock])[0]}


Rolls = tuple[tuple[tuple[int, tuple[int, int]], ...], ...]


def _first_player_rolls(rng: random.Random, players: int) -> tuple[int, Rolls]:
    contenders = list(range(players))
    rounds = []
    while True:
        group = tuple((p, (rng.randint(1, 6), rng.randint(1, 6))) for p in contenders)
        rounds.append(group)
        high = max(a + b for _, (a, b) in group)
        contenders = [p for p, (a, b) in group if a + b == high]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


@dataclass(frozen=True)
class DiceStacksView:
    """What one player may see: own hand, the table, other hands as counts."""

    player: int
    num_players: int
    current_player: int | None
    phase: Phase
    dice: tuple[int, int] | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stacks: tuple[tuple[tuple[Card, ...], ...], ...]
    stack_points: tuple[int, ...]
    run_outs: tuple[int, ...]
    markers: tuple[tuple[Card, ...], ...]
    stock_size: int
    scores: tuple[int, ...]


Shape = tuple[int, ...]


class LegalStacks(Sequence[Any]):
    """Every legal stack of a hand, plus ending the turn, without listing them first.

    ``in`` is a direct check (cards held, and a stack); iteration and indexing
    walk the stacks' rank shapes and pick suits on demand. EndTurn comes last.
    """

    def __init__(
        self, hand: tuple[Card, ...], dice: tuple[int, int], shapes: tuple[Shape, ...]
    ) -> None:
        self.hand = hand
        self.dice = dice
        self.shapes = shapes
        self._choices: dict[tuple[int, int], list[tuple[Card, ...]]] = {}

    @cached
    def _runs(self) -> list[list[Any]]:
        """[card, how many] for each distinct card, in stack order (the hand's order)."""
        runs: list[list[Any]] = []
        for card in self.hand:
            if runs and runs[-1][0] == card:
                runs[-1][1] += 1
            else:
                runs.append([card, 1])
        return runs

    @cached
    def _held(self) -> dict[Card, int]:
        return dict(self._runs)

    @cached
    def _by_rank(self) -> dict[int, list[Card]]:
        by_rank: dict[int, list[Card]] = {}
        for card, _run in self._runs:
            by_rank.setdefault(card.rank, []).append(card)
        return by_rank

    def _pick(self, rank: int, n: int) -> list[tuple[Card, ...]]:
        """Distinct ways to take n cards of this rank from the hand."""
        key = (rank, n)
        got = self._choices.get(key)
        if got is None:
            distinct = self._by_rank[rank]
            held = self._held
            got = []

            def take(i: int, left: int, chosen: tuple[Card, ...]) -> None:
                if left == 0:
                    got.append(chosen)
                    return
                if i == len(distinct):
                    return
                card = distinct[i]
                for m in range(min(left, held[card]), -1, -1):
                    take(i + 1, left - m, chosen + (card,) * m)

            take(0, n, ())
            self._choices[key] = got
        return got

    def _parts(self, shape: tuple[int, ...]) -> list[list[tuple[Card, ...]]]:
        """The ways to take each rank of ``shape`` from the hand, in stack order."""
        return [self._pick(r, shape[r - 1]) for r in _STACK_ORDER if shape[r - 1]]

    @cached
    def _ways(self) -> dict[int, list[int]]:
        """For each rank: how many distinct ways to take 0, 1, 2... of its cards."""
        ways: dict[int, list[int]] = {}
        for card, m in self._runs:
            poly = ways.get(card.rank, [1])
            grown = [0] * (len(poly) + m)
            for i, a in enumerate(poly):
                for j in range(m + 1):
                    grown[i + j] += a
            ways[card.rank] = grown
        return ways

    @cached
    def _offsets(self) -> list[int]:
        ways = self._ways
        offsets = [0]
        total = 0
        for shape in self.shapes:
            size = 1
            for i, n in enumerate(shape):
                if n:
                    size *= ways[i + 1][n]
            total += size
            offsets.append(total)
        return offsets

    def __len__(self) -> int:
        if not self.shapes:
            return 1
        return self._offsets[-1] + 1

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        total = len(self)
        if index < 0:
            index += total
        if not 0 <= index < total:
            raise IndexError(index)
        if index == total - 1:
            return EndTurn()
        s = bisect.bisect_right(self._offsets, index) - 1
        index -= self._offsets[s]
        cards: tuple[Card, ...] = ()
        parts = self._parts(self.shapes[s])
        picks = []
        for part in reversed(parts):
            index, i = divmod(index, len(part))
            picks.append(part[i])
        for pick in reversed(picks):
            cards += pick
        return _lay(cards)

    def __iter__(self) -> Iterator[Any]:
        for shape in self.shapes:
            for picks in product(*self._parts(shape)):
                yield _lay(sum(picks, ()))
        yield EndTurn()

    def __contains__(self, action: object) -> bool:
        if isinstance(action, EndTurn):
            return True
        if not isinstance(action, LayStack) or not action.cards:
            return False
        # both in stack order: the stack must be a sub-sequence of the hand
        hand = self.hand
        i, n = 0, len(hand)
        for card in action.cards:
            while i < n and hand[i] != card:
                i += 1
            if i == n:
                return False
            i += 1
        return counts_points(_counts(action.cards), self.dice) > 0


def _fits(shape: tuple[int, ...], counts: Sequence[int]) -> bool:
    return all(a <= b for a, b in zip(shape, counts, strict=True))


# every action of this game: the classes of its ``actions`` (tests/test_typing.py checks)
DiceStacksAction: TypeAlias = Roll | Draw | DrawRest | StopDrawing | LayStack | EndTurn


@dataclass(frozen=True, kw_only=True)
class DiceStacksState(State[DiceStacks, DiceStacksAction]):
    """A position of Dice Stacks. ``phase`` is roll, draw, more, stacks or over."""

    turn: int
    first_player: int
    phase: Phase
    dice: tuple[int, int] | None
    stock: tuple[Card, ...]  # the top card is the last one
    hands: tuple[tuple[Card, ...], ...]
    stacks: tuple[tuple[tuple[Card, ...], ...], ...]
    stack_points: tuple[int, ...]
    run_outs: tuple[int, ...]
    markers: tuple[tuple[Card, ...], ...]
    stack_cache: tuple[Shape, ...] | None = field(default=None, compare=False, repr=False)

    # --- the protocol -----------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.phase == Phase.OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def points(self) -> tuple[int, ...]:
        """Stack points plus run-out points, per player."""
        return tuple(a + b for a, b in zip(self.stack_points, self.run_outs, strict=True))

    @property
    def scores(self) -> tuple[int, ...]:
        """The standing; once the game is over, minus the cards left in each hand."""
        if self.phase == Phase.OVER:
            return tuple(p - len(h) for p, h in zip(self.points, self.hands, strict=True))
        return self.points

    @property
    def target(self) -> int | None:
        return sum(self.dice) if self.dice else None

    @property
    def rolled(self) -> tuple[int, int]:
        """The dice, once rolled (every phase but roll and over)."""
        assert self.dice is not None, "the dice are not rolled yet"
        return self.dice

    def _legal_actions(self) -> Collection[Any]:
        phase = self.phase
        if phase == Phase.ROLL:
            return (Roll(),)
        if phase == Phase.DRAW:
            return (Draw(min(min(self.rolled), len(self.stock))),)
        if phase == Phase.MORE:
            rest = max(self.rolled) - min(self.rolled)
            return (DrawRest(min(rest, len(self.stock))), StopDrawing())
        hand = self.hands[self.turn]
        shapes = self.stack_cache
        if shapes is None:
            shapes = tuple(stack_shapes(_counts(hand), sum(self.rolled)))
        return LegalStacks(hand, self.rolled, shapes)

    def _draw(self, count: int) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        drawn = self.stock[len(self.stock) - count :][::-1]
        stock = self.stock[: len(self.stock) - count]
        hand = tuple(sorted(self.hands[self.turn] + drawn, key=_card_order))
        return stock, hand, drawn

    def _with_hand(self, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
        hands = list(self.hands)
        hands[self.turn] = hand
        return tuple(hands)

    def _apply(self, action: Any) -> tuple[dict[str, Any], Iterable[Event]]:
        p = self.turn
        if isinstance(action, Roll):
            rng = self.rng()
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            in_stock = len(self.stock)
            draws = (min(min(dice), in_stock), min(max(dice), in_stock))
            return {"dice": dice, "phase": Phase.DRAW}, (DiceRolled(p, dice, draws),)
        if isinstance(action, Draw | DrawRest):
            stock, hand, drawn = self._draw(action.count)
            more = isinstance(action, Draw) and self.rolled[0] != self.rolled[1] and stock
            phase = Phase.MORE if more else Phase.STACKS
            return (
                {"stock": stock, "hands": self._with_hand(hand), "phase": phase},
                (CardsDrawn(p, drawn, len(drawn)),),
            )
        if isinstance(action, StopDrawing):
            return {"phase": Phase.STACKS}, ()
        if isinstance(action, LayStack):
            left = list(self.hands[p])
            for card in action.cards:
                left.remove(card)
            hand_t = tuple(left)
            points = counts_points(_counts(action.cards), self.rolled)
            stacks = list(self.stacks)
            stacks[p] = stacks[p] + (action.cards,)
            scored = list(self.stack_points)
            scored[p] += points
            counts = _counts(hand_t)
            legal = self._legal
            assert isinstance(legal, LegalStacks)
            shapes = tuple(s for s in legal.shapes if _fits(s, counts))
            event = StackLaid(p, action.cards, self.rolled, sum(self.rolled), points)
            return (
                {
                    "hands": self._with_hand(hand_t),
                    "stacks": tuple(stacks),
                    "stack_points": tuple(scored),
                    "stack_cache": shapes,
                },
                (event,),
            )
        # EndTurn
        hand = self.hands[p]
        events: list[Event] = [TurnEnded(p, len(hand))]
        changes: dict[str, Any] = {"dice": None, "phase": Phase.ROLL, "stack_cache": None}
        stock = self.stock
        ran_out = not hand
        if ran_out:
            marker = stock[-1] if stock else None
            if marker is not None:
                stock = stock[:-1]
                markers = list(self.markers)
                markers[p] = markers[p] + (marker,)
                changes["markers"] = tuple(markers)
                changes["stock"] = stock
            run_outs = list(self.run_outs)
            run_outs[p] += 1
            changes["run_outs"] = tuple(run_outs)
            events.append(RanOut(p, marker))
        if not stock:
            changes["phase"] = Phase.OVER
            final = dataclasses.replace(self, **changes)
            events.append(GameEnded(None, final.scores))
        elif not ran_out:
            changes["turn"] = (p + 1) % self.game.num_players
        return changes, events

    def why_illegal(self, action: Any) -> str:
        phase = self.phase
        if isinstance(action, Roll):
            return {
                Phase.DRAW: _("you have already rolled: draw your cards"),
                Phase.MORE: _("you have already rolled: draw the rest or stop"),
                Phase.STACKS: _("you have already rolled: make stacks or end your turn"),
            }.get(self.phase, _("you have already rolled: wait for your turn"))
        if isinstance(action, Draw | DrawRest | StopDrawing):
            if phase == Phase.ROLL:
                return _("roll the dice first")
            if phase == Phase.STACKS:
                return _("you have finished drawing: make stacks or end your turn")
            small, big = min(self.rolled), max(self.rolled)
            if phase == Phase.DRAW:
                if isinstance(action, Draw):
                    n = min(small, len(self.stock))
                    return ngettext("draw the smaller die's number first: {n} card",
                                    "draw the smaller die's number first: {n} cards",
                                    n).format(n=n)
                return _("draw the smaller die's number first ({small}), then decide on the "
                         "rest").format(small=small)
            if isinstance(action, Draw):
                return _("you have drawn the first cards: draw the rest or stop")
            n = min(big - small, len(self.stock))
            return ngettext("the rest is {n} card ({big} {minus} {small})",
                            "the rest is {n} cards ({big} {minus} {small})", n).format(
                n=n, big=big, minus=MINUS, small=small)
        if isinstance(action, LayStack | EndTurn):
            if phase == Phase.ROLL:
                return _("roll the dice first")
            if phase in (Phase.DRAW, Phase.MORE):
                return _("draw your cards first")
            if isinstance(action, EndTurn):  # pragma: no cover - always legal in stacks
                return _("it is not one of the moves allowed now")
            if not action.cards:
                return _("a stack needs at least one card")
            held = Counter(self.hands[self.turn])
            for card, n in Counter(action.cards).items():
                if held[card] < n:
                    if held[card]:
                        return _("you do not hold {card} that many times").format(
                            card=card.symbol)
                    return _("you do not hold {card}").format(card=card.symbol)
            return stack_problem(action.cards, self.rolled) or _("it is not a stack")
        return _("it is not one of the moves allowed now")

    def observation(self, player: int) -> DiceStacksView:
        return DiceStacksView(
            player=player,
            num_players=self.game.num_players,
            current_player=self.current_player,
            phase=self.phase,
            dice=self.dice,
            hand=self.hands[player],
            hand_sizes=tuple(len(h) for h in self.hands),
            stacks=self.stacks,
            stack_points=self.stack_points,
            run_outs=self.run_outs,
            markers=self.markers,
            stock_size=len(self.stock),
            scores=self.scores,
        )

    def all_cards(self) -> Iterable[Card]:
        yield from self.stock
        for hand in self.hands:
            yield from hand
        for stacks in self.stacks:
            for stack in stacks:
                yield from stack
        for markers in self.markers:
            yield from markers


# --- typed moves -------------------------------------------------------------------
_VERB = re.compile(r"^(lay|stack|play)\b\s*(.*)$")


def parse_move(state: DiceStacksState, text: str) -> Any:
    """The move ``text`` names in ``state`` (the one move notation of Dice Stacks):
    ``roll``, ``draw``, ``more``, ``stop``, ``end``, ``lay 10H AS AD`` (or just the
    cards: ``10H AS AD``). A move not allowed now is returned for the engine to
    refuse with its reason; text that names no move is a ``MathCardsError``.
    """
    raw = " ".join(text.strip().split())
    low = raw.lower()
    phase = state.phase
    if low in ("roll", "roll the dice"):
        return Roll()
    if low in ("draw", "draw cards"):
        if phase in (Phase.DRAW, Phase.MORE):
            return next(a for a in state.legal_actions() if isinstance(a, Draw | DrawRest))
        return Draw(1)  # refused with the engine's reason
    if low in ("more", "draw more", "draw the rest", "rest"):
        if phase == Phase.MORE:
            return next(a for a in state.legal_actions() if isinstance(a, DrawRest))
        return DrawRest(1)
    if low in ("stop", "stop drawing"):
        return StopDrawing()
    if low in ("end", "end turn", "done"):
        return EndTurn()
    m = _VERB.match(low)
    rest = m.group(2) if m else raw
    try:
        cards = parse_cards(rest)
    except MathCardsError:
        cards = ()
    if not cards:
        raise MathCardsError(
            f"{raw!r} is not a move: try roll, draw, more, stop, end, or lay 10H AS AD")
    return LayStack(cards)


# --- bots ----------------------------------------------------------------------
def strong_policy(view: DiceStacksView, legal: Collection[Any], rng: random.Random) -> Any:
    """Always lay the best stacks (one per move); draw the rest unless the cards in
    hand already run out (bonus point) or the stock is nearly gone."""
    if view.phase in (Phase.ROLL, Phase.DRAW):
        return next(iter(legal))
    dice = view.dice
    assert dice is not None
    if view.phase == Phase.MORE:
        hand = view.hand
        stacked = sum(len(s) for s in best_stacks(hand, dice))
        if hand and stacked == len(hand):
            return StopDrawing()
        if view.stock_size <= 2 * view.num_players and len(hand) >= 4:
            return StopDrawing()
        return next(a for a in legal if isinstance(a, DrawRest))
    stacks = best_stacks(view.hand, dice)
    if stacks:
        action = LayStack(stacks[0])
        if action in legal:
            return action
    return EndTurn()
