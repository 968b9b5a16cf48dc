"""The path of a click in docs/architecture.md is the path the code takes.

One Suns to Moons move at "Show me the sums" (a card, then its sign) and the strong bot's
answer, clicked on the real table (``GameTable``) with saving on, traced with
``sys.setprofile``: the files of mathcards/ and widgets/ whose functions ran must be exactly
the files the document lists, so the document cannot drift from the code again.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mathcards import saves
from mathcards.asking import SHOW
from mathcards.games.registry import make_game
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
           "twenty-eight": 28, "twenty-nine": 29, "thirty": 30}


def _one_move(table: GameTable) -> None:
    """The person's card and sign; the bot (no pause) answers inside the second click."""
    start = len(table.state.history)
    for _click in range(6):
        if len(table.state.history) >= start + 2:
            return
        choices = enabled_choices(table)
        if table.ctl.picked and choices:
            choices[0].click()  # the sign of the card just chosen
        else:
            enabled_cards(table)[0].button.click()
    raise AssertionError(f"the move and the bot's answer did not happen: {table.message}")


def traced_files(tmp_path: Path) -> set[str]:
    table = GameTable(make_view("suns_to_moons"), make_game("suns_to_moons", num_players=2),
                      seats=("human", "strong"), seed=4, bot_delay=0, save=True,
                      slot="trace", level=SHOW)
    _one_move(table)  # the first move imports what a page's first click imports
    ran: set[str] = set()

    def profile(frame, event, _arg):
        if event == "call":
            ran.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        _one_move(table)
    finally:
        sys.setprofile(None)
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
    # the same move (with another, the bot may win the round and the next deal runs too)
    monkeypatch.setattr(saves, "new_private_seed", lambda: 1)
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    found = LISTED.search(text)
    assert found, "docs/architecture.md lists no files a click runs code in"
    documented = set(FILE.findall(found.group(2)))
    traced = traced_files(tmp_path)
    assert traced == documented, (
        f"in the code, not in the document: {sorted(traced - documented)}; "
        f"in the document, not run: {sorted(documented - traced)}")
    assert NUMBERS[found.group(1)] == len(traced), "the document's count is not its list's"
