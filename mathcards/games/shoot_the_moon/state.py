"""The Shoot the Moon engine: settings, a position and its transitions."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from mathcards.cards import Card
from mathcards.errors import MathCardsError, SettingsError
from mathcards.games.base import Event, Game, State, rng_for
from mathcards.games.shoot_the_moon.actions import Play, _play
from mathcards.games.shoot_the_moon.events import (
    CardPlayed,
    ChipsChanged,
    GameWon,
    HandDealt,
    RoundScored,
    TrickWon,
)
from mathcards.games.shoot_the_moon.rules import (
    _DECK,
    BIG,
    HAND_SIZE,
    LITTLE,
    START_CHIPS,
    TRICKS_PER_ROUND,
    _explain,
    _is_moon,
    _legal_cards,
    follow_rule,
    moon_chips,
    moons_in,
    round_award,
)
from mathcards.i18n import Said, _, later, later_n


@dataclass(frozen=True)
class MoonObservation:
    """What one seat may see: its own hand and everything face up on the table."""

    seat: int
    num_players: int
    partnerships: bool
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]
    trick_players: tuple[int, ...]
    current_player: int | None
    dealer: int
    round_number: int
    trick_number: int
    tricks_won: tuple[int, ...]
    chips: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    dummy_cards_left: int
    played_this_round: tuple[Card, ...]
    last_trick: tuple[Card, ...]
    last_trick_players: tuple[int, ...]
    last_trick_winner: int | None
    is_over: bool

    @property
    def led_card(self) -> Card | None:
        return self.trick[0] if self.trick else None

    def side_of(self, seat: int) -> int:
        if seat >= self.num_players:
            return -1  # dummy
        return seat % 2 if self.partnerships else seat


# --- the game ----------------------------------------------------------------
@dataclass(frozen=True)
class ShootTheMoon(Game):
    """Shoot the Moon for 2-6 players (2 players add a dummy hand)."""

    name: ClassVar[str] = "shoot_the_moon"
    title: ClassVar[str] = "Shoot the Moon"
    move_example: ClassVar[str] = "G9"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    actions: ClassVar[Mapping[str, type]] = {
        "play": Play,
    }
    v1_actions: ClassVar[Mapping[str, str]] = {
        "Play": "play",
    }

    partnerships: bool = False
    target_chips: int = 7

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.partnerships, bool):
            raise SettingsError(f"partnerships must be true or false, not {self.partnerships!r}")
        if self.partnerships and self.num_players not in (4, 6):
            raise SettingsError(
                f"partnerships need 4 or 6 players, not {self.num_players}: "
                "choose 4 or 6 players or play individually"
            )
        t = self.target_chips
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 40:
            raise SettingsError(f"target_chips must be a whole number from 1 to 40, not {t!r}")

    @property
    def has_dummy(self) -> bool:
        return self.num_players == 2

    @property
    def num_sides(self) -> int:
        return 2 if self.partnerships else self.num_players

    def side_of(self, seat: int) -> int:
        """The chip pile a seat plays for (its own, or its partnership's)."""
        return seat % 2 if self.partnerships else seat

    def side_seats(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.num_players) if self.side_of(s) == side)

    def deck(self) -> tuple[Card, ...]:
        return _DECK

    def _new_game(self, seed: int) -> MoonState:
        n = self.num_players
        base = MoonState(
            game=self,
            seed=seed,
            hands=((),) * n,
            chips=(START_CHIPS,) * self.num_sides,
            dealer=n - 1,
            round_number=0,
        )
        changes, events = base._deal(rng_for(seed, 0), dealer=n - 1, round_number=1)
        return dataclasses.replace(base, log=base.log.push(tuple(events)), **changes)


# every action of this game: the classes of its ``actions`` (tests/test_typing.py checks)
ShootTheMoonAction: TypeAlias = Play


@dataclass(frozen=True, kw_only=True)
class MoonState(State[ShootTheMoon, ShootTheMoonAction]):
    """A position: hands, the trick on the table, tricks taken and chips."""


    hands: tuple[tuple[Card, ...], ...]
    dummy_pile: tuple[Card, ...] = ()
    unused: tuple[Card, ...] = ()
    trick: tuple[Card, ...] = ()
    trick_players: tuple[int, ...] = ()
    taken: tuple[tuple[Card, ...], ...] = ()
    tricks_won: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    dealer: int = 0
    to_play: int | None = None
    round_number: int = 1
    tricks_played: int = 0
    played: tuple[Card, ...] = ()
    last_trick: tuple[Card, ...] = ()
    last_trick_players: tuple[int, ...] = ()
    last_trick_winner: int | None = None
    winning_side: int | None = None

    # --- protocol ----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.to_play

    @property
    def _seat(self) -> int:
        """The seat to play, while the game runs."""
        seat = self.to_play
        if seat is None:
            raise MathCardsError(_("the game is over: nobody is to play"))
        return seat

    @property
    def is_over(self) -> bool:
        return self.winning_side is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's chips (partners share their side's chips)."""
        if self.game.partnerships:
            return tuple(self.chips[self.game.side_of(s)] for s in range(self.game.num_players))
        return self.chips

    @property
    def led_card(self) -> Card | None:
        return self.trick[0] if self.trick else None

    def _legal_actions(self) -> tuple[Play, ...]:
        hand = self.hands[self._seat]
        return tuple(dict.fromkeys(_play(c) for c in _legal_cards(hand, self.led_card)))

    def why_illegal(self, action: Any) -> str:
        card = action.card
        if not (card.is_moon_card or _is_moon(card)):
            return _("{card} is not a Shoot the Moon card (cards are R/G/P/B 1-12, BIG, "
                     "LITTLE)").format(card=card)
        hand = self.hands[self._seat]
        if card not in hand:
            # never the hand: a room relays refusals
            return _("you do not hold {card}").format(card=card.symbol)
        return follow_rule(hand, self.led_card)

    def all_cards(self) -> Iterable[Card]:
        for hand in self.hands:
            yield from hand
        yield from self.dummy_pile
        yield from self.unused
        yield from self.trick
        for pile in self.taken:
            yield from pile

    def observation(self, player: int) -> MoonObservation:
        game = self.game
        return MoonObservation(
            seat=player,
            num_players=game.num_players,
            partnerships=game.partnerships,
            hand=self.hands[player],
            trick=self.trick,
            trick_players=self.trick_players,
            current_player=self.to_play,
            dealer=self.dealer,
            round_number=self.round_number,
            trick_number=self.tricks_played + 1,
            tricks_won=self.tricks_won,
            chips=self.scores,
            hand_sizes=tuple(len(h) for h in self.hands),
            dummy_cards_left=len(self.dummy_pile),
            played_this_round=self.played,
            last_trick=self.last_trick,
            last_trick_players=self.last_trick_players,
            last_trick_winner=self.last_trick_winner,
            is_over=self.is_over,
        )

    # --- play --------------------------------------------------------------
    def _deal(
        self, rng: random.Random, dealer: int, round_number: int
    ) -> tuple[dict[str, Any], list[Event]]:
        game = self.game
        n = game.num_players
        cards = list(_DECK)
        rng.shuffle(cards)
        hands_count = n + 1 if game.has_dummy else n
        # One card at a time, starting left of the dealer; dummy (2 players) last.
        order = [(dealer + 1 + i) % n for i in range(n)] + ([n] if game.has_dummy else [])
        dealt = {seat: tuple(cards[i : HAND_SIZE * hands_count : hands_count])
                 for i, seat in enumerate(order)}
        leader = (dealer + 1) % n
        changes = {
            "hands": tuple(dealt[s] for s in range(n)),
            "dummy_pile": dealt.get(n, ()),
            "unused": tuple(cards[HAND_SIZE * hands_count :]),
            "trick": (),
            "trick_players": (),
            "taken": ((),) * hands_count,
            "tricks_won": (0,) * hands_count,
            "dealer": dealer,
            "to_play": leader,
            "round_number": round_number,
            "tricks_played": 0,
            "played": (),
        }
        return changes, [HandDealt(dealer, round_number, leader, HAND_SIZE, game.has_dummy)]

    def _apply(self, action: Play) -> tuple[dict[str, Any], list[Event]]:
        game = self.game
        n = game.num_players
        seat = self._seat
        card = action.card
        hand = list(self.hands[seat])
        hand.remove(card)
        hands = (*self.hands[:seat], tuple(hand), *self.hands[seat + 1:])
        trick = (*self.trick, card)
        players = (*self.trick_players, seat)
        played = (*self.played, card)
        events: list[Event] = [CardPlayed(seat, card)]
        dummy_pile = self.dummy_pile
        if game.has_dummy:
            if len(trick) == 2 and players[0] != n:
                # After each player has played, dummy's top card is turned up third.
                top, dummy_pile = dummy_pile[0], dummy_pile[1:]
                trick += (top,)
                players += (n,)
                played += (top,)
                events.append(CardPlayed(n, top, True))
            size = 3
        else:
            size = n
        if len(trick) < size:
            nxt = 1 - seat if game.has_dummy else (seat + 1) % n
            return (
                {"hands": hands, "trick": trick, "trick_players": players, "played": played,
                 "to_play": nxt, "dummy_pile": dummy_pile},
                events,
            )
        return self._finish_trick(hands, dummy_pile, trick, players, played, events)

    def _finish_trick(
        self,
        hands: tuple[tuple[Card, ...], ...],
        dummy_pile: tuple[Card, ...],
        trick: tuple[Card, ...],
        players: tuple[int, ...],
        played: tuple[Card, ...],
        events: list[Event],
    ) -> tuple[dict[str, Any], list[Event]]:
        game = self.game
        n = game.num_players
        index, rule, reason = _explain(trick)
        winner = players[index]
        chips = self.chips
        change = moons = 0
        if winner < n:
            side = game.side_of(winner)
            moons = moons_in(trick)  # a chip event whenever the moons count, even at 0 chips
            if moons:
                change = moon_chips(moons, chips[side])
                chips = (*chips[:side], chips[side] + change, *chips[side + 1:])
        taken = (*self.taken[:winner], self.taken[winner] + trick, *self.taken[winner + 1:])
        won = self.tricks_won
        tricks_won = (*won[:winner], won[winner] + 1, *won[winner + 1:])
        events.append(TrickWon(winner, trick, players, index, rule, reason, change, winner == n))
        if winner < n and moons:
            events.append(ChipsChanged(side, change, _moon_reason(trick, change, moons),
                                       chips[side], game.side_seats(side)))
        tricks_played = self.tricks_played + 1
        changes: dict[str, Any] = {
            "hands": hands,
            "dummy_pile": dummy_pile,
            "trick": (),
            "trick_players": (),
            "taken": taken,
            "tricks_won": tricks_won,
            "chips": chips,
            "tricks_played": tricks_played,
            "played": played,
            "last_trick": trick,
            "last_trick_players": players,
            "last_trick_winner": winner,
        }
        if tricks_played < TRICKS_PER_ROUND:
            if winner == n:
                # Dummy leads its next card; the non-dealer plays next.
                top, changes["dummy_pile"] = dummy_pile[0], dummy_pile[1:]
                changes["trick"] = (top,)
                changes["trick_players"] = (n,)
                changes["played"] = (*played, top)
                events.append(CardPlayed(n, top, True))
                changes["to_play"] = 1 - self.dealer
            else:
                changes["to_play"] = winner
            return changes, events
        return self._finish_round(changes, events)

    def _finish_round(
        self, changes: dict[str, Any], events: list[Event]
    ) -> tuple[dict[str, Any], list[Event]]:
        game = self.game
        n = game.num_players
        tricks_won = changes["tricks_won"]
        chips = list(changes["chips"])
        side_tricks = [0] * game.num_sides
        for seat in range(n):
            side_tricks[game.side_of(seat)] += tricks_won[seat]
        awards = [round_award(t) for t in side_tricks]
        for side, award in enumerate(awards):
            if award:
                chips[side] += award
                why = (later("all 5 tricks: shooting the moon") if side_tricks[side] == 5
                       else later_n("{n} trick, an odd number", "{n} tricks, an odd number",
                                    side_tricks[side]))
                events.append(ChipsChanged(side, award, why, chips[side], game.side_seats(side)))
        chips_t = tuple(chips)
        per_seat = tuple(chips_t[game.side_of(s)] for s in range(n))
        events.append(
            RoundScored(
                None,
                self.round_number,
                tuple(tricks_won[:n]),
                tuple(side_tricks[game.side_of(s)] for s in range(n)),
                tuple(awards[game.side_of(s)] for s in range(n)),
                per_seat,
            )
        )
        changes["chips"] = chips_t
        best = max(chips_t)
        leaders = [s for s, c in enumerate(chips_t) if c == best]
        if best >= game.target_chips and len(leaders) == 1:
            side = leaders[0]
            changes["winning_side"] = side
            changes["to_play"] = None
            events.append(GameWon(side, best, game.side_seats(side)))
            return changes, events
        # The player to the left of the dealer deals the next round.
        deal_changes, deal_events = self._deal(
            self.rng(), (self.dealer + 1) % n, self.round_number + 1
        )
        changes.update(deal_changes)
        events.extend(deal_events)
        return changes, events


def _moon_reason(trick: tuple[Card, ...], change: int, moons: int) -> Said:
    """Why the taker of ``trick`` gains or loses chips, said in the page's language."""
    bigs, littles = trick.count(BIG), trick.count(LITTLE)
    big = later_n("took {n} Big Moon (+{n})", "took {n} Big Moons (+{n})", bigs)
    little = later_n("took {n} Little Moon (−{n})", "took {n} Little Moons (−{n})", littles)
    text = (later("{first} and {last}", first=big, last=little) if bigs and littles
            else big if bigs else little)
    if change != moons:
        return later("{reason}, but chips never go below 0", reason=text)
    return text
