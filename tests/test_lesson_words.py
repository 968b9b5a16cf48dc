"""What a student reads in the lessons: a child's words, and worked examples the engine plays.

Issue 26 items 12-14: no leftover address instructions on the play pages, no project
words ("the seed") in front of a child, one pair of words for the Suns to Moons signs
(across adds, upright subtracts), and every worked example of the Suns to Moons lesson a
legal sequence of plays that the engine replays to its goal.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from mathcards.cards import parse_card, parse_cards
from mathcards.games import suns_to_moons as stm
from mathcards.site import TEACHER_PAGES, teacher_bar
from tests.browser.server import LESSONS

LESSON_PAGES = sorted(LESSONS.glob("*.ipynb"))
PLAY_PAGES = sorted(LESSONS.glob("play_*.ipynb"))
STUDENT_PAGES = [p for p in LESSON_PAGES if p.stem not in ("teachers", "dashboard")]


def _markdown(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


@pytest.mark.parametrize("path", PLAY_PAGES, ids=lambda p: p.name)
def test_play_pages_leave_the_name_to_the_table(path: Path):
    """The table's own "Playing as ..." line says how to keep a saved game; a page line
    saying it again stood under "Playing as Maya" (item 12)."""
    assert "?student=" not in _markdown(path)


@pytest.mark.parametrize("path", STUDENT_PAGES, ids=lambda p: p.name)
def test_lessons_say_the_rules_not_the_seed(path: Path):
    assert not re.search(r"\bseeds?\b|\bseed's\b", _markdown(path), re.I)


def test_worked_examples_say_the_rule_book_not_the_seed():
    from mathcards.widgets.lesson import suns_to_moons_example

    example = suns_to_moons_example([(11, 1), (4, -1), (2, -1)], goal=0)
    texts = " ".join(text for text, _latex in example.steps)
    assert "seed" not in texts and "rule book" in texts


def test_one_pair_of_words_for_the_signs_across_and_upright():
    """The lesson says across/upright; the table's tooltips, the log, the explainer and a
    refusal say the same (they said horizontal/vertical)."""
    from mathcards.explain import explain_move
    from mathcards.widgets.suns_to_moons import SunsToMoonsView, deck_html

    state = stm.SunsToMoons.position(parse_cards("7H 4S"), counted=[1], goal=9)
    texts = []
    for play in (stm.Play(parse_card("7H"), 1, 7), stm.Play(parse_card("4S"), -1, 4)):
        after, steps = explain_move(state, play)
        texts += [e.describe() for e in after.new_events]
        texts += [note for step in steps for note in getattr(step, "notes", ())]
        texts += [c.tooltip for c in SunsToMoonsView().path(state, play)]
        texts.append(deck_html([stm.Play(parse_card("9D"), 1, 9), play]))
    texts.append(state.why_illegal(stm.Play(parse_card("7H"), 0, 7)))
    words = " ".join(texts)
    assert not re.search(r"horizontal|vertical", words), words
    for said in ("across, adding 7", "upright, subtracting 4", "across, adds", "upright,"):
        assert said in words


def _examples(path: Path) -> list[tuple[list[tuple[int, int]], int | None]]:
    """The ``suns_to_moons_example(plays, goal=...)`` calls of a lesson, as written."""
    out = []
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == \
                    "suns_to_moons_example":
                plays = ast.literal_eval(node.args[0])
                goal = next((ast.literal_eval(k.value) for k in node.keywords
                             if k.arg == "goal"), None)
                out.append((plays, goal))
    return out


def _replay(plays: list[tuple[int, int]], goal: int) -> stm.SunsToMoonsState:
    """The example on a real engine position: the centre card on the deck, every other card
    in one hand (so a play past ±10 is refused whenever another card could stay within),
    then each play in turn, legal and worth what the example says."""
    from mathcards.widgets.lesson import _card_for

    suits = "HSDC"
    cards = [parse_card("JK") if sign == 0 else _card_for(value, suits[i % 4])
             for i, (value, sign) in enumerate(plays)]
    (centre_value, _sign), centre = plays[0], cards[0]
    state = stm.SunsToMoons.position(cards[1:], deck=[stm.Play(centre, 1, centre_value)],
                                     goal=goal)
    running = stm.count_deck(None if s == 0 else s * v for v, s in plays).running
    for i, ((value, sign), card) in enumerate(zip(plays, cards, strict=True)):
        if i == 0:
            continue
        assert not state.is_over, f"the goal was reached before play {i + 1}"
        action = stm.JOKER_PLAY if sign == 0 else stm.Play(card, sign, value)
        assert state.is_legal(action), f"play {i + 1} ({action}): {state.why_illegal(action)}"
        state = state.apply(action)
        assert state.deck_value == running[i]
    return state


def test_every_suns_to_moons_example_is_a_legal_game_that_reaches_its_goal():
    examples = _examples(LESSONS / "suns_to_moons.ipynb")
    assert len(examples) >= 3
    for plays, goal in examples:
        assert goal is not None, "a worked example names its goal"
        end = _replay(plays, goal)
        assert end.is_over and end.deck_value == goal, (plays, goal)


def test_the_replay_refuses_the_rule_books_slip():
    """The rule book's own Joker example (the lesson's third example before) passes −10
    while another card could stay within: the replay refuses it."""
    slip = [(7, 1), (10, -1), (6, 1), (6, 1), (4, -1), (13, -1), (13, 1), (0, 0), (9, -1),
            (4, 1), (2, 1)]
    with pytest.raises(AssertionError, match="play 9"):
        _replay(slip, 2)


# --- checks that do not give the answer away (item 14) ------------------------------------
def test_a_wrong_none_of_them_nudges_and_keeps_the_sum_for_the_last_hint():
    from mathcards.exercises import Exercise
    from mathcards.widgets.checks import capture_check

    check = capture_check("QH", "JD", "AH AS KD")  # Q♥ − J♦ = 1 = A♥
    variant = Exercise("find_capture", played="QH", own="JD", opponent="AH AS KD").variant()
    sums = [step.text for step in variant.solution().steps]
    assert sums and all("=" in s for s in sums)
    result = check.answer(3)  # "none of them"
    assert not result.correct
    assert not any(s in check.feedback.value for s in sums), check.feedback.value
    assert variant.hint(1).sentence in check.feedback.value  # a nudge
    check.show_hint()
    check.show_hint()
    assert not any(s in check.hint_box.value for s in sums)
    check.show_hint()  # the last hint shows the sum
    assert "12 − 11 = 1" in check.hint_box.value


def test_two_big_moons_are_two_different_answers():
    from mathcards.widgets.checks import trick_winner_check

    check = trick_winner_check("R12 BIG G2 BIG")
    assert len(set(check.options)) == len(check.options) == 4, check.options
    bigs = [label for label in check.options if "Big Moon" in label]
    assert len(bigs) == 2 and "2nd" in bigs[0] and "4th" in bigs[1]
    assert check.answer(1).correct and not check.answer(3).correct  # the first Big Moon wins


def test_the_lesson_says_two_aces_are_two_moons_before_asking_it():
    nb = nbformat.read(LESSONS / "moons_and_planets.ipynb", as_version=4)
    asked = next(i for i, c in enumerate(nb.cells) if 'moon_check("AS AH")' in c.source)
    before = " ".join(c.source for c in nb.cells[:asked] if c.cell_type == "markdown")
    assert "two Aces are two moons" in before


def test_the_landing_page_tells_a_class_with_codes_to_type_its_code():
    """Issue 36 item 18: the landing page said only "pick your name" to a class that uses
    codes (fails before: no word of a code)."""
    import json

    nb = json.loads((Path(__file__).resolve().parents[1] / "lessons" / "index.ipynb")
                    .read_text(encoding="utf-8"))
    intro = "".join(nb["cells"][0]["source"])
    assert "pick your name" in intro and "code" in intro.split("pick your name", 1)[1][:80]


TEACHER_NOTEBOOKS = [n for _label, n in TEACHER_PAGES if n not in ("practice.ipynb",
                                                                  "index.ipynb")]


@pytest.mark.parametrize("name", TEACHER_NOTEBOOKS)
def test_every_teacher_page_links_every_other_at_its_top(name: str):
    """Issue 38 item 5: the teacher's pages did not link each other (from the class results
    there was no way to *Write a set*; *Your classes* linked nothing)."""
    nb = nbformat.read(LESSONS / name, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    assert teacher_bar(name) in first.source.splitlines()
    links = re.findall(r"\]\(([^)#]+)\)", teacher_bar(name))
    assert sorted([*links, name]) == sorted(n for _label, n in TEACHER_PAGES)
    assert all((LESSONS / link).exists() for link in links)


WHERE_THE_LINK_COMES_FROM = {
    "teachers.ipynb": ("**Your teacher's link**", (
        ("on your laptop", "the window where you started MathCards"),
        ("on a school server", "whoever runs it gives it to you"),
        ("on a school JupyterHub", "log in as a teacher"),
        ("on the static site", "no teacher's link"))),
    "es/teachers.ipynb": ("**Tu enlace de profesor**", (
        ("en tu portátil", "la ventana donde arrancaste MathCards"),
        ("en un servidor del centro", "quien lo lleva te lo da"),
        ("en un JupyterHub del centro", "entra como profesor"),
        ("en el sitio estático", "no hay enlace de profesor"))),
}


@pytest.mark.parametrize("guide_page", list(WHERE_THE_LINK_COMES_FROM))
def test_the_guide_says_where_the_teachers_link_comes_from_everywhere_it_runs(guide_page):
    """Issue 38 item 5: one paragraph for a laptop, a school server, a hub and the static
    site (the guide said only 'whoever runs the server gives you the link'); the Spanish
    guide too (issue 41)."""
    guide = _markdown(LESSONS / guide_page)
    heading, places = WHERE_THE_LINK_COMES_FROM[guide_page]
    start = guide.index(heading)
    paragraph = " ".join(guide[start:guide.index("\n\n", start)].split())
    for place, how in places:
        assert place in paragraph and how in paragraph[paragraph.index(place):], place
