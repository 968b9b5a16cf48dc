"""A Sums position and its transitions: reading it, its legal moves, applying a move."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from mathcards.cards import Card
from mathcards.games.base import Event, State
from mathcards.games.sums.actions import (
    _COUNTER,
    _DECLINE,
    _DRAW,
    _END_GAME,
    _PLAY,
    _TAKE_BACK,
    Capture,
    Counter,
    Decline,
    Draw,
    EndGame,
    Play,
    TakeBack,
    _cached,
)
from mathcards.games.sums.events import (
    Captured,
    CaptureThreatened,
    CardDrawn,
    CardPlayed,
    CardTakenBack,
    CounterDeclined,
    Countered,
    GameEnded,
    LastPlay,
    TurnSkipped,
)
from mathcards.games.sums.pieces import (
    CHOOSE,
    COUNTER,
    LAST,
    OVER,
    PLAY,
    START,
    Phase,
    SumsObservation,
    Threat,
)
from mathcards.games.sums.refusals import why_illegal
from mathcards.games.sums.rules import _POINTS, TAKE_BACK_LIMIT, CaptureWay, _ways
from mathcards.games.sums.settings import SumsSettings


def _remove(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1:])


def _unique(cards: Iterable[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _scores(sides: Iterable[tuple[Card, ...]], captured: Iterable[tuple[Card, ...]]
            ) -> tuple[int, ...]:
    """Points of the cards on each side plus each player's captured cards."""
    return tuple(
        sum(_POINTS[c.rank] for c in side) + sum(_POINTS[c.rank] for c in caught)
        for side, caught in zip(sides, captured, strict=True)
    )


# every action of this game: the classes of its ``actions`` (tests/test_typing.py checks)
SumsAction: TypeAlias = Draw | Play | Capture | Counter | Decline | TakeBack | EndGame


@dataclass(frozen=True, kw_only=True)
class SumsState(State[SumsSettings, SumsAction]):
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
        return _scores(self.sides, self.captured)

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
        if phase in (START, PLAY):
            # a turn starts with a draw, then a play (or take-back); in "draw or play"
            # the play (or take-back) may come instead of the draw
            actions: list[Any] = []
            if phase == START:
                actions += [_cached(_DRAW, Draw, i) for i in range(len(self.piles))]
            if phase == PLAY or self.game.variant_draw_or_play:
                actions += [_cached(_PLAY, Play, c) for c in _unique(self.hands[p])]
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
        return why_illegal(self, action)

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
        scores = _scores(changes.get("sides", self.sides), changes.get("captured", self.captured))
        events.append(GameEnded(None, scores))
