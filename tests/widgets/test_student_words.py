"""Words a student reads on the table, said once (issue 36): the line under the hand names
the selected cards once, not "Selected: Q♥ 3♣ · selected: Q♥ 3♣" (no browser)."""

from __future__ import annotations

import html
import re

from mathcards.asking import COUNT
from mathcards.games.moons_and_planets import MoonsAndPlanets
from mathcards.games.suns_to_moons import Play
from mathcards.widgets import make_view
from tests.widgets.helpers import type_answer
from widgets.suns_to_moons import SunsToMoonsView
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


def _history(table) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", html.unescape(table.w_history.value))


def test_a_roll_asked_about_is_said_once_in_the_move_history():
    """Issue 36 item 14: at "I count" the roll asks what the stacks must make; once answered
    the move history said "Player 1 (you) rolled 2 and 3." twice."""
    table = GameTable(make_view("dice_stacks"), seats=("human", "strong"), seed=2,
                      bot_delay=0, save=False, level=COUNT)
    table.choice_pool[table.choice_keys.index("roll")].click()
    question = table.ctl.asking.pending.question
    a, b = question.dice
    rolled = f"Player 1 (you) rolled {a} and {b}."
    assert _history(table).count(rolled) == 1  # asked: the roll is in the history once
    type_answer(table.asking_panel, str(a + b))
    assert table.ctl.asking.pending is None and not table.refused, table.message
    assert _history(table).count(rolled) == 1, _history(table)
    assert table.ctl.history.count(rolled) == 1


def test_a_move_typed_and_played_with_the_button_is_not_refused_too():
    """Issue 36 item 13: typing "3H +" and pressing *Play typed move*: the browser sends the
    box's text as it loses the focus (the move is played: here its question is asked), then
    the click, with the box emptied. The click must not add "type a move first"."""
    table = GameTable(SunsToMoonsView(), seats=("human", "strong"), seed=3, bot_delay=0,
                      save=False, level=COUNT)
    ctl = table.ctl
    table.w_move_go.click()  # the button with an empty box says what to do
    assert table.refused and "type a move first" in table.message
    move = next(a for a in ctl.state.legal_actions() if isinstance(a, Play)
                and not a.is_joker and a.card.rank != 1)
    table.w_move.value = f"{move.card} {'+' if move.sign > 0 else '-'}"  # the box's text
    table.w_move_go.click()  # then the click that took the focus away
    assert ctl.asking.pending is not None  # the move's question is asked
    assert not table.refused, table.message
    assert "type a move first" not in _text(table.w_refusal.value + table.w_status.value)
