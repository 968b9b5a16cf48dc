"""Event sentences name seats one way, "Player N", as the table's seat names do.

The table turns "Player 2" into "Player 2 (bot)" or a student's name; a sentence
that says "player 2" escaped that and read "player 2" beside "Player 2 (bot)"
(issue 11 item 22). Bot playouts of every game, every setting of players.
"""

from __future__ import annotations

import re

import pytest

from mathcards.bots import play_game
from mathcards.games.registry import game_names, get_game_class

LOWER_SEAT = re.compile(r"\bplayer \d")
SEAT = re.compile(r"\bPlayer (\d+)")


@pytest.mark.parametrize("name", game_names())
def test_every_event_names_seats_as_player_n(name):
    cls = get_game_class(name)
    seen = 0
    for players in range(cls.min_players, min(cls.max_players, 5) + 1):
        game = cls(num_players=players)
        for seed in range(3):
            final = play_game(game, seed, "random")
            for event in final.events:
                text = event.describe()
                assert not LOWER_SEAT.search(text), f"{name}: {text!r}"
                for number in SEAT.findall(text):
                    assert 1 <= int(number) <= players, f"{name}: {text!r}"
                    seen += 1
    assert seen > 0, f"{name}: no event named a seat"
