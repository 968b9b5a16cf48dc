"""After each change made at this screen the table asks the page to focus the control
the player needs next (issue 14 item 6: a keyboard player never has to Shift+Tab back)."""

from __future__ import annotations

import ipywidgets as W
import pytest

from mathcards.widgets.dice_stacks import dice_stacks_table
from mathcards.widgets.suns_to_moons import suns_to_moons_table
from mathcards.widgets.table import wait_for_bots
from tests.widgets.helpers import enabled_cards


@pytest.fixture
def focused(monkeypatch):
    """Every widget the table asks the page to focus, in order (DOMWidget.focus sends a
    {"do": "focus"} message to the widget's views; here it is recorded instead)."""
    calls: list[W.DOMWidget] = []
    monkeypatch.setattr(W.DOMWidget, "focus", lambda self: calls.append(self))
    return calls


def _first_plain_card(table):
    """The first enabled card that is not a Joker (a Joker is played in one click)."""
    return next(cb for cb in enabled_cards(table) if not cb.card.is_joker)


def test_a_picked_card_focuses_the_first_sign_and_a_move_focuses_the_hand(focused):
    table = suns_to_moons_table(seed=4, bot_delay=0, save=False)
    assert focused == []  # building the table takes no focus
    card = _first_plain_card(table)
    card.button.click()
    assert table.picked == (f"card:{card.card}",)
    signs = [b for b in table.choice_pool if not b.disabled]
    assert focused[-1] is signs[0] and "→" in signs[0].description
    signs[0].click()  # the move; the bot answers at once (no pause)
    assert len(table.state.history) >= 2 and table.ctl.acting_human()
    first = enabled_cards(table)[0].button
    assert focused[-1] is first


def test_back_focuses_the_hand_and_a_refusal_moves_nothing(focused):
    table = suns_to_moons_table(seed=4, bot_delay=0, save=False)
    card = _first_plain_card(table)
    card.button.click()
    asked = len(focused)
    other = next(cb for cb in table.hand_buttons.pool if cb is not card and cb.key)
    other.button.click()  # refused: "can be played too: click Back to choose it instead"
    assert table.refused and len(focused) == asked
    back = table.choice_pool[table.choice_keys.index("back")]
    back.click()
    assert focused[-1] is enabled_cards(table)[0].button


def test_the_turn_coming_back_after_the_bots_focuses_the_hand(focused):
    table = suns_to_moons_table(seed=4, bot_delay=0.05, save=False)
    card = _first_plain_card(table)
    card.button.click()
    asked = len(focused)
    next(b for b in table.choice_pool if not b.disabled).click()
    # the bot is to move: nothing of the hand can be pressed, so nothing is focused yet
    assert not table.ctl.acting_human() and len(focused) == asked
    wait_for_bots(table)
    wait_until(lambda: len(focused) > asked)
    assert table.ctl.acting_human()
    assert focused[-1] is enabled_cards(table)[0].button


def test_a_bot_playing_first_takes_no_focus_before_the_player_pressed_anything(focused):
    table = suns_to_moons_table(seats=["strong", "human"], seed=4, bot_delay=0.05, save=False)
    wait_for_bots(table)
    wait_until(lambda: table.ctl.acting_human() and enabled_cards(table))
    assert focused == []  # the page (a lesson, say) keeps its place until the player acts


def test_a_typed_move_keeps_the_focus_in_the_move_box(focused):
    table = suns_to_moons_table(seed=4, bot_delay=0.05, save=False)
    play = next(a for a in table.state.legal_actions()
                if not a.is_joker and a.card.rank != 1)  # an Ace would need its value too
    table.w_move.value = f"{play.card} {'+' if play.sign > 0 else '-'}"
    assert len(table.state.history) == 1, table.message
    wait_for_bots(table)
    wait_until(lambda: table.ctl.acting_human() and enabled_cards(table))
    assert focused == []  # neither the move nor the turn coming back took the focus


def test_selecting_a_stack_leaves_the_focus_on_the_card(focused):
    table = dice_stacks_table(seats=["human", "strong"], seed=5, bot_delay=0, save=False)
    roll = table.choice_pool[table.choice_keys.index("roll")]
    roll.click()
    while not (table.ctl.selecting and enabled_cards(table)):
        next(b for b in table.choice_pool if not b.disabled).click()
    asked = len(focused)
    enabled_cards(table)[-1].button.click()
    assert table.selected and len(focused) == asked


def test_hot_seat_focuses_i_am_ready_then_the_hand(focused):
    table = suns_to_moons_table(seats=["human", "human"], seed=4, bot_delay=0, save=False)
    table.w_ready.click()
    assert focused[-1] is enabled_cards(table)[0].button
    card = _first_plain_card(table)
    card.button.click()
    next(b for b in table.choice_pool if not b.disabled).click()
    assert focused[-1] is table.w_ready


def wait_until(condition, timeout: float = 5.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)
