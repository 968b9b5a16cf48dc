"""Plurals and possessives in everything a table says (issue 26 item 19).

Many seeded games of every table, played by clicks against bots: after every click the
status, the board, the hand's title, the moment and the latest move, and at the end the
whole move list, are read for "1 points", "1 chips", "1 cards", "1 tricks", "chip(s)"
and "(you)'s". The wording helpers are ``plural`` and ``possessive`` (``mathcards.games.base``).
"""

from __future__ import annotations

import random
import re

import pytest

from mathcards.games.base import plural, possessive
from mathcards.games.registry import get_game_class
from mathcards.widgets import make_view, table_games
from mathcards.widgets.table import GameTable
from tests.widgets.helpers import click_something

BAD = re.compile(r"(?<![\d.])1 (points|chips|cards|tricks|stacks|stack points)\b|\(you\)'s"
                 r"|\w\(s\)")
SETTINGS = {"suns_to_moons": {"target_score": 2}, "shoot_the_moon": {"target_chips": 4}}


def _table(game_name: str, players: int, seed: int) -> GameTable:
    view = make_view(game_name)
    game = get_game_class(game_name)(num_players=players, **SETTINGS.get(game_name, {}))
    return GameTable(view, game, seats=("human",) + ("random",) * (players - 1), seed=seed,
                     bot_delay=0, save=False)


def _texts(table: GameTable) -> list[str]:
    return [table.w_status.value, table.w_board.value, table.w_hand_title.value,
            table.w_moment.value, table.w_latest.value, table.message]


@pytest.mark.parametrize("game_name", table_games())
def test_no_table_says_1_points_or_you_s(game_name):
    seen: set[str] = set()
    for seed in range(1, 7):
        players = 2 + seed % 2
        table = _table(game_name, players, seed)
        rng = random.Random(seed)
        for _click in range(4000):
            if table.state.is_over:
                break
            if table.ctl.holding:
                table.ctl.next_round()
            else:
                click_something(table, rng)
            seen.update(_texts(table))
        seen.update(table.history)
        seen.update(_texts(table))
    bad = sorted({m.group(0) + " in: " + text[max(0, m.start() - 60):m.end() + 20]
                  for text in seen for m in [BAD.search(text)] if m})
    assert not bad, "\n".join(bad[:10])


def test_the_helpers():
    assert plural(1, "chip") == "1 chip" and plural(0, "chip") == "0 chips"
    names = ("Player 1 (you)", "Player 2 (bot)", "Ana")
    assert possessive(names, 0) == "your" and possessive(names, 0, start=True) == "Your"
    assert possessive(names, 1) == "Player 2's" and possessive(names, 2) == "Ana's"
    assert possessive((), 3) == "Player 4's"


def test_a_threat_in_sums_says_your_card():
    from mathcards.cards import parse_card
    from mathcards.games.sums import CaptureThreatened as Threatened

    names = ("Player 1 (you)", "Player 2 (bot)")
    mine = Threatened(0, parse_card("9S"), parse_card("2S"), "+", parse_card("JS"), 1)
    theirs = Threatened(1, parse_card("9S"), parse_card("2S"), "+", parse_card("JS"), 0)
    assert mine.describe(names).startswith("Your 9♠ with 2♠ makes")
    assert "threatens your J♠" in theirs.describe(names)
    assert theirs.describe(names).startswith("Player 2's 9♠")
