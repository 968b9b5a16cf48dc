"""Suns to Moons: add and subtract card values to make the deck equal the leader's score.

The rules are docs/rules/suns_to_moons.md (the rule text with its numbered
rulings). In short: a card played across (sign +1) adds its
value to the deck, upright (sign −1) subtracts it; 2-10 count their
number, J 11, Q 12, K 13, an Ace 1 or 14 as the player chooses. The goal is
the highest score among the players; reaching it with 3 or more cards in the
deck wins the round and one point. A Joker removes the most recent card that
is still counted and may be followed by one more (non-Joker) card.

The ±10 bound (ruling 3) lives in one place, ``legal_turns``: the options of a
turn are every single-card play, a Joker alone and a Joker followed by one
more card; if any option ends within −10..10 only those are legal. The engine
plays a Joker turn as two actions (the Joker, then a second card or
``EndTurn``), and offers exactly the first and second steps of legal options.

Choices where the rule text and the rulings are silent (a careful teacher's):

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

from mathcards.games.base import number
from mathcards.games.registry import GameSpec, LandingCard, register_game
from mathcards.games.suns_to_moons.actions import (
    END_TURN,
    JOKER_PLAY,
    PASS,
    EndTurn,
    Pass,
    Play,
    Turn,
)
from mathcards.games.suns_to_moons.bot import strong_policy
from mathcards.games.suns_to_moons.events import (
    CardPlayed,
    CardsDealt,
    GameWon,
    GoalReached,
    GoalTooEarly,
    HandsDealt,
    JokerPlayed,
    Passed,
    RoundAbandoned,
    RoundStarted,
    RoundWon,
    StockReshuffled,
    TurnEnded,
)
from mathcards.games.suns_to_moons.game import SunsToMoons
from mathcards.games.suns_to_moons.notation import MoveTextError, move_text, parse_move
from mathcards.games.suns_to_moons.rules import (
    BOUND,
    HAND_SIZE,
    JOKER,
    MIN_DECK_FOR_GOAL,
    DeckCount,
    after_joker,
    card_values,
    count_deck,
    deck_terms,
    lies_across,
    signed,
    within_bound,
)
from mathcards.games.suns_to_moons.state import Phase, SunsToMoonsState, SunsToMoonsView
from mathcards.games.suns_to_moons.turns import legal_turns
from mathcards.i18n import N_

__all__ = [
    "BOUND", "END_TURN", "HAND_SIZE", "JOKER", "JOKER_PLAY", "MIN_DECK_FOR_GOAL", "PASS",
    "CardPlayed", "CardsDealt", "DeckCount", "EndTurn", "GameWon", "GoalReached",
    "GoalTooEarly", "HandsDealt", "JokerPlayed", "MoveTextError", "Pass", "Passed", "Phase",
    "Play", "RoundAbandoned", "RoundStarted", "RoundWon", "StockReshuffled", "SunsToMoons",
    "SunsToMoonsState", "SunsToMoonsView", "Turn", "TurnEnded", "after_joker", "card_values",
    "count_deck", "deck_terms", "legal_turns", "lies_across", "move_text", "number",
    "parse_move", "signed", "strong_policy", "within_bound",
]


# --- the one registration: everything the app asks of this game by its name ------
register_game(GameSpec(
    name="suns_to_moons",
    engine=SunsToMoons,
    code="STM",
    strong_policy=strong_policy,
    parse_move=parse_move,
    view="mathcards.widgets.suns_to_moons:SunsToMoonsView",
    short_game=("target_score", 3),  # first to 3 points (of 10)
    jokers=True,
    assignable=True,
    card=LandingCard(
        practises=N_("adding positive and negative numbers"),
        blurb=N_("Lay each card across to add it or upright to subtract it, and steer the "
               "deck's value to the goal without passing 10 or −10."),
        picture="mathcards.widgets.lesson:suns_picture",
        lesson="suns_to_moons.ipynb",
        play="play_suns_to_moons.ipynb",
    ),
))
