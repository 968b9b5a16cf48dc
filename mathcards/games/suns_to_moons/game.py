"""The game of Suns to Moons: its settings, the first deal, and an exercise's position."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from mathcards.cards import Card, as_card
from mathcards.errors import MathCardsError
from mathcards.games.base import EMPTY, Event, State, reshuffle, rng_for
from mathcards.games.suns_to_moons.actions import EndTurn, Pass, Play
from mathcards.games.suns_to_moons.deal import _deal_round
from mathcards.games.suns_to_moons.rules import count_deck, deck_terms
from mathcards.games.suns_to_moons.settings import SunsToMoonsSettings
from mathcards.games.suns_to_moons.state import SunsToMoonsState
from mathcards.games.suns_to_moons.turns import _check_counted


# --- the game ------------------------------------------------------------
@dataclass(frozen=True)
class SunsToMoons(SunsToMoonsSettings):
    """Suns to Moons for 2-8 players: make the deck's value equal the leader's score."""

    name = "suns_to_moons"
    title = "Suns to Moons"
    move_example = "7H -"
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

    @classmethod
    def position(cls, hand: Iterable[Card | str], *, deck: Iterable[Play] | None = None,
                 counted: Iterable[int] | None = None, goal: int = 0) -> SunsToMoonsState:
        """An exercise's position as a real engine state (as a chess board from its FEN).

        One player holds ``hand`` and plays turn after turn until the deck equals
        ``goal`` with 3 or more cards. The deck is given as its plays (centre card
        first) or only as the signed values still counted. Its moves are judged,
        and its events told, by the same rules as a game at the table.

        >>> state = SunsToMoons.position(["3H"], counted=[7, -10], goal=0)
        >>> state.apply(Play("3H", 1, 3)).is_over
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
