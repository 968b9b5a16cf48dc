"""Each rule's one module, as docs/architecture.md "Where each rule lives" names it.

The engines are packages (rules, actions, events, state, notation, bot...): one
short test per rule imports the module that holds it, checks it on a seed
example, and checks that the package and the modules that ask it use that very
object (so a second copy cannot creep in after a move).
"""

from __future__ import annotations

from mathcards.cards import parse_cards
from mathcards.games import dice_stacks as ds
from mathcards.games import dice_stacks_rule as rule
from mathcards.games import sums as su


# --- Dice Stacks ------------------------------------------------------------------------
def test_why_cards_are_not_a_stack_is_worded_in_the_rule_module():
    """Seed: "a ten, a five, and a four cannot make eleven (10 + 5 − 4)"."""
    from mathcards.explain import dice_stacks as explain

    assert rule.not_a_stack(parse_cards("10C 5S 4D"), (5, 6)) == (
        "10 + 5 − 4 mixes adding and subtracting: a stack only adds or only subtracts")
    assert ds.not_a_stack is rule.not_a_stack is explain.not_a_stack


# --- Sums ---------------------------------------------------------------------------------
def test_the_capture_way_lives_in_sums_rules():
    """Issue: ``3 − 9 = −6``, the negative of 6♥."""
    from mathcards.explain import steps
    from mathcards.explain import sums as explain
    from mathcards.games.sums import bot, rules, state

    (way,) = rules.capture_ways("3H", ["9H"], ["6H"])
    assert way.equation == "3 − 9 = −6, the negative of 6"
    assert su.CaptureWay is rules.CaptureWay is steps.CaptureWay is explain.CaptureWay
    assert su.capture_ways is rules.capture_ways and su.why_no_capture is rules.why_no_capture
    assert state._ways is rules._ways is bot._ways  # the engine and the bot search one rule
    assert su.SumsState.captures_by is state.SumsState.captures_by


def test_sums_typed_moves_are_read_in_sums_notation():
    from mathcards.games.sums import notation
    from mathcards.widgets import sums as table

    assert su.parse_move is notation.parse_move is table.parse_move
    game = su.Sums(num_players=2).new_game(3)
    assert notation.parse_move(game, "draw 1") == su.Draw(0)
