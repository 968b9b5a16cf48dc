"""Sums: a capture as its sum or difference, the exceptions, counters, hints."""

from __future__ import annotations

import random

import pytest

from mathcards.bots import Bot
from mathcards.cards import parse_card
from mathcards.explain import CaptureStep, explain_move, hint
from mathcards.games import sums as engine

from .checks import check_steps


def _capture(played, helper, op, target, stage="capture"):
    return CaptureStep(player=0, played=parse_card(played), helper=parse_card(helper), op=op,
                       target=parse_card(target), target_owner=1, stage=stage)


class TestCaptureArithmetic:
    def test_sum_names_the_card(self):
        """Issue example: `7 + 5 = 12 = Q♦`."""
        step = _capture("7D", "5H", "+", "QD")
        assert step.text == "7 + 5 = 12 = Q♦"
        assert step.latex == r"7 + 5 = 12 = \mathrm{Q}\diamondsuit"
        assert "Player 1 captures Player 2's Q♦ with 7♦ and 5♥" in step.notes
        check_steps([step])

    def test_difference_puts_the_larger_card_first(self):
        """Seed: "...equals the value or negative of one of the cards": played 3, helper 9
        is written `9 − 3 = 6 = 6♥` (issue 14: the way a student computes it)."""
        step = _capture("3H", "9D", "-", "6H")
        assert step.text == "9 − 3 = 6 = 6♥"
        assert step.latex == r"9 - 3 = 6 = \mathrm{6}\heartsuit"
        assert "9 and 3 are 6 apart" in step.notes
        assert not any("negative" in note for note in step.notes)
        check_steps([step])

    def test_ace_only_to_a_queen(self):
        """Seed: "An opponent's Aces can only be removed by playing a Queen of the same color"."""
        step = _capture("QH", "JD", "-", "AH")
        assert step.text == "12 − 11 = 1 = A♥"
        assert "an Ace can be captured only with a Queen, and Q♥ is one" in step.notes

    def test_king_only_to_a_two(self):
        """Seed: "An opponent's Kings can only be removed by playing a 2 of the same color"."""
        step = _capture("2S", "JC", "+", "KS")
        assert step.text == "2 + 11 = 13 = K♠"
        assert "a King can be captured only with a 2, and 2♠ is one" in step.notes

    def test_counter_says_who_is_threatened_now(self):
        step = _capture("9S", "3S", "-", "6C", stage="counter")
        assert step.text == "9 − 3 = 6 = 6♣"
        assert "Player 1 counters with 9♠ and 3♠: Player 2's 6♣ is threatened instead" in (
            step.notes)

    def test_engine_ways_print_the_same_numbers(self):
        for way in engine.capture_ways("9H", ["2H", "5S", "QD"], ["7H", "3D", "AS"]):
            step = CaptureStep(player=0, played=way.played, helper=way.helper, op=way.op,
                               target=way.target, target_owner=1)
            assert abs(step.equation.value) == way.result
            check_steps([step])


# (played, own face-up helpers, opponent's face-up cards, the capture as written)
SEED_CAPTURES = [
    # issue 14's example: a 2♣ played beside 5♣ takes 3♣
    ("2C", ["5C"], ["3C"], "5 − 2 = 3 = 3♣"),
    # "plus OR minus any other card of the same color ... equals the value"
    ("3C", ["4C"], ["7C"], "3 + 4 = 7 = 7♣"),
    ("9H", ["2H"], ["7H"], "9 − 2 = 7 = 7♥"),
    # "... or negative of one of the cards": 2 − 9 is −7, written 9 − 2
    ("2H", ["9H"], ["7H"], "9 − 2 = 7 = 7♥"),
    # "An opponent's Aces can only be removed by playing a Queen of the same color"
    ("QH", ["JD"], ["AH"], "12 − 11 = 1 = A♥"),
    ("QD", ["KH"], ["AD"], "13 − 12 = 1 = A♦"),
    # "An opponent's Kings can only be removed by playing a 2 of the same color"
    ("2S", ["JC"], ["KS"], "2 + 11 = 13 = K♠"),
]


@pytest.mark.parametrize(("played", "own", "opponent", "written"), SEED_CAPTURES)
def test_seed_captures_are_written_as_a_student_computes_them(played, own, opponent, written):
    """A real engine position: the card is played, the engine's capture is explained."""
    state = engine.Sums(2).position([played], own, opponent)
    after, steps = explain_move(state, engine.Play(parse_card(played)))
    captured = [e for e in after.new_events if isinstance(e, engine.Captured)]
    assert len(captured) == 1
    step = next(s for s in steps if isinstance(s, CaptureStep))
    assert step.text == written
    assert step.equation.value == captured[0].way.result
    assert step.text.endswith(f"= {captured[0].card.symbol}")
    assert "−" not in step.text.split(" = ", 1)[1]  # nothing below zero on the right
    check_steps(steps)


def _play_until(kind: str, seed: int, limit: int = 400):
    """Play a bot game of Sums until an event of ``kind`` happens; return the steps."""
    game = engine.Sums(2)
    state = game.new_game(seed)
    bots = [Bot("sums", "strong", seed * 7 + i) for i in range(2)]
    for _ in range(limit):
        if state.is_over:
            return None
        state, steps = explain_move(state, bots[state.current_player].choose(state))
        if any(type(e).__name__ == kind for e in state.new_events):
            return state, steps
    return None


class TestFromGames:
    def test_a_capture_is_explained_by_the_events_numbers(self):
        for seed in range(40):
            found = _play_until("Captured", seed)
            if found:
                state, steps = found
                event = next(e for e in state.new_events if type(e).__name__ == "Captured")
                step = next(s for s in steps if isinstance(s, CaptureStep)
                            and s.stage == "capture")
                assert step.target == event.card and step.played == event.played
                assert abs(step.equation.value) == event.card.rank
                check_steps(steps)
                return
        raise AssertionError("no capture in 40 games")

    def test_a_counter_is_explained(self):
        for seed in range(200):
            found = _play_until("Countered", seed)
            if found:
                _state, steps = found
                step = next(s for s in steps if isinstance(s, CaptureStep))
                assert step.stage == "counter"
                check_steps(steps)
                return
        raise AssertionError("no counter in 200 games")

    def test_hints_name_a_real_capture(self):
        """Issue example: "your 9♠ captures their 6♠" at level 2; the step at level 3."""
        rng = random.Random(5)
        seen = 0
        for seed in range(60):
            state = engine.Sums(2).new_game(seed)
            bots = [Bot("sums", "random", seed + i) for i in range(2)]
            for _ in range(rng.randrange(3, 40)):
                if state.is_over:
                    break
                state = state.apply(bots[state.current_player].choose(state))
            if state.is_over or state.phase != engine.PLAY:
                continue
            full = hint(state, 3)
            if not full.children:
                continue
            step = full.children[0]
            me = state.current_player
            assert step.target in engine.capture_targets(
                step.played, state.sides[me], state.sides[step.target_owner])
            assert hint(state, 2).text.startswith(f"play your {step.played.symbol}")
            assert step.target.symbol not in hint(state, 2).text  # level 2: which card only
            assert full.text.startswith(f"play your {step.played.symbol}")
            assert f"captures their {step.target.symbol}" in full.text
            assert hint(state, 1).text.startswith("you can capture")
            check_steps([full])
            seen += 1
        assert seen >= 3


def test_hint_levels_differ_a_nudge_a_card_the_whole_capture():
    """Issue 14: level 1 a nudge, 2 which card, 3 the whole move and its sum (the issue's
    2♣ beside 5♣ taking 3♣)."""
    state = engine.Sums(2).position(["9D", "2C"], ["5C"], ["3C"])
    nudge, card, full = (hint(state, level) for level in (1, 2, 3))
    assert nudge.text == "you can capture one of Player 2's cards"
    assert card.text == "play your 2♣: it can capture"
    assert full.text == "play your 2♣: with your 5♣ it captures their 3♣"
    assert [s.text for s in full.children] == ["5 − 2 = 3 = 3♣"]
    assert "5 − 2 = 3 = 3♣" in full.spoken and "5 − 2" not in card.spoken
    check_steps([full])
