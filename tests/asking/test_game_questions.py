"""The questions of Dice Stacks and Sums on hand-written positions: what is asked, the
expected answer (the engine's), how an answer is read and judged."""

from __future__ import annotations

import pytest

from mathcards.errors import MathCardsError
from mathcards.games.dice_stacks import DiceStacks, LayStack, Roll
from mathcards.games.dice_stacks import questions as D
from mathcards.games.sums import Play, Sums
from mathcards.games.sums import questions as S


@pytest.mark.parametrize("cards, dice, skill, expected, wrong, slip", [
    ("10H AS AD", (3, 5), "stack_difference", "taking away", "adding",
     "added_not_subtracted"),
    ("7H AS", (3, 5), "stack_sum", "adding", "taking away", "subtracted_not_added"),
    ("QS 8D KH KC", (2, 3), "halve", "adding, Kings halve", "adding, Kings double",
     "doubled_not_halved"),
    ("3S KD", (3, 3), "double", "adding, Kings double", "Kings halve",
     "halved_not_doubled"),
])
def test_laying_a_stack_asks_how_it_makes_the_dice_total(cards, dice, skill, expected, wrong,
                                                         slip):
    """Issue 37 item 3: the cards and the way the student says they made the total are the
    answer (not "what does the stack make?", always the dice total); the skill and the slip
    are what the student did."""
    state = DiceStacks().position(cards + " 9C", dice)
    question = D.before_move(state, LayStack(cards), 0)
    assert question.skill == skill and question.expected == expected
    assert str(sum(dice)) not in question.prompt.split(":")[-1]
    assert D.check(question, D.read_answer(question, expected))
    said = D.read_answer(question, wrong)
    assert not D.check(question, said)
    assert D.slip(question, said) == slip
    # an added stack is "a stack by adding", whatever the cards needed
    assert D.answer_skill(question, said) == {"adding": "stack_sum",
                                              "taking away": "stack_difference"}.get(
        said, "double" if "double" in said else "halve")
    (step,) = D.explain(question, state, state.apply(LayStack(cards)))
    assert step.equation.value == sum(dice)


def test_a_selection_that_is_not_a_stack_is_asked_and_no_way_is_right():
    state = DiceStacks().position("10C 5S 4D", (5, 6))
    question = D.before_move(state, LayStack("10C 5S 4D"), 0)
    assert question.expected == D.NOT_A_STACK
    for way in ("adding", "taking away"):
        assert not D.check(question, D.read_answer(question, way))
    assert D.slip(question, "adding") == "other"  # 19 for 11
    near = DiceStacks().position("7C 5S", (6, 5))  # 12 or 2 for 11: off by one, adding
    assert D.slip(D.before_move(near, LayStack("7C 5S"), 0), "adding") == "off_by_one"


def test_the_roll_asks_what_the_stacks_make():
    state = DiceStacks().new_game(3)
    seat = state.current_player
    after = state.apply(Roll())
    question = D.after_move(state, after, seat, follow=False)
    a, b = after.dice
    assert question.skill == "dice_sum" and question.numbers == (a, b)
    assert question.expected == a + b == after.target
    assert f"{a + b}" not in question.prompt.replace(f"{a} and {b}", "")
    follow = D.after_move(state, after, seat, follow=True)
    assert follow.follow and follow.prompt.startswith(f"Player {seat + 1} rolled")


@pytest.mark.parametrize("text, value", [("8", 8), (" −3 ", -3), ("-12", -12), ("+4", 4)])
def test_a_number_is_read_by_hand(text, value):
    assert D.read_answer(None, text) == value


@pytest.mark.parametrize("text", ["", "eight", "1+1", "__import__('os')", "99999", "3.5"])
def test_text_that_is_not_a_number_is_one_line(text):
    with pytest.raises(MathCardsError) as exc:
        D.read_answer(None, text)
    assert "\n" not in str(exc.value)


def test_a_capture_claim_is_judged_by_the_capture_rule():
    # 7♣ played, 5♣ and 3♣ helpers: Q♣ = 7 + 5 and 4♠ = 7 − 3 (both black)
    state = Sums().position(hand=["7C"], own=["5C", "3C"], opponent=["QC", "4S", "9H"])
    question = S.before_move(state, Play("7C"), 0)
    assert question.kind == "capture"
    assert set(question.ways) == {"Q♣ = 7♣ + 5♣ = 12", "4♠ = 7♣ − 3♣ = 4"}
    assert question.expected in question.ways
    for text, right in [("Q♣ = 7♣ + 5♣ = 12", True), ("QC = 5C + 7C = 12", True),
                        ("4S = 3C - 7C = 4", True), ("4♠ = 7♣ − 3♣=4", True),
                        ("Q♣ = 7♣ + 5♣ = 13", False),  # the right cards, a wrong sum
                        ("4♠ = 7♣ − 3♣ = −4", False),
                        ("9♥ = 7♣ + 3♣ = 10", False), ("Q♣ = 7♣ − 5♣ = 2", False),
                        ("none", False)]:
        given = S.read_answer(question, text)
        assert S.check(question, given) is right, text
    assert S.slip(question, "none") == "missed_capture"
    assert S.answer_skill(question, "none") == "capture_spot"
    # a red card named with a black one: the colour slip (issue 37 item 7), else not one
    assert S.slip(question, S.read_answer(question, "9♥ = 7♣ + 3♣ = 10")) == "colour"
    assert S.slip(question, S.read_answer(question, "Q♣ = 7♣ − 5♣ = 2")) == "wrong_capture"
    # the right cards with a wrong number: the number's slip
    assert S.slip(question, S.read_answer(question, "Q♣ = 7♣ + 5♣ = 13")) == "off_by_one"
    assert S.slip(question, S.read_answer(question, "Q♣ = 7♣ + 5♣ = 2")) == \
        "subtracted_not_added"


def test_a_claim_without_its_number_asks_for_it():
    state = Sums().position(hand=["7C"], own=["5C"], opponent=["QC"])
    question = S.before_move(state, Play("7C"), 0)
    with pytest.raises(MathCardsError, match="what the sum or difference makes"):
        S.read_answer(question, "Q♣ = 7♣ + 5♣")


def test_the_claim_is_built_from_buttons_and_the_number():
    state = Sums().position(hand=["7C"], own=["5C", "3H"], opponent=["QC", "4S", "9H"])
    question = S.before_move(state, Play("7C"), 0)
    choices = S.answer_choices(question, state, ())
    keys = [k for k, *_ in choices]
    # the opponents' black cards, every own face-up card, both signs, no capture
    assert keys == ["ans:t:QC", "ans:t:4S", "ans:h:5C", "ans:h:3H", "ans:op:+", "ans:op:-",
                    "ans:none"]
    # no label or tooltip names a sum, a result or the right claim
    for _key, label, tip, picked in choices:
        assert "=" not in label + tip and "12" not in label + tip and not picked
    picks: tuple[str, ...] = ()
    for key in ("ans:t:4S", "ans:t:QC", "ans:h:5C", "ans:op:-", "ans:op:+"):
        picks, text = S.pick(question, picks, key)
        assert text is None
    assert sorted(picks) == ["ans:h:5C", "ans:op:+", "ans:t:QC"]  # one per role
    assert S.compose(question, picks, "12") == "Q♣ = 7♣ + 5♣ = 12"
    assert S.compose(question, picks, "none") == "none"
    assert S.pick(question, picks, "ans:none") == ((), "none")
    with pytest.raises(MathCardsError, match="helper"):
        S.compose(question, ("ans:t:QC",), "12")
    with pytest.raises(MathCardsError, match=r"\+ or −"):
        S.compose(question, ("ans:t:QC", "ans:h:5C"), "12")


def test_no_capture_is_the_answer_none():
    state = Sums().position(hand=["7C"], own=["5H"], opponent=["QC"])
    question = S.before_move(state, Play("7C"), 0)
    assert question.expected == "none" and question.skill == "capture_spot"
    assert S.check(question, S.read_answer(question, "No capture"))
    assert not S.check(question, S.read_answer(question, "Q♣ = 7♣ + 5♥ = 12"))
    (step,) = S.explain(question, state, state.apply(Play("7C")))
    assert "captures nothing" in step.text


@pytest.mark.parametrize("text", ["Q = 7 + 5 = 12", "Q♣ = 7♣ * 5♣ = 35", "", "x" * 50,
                                  "QC = 7C +", "QC = 7C + 5C = twelve", "QC = 7C + 5C"])
def test_a_claim_that_is_not_one_is_one_line(text):
    with pytest.raises(MathCardsError) as exc:
        S.read_claim(text)
    assert "\n" not in str(exc.value)


def test_a_counters_claim_offers_the_threatening_card_as_its_target():
    # 7♣ + 5♣ threatens player 2's Q♣; they counter with 3♣ + 4♠ = 7♣ (3♣ is black too)
    from dataclasses import replace

    from mathcards.cards import as_card
    from mathcards.games.sums import Counter

    state = Sums().position(hand=["7C"], own=["5C"], opponent=["QC", "4S", "9H"])
    state = replace(state, hands=(state.hands[0], (as_card("3C"), as_card("2H"))),
                    piles=((as_card("8D"),), (as_card("8H"),)))
    state = state.apply(Play("7C"))
    question = S.before_move(state, Counter("3C"), 1)
    assert question.counter and question.expected == "7♣ = 3♣ + 4♠ = 7"
    keys = [k for k, *_ in S.answer_choices(question, state, ())]
    # the target is the threatening card only (the prompt names it); every helper, both signs
    assert keys == ["ans:t:7C", "ans:h:QC", "ans:h:4S", "ans:h:9H", "ans:op:+", "ans:op:-",
                    "ans:none"]
