"""Dice Stacks: every example sentence of the seed text, the rulings, and the solver.

Each table test quotes the sentence of seed 001 (or the ruling) it checks.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathcards.bots import Bot, play_game
from mathcards.cards import Card, parse_cards, standard_deck
from mathcards.errors import IllegalActionError, MathCardsError, SettingsError
from mathcards.games.base import State
from mathcards.games.dice_stacks import (
    CardsDrawn,
    DiceRolled,
    DiceStacks,
    Draw,
    DrawRest,
    EndTurn,
    FirstPlayerRolls,
    GameEnded,
    LayStack,
    RanOut,
    Roll,
    StackLaid,
    StopDrawing,
    TurnEnded,
    best_stacks,
    stack_points,
    stack_problem,
    stack_shape,
    strong_policy,
)
from mathcards.games.dice_stacks.solver import plain_memo_best

TWO_DECKS = standard_deck(decks=2)


def position(hands, stock="", dice=(3, 5), phase="stacks", turn=0, players=2, decks=1):
    """A state set up by hand: ``hands`` as card text per player, ``stock`` top card last."""
    state = DiceStacks(num_players=players, decks=decks).new_game(1)
    return dataclasses.replace(
        state,
        hands=tuple(tuple(LayStack(parse_cards(h)).cards) if h else () for h in hands),
        stock=parse_cards(stock) if stock else (),
        dice=dice,
        phase=phase,
        turn=turn,
    )


# --- the seed's sentences about stacks ---------------------------------------
SEED_STACKS = [
    # "A card with a rank of eight makes an eight and may be laid down by itself as a stack."
    ("8H", (3, 5), 1),
    # "a six and a two make an eight and may therefore be laid down together in a single stack."
    ("6H 2S", (3, 5), 1),
    # "A ten and a two, for example, can make eight by subtraction (or twelve by addition)."
    ("10H 2S", (3, 5), 1),
    ("10H 2S", (6, 6), 1),
    # "Aces count one, so a ten and two aces can also make eight (or twelve by addition)."
    ("10H AS AD", (4, 4), 1),
    ("10H AS AD", (6, 6), 1),
    # "a ten, a five, and a four cannot make eleven (10 + 5 - 4)"
    ("10H 5S 4D", (5, 6), 0),
    # "Jacks count 11 and queens count 12. So a queen and a five could make seven by subtraction."
    ("QH 5S", (3, 4), 1),
    ("JH", (5, 6), 1),
    ("QH", (6, 6), 1),
    # "a six and a king can make a twelve, because the king doubles the six.
    #  They can also make a three, because the king can halve the six instead."
    ("6H KS", (6, 6), 1),
    ("6H KS", (1, 2), 1),
    # "A queen, eight, and two kings can make a five"
    ("QH 8S KD KC", (2, 3), 1),
    # "an eight, king, and three (8 cut in half, plus three) cannot make seven"
    ("8H KS 3D", (3, 4), 0),
    # "multiple kings cannot double and halve in the same stack" (6 x 2 / 2 would be 6)
    ("6H KS KD", (2, 4), 0),
    ("QH KS KD", (6, 6), 0),
    # "makes a six with the two of clubs and the four of diamonds, this is a special stack
    #  that counts as two points."
    ("2C 4D", (2, 4), 2),
    ("4D 2C", (4, 2), 2),
    # a six made another way with the same dice is an ordinary stack
    ("5C AD", (2, 4), 1),
    ("AC 5D", (1, 5), 2),
    ("3C 3D", (3, 3), 2),
    ("3C 3D", (2, 4), 1),
]


@pytest.mark.parametrize(("cards", "dice", "points"), SEED_STACKS)
def test_the_seed_examples_of_stacks(cards, dice, points):
    assert stack_points(cards, dice) == points
    assert stack_points(parse_cards(cards), dice) == points  # Card objects too
    assert (stack_problem(cards, dice) is None) == (points > 0)
    assert (stack_shape(cards, dice) is None) == (points == 0)


def test_rulings_lone_cards_kings_alone_and_whole_halvings():
    """Ruling 2: a lone card of value T is a stack; Kings alone are not; every
    halving must leave a whole number."""
    assert stack_points("7H", (3, 4)) == 1
    assert stack_points("7H", (3, 5)) == 0
    assert stack_points("KH", (3, 5)) == 0
    assert stack_points("KH KS", (1, 1)) == 0
    assert stack_points("7H KS", (1, 3)) == 0  # 7 / 2 is not whole
    assert stack_points("6H KS KD", (1, 2)) == 0  # 6 / 2 = 3, 3 / 2 is not whole
    assert stack_points("AH KS KD KC", (4, 4)) == 1  # 1 x 2 x 2 x 2 = 8
    assert stack_points("QH 4S KD", (4, 4)) == 1  # (12 + 4) / 2 = 8
    assert stack_points("QH 4S KD", (1, 3)) == 1  # (12 - 4) / 2 = 4
    assert stack_points("", (3, 5)) == 0


def test_subtraction_is_the_largest_minus_all_the_others():
    """Ruling 2: by subtraction only (the largest minus all the others)."""
    assert stack_points("QH 2S 2D", (4, 4)) == 1  # 12 - 2 - 2
    assert stack_points("2S QH 2D", (4, 4)) == 1  # order of giving does not matter
    assert stack_points("5H 2S 2D", (4, 4)) == 0  # 5 - 2 - 2 = 1
    assert stack_points("5H 5S", (1, 1)) == 0  # 5 - 5 = 0 is no stack


def test_stack_shape_prints_the_explainers_expressions():
    assert stack_shape("QS 8H KD KC", (2, 3)).expression() == "(12 + 8) × ½ × ½ = 5"
    assert stack_shape("8H QS KD KC", (2, 3)).expression() == "(8 + 12) × ½ × ½ = 5"
    assert stack_shape("AH 10S AD", (4, 4)).expression() == "10 − 1 − 1 = 8"
    assert stack_shape("6H KS", (6, 6)).expression() == "6 × 2 = 12"
    assert stack_shape("6H KS", (1, 2)).expression() == "6 × ½ = 3"
    assert stack_shape("8H", (3, 5)).expression() == "8 on its own"  # not "8 = 8"
    shape = stack_shape("2C 4D", (2, 4))
    assert (shape.op, shape.points, shape.base, shape.value) == ("+", 2, 6, 6)
    shape = stack_shape("QH 5S", (3, 4))
    assert (shape.op, shape.values, shape.king_op) == ("−", (12, 5), None)
    shape = stack_shape("QS 8H KD KC", (2, 3))
    assert shape.king_op == "halve" and len(shape.kings) == 2 and shape.base == 20


@pytest.mark.parametrize(
    ("cards", "dice", "expected"),
    [
        ("10H 5S 4D", (5, 6), "10 + 5 − 4 mixes adding and subtracting"),
        ("KH KS", (3, 4), "Kings alone are not a stack"),
        ("6H 2S", (4, 5), "6 + 2 = 8 and 6 − 2 = 4, not 9"),
        ("7H KS", (1, 2), "7 ÷ 2 is not a whole number"),
        ("8H KS 3D", (3, 4), "11 ÷ 2 is not a whole number"),
        ("6H KS KD", (2, 4), "Kings in one stack must all double or all halve"),
        ("7H", (3, 5), "a lone 7 makes 7, not 8"),
        ("", (3, 5), "a stack needs at least one card"),
        ("JK", (3, 5), "not a Dice Stacks card"),
    ],
)
def test_stack_problem_says_why(cards, dice, expected):
    assert expected in stack_problem(cards, dice)


def test_bad_dice_and_cards_are_clear_errors():
    with pytest.raises(MathCardsError, match="1-6"):
        stack_points("8H", (0, 8))
    with pytest.raises(MathCardsError, match="two numbers"):
        best_stacks("8H", 8)
    with pytest.raises(MathCardsError, match="'8X'"):
        stack_points("8X", (3, 5))
    with pytest.raises(MathCardsError, match="no Jokers"):
        best_stacks("JK 8H", (3, 5))


# --- the turn --------------------------------------------------------------------
def test_roll_then_the_smaller_die_then_the_rest_or_stop():
    """"if a player rolls a 3 and a 5, he can draw either three or five cards ... he can
    draw the first three, then choose whether to draw two more or not." """
    state = position(["", ""], stock="2H 3H 4H 5H 6H 7H 8H 9H", phase="draw", dice=(5, 3))
    assert tuple(state.legal_actions()) == (Draw(3),)
    state = state.apply(Draw(3))
    assert state.hands[0] == LayStack(parse_cards("9H 8H 7H")).cards
    assert state.phase == "more"
    assert set(state.legal_actions()) == {DrawRest(2), StopDrawing()}
    five = state.apply(DrawRest(2))
    assert len(five.hands[0]) == 5 and five.phase == "stacks" and len(five.stock) == 3
    three = state.apply(StopDrawing())
    assert len(three.hands[0]) == 3 and three.phase == "stacks" and len(three.stock) == 5
    drawn = [e for e in five.events if isinstance(e, CardsDrawn)]
    assert [e.count for e in drawn] == [3, 2]


def test_equal_dice_need_no_second_choice():
    state = position(["", ""], stock="2H 3H 4H 5H 6H 7H 8H 9H", phase="draw", dice=(4, 4))
    state = state.apply(Draw(4))
    assert state.phase == "stacks" and len(state.hands[0]) == 4


def test_short_stock_draws_what_is_left():
    """"If there are not enough cards for the last player to draw all the cards he is
    permitted, he merely draws what cards are left and takes his turn." """
    state = position(["", "5C"], stock="2H 3H", phase="draw", dice=(3, 6))
    assert tuple(state.legal_actions()) == (Draw(2),)
    state = state.apply(Draw(2))
    assert state.phase == "stacks" and state.stock == ()
    state2 = position(["", "5C"], stock="2H 3H 4H 5H", phase="draw", dice=(3, 6))
    state2 = state2.apply(Draw(3))
    assert set(state2.legal_actions()) == {DrawRest(1), StopDrawing()}


def test_the_roll_uses_the_seeded_dice_and_records_them():
    state = DiceStacks(num_players=3).new_game(5)
    first = state.current_player
    state = state.apply(Roll())
    assert state.phase == "draw" and all(1 <= d <= 6 for d in state.dice)
    assert state.new_events == (DiceRolled(first, state.dice, (min(state.dice), max(state.dice))),)
    again = DiceStacks(num_players=3).new_game(5).apply(Roll())
    assert again.dice == state.dice


def test_laying_stacks_scores_and_none_is_allowed():
    """"the player would be 'making eights' and therefore play as many stacks of eight as
    he can (and wishes to), and then his turn is over." """
    state = position(["8H 6S 2D 10C 2C 9H", "5C"], stock="AH AS AD")
    legal = state.legal_actions()
    assert EndTurn() in legal  # none is allowed
    state = state.apply(LayStack(parse_cards("8H")))
    state = state.apply(LayStack(parse_cards("2D 6S")))
    state = state.apply(LayStack(parse_cards("10C 2C")))
    assert state.stack_points == (3, 0)
    laid = [e for e in state.events if isinstance(e, StackLaid)]
    assert [(e.target, e.points) for e in laid] == [(8, 1)] * 3
    state = state.apply(EndTurn())
    # "he keeps all unused cards in his hand ... Play passes to the player on the left."
    assert state.hands[0] == (Card("H", 9),) and state.current_player == 1
    assert state.phase == "roll" and state.dice is None
    assert state.new_events == (TurnEnded(0, 1),)


def test_a_special_stack_scores_two():
    """"the two of clubs and the four of diamonds ... a special stack that counts as two
    points." """
    state = position(["2C 4D", "5C"], stock="AH AS", dice=(2, 4))
    state = state.apply(LayStack(parse_cards("2C 4D")))
    assert state.stack_points == (2, 0)
    assert state.new_events[0].points == 2


def test_running_out_scores_a_point_turns_up_a_marker_and_gives_another_turn():
    """"A player gets an extra point if he runs out of cards in his hand. ... he turns up
    the next card on the stock pile and places it face up before him ... Then he rolls the
    dice again and takes a second turn." """
    state = position(["6H 2S", "5C"], stock="AH AS 9D")
    state = state.apply(LayStack(parse_cards("6H 2S"))).apply(EndTurn())
    assert state.run_outs == (1, 0) and state.scores == (2, 0)
    assert state.markers[0] == (Card("D", 9),) and state.stock == parse_cards("AH AS")
    assert state.current_player == 0 and state.phase == "roll"
    assert state.new_events == (TurnEnded(0, 0), RanOut(0, Card("D", 9)))
    assert Counter_of(state) == Counter_of(position(["6H 2S", "5C"], stock="AH AS 9D"))


def Counter_of(state):
    from collections import Counter

    return Counter(state.all_cards())


def test_the_game_ends_when_the_stock_is_empty_and_hands_count_against():
    """"When there are no remaining cards in the stock pile, the game is over. ... one point
    for each stack he has played, minus one point for each card left in his hand." """
    state = position(["6H 2S 9C 9D", "5C 4C 3C"], stock="", dice=(3, 5))
    state = dataclasses.replace(state, stack_points=(0, 2))
    state = state.apply(LayStack(parse_cards("6H 2S")))
    assert not state.is_over and state.scores == (1, 2)  # the standing, no hand penalty yet
    state = state.apply(EndTurn())
    assert state.is_over and state.current_player is None
    assert state.scores == (1 - 2, 2 - 3)
    assert state.winners == (0, 1)  # "Ties share the win." (ruling 6)
    assert state.new_events[-1] == GameEnded(None, (-1, -1))
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(Roll())


def test_running_out_on_the_last_card_still_scores_but_the_game_ends():
    """Chosen (engine docstring): the stock is empty at the end of the turn, so the game
    ends; the run-out point counts, with no marker left to turn up."""
    state = position(["8H", "5C"], stock="")
    state = state.apply(LayStack(parse_cards("8H"))).apply(EndTurn())
    assert state.is_over and state.scores == (2, -1)
    assert RanOut(0, None) in state.events


def test_the_first_player_rolls_highest_sum_and_ties_roll_again():
    """"Each player rolls two dice to determine who goes first; the player with the
    highest roll wins." Ruling 7: ties re-roll."""
    saw_tie = False
    for seed in range(60):
        state = DiceStacks(num_players=4).new_game(seed)
        (event,) = [e for e in state.events if isinstance(e, FirstPlayerRolls)]
        assert event.player is None
        last = event.rolls[-1]
        sums = {p: a + b for p, (a, b) in last}
        top = max(sums.values())
        assert [p for p, s in sums.items() if s == top] == [event.first_player]
        assert state.current_player == event.first_player == state.first_player
        for earlier, later in itertools.pairwise(event.rolls):
            high = max(a + b for _, (a, b) in earlier)
            tied = [p for p, (a, b) in earlier if a + b == high]
            assert len(tied) > 1 and [p for p, _ in later] == tied
            saw_tie = True
        assert len(event.rolls[0]) == 4
    assert saw_tie


def test_decks_one_per_two_players_by_default():
    """"A comfortable average game length can be achieved by using one deck per two
    players" (ruling 1: rounded up); no Jokers."""
    assert len(DiceStacks(num_players=2).deck()) == 52
    assert len(DiceStacks(num_players=3).deck()) == 104
    assert len(DiceStacks(num_players=8).deck()) == 208
    assert len(DiceStacks(num_players=4, decks=1).deck()) == 52
    assert not any(c.is_joker for c in DiceStacks(num_players=3).deck())
    state = DiceStacks(num_players=3).new_game(0)
    assert sorted(state.all_cards()) == sorted(DiceStacks(num_players=3).deck())
    assert all(h == () for h in state.hands)


@pytest.mark.parametrize(
    ("settings_", "message"),
    [
        ({"num_players": 1}, "2-8 players"),
        ({"num_players": 9}, "2-8 players"),
        ({"num_players": 2, "decks": 0}, "decks must be a whole number 1-8"),
        ({"num_players": 2, "decks": 2.5}, "decks must be"),
        ({"num_players": 2, "decks": True}, "decks must be"),
    ],
)
def test_settings_errors_say_what_is_allowed(settings_, message):
    with pytest.raises(SettingsError, match=message):
        DiceStacks(**settings_)


@pytest.mark.parametrize(
    ("state_args", "action", "reason"),
    [
        ({"phase": "roll", "dice": None}, LayStack(parse_cards("8H")), "roll the dice first"),
        ({"phase": "roll", "dice": None}, Draw(3), "roll the dice first"),
        ({"phase": "draw"}, Draw(5), "draw the smaller die's number first: 3 cards"),
        ({"phase": "draw"}, EndTurn(), "draw your cards first"),
        ({"phase": "more"}, DrawRest(5), "the rest is 2 cards (5 − 3)"),
        ({}, LayStack(parse_cards("7H")), "you do not hold 7♥"),
        ({"dice": (5, 6)}, LayStack(parse_cards("10C 5S 4D")), "10 + 5 − 4 mixes adding"),
        ({}, LayStack(parse_cards("6S 2D AC")), "6 + 2 + 1 = 9 and 6 − 2 − 1 = 3, not 8"),
        ({}, LayStack(parse_cards("8H 8H")), "you do not hold 8♥ that many times"),
        ({}, Roll(), "you have already rolled"),
        ({}, "lay eight", "not a Dice Stacks move"),
    ],
)
def test_illegal_actions_are_refused_with_the_rule_and_change_nothing(state_args, action, reason):
    state = position(["8H 6S 2D 10C 5S 4D AC", "5C"], stock="AH AS AD KS", **state_args)
    before = (state.to_json(), state.hands, state.stock, state.phase, state.stack_points)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert reason in info.value.reason
    assert (state.to_json(), state.hands, state.stock, state.phase, state.stack_points) == before


def test_observation_shows_only_your_own_hand():
    state = position(["8H 6S", "5C 4C 3C"], stock="AH AS")
    view = state.observation(1)
    assert view.hand == state.hands[1] and view.hand_sizes == (2, 3)
    assert view.stock_size == 2 and view.dice == (3, 5) and view.phase == "stacks"
    text = repr(view)
    assert "'8H'" not in text and "'6S'" not in text  # player 0's cards are hidden
    assert "'5C'" in text


def test_lay_stack_is_canonical_and_reads_in_players_words():
    assert LayStack(parse_cards("2S 6H")) == LayStack(parse_cards("6H 2S"))
    assert LayStack(("KS", "8H", "QD")).cards == parse_cards("QD 8H KS")
    assert str(LayStack(parse_cards("6H 2S"))) == "lay 6♥ 2♠ as a stack"
    assert str(Draw(3)) == "draw 3 cards" and str(DrawRest(1)) == "draw 1 more card"


# --- the lazy legal actions ------------------------------------------------------
def brute_force_stacks(hand, dice):
    found = set()
    for n in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, n):
            if stack_points(combo, dice):
                found.add(LayStack(combo))
    return found


hands = st.lists(st.sampled_from(TWO_DECKS), min_size=0, max_size=9)
dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands, dice=dice_st)
def test_the_lazy_legal_stacks_are_exactly_the_brute_force_ones(hand, dice):
    state = position([" ".join(map(str, hand)), "5C"], stock="AH", dice=dice)
    legal = state.legal_actions()
    listed = list(legal)
    assert listed[-1] == EndTurn()
    stacks = listed[:-1]
    assert len(stacks) == len(set(stacks)), "each stack once"
    assert set(stacks) == brute_force_stacks(hand, dice)
    assert len(legal) == len(listed)
    assert [legal[i] for i in range(len(legal))] == listed
    assert all(a in legal for a in listed)


@settings(max_examples=200, deadline=None)
@given(hand=hands, dice=dice_st, data=st.data())
def test_membership_agrees_with_stack_points(hand, dice, data):
    state = position([" ".join(map(str, hand)), "5C"], stock="AH", dice=dice)
    legal = state.legal_actions()
    picked = data.draw(st.lists(st.sampled_from(TWO_DECKS), min_size=1, max_size=5))
    subset = data.draw(st.lists(st.sampled_from(hand), max_size=len(hand))) if hand else []
    for cards in (picked, subset):
        if not cards:
            continue
        action = LayStack(tuple(cards))
        held = all(hand.count(c) >= cards.count(c) for c in cards)
        assert (action in legal) == (held and stack_points(cards, dice) > 0)


# --- the exact solver --------------------------------------------------------------
def brute_force_best(hand, dice):
    """Best points over every way to split the hand into disjoint stacks (exhaustive)."""
    cards = list(hand)
    memo = {}

    def best(rest):
        if not rest:
            return 0
        key = tuple(sorted(map(str, rest)))
        if key in memo:
            return memo[key]
        first, others = rest[0], rest[1:]
        top = best(others)  # the first card is left in hand
        for n in range(len(others) + 1):
            for combo in itertools.combinations(range(len(others)), n):
                stack = [first] + [others[i] for i in combo]
                points = stack_points(stack, dice)
                if points:
                    left = [c for i, c in enumerate(others) if i not in combo]
                    top = max(top, points + best(left))
        memo[key] = top
        return top

    return best(cards)


def check_best(hand, dice):
    hand = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    stacks = best_stacks(hand, dice)
    used = [c for s in stacks for c in s]
    for card in set(used):
        assert used.count(card) <= list(hand).count(card), "stacks must be disjoint"
    assert all(stack_points(s, dice) > 0 for s in stacks)
    return sum(stack_points(s, dice) for s in stacks)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.lists(st.sampled_from(TWO_DECKS), min_size=0, max_size=12), dice=dice_st)
def test_best_stacks_is_optimal_against_brute_force(hand, dice):
    assert check_best(hand, dice) == brute_force_best(hand, dice)


@pytest.mark.parametrize(
    ("hand", "dice", "points"),
    [
        ("QD 8C KH KS", (2, 3), 1),  # "A queen, eight, and two kings can make a five"
        ("2C 4D 6H", (2, 4), 3),  # special stack + a lone six
        ("10H 2S AS AD", (4, 4), 1),  # two ways to make 8 share the ten
        ("6H 2S 8C 8D 10S 2H", (3, 5), 4),
        ("10S 5H 4D", (5, 6), 0),
        ("", (1, 1), 0),
    ],
)
def test_best_stacks_known_hands(hand, dice, points):
    assert check_best(hand, dice) == points


def test_best_stacks_matches_the_plain_search_on_big_hands():
    rng = random.Random(7)
    for size in (20, 26):
        for _ in range(4):
            hand = rng.sample(TWO_DECKS, size)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            counts = [0] * 13
            for c in hand:
                counts[c.rank - 1] += 1
            assert check_best(hand, dice) == plain_memo_best(counts, dice)


# --- bots and whole games ------------------------------------------------------------
def test_the_strong_bot_lays_the_best_stacks_one_at_a_time():
    state = position(["QD 8C KH KS 3S 2H 9D", "5C"], stock="AH AS AD", dice=(2, 3))
    view = state.observation(0)
    first = strong_policy(view, state.legal_actions(), random.Random(0))
    assert first == LayStack(parse_cards("3S 2H"))
    state = state.apply(first)
    second = strong_policy(state.observation(0), state.legal_actions(), random.Random(0))
    assert second == LayStack(parse_cards("QD 8C KH KS"))
    state = state.apply(second)
    assert strong_policy(state.observation(0), state.legal_actions(), random.Random(0)) == EndTurn()


def test_the_strong_bot_stops_drawing_when_its_hand_can_run_out():
    stock = "AH AS AD 2C 3C 4C 5S 6S 7S 8S"
    can_run_out = position(["6H AS", "5C"], stock=stock, phase="more", dice=(1, 6))
    view = can_run_out.observation(0)
    assert strong_policy(view, can_run_out.legal_actions(), random.Random(0)) == StopDrawing()
    stuck = position(["6H 2S", "5C"], stock=stock, phase="more", dice=(1, 6))
    view = stuck.observation(0)
    assert strong_policy(view, stuck.legal_actions(), random.Random(0)) == DrawRest(5)


def test_strong_bots_beat_random_bots_on_average():
    game = DiceStacks(num_players=2, decks=1)
    margin = 0
    for seed in range(12):
        final = play_game(game, seed, ["strong", "random"])
        margin += final.scores[0] - final.scores[1]
    assert margin > 0


def test_a_saved_game_replays_exactly():
    game = DiceStacks(num_players=3)
    final = play_game(game, 11, "random")
    again = State.from_json(final.to_json())
    assert again == final and again.events == final.events
    assert Bot("dice_stacks", "strong").choose(game.new_game(3)) == Roll()
