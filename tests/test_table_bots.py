"""The bots' turns have one owner: ``mathcards.table_bots.BotScheduler``.

No other part of a table (the controller, the rooms' link, the ipywidgets table, the guided
hands) starts a thread or a timer of its own; a stale timer of an earlier deal does nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from mathcards.games.sums import Sums
from mathcards.table import TableController
from mathcards.widgets import make_view

ROOT = Path(__file__).resolve().parents[1]
TIMERS = re.compile(r"threading\.(Timer|Thread)\(|\.call_later\(")
TABLE_PARTS = ("mathcards/table.py", "mathcards/rooms.py", "widgets/table.py",
               "widgets/lesson.py")


def test_no_other_part_of_a_table_sets_a_timer():
    found = [part for part in TABLE_PARTS
             if TIMERS.search((ROOT / part).read_text(encoding="utf-8"))]
    assert found == [], f"these set timers of their own: {found}"
    assert TIMERS.search((ROOT / "mathcards/table_bots.py").read_text(encoding="utf-8"))


def test_a_bot_moves_on_its_timer_and_an_old_deals_timer_does_nothing():
    timers: list[tuple[float, object]] = []
    ctl = TableController(make_view("sums"), Sums(num_players=2), seats=("strong", "human"),
                          seed=5, bot_delay=0.5, save=False,
                          schedule=lambda delay, fn: timers.append((delay, fn)))
    assert ctl.busy and len(timers) == 1 and timers[0][0] == 0.5
    assert len(ctl.state.history) == 0  # nothing moves before the pause
    timers.pop()[1]()
    assert len(ctl.state.history) >= 1  # the bot's move, on its timer
    while ctl.busy:  # the bot's turn goes on, one timer per move
        assert len(timers) == 1
        timers.pop()[1]()
    ctl.new_game(seed=6)
    assert len(timers) == 1
    stale = timers.pop()[1]
    ctl.new_game(seed=7)  # a newer deal: the timer of seed 6's game finds another game
    moves = len(ctl.state.history)
    stale()
    assert len(ctl.state.history) == moves
