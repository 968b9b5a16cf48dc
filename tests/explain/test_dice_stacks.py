"""Dice Stacks: every stack as its expression; why some cards are not a stack."""

from __future__ import annotations

import importlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.cards import Card
from mathcards.errors import MathCardsError
from mathcards.explain import ExplainError, NotAStackError, StackExpression, stack_steps
from mathcards.games.dice_stacks.rule import counts_points

from .checks import check_steps


def _ok(cards, dice, text, latex=None, points=1):
    step = stack_steps(cards, dice)
    assert isinstance(step, StackExpression)
    assert step.text == text
    if latex is not None:
        assert step.latex == latex
    assert step.points == points
    assert step.target == sum(dice)
    assert step.equation is None if step.alone else step.equation.value == sum(dice)
    check_steps([step])
    return step


class TestSeedSentences:
    def test_a_card_alone(self):
        """Seed: "A card with a rank of eight makes an eight and may be laid down by itself"."""
        step = _ok("8S", (3, 5), "8♠ makes 8 on its own")  # never "8 = 8"
        assert step.spoken == "8♠ makes 8 on its own. a stack of 8: 1 point."

    def test_six_and_two(self):
        """Seed: "a six and a two make an eight"."""
        _ok("6S 2D", (3, 5), "6 + 2 = 8", "6 + 2 = 8")

    def test_ten_and_two_by_subtraction_or_addition(self):
        """Seed: "A ten and a two, for example, can make eight by subtraction (or twelve by
        addition)"."""
        _ok("10H 2C", (3, 5), "10 − 2 = 8", "10 - 2 = 8")
        _ok("10H 2C", (6, 6), "10 + 2 = 12")

    def test_ten_and_two_aces(self):
        """Seed: "Aces count one, so a ten and two aces can also make eight (or twelve by
        addition)"."""
        _ok("AS 10H AD", (3, 5), "10 − 1 − 1 = 8", "10 - 1 - 1 = 8")
        _ok("10H AS AD", (6, 6), "10 + 1 + 1 = 12")

    def test_ten_five_four_cannot_make_eleven(self):
        """Seed: "a ten, a five, and a four cannot make eleven (10 + 5 − 4) because both
        addition and subtraction are used in the same stack"."""
        with pytest.raises(NotAStackError) as info:
            stack_steps("10C 5S 4D", (5, 6))
        reason = "10 + 5 − 4 mixes adding and subtracting: a stack only adds or only subtracts"
        assert info.value.reason == reason
        assert str(info.value) == f"10♣ 5♠ 4♦ is not a stack of 11: {reason}"

    def test_queen_and_five_make_seven(self):
        """Seed: "a queen and a five could make seven by subtraction"."""
        _ok("5D QS", (3, 4), "12 − 5 = 7")

    def test_king_doubles_or_halves_a_six(self):
        """Seed: "a six and a king can make a twelve ... They can also make a three"."""
        _ok("6S KD", (6, 6), "6 × 2 = 12", r"6 \times 2 = 12")
        _ok("6S KD", (1, 2), "6 × ½ = 3", r"6 \times \frac{1}{2} = 3")

    def test_queen_eight_two_kings_make_five(self):
        """Seed: "A queen, eight, and two kings can make a five, because a queen and eight make
        twenty; cutting twenty in half twice makes five"."""
        step = _ok("QS 8D KH KC", (2, 3), "(12 + 8) × ½ × ½ = 5",
                   r"\left(12 + 8\right) \times \frac{1}{2} \times \frac{1}{2} = 5")
        assert [k.text for k in step.children] == ["20 × ½ = 10", "10 × ½ = 5"]
        assert "2 Kings halve last, after the other cards" in step.notes
        # any order of the same cards prints the same: Kings last
        assert stack_steps("KH QS KC 8D", (1, 4)).text == "(12 + 8) × ½ × ½ = 5"

    def test_the_king_must_come_last(self):
        """Seed: "an eight, king, and three (8 cut in half, plus three) cannot make seven,
        because the three is applied after the king"."""
        with pytest.raises(NotAStackError, match="the King must come last"):
            stack_steps("8S KH 3D", (3, 4), ordered=True)
        # as a set of cards they still cannot make 7: the halvings are not whole
        with pytest.raises(NotAStackError) as info:
            stack_steps("8S KH 3D", (3, 4))
        assert "11 ÷ 2 is not a whole number" in info.value.reason
        assert "5 ÷ 2 is not a whole number" in info.value.reason

    def test_kings_cannot_double_and_halve_together(self):
        """Seed: "multiple kings cannot double and halve in the same stack"."""
        with pytest.raises(NotAStackError, match="all double or all halve"):
            stack_steps("6S KH KD", (3, 3))

    def test_halving_must_be_whole(self):
        """Issue example: "7 ÷ 2 is not a whole number"."""
        with pytest.raises(NotAStackError, match="7 ÷ 2 is not a whole number"):
            stack_steps("7S KH", (1, 2))

    def test_special_stack(self):
        """Seed: "if the player rolls a two and a four, and the player makes a six with the two
        of clubs and the four of diamonds, this is a special stack that counts as two points"."""
        step = _ok("2C 4D", (2, 4), "2 + 4 = 6", points=2)
        assert step.notes == ("2 and 4 match both dice: 2 points",)
        _ok("AC 5D", (1, 5), "1 + 5 = 6", points=2)
        _ok("3C 3D", (1, 5), "3 + 3 = 6", points=1)  # a six, but not the dice's own numbers


class TestNotAStack:
    def test_errors_are_value_errors_of_the_project(self):
        assert issubclass(NotAStackError, ValueError)
        assert issubclass(NotAStackError, MathCardsError)

    @pytest.mark.parametrize("cards, dice, reason", [
        ("KS KH", (1, 2), "Kings alone are not a stack"),
        ("", (1, 2), "a stack needs at least one card"),
        ("JK 5S", (2, 3), "JK is not a Dice Stacks card"),
        ("6S 5H", (4, 4), "6 + 5 = 11 and 6 − 5 = 1, not 8"),
    ])
    def test_reasons(self, cards, dice, reason):
        with pytest.raises(NotAStackError, match=re.escape(reason)):
            stack_steps(cards, dice)

    @pytest.mark.parametrize("dice", [(0, 3), (1, 7), (2,), "35", (True, 2)])
    def test_bad_dice(self, dice):
        with pytest.raises(ExplainError, match="dice must be two whole numbers from 1 to 6"):
            stack_steps("8S", dice)


HANDS = st.lists(st.integers(min_value=1, max_value=13), min_size=1, max_size=6)
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


def _cards(ranks):
    return [Card("SHDC"[i % 4], r) for i, r in enumerate(ranks)]


class TestAgreesWithTheRules:
    @settings(max_examples=1500, deadline=None)
    @given(HANDS, DICE)
    def test_stack_or_reason_agrees_with_the_solver(self, ranks, dice):
        """The explainer's own arithmetic agrees with the engine's judge of stacks."""
        counts = [0] * 13
        for r in ranks:
            counts[r - 1] += 1
        points = counts_points(counts, dice)
        try:
            step = stack_steps(_cards(ranks), dice)
        except NotAStackError as exc:
            assert points == 0, exc
            assert exc.reason
            return
        assert step.points == points
        check_steps([step], sympify=False)

    @settings(max_examples=300, deadline=None)
    @given(HANDS, DICE)
    def test_engine_stack_points_agrees(self, ranks, dice):
        try:
            engine = importlib.import_module("mathcards.games.dice_stacks")
        except ModuleNotFoundError:
            pytest.skip("the dice_stacks engine is not written yet")
        cards = _cards(ranks)
        points = engine.stack_points(cards, dice)
        try:
            assert stack_steps(cards, dice).points == points
        except NotAStackError:
            assert points == 0
