"""Each rule's one module, as docs/architecture.md "Where each rule lives" names it.

The engines are packages (rules, actions, events, state, notation, bot...): one
short test per rule imports the module that holds it, checks it on a seed
example, and checks that the package and the modules that ask it use that very
object (so a second copy cannot creep in after a move).
"""

from __future__ import annotations

import re

import pytest

from mathcards.cards import parse_cards
from mathcards.games import dice_stacks as ds
from mathcards.games import sums as su
from mathcards.games.dice_stacks import rule
from mathcards.table import GameView


# --- Dice Stacks ------------------------------------------------------------------------
def test_why_cards_are_not_a_stack_is_worded_in_the_rule_module():
    """Seed: "a ten, a five, and a four cannot make eleven (10 + 5 − 4)"."""
    from mathcards.games.dice_stacks import explain as explain

    assert rule.not_a_stack(parse_cards("10C 5S 4D"), (5, 6)) == (
        "10 + 5 − 4 mixes adding and subtracting: a stack only adds or only subtracts")
    assert ds.not_a_stack is rule.not_a_stack is explain.not_a_stack


# --- Sums ---------------------------------------------------------------------------------
def test_the_capture_way_lives_in_sums_rules():
    """Issue: 3♥ with a 9♥ captures 6♥: ``3 − 9 = −6``, written as a student computes it."""
    from mathcards.explain import steps
    from mathcards.games.sums import bot, rules, state
    from mathcards.games.sums import explain as explain

    (way,) = rules.capture_ways("3H", ["9H"], ["6H"])
    assert way.equation == "9 − 3 = 6"
    assert su.CaptureWay is rules.CaptureWay is steps.CaptureWay is explain.CaptureWay
    assert su.capture_ways is rules.capture_ways and su.why_no_capture is rules.why_no_capture
    assert state._ways is rules._ways is bot._ways  # the engine and the bot search one rule
    assert su.SumsState.captures_by is state.SumsState.captures_by


def test_sums_typed_moves_are_read_in_sums_notation():
    from mathcards.games.sums import notation
    from mathcards.widgets import sums as table

    assert su.parse_move is notation.parse_move
    # the table reads a typed move through GameView.parse_move: the engine's parser
    assert table.SumsView.parse_move is GameView.parse_move
    game = su.Sums(num_players=2).new_game(3)
    assert notation.parse_move(game, "draw 1") == su.Draw(0)
    assert table.SumsView().parse_move(game, "draw 1") == su.Draw(0)


# --- Suns to Moons ----------------------------------------------------------------------
def test_the_joker_and_counting_a_deck_live_in_suns_to_moons_rules():
    """The seed's third example, by its text (ruling 5)."""
    from mathcards.games import suns_to_moons as stm
    from mathcards.games.suns_to_moons import explain as explain
    from mathcards.games.suns_to_moons import rules
    from mathcards.widgets import suns_to_moons as table

    assert rules.count_deck([5, 13, None, -9]).running == (5, 18, 5, -4)
    assert rules.after_joker((5, 13)) == (5,)
    assert stm.count_deck is rules.count_deck is explain.count_deck is table.count_deck
    assert stm.after_joker is rules.after_joker


def test_the_bound_lives_in_rules_and_the_turn_options_in_turns():
    """The seed: deck 1 and nothing but Kings: −12 or +14 (no option stays within ±10)."""
    from mathcards.explain import steps
    from mathcards.games import suns_to_moons as stm
    from mathcards.games.suns_to_moons import rules, state, turns

    assert rules.BOUND == 10 and rules.within_bound(-10) and not rules.within_bound(11)
    assert stm.within_bound is rules.within_bound is steps.within_bound
    assert sorted({t.value_after for t in turns.legal_turns(["KS", "KH"], [1])}) == [-12, 14]
    assert stm.legal_turns is turns.legal_turns is state.legal_turns


def test_suns_to_moons_typed_moves_are_read_in_notation():
    from mathcards.exercises import fields
    from mathcards.games import suns_to_moons as stm
    from mathcards.games.suns_to_moons import notation
    from mathcards.widgets import suns_to_moons as table

    assert stm.parse_move is notation.parse_move is fields.parse_move
    assert table.SunsToMoonsView.parse_move is GameView.parse_move  # the engine's parser
    assert notation.move_text(notation.parse_move(None, "AH +14")) == "+AH=14"
    state = stm.SunsToMoons(num_players=2).new_game(4)
    for typed in ("+7H", "7H -", "AH +14", "joker", "end", "pass"):
        try:
            read = notation.parse_move(state, typed)
        except ValueError as exc:
            with pytest.raises(ValueError, match=re.escape(str(exc))):
                table.SunsToMoonsView().parse_move(state, typed)
        else:
            assert table.SunsToMoonsView().parse_move(state, typed) == read


def test_an_exercise_field_splits_a_list_of_cards_as_parse_cards_does():
    from mathcards.cards import parse_cards
    from mathcards.exercises.fields import read_cards

    text = " 7H;8S, 9D  10C,,QS "
    assert read_cards(text, "sums") == parse_cards(text) == parse_cards("7H 8S 9D 10C QS")


# --- exercise kinds: one module per game ------------------------------------------------
def test_each_kind_lives_in_its_games_module_and_the_registry_lists_them():
    from mathcards.exercises import kinds
    from mathcards.exercises.kinds import registry

    assert kinds.KINDS is registry.KINDS
    for name, kind in kinds.KINDS.items():
        assert type(kind).__module__ == f"mathcards.games.{kind.game}.exercises", name
    # the Suns to Moons kinds print numbers with the engines' own minus sign (one number(),
    # which the Dice Stacks rule writes its reasons with too)
    from mathcards.games import base
    from mathcards.games.dice_stacks import rule as dice_stacks_rule
    from mathcards.games.suns_to_moons import exercises as stm_kinds
    from mathcards.games.suns_to_moons import rules

    assert stm_kinds.number is base.number and stm_kinds.signed is rules.signed
    assert dice_stacks_rule.number is base.number and base.number(-14) == "−14"


# --- refusals: one wording, asked of the engine -----------------------------------------
def test_views_ask_the_engines_one_wording_of_a_refusal(monkeypatch):
    """Outside the engines a refusal is ``reason_refused`` (game over, not a move of this
    game, or the rule), never ``why_illegal`` alone."""
    from pathlib import Path

    import mathcards
    import mathcards.widgets
    from mathcards import explain
    from mathcards.games import suns_to_moons as stm
    from mathcards.table import GameView

    root = Path(mathcards.__file__).parent
    outside = [p for p in root.rglob("*.py") if "games" not in p.relative_to(root).parts]
    outside += list(Path(mathcards.widgets.__file__).parent.glob("*.py"))
    assert len(outside) > 30
    assert [p.name for p in outside if ".why_illegal(" in p.read_text()] == []

    def explainer_fails(state, action):
        raise RuntimeError("no explainer here")

    monkeypatch.setattr(explain, "why_not", explainer_fails)
    won = stm.SunsToMoons.position(parse_cards("3H 4S"), counted=[7, -10], goal=0)
    won = won.apply(stm.parse_move(won, "+3H"))
    assert won.is_over
    assert GameView().why_not(won, stm.parse_move(None, "-4S")) == "the game is over"
