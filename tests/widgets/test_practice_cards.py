"""The practice page draws its cards as the tables do: ``card_face_html`` faces in the
pictures and ``CardButton``s for the cards to click (no text chips, no SVG)."""

from __future__ import annotations

import re

import pytest

from mathcards.exercises import load_set
from mathcards.exercises.session import MemoryStore
from tests.browser.server import LESSONS
from tests.widgets.helpers import widgets_under

SETS = sorted(p.stem for p in (LESSONS / "exercises").glob("*.yaml"))


@pytest.mark.parametrize("name", SETS)
def test_every_exercise_draws_its_cards_with_the_tables_faces_and_buttons(name):
    view = load_set(LESSONS / "exercises" / f"{name}.yaml").show("ana", store=MemoryStore())
    faces = 0
    for number in range(1, len(view.session) + 1):
        view.go(number)
        picture = view.w_picture.value
        # the only pictures left in SVG are the dice (and the number line): no card as SVG
        svgs = re.findall(r'<svg role="img" aria-label="([^"]*)"', picture)
        assert all(label.startswith("a die showing") for label in svgs), svgs
        faces += len(re.findall(r'<span class="mc-card [^"]*" role="img"', picture))
        shown = _answer_buttons(view)
        for hand in ("w_hand", "w_opponent"):
            for button in (b for b in getattr(view, hand, []) if b in shown):
                classes = list(button._dom_classes)
                assert classes[:2] == ["mc-cardbtn", "mc-ex-card"], classes
                assert re.fullmatch(r"[a-z ]+[0-9]*", button.description), button.description
    assert faces > 0


def _answer_buttons(view) -> list:
    return widgets_under(*view.w_answer.children)


def test_the_hand_to_click_is_card_buttons_in_a_hand_row_and_a_pick_is_raised():
    view = load_set(LESSONS / "exercises" / "sums.yaml").show("ana", store=MemoryStore())
    view.go(4)  # capture: pick the card to play, then its target
    first = view.w_hand[0]
    row = next(w for w in _answer_buttons(view) if first in getattr(w, "children", ()))
    assert {"mc-row", "mc-hand"} <= set(row._dom_classes)
    card = view.variant.position["hand"][0]
    assert first.description == card.name and f"mc-s{card.suit}" in first._dom_classes
    first.click()
    assert "mc-selected" in first._dom_classes
    assert all("mc-selected" not in b._dom_classes for b in view.w_hand[1:])
