"""Shoot the Moon: a trick-taking game where an odd number of tricks wins a chip.

docs/rules/shoot_the_moon.md states the rules (the rule text and its rulings). In short: 52 cards
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
  the non-dealer plays next, then the dealer. Dummy is seat ``num_players`` in
  the events (``CardPlayed.player == TrickWon.player == num_players``, i.e. 2).
  Dummy never has chips: Big or Little Moons that dummy wins give and take
  no chips from anyone, and dummy's tricks score nothing. Dummy's cards are
  in no observation until turned up.
- **Only moons in a Little-Moon-led trick.** A Big Moon still wins (the first
  one); if every card is a Little Moon, the leader takes the trick.
- **Illegal plays** are never accepted (ruling 5): the engine refuses them and
  names the rule; the rule text's table penalty is left to the lesson.

Explanations are data: each ``TrickWon`` event carries the winning index, a
rule key and a sentence; ``explain_trick`` gives the same for any list of
cards, and ``legal_cards`` answers "may you play R5 here?".

>>> trick_winner(["G12", "G3", "R3"])
2
>>> explain_trick("LITTLE R2 G9 P9".split())
(2, 'little_moon_led', 'Little Moon led: highest number wins: ☾9 and ★9 tie, the first played wins')
"""

from __future__ import annotations

from mathcards.games.registry import GameSpec, LandingCard, register_game
from mathcards.games.shoot_the_moon.actions import Play
from mathcards.games.shoot_the_moon.bot import strong_policy
from mathcards.games.shoot_the_moon.events import (
    CardPlayed,
    ChipsChanged,
    GameWon,
    HandDealt,
    RoundScored,
    TrickWon,
)
from mathcards.games.shoot_the_moon.notation import parse_move, read_move
from mathcards.games.shoot_the_moon.position import position
from mathcards.games.shoot_the_moon.rules import (
    BIG,
    HAND_SIZE,
    LITTLE,
    RED,
    RULE_WORDS,
    RULES,
    START_CHIPS,
    TRICKS_PER_ROUND,
    explain_trick,
    follow_rule,
    legal_cards,
    moon_chips,
    moons_in,
    round_award,
    trick_winner,
)
from mathcards.games.shoot_the_moon.state import MoonObservation, MoonState, ShootTheMoon
from mathcards.i18n import N_

__all__ = [
    "BIG",
    "HAND_SIZE",
    "LITTLE",
    "RED",
    "RULES",
    "RULE_WORDS",
    "START_CHIPS",
    "TRICKS_PER_ROUND",
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
    "moon_chips",
    "moons_in",
    "parse_move",
    "position",
    "read_move",
    "round_award",
    "strong_policy",
    "trick_winner",
]


# --- the one registration: everything the app asks of this game by its name ------
register_game(GameSpec(
    name="shoot_the_moon",
    engine=ShootTheMoon,
    code="SHOOT",
    strong_policy=strong_policy,
    parse_move=parse_move,
    view="mathcards.widgets.tricks:ShootTheMoonView",
    # first to 5 chips (of 7): players start with 2, so first to 3 ended most games after
    # one hand (about 6 in 10 bot games); first to 5 lasts 3 or 4 hands (tests/test_moments.py)
    short_game=("target_chips", 5),
    deck="moon",
    card=LandingCard(
        practises=N_("comparing numbers and odd or even"),
        blurb=N_("A trick game: follow the colour, red rockets trump, the Big Moon always "
               "wins. Take an odd number of tricks to earn a chip."),
        picture="mathcards.widgets.lesson:shoot_picture",
        lesson="shoot_the_moon.ipynb",
        play="play_shoot_the_moon.ipynb",
    ),
))
