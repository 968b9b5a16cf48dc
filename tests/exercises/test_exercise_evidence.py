"""Each exercise attempt is also kept as evidence: an Answer named by its skill (source
"exercise"), in the same write as the attempt, with the slip of a wrong number."""

from __future__ import annotations

from mathcards.asking import EXERCISE
from mathcards.exercises import ProgressStore, load_set_text
from mathcards.exercises.evidence import KIND_SKILLS
from mathcards.exercises.kinds import KINDS
from mathcards.skills import SKILLS

SET = """\
title: Evidence
id: evidence
exercises:
  - kind: deck_value
    deck: JH -4S -2C +2D -10H
  - kind: reach_goal
    deck: 7H -10S
    hand: 3H 4S 9D
    goal: 0
  - kind: find_capture
    played: 7D
    own: 5D
    opponent: QD 3S
  - kind: who_takes_trick
    trick: G12 G3 R3
"""


def test_every_kind_names_a_known_skill():
    assert set(KIND_SKILLS) == set(KINDS)
    assert set(KIND_SKILLS.values()) <= set(SKILLS)


def test_exercise_attempts_are_answers_with_skill_and_slip(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    session = load_set_text(SET, name="evidence").session("Ana", store=store)
    session.check(1, "3")    # 11 − 4 − 2 + 2 − 10 = −3: the sign lost
    session.check(1, "-4")   # the Jack counted 10
    session.check(1, "-5")   # two off
    session.check(1, "-3")
    session.check(2, "-3H")  # the deck is −3: 3 laid upright makes −6, not 0
    session.check(2, "+3H")
    session.check(3, "7D QD")
    session.check(4, "G3")
    answers = store.answers(student="ana")
    attempts = store.attempts(student="ana")
    assert [a.uid for a in answers] == [a.uid for a in attempts]  # one record each, twinned
    assert {a.source for a in answers} == {EXERCISE}
    first, second, two_off, third, goal_wrong, goal_right, capture, trick = answers
    assert (first.skill, first.numbers, first.expected, first.given, first.right,
            first.slip) == ("cross_zero", (11, -4, -2, 2, -10), "-3", "3", False, "sign")
    assert (second.slip, two_off.slip, third.right, third.slip) == (
        "face_value", "off_by_two", True, "")
    # reach the goal: the student meant −3 − 3 to make 0; it makes −6, a sign slip
    assert (goal_wrong.skill, goal_wrong.numbers, goal_wrong.expected, goal_wrong.given,
            goal_wrong.slip) == ("subtract_positive", (-3, -3), "-6", "-3H", "sign")
    assert (goal_right.skill, goal_right.right) == ("add_positive", True)  # −3 + 3: to 0
    assert (capture.skill, capture.right) == ("capture_spot", True)
    assert (trick.skill, trick.game) == ("trick_winner", "shoot_the_moon")
    assert all(a.seconds == b.seconds for a, b in zip(answers, attempts, strict=True))


def test_a_teacher_trying_a_set_keeps_answers_in_memory_only(tmp_path):
    session = load_set_text(SET, name="evidence").session("t", store=False)
    session.check(1, "-3")
    assert [a.skill for a in session.store.answers()] == ["cross_zero"]


def test_each_kind_gives_the_skill_and_slip_of_its_own_answers():
    """The kinds say what their attempts show (``Kind.worked_sum``, ``attempt_skill``,
    ``wrong_slip``); the evidence asks them and names no kind: a stack made by subtracting,
    one halved by a King, a wrong capture."""
    from mathcards.cards import parse_card
    from mathcards.exercises.evidence import exercise_answer
    from mathcards.exercises.kinds import KINDS, Result

    def cards(text: str) -> list:
        return [parse_card(c) for c in text.split()]

    wrong = Result(False, 0.0, "not quite")
    stacks, dice = KINDS["make_stacks"], {"dice": (2, 3)}
    assert exercise_answer(stacks, dice, [cards("2H 3S")], Result(True, 1.0, "yes"),
                           student="ana", seconds=1).skill == "stack_sum"
    assert exercise_answer(stacks, dice, [cards("8H 3S")], wrong, student="ana",
                           seconds=1).skill == "stack_difference"
    assert exercise_answer(stacks, dice, [cards("KH 6S 4S")], wrong, student="ana",
                           seconds=1).skill == "halve"
    capture = exercise_answer(KINDS["find_capture"], {}, (parse_card("7D"), parse_card("QD")),
                              wrong, student="ana", seconds=1)
    assert (capture.skill, capture.slip) == ("capture_spot", "wrong_capture")
    trick = exercise_answer(KINDS["who_takes_trick"], {"trick": cards("G3 G5")}, 0, wrong,
                            student="ana", seconds=1)
    assert (trick.skill, trick.slip) == ("trick_winner", "other")
