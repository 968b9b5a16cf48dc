"""A student opens a sample set under Voilà, answers wrong then right, and sees both attempts.

The page is ``practice.ipynb?set=shoot_the_moon&student=ines`` served as ``make play``
serves it (progress goes to the server's temporary data folder).
"""

from __future__ import annotations

from tests.browser.conftest import wait_for_first_widget


def test_student_answers_wrong_then_right_and_the_progress_shows_both(page, voila_server):
    page.goto(voila_server.page("practice.ipynb") + "?set=shoot_the_moon&student=ines")
    wait_for_first_widget(page)
    page.get_by_text("Shoot the Moon: tricks").first.wait_for()
    page.get_by_text("Student: ines").first.wait_for()
    # exercise 1: G9 led, then G12 and P11; the highest green (G12) takes it
    choices = page.locator(".mc-ex-choice")
    choices.nth(0).wait_for()
    assert [t.strip() for t in choices.all_inner_texts()] == ["led ☾9", "☾12", "★11"]

    choices.nth(0).click()  # wrong: G9
    page.locator(".mc-result.mc-wrong").wait_for()
    assert "☾9 does not take this trick" in page.locator(".mc-result").inner_text()
    page.locator("tr.mc-attempt").first.wait_for()

    choices.nth(1).click()  # right: G12
    page.locator(".mc-result.mc-right").wait_for()
    assert "☾12 takes it" in page.locator(".mc-result").inner_text()
    page.wait_for_function("() => document.querySelectorAll('tr.mc-attempt').length == 2")

    # the attempts show the answer as the student saw it: card symbols, not codes
    rows = [r.split("\t") for r in page.locator("tr.mc-attempt").all_inner_texts()]
    assert [(r[1].strip(), r[2].strip(), r[3].strip()) for r in rows] == [
        ("exercise 1", "☾9", "✘ wrong"), ("exercise 1", "☾12", "✔ right")]
    assert page.console_errors == []
