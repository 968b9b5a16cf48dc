"""The exercise view without a browser: clicks do what they say, nothing secret is synced."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

from mathcards.exercises import load_set, load_set_text
from mathcards.exercises.session import MemoryStore
from tests.browser.server import LESSONS

SET = """\
title: Views
id: views
solution_after: 2
exercises:
  - kind: reach_goal
    deck: 7H -10S
    hand: 3H 4S 9D
    goal: 0
  - kind: who_takes_trick
    trick: G12 G3 R3
  - kind: deck_value
    deck: 9H -4S +2D
  - kind: find_capture
    hand: 9H 3S
    own: 2H 5S
    opponent: 7H 8S
"""


def synced_text(widget) -> str:
    """Every synced field of the widget tree, as the browser could read it."""
    from ipywidgets.widgets.widget import _instances

    seen, out, todo = set(), [], [widget]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        state = w.get_state()
        out.append(json.dumps(state, default=str))
        for value in state.values():
            refs = value if isinstance(value, (list, tuple)) else [value]
            todo.extend(_instances[ref[len("IPY_MODEL_"):]] for ref in refs
                        if isinstance(ref, str) and ref.startswith("IPY_MODEL_"))
    return "\n".join(out)


@pytest.fixture
def view():
    exercise_set = load_set_text(SET, name="views")
    return exercise_set.show("ana", store=False)


def test_import_mathcards_exercises_does_not_load_ipywidgets_or_sympy():
    code = ("import sys, mathcards, mathcards.exercises, mathcards.exercises.session;"
            "print('ipywidgets' in sys.modules, 'sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_plays_by_clicks_wrong_then_right(view):
    view._pick_card(0)  # 3♥
    signs = list(view.w_signs.children[1:])
    assert [b.description for b in signs] == ["+3", "−3"]
    signs[1].click()
    wrong = view.submit()
    assert not wrong.correct and "mc-wrong" in view.w_feedback.value
    view._pick_card(0)
    view.w_signs.children[1].click()
    right = view.submit()
    assert right.correct and "mc-right" in view.w_feedback.value
    assert view.w_progress.value.count('class="mc-attempt"') == 2


def test_undo_and_start_again_take_plays_back_and_put_a_waiting_card_back(view):
    undo, again, _check = view.w_answer.children[-1].children
    view._pick_card(0)  # 3♥ +3, then 4♠ waits for its sign
    view.w_signs.children[1].click()
    view._pick_card(1)
    assert view.w_signs.children
    undo.click()  # the play goes, and so do 4♠'s sign buttons
    assert view._pending == [] and view._picked_card is None and not view.w_signs.children
    assert "No cards played yet" in view.w_built.value
    assert not any(b.disabled for b in view.w_hand)
    for i in (0, 1):
        view._pick_card(i)
        view.w_signs.children[1].click()
    assert "Your plays:" in view.w_built.value and view.w_hand[0].disabled
    again.click()
    assert view._pending == [] and "No cards played yet" in view.w_built.value
    assert not any(b.disabled for b in view.w_hand)


def _play_minus_three(view) -> None:
    view._pick_card(0)  # the deck is −3: 3♥ laid upright makes −6
    next(b for b in view.w_signs.children[1:] if b.description.startswith("−")).click()


def test_i_count_shows_the_plays_but_no_deck_after_them_until_check(view):
    """Issue 25: at "I count" (the default) the reach-the-goal exercise no longer shows
    "the deck would be −6" before Check; the play stays in sight."""
    assert view.session.level == "count"
    _play_minus_three(view)
    built = view.w_built.value
    assert "Your plays:" in built and "−3" in built and "would be" not in built
    assert "−6" not in synced_text(view) and "-6" not in synced_text(view)
    view.submit()  # after Check the feedback says what the play made
    assert "−6" in view.w_feedback.value


def test_show_me_the_sums_still_shows_the_deck_after_the_plays():
    view = load_set_text(SET, name="views").show("ana", store=False, level="show")
    _play_minus_three(view)
    assert "the deck would be <b>−6</b>" in view.w_built.value


def test_no_answer_or_solution_in_synced_fields_until_earned(view):
    view.go(2)  # who takes G12 G3 R3? The answer is R3: no field may say so yet
    text = synced_text(view)
    assert "red trumps" not in text and "takes the trick" not in text
    assert view.w_solution_button.disabled
    view.w_answer.children[0].children[0].click()  # G12: wrong
    view.w_answer.children[0].children[1].click()  # G3: wrong, 2 attempts: solution opens
    assert not view.w_solution_button.disabled
    view.show_solution()
    assert "▲3 takes the trick" in view.w_hint.value


def test_hints_climb_three_levels(view):
    levels = [view.show_hint().level for _ in range(4)]
    assert levels == [1, 2, 3, 3]
    assert "start with 3♥ as +3" in view.w_hint.value


def test_typed_number_is_validated(view):
    view.go(3)
    view.w_number.value = "__import__('os')"
    assert view.submit() is None
    assert "is not a whole number" in view.w_feedback.value
    assert view.session.attempts(3) == []  # nothing recorded for unreadable text
    view.w_number.value = "7"
    assert view.submit().correct


def test_capture_needs_a_card_from_hand_first(view):
    view.go(4)
    view.w_opponent[0].click()
    assert "First pick the card" in view.w_feedback.value
    view.w_hand[0].click()  # 9♥
    view.w_opponent[0].click()  # 7♥: 9 − 2 = 7
    assert "mc-right" in view.w_feedback.value


def test_teacher_opens_a_students_variant_with_the_solution():
    suns = load_set(LESSONS / "exercises" / "suns_to_moons.yaml")
    student_view = suns.show("ana", store=MemoryStore())
    teacher_view = suns.show("ana", store=False, teacher=True)
    student_view.go(6)
    teacher_view.go(6)
    assert student_view.variant.text == teacher_view.variant.text
    assert student_view.variant.text in teacher_view.w_prompt.value
    assert not teacher_view.w_solution_button.disabled
    assert teacher_view.show_solution().correct


def test_practice_page_opens_a_set_by_query_and_refuses_paths(tmp_path):
    from mathcards.widgets.exercises import ExerciseSetView, practice_page

    folder = LESSONS / "exercises"
    view = practice_page(folder, query="set=shoot_the_moon&student=ana", store=False)
    assert isinstance(view, ExerciseSetView) and view.session.student == "ana"
    for query in ("set=../../etc/passwd&student=ana", "set=nothing", "set=sums&student=<i>x"):
        page = practice_page(folder, query=query, store=False)
        assert not isinstance(page, ExerciseSetView)
        assert "<i>" not in page.value  # whatever came in the address is escaped
        assert 'href="?set=sums&student=' in page.value


def test_practice_page_level_comes_from_the_address_and_defaults_to_i_count():
    from mathcards.widgets.exercises import practice_page

    folder = LESSONS / "exercises"
    levels = {query: practice_page(folder, query=f"set=suns_to_moons&student=ana{query}",
                                   store=False).session.level
              for query in ("", "&level=show", "&level=count_no_hints", "&level=<b>",
                            "&level=SHOW")}
    assert levels == {"": "count", "&level=show": "show",
                      "&level=count_no_hints": "count_no_hints", "&level=<b>": "count",
                      "&level=SHOW": "count"}


def test_a_variant_that_cannot_be_made_says_so_in_one_line_and_the_set_goes_on():
    text = """\
title: Hard to make
id: hard
exercises:
  - kind: reach_goal
    hand: 2 random cards
    deck: 7H -10S
    goal: -3..3
    require: exactly one solution
  - kind: deck_value
    deck: 9H -4S +2D
"""
    from mathcards.exercises.model import VariantError

    exercise_set = load_set_text(text, name="hard")  # the sample students' variants exist
    exercise_set[1].tries = 1  # ...but with one draw each, some other student's cannot
    unlucky = None
    for i in range(200):
        try:
            exercise_set[1].variant(f"s{i}")
        except VariantError:
            unlucky = f"s{i}"
            break
    assert unlucky is not None, "no student drew an impossible variant: make the set harder"
    view = exercise_set.show(unlucky, store=False)
    prompt = view.w_prompt.value
    assert "cannot be shown" in prompt and "no variant met the constraints" in prompt
    assert "Traceback" not in prompt and view.w_answer.children == ()
    assert view.w_hint_button.disabled and not view.w_next.disabled
    view.go(2)
    assert "cannot be shown" not in view.w_prompt.value
    assert view.w_answer.children and not view.w_hint_button.disabled


def test_a_costly_template_is_refused_on_the_page_quickly():
    """The practice page spends a bounded amount of work on a variant (the solver's
    MAX_WORK positions, not a clock), then says so."""
    from tests.exercises.test_validator import COSTLY

    exercise_set = load_set_text(COSTLY, name="costly", check=False)
    view = exercise_set.show("ana", store=False)
    prompt = view.w_prompt.value
    assert "cannot be shown: finding a variant takes too much work" in prompt
    assert "lower most_plays" in prompt and view.w_answer.children == ()


# --- every sample exercise answered through its page controls ------------------------------
SAMPLE_SETS = sorted((LESSONS / "exercises").glob("*.yaml"))


def _verdict(view, number: int, before: int) -> bool:
    """Right or wrong as the page shows it, and one attempt recorded for the click."""
    attempts = view.session.attempts(number)
    assert len(attempts) == before + 1, view.w_feedback.value  # the click was graded
    shown_right = "mc-right" in view.w_feedback.value
    assert shown_right == attempts[-1].correct
    return shown_right


def _click_and_grade(view, number: int, click) -> bool:
    before = len(view.session.attempts(number))
    click()
    return _verdict(view, number, before)


def _answer_choices(view, number: int, kind, pos) -> None:
    """Each button's label is what the student reads; the right one is graded right."""
    from mathcards.games import moons_and_planets as mp
    from mathcards.games import shoot_the_moon as stm

    buttons = list(view.w_answer.children[0].children)
    labels = [b.description for b in buttons]
    if kind.answer_style == "yesno":
        assert labels == ["Yes", "No"]
        truth = kind.truth(pos)
        expected = [truth, not truth]
    elif kind.name == "which_prize":
        place = mp.prize_order(pos["trick"]).index(kind.mine(pos)) + 1
        expected = [label.startswith(("1st", "2nd", "3rd", f"{place}th")[min(place, 4) - 1])
                    for label in labels]
    else:  # who_takes_trick: one button per card of the trick, in play order
        assert [label.replace("led ", "") for label in labels] == [c.symbol for c in pos["trick"]]
        winner = stm.trick_winner(pos["trick"])
        expected = [i == winner for i in range(len(buttons))]
    assert expected.count(True) == 1, labels
    for button, right in zip(buttons, expected, strict=True):
        graded = _click_and_grade(view, number, button.click)
        assert graded == right, (kind.name, button.description)


def _answer_plays(view, number: int, kind, pos) -> None:
    from mathcards.games.suns_to_moons.exercises import position_state

    def play(sequence) -> None:
        used: set[int] = set()
        for p in sequence:
            index = next(i for i, c in enumerate(pos["hand"]) if c == p.card and i not in used)
            used.add(index)
            view.w_hand[index].click()
            if not p.card.is_joker:
                label = f"{'+' if p.sign > 0 else '−'}{p.value}"
                sign = [b for b in view.w_signs.children[1:] if b.description == label]
                assert len(sign) == 1, label
                sign[0].click()
        view.w_check.click()

    best = kind.solution(pos)  # the worked solution's plays, in words
    plays = kind._best(pos)
    assert plays and "One way" in best.headline
    assert _click_and_grade(view, number, lambda: play(plays))
    counted = position_state(pos).counted
    from mathcards.games.suns_to_moons import Play

    for card in pos["hand"]:
        for sign in (1, -1):
            if card.is_joker:
                continue
            after = sum(counted) + sign * card.rank
            if after != pos["goal"] and abs(after) <= 10:  # a legal play that misses
                assert not _click_and_grade(view, number,
                                            lambda c=card, s=sign: play([Play(c, s, c.rank)]))
                return
    raise AssertionError("no wrong play found")


def _answer_number(view, number: int, kind, pos) -> None:
    from mathcards.games.suns_to_moons import count_deck, deck_terms

    value = count_deck(deck_terms(pos["deck"])).value  # the engine's count of the deck
    for typed, right in ((str(value), True), (str(value + 1), False), (f"{-value - 2}", False)):
        view.w_number.value = typed
        assert _click_and_grade(view, number, view.w_check.click) == right, typed


def _answer_stacks(view, number: int, kind, pos) -> None:
    stacks, points = kind.best(pos)
    make = next(b for b in view.w_answer.children[2].children if b.description == "Make a stack")

    def build(chosen) -> None:
        used: set[int] = set()
        for stack in chosen:
            for card in stack:
                index = next(i for i, c in enumerate(pos["hand"]) if c == card and i not in used)
                used.add(index)
                view.w_hand[index].click()
            make.click()
        view.w_check.click()

    assert points >= 1
    assert _click_and_grade(view, number, lambda: build(stacks))
    assert not _click_and_grade(view, number, lambda: build(stacks[:-1]))  # one stack short


def _answer_capture(view, number: int, kind, pos) -> None:
    answers = kind.answers(pos)
    played_options = kind.playable(pos)

    def pick(played, target) -> None:
        if pos.get("played") is None:
            view.w_hand[list(pos["hand"]).index(played)].click()
        view.w_opponent[list(pos["opponent"]).index(target)].click()

    right = sorted(answers, key=str)[0]
    assert _click_and_grade(view, number, lambda: pick(*right))
    wrong = [(p, t) for p in played_options for t in pos["opponent"] if (p, t) not in answers]
    assert wrong, "every pick captures: the sample cannot test a wrong answer"
    assert not _click_and_grade(view, number, lambda: pick(*wrong[0]))


@pytest.mark.parametrize("path", SAMPLE_SETS, ids=lambda p: p.stem)
def test_every_sample_exercise_is_graded_right_and_wrong_through_its_page_controls(path):
    """Every exercise of every sample set, answered by clicking the page's own widgets."""
    answer = {"choice": _answer_choices, "yesno": _answer_choices, "plays": _answer_plays,
              "number": _answer_number, "stacks": _answer_stacks, "capture": _answer_capture}
    exercise_set = load_set(path)
    for student in ("ana", "sample-3"):
        view = exercise_set.show(student, store=MemoryStore())
        # a student who reads each feedback first: two seconds between answers
        view.clock = functools.partial(next, iter(range(0, 10**6, 2)))
        for number in range(1, len(exercise_set) + 1):
            view.go(number)
            variant = view.variant
            assert "cannot be shown" not in view.w_prompt.value
            answer[variant.kind.answer_style](view, number, variant.kind, variant.position)


def test_practice_deck_lies_as_on_the_table_added_across_subtracted_upright(view):
    """Ruling 2: + horizontal, − vertical; the practice page draws with the table's code."""
    import re

    from mathcards.cards import parse_card
    from mathcards.games.suns_to_moons import Play
    from mathcards.widgets.suns_to_moons import deck_html

    view.go(3)  # deck_value: 9H -4S +2D
    picture = view.w_picture.value
    faces = re.findall(r'<span class="([^"]*)" role="img" aria-label="([^"]*)"', picture)
    assert [("mc-landscape" in classes.split(), label) for classes, label in faces] == [
        (True, "nine of hearts, across, adds 9"),
        (False, "four of spades, upright, subtracts 4"),
        (True, "two of diamonds, across, adds 2")]
    assert "an upright card subtracts" in picture
    table = deck_html([Play(parse_card("9H"), 1, 9), Play(parse_card("4S"), -1, 4),
                       Play(parse_card("2D"), 1, 2)])
    deck = re.search(r'<div class="mc-deck".*?</div>', picture).group(0)
    assert re.sub(r'aria-label="[^"]*"', "", deck, count=1) == \
        re.sub(r'aria-label="[^"]*"', "", table, count=1)


def test_a_broken_set_on_the_practice_page_names_the_set_not_the_servers_folder(tmp_path):
    from mathcards.widgets.exercises import ExerciseSetView, practice_page

    (tmp_path / "broken.yaml").write_text("title: Broken\nexercises: [\n", encoding="utf-8")
    page = practice_page(tmp_path, query="set=broken&student=ana", store=False)
    assert not isinstance(page, ExerciseSetView)
    assert "the set &#x27;broken&#x27; cannot be used (line " in page.value
    assert str(tmp_path) not in page.value and "Traceback" not in page.value
    # what the teacher is asked to do is done on a page, never in a terminal (issue 28)
    assert "python -m" not in page.value and "Write a set" in page.value


def test_answers_from_the_page_are_paced_and_nothing_else_is_recorded():
    """A burst of clicks (or a script) records a few answers, then one a second (item 13)."""
    exercise_set = load_set(LESSONS / "exercises" / "dice_stacks.yaml")  # 1-3: yes or no
    store = MemoryStore()
    view = exercise_set.show("ana", store=store)
    now = [100.0]
    view.clock = lambda: now[0]
    view._tokens, view._tokens_at = float(view.answer_burst), now[0]
    view.go(1)
    answered = sum(view.submit(True) is not None for _ in range(300))  # one second's clicks
    assert answered == view.answer_burst == len(store.attempts())
    assert "one answer a second" in view.w_feedback.value
    now[0] += 3.0  # three seconds later: three more answers
    for _ in range(10):
        view.submit(False)
    assert len(store.attempts()) == view.answer_burst + 3


def test_a_long_history_is_read_once_then_only_what_is_new(tmp_path):
    """Each redraw reads only the new rows, however many answers came before (item 13)."""
    from mathcards.exercises import ProgressStore

    exercise_set = load_set(LESSONS / "exercises" / "dice_stacks.yaml")
    store = ProgressStore(tmp_path / "p.sqlite3")
    earlier = exercise_set.session("ana", store=store)
    for i in range(300):
        earlier.check(1 + i % 3, i % 2 == 0)
    reads: list[tuple[int, int]] = []
    real = store.attempts_after

    def counting(row, **filters):
        found, last = real(row, **filters)
        reads.append((row, len(found)))
        return found, last

    store.attempts_after = counting
    session = exercise_set.session("ana", store=store)
    assert len(session.attempts(1)) == 100 and reads == [(0, 300)]
    assert len(session.attempts()) == 300 and reads[-1][1] == 0 and reads[-1][0] > 0
    exercise_set.session("ana", store=store).check(2, True)  # another tab answers
    assert len(session.attempts()) == 301 and reads[-1][1] == 1
    store.close()


# --- issue 28 item 4: the practice page keeps what the student did ----------------------------
def test_after_check_the_cards_played_stay_in_sight_beside_the_verdict(view):
    view._pick_card(0)
    view.w_signs.children[1].click()  # +3♥: the deck is 0, the goal
    result = view.submit()
    assert result.correct
    assert "No cards played yet" not in view.w_built.value
    assert "You played" in view.w_built.value and "+3♥" in view.w_built.value
    view._pick_card(1)  # a new answer begins: the built row shows it instead
    view.w_signs.children[1].click()
    assert "Your plays:" in view.w_built.value and "You played" not in view.w_built.value


def test_the_students_own_answers_are_shown_in_card_symbols(view):
    view._pick_card(0)
    view.w_signs.children[2].click()  # −3♥
    view.submit()
    assert "\u22123♥" in view.w_progress.value and "-3H" not in view.w_progress.value


def test_the_end_of_a_set_is_a_moment_with_the_score_and_what_to_practise_next(view):
    assert view.w_end.value == ""
    view._pick_card(0)
    view.w_signs.children[2].click()  # −3♥: a sign slip
    view.submit()
    view._pick_card(0)
    view.w_signs.children[1].click()  # +3♥: right
    view.submit()
    view.go(2)
    view.w_answer.children[0].children[2].click()  # ▲3 takes it: right at the first try
    view.go(3)
    view.w_number.value = "7"
    view.submit()
    assert view.w_end.value == ""  # exercise 4 still untried: not the end yet
    view.go(4)
    view._pick_played(0)
    view._pick_target(0)
    end = view.w_end.value
    assert "You finished the set" in end
    assert "of 4 right at the first try" in end and "Practise next:" in end
    from mathcards.exercises.skill_grid import skill_words

    slipped = view.session.finished().practise[0][0]
    assert skill_words(slipped) in end


def test_a_set_is_shown_in_the_page_s_language_else_in_its_own():
    """Issue 41 item 5: a title and a prompt given per language; the set's own language
    (here Spanish) when the page's has no text."""
    from mathcards.i18n import using

    text = """\
title: {es: Signos, en: Signs}
lang: es
exercises:
  - kind: deck_value
    deck: 9H -4S
    prompt: {es: Suma los signos}
"""
    exercise_set = load_set_text(text, name="signos")
    with using("es"):
        es = exercise_set.show("ana", store=False)
    with using("en"):
        en = exercise_set.show("ana", store=False)
    assert "<h2>Signos</h2>" in es.w_head.value and "<h2>Signs</h2>" in en.w_head.value
    assert "Suma los signos" in es.w_prompt.value and "Suma los signos" in en.w_prompt.value
