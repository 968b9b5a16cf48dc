"""The game of Sums: its settings, the deal, and an exercise's position."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from mathcards.cards import Card, as_card
from mathcards.games.base import EMPTY, State, reshuffle, rng_for
from mathcards.games.sums.actions import Capture, Counter, Decline, Draw, EndGame, Play, TakeBack
from mathcards.games.sums.events import CardDealtFaceUp
from mathcards.games.sums.pieces import PLAY, START
from mathcards.games.sums.settings import SumsSettings
from mathcards.games.sums.state import SumsState


# --- the game -----------------------------------------------------------------------
@dataclass(frozen=True)
class Sums(SumsSettings):
    """Sums for 2-8 players: capture cards whose value you make with a sum or difference."""

    name: ClassVar[str] = "sums"
    title: ClassVar[str] = "Sums"
    move_example: ClassVar[str] = "play 7H"
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
