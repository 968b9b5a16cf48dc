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


def test_the_to_do_list_reads_in_spanish_and_the_pseudo_locale(data_dir):
    """The To do list, its states and its days ("Mon 30 Nov": Python's %a and %b are
    English whatever the page) were English on a Spanish page."""
    from mathcards import i18n
    from mathcards.widgets.assignments import todo_html

    today = dt.date.today()  # Bo's game is recorded today
    with ClassStore() as classes:
        classes.save("7b", "Ana\nBo")
    with AssignmentStore() as store:
        store.add("7b", GAME, "sums", opens=today, due=today + dt.timedelta(days=3),
                  level="count", games=2)
        store.add("7b", GAME, "dice_stacks", opens=today, due=today, level="show", games=1)
        store.add("7b", SET, "suns_to_moons", opens=today - dt.timedelta(days=9),
                  due=today - dt.timedelta(days=2))
    progress = ProgressStore()
    progress.record_game(FinishedGame.new(student="bo", game="sums", level="count", won=True))
    progress.close()
    said = {}
    for lang in ("en", "es", "qps"):
        with i18n.using(lang):
            said[lang] = text_of(todo_html("7b", "Bo", SAMPLES, today=today))
    in3 = today + dt.timedelta(days=3)
    assert f"due {in3:%a %d %b}" in said["en"] and "started (1 of 2)" in said["en"]
    assert re.search(r"se entrega el (lun|mar|mié|jue|vie|sáb|dom) \d\d (ene|feb|mar|abr|"
                     r"may|jun|jul|ago|sept|oct|nov|dic)\n", said["es"]), said["es"]
    assert "empezado (1 de 2)" in said["es"]
    assert "Por hacer" in said["es"] and "se entrega hoy" in said["es"]
    english = re.compile(r"\b(to do|due|today|started|late|of|at|games?|Mon|Tue|Wed|Thu|"
                         r"Fri|Sat|Sun|Jan|Feb|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")
    assert english.search(said["en"])
    assert not english.search(said["es"]), said["es"]
    # the pseudo-locale: nothing plain but the game titles and the set's own title
    titles = r"Sums|Dice Stacks|Suns to Moons[^”]*"  # a set's title is its own
    plain = re.sub(titles, "", said["qps"])
    assert not re.search(r"\b[A-Za-z]{2,}\b", plain), said["qps"]


def test_the_teachers_assign_panel_and_assignment_page_read_in_spanish_and_pseudo(data_dir):
    """Assign work and an assignment's page were English on a Spanish teacher's page."""
    from mathcards import i18n
    from mathcards.widgets.assignments import AssignmentPage, AssignPanel
    from tests.test_i18n import _widget_words

    today = dt.date.today()
    with ClassStore() as classes:
        classes.save("7b", "Ana\nBo")
    with AssignmentStore() as store:
        game = store.add("7b", GAME, "sums", opens=today, due=today + dt.timedelta(days=3),
                         level="count", games=2)
    progress = ProgressStore()
    progress.record_game(FinishedGame.new(student="bo", game="sums", level="count", won=True))
    progress.close()
    said = {}
    for lang in ("en", "es", "qps"):
        with i18n.using(lang):
            panel = AssignPanel(SAMPLES)
            panel.w_what.value = None
            panel.assign()  # refused: no work chosen
            said[lang] = (_widget_words(panel.widget)
                          + _widget_words(AssignmentPage(game.id, SAMPLES).widget)
                          + _widget_words(AssignmentPage("", SAMPLES).widget))
    assert len(said["en"]) == len(said["es"]) == len(said["qps"]) > 10
    english = re.compile(r"\b(class|assign(ed|ments?)?|work|game|games|level|due|opens|"
                         r"state|student|refresh|download|every|choose|done|started|of|"
                         r"exercise|set)\b", re.I)
    assert sum(bool(english.search(e)) for e in said["en"]) > 8  # the check can fail
    # the games' titles and the sets' own titles ("Sums: find the capture") stay
    titles = (r"(Sums|Suns to Moons|Dice Stacks|Shoot the Moon|Moons and Planets)"
              r"(: [^”\n\]]*)?|Ana|Bo\b|7b|\S+\.ipynb\S*|CSV")
    for en, es, ps in zip(said["en"], said["es"], said["qps"], strict=True):
        assert not english.search(re.sub(titles, "", es)), (en, es)
        assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(titles, "", ps)), (en, ps)


def test_on_a_page_in_a_languages_folder_the_links_go_one_folder_up(data_dir, monkeypatch):
    """lessons/es/index.ipynb calls pages_up() (issue 41): its To do list's and greeting's
    links reach the play and practice pages one folder up; "not you?" stays on the Spanish
    landing page beside it. (Fails before: the links were es/play_sums.ipynb, no page.)"""
    from mathcards.widgets import classes
    from mathcards.widgets.assignments import todo_html

    monkeypatch.setattr(classes, "_UP", [""])  # this kernel's pages: where they are
    today = dt.date.today()
    with ClassStore() as store:
        store.save("7b", "Ana")
    with AssignmentStore() as store:
        store.add("7b", GAME, "sums", opens=today, due=today, level="count", games=1)
        store.add("7b", SET, "suns_to_moons", opens=today, due=today)
    assert 'href="play_sums.ipynb?level=count&amp;class=7b&amp;student=Ana"' in todo_html(
        "7b", "Ana", SAMPLES)
    classes.pages_up()
    todo = todo_html("7b", "Ana", SAMPLES)
    assert 'href="../play_sums.ipynb?level=count&amp;class=7b&amp;student=Ana"' in todo
    assert 'href="../practice.ipynb?set=suns_to_moons&amp;class=7b&amp;student=Ana"' in todo
    greeting = classes.greeting_html("Ana", "7b")
    assert 'href="../practice.ipynb?class=7b&amp;student=Ana"' in greeting
    assert 'href="index.ipynb?class=7b"' in greeting
