"""A Suns to Moons position and its transitions: reading it, its moves, its refusals."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from mathcards.cards import Card
from mathcards.games.base import Event, State, cached, number
from mathcards.games.suns_to_moons.actions import END_TURN, PASS, EndTurn, Pass, Play, Turn
from mathcards.games.suns_to_moons.deal import _deal_round, _draw
from mathcards.games.suns_to_moons.events import (
    CardPlayed,
    CardsDealt,
    GameWon,
    GoalReached,
    GoalTooEarly,
    JokerPlayed,
    Passed,
    RoundAbandoned,
    RoundWon,
    TurnEnded,
)
from mathcards.games.suns_to_moons.rules import (
    BOUND,
    HAND_SIZE,
    MIN_DECK_FOR_GOAL,
    after_joker,
    card_values,
    signed,
)
from mathcards.games.suns_to_moons.settings import SunsToMoonsSettings
from mathcards.games.suns_to_moons.turns import _Options, _turn_options, legal_turns
from mathcards.i18n import _


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


# every action of this game: the classes of its ``actions`` (tests/test_typing.py checks)
SunsToMoonsAction: TypeAlias = Play | EndTurn | Pass


@dataclass(frozen=True, kw_only=True)
class SunsToMoonsState(State[SunsToMoonsSettings, SunsToMoonsAction]):
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
        """The highest score among the players: the value the deck must reach. Once the
        game is over it is the goal the deck reached (the winner's point is already
        counted in ``points``: nobody had the target before, so it was one less)."""
        if self.practice_goal is not None:
            return self.practice_goal
        return max(self.points) - 1 if self.over else max(self.points)

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
                events.append(RoundWon(p, goal, points[p], counted, table))
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
            return _("you hold cards, so you must play one; you may pass only with no cards "
                     "and none left to deal")
        if isinstance(action, EndTurn):
            if self.pending is None:
                return _("you may end your turn without a card only right after playing a "
                         "Joker")
            return _("after the Joker the deck is {deck}, outside ±{bound}, and a second card "
                     "can bring it back within ±{bound}: you must play one").format(
                deck=number(self.deck_value), bound=BOUND)
        if not isinstance(action, Play):  # pragma: no cover - base checks the type
            return _("it is not a Suns to Moons move")
        card = action.card
        if not hand:
            return _("you have no cards and there are none left to deal: you must pass")
        if card.suit == "JK":
            if self.pending is not None:
                return _("after a Joker you may play one more card that is not a Joker")
            if card not in hand:
                return _("you do not hold a Joker")
            if action.sign != 0 or action.value != 0:
                return _("a Joker has no orientation or value: play it as Play(JK, 0, 0); it "
                         "removes the last card still counted")
            after = sum(after_joker(self.counted))
            return _("the Joker would leave the deck at {deck} and no card after it brings "
                     "the deck back between −{bound} and {bound}; the deck must stay between "
                     "−{bound} and {bound} whenever another card can keep it there").format(
                deck=number(after), bound=BOUND)
        if card not in hand:
            return _("you do not hold {card}").format(card=card.symbol)
        if action.sign not in (1, -1):
            return _("a card is played across (sign +1, it adds) or upright "
                     "(sign −1, it subtracts)")
        values = card_values(card)
        if action.value not in values:
            if card.rank == 1:
                return _("an Ace counts 1 or 14")
            return _("{card} counts {value}").format(card=card.symbol, value=values[0])
        after = self.deck_value + action.contribution
        return _("{card} as {change} would make the deck {deck}; the deck must stay between "
                 "−{bound} and {bound} whenever another card can keep it there").format(
            card=card.symbol, change=signed(action.contribution), deck=number(after),
            bound=BOUND)

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
            goal=self.goal,
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
