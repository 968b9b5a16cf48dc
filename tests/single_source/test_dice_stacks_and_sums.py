"""Dice Stacks and Sums: each rule computed once, in its engine; the others ask it.

One short test per rule against the single implementation (the seed's
examples), then checks that the explainer, the table and the exercises go
through the engine (events, position constructors, move parsers).
"""

from __future__ import annotations

import dataclasses
import inspect
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathcards.exercises.kinds
from mathcards.cards import Card, parse_card, parse_cards
from mathcards.exercises.kinds import KINDS
from mathcards.explain import NotAStackError, stack_steps
from mathcards.games import dice_stacks as ds
from mathcards.games import sums as su
from mathcards.games.dice_stacks import explain as explain_ds
from mathcards.games.dice_stacks import rule
from mathcards.games.sums import explain as explain_su
from mathcards.widgets.dice_stacks import DiceStacksView
from mathcards.widgets.sums import SumsView


# --- the stack rule: one module ------------------------------------------------------
def test_rule_shape_seed_examples():
    """Seed: "a queen and eight make twenty; cutting twenty in half twice makes five"."""
    shape = rule.shape_of(parse_cards("QS 8D KH KC"), (2, 3))
    assert shape is not None
    assert (shape.op, shape.values, shape.base, shape.king_op) == ("+", (12, 8), 20,
                                                                   rule.KingOp.HALVE)
    assert shape.expression() == "(12 + 8) × ½ × ½ = 5"
    # "a ten and two aces can also make eight": the largest first when subtracting
    shape = rule.shape_of(parse_cards("AS 10H AD"), (3, 5))
    assert shape is not None and shape.expression() == "10 − 1 − 1 = 8"
    # "a six and a king can make a twelve"
    shape = rule.shape_of(parse_cards("6S KD"), (6, 6))
    assert shape is not None and shape.king_op is rule.KingOp.DOUBLE


def test_rule_points_special_stack():
    """Seed: a two and a four when the dice show 2 and 4 is a special stack: 2 points."""
    assert rule.counts_points(rule.counts(parse_cards("2C 4D")), (2, 4)) == 2
    assert rule.counts_points(rule.counts(parse_cards("3C 3D")), (1, 5)) == 1
    assert rule.counts_points(rule.counts(parse_cards("10S 5H 4D")), (5, 6)) == 0


def test_rule_why_not_seed_examples():
    """Seed: "10 + 5 − 4 mixes"; "kings cannot double and halve in the same stack"."""
    assert rule.why_not((10, 5, 4), 0, 11).mixed == ((10, 5), (4,))
    assert rule.why_not((6,), 2, 6).kings_split == (1, 1)
    assert rule.halvings(11, 1) == (None, 11, 0)
    assert rule.halvings(20, 2) == (5, None, 2)


def test_the_solver_and_engine_use_the_rule():
    import mathcards.games.dice_stacks.solver as solver

    assert solver.counts_points is rule.counts_points
    assert solver.king_bases is rule.king_bases
    assert ds.StackShape is rule.StackShape
    # the explainer has no arithmetic of its own any more
    for gone in ("_halvings", "_king_results", "_mixed_kings"):
        assert not hasattr(explain_ds, gone)


HANDS = st.lists(st.integers(min_value=1, max_value=13), min_size=1, max_size=6)
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=300, deadline=None)
@given(HANDS, DICE)
def test_one_wording_of_why_cards_are_not_a_stack(ranks, dice):
    """The engine's refusal, its ``stack_problem`` and the explainer's ``NotAStackError``
    all say the rule's ``not_a_stack``: one wording."""
    cards = [Card("SHDC"[i % 4], r) for i, r in enumerate(ranks)]
    in_stack_order = ds.LayStack(cards).cards
    wording = rule.not_a_stack(in_stack_order, dice)
    assert ds.stack_problem(cards, dice) == wording
    state = ds.DiceStacks(num_players=2).position(cards, dice)
    if wording is None:
        assert state.is_legal(ds.LayStack(cards))
        return
    assert state.why_illegal(ds.LayStack(cards)) == wording
    try:
        stack_steps(in_stack_order, dice)
    except NotAStackError as exc:
        assert exc.reason == wording
    else:
        raise AssertionError("the explainer made a stack the rule refuses")
    assert not hasattr(explain_ds, "_words") and not hasattr(ds, "_halving_words")


@settings(max_examples=300, deadline=None)
@given(HANDS, DICE)
def test_explainer_and_exercise_agree_with_the_engine_state(ranks, dice):
    """Laying the cards on a real state, the explainer's step and the exercise check
    say what the engine's event says."""
    cards = [Card("SHDC"[i % 4], r) for i, r in enumerate(ranks)]
    state = ds.DiceStacks(num_players=2).position(cards, dice)
    action = ds.LayStack(cards)
    result = KINDS["make_stacks"].check({"dice": dice, "hand": cards}, [cards])
    if not state.is_legal(action):
        try:
            stack_steps(cards, dice)
        except NotAStackError:
            pass
        else:
            raise AssertionError("the explainer made a stack the engine refuses")
        assert result.steps[0].reason == state.reason_refused(action)  # the engine's words
        return
    (laid,) = [e for e in state.apply(action).new_events if isinstance(e, ds.StackLaid)]
    assert laid.shape == rule.shape_of(laid.cards, dice)
    step = explain_ds.steps_for_events([laid])[0]
    assert (step.text, step.points) == (stack_steps(laid.cards, dice).text, laid.points)
    assert result.steps[0].text == step.text


@settings(max_examples=200, deadline=None)
@given(HANDS, DICE, st.lists(st.integers(0, 5), min_size=1, max_size=4))
def test_make_stacks_refuses_a_stack_with_the_engines_reason(ranks, dice, picks):
    """Stacks laid in turn (a card may be asked for twice): each refused one says what the
    engine says on the state it was laid on, the hand rule included."""
    hand = [Card("SHDC"[i % 4], r) for i, r in enumerate(ranks)]
    first = [hand[p % len(hand)] for p in picks]
    stacks = [first, hand[: len(hand) // 2 + 1]]
    result = KINDS["make_stacks"].check({"dice": dice, "hand": hand}, stacks)
    state = ds.DiceStacks(num_players=2).position(hand, dice)
    for stack, step in zip(stacks, result.steps, strict=True):
        action = ds.LayStack(stack)
        if state.is_legal(action):
            state = state.apply(action)
        else:
            assert step.reason == state.reason_refused(action), stack


@pytest.mark.parametrize(("phase", "stock"), [("DRAW", "AH AS AD KS"), ("DRAW", "AH AS"),
                                             ("MORE", "AH"), ("MORE", "AH AS AD KS")])
def test_the_tables_draw_count_is_the_engines(phase, stock):
    """Dice 3 and 5: the table says to draw what the engine's draw move draws (3, then 2
    more), fewer when the stock runs short."""
    state = dataclasses.replace(ds.DiceStacks(num_players=2).new_game(1), hands=((), ()),
                                stock=parse_cards(stock), dice=(3, 5),
                                phase=ds.Phase[phase], turn=0)
    (count,) = [a.count for a in state.legal_actions() if isinstance(a, ds.Draw | ds.DrawRest)]
    assert f"Draw {count} " in DiceStacksView().status(state, ("Ann", "Bob"))


@pytest.mark.parametrize(("stock", "said"), [
    ("AH AS AD KS 2H 3H", "draw 3 or 5 cards"),
    ("AH AS AD KS", "draw 3 or 4 cards, all the stock has"),
    ("AH AS", "draw 2 cards, all the stock has"),
    ("AH", "draw 1 card, all the stock has"),
])
def test_the_explainers_roll_says_the_engines_draw_counts(stock, said):
    """The roll's step prints the counts the engine put in its event, which are the draw
    moves the engine then allows (fewer than the dice when the stock runs short)."""
    state = dataclasses.replace(ds.DiceStacks(num_players=2).new_game(1), hands=((), ()),
                                stock=parse_cards(stock), turn=0)
    for seed in range(500):  # a seed whose first roll is 3 and 5 (in any order)
        rolled = dataclasses.replace(state, seed=seed).apply(ds.Roll())
        if sorted(rolled.dice) == [3, 5]:
            break
    else:
        pytest.fail("no seed below 500 rolls 3 and 5")
    (event,) = rolled.new_events
    (first,) = [a.count for a in rolled.legal_actions() if isinstance(a, ds.Draw)]
    assert event.draws[0] == first
    step = explain_ds.steps_for_events(rolled.new_events, names=("Ann", "Bob"))[0]
    assert step.sentence.endswith(said), step.sentence


@pytest.mark.parametrize(("phase", "dice"), [("ROLL", None), ("DRAW", (3, 5)), ("MORE", (3, 5))])
def test_a_card_the_dice_stacks_table_refuses_says_the_engines_reason(phase, dice):
    state = dataclasses.replace(ds.DiceStacks(num_players=2).new_game(1), dice=dice,
                                hands=(parse_cards("8H 2S"), ()), phase=ds.Phase[phase], turn=0)
    for card in state.hands[0]:
        assert DiceStacksView().card_refusal(state, card) == \
            state.reason_refused(ds.LayStack((card,)))
    words = inspect.getsource(DiceStacksView)  # the engine's words, not a copy of them
    assert "roll the dice first" not in words and "draw your cards first" not in words


def test_a_card_the_sums_table_refuses_says_the_engines_reason():
    seen = set()
    for seed in range(6):
        for state in _bot_states(su.Sums(num_players=2), seed):
            if state.phase not in (su.Phase.START, su.Phase.CHOOSE, su.Phase.COUNTER):
                continue
            for card in state.hands[state.actor]:
                move = su.Counter(card) if state.phase == su.Phase.COUNTER else su.Play(card)
                if not state.is_legal(move):
                    seen.add(state.phase)
                    assert SumsView().card_refusal(state, card) == state.reason_refused(move)
    assert {su.Phase.START, su.Phase.CHOOSE} <= seen


# --- Sums: the capture way ------------------------------------------------------------
def test_capture_way_sign_is_the_engines():
    """Issue: 3♥ with a 9♥ captures 6♥: ``3 − 9 = −6``, written as a student computes it."""
    (way,) = su.capture_ways("3H", ["9H"], ["6H"])
    assert (way.op, way.value) == ("-", -6)
    assert way.equation == "9 − 3 = 6"
    (way,) = su.capture_ways("7D", ["5D"], ["QD"])
    assert (way.op, way.value, way.equation) == ("+", 12, "7 + 5 = 12")


def test_events_carry_the_way_and_the_explainer_prints_it():
    state = su.Sums(num_players=2).position(["3H"], ["9H"], ["6H", "6S"])
    after = state.apply(su.Play(parse_card("3H")))
    captured = next(e for e in after.new_events if isinstance(e, su.Captured))
    assert captured.way.value == -6 and captured.way.helper == parse_card("9H")
    steps = explain_su.steps_for_events(after.new_events)
    capture = next(s for s in steps if getattr(s, "stage", "") == "capture")
    assert capture.value == captured.way.value


def _bot_states(game, seed, moves=200):
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            return
        yield state
        legal = list(state.legal_actions())
        state = state.apply(legal[rng.randrange(len(legal))])


def test_sums_hint_is_what_the_engine_does():
    """A hint's capture is what applying the move to the real state captures."""
    seen = 0
    for seed in range(12):
        for state in _bot_states(su.Sums(num_players=2), seed):
            hint = explain_su.hint(state, 3)
            if not hint.shown or state.phase != su.Phase.COUNTER:
                continue
            step = hint.shown[0]
            after = state.apply(su.Counter(step.played))
            (ev,) = [e for e in after.new_events if isinstance(e, su.Countered)]
            assert (ev.way.helper, ev.way.op, ev.way.target) == (step.helper, step.op,
                                                                 step.target)
            seen += 1
    assert seen


def test_find_capture_check_plays_on_a_real_state():
    kind = KINDS["find_capture"]
    position = {"played": parse_card("9H"), "own": parse_cards("2H 5S"),
                "opponent": parse_cards("7H 7S"), "hand": None}
    assert kind.check(position, "9H 7H").correct
    assert not kind.check(position, "9H 7S").correct


# --- one move parser and phases per game -----------------------------------------------
def test_the_tables_typed_box_is_the_engines_parser():
    state = ds.DiceStacks(num_players=2).position("10H AS AD", (3, 5))
    for text in ("lay 10H AS AD", "10H AS AD", "end", "roll"):
        assert DiceStacksView().parse_move(state, text) == ds.parse_move(state, text)
    assert ds.parse_move(state, "lay 10H AS AD") in state.legal_actions()
    sums = su.Sums(num_players=2).new_game(3)
    for text in ("draw 1", "play 7H", "decline", "end"):
        assert SumsView().parse_move(sums, text) == su.parse_move(sums, text)


def test_phases_are_enums():
    assert isinstance(ds.DiceStacks(num_players=2).new_game(1).phase, ds.Phase)
    assert isinstance(su.Sums(num_players=2).new_game(1).phase, su.Phase)


def test_events_name_the_seats():
    state = ds.DiceStacks(num_players=2).position("8S", (3, 5))
    laid = state.apply(ds.LayStack(parse_cards("8S"))).new_events[0]
    assert laid.describe(["Ann", "Bob"]) == "Ann laid 8♠: 8 on its own, 1 point."
    assert laid.describe().startswith("Player 1 laid")
    sums = su.Sums(num_players=2).position(["3H"], ["9H"], ["6H"])
    text = " ".join(e.describe(["Ann", "Bob"]) for e in
                    sums.apply(su.Play(parse_card("3H"))).new_events)
    assert "Ann captured Bob's 6♥ (9 − 3 = 6)" in text


# --- the game-over moment: the engine's scores -------------------------------------------
def _finished(game, seed):
    state, rng = game.new_game(seed), random.Random(seed)
    while not state.is_over:
        legal = list(state.legal_actions())
        before, state = state, state.apply(legal[rng.randrange(len(legal))])
    return before, state


def test_the_game_over_moment_prints_the_engines_scores(monkeypatch):
    """The moment adds up nothing of its own: with the engine's scores changed, its totals
    change with them (Dice Stacks: stacks + run-outs − cards left; Sums: by card points)."""
    from mathcards.moments import moment_for

    for game, state_type in ((ds.DiceStacks(num_players=2), ds.DiceStacksState),
                             (su.Sums(num_players=2), su.SumsState)):
        before, after = _finished(game, 5)
        truth = after.scores
        moment = moment_for(before, after, ("Ann", "Bob"), (0,))
        assert [line.rsplit("= ", 1)[1] for line in moment.lines[1:]] == \
            [str(s).replace("-", "−") for s in truth]
        monkeypatch.setattr(state_type, "scores", property(lambda s: (70, 71)))
        moment = moment_for(before, after, ("Ann", "Bob"), (0,))
        assert [line.rsplit("= ", 1)[1] for line in moment.lines[1:]] == ["70", "71"]


@pytest.mark.parametrize(("stage", "you", "said"), [
    ("capture", None, "Player 1 captures Player 2's Q♦ with 7♥ and 5♥"),
    ("capture", 0, "you capture their Q♦ with 7♥ and 5♥"),
    ("capture", 1, "they capture your Q♦ with 7♥ and 5♥"),
    ("threat", 0, "your 7♥ with 5♥ threatens their Q♦"),
    ("counter", 0, "you counter with 7♥ and 5♥: their Q♦ is threatened instead"),
])
def test_a_capture_is_worded_once_for_a_table_or_for_you(stage, you, said):
    """The explainer words a capture for the table's seats or for the student ("you"); the
    exercise asks it with ``you=0`` instead of rewriting its finished English."""
    from mathcards.exercises import Exercise
    from mathcards.explain.steps import CaptureStep

    step = CaptureStep(player=0, played=parse_card("7H"), helper=parse_card("5H"), op="+",
                       target=parse_card("QD"), target_owner=1, stage=stage, you=you)
    assert step.notes[0] == said
    right = Exercise("find_capture", played="7H", own="5H 2S", opponent="QD 9S 4C").check("QD")
    assert "you capture their Q♦ with 7♥ and 5♥" in right.text
    kinds = Path(mathcards.exercises.kinds.__file__).parent
    for module in kinds.glob("*.py"):
        assert '.replace("Player' not in module.read_text(), module.name
