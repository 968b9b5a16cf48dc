"""Make Ten: an example game, one package and one registration (``docs/new_game.md``).

Practises number bonds to ten. 2-4 players, the 36 cards Ace (1) to 9 of a standard deck.
Each player holds 4 cards; one card starts the pile face up. On your turn you play one card
from your hand onto the pile: when it and the card it covers make 10 (``3 + 7 = 10``), you
take the whole pile and the next card of the stock starts a new one. Then you draw a card
while the stock lasts. When every hand is empty the game ends; the most cards taken wins.

The package holds everything of the game: the engine (``rules``), its table's view
(``view``: pure Python, no widgets), its conformance hooks (``conformance``) and the
pytest plugin that registers it for a run of the suites for all games. Its
registration is ``SPEC``: ``register_game(SPEC)`` (or ``with registered(SPEC):`` in a test)
makes it known everywhere a game is found by name. MathCards itself never registers it,
so it is on no landing page of the app.
"""

from __future__ import annotations

from examples.make_ten.rules import (
    HAND_SIZE,
    TEN,
    CardPlayed,
    GameEnded,
    MakeTen,
    MakeTenObservation,
    MakeTenState,
    PileTaken,
    Play,
    parse_move,
    strong_policy,
)
from mathcards.games.registry import GameSpec, LandingCard

SPEC = GameSpec(
    name="make_ten",
    engine=MakeTen,
    code="TEN",
    strong_policy=strong_policy,
    parse_move=parse_move,
    view="examples.make_ten.view:MakeTenView",
    conformance="examples.make_ten.conformance",
    card=LandingCard(
        practises="number bonds to ten",
        blurb="Play a card on the pile: if it and the card it covers make 10, take the pile.",
        picture="examples.make_ten.view:picture",
        lesson="make_ten.ipynb",
        play="play_make_ten.ipynb",
    ),
)

__all__ = [
    "HAND_SIZE", "SPEC", "TEN", "CardPlayed", "GameEnded", "MakeTen", "MakeTenObservation",
    "MakeTenState", "PileTaken", "Play", "parse_move", "strong_policy",
]
