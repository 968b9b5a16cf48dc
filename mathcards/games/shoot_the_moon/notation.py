"""Shoot the Moon moves from text: the one parser for typed moves and exercise answers.

A move is a card to play, written ``G4``, ``play G4``, ``BIG`` or ``LITTLE``, or as a
move prints (``play ☾4``, ``play Big Moon``); the engine's legal plays decide whether it may
be played here.
"""

from __future__ import annotations

from mathcards.errors import CardParseError
from mathcards.games.shoot_the_moon.actions import Play
from mathcards.games.shoot_the_moon.rules import _check_moon_cards
from mathcards.games.shoot_the_moon.state import MoonState
from mathcards.i18n import _


def read_move(text: str) -> Play:
    """The play ``text`` names, not yet checked against a position."""
    words = text.split()
    if words and words[0].lower() == "play":
        words = words[1:]
    if len(words) == 2 and words[1].lower() == "moon":  # "Big Moon", as sentences say it
        words = [" ".join(words)]
    if len(words) != 1:
        raise CardParseError(
            _("{text} is not a move: name one card to play, e.g. 'G4', 'R12' or "
              "'BIG'").format(text=repr(text.strip()))
        )
    return Play(_check_moon_cards(words, _("a play"))[0])


def parse_move(state: MoonState, text: str) -> Play:
    """The legal play ``text`` names in ``state``: ``CardParseError`` when it names no
    card, ``IllegalActionError`` (with the rule) when the card may not be played here."""
    action = read_move(text)
    state.check_legal(action)
    return action
