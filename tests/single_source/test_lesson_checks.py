"""The lesson checks are uses of the exercise kinds: what a click shows is the kind's Result.

Each test builds the same position as an exercise and compares the check's
judgement, hint and solution with the kind's own, click by click.
"""

from __future__ import annotations

import pytest

from mathcards.exercises import Exercise, Result
from mathcards.widgets import checks


def kind_results(kind: str, answers: list, **fields) -> list[Result]:
    variant = Exercise(kind, **fields).variant()
    return [variant.check(a) for a in answers]


@pytest.mark.parametrize("trick", ["G12 R3 G5", "LITTLE R2 G9 B9", "R12 BIG G2 BIG"])
def test_trick_winner_check_shows_the_kinds_result(trick):
    check = checks.trick_winner_check(trick)
    n = len(trick.split())
    assert [check.answer(i) for i in range(n)] == kind_results(
        "who_takes_trick", list(range(n)), trick=trick)
    assert check.feedback.value == check.attempts[-1].html


@pytest.mark.parametrize("hand, led, card", [("G4 R5 B2", "G9", "R5"), ("G4 R5", None, "R5")])
def test_may_play_check_shows_the_kinds_result(hand, led, card):
    check = checks.may_play_check(hand, led, card)
    assert [check.answer(0), check.answer(1)] == kind_results(
        "is_play_legal", [True, False], hand=hand, led=led, card=card)


@pytest.mark.parametrize("make, kind", [(checks.planet_check, "planet_or_not"),
                                        (checks.moon_check, "moon_or_not")])
def test_planet_and_moon_checks_show_the_kinds_result(make, kind):
    check = make("9H 8H")
    assert [check.answer(0), check.answer(1)] == kind_results(kind, [True, False], cards="9H 8H")


def test_prize_check_asks_the_kind_for_each_card():
    check = checks.PrizeCheck("3S 2S 4H 8D")
    places = [1, 2, 4, 3]
    result = check.answer(places)
    assert result is not None and result.correct
    for card, place in zip(["3S", "2S", "4H", "8D"], places, strict=True):
        (expected,) = kind_results("which_prize", [place], trick="3S 2S 4H 8D", yours=card)
        assert expected.correct and expected.headline in result.text


def test_deck_value_check_asks_the_kind_for_the_whole_deck():
    check = checks.deck_value_check("4H -7S +9D", "-QS", [-6, 18, 6, -18])
    assert [check.answer(i) for i in range(4)] == kind_results(
        "deck_value", [-6, 18, 6, -18], deck="4H -7S +9D -QS")
    assert [r.correct for r in check.attempts] == [True, False, False, False]


def test_stack_choice_check_judges_each_group_with_is_stack():
    groups = ["9H 5S", "10S 5D 4C", "QD 4H", "7C AH AD"]
    check = checks.stack_choice_check((3, 5), groups)
    for i, group in enumerate(groups):
        (kind,) = kind_results("is_stack", [True], dice=(3, 5), cards=group)
        shown = check.answer(i)
        assert shown.correct == kind.correct and shown.steps == kind.steps


def test_capture_check_shows_the_kinds_result_and_judges_none():
    check = checks.capture_check("QH", "JD", "AH AS KD")
    theirs = ["AH", "AS", "KD"]
    assert [check.answer(i) for i in range(3)] == kind_results(
        "find_capture", [("QH", t) for t in theirs], played="QH", own="JD", opponent="AH AS KD")
    assert not check.answer(3).correct  # Q♥ with J♦ captures A♥: "none" is wrong
    nothing = checks.capture_check("9H", "2S", "7H")  # helper of the other colour
    assert not nothing.answer(0).correct
    assert nothing.answer(1).correct


def test_hint_and_answer_buttons_ask_the_kind():
    check = checks.trick_winner_check("G12 R3 G5")
    variant = Exercise("who_takes_trick", trick="G12 R3 G5").variant()
    assert check.solution_button.disabled and check.show_solution() is None
    for level in (1, 2, 3, 3):  # the third hint is the last
        check.hint_button.click()
        assert check.hint_box.value.endswith(f"{variant.hint(min(level, 3)).html}</div>")
    check.answer(0)
    assert not check.solution_button.disabled
    check.solution_button.click()
    assert variant.solution().html in check.hint_box.value


def test_the_second_copy_is_gone():
    assert not hasattr(checks, "Verdict") and not hasattr(checks, "yes_no")
    assert isinstance(checks.judged(True, "3 is odd, so 1 chip"), Result)
