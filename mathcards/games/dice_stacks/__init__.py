"""Dice Stacks: roll two dice, then lay stacks of cards that make the dice total.

The package: ``rules`` (the engine: settings, actions, events, the state, typed moves,
the bot), ``rule`` (what a stack is, in one place) and ``solver`` (the best stacks of a
hand). This ``__init__`` re-exports the engine's names, so ``from
mathcards.games.dice_stacks import DiceStacks`` keeps working, and ends with the game's
registration.
"""

from __future__ import annotations

from mathcards.games.dice_stacks.rule import KING, not_a_stack
from mathcards.games.dice_stacks.rules import *  # noqa: F403  (the engine's public names)
from mathcards.games.dice_stacks.rules import (
    CardsDrawn,
    DiceRolled,
    DiceStacks,
    FirstPlayerRolls,
    GameEnded,
    LegalStacks,
    RanOut,
    StackLaid,
    TurnEnded,
    parse_move,
    strong_policy,
)
from mathcards.games.dice_stacks.rules import __all__ as _rules_all
from mathcards.games.registry import GameSpec, LandingCard, register_game
from mathcards.i18n import N_

__all__ = [*_rules_all, "CardsDrawn", "DiceRolled", "FirstPlayerRolls", "GameEnded",
           "LegalStacks", "RanOut", "StackLaid", "TurnEnded", "KING", "not_a_stack"]

# --- the one registration: everything the app asks of this game by its name ------
register_game(GameSpec(
    name="dice_stacks",
    engine=DiceStacks,
    code="DICE",
    strong_policy=strong_policy,
    parse_move=parse_move,
    view="mathcards.widgets.dice_stacks:DiceStacksView",
    assignable=True,
    card=LandingCard(
        practises=N_("adding, subtracting, doubling and halving"),
        blurb=N_("Roll two dice, then build stacks of cards that make the dice total: add "
               "them or subtract them, and let Kings double or halve."),
        picture="mathcards.widgets.lesson:stacks_picture",
        lesson="dice_stacks.ipynb",
        play="play_dice_stacks.ipynb",
    ),
))
