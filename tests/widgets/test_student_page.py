"""One student's page for the teacher (issue 38 item 3), without a browser: everything the
student did, newest first, read from a real progress file."""

from __future__ import annotations

import html
import re

from mathcards.asking import Answer, LevelChange
from mathcards.exercises import ProgressStore
from mathcards.exercises.progress import Attempt, FinishedGame, SolutionOpened


def text_of(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def _at(minute: int) -> str:
    return f"2026-12-02T10:{minute:02d}:00.000+00:00"


def _record_ana_and_bo() -> None:
    store = ProgressStore()
    store.record(Attempt.new(student="ana", set_id="warm_up", set_title="Warm-up",
                             exercise="1", number=1, kind="deck_value", variant="",
                             answer="-3", correct=False, score=0.0, hints_used=1, seconds=4.0,
                             at=_at(1)))
    store.record_solution(SolutionOpened.new(student="ana", set_id="warm_up", exercise="1",
                                             number=1, at=_at(2)))
    store.record_answer(Answer(student="ana", game="suns_to_moons", skill="add_positive",
                               prompt="The deck is 1. You lay 5♣ across (+5): what is it now?",
                               numbers=(1, 5), expected="6", given="-4", right=False,
                               slip="sign", level="count", at=_at(3)))
    store.record_answer(Answer(student="ana", game="suns_to_moons", skill="add_positive",
                               prompt="The deck is 6. You lay 2♥ across (+2): what is it now?",
                               numbers=(6, 2), expected="8", given="8", right=True,
                               level="count", at=_at(4)))
    store.record_level(LevelChange("ana", "suns_to_moons", "count", "show", at=_at(5)))
    store.record_game(FinishedGame.new(student="ana", game="suns_to_moons", level="show",
                                       won=True, at=_at(6)))
    store.record_answer(Answer(student="bo", game="sums", skill="add_positive", prompt="p",
                               numbers=(1,), expected="1", given="2", right=False,
                               at=_at(7)))  # another student's
    store.close()


def test_a_students_page_lists_everything_they_did_newest_first(data_dir):
    from mathcards.widgets.student_page import StudentPage

    _record_ana_and_bo()
    shown = StudentPage("Ana").w_out.value
    text = text_of(shown[shown.index("<h3>"):])  # after the page's stylesheet
    order = ["finished a game", "changed the level", "answered 8", "answered -4",
             "opened the worked solution", "answered -3"]
    places = [text.index(words) for words in order]
    assert places == sorted(places), text  # newest first
    assert "6 things done" in text and "Sums" not in text  # Bo's answer is not Ana's
    assert "Suns to Moons finished a game won, at “Show me the sums”" in text
    assert "answered -4 (the answer: 6)" in text and "at “I count”" in text
    assert "Warm-up exercise 1 answered -3, try 1, 1 hint" in text
    assert "Warm-up exercise 1 opened the worked solution" in text  # the set's title
    assert "from “I count” to “Show me the sums”" in text
    assert re.search(r"Levels played.*Suns to Moons: Show me the sums, I count", text)
    assert re.search(r"Skills.*1 of 2 right at the first try", text), text
    nobody = text_of(StudentPage("Cy").w_out.value.split("<h3>")[-1])
    assert "Nothing yet" in nobody
    bad_page = StudentPage("<script>").w_out.value
    bad = text_of(bad_page)
    assert "open a student's page from their name" in bad and "<script>" not in bad_page


def test_a_name_on_the_classes_page_opens_the_students_page(data_dir):
    from mathcards.widgets.classes import ClassesPanel

    panel = ClassesPanel()
    assert panel.save("7b", "Ana\nO'Neil")
    assert 'href="student.ipynb?who=Ana"' in panel.w_list.value
    assert 'href="student.ipynb?who=O%27Neil"' in panel.w_list.value


def test_every_name_on_the_class_results_opens_the_students_page(data_dir):
    """Issue 38 item 3: 'a teacher reaches it from any name': the class results' set grid
    and skill grid rows link to the student's page too (plain names before)."""
    from mathcards.exercises.skill_grid import skill_grid
    from mathcards.widgets.exercises import dashboard
    from mathcards.widgets.skill_grid import skill_grid_html

    answers = [Answer(student="ana", game="sums", skill="add_positive", prompt="p",
                      numbers=(1,), expected="2", given="2", right=True, at=_at(1))]
    assert '<th scope="row"><a class="mc-student-link" href="student.ipynb?who=ana"' in \
        skill_grid_html(skill_grid(answers))
    store = ProgressStore()
    store.record(Attempt.new(student="bo", set_id="warm_up", set_title="Warm-up",
                             exercise="1", number=1, kind="deck_value", variant="",
                             answer="7", correct=True, score=1.0, hints_used=0, seconds=4.0))
    store.close()
    assert '<th scope="row"><a class="mc-student-link" href="student.ipynb?who=bo"' in \
        dashboard().value


def test_a_students_page_reads_in_spanish_and_the_pseudo_locale(data_dir):
    """The teacher's page of one student (its headings, each event, the levels, the skill
    row) was English on a Spanish page. Kept as they were written: the questions' prompts
    (in the language of the student's page when asked) and the sets' titles."""
    from mathcards import i18n
    from mathcards.widgets.student_page import StudentPage

    _record_ana_and_bo()
    said = {}
    for lang in ("en", "es", "qps"):
        with i18n.using(lang):
            shown = StudentPage("Ana").w_out.value
            said[lang] = text_of(shown[shown.index("<h3>"):])
    assert "finished a game" in said["en"] and "answered -4 (the answer: 6)" in said["en"]
    assert "terminó una partida" in said["es"] and "respondió -4 (la respuesta: 6)" in said["es"]
    kept = (r"The deck is \d\. You lay \S+ (across|upright) \([+−]\d\): what is it now\?|"
            r"Warm-up|Suns to Moons|Ana|UTC|\d{4}-\d\d-\d\d \d\d:\d\d")
    english = re.compile(r"\b(answered|try|hints?|finished|game|won|changed|level|opened|"
                         r"solution|exercise|things|done|newest|first|skills?|questions|"
                         r"right|when|where|what|the answer|sign)\b", re.I)
    assert english.search(re.sub(kept, "", said["en"]))  # the check can fail
    assert not english.search(re.sub(kept, "", said["es"])), said["es"]
    assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(kept, "", said["qps"])), said["qps"]
