"""Driving a table the way a student does: clicking enabled buttons."""

from __future__ import annotations

import random

from mathcards.widgets.table import GameTable


def enabled_cards(table: GameTable):
    return [cb for cb in table.hand_buttons.pool if not cb.button.disabled and cb.key is not None]


def enabled_choices(table: GameTable):
    return [
        b for i, b in enumerate(table.choice_pool)
        if not b.disabled and table.choice_keys[i] not in (None, "back", "clear")
    ]


def click_something(table: GameTable, rng: random.Random) -> str:
    """Click one enabled card or choice (what a student could click); returns what."""
    cards, choices = enabled_cards(table), enabled_choices(table)
    if table.view.selection_mode(table.state) and table.selected and rng.random() < 0.5:
        choices = choices + [b for i, b in enumerate(table.choice_pool)
                             if table.choice_keys[i] == "clear"]
    options = [("card", c) for c in cards] + [("choice", b) for b in choices]
    assert options, f"nothing to click: {table.message!r} at move {len(table.state.history)}"
    kind, target = rng.choice(options)
    if kind == "card":
        label = target.button.description
        target.button.click()
    else:
        label = target.description
        target.click()
    return label


def play_to_end(table: GameTable, seed: int, max_clicks: int = 3000) -> int:
    """Click until the game is over; every click of an enabled control must be accepted."""
    rng = random.Random(seed)
    clicks = 0
    while not table.state.is_over:
        label = click_something(table, rng)
        clicks += 1
        assert not table.refused, f"{label!r} refused: {table.message}"
        assert clicks < max_clicks, "the game did not end"
    return clicks


def type_answer(panel, text: str) -> None:
    """What a student's browser sends on Enter (or ✓ OK, or Check): the typed text and the
    submission in one state update (``AnswerBox``)."""
    panel.w_answer.submit(text)


def widgets_under(*widgets) -> list:
    """Every widget in the trees under ``widgets`` (themselves included)."""
    out, todo = [], list(widgets)
    while todo:
        w = todo.pop()
        out.append(w)
        todo.extend(getattr(w, "children", ()))
    return out


def row_head(name: str) -> str:
    """A results table's row head: the student's name, a link to their page (issue 38)."""
    from mathcards.widgets.student_page import student_link_html

    return f'<th scope="row">{student_link_html(name)}</th>'
