"""The teacher's assignments on the pages (issue 38 items 1 and 2), without a browser:
*Assign work* on *Your classes* and the assignment's page read real SQLite files."""

from __future__ import annotations

import base64
import datetime as dt
import html
import re

from mathcards.assignments import AssignmentStore
from mathcards.classes import ClassStore
from mathcards.exercises import ProgressStore, load_set
from mathcards.exercises.progress import Attempt
from tests.browser.server import LESSONS

SAMPLES = LESSONS / "exercises"


def text_of(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def test_the_teacher_assigns_a_set_and_a_game_and_follows_the_set(data_dir):
    from mathcards.widgets.assignments import AssignmentPage, AssignPanel

    with ClassStore() as classes:
        classes.save("7b", "Ana\nBo\nCy")
    panel = AssignPanel(SAMPLES)
    assert panel.w_class.options == ("7b",)
    labels = [label for label, _value in panel.w_what.options]
    assert "Exercise set: Suns to Moons: reach the goal" in labels or any(
        label.startswith("Exercise set: ") for label in labels)
    # the tables that ask (GameSpec.assignable), in the landing page's order
    assert [label for label in labels if label.startswith("Game: ")] == [
        "Game: Suns to Moons", "Game: Dice Stacks", "Game: Sums"]
    panel.w_what.value = ("set", "suns_to_moons")
    assert panel.w_game_boxes.layout.display == "none"  # no level for a set
    today = dt.date.today()
    panel.w_opens.value, panel.w_due.value = today, today + dt.timedelta(days=2)
    made = panel.assign()
    assert made is not None and "Assigned to class 7b" in text_of(panel.w_line.value)
    panel.w_what.value = ("game", "sums")
    assert panel.w_game_boxes.layout.display == ""
    panel.w_level.value, panel.w_games.value = "count", 2
    game = panel.assign()
    assert game is not None and (game.level, game.games) == ("count", 2)
    listed = text_of(panel.w_list.value)
    assert "Sums at \u201cI count\u201d, 2 games" in listed and "who has done it" in listed
    assert f"assignment.ipynb?id={made.id}" in panel.w_list.value
    assert "practice.ipynb?set=suns_to_moons&amp;class=7b" in panel.w_list.value
    panel.w_due.value = today - dt.timedelta(days=1)  # before the opening: refused
    assert panel.assign() is None
    assert "before the opening date" in text_of(panel.w_line.value)
    with AssignmentStore() as store:
        assert len(store.for_class("7b")) == 2

    # Ana answers the whole set right; Bo one exercise, wrong then right; Cy nothing
    # (the attempts as the practice page keeps them, in the real progress file)
    exercise_set = load_set(SAMPLES / "suns_to_moons.yaml")
    store = ProgressStore()

    def attempt(student, exercise, correct):
        return Attempt.new(student=student, set_id=exercise_set.id, set_title=exercise_set.title,
                           exercise=exercise.id, number=exercise.number, kind="x", variant="",
                           answer="x", correct=correct, score=float(correct), hints_used=0,
                           seconds=3.0)

    for exercise in exercise_set:
        store.record(attempt("ana", exercise, True))
    store.record(attempt("bo", exercise_set[1], False))
    store.record(attempt("bo", exercise_set[1], True))
    store.close()
    page = AssignmentPage(made.id, SAMPLES)
    shown = text_of(page.w_out.value)
    n = len(exercise_set)
    rows_shown = re.findall(r"<tr class=\"(mc-[a-z-]+)\"><th scope=\"row\"><a [^>]*"
                            r"href=\"student.ipynb\?who=\w+\"[^>]*>(\w+)</a></th><td>([^<]*)"
                            r"</td><td>(\d+) of (\d+)</td><td>([^<]*)</td>", page.w_out.value)
    # the students to see first on top: Bo in progress, Cy not started, Ana done
    assert [(name, state, int(done)) for _c, name, state, done, _n, _f in rows_shown] == [
        ("Bo", "in progress", 1), ("Cy", "not started", 0), ("Ana", "done", n)]
    assert [first for *_rest, first in rows_shown] == ["0 of 1", "–", f"{n} of {n}"]
    assert "Cy" in shown and "never" in shown  # Cy: a row, not a gap
    first_id = html.escape(exercise_set[1].id)
    assert f"<b>Most missed</b>: exercise {first_id}, missed at the first try by 1" in \
        page.w_out.value
    csv_link = re.search(r'base64,([A-Za-z0-9+/=]+)"', page.w_csv.value)
    assert csv_link
    rows = base64.b64decode(csv_link.group(1)).decode().splitlines()
    assert rows[0].startswith("student,name,state") and len(rows) == 4
    assert {r.split(",")[0] for r in rows[1:]} == {"ana", "bo", "cy"}
    assert "no such assignment" in text_of(AssignmentPage("nope", SAMPLES).w_out.value)
    every = text_of(AssignmentPage("", SAMPLES).w_out.value)
    assert every.count("Class 7b") == 2
