"""One pool of card buttons (``widgets.cards.HandButtons``) draws the tables' hands and the
guided hands': a button per card held, never another card's, closed once its card is gone."""

from __future__ import annotations

import ipywidgets as W
import pytest

from mathcards.cards import parse_cards
from mathcards.table import CardState
from mathcards.widgets.cards import HandButtons


def _states(text: str) -> list[CardState]:
    return [CardState(card, f"card:{card}", True) for card in parse_cards(text)]


@pytest.mark.parametrize("close_at_once", [False, True])
def test_each_card_held_has_its_own_button_and_a_gone_card_names_nothing(close_at_once):
    box = W.HBox()
    hand = HandButtons(box, lambda _cb: None, mark="mc-hand-card", close_at_once=close_at_once)
    hand.draw(_states("7H 7H 4S"))
    first, second, four = hand.pool
    assert list(box.children) == [first.button, second.button, four.button]
    assert first is not second and first.card == second.card  # two 7♥: two buttons
    assert first.button._dom_classes[:2] == ("mc-cardbtn", "mc-hand-card")

    hand.draw(_states("7H 4S"))  # a 7♥ was played: the first 7♥ keeps its button
    assert hand.pool == [first, four] and list(box.children) == [first.button, four.button]
    assert not hand.holds(second) and hand.holds(first)
    assert second.card is None and second.button.description == ""  # nothing left to read
    assert (second.button.comm is None) == close_at_once  # closed now, or kept hidden

    hand.draw(_states("7H 4S"), playing=False)  # not this screen's turn
    assert all(cb.button.disabled for cb in hand.pool)
