"""The teacher's pages at a Chromebook's 1366x768 show every label and button whole (issue 36
item 18: "On the se…", "Download the an…" and the Page list were cut)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_teacher_dashboard import servers_data

pytestmark = pytest.mark.browser

CUT = """() => [...document.querySelectorAll(
    '.widget-label, .widget-button, .jupyter-button, .widget-dropdown select, '
    + '.widget-toggle-button')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => (e.innerText || e.value || '').trim() || e.outerHTML.slice(0, 80))"""


@pytest.mark.parametrize("notebook", ["write_set.ipynb", "dashboard.ipynb", "classes.ipynb"])
def test_no_label_or_button_of_a_teachers_page_is_cut(browser, voila_server, notebook):
    from mathcards import keys

    with servers_data(voila_server):
        key = keys.teacher_key()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(voila_server.page(f"{notebook}?key={key}"))
        wait_for_rendered(page)
        wait_for_first_widget(page)
        page.wait_for_timeout(500)  # the page's last widgets are laid out
        assert page.evaluate(CUT) == []
    finally:
        page.close(run_before_unload=True)
        context.close()
