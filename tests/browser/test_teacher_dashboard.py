"""The teacher's dashboard in a real browser, with the teacher's key: the student x
exercise grid (wrong answers, a sign slip, hints), Refresh, and a link for the class."""

from __future__ import annotations

import contextlib
import os

from mathcards.exercises import ProgressStore, load_set_text
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_lessons import assert_clean
from tests.exercises.test_progress import SET


@contextlib.contextmanager
def servers_data(server):
    """This process reads and writes the server's data folder (its key, its progress)."""
    saved = os.environ.get("MATHCARDS_DATA_DIR")
    os.environ["MATHCARDS_DATA_DIR"] = str(server.state_dir / "mathcards_data")
    try:
        yield server.state_dir / "mathcards_data"
    finally:
        if saved is None:
            os.environ.pop("MATHCARDS_DATA_DIR")
        else:
            os.environ["MATHCARDS_DATA_DIR"] = saved


def test_the_dashboard_shows_the_grid_refreshes_and_makes_a_class_link(page, voila_server):
    from mathcards import keys

    warm_up = load_set_text(SET, name="dash-warm-up")
    with servers_data(voila_server) as data:
        key = keys.teacher_key()
        store = ProgressStore(data / "progress.sqlite3")
        dora = warm_up.session("dora", store=store)
        dora.hint(1)
        dora.check(1, "-3H")  # a sign slip, then the right play
        dora.check(1, "+3H")
        warm_up.session("eli", store=store).check(2, 0)
    page.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    grid = page.locator("table.mc-grid")
    grid.wait_for(state="visible")
    dora_row = grid.locator("tr", has=page.locator("th", has_text="dora"))
    assert "sign slip" in dora_row.inner_text() and "hints: 1" in dora_row.inner_text()
    assert "\u22123H" in dora_row.inner_text()
    assert grid.locator("th", has_text="fay").count() == 0
    with servers_data(voila_server):
        warm_up.session("fay", store=store).check(2, 1)
    page.get_by_role("button", name="Refresh").click()
    grid.locator("th", has_text="fay").wait_for(state="visible")
    page.locator("select").first.select_option(label="Play: Sums")
    page.get_by_role("button", name="Make the link").click()
    link = page.locator("a", has_text="play_sums.ipynb?deal=SUMS-2P-")
    link.wait_for(state="visible")
    assert link.get_attribute("href").startswith("play_sums.ipynb?deal=SUMS-2P-")
    store.close()
    assert_clean(page, voila_server)
