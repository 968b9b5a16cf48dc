"""Shoot the Moon: a trick-taking game where an odd number of tricks wins a chip.

Seed 003 and RULINGS.md "Shoot the Moon" are the rules. In short: 52 cards
(R G P B 1-12, two Big Moons, two Little Moons), 5 cards each, the rest of the
deck unused that round. Follow the led colour if you can; a Big or Little Moon
may be played instead at any time, and a led moon sets no colour. Red trumps.
Winner of a trick: the first Big Moon; else, if a Little Moon was led, the
highest number of any colour (first played wins ties); else the highest red;
else the highest card of the led colour; with only Little Moons the leader
takes it. Chips: 2 each at the start, +1 per Big Moon and -1 per Little Moon
taken (at once, never below 0), then +1 for 1 or 3 tricks and +2 for all 5.
After a round, 7+ chips and at least 1 more than everyone else wins.

Choices this engine makes where the rules are silent (a careful teacher's):

- **Seats and dealing.** Seats are numbered clockwise; "left" is the next
  seat. The last seat deals the first round, so seat 0 leads the first trick;
  the deal then passes left every round, and the player left of the dealer
  leads. The winner of a trick leads the next.
- **Chips of one trick are netted first.** A trick with a Big and a Little
  Moon changes chips by +1 - 1 = 0; the total change is applied at once and
  chips never go below 0 (so 0 chips and two Little Moons stay 0).
- **Partnerships** (setting, 4 or 6 players only): even seats are one side,
  odd seats the other (seats alternate). A side shares one pile of chips
  (2 at the start) and its tricks are counted together; ``scores`` gives each
  seat its side's chips, so both partners are winners together.
- **Two players: the dummy hand.** A third hand of 5 cards lies face down.
  Once both players have played to a trick, dummy's top card is turned up as
  its third card. If dummy wins, it leads its next card (turned at once) and
  the non-dealer plays next, then the dealer. Dummy is seat ``DUMMY`` in the
  events (``CardPlayed.player == TrickWon.player == num_players``, i.e. 2).
  Dummy never has chips: Big or Little Moons that dummy wins give and take
  no chips from anyone, and dummy's tricks score nothing. Dummy's cards are
  in no observation until turned up.
- **Only moons in a Little-Moon-led trick.** A Big Moon still wins (the first
  one); if every card is a Little Moon, the leader takes the trick.
- **Illegal plays** are never accepted (ruling 5): the engine refuses them and
  names the rule; the seed's table penalty is left to the lesson.

Explanations are data: each ``TrickWon`` event carries the winning index, a
rule key and a sentence; ``explain_trick`` gives the same for any list of
cards, and ``legal_cards`` answers "may you play R5 here?".

>>> trick_winner(["G12", "G3", "R3"])
2
>>> explain_trick("LITTLE R2 G9 P9".split())
(2, 'little_moon_led', 'Little Moon led: highest number wins: G9 and P9 tie, the first played wins')
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from mathcards.cards import (
    BIG_MOON,
    LITTLE_MOON,
    MOON_COLOUR_NAMES,
    Card,
    as_card,
    cards_text,
    moon_deck,
)
from mathcards.errors import CardParseError, SettingsError
from mathcards.games.base import Event, Game, State, rng_for, seat_name

HAND_SIZE = 5
TRICKS_PER_ROUND = 5
START_CHIPS = 2
RED = "R"

BIG = Card(BIG_MOON, 0)
LITTLE = Card(LITTLE_MOON, 0)
_DECK = moon_deck()
_DECK_COUNTS = Counter(_DECK)

# Rule keys of a trick's winner (the lesson text of each is in the sentence).
RULE_BIG_MOON = "big_moon"
RULE_FIRST_BIG_MOON = "first_big_moon"
RULE_LITTLE_MOON_LED = "little_moon_led"
RULE_ONLY_LITTLE_MOONS = "only_little_moons"
RULE_RED_TRUMPS = "red_trumps"
RULE_HIGHEST_RED = "highest_red"
RULE_LED_COLOUR = "led_colour"
RULES = (
    RULE_BIG_MOON,
    RULE_FIRST_BIG_MOON,
    RULE_LITTLE_MOON_LED,
    RULE_ONLY_LITTLE_MOONS,
    RULE_RED_TRUMPS,
    RULE_HIGHEST_RED,
    RULE_LED_COLOUR,
)


# --- the pure rules API ----------------------------------------------------
def _is_moon(card: Card) -> bool:
    return card.suit == BIG_MOON or card.suit == LITTLE_MOON


def _check_moon_cards(cards: Iterable[str | Card], what: str) -> tuple[Card, ...]:
    out = tuple(as_card(c) for c in cards)
    for card in out:
        if not (card.is_moon_card or _is_moon(card)):
            raise CardParseError(
                f"{card} is not a Shoot the Moon card: use R, G, P or B with 1-12, BIG or LITTLE"
            )
    for card, count in Counter(out).items():
        if count > _DECK_COUNTS[card]:
            raise CardParseError(
                f"{what} holds {count} x {card}, but the deck has only {_DECK_COUNTS[card]}"
            )
    return out


def _explain(cards: tuple[Card, ...]) -> tuple[int, str, str]:
    """Winner index, rule key and sentence of a trick of valid cards (not empty)."""
    first_big = -1
    for i, card in enumerate(cards):
        if card.suit == BIG_MOON:
            if first_big < 0:
                first_big = i
            else:
                return (
                    first_big,
                    RULE_FIRST_BIG_MOON,
                    "Big Moon always wins: both Big Moons were played, the first one wins",
                )
    if first_big >= 0:
        return first_big, RULE_BIG_MOON, "Big Moon always wins"
    led = cards[0]
    if led.suit == LITTLE_MOON:
        best = -1
        for i, card in enumerate(cards):
            if card.suit != LITTLE_MOON and (best < 0 or card.rank > cards[best].rank):
                best = i
        if best < 0:
            return 0, RULE_ONLY_LITTLE_MOONS, "only Little Moons: the leader takes it"
        win = cards[best]
        ties = [c for c in cards[best + 1 :] if c.suit != LITTLE_MOON and c.rank == win.rank]
        if ties:
            sentence = (
                f"Little Moon led: highest number wins: {win} and {cards_text(ties)} tie, "
                "the first played wins"
            )
            sentence = sentence.replace(f"{win} and {cards_text(ties)}", _and([win, *ties]))
        else:
            sentence = f"Little Moon led: highest number wins: {win}"
        return best, RULE_LITTLE_MOON_LED, sentence
    best_red = -1
    best_led = -1
    for i, card in enumerate(cards):
        if card.suit == RED:
            if best_red < 0 or card.rank > cards[best_red].rank:
                best_red = i
        elif card.suit == led.suit and (best_led < 0 or card.rank > cards[best_led].rank):
            best_led = i
    if best_red >= 0:
        if led.suit == RED:
            return best_red, RULE_HIGHEST_RED, f"highest red wins: {cards[best_red]}"
        return (
            best_red,
            RULE_RED_TRUMPS,
            f"red trumps: {cards[best_red]} beats {cards[best_led]}",
        )
    colour = MOON_COLOUR_NAMES[led.suit]
    return best_led, RULE_LED_COLOUR, f"highest {colour} wins: {cards[best_led]}"


def _and(cards: Sequence[Card]) -> str:
    return _and_names([str(c) for c in cards])


def _and_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _who(event: Event, names: Sequence[str]) -> str:
    """The name of the seat that acted (every event worded with it has a seat)."""
    return seat_name(names, event.player if event.player is not None else -1)


def explain_trick(cards_in_play_order: Iterable[str | Card]) -> tuple[int, str, str]:
    """Who wins a trick and why: ``(winner_index, rule_key, sentence)``.

    The first card is the one led. Works for a finished trick or one still
    being played (then it is the card winning so far).

    >>> explain_trick(["G12", "R3"])
    (1, 'red_trumps', 'red trumps: R3 beats G12')
    >>> explain_trick(["R5", "BIG", "BIG"])
    (1, 'first_big_moon', 'Big Moon always wins: both Big Moons were played, the first one wins')
    """
    cards = _check_moon_cards(cards_in_play_order, "a trick")
    if not cards:
        raise CardParseError("a trick needs at least one card: give the cards in play order")
    return _explain(cards)


def trick_winner(cards_in_play_order: Iterable[str | Card]) -> int:
    """Index (0 = the card led) of the card that wins the trick.

    >>> trick_winner(["LITTLE", "R2", "G9"])
    2
    """
    return explain_trick(cards_in_play_order)[0]


def _legal_cards(hand: tuple[Card, ...], led: Card | None) -> tuple[Card, ...]:
    if led is None or _is_moon(led):
        return hand
    suit = led.suit
    if any(c.suit == suit for c in hand):
        return tuple(c for c in hand if c.suit == suit or _is_moon(c))
    return hand


def legal_cards(hand: Iterable[str | Card], led_card_or_None: str | Card | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led by ``led_card_or_None``.

    Follow the led colour if you can; a Big or Little Moon may always be played;
    a led moon (or leading yourself: ``None``) leaves every card playable.

    >>> legal_cards("G4 R5 BIG", "G9")
    [Card('G4'), Card('BIG')]
    >>> legal_cards("G4 R5", "P2")
    [Card('G4'), Card('R5')]
    """
    if isinstance(hand, str):
        hand = hand.split()
    cards = _check_moon_cards(hand, "a hand")
    led = None if led_card_or_None is None else _check_moon_cards([led_card_or_None], "")[0]
    return list(dict.fromkeys(_legal_cards(cards, led)))


def follow_rule(hand: Iterable[str | Card], led_card_or_None: str | Card | None) -> str:
    """In words, what the hand must play to this trick."""
    cards = _check_moon_cards(hand.split() if isinstance(hand, str) else hand, "a hand")
    led = None if led_card_or_None is None else as_card(led_card_or_None)
    if led is None:
        return "you lead: any card may be played"
    if _is_moon(led):
        return f"a {led.name} was led: it sets no colour, any card may be played"
    colour = MOON_COLOUR_NAMES[led.suit]
    same = [c for c in cards if c.suit == led.suit]
    if same:
        return f"you must follow {colour}: you hold {_and(same)} (or play a Big or Little Moon)"
    return f"you hold no {colour}: any card may be played"


def round_award(tricks: int) -> int:
    """Chips for a round's tricks: 1 or 3 tricks +1, all 5 +2, an even number 0."""
    if tricks == TRICKS_PER_ROUND:
        return 2
    return 1 if tricks % 2 == 1 else 0


# --- actions, events, observation -----------------------------------------
@dataclass(frozen=True)
class Play:
    """Play one card from your hand to the trick (``Play("G4")`` also works)."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"play {self.card}"


@cache
def _play(card: Card) -> Play:
    return Play(card)


@dataclass(frozen=True)
class HandDealt(Event):
    """A new round: ``player`` is the dealer."""

    round_number: int
    leader: int
    hand_size: int = HAND_SIZE
    dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        extra = " and a face-down dummy hand" if self.dummy else ""
        return (
            f"Round {self.round_number}: {_who(self, names)} deals {self.hand_size} cards "
            f"each{extra}; {seat_name(names, self.leader)} leads."
        )


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card played to the trick; ``player`` is the seat, or ``DUMMY`` (= num_players)."""

    card: Card
    by_dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        who = "Dummy turns up" if self.by_dummy else f"{_who(self, names)} plays"
        return f"{who} {self.card}."


@dataclass(frozen=True)
class TrickWon(Event):
    """A finished trick: who took it (``player``; dummy is num_players) and why."""

    cards: tuple[Card, ...]
    players: tuple[int, ...]
    winner_index: int
    rule: str
    reason: str
    chips_change: int = 0

    by_dummy: bool = False

    def describe(self, names: Sequence[str] = ()) -> str:
        who = "Dummy" if self.by_dummy else _who(self, names)
        return f"{who} takes the trick {cards_text(self.cards)} ({self.reason})."


@dataclass(frozen=True)
class ChipsChanged(Event):
    """Chips won or lost: ``player`` is the seat (partnerships: the side's first seat)."""

    delta: int
    reason: str
    chips: int
    seats: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        who = _who(self, names)
        if len(self.seats) > 1:
            who = _and_names([seat_name(names, s) for s in self.seats])
        sign = "+" if self.delta >= 0 else "−"
        return f"{who}: {sign}{abs(self.delta)} chip(s), {self.reason}; now {self.chips}."


@dataclass(frozen=True)
class RoundScored(Event):
    """End of a round: tricks per seat, the tricks each seat's side counted, chips won."""

    round_number: int
    tricks: tuple[int, ...]
    side_tricks: tuple[int, ...]
    awards: tuple[int, ...]
    chips: tuple[int, ...]

    def describe(self, names: Sequence[str] = ()) -> str:
        parts = [
            f"{seat_name(names, i)}: {t} trick(s), +{a}" for i, (t, a) in
            enumerate(zip(self.side_tricks, self.awards, strict=True))
        ]
        return f"Round {self.round_number} scored: " + "; ".join(parts) + "."


@dataclass(frozen=True)
class GameWon(Event):
    """The game is won (partnerships: ``seats`` are both or all partners)."""

    chips: int = 0
    seats: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] = ()) -> str:
        if len(self.seats) > 1:
            who = _and_names([seat_name(names, s) for s in self.seats])
            return f"{who} win with {self.chips} chips."
        return f"{_who(self, names)} wins with {self.chips} chips."


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
    def dummy(self) -> int:
        """The dummy's seat number in events (2 players only): num_players."""
        return self.num_players

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


@dataclass(frozen=True, kw_only=True)
class MoonState(State):
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
    def is_over(self) -> bool:
        return self.winning_side is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's chips (partners share their side's chips)."""
        if self.game.partnerships:
            return tuple(self.chips[s % 2] for s in range(self.game.num_players))
        return self.chips

    @property
    def led_card(self) -> Card | None:
        return self.trick[0] if self.trick else None

    def _legal_actions(self) -> tuple[Play, ...]:
        hand = self.hands[self.to_play]
        return tuple(dict.fromkeys(_play(c) for c in _legal_cards(hand, self.led_card)))

    def why_illegal(self, action: Any) -> str:
        card = action.card
        if not (card.is_moon_card or _is_moon(card)):
            return f"{card} is not a Shoot the Moon card (cards are R/G/P/B 1-12, BIG, LITTLE)"
        hand = self.hands[self.to_play]
        if card not in hand:
            return f"you do not hold {card}: your hand is {cards_text(hand)}"
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
        seat = self.to_play
        card = action.card
        hand = list(self.hands[seat])
        hand.remove(card)
        hands = self.hands[:seat] + (tuple(hand),) + self.hands[seat + 1 :]
        trick = self.trick + (card,)
        players = self.trick_players + (seat,)
        played = self.played + (card,)
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
            if game.has_dummy:
                nxt = 1 - seat
            else:
                nxt = (seat + 1) % n
            return (
                {"hands": hands, "trick": trick, "trick_players": players, "played": played,
                 "to_play": nxt, "dummy_pile": dummy_pile},
                events,
            )
        return self._finish_trick(hands, dummy_pile, trick, players, played, events)

    def _finish_trick(self, hands, dummy_pile, trick, players, played, events):
        game = self.game
        n = game.num_players
        index, rule, reason = _explain(trick)
        winner = players[index]
        chips = self.chips
        change = nominal = 0
        if winner < n:
            side = game.side_of(winner)
            nominal = trick.count(BIG) - trick.count(LITTLE)
            if nominal:
                before = chips[side]
                after = max(0, before + nominal)
                change = after - before
                chips = chips[:side] + (after,) + chips[side + 1 :]
        taken = self.taken[:winner] + (self.taken[winner] + trick,) + self.taken[winner + 1 :]
        won = self.tricks_won
        tricks_won = won[:winner] + (won[winner] + 1,) + won[winner + 1 :]
        events.append(TrickWon(winner, trick, players, index, rule, reason, change, winner == n))
        if winner < n and nominal:
            events.append(ChipsChanged(side, change, _moon_reason(trick, change), chips[side],
                                       game.side_seats(side)))
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
                changes["played"] = played + (top,)
                events.append(CardPlayed(n, top, True))
                changes["to_play"] = 1 - self.dealer
            else:
                changes["to_play"] = winner
            return changes, events
        return self._finish_round(changes, events)

    def _finish_round(self, changes, events):
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
                why = ("all 5 tricks: shooting the moon" if side_tricks[side] == 5
                       else f"{side_tricks[side]} tricks, an odd number")
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


def _moon_reason(trick: tuple[Card, ...], change: int) -> str:
    bigs, littles = trick.count(BIG), trick.count(LITTLE)
    parts = []
    if bigs:
        parts.append(f"took {bigs} Big Moon{'s' if bigs > 1 else ''} (+{bigs})")
    if littles:
        parts.append(f"took {littles} Little Moon{'s' if littles > 1 else ''} (−{littles})")
    text = " and ".join(parts)
    if change != bigs - littles:
        text += ", but chips never go below 0"
    return text


# --- the strong bot ----------------------------------------------------------
def _beats(card: Card, best: Card, little_led: bool, led_suit: str | None) -> bool:
    """Would ``card``, played later, take the trick from ``best`` (winning now)?"""
    if best.suit == BIG_MOON or card.suit == LITTLE_MOON:
        return False
    if card.suit == BIG_MOON:
        return True
    if little_led:
        return best.suit == LITTLE_MOON or card.rank > best.rank
    if best.suit == RED:
        return card.suit == RED and card.rank > best.rank
    return card.suit == RED or (card.suit == led_suit and card.rank > best.rank)


def _award_after(tricks: int, chances: Sequence[float]) -> float:
    """Expected end-of-round award when each remaining card takes a trick with its chance."""
    dist = {tricks: 1.0}
    for p in chances:
        nxt: dict[int, float] = {}
        for k, w in dist.items():
            nxt[k + 1] = nxt.get(k + 1, 0.0) + w * p
            nxt[k] = nxt.get(k, 0.0) + w * (1 - p)
        dist = nxt
    return sum(w * round_award(k) for k, w in dist.items())


def strong_policy(observation: MoonObservation, legal: Sequence[Play], rng: random.Random) -> Play:
    """Play for an odd number of tricks, grab Big Moons, dump Little Moons on others.

    For each legal card it estimates the chance that its side takes this trick
    (the cards not yet seen are played at random by the seats still to play),
    and the chance each card left in hand takes a later trick (a Big Moon
    surely does). The card chosen maximises the moons won now plus the
    expected end-of-round award (odd tricks +1, all five +2) plus the chip
    of every Big Moon still to come, plus a bonus for a Little Moon dumped on
    a trick another player takes. Only the observation and legal plays are used.
    """
    obs = observation
    options = list(legal)
    if len(options) == 1:
        return options[0]
    me = obs.seat
    n = obs.num_players
    my_side = obs.side_of(me)
    seen = Counter(obs.hand) + Counter(obs.played_this_round)
    unseen = list((_DECK_COUNTS - seen).elements()) or [LITTLE]
    share = 1.0 / len(unseen)
    # Seats still to play after me in this trick.
    if n == 2:
        if obs.trick and obs.trick_players[0] == n:
            later = [] if len(obs.trick) == 2 else [1 - me]
        else:
            later = [n] if obs.trick else [1 - me, n]
    else:
        later = [(me + k) % n for k in range(1, n - len(obs.trick))]
    opponents_later = sum(1 for s in later if obs.side_of(s) != my_side)
    opponents = (n - n // 2) if obs.partnerships else (n if n == 2 else n - 1)
    partner_share = (n // 2 - 1) / (n - 1) if obs.partnerships else 0.0
    side_tricks = sum(t for s, t in enumerate(obs.tricks_won[:n]) if obs.side_of(s) == my_side)
    my_chips = obs.chips[me]

    def later_chance(card: Card) -> float:
        """Chance a card kept in hand takes a later trick for my side."""
        if card.suit == BIG_MOON:
            return 1.0
        if card.suit == LITTLE_MOON:
            return partner_share
        led = None if card.suit == RED else card.suit
        q = sum(1 for u in unseen if _beats(u, card, False, led)) * share
        own = (1 - q) ** opponents
        return own + (1 - own) * partner_share

    chances = {card: later_chance(card) for card in set(obs.hand)}
    if n == 2:
        opp_tricks = obs.tricks_won[1 - me]
        opp_future = [1 / 3] * (TRICKS_PER_ROUND - obs.trick_number)
        opp_parity = _award_after(opp_tricks + 1, opp_future) - _award_after(
            opp_tricks, opp_future
        )
    best_option, best_value = options[0], float("-inf")
    for option in options:
        card = option.card
        trick = obs.trick + (card,)
        index = _explain(trick)[0]
        winner_seat = obs.trick_players[index] if index < len(obs.trick) else me
        winning = obs.side_of(winner_seat) == my_side
        if winning:
            best = trick[index]
            led_suit = None if _is_moon(trick[0]) else trick[0].suit
            little_led = trick[0].suit == LITTLE_MOON
            q = sum(1 for u in unseen if _beats(u, best, little_led, led_suit)) * share
            p_take = (1 - q) ** opponents_later
        else:
            p_take = partner_share if later else 0.0
        rest = list(obs.hand)
        rest.remove(card)
        future_bigs = rest.count(BIG)
        rest_chances = [chances[c] for c in rest]
        moons_raw = trick.count(BIG) - trick.count(LITTLE)
        moons = max(moons_raw, -my_chips)
        take = moons + _award_after(side_tricks + 1, rest_chances)
        lose = _award_after(side_tricks, rest_chances)
        if n == 2:
            # Heads up, the opponent's chips count as much as ours: what they
            # would gain by taking this trick (moons and parity) counts against it.
            opponent = 1 - me
            if winning:
                p_opp = 0.5
            elif winner_seat == opponent:
                p_opp = 1.0 if not later else 0.7
            else:
                p_opp = 0.4 if opponent in later else 0.0
            opp_moons = max(moons_raw, -obs.chips[opponent])
            lose -= p_opp * (opp_moons + opp_parity)
        elif card.suit == LITTLE_MOON and not winning:
            if winner_seat < n and obs.chips[winner_seat] > 0:
                lose += 0.5
        # Keep high cards for later when nothing is lost by it.
        spend = 0.002 * card.rank + (0.01 if card.suit == RED else 0.0)
        value = p_take * take + (1 - p_take) * lose + future_bigs - spend
        value += rng.random() * 1e-9
        if value > best_value:
            best_option, best_value = option, value
    return best_option


__all__ = [
    "DUMMY_NOTE",
    "CardPlayed",
    "ChipsChanged",
    "GameWon",
    "HandDealt",
    "MoonObservation",
    "MoonState",
    "Play",
    "RoundScored",
    "ShootTheMoon",
    "TrickWon",
    "explain_trick",
    "follow_rule",
    "legal_cards",
    "round_award",
    "strong_policy",
    "trick_winner",
]

DUMMY_NOTE = "In 2-player games dummy is seat num_players (2) in CardPlayed and TrickWon events."
