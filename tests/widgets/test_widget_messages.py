"""A widget message from a page that cannot be applied is refused in one line, never with a
traceback (issue 26 item 11). A Voilà page's visitor can set every synced field to anything
JSON holds; ipywidgets answered a number in a text box with the whole traceback.

The same over a real Voilà server's websocket: tests/test_server_restart_and_scripts.py.
"""

from __future__ import annotations

import logging

import ipywidgets as W
import pytest

from mathcards.widgets import guard
from mathcards.widgets.sums import sums_table

BAD_VALUES = [5, 3.5, ["a"], {"a": 1}, None, True, "x" * 10_000]


def _update(widget, state) -> None:
    """What a page's ``update`` message does in the kernel."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state}},
                        "buffers": []})


def _with_value(root):
    """Every widget of the tree under ``root`` that the page may set a value of."""
    seen, stack, found = set(), [root], []
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, W.Widget):
            continue
        seen.add(id(w))
        if "value" in w.keys or "index" in w.keys:
            found.append(w)
        stack.extend(getattr(w, "children", ()))
    return found


@pytest.fixture
def guarded():
    guard.install()  # what importing mathcards.widgets does in a Voilà page's kernel


def test_every_value_a_page_can_set_is_refused_in_one_line_without_a_traceback(guarded,
                                                                               caplog):
    table = sums_table(bot_delay=0, save=False)
    widgets = _with_value(table)
    assert len(widgets) >= 3, "no text box or picker found in the table"
    caplog.set_level(logging.DEBUG)
    for widget in widgets:
        name = "value" if "value" in widget.keys else "index"
        for bad in BAD_VALUES:
            before = getattr(widget, name)
            _update(widget, {name: bad})  # never raises
            after = getattr(widget, name)
            assert after in (before, bad), (widget, bad)  # refused, or a value it may hold
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    refused = [r for r in caplog.records if r.getMessage().startswith("A widget message was")]
    assert refused and all("\n" not in r.getMessage() and "/" not in r.getMessage()
                           for r in refused)
    # every refusal is the field's own type check: no observer of a value raised
    assert all(": TraitError: " in r.getMessage() for r in refused), {
        r.getMessage() for r in refused if ": TraitError: " not in r.getMessage()}


def test_a_callback_that_raises_is_one_line(guarded, caplog):
    button = W.Button()
    button.on_click(lambda _b: 1 / 0)
    button.on_click(lambda _b: None)
    button.click()
    assert [r.getMessage() for r in caplog.records] == [
        "A widget message was refused: ZeroDivisionError: division by zero"]
    assert not [r for r in caplog.records if r.exc_info]
