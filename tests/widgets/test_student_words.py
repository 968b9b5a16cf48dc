"""Words a student reads on the table, said once (issue 36): the line under the hand names
the selected cards once, not "Selected: Q♥ 3♣ · selected: Q♥ 3♣" (no browser)."""

from __future__ import annotations

import html
import re

from mathcards.asking import COUNT
from mathcards.games.moons_and_planets import MoonsAndPlanets
from widgets.table import GameTable
from widgets.tricks import MoonsAndPlanetsView


def _text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def test_the_selection_line_names_the_selected_cards_once():
    table = GameTable(MoonsAndPlanetsView(), MoonsAndPlanets(), seats=("human", "strong"),
                      seed=3, bot_delay=0, save=False, level=COUNT)
    for _ in range(50):  # let the bot move until the student puts cards down
        if table.ctl.selecting:
            break
        choice = next(c for c in table.ctl.offered_choices() if c.key.startswith("move:"))
        table.ctl.click_choice(choice.key)
    assert table.ctl.selecting
    hand = table.ctl.hand()
    table.hand_buttons.pool[0].button.click()
    table.hand_buttons.pool[1].button.click()
    line = _text(table.w_selection.value)
    names = f"{hand[0].symbol} {hand[1].symbol}"
    assert names in line, line
    assert line.lower().count("selected") == 1, line
    assert line.count(names) == 1, line
