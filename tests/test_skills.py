"""The slip classifier on hand-written wrong answers, from the numbers of the rule texts'
own examples (seeds 000 Suns to Moons, 001 Dice Stacks, 002 Sums, 004 Moons and Planets)."""

from __future__ import annotations

import pytest

from mathcards.asking import Question
from mathcards.skills import SKILLS, SLIP_WORDS, SLIPS, classify_slip

# (game, skill, numbers, cards, expected, given, slip, what the student did)
S2M, DICE, SUMS, PLANETS = "suns_to_moons", "dice_stacks", "sums", "moons_and_planets"
TABLE = [
    # Suns to Moons, "Goal is 0: 11(11) – 4(7) – 2(5) + 2(7) – 10(-3) + 8(5) – 5(0)"
    (S2M, "subtract_positive", (11, -4), ("", "4S"), 7, "-7", "sign", "−x for x"),
    (S2M, "subtract_positive", (11, -4), ("", "4S"), 7, "15", "sign", "11 + 4 for 11 − 4"),
    (S2M, "subtract_positive", (11, -4), ("", "4S"), 7, "8", "off_by_one", "one too many"),
    (S2M, "subtract_positive", (11, -4), ("", "4S"), 7, "5", "off_by_two", "two too few"),
    (S2M, "subtract_positive", (7, -2), ("", "2H"), 5, "9", "sign", "7 + 2 for 7 − 2"),
    (S2M, "add_positive", (5, 2), ("", "2C"), 7, "3", "sign", "5 − 2 for 5 + 2"),
    (S2M, "cross_zero", (7, -10), ("", "10D"), -3, "3", "sign", "the answer's sign lost"),
    (S2M, "cross_zero", (7, -10), ("", "10D"), -3, "17", "sign", "7 + 10 for 7 − 10"),
    (S2M, "cross_zero", (7, -10), ("", "10D"), -3, "−17", "sign", "the deck read as −7"),
    (S2M, "cross_zero", (7, -10), ("", "10D"), -3, "-4", "off_by_one", "counted one too far"),
    (S2M, "cross_zero", (7, -10), ("", "10D"), -3, "-1", "off_by_two", "two short"),
    (S2M, "cross_zero", (-3, 8), ("", "8S"), 5, "-11", "sign", "−3 − 8 for −3 + 8"),
    (S2M, "cross_zero", (-3, 8), ("", "8S"), 5, "11", "sign", "the deck read as +3"),
    (S2M, "subtract_positive", (5, -5), ("", "5H"), 0, "10", "sign", "5 + 5 for 5 − 5"),
    (S2M, "subtract_positive", (5, -5), ("", "5H"), 0, "1", "off_by_one", "one short of 0"),
    # "Goal is 2: 4(4) – 7(-3) + 9(6) – 12(-6) + 3(-3) + 3(0) – 4(-4) + 9(5) – 3(2)"
    (S2M, "cross_zero", (6, -12), ("", "QD"), -6, "-5", "face_value", "Q counted 11"),
    (S2M, "cross_zero", (6, -12), ("", "QD"), -6, "-4", "face_value", "Q counted 10"),
    (S2M, "cross_zero", (6, -12), ("", "QD"), -6, "-7", "face_value", "Q counted 13"),
    (S2M, "cross_zero", (6, -12), (), -6, "-5", "off_by_one", "no card known: one short"),
    (S2M, "cross_zero", (-4, 9), ("", "9C"), 5, "6", "off_by_one", "one too many"),
    (S2M, "subtract_positive", (5, -3), ("", "3H"), 2, "8", "sign", "5 + 3 for 5 − 3"),
    # "Goal is 4: 11(11) – 12(-1) + 5(4)"
    (S2M, "cross_zero", (11, -12), ("", "QS"), -1, "1", "sign", "−1 written 1"),
    (S2M, "cross_zero", (11, -12), ("", "QS"), -1, "-2", "face_value", "Q counted 13"),
    (S2M, "cross_zero", (11, -12), ("", "QS"), -1, "0", "face_value", "Q counted 11"),
    # Aces: 1 or 14, chosen when played
    (S2M, "add_positive", (3, 1), ("", "AH"), 4, "17", "ace_14", "Ace 14 for 1"),
    (S2M, "cross_zero", (3, -14), ("", "AD"), -11, "2", "ace_14", "Ace 1 for 14"),
    (S2M, "cross_zero", (-5, 14), ("", "AS"), 9, "-4", "ace_14", "Ace 1 for 14"),
    (S2M, "add_positive", (0, 1), ("", "2C"), 1, "-1", "sign", "sign before off by two"),
    # The Joker: "13(5) ~JOKER~": the deck 5 less the King's +13
    (S2M, "subtract_positive", (5, 13), ("", "KC"), -8, "18", "sign", "the King added again"),
    (S2M, "subtract_positive", (5, 13), ("", "KC"), -8, "8", "sign", "−x for x"),
    (S2M, "subtract_negative", (1, -4), ("", "4S"), 5, "-3", "sign", "1 − 4 for 1 − (−4)"),
    (S2M, "subtract_positive", (5, 11), ("", "JH"), -6, "-5", "face_value", "J counted 10"),
    # Dice Stacks: "a 3 and a 5 ... making eights"; "a ten and a two ... eight by subtraction"
    (DICE, "dice_sum", (3, 5), (), 8, "2", "subtracted_not_added", "5 − 3"),
    (DICE, "dice_sum", (3, 5), (), 8, "9", "off_by_one", "one too many"),
    (DICE, "dice_sum", (3, 5), (), 8, "-8", "sign", "−x for x"),
    (DICE, "dice_sum", (3, 5), (), 8, "15", "other", "multiplied"),
    (DICE, "dice_sum", (1, 1), (), 2, "0", "subtracted_not_added", "1 − 1 before off by 2"),
    (DICE, "stack_difference", (10, 2), ("10H", "2S"), 8, "12", "added_not_subtracted",
     "10 + 2"),
    (DICE, "stack_difference", (10, 1, 1), ("10H", "AS", "AD"), 8, "12",
     "added_not_subtracted", "10 + 1 + 1"),
    (DICE, "stack_difference", (10, 1, 1), ("10H", "AS", "AD"), 8, "3", "ace_14",
     "an Ace counted 14: 14 − 10 − 1"),
    (DICE, "stack_difference", (10, 1, 1), ("10H", "AS", "AD"), 8, "9", "off_by_one",
     "one Ace forgotten"),
    # "a queen and a five could make seven by subtraction"
    (DICE, "stack_difference", (12, 5), ("QH", "5C"), 7, "6", "face_value", "Q counted 11"),
    (DICE, "stack_difference", (12, 5), ("QH", "5C"), 7, "17", "added_not_subtracted",
     "12 + 5"),
    (DICE, "stack_difference", (12, 5), ("QH", "5C"), 7, "−7", "sign", "5 − 12"),
    # "a six and a two make an eight"
    (DICE, "stack_sum", (6, 2), ("6D", "2C"), 8, "4", "subtracted_not_added", "6 − 2"),
    (DICE, "stack_sum", (6, 2), ("6D", "2C"), 8, "7", "off_by_one", "one short"),
    (DICE, "stack_sum", (11, 1), ("JD", "AC"), 12, "25", "ace_14", "Ace counted 14"),
    (DICE, "stack_sum", (11, 1), ("JD", "AC"), 12, "11", "face_value", "J counted 10"),
    (DICE, "stack_sum", (11, 1), ("JD", "AC"), 12, "10", "subtracted_not_added", "11 − 1"),
    # "a six and a king can make a twelve ... They can also make a three"
    (DICE, "double", (6, 1), ("6H", "KS"), 12, "3", "halved_not_doubled", "halved"),
    (DICE, "halve", (6, 1), ("6H", "KS"), 3, "12", "doubled_not_halved", "doubled"),
    # "A queen, eight, and two kings can make a five"
    (DICE, "halve", (20, 2), (), 5, "80", "doubled_not_halved", "doubled twice"),
    (DICE, "halve", (20, 2), (), 5, "10", "other", "halved once only"),
    (DICE, "double", (7, 1), ("7C", "KD"), 14, "13", "off_by_one", "one short"),
    # Sums: P + H = O or |P − H| = O
    (SUMS, "capture_sum", (7, 5, 12), ("7D", "5D", "QD"), 12, "2", "subtracted_not_added",
     "7 − 5"),
    (SUMS, "capture_sum", (7, 5, 12), ("7D", "5D", "QD"), 12, "13", "off_by_one", "13"),
    (SUMS, "capture_difference", (9, 4, 5), ("9S", "4S", "5C"), 5, "13",
     "added_not_subtracted", "9 + 4"),
    (SUMS, "capture_sum", (1, 11, 12), ("AH", "JH", "QD"), 12, "25", "ace_14",
     "Ace counted 14"),
    # Moons and Planets: "Picture cards count as 10 points towards the total"
    (PLANETS, "planet_sum", (10, 5), ("KH", "5H"), 15, "18", "face_value", "K counted 13"),
    (PLANETS, "planet_sum", (10, 5), ("KH", "5H"), 15, "5", "subtracted_not_added",
     "10 − 5"),
    # not a number at all
    (DICE, "dice_sum", (3, 5), (), 8, "eight", "other", "words"),
    (DICE, "dice_sum", (3, 5), (), 8, "", "other", "nothing typed"),
    (DICE, "dice_sum", (3, 5), (), 8, "7.5", "other", "a decimal"),
]


@pytest.mark.parametrize(("game", "skill", "numbers", "cards", "expected", "given", "slip",
                          "what"), TABLE, ids=[f"{r[1]}-{r[5]}-{r[6]}" for r in TABLE])
def test_a_wrong_answer_is_named_by_its_slip(game, skill, numbers, cards, expected, given,
                                             slip, what):
    question = Question(game, skill, f"({what})", numbers, expected, cards=cards)
    assert classify_slip(question, given) == slip, what


def test_an_int_answer_is_read_as_its_text_is():
    question = Question(S2M, "cross_zero", "", (7, -10), -3, cards=("", "10D"))
    assert [classify_slip(question, g) for g in (3, 17, -4, True)] == [
        "sign", "sign", "off_by_one", "other"]


CAPTURE = "Q♦ = 7♦ + 5♦"
CAPTURES = [
    (CAPTURE, "none", "missed_capture"),
    (CAPTURE, "", "missed_capture"),
    ("none", CAPTURE, "wrong_capture"),
    (CAPTURE, "Q♦ = 9♦ + 3♦", "wrong_capture"),
    (CAPTURE, "Q♦ = 9♦ + 3♣", "colour"),  # a black helper for a red card
]


@pytest.mark.parametrize(("expected", "given", "slip"), CAPTURES)
def test_a_capture_claim_is_missed_or_wrong(expected, given, slip):
    question = Question(SUMS, "capture_spot", "Which capture?", (7, 5, 12), expected,
                        kind="capture")
    assert classify_slip(question, given) == slip


# Suns to Moons: the goal the page shows typed for the deck ("Goal is 2: ... + 9(5) − 3(2)":
# the deck 5, 9 laid across, the goal 2): (numbers, cards, expected, goal, given, slip)
GOALS = [
    ((5, 9), ("", "9H"), 14, 2, "2", "goal"),  # the goal, not the deck
    ((-4, 9), ("", "9C"), 5, 4, "4", "goal"),  # named before off by one
    ((7, -10), ("", "10D"), -3, 3, "3", "goal"),  # before a sign slip: it is on the page
    ((5, -3), ("", "3H"), 2, 2, "2", "other"),  # the goal is the deck: not a wrong answer
    ((5, 9), ("", "9H"), 14, 2, "13", "off_by_one"),
]


@pytest.mark.parametrize(("numbers", "cards", "expected", "goal", "given", "slip"), GOALS)
def test_the_goal_typed_for_another_deck_is_named_first(numbers, cards, expected, goal,
                                                        given, slip):
    question = Question(S2M, "add_positive", "", numbers, expected, cards=cards, goal=goal)
    assert classify_slip(question, given) == slip


def test_the_table_is_large_and_names_every_slip_and_only_known_skills():
    assert len(TABLE) + len(CAPTURES) >= 40
    named = {row[6] for row in TABLE} | {row[2] for row in CAPTURES} | {r[5] for r in GOALS}
    assert named == set(SLIPS)
    assert {row[1] for row in TABLE} <= set(SKILLS)


def test_the_documented_list_names_every_skill_and_slip_in_the_dashboards_words():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "skills.md").read_text("utf-8")
    missing = [w for w in [*SKILLS.values(), *SLIP_WORDS.values()] if f"| {w} |" not in text]
    assert not missing, f"docs/skills.md does not list {missing}"
