"""Suns to Moons: each rule lives once, in the engine; the other modules ask it.

One short test per rule checks the single implementation on the seed's
examples; the others check that the explainer, the exercises, the deck
drawing and the typed-move box agree with the engine because they go through it.
"""

from __future__ import annotations

import inspect
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.cards import Card, parse_card, parse_cards
from mathcards.games import suns_to_moons as stm

SEED_1 = [11, -4, -2, 2, -10, 8, -5]  # "11(11) – 4(7) – 2(5) + 2(7) – 10(-3) + 8(5) – 5(0)"
# "7(7) – 10(-3) + 6(3) +6(9) – 4(5) – 13(-8) + 13(5) ~JOKER~ - 9(-4) +4(0) + 2(2)"
SEED_3 = [7, -10, 6, 6, -4, -13, 13, None, -9, 4, 2]


# --- the rules, each in one place -------------------------------------------------------
def test_joker_rule_removes_the_most_recent_counted_card():
    assert stm.after_joker((7, -10, 6)) == (7, -10)
    assert stm.after_joker(()) == ()  # a Joker as centre card removes nothing
    # ruling 5: by the text the Joker makes −8, not the seed's printed 5
    assert stm.count_deck(SEED_3).running == (7, -3, 3, 9, 5, -8, 5, -8, -17, -13, -11)
    # a second Joker removes the next card down
    assert stm.count_deck([5, 3, 4, None, None]).counted == (5,)
    assert stm.count_deck([None, 4]).running == (0, 4)


def test_bound_is_ten_either_way():
    assert [stm.within_bound(v) for v in (-11, -10, 0, 10, 11)] == [False, True, True, True,
                                                                  False]
    # the seed: deck 1 and nothing but kings: −12 or +14
    values = sorted({t.value_after for t in stm.legal_turns(["KS", "KH"], [1])})
    assert values == [-12, 14]


def test_seed_chain_reaches_its_goal():
    assert stm.count_deck(SEED_1).running[-1] == 0


def test_events_carry_the_counted_values_after_each_play():
    state = stm.SunsToMoons.position(parse_cards("JK 9S"), deck=_deck("7H -10S +6D"), goal=5)
    joker = state.apply(stm.JOKER_PLAY)
    (ev,) = [e for e in joker.new_events if isinstance(e, stm.JokerPlayed)]
    assert ev.counted == (7, -10) == stm.after_joker(state.counted)
    assert ev.removed_card == parse_card("6D") and ev.after == -3
    card = joker.apply(stm.Play(parse_card("9S"), 1, 9))
    (ev,) = [e for e in card.new_events if isinstance(e, stm.CardPlayed)]
    assert ev.counted == (7, -10, 9)


def test_position_is_a_real_engine_state():
    state = stm.SunsToMoons.position(parse_cards("3H 4S"), counted=[7, -10], goal=0)
    assert isinstance(state, stm.SunsToMoonsState)
    assert (state.deck_value, state.deck_size, state.goal) == (-3, 2, 0)
    assert state.phase is stm.Phase.TURN
    won = state.apply(stm.parse_move(state, "+3H"))
    assert won.is_over and won.phase is stm.Phase.OVER


@pytest.mark.parametrize("text, expected", [
    ("+7H", ("7H", 1, 7)), ("7H -", ("7H", -1, 7)), ("-10S", ("10S", -1, 10)),
    ("+ Q♠", ("QS", 1, 12)), ("AH +14", ("AH", 1, 14)), ("+AS=14", ("AS", 1, 14)),
    ("−7h", ("7H", -1, 7)),
])
def test_one_move_parser(text, expected):
    card, sign, value = expected
    assert stm.parse_move(None, text) == stm.Play(parse_card(card), sign, value)
    assert stm.parse_move(None, stm.move_text(stm.parse_move(None, text))) == \
        stm.parse_move(None, text)


@pytest.mark.parametrize("text, words", [("7H", "has no sign"), ("1+1", "is not a move"),
                                         ("+KX", "not a card"), ("AH +١٤", "is not a move")])
def test_move_parser_refuses_with_a_plain_line(text, words):
    with pytest.raises(stm.MoveTextError, match=words):
        stm.parse_move(None, text)


# --- the other modules go through the engine ----------------------------------------
def test_table_box_and_exercises_use_the_engine_parser():
    from mathcards.games.suns_to_moons.exercises import read_plays
    from mathcards.widgets.suns_to_moons import SunsToMoonsView

    table_state = stm.SunsToMoons(2).new_game(4)
    for text in ("+7H", "10S -", "JK", "+AS=14", "-QD"):
        engine = stm.parse_move(None, text)
        assert SunsToMoonsView().parse_move(table_state, text) == engine
        if " " not in text:  # an answer's plays are separated by spaces
            assert read_plays(text) == (engine,)


def test_no_module_of_the_slice_keeps_its_own_joker_rule_or_bound():
    from mathcards.exercises import fields, model
    from mathcards.explain import numberline
    from mathcards.games.suns_to_moons import exercises as kinds
    from mathcards.games.suns_to_moons import explain as explain
    from mathcards.widgets import exercises as practice_page
    from mathcards.widgets import lesson
    from mathcards.widgets import suns_to_moons as table

    assert not hasattr(explain, "MIN_DECK")
    assert not hasattr(kinds, "_SunsState")
    for source in (inspect.getsource(explain), inspect.getsource(fields),
                   inspect.getsource(table), inspect.getsource(lesson.suns_to_moons_example),
                   inspect.getsource(kinds.position_state), inspect.getsource(kinds.ReachGoal),
                   inspect.getsource(practice_page), inspect.getsource(model),
                   inspect.getsource(numberline)):
        assert "counted.pop()" not in source and "counted[:-1]" not in source
        assert not re.search(r"abs\([^)]*\)\s*<=\s*10|BOUND = ", source)
        assert not re.search(r"\(1, 14\) if", source)  # an Ace's values: card_values


def _deck(text: str) -> tuple[stm.Play, ...]:
    from mathcards.exercises.fields import read_deck

    deck = read_deck(text)
    assert isinstance(deck, tuple)
    return deck


# hypothesis: decks and answers, judged by the exercise and by the engine alike
_CARDS = [Card(s, r) for s in "HSDC" for r in range(1, 14)]
_cards = st.lists(st.sampled_from(_CARDS), min_size=1, max_size=5, unique=True)


@st.composite
def _decks(draw):
    cards = draw(st.lists(st.sampled_from(_CARDS), min_size=1, max_size=6, unique=True))
    plays = [stm.Play(cards[0], 1, cards[0].rank)]
    for card in cards[1:]:
        if draw(st.booleans()) and draw(st.booleans()):
            plays.append(stm.JOKER_PLAY)
        plays.append(stm.Play(card, draw(st.sampled_from((1, -1))), card.rank))
    return tuple(plays)


@settings(max_examples=60, deadline=None)
@given(_decks())
def test_deck_value_exercise_explainer_and_drawing_agree_with_the_engine(deck):
    from mathcards.exercises import Exercise
    from mathcards.games.suns_to_moons.explain import seed_record
    from mathcards.widgets.suns_to_moons import _deck_cards

    truth = stm.count_deck(stm.deck_terms(deck))
    text = " ".join([str(deck[0].card)] + [stm.move_text(p) for p in deck[1:]])
    assert Exercise("deck_value", deck=text).check(truth.value).correct
    record = seed_record(deck)
    assert record.rsplit("(", 1)[1].rstrip(")").replace("−", "-") == str(truth.value)
    removed = {i for i, _play, gone in _deck_cards(deck) if gone}
    counted_places = {i for i, p in enumerate(deck) if not p.is_joker} - removed
    assert tuple(sorted(counted_places)) == truth.places


@settings(max_examples=40, deadline=None)
@given(_cards, st.integers(-10, 10), st.lists(st.integers(0, 4), min_size=1, max_size=2))
def test_reach_goal_check_agrees_with_the_engine(hand, goal, picks):
    from mathcards.games.suns_to_moons.exercises import ReachGoal

    position = {"deck": _deck("7H -10S"), "counted": None, "hand": tuple(hand), "goal": goal,
                "most_plays": 2}
    state = stm.SunsToMoons.position(hand, deck=position["deck"], goal=goal)
    answer = []
    for pick in picks:  # legal first plays picked from the engine's own list
        plays = [a for a in state.legal_actions() if isinstance(a, stm.Play)]
        if state.is_over or not plays:
            break
        answer.append(plays[pick % len(plays)])
        state = state.apply(answer[-1])
        if stm.EndTurn() in state.legal_actions():
            state = state.apply(stm.END_TURN)
    if not answer:
        return
    result = ReachGoal().check(position, tuple(answer))
    assert result.correct == state.is_over


def test_reach_goal_measures_count_solutions_that_use_a_joker():
    """A solution of a Joker and a card used to crash the count (a str sorted with ints)."""
    from mathcards.exercises import Exercise

    variant = Exercise("reach_goal", deck="7H -10S", hand="3H 4S 9D JK 2C 5D 6H", goal=0,
                       most_plays=3).variant()
    measures = variant.kind.measures(variant.position)
    solutions = variant.kind.solutions(variant.position)
    assert any(any(p.is_joker for p in s) for s in solutions)
    assert measures["plays needed"] == 1 and 1 < measures["solutions"] <= len(solutions)


# --- a refused play says the engine's reason --------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*_CARDS, stm.JOKER]), min_size=1, max_size=4, unique=True),
       st.sampled_from([*_CARDS, stm.JOKER]), st.sampled_from((1, -1)), st.booleans())
def test_reach_goal_refuses_a_play_with_the_engines_reason(hand, card, sign, joker_first):
    """The exercise's refusal is ``reason_refused`` of the state it would play in: no
    wording of the hand, the ±10 bound or the Joker of its own."""
    from mathcards.explain.steps import Refusal
    from mathcards.games.suns_to_moons import exercises as kinds
    from mathcards.games.suns_to_moons.exercises import ReachGoal

    assert not hasattr(kinds, "_refuse_play")
    play = stm.JOKER_PLAY if card.is_joker else stm.Play(card, sign, card.rank)
    answer = (stm.JOKER_PLAY, play) if joker_first and stm.JOKER in hand else (play,)
    position = {"deck": _deck("7H -10S +6D"), "counted": None, "hand": tuple(hand),
                "goal": 10, "most_plays": 2}
    state = stm.SunsToMoons.position(hand, deck=position["deck"], goal=10)
    for first in answer[:-1]:
        state = state.apply(first)
        if state.is_legal(stm.END_TURN) and not state.is_legal(play):
            state = state.apply(stm.END_TURN)  # the exercise's one player plays on
    if state.is_over or state.is_legal(play):
        return
    result = ReachGoal().check(position, answer)
    (refusal,) = [s for s in result.steps if isinstance(s, Refusal)]
    assert refusal.reason == state.reason_refused(play)


# --- the refusals word the bound with the rules' one constant ---------------------------
def test_the_bound_in_the_engines_refusals_is_the_rules_bound():
    assert "±10" not in inspect.getsource(stm.SunsToMoonsState.why_illegal)
    state = stm.SunsToMoons.position(parse_cards("KS 2H"), deck=_deck("7H"), goal=0)
    reason = state.reason_refused(stm.Play(parse_card("KS"), 1, 13))
    assert reason.endswith(f"the deck must stay between −{stm.BOUND} and {stm.BOUND} "
                           "whenever another card can keep it there")


# --- the practice page's "the deck would be" ---------------------------------------------
@pytest.mark.parametrize("picks", [("JK", "+9C"), ("-9C", "JK"), ("JK", "JK", "-4S")])
def test_practice_page_deck_preview_counts_with_the_engine(picks):
    """At "Show me the sums" the page shows what the deck would be after the plays picked so
    far: the engine's
    deck value after them, Jokers included (no counting of its own)."""
    from mathcards.exercises import load_set_text

    text = ("title: Preview\nid: preview\nexercises:\n  - kind: reach_goal\n"
            "    deck: 7H -10S +6D\n    hand: JK 9C JK 4S\n    goal: 10\n    most_plays: 3\n")
    view = load_set_text(text, name="preview").show("ana", store=False, level="show")
    hand = [str(c) for c in view.variant.position["hand"]]
    state = stm.SunsToMoons.position(parse_cards("JK 9C JK 4S"), deck=_deck("7H -10S +6D"),
                                     goal=10)
    for pick in picks:
        play = stm.parse_move(None, pick)
        index = next(i for i, c in enumerate(hand) if c == str(play.card)
                     and i not in {j for j, _ in view._pending})
        view._pick_card(index)
        if not play.is_joker:
            next(b for b in view.w_signs.children[1:]
                 if b.description == stm.signed(play.contribution)).click()
        if state.is_legal(stm.END_TURN) and not state.is_legal(play):
            state = state.apply(stm.END_TURN)
        state = state.apply(play)
    assert f"the deck would be <b>{stm.number(state.deck_value)}</b>" in view.w_built.value


# --- the 3-card minimum of the goal -------------------------------------------------------
@pytest.mark.parametrize("deck", ["7H", "7H -4S", "7H -4S +2D"])
def test_goal_check_counts_with_the_engines_minimum(deck, monkeypatch):
    """The explainer's goal check says "a win" exactly when the engine scores the goal,
    and takes the minimum from the rules (ruling 6), not a 3 of its own."""
    from mathcards.explain import steps
    from mathcards.games.suns_to_moons.explain import play_steps

    state = stm.SunsToMoons.position(parse_cards("7C 3S 5D"), deck=_deck(deck), goal=0)
    play = next(p for p in state.legal_actions() if state.deck_value + p.contribution == 0)
    after = state.apply(play)
    (check,) = [s for s in play_steps(after.new_events) if isinstance(s, steps.GoalCheck)]
    assert check.counts == any(isinstance(e, stm.GoalReached) for e in after.new_events)
    monkeypatch.setattr(steps, "MIN_DECK_FOR_GOAL", check.deck_size + 1)
    assert not check.counts and f"needs {check.deck_size + 1} or more" in check.headline
