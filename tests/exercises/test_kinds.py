"""Every kind of exercise: right answers accepted, wrong ones refused with the right reason.

The truth always comes from the engines' pinned API; these tests give positions
whose answers are worked out by hand from the seed sentences and rulings.
"""

from __future__ import annotations

import pytest

from mathcards.exercises import AnswerError, Exercise
from tests.exercises.conftest import needs_dice_stacks


# --- Suns to Moons: reach the goal ------------------------------------------------------
def test_reach_goal_one_card_right_and_wrong():
    # deck 7 − 10 = −3; +3 makes 0 with 3 cards in the deck (ruling 6)
    ex = Exercise("reach_goal", deck="7H -10S", hand="3H 4S 9D", goal=0)
    right = ex.check("+3H")
    assert right.correct and right.score == 1.0
    assert "−3 + (+3) = 0" in right.text
    assert "0 is the goal 0, with 3 cards in the deck: a win" in right.text
    wrong = ex.check("-3H")
    assert not wrong.correct and wrong.score == 0.0
    assert "the deck is −6, not the goal 0" in wrong.headline
    assert "−3 + (−3) = −6" in wrong.text


def test_reach_goal_refuses_a_play_outside_ten_while_another_play_stays_inside():
    """Seed 000: "the player cannot make the value of the deck exceed 10 or -10 unless the
    player has no choice"."""
    ex = Exercise("reach_goal", deck="7H -10S", hand="3H 9D 8C", goal=-1, most_plays=2)
    result = ex.check("-9D +8C")  # −3 − 9 = −12: refused
    assert not result.correct
    assert ("9♦ as −9 would make the deck −12; the deck must stay between −10 and 10"
            in result.text)


def test_reach_goal_goal_with_fewer_than_three_cards_does_not_count():
    """Seed 000: "If the goal is reached with fewer than three cards in the deck, this does
    not count as a win"."""
    problems = Exercise("reach_goal", deck="4H", hand="4S", goal=0).problems()
    assert [p.message for p in problems] == ["no play reaches the goal 0 from this hand"]
    ex = Exercise("reach_goal", deck="4H", hand="4S 2C 2D", goal=0, most_plays=3)
    result = ex.check("-4S")
    assert not result.correct
    assert "it needs 3 or more cards to count" in result.headline


def test_reach_goal_most_plays_and_the_seed_chain():
    # seed: "Goal is 4: 11(11) – 12(-1) + 5(4)"
    ex = Exercise("reach_goal", deck="JH", hand="QS 5D 2C", goal=4, most_plays=2)
    assert ex.check("-QS +5D").correct
    too_many = Exercise("reach_goal", deck="JH", hand="QS 5D 2C", goal=4, most_plays=1)
    assert too_many.problems()  # no single card reaches 4
    assert "within" not in str(too_many.problems()[0])


def test_reach_goal_joker_turn_and_ace_as_fourteen():
    # 9 − 8 = 1; a Joker removes −8 (back to 9); then −9 makes 0 with 4 cards in the deck
    ex = Exercise("reach_goal", deck="9H -8S", hand="JK 9C", goal=0, most_plays=2)
    result = ex.check("JK -9C")
    assert result.correct
    assert "9 − (+(−8))" in result.text or "1 − (−8) = 9" in result.text
    ace = Exercise("reach_goal", deck="5H -9S", hand="AC 3D", goal=10)
    assert ace.check("+AC=14").correct  # −4 + 14 = 10
    assert not ace.check("+AC").correct  # −4 + 1 = −3


def test_reach_goal_measures_count_solutions_by_their_arithmetic():
    ex = Exercise("reach_goal", deck="7H", hand="3H 4S 5D 10C", goal=0, most_plays=2)
    measures = ex.kind.measures(ex.fields)
    # {+3, −10} in either order and {−3, −4}: two different sets of plays
    assert measures["solutions"] == 2
    assert measures["plays needed"] == 2


def test_reach_goal_hints_three_levels_and_solution():
    ex = Exercise("reach_goal", deck="7H -10S", hand="3H 4S 9D", goal=0)
    assert "there is a way to reach 0 with 1 card" in ex.hint(1).spoken
    assert "start with 3♥ as +3" in ex.hint(2).spoken
    level3 = ex.hint(3).spoken
    assert "−3 + (+3) = 0" in level3
    solution = ex.solution()
    assert solution.correct and "7 − 10 + 3 = 0" in solution.text


def test_reach_goal_answers_that_are_not_plays_are_refused():
    ex = Exercise("reach_goal", deck="7H -10S", hand="3H 4S 9D", goal=0)
    with pytest.raises(AnswerError, match="has no sign"):
        ex.check("3H")
    with pytest.raises(AnswerError, match="not a card"):
        ex.check("+KX")
    refused = ex.check("+5C")
    assert not refused.correct and "you do not hold 5♣" in refused.text  # the engine's words
    # a play is the move notation or the engine's Play, never a tuple worked out here
    from mathcards.cards import parse_card
    from mathcards.games.suns_to_moons import Play

    assert ex.check(["+3H"]).correct and ex.check([Play(parse_card("3H"), 1, 3)]).correct
    with pytest.raises(AnswerError, match="is not a play: write"):
        ex.check([("3H", 1)])


# --- Suns to Moons: deck value ----------------------------------------------------------
def test_deck_value_seed_chain_right_and_wrong():
    # seed: "11(11) – 4(7) – 2(5) + 2(7) – 10(-3) + 8(5) – 5(0)"
    ex = Exercise("deck_value", deck="JS -4H -2D +2C -10S +8H -5D")
    right = ex.check(0)
    assert right.correct and "11 − 4 − 2 + 2 − 10 + 8 − 5 = 0" in right.text
    wrong = ex.check("−2")
    assert not wrong.correct
    assert "11 − 4 − 2 + 2 − 10 + 8 − 5 = ?" in wrong.text


def test_deck_value_joker_removes_the_card_before_it():
    """Ruling 4: a Joker removes the signed contribution of the most recent counted card."""
    ex = Exercise("deck_value", deck="7H -10S +6D +6C -4S -KH +KD JK -9S +4C +2H")
    # the seed's third chain; ruling 5: after the Joker the deck is −8, so it ends at −11
    assert ex.check(-11).correct
    wrong = ex.check(2)  # the seed's slip: counting the concealed King
    assert not wrong.correct
    assert "a Joker takes away the card counted just before it" in wrong.text


def test_deck_value_rejects_text_that_is_not_a_number():
    ex = Exercise("deck_value", deck="9H -4S +2D")
    for bad in ("seven", "7.5", "1e9", ""):
        with pytest.raises(AnswerError):
            ex.check(bad)


# --- Dice Stacks ------------------------------------------------------------------------
@needs_dice_stacks
def test_make_stacks_full_marks_only_for_the_best_points_partial_credit_below():
    # 3 and 5 make 8: 8♣ alone; 6 + 2; 10 − 1 − 1; 4 is left (best 3 stacks, 3 points)
    ex = Exercise("make_stacks", dice=(3, 5), hand="8C 6H 2S 10D AC AH 4S")
    best = ex.check([["8C"], ["6H", "2S"], ["10D", "AC", "AH"]])
    assert best.correct and best.score == 1.0
    assert "10 − 1 − 1 = 8" in best.text and "6 + 2 = 8" in best.text
    part = ex.check("8C | 6H 2S")
    assert not part.correct and part.score == pytest.approx(2 / 3)
    assert "Partly right: your stacks score 2 points; these cards can make 3" in part.headline


@needs_dice_stacks
def test_make_stacks_refuses_a_mixed_stack_with_the_reason():
    """Seed 001: "a ten, a five, and a four cannot make eleven (10 + 5 − 4)"."""
    ex = Exercise("make_stacks", dice=(5, 6), hand="10C 5S 4D JH")
    result = ex.check("10C 5S 4D | JH")
    assert not result.correct
    assert "mixes" in result.text
    assert result.score < 1.0


def test_make_stacks_says_when_a_card_is_already_in_another_stack():
    """Each card goes in one stack: the engine refuses the second use ('you do not hold
    8♣', true of the hand left), and the student is told why they no longer hold it."""
    ex = Exercise("make_stacks", dice=(2, 4), hand="8C 2C 4H 6S")
    result = ex.check("8C 2C | 8C 4H")
    assert not result.correct and "you do not hold 8♣" in result.text
    assert "8♣ is already in one of your stacks above" in result.html  # under the refusal
    missing = ex.check("9H")  # not in the hand at all: no such line
    assert "you do not hold 9♥" in missing.text and "already in" not in missing.html


@needs_dice_stacks
def test_make_stacks_special_stack_scores_two():
    """Seed 001: "a two of clubs and the four of diamonds ... counts as two points"."""
    ex = Exercise("make_stacks", dice=(2, 4), hand="2C 4D")
    assert ex.kind.measures(ex.fields)["best points"] == 2
    assert ex.check("2C 4D").correct


@needs_dice_stacks
def test_is_stack_seed_sentences():
    # "A queen, eight, and two kings can make a five"
    assert Exercise("is_stack", dice=(2, 3), cards="QS 8D KH KC").check("yes").correct
    # "an eight, king, and three ... cannot make seven" (the King must come last)
    no = Exercise("is_stack", dice=(3, 4), cards="8S KH 3D")
    assert no.check("no").correct
    wrong = no.check("yes")
    assert not wrong.correct and "none makes 7" in wrong.text


# --- Sums -------------------------------------------------------------------------------
def test_find_capture_right_wrong_colour_and_exceptions():
    ex = Exercise("find_capture", played="7H", own="5H 2S", opponent="QD 9S 4C")
    right = ex.check("QD")
    assert right.correct and "7 + 5 = 12 = Q♦" in right.text
    wrong = ex.check("9S")
    assert not wrong.correct
    assert "9♠ is black and 7♥ is red: a capture needs cards of one colour" in wrong.text


def test_find_capture_ace_falls_only_to_a_queen():
    """Sums seed: "An opponent's Aces can only be removed by playing a Queen of the same
    color"."""
    ex = Exercise("find_capture", hand="QD 10H 4S", own="JH 3C", opponent="AD AS 6C")
    assert ex.check("QD AD").correct  # 12 − 11 = 1
    refused = ex.check("10H AD")
    assert not refused.correct
    assert "an opponent's Ace can be captured only with a Queen" in refused.text
    with pytest.raises(AnswerError, match="not a card you can play"):
        ex.check("9H AD")


def test_find_capture_hints_and_solution():
    ex = Exercise("find_capture", hand="9H 3S", own="2H 5S", opponent="7H 8S")
    assert "colour" in ex.hint(1).spoken
    assert "can capture" in ex.hint(2).spoken
    assert "=" in ex.hint(3).spoken
    assert ex.solution().headline == "2 captures work here:"


@pytest.mark.parametrize("fields", [
    {"played": "7H", "own": "5S", "opponent": "QD"},   # the only helper is black
    {"hand": "7H 3D", "own": "5S", "opponent": "QD"},
])
def test_find_capture_hints_when_no_capture_exists(fields):
    """A position with no capture (a teacher's typo, or a what-if) still gets hint lines."""
    ex = Exercise("find_capture", **fields)
    assert "colour" in ex.hint(1).spoken
    for level in (2, 3):
        assert "no capture" in ex.hint(level).spoken


# --- Shoot the Moon ---------------------------------------------------------------------
def test_who_takes_trick_red_trumps_and_the_explanation_of_a_wrong_pick():
    """Seed 003: "If any red cards are in a trick, then the highest red card wins"."""
    ex = Exercise("who_takes_trick", trick="G12 G3 R3")
    assert ex.check(2).correct and ex.check("R3").correct
    wrong = ex.check("G12")
    assert not wrong.correct
    assert "red trumps every other colour, the highest red wins" in wrong.text


def test_who_takes_trick_little_moon_led_tie_goes_to_the_first():
    ex = Exercise("who_takes_trick", trick="LITTLE R2 G9 P9")
    assert ex.check("G9").correct
    assert not ex.check("P9").correct
    assert not ex.check(0).correct
    assert "a Little Moon was led: the highest number of any colour wins" in ex.check(0).text


def test_is_play_legal_follow_colour_or_moon():
    ex = Exercise("is_play_legal", hand="G4 R5 BIG", led="G9", card="R5")
    assert ex.check("no").correct
    wrong = ex.check("yes")
    assert not wrong.correct and "you must follow green" in wrong.text
    assert Exercise("is_play_legal", hand="G4 R5 BIG", led="G9", card="BIG").check("yes").correct
    assert Exercise("is_play_legal", hand="G4 R5", led=None, card="R5").check(True).correct


# --- Moons and Planets ------------------------------------------------------------------
def test_planet_or_not_and_moon_or_not():
    assert Exercise("planet_or_not", cards="9H 8H").check("yes").correct
    small = Exercise("planet_or_not", cards="9H 5H")
    wrong = small.check("yes")
    assert not wrong.correct and "total 14" in wrong.text
    assert Exercise("planet_or_not", cards="5C").check("yes").correct
    assert Exercise("moon_or_not", cards="3H 4D 5H").check("yes").correct
    no = Exercise("moon_or_not", cards="AS AH").check("yes")
    assert not no.correct and "aces are moons only alone" in no.text


def test_which_prize_seed_example():
    """Seed 004: "if the 3 of spades was led, and the other cards played were 2 spades, 4
    hearts, and 8 diamonds, 3 spades takes 1st prize, 2 spades second, 8 diamonds 3rd, and 4
    hearts fourth prize"."""
    for yours, place in (("3S", 1), ("2S", 2), ("8D", 3), ("4H", 4)):
        ex = Exercise("which_prize", trick="3S 2S 4H 8D", yours=yours)
        right, solution = ex.check(place), ex.solution()
        assert right.correct, yours
        assert (solution.headline, solution.steps) == (right.headline.removeprefix("Right: "),
                                                       right.steps)
        wrong = ex.check(place % 4 + 1)
        assert not wrong.correct
    discard = Exercise("which_prize", trick="3S 2S 4H 8D", yours="4H").check(1)
    assert "it is a discard" in discard.text


def test_which_prize_equal_discards_by_suit():
    """Seed 004: "Diamonds are highest, followed by clubs, then spades, then hearts"."""
    ex = Exercise("which_prize", trick="7C 9H 9D JC", yours="9H")
    assert ex.check(4).correct


# --- answers from the browser are validated ---------------------------------------------
@pytest.mark.parametrize("kind,fields,bad", [
    ("who_takes_trick", {"trick": "G12 G3 R3"}, 7),
    ("who_takes_trick", {"trick": "G12 G3 R3"}, "P5"),
    ("which_prize", {"trick": "3S 2S 4H 8D"}, 9),
    ("planet_or_not", {"cards": "9H 8H"}, "perhaps"),
    ("find_capture", {"played": "7H", "own": "5H", "opponent": "QD"}, "KD"),
])
def test_unreadable_answers_raise_answer_error(kind, fields, bad):
    with pytest.raises(AnswerError):
        Exercise(kind, **fields).check(bad)


def test_yes_no_answers_are_yes_or_no_never_numbers():
    """A button index is no answer: 1 and 0 (or '1') are refused in one line, not guessed."""
    ex = Exercise("planet_or_not", cards="9H 8H")  # a planet: the answer is yes
    for right in (True, "yes", "Yes", " y ", "true"):
        assert ex.check(right).correct, right
    for wrong in (False, "no", "N", "false"):
        assert not ex.check(wrong).correct, wrong
    for number in (1, 0, "1", "0", 1.0):
        with pytest.raises(AnswerError) as caught:
            ex.check(number)
        message = str(caught.value)
        assert message.startswith("answer yes or no (or True/False), not ") and "\n" not in message


def test_a_yes_typed_in_spanish_is_yes():
    """A Spanish page's buttons say "Sí" and "No"; "sí" (or "si") typed reads as yes."""
    from mathcards import i18n

    ex = Exercise("planet_or_not", cards="9H 8H")
    for right in ("sí", "Sí", " si "):
        assert ex.check(right).correct, right
    with i18n.using("es"):
        assert ex.kind.choices(ex.variant("ana").position) == ["Sí", "No"]


@needs_dice_stacks
def test_make_stacks_takes_stacks_as_tuples_of_cards():
    """The page sends each stack as a tuple of cards; text, lists and tuples all work."""
    from mathcards.cards import parse_card as card

    ex = Exercise("make_stacks", dice=(3, 5), hand="8C 6H 2S")
    as_tuples = ((card("8C"),), (card("6H"), card("2S")))
    assert ex.check(as_tuples).correct
    assert ex.check([["8C"], ("6H", "2S")]).correct
    assert ex.check("8C | 6H 2S").correct
    for bad in (5, None, [object()]):
        with pytest.raises(AnswerError) as caught:
            ex.check(bad)
        assert "object at 0x" not in str(caught.value) and "NoneType" not in str(caught.value)


@pytest.mark.parametrize("digit", ["²", "①", "٣", "৩"])
def test_numbers_are_the_digits_0_to_9_only(digit):
    """'²' and '①' pass isdigit() and fail int(); '٣' passes both: none is a number here."""
    from mathcards.exercises import read_set_text
    from mathcards.exercises.fields import FieldError, read_int

    deck = Exercise("deck_value", deck="9H -4S +2D")
    prize = Exercise("which_prize", trick="3S 2S 4H 8D", yours="8D")  # 3rd prize
    for ex, words in ((deck, "is not a whole number: type one with the digits 0-9"),
                      (prize, "answer with a prize number from 1 to 4, in the digits 0-9")):
        for answer in (digit, f"-{digit}", f"{digit}rd"):
            with pytest.raises(AnswerError) as caught:
                ex.check(answer)
            assert words in str(caught.value)
    assert deck.check("7").correct and prize.check("3rd prize").correct
    with pytest.raises(FieldError):
        read_int(digit)
    with pytest.raises(FieldError):
        read_int(f"1..{digit}")
    text = f"""\
title: Digits
exercises:
  - kind: planet_or_not
    cards: {digit} random hearts
  - kind: make_stacks
    dice: [3, 5]
    hand: 8C 6H 2S
    require: ["best stacks >= {digit}"]
"""
    _set, problems = read_set_text(text)
    assert [p.line for p in problems] == [4, 8], [str(p) for p in problems]


def test_answers_never_show_python_words():
    """No 'NoneType', no 'int() argument', no object reprs in what a student reads."""
    cases = [
        (Exercise("deck_value", deck="9H -4S +2D"), [None, 3.5, [1], {"a": 1}]),
        (Exercise("planet_or_not", cards="9H 8H"), [None, 1, [True], object()]),
        (Exercise("reach_goal", deck="7H -10S", hand="3H 4S 9D", goal=0),
         [[("3H", None)], [("3H", "x", 3)], [(None, 1)]]),
    ]
    for ex, answers in cases:
        for answer in answers:
            with pytest.raises(AnswerError) as caught:
                ex.check(answer)
            message = str(caught.value)
            for internal in ("NoneType", "int()", "object at 0x", "Traceback", "\n"):
                assert internal not in message, (answer, message)
