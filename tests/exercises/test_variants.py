"""Randomised variants: reproducible from (set, exercise, student), meeting their constraints."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mathcards.exercises import Exercise, VariantError, load_set_text, variant_seed

STUDENTS = [f"student-{i}" for i in range(40)]

SET = """\
title: Random practice
id: random-practice
exercises:
  - kind: reach_goal
    id: unique
    deck: 2 random cards
    hand: 5 random cards
    goal: -3..3
    require: [solvable, exactly one solution]
  - kind: reach_goal
    id: two-plays
    deck: 3 random cards
    hand: 4 random cards
    goal: 0
    most_plays: 2
    require: ["plays needed >= 2"]
  - kind: find_capture
    id: capture
    played: 1 random card
    own: 3 random cards
    opponent: 4 random cards
    require: [exactly one solution]
  - kind: who_takes_trick
    id: trick
    trick: 4 random cards
    require: ["winner position >= 3"]
  - kind: planet_or_not
    id: planet
    cards: 3 random hearts
    require: [answer is yes]
  - kind: which_prize
    id: prize
    trick: 4 random cards
    require: ["place = 2"]
"""


@pytest.fixture(scope="module")
def random_set():
    return load_set_text(SET, name="random-practice")


def test_same_student_same_variant_other_students_differ(random_set):
    for exercise in random_set:
        first = [exercise.variant(s).text for s in STUDENTS[:10]]
        again = [exercise.variant(s).text for s in STUDENTS[:10]]
        assert first == again
        assert len(set(first)) >= 5, f"{exercise.id}: variants hardly differ: {first}"


def test_every_variant_meets_its_constraints(random_set):
    for exercise in random_set:
        for student in STUDENTS:
            variant = exercise.variant(student)
            measures = exercise.kind.measures(variant.position)
            assert exercise.kind.problems(variant.position) == []
            for constraint in exercise.require:
                assert constraint.holds(measures), (exercise.id, student, variant.text)


def test_unique_solution_variants_really_have_one_answer(random_set):
    """'exactly one solution' checked independently: try every card of the hand."""
    exercise = random_set["unique"]
    for student in STUDENTS[:15]:
        variant = exercise.variant(student)
        hand = variant.position["hand"]
        right = []
        for card in hand:
            values = (1, 14) if card.rank == 1 else (card.rank,)
            for value in values:
                for sign in "+-":
                    answer = f"{sign}{card}" + ("=14" if value == 14 else "")
                    if variant.check(answer).correct:
                        right.append(value * (1 if sign == "+" else -1))
        assert len(set(right)) == 1, (variant.text, right)


def test_variant_cards_never_exceed_one_deck(random_set):
    """A card is dealt at most as often as the game's deck holds it (two Big Moons, ...)."""
    from collections import Counter

    from mathcards.exercises.fields import game_deck

    for exercise in random_set:
        deck = Counter(game_deck(exercise.kind.game))
        for student in STUDENTS[:20]:
            cards = Counter(exercise.kind.all_cards(exercise.variant(student).position))
            assert all(cards[c] <= deck[c] for c in cards), (exercise.id, cards)


def test_the_seed_is_a_stable_hash_not_pythons_salted_hash():
    expected = variant_seed("random-practice", "unique", "ana")
    code = ("from mathcards.exercises import variant_seed;"
            "print(variant_seed('random-practice', 'unique', 'ana'))")
    for salt in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={"PYTHONHASHSEED": salt, "PATH": "",
                                  "MATHCARDS_SECRET": os.environ["MATHCARDS_SECRET"]}, timeout=60)
        assert int(out.stdout) == expected
    assert variant_seed("random-practice", "unique", "ben") != expected


def test_variant_is_the_same_in_a_new_process(random_set):
    """A teacher (another process, another day) opens exactly the student's variant."""
    mine = [e.variant("ana").text for e in random_set]
    code = (
        "import sys\n"
        "from mathcards.exercises import load_set_text\n"
        "s = load_set_text(sys.stdin.read(), name='random-practice', check=False)\n"
        "print('\\n'.join(e.variant('ana').text for e in s))\n")
    out = subprocess.run([sys.executable, "-c", code], input=SET, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.splitlines() == mine, out.stderr


def test_impossible_constraints_raise_a_clear_error_instead_of_looping():
    ex = Exercise("planet_or_not", cards="2 random clubs", require=["total >= 30"], tries=40)
    with pytest.raises(VariantError, match="no variant met the constraints after 40 tries"):
        ex.variant("ana")
    too_few = Exercise("planet_or_not", cards="2 random cards from 9H 8H 7H",
                       require=["answer is yes"], tries=30)
    assert too_few.variant("ana").position["cards"][0] in too_few.fields["cards"].source


def test_templates_in_numbers_and_dice_stay_in_range():
    ex = Exercise("reach_goal", deck="2 random cards", hand="5 random cards", goal="−3..3",
                  most_plays="1..2")
    for student in STUDENTS[:20]:
        pos = ex.variant(student).position
        assert -3 <= pos["goal"] <= 3 and pos["most_plays"] in (1, 2)
        assert not any(c.is_joker for c in pos["hand"])
        assert len(pos["deck"]) == 2


def test_fixed_exercise_is_the_same_for_everyone():
    ex = Exercise("who_takes_trick", trick="G12 G3 R3")
    assert not ex.is_random
    assert {ex.variant(s).text for s in STUDENTS[:5]} == {"trick: G12 G3 R3"}
