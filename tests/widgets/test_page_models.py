"""How many widget models a first visit to each play page makes (issue 29 item 4).

Every widget model is a comm_open message from the page's kernel, through Voilà's own
process, to the browser: in a class arriving at once Voilà's process handles them for
every page, which forked kernels cannot take off it. A play page made 142 to 152 models
(Sums: 149, in this count) when it built what it does not show at its first visit (the
seat pickers of seats the game does not have, the room controls of a page in no room)
and gave most widgets a Layout and a style of their own. Panels shown later are made
when first asked for; these tests keep the first visit within its budget and check that
the panels made later still work.
"""

from __future__ import annotations

import json
import re

import pytest
from ipywidgets.widgets.widget import _instances

from tests.browser.server import LESSONS

# the largest table (Moons and Planets) makes 95 models; before issue 29 item 4 the
# smallest made 142
MODEL_BUDGET = 100

PLAY_PAGES = sorted(LESSONS.glob("play_*.ipynb"))


def _game_of(page) -> str:
    source = "".join("".join(cell["source"]) for cell in json.loads(page.read_text())["cells"]
                     if cell["cell_type"] == "code")
    found = re.search(r'play\(\s*"(\w+)"', source)
    assert found, f"{page.name} does not call play(\"game\")"
    return found.group(1)


def _first_visit(game: str):
    """The table a first visit builds (a named student, as a class's link gives) and the
    widget models made for it."""
    from mathcards.widgets import play

    before = set(_instances)
    table = play(game, query="student=Ana&delay=0", save=False)
    return table, [w for key, w in list(_instances.items()) if key not in before]


def test_every_play_page_is_found():
    assert len(PLAY_PAGES) >= 5, [p.name for p in PLAY_PAGES]


@pytest.mark.parametrize("page", PLAY_PAGES, ids=lambda p: p.stem)
def test_a_first_visit_makes_at_most_the_budget_of_widget_models(page, tmp_path,
                                                                  monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    table, made = _first_visit(_game_of(page))
    kinds: dict[str, int] = {}
    for w in made:
        kinds[type(w).__name__] = kinds.get(type(w).__name__, 0) + 1
    assert len(made) <= MODEL_BUDGET, (len(made), kinds)
    if getattr(table, "rooms", None) is not None and table.rooms.link is not None:
        table.rooms.link.close()


def test_the_seat_pickers_are_made_as_the_players_count_shows_them(tmp_path, monkeypatch):
    """A 2-player table sends two seat pickers; a third player's is made when the count
    asks for it, and the New game panel deals the seats it shows."""
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    table, _made = _first_visit("sums")
    assert len(table.w_seat_pickers) == table.state.game.num_players == 2
    table.w_players.value = 3
    assert len(table.w_seat_pickers) == 3
    assert "mc-hide" not in table.w_seat_pickers[2]._dom_classes
    table.w_seat_pickers[2].value = "random"
    table.w_new.click()  # the game in progress has had no move: no confirmation asked
    table.w_new.click()
    assert table.state.game.num_players == 3 and table.seats[2] == "random"
    table.w_players.value = 2  # fewer seats: the third picker is hidden, not lost
    assert "mc-hide" in table.w_seat_pickers[2]._dom_classes
    assert table.w_seat_pickers[2].value == "random"


def test_the_room_controls_are_made_when_the_page_enters_a_room(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    table, _made = _first_visit("sums")
    panel = table.rooms
    assert panel._inside is None  # a page in no room sends none of them
    panel._holder = lambda: "token-ana"
    panel.w_make.click()
    try:
        assert panel._inside is not None and panel.w_inside in panel.widget.children
        assert panel.w_outside.layout.display == "none"
        assert panel.w_inside.layout.display == "" and panel.w_start.layout.display == ""
        panel.w_leave.click()
        assert panel.link is None and panel.w_inside.layout.display == "none"
        assert panel.w_outside.layout.display == ""
    finally:
        if panel.link is not None:
            panel.link.close()
