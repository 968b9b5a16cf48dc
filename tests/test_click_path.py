"""The path of a click in docs/architecture.md is the path the code takes.

One Sums card play that captures a card, and the strong bot's answer, clicked on the real
table (``GameTable``) with saving on, traced with ``sys.setprofile``: the files of
mathcards/ and widgets/ whose functions ran must be exactly the files the document lists,
so the document cannot drift from the code again.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mathcards import saves
from mathcards.asking import SHOW
from mathcards.explain import _sympy
from mathcards.games.registry import make_game
from mathcards.games.sums import Play
from mathcards.games.sums.events import Captured
from mathcards.widgets import make_view
from mathcards.widgets.table import GameTable
from tests.widgets.helpers import enabled_cards, enabled_choices

ROOT = Path(__file__).resolve().parents[1]
OURS = ("mathcards/", "widgets/")
# the sentence of docs/architecture.md that lists the files, and a file in it
LISTED = re.compile(r"run code in ([\w-]+) files: (.*?)\.\n\n", re.DOTALL)
FILE = re.compile(r"`((?:mathcards|widgets)/[\w/]+\.py)`")
NUMBERS = {"twenty": 20, "twenty-one": 21, "twenty-two": 22, "twenty-three": 23,
           "twenty-four": 24, "twenty-five": 25, "twenty-six": 26, "twenty-seven": 27,
           "twenty-eight": 28, "twenty-nine": 29, "thirty": 30, "thirty-one": 31,
           "thirty-two": 32, "thirty-three": 33, "thirty-four": 34, "thirty-five": 35}


def _capturing_card(table: GameTable) -> str | None:
    """The card button of the person's hand whose play captures a card, if one does."""
    state = table.state
    for action in state.legal_actions():
        if isinstance(action, Play) and state.captures_by(action.card, state.current_player):
            return f"card:{action.card}"
    return None


def _card_button(table: GameTable, key: str):
    found = [cb for cb in enabled_cards(table) if cb.key == key]
    assert found, f"{key} is not an enabled card of the hand: {table.message}"
    return found[0].button


def _to_a_capture(table: GameTable, *, warm_turns: int = 1) -> str:
    """Click the person's turns (draw, then play) until, after ``warm_turns`` turns (their
    first clicks import what a page's first clicks import), a card of the hand captures;
    returns that card's key, the draw done."""
    turns = 0
    for _click in range(200):
        assert not table.state.is_over, "the game ended before a capture"
        cards = enabled_cards(table)
        if cards:  # the play of the turn
            key = _capturing_card(table)
            if key is not None and turns >= warm_turns:
                return key
            cards[0].button.click()
            turns += 1
        else:
            enabled_choices(table)[0].click()  # a draw from a pile
        assert not table.refused, table.message
    raise AssertionError("no card of the hand captured in 200 clicks")


def _table(seed: int, slot: str) -> GameTable:
    return GameTable(make_view("sums"), make_game("sums", num_players=2),
                     seats=("human", "strong"), seed=seed, bot_delay=0, save=True,
                     slot=slot, level=SHOW)


def traced_files(seed: int = 8) -> set[str]:
    # a first table's capture, not traced: what a process loads once (sympy, for the first
    # explanation with arithmetic) is loaded, whichever tests ran before in this process
    first = _table(seed + 1, "warm")  # another deal: its arithmetic is not cached
    _card_button(first, _to_a_capture(first)).click()
    table = _table(seed, "trace")
    # nor LaTeX cached by an earlier test of this process: the click prints its own
    _sympy.latex_of.cache_clear()
    key = _to_a_capture(table)
    button = _card_button(table, key)
    start, player = len(table.state.history), table.state.current_player
    first_event = len(table.state.events)
    ran: set[str] = set()

    def profile(frame, event, _arg):
        if event == "call":
            ran.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        button.click()  # the play, its capture, and the bot's answer (no pause)
    finally:
        sys.setprofile(None)
    assert not table.refused, table.message
    moves = list(table.state.history)[start:]
    events = list(table.state.events)[first_event:]
    assert any(isinstance(e, Captured) and e.player == player for e in events), \
        f"the play captured nothing: {table.ctl.history[-6:]}"
    assert len(moves) >= 2 and table.state.current_player == player, \
        "the bot did not answer the play"
    out = set()
    for name in ran:
        path = Path(name)
        if path.is_absolute() and path.is_relative_to(ROOT):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(OURS):
                out.add(relative)
    return out


def test_the_documented_click_path_is_the_traced_one(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    # the table's secret decides the bot's hand: a fixed one, so the traced move is always
    # the same move (the person's capture, then the bot's turn)
    monkeypatch.setattr(saves, "new_private_seed", lambda: 1)
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    found = LISTED.search(text)
    assert found, "docs/architecture.md lists no files a click runs code in"
    documented = set(FILE.findall(found.group(2)))
    traced = traced_files()
    assert traced == documented, (
        f"in the code, not in the document: {sorted(traced - documented)}; "
        f"in the document, not run: {sorted(documented - traced)}")
    assert NUMBERS[found.group(1)] == len(traced), "the document's count is not its list's"
