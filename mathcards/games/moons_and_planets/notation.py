"""Moons and Planets moves from text: the one parser for typed moves and exercise answers.

Like python-chess's ``parse_san``, the text names a move and the engine's legal moves
decide: a move named in words is built, then checked against the position.
Accepted (cards as ``9H`` or ``9♥``, case and extra words ignored): ``done``,
``turn prize 2``, ``play 9H`` (or just ``9H`` while a trick is played), ``planet 9H 8H``,
``moon 7S 7H``, ``add 9C to moon 1``, ``regroup 3H 4H 5H | 6S 6C``; every move's own
English wording (``str(move)``) reads back as that move (a page in another language says
its moves in that language; typed moves stay in this notation).
"""

from __future__ import annotations

import re
from typing import Any

from mathcards.cards import Card
from mathcards.errors import CardParseError
from mathcards.games.moons_and_planets.actions import (
    AddToMoon,
    DeclarePlanet,
    Done,
    MakeMoon,
    PlayCard,
    Regroup,
    TurnPrize,
)
from mathcards.games.moons_and_planets.rules import PLAY, _cards
from mathcards.games.moons_and_planets.state import MoonsAndPlanetsState
from mathcards.i18n import _

ACCEPTED = (
    "done, turn prize 2, play 9H, planet 9H 8H, moon 7S 7H, add 9C to moon 1, "
    "regroup 3H 4H 5H | 6S 6C"
)
# whole words only: "A" of "A♣" is an ace, not a filler word
_FILLER = re.compile(r"(?<!\S)(the|a|face|up|as|putting|cards|down|moons?|planet)(?!\S)",
                     re.IGNORECASE)


def _one_card(text: str) -> Card:
    cards = _cards(text)
    if len(cards) != 1:
        raise CardParseError(_("{text}: name one card to play, e.g. 'play 9H'").format(
            text=repr(text.strip())))
    return cards[0]


def read_move(text: str, *, playing: bool = False) -> Any:
    """The move ``text`` names, not yet checked against a position (``CardParseError``
    when it names none). ``playing``: a bare card is a card played to the trick."""
    words = " ".join(text.split())
    verb, _sep, rest = words.partition(" ")
    verb = verb.lower()
    try:
        if verb == "done":
            return Done()
        if verb in ("turn", "prize"):
            number = re.fullmatch(r"(?:prize\s+)?([0-9]{1,2})(?:\s+face\s+up)?", rest.strip(),
                                  re.IGNORECASE)
            if number is None:
                raise CardParseError(_("{text}: say which prize, e.g. 'turn prize 2'").format(
                    text=repr(text.strip())))
            return TurnPrize(int(number.group(1)) - 1)
        if verb == "play":
            return PlayCard(_one_card(rest))
        if verb in ("planet", "declare"):
            return DeclarePlanet(_cards(_FILLER.sub(" ", rest)))
        if verb in ("moon", "make"):
            return MakeMoon(_cards(_FILLER.sub(" ", rest)))
        if verb == "add":
            found = re.fullmatch(r"(.+?)\s+to\s+moon\s+([0-9]{1,2})", rest.strip(), re.IGNORECASE)
            if found is None:
                raise CardParseError(_("{text}: write it as 'add 9C to moon 1'").format(
                    text=repr(text.strip())))
            return AddToMoon(int(found.group(2)) - 1, _cards(found.group(1)))
        if verb == "regroup":
            return Regroup(tuple(_cards(_FILLER.sub(" ", g)) for g in rest.split("|")))
        if playing:
            return PlayCard(_one_card(words))
    except CardParseError as exc:
        raise CardParseError(_("{error} (moves look like: {moves})").format(
            error=exc, moves=ACCEPTED)) from None
    raise CardParseError(_("{text} is not a move: moves look like: {moves}").format(
        text=repr(text.strip()), moves=ACCEPTED))


def parse_move(state: MoonsAndPlanetsState, text: str) -> Any:
    """The legal move ``text`` names in ``state``: ``CardParseError`` when it names no
    move, ``IllegalActionError`` (with the rule) when the move is not allowed here."""
    action = read_move(text, playing=state.phase == PLAY)
    state.check_legal(action)
    return action
