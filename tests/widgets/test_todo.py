"""A student's "To do" on the class's landing page (issue 38 item 1): the class's open
assignments, soonest due first, each with its link and where the student stands."""

from __future__ import annotations

import datetime as dt
import html
import re

from mathcards.assignments import GAME, SET, AssignmentStore
from mathcards.classes import ClassStore
from mathcards.exercises import ProgressStore, load_set
from mathcards.exercises.progress import Attempt, FinishedGame
from tests.browser.server import LESSONS

SAMPLES = LESSONS / "exercises"


def text_of(value: str) -> str:
    """The words shown (list items on lines of their own)."""
    value = re.sub(r"</li>|</h3>", "\n", value)
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def test_the_class_landing_page_shows_each_students_work_to_do(data_dir):
    from mathcards.widgets.assignments import todo_html
    from mathcards.widgets.classes import landing

    today = dt.date.today()
    with ClassStore() as classes:
        classes.save("7b", "Ana\nBo")
        classes.save("8a", "Cy")
    with AssignmentStore() as store:
        game = store.add("7b", GAME, "sums", opens=today, due=today + dt.timedelta(days=3),
                         level="count", games=2)
        late = store.add("7b", SET, "suns_to_moons", opens=today - dt.timedelta(days=9),
                         due=today - dt.timedelta(days=2))
        store.add("7b", SET, "sums", opens=today + dt.timedelta(days=1),
                  due=today + dt.timedelta(days=5))  # not open yet: not shown
        store.add("8a", SET, "dice_stacks", opens=today, due=today)  # another class's
    exercise_set = load_set(SAMPLES / "suns_to_moons.yaml")
    progress = ProgressStore()
    for exercise in exercise_set:  # Ana did the whole set, after its due day
        progress.record(Attempt.new(student="ana", set_id=exercise_set.id,
                                    set_title=exercise_set.title, exercise=exercise.id,
                                    number=exercise.number, kind="x", variant="", answer="x",
                                    correct=True, score=1.0, hints_used=0, seconds=2.0))
    progress.record_game(FinishedGame.new(student="bo", game="sums", level="count", won=True))
    progress.close()

    ana = todo_html("7b", "Ana", SAMPLES)
    bo = todo_html("7b", "Bo", SAMPLES)
    assert text_of(ana).startswith("To do")
    # soonest due first: the late set, then the game
    assert re.search(r"Suns to Moons.*done, late.*Sums at “I count”, 2 games: to do",
                     text_of(ana), re.S), text_of(ana)
    assert re.search(r"Suns to Moons.*: late, due .*Sums at “I count”, 2 games: started "
                     r"\(1 of 2\)", text_of(bo), re.S), text_of(bo)
    assert "Dice Stacks" not in ana and "set=sums" not in ana  # other class, not open yet
    assert 'href="play_sums.ipynb?level=count&amp;class=7b&amp;student=Ana"' in ana
    assert 'href="practice.ipynb?set=suns_to_moons&amp;class=7b&amp;student=Bo"' in bo
    assert late.id and game.id
    assert todo_html("8a", "Cy", SAMPLES).count("<li") == 1
    assert todo_html("club", "Ana", SAMPLES) == ""  # no such class: nothing

    page = landing("class=7b&student=Ana")  # the landing page, once the name is known
    assert "To do" in text_of(page.w_hello.value)
    plain = landing("student=Ana")  # no class: nothing to do shown
    assert "To do" not in text_of(plain.w_hello.value)
