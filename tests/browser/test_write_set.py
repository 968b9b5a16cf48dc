"""The teacher writes a set in the browser (write_set.ipynb with the key, a real Voilà
server and Chromium): a live error for a bad card, fixed; two students' variants in the
preview; published; a student's practice page opens it, and refuses a draft."""

from __future__ import annotations

import re

from mathcards.widgets.setwriter import kind_label
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_lessons import assert_clean
from tests.browser.test_teacher_dashboard import servers_data
from tests.exercises.test_store import BAD_CARD
from tests.exercises.test_store import GOOD as SET

DRAFT = SET.replace("integers_7b", "secret_draft").replace("Integers 7B", "Secret draft")


def test_a_teacher_writes_previews_and_publishes_a_set_a_student_opens_it(page, voila_server):
    from mathcards import keys

    with servers_data(voila_server):
        key = keys.teacher_key()
    page.goto(voila_server.page(f"write_set.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    editor = page.locator(".mc-writer-yaml textarea")
    editor.wait_for(state="visible")
    check = page.locator(".mc-writer-check")

    two = BAD_CARD[:BAD_CARD.index("  - kind: reach_goal")]
    editor.fill(two)  # two exercises typed, the first with a bad card
    check.get_by_text("'1OS' is not a card").wait_for()
    assert "line 5: exercise 1:" in check.inner_text()
    editor.fill(two.replace("-1OS", "-4S"))  # fixed
    check.get_by_text("No problems: 2 exercises, ready to publish.").wait_for()

    # the third from the form, with card symbols
    page.locator("select").filter(  # the kind list (the solution rule is a list too)
            has=page.locator("option", has_text=kind_label("reach_goal"))).select_option(
            label=kind_label("reach_goal"))
    page.locator(".mc-field-hand input").fill("3H 4S 9D")  # the kind's boxes are drawn
    page.locator(".mc-field-deck input").fill("7♥ −10♠")
    page.locator(".mc-field-goal input").fill("0")
    page.get_by_role("button", name="Add to the set").click()
    check.get_by_text("No problems: 3 exercises, ready to publish.").wait_for()
    assert "goal: 0" in editor.input_value()
    preview = page.locator(".mc-writer-preview .mc-preview-exercise").nth(1)
    preview.locator('[data-student="ben"]').wait_for()
    ana = preview.locator('[data-student="ana"] code').inner_text()
    ben = preview.locator('[data-student="ben"] code').inner_text()
    assert ana != ben and re.match(r"deck: \S+", ana)

    page.get_by_role("button", name="Publish", exact=True).click()
    page.get_by_text("Published: integers_7b.").wait_for()

    editor.fill(DRAFT)  # another set, kept as a draft
    check.get_by_text("No problems: 3 exercises").wait_for()
    page.get_by_role("button", name="Save as draft").click()
    page.get_by_text("Saved as a draft: secret_draft.").wait_for()
    assert_clean(page, voila_server)

    page.goto(voila_server.page("practice.ipynb") + "?set=integers_7b&student=setwriter_ana")
    wait_for_first_widget(page)
    page.get_by_text("Integers 7B").first.wait_for()
    page.get_by_text("Exercise 1 of 3").first.wait_for()

    page.goto(voila_server.page("practice.ipynb") + "?set=secret_draft&student=setwriter_ana")
    wait_for_rendered(page)  # the list of sets: no button on it
    page.get_by_text("there is no exercise set 'secret_draft'").wait_for(timeout=90_000)
    assert page.get_by_text("Secret draft").count() == 0
    # the list of sets' links (the language switch at the foot links this same address)
    assert page.locator("a[href*='set=integers_7b']:not(.mc-lang a)").count() == 1
    assert page.locator("a[href*='set=secret_draft']:not(.mc-lang a)").count() == 0
    assert_clean(page, voila_server)


CHROMEBOOK = {"width": 1366, "height": 768}
LIVE = SET.replace("integers_7b", "live_set").replace("Integers 7B", "Live set")


def open_writer(page, voila_server):
    from mathcards import keys

    with servers_data(voila_server):
        key = keys.teacher_key()
    page.set_viewport_size(CHROMEBOOK)
    page.goto(voila_server.page(f"write_set.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    editor = page.locator(".mc-writer-yaml textarea")
    editor.wait_for(state="visible")
    return editor, page.locator(".mc-writer-check")


def test_a_draft_of_a_published_set_leaves_the_students_set_as_it_was(page, voila_server):
    editor, check = open_writer(page, voila_server)
    editor.fill(LIVE)
    check.get_by_text("No problems: 3 exercises, ready to publish.").wait_for()
    page.get_by_role("button", name="Publish", exact=True).click()
    page.get_by_text("Published: live_set.").wait_for()

    editor.fill(LIVE.replace("title: Live set", "title: Live set renamed"))  # edited
    check.get_by_text("No problems: 3 exercises").wait_for()
    page.get_by_role("button", name="Save as draft").click()
    saved = page.get_by_text("Saved as a draft: live_set.")
    saved.wait_for()
    said = saved.inner_text()
    assert_clean(page, voila_server)

    # the student's list still offers the set, and it opens as published
    page.goto(voila_server.page("practice.ipynb") + "?student=setwriter_ben")
    wait_for_rendered(page)
    page.locator("a[href*='set=live_set']:not(.mc-lang a)").first.wait_for(timeout=90_000)
    page.goto(voila_server.page("practice.ipynb") + "?set=live_set&student=setwriter_ben")
    wait_for_first_widget(page)
    page.get_by_text("Exercise 1 of 3").first.wait_for()
    page.get_by_text("Live set").first.wait_for()
    assert page.get_by_text("Live set renamed").count() == 0
    assert page.get_by_text("there is no exercise set").count() == 0
    assert_clean(page, voila_server)
    assert "Students still see the published version 1 until you publish this draft." in said


def test_an_unsaved_set_survives_a_reload_of_the_page(page, voila_server):
    editor, check = open_writer(page, voila_server)
    typed = LIVE.replace("live_set", "typed_set").replace("Live set", "Typed, not saved")
    editor.fill(typed)
    check.get_by_text("No problems: 3 exercises, ready to publish.").wait_for()
    page.reload()  # a new kernel builds the page
    wait_for_rendered(page)
    wait_for_first_widget(page)
    editor.wait_for(state="visible")
    page.get_by_text("Your set not yet saved is back in the editor").wait_for()
    assert editor.input_value() == typed
    check.get_by_text("No problems: 3 exercises, ready to publish.").wait_for()
    editor.fill("")  # cleared: the next test's page opens empty
    check.get_by_text("Write a set below").wait_for()
    assert_clean(page, voila_server)
