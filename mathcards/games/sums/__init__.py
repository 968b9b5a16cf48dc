"""Sums: capture an opponent's card by making its value from two of your own cards.

The rules are docs/rules/sums.md: the rule text with the numbered rulings.
In short: on your turn you draw the top card of a community pile, then play
one card from your hand face up on your side. If the card you played (P),
plus or minus another card of its colour already face up on your side (the
helper H), makes the value of an opponent's face-up card O of that colour
(P + H = O, or P − H = ±O), that card is captured; the owner may counter
first.

Values: A 1, 2-10 face value, J 11, Q 12, K 13. Scoring at the end: 2-10
one point, J and Q two, A and K three, for every card on your side and every
card you captured.

Choices made here where the rule text and the rulings are silent (each is tested
in ``tests/games/test_sums.py``):

- Capturing is compulsory. The seed says the card "is removed", so when a
  play can capture, it does; the player only chooses *which* card when
  several different cards qualify (``Capture``). When only one card
  qualifies it is threatened at once. The engine records one helper and
  operation (the first helper on your side, ``+`` before ``-``);
  ``capture_ways`` lists every way for hints.
- A capture is threatened, not taken, until the owner answers: the owner of
  the threatened card may ``Counter`` with a card from hand that captures
  the threatening card by the same rule, or ``Decline``. An owner who has
  no counter is not asked: the capture resolves at once (as at a table,
  where such a player simply says "no").
- A counter is its player's turn. After a threat resolves, play goes on
  from the player whose turn started it, and every counter skips its
  player's next regular turn. In a game of 3 or more this is the ruling's
  skipped turn; with 2 players it is simply "players alternate".
- The first player is seat 0 (player 1).
- "Return" variant: after drawing, a player with fewer than 5 cards in hand
  may take back one card they played themselves (never the face-up card they
  were dealt: ruling Sums 7) instead of playing. With more than one deck,
  while a copy of the dealt card is on the side, one copy counts as the
  dealt card.
- "Draw or play" variant: a turn is a draw, a play, or (with "return" too)
  a take-back. With both variants on, a player must draw between two
  take-backs; otherwise players could take back and replay cards forever
  and the game would never end.
- End: when a pile is empty at the start of a player's turn, that player
  may play one last card without drawing (it may capture; it cannot be
  countered) or ``EndGame``; then the game is over. A counter played while a
  pile is empty is its player's last play (ruling Sums 6): it captures, it
  cannot be countered, and the game ends. A player who has no
  card in hand at that moment has nothing to play and the game ends at
  once. The game always ends: every turn of the plain game draws a card,
  and in "draw or play" hands empty out unless players draw.
- Identical cards (with more than one deck) are interchangeable:
  ``capture_targets`` lists each copy, the actions name a card once.
"""

from __future__ import annotations

from mathcards.games.registry import GameSpec, LandingCard, register_game
from mathcards.games.sums.actions import Capture, Counter, Decline, Draw, EndGame, Play, TakeBack
from mathcards.games.sums.bot import strong_policy
from mathcards.games.sums.events import (
    Captured,
    CaptureThreatened,
    CardDealtFaceUp,
    CardDrawn,
    CardPlayed,
    CardTakenBack,
    CounterDeclined,
    Countered,
    GameEnded,
    LastPlay,
    TurnSkipped,
)
from mathcards.games.sums.game import Sums
from mathcards.games.sums.notation import parse_move
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
from mathcards.games.sums.rules import (
    HAND_SIZE,
    HAND_SIZE_FOUR_PLAYERS,
    MAX_DECKS,
    RED_SUITS,
    TAKE_BACK_LIMIT,
    CaptureWay,
    capture_targets,
    capture_ways,
    card_points,
    card_value,
    why_no_capture,
)
from mathcards.games.sums.state import SumsState
from mathcards.i18n import N_

__all__ = [
    "CHOOSE", "COUNTER", "HAND_SIZE", "HAND_SIZE_FOUR_PLAYERS", "LAST", "MAX_DECKS", "OVER",
    "PLAY", "RED_SUITS", "START", "TAKE_BACK_LIMIT", "Capture", "CaptureThreatened",
    "CaptureWay", "Captured", "CardDealtFaceUp", "CardDrawn", "CardPlayed", "CardTakenBack",
    "Counter", "CounterDeclined", "Countered", "Decline", "Draw", "EndGame", "GameEnded",
    "LastPlay", "Phase", "Play", "Sums", "SumsObservation", "SumsState", "TakeBack", "Threat",
    "TurnSkipped", "capture_targets", "capture_ways", "card_points", "card_value", "parse_move",
    "strong_policy", "why_no_capture",
]


# --- the one registration: everything the app asks of this game by its name ------
register_game(GameSpec(
    name="sums",
    engine=Sums,
    code="SUMS",
    strong_policy=strong_policy,
    parse_move=parse_move,
    view="mathcards.widgets.sums:SumsView",
    tournament_default=True,
    assignable=True,
    card=LandingCard(
        practises=N_("sums and differences"),
        blurb=N_("Play a card; if it plus or minus one of your cards equals an opponent's "
               "card of the same colour, you capture it."),
        picture="mathcards.widgets.lesson:sums_picture",
        lesson="sums.ipynb",
        play="play_sums.ipynb",
    ),
))
