"""The teacher's pages at a Chromebook's 1366x768 show every label and button whole (issue 36
item 18: "On the se…", "Download the an…" and the Page list were cut), each select's chosen
text whole, the write-a-set preview's hands as cards (not a line of notation), and the
practice page's set names as links."""

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

# A select shows its chosen option's text inside its box, beside its arrow: the text's width
# in the select's own font against the room its padding leaves
SELECT_CUT = """() => [...document.querySelectorAll('select')]
  .filter(s => s.offsetParent !== null && s.selectedIndex >= 0)
  .map(s => {
    const style = getComputedStyle(s);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return {text, width: Math.ceil(pen.measureText(text).width), room};
  })
  .filter(s => s.width > s.room)"""


def _teacher_page(browser, voila_server, notebook: str):
    from mathcards import keys

    with servers_data(voila_server):
        key = keys.teacher_key()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(voila_server.page(f"{notebook}?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    page.wait_for_timeout(500)  # the page's last widgets are laid out
    return context, page


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
        assert page.evaluate(SELECT_CUT) == []
    finally:
        page.close(run_before_unload=True)
        context.close()


def test_the_preview_shows_a_hand_as_the_students_cards(browser, voila_server):
    """The preview drew a hand as a line of notation ("hand: 3H 4S 9D") where the student
    picks from cards: now the hand's cards with their suits, as the practice page shows."""
    from tests.exercises.test_store import GOOD

    context, page = _teacher_page(browser, voila_server, "write_set.ipynb")
    try:
        page.locator(".mc-writer-yaml textarea").fill(GOOD)
        page.locator(".mc-writer-check").get_by_text("No problems: 3 exercises").wait_for()
        third = page.locator(".mc-writer-preview .mc-preview-exercise").nth(2)
        hand = third.locator('[data-student="ana"] [role="group"][aria-label="Your hand"]')
        hand.wait_for()
        assert [c.get_attribute("aria-label") for c in hand.locator("[aria-label]").all()] == [
            "three of hearts", "four of spades", "nine of diamonds"]
        assert [t.replace("\n", "") for t in hand.locator(":scope > *").all_inner_texts()] == [
            "3♥", "4♠", "9♦"]
    finally:
        page.close(run_before_unload=True)
        context.close()


def test_the_practice_pages_set_names_look_like_links(browser, voila_server):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        # a name of its own: the shared server keeps names per browser (ana is taken)
        page.goto(voila_server.page("practice.ipynb?student=labelcheck"))
        wait_for_rendered(page)
        links = page.locator(".mathcards li a[href*='set=']")
        links.first.wait_for()
        found = links.evaluate_all("""(links) => links.map(a => {
            const s = getComputedStyle(a);
            const p = getComputedStyle(a.closest('.mathcards').querySelector('p'));
            return {name: a.textContent, line: s.textDecorationLine, color: s.color,
                    text: p.color};
        })""")
        assert len(found) >= 2
        for link in found:
            assert "underline" in link["line"] and link["color"] != link["text"], link
    finally:
        page.close(run_before_unload=True)
        context.close()
