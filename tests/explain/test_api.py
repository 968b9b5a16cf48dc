"""The entry points the widgets call: explain_events, explain_move, why_not, hint."""

from __future__ import annotations

import itertools

import pytest

from mathcards.bots import Bot
from mathcards.errors import IllegalActionError
from mathcards.explain import (
    ExplainError,
    Fact,
    Refusal,
    SignedAddition,
    explain_deal,
    explain_events,
    explain_move,
    hint,
    spoken,
    why_not,
)
from mathcards.games.registry import get_game_class

from .checks import check_steps


def _moves(name: str, seed: int, count: int, **settings):
    game = get_game_class(name)(**settings)
    state = game.new_game(seed)
    bots = [Bot(name, "random", seed + i) for i in range(game.num_players)]
    states = [state]
    for _ in range(count):
        if state.is_over:
            break
        state = state.apply(bots[state.current_player].choose(state))
        states.append(state)
    return states


def test_several_actions_are_explained_in_play_order():
    states = _moves("suns_to_moons", 4, 12)
    one_by_one = [s.text for a, b in itertools.pairwise(states)
                  for s in explain_events(a, b)]
    at_once = [s.text for s in explain_events(states[0], states[-1])]
    assert at_once == one_by_one
    plays = [s for a, b in itertools.pairwise(states) for s in explain_events(a, b)
             if isinstance(s, SignedAddition)]
    # each play starts where the one before ended (the running value)
    for first, second in itertools.pairwise(plays):
        if first.after != second.before:
            assert any(type(e).__name__ in ("RoundStarted", "JokerPlayed")
                       for st in states for e in st.new_events)


def test_states_given_backwards_are_refused():
    states = _moves("sums", 1, 3)
    with pytest.raises(ExplainError, match="play order"):
        explain_events(states[-1], states[0])


def test_explain_move_applies_and_explains():
    state = get_game_class("sums")(num_players=2).new_game(3)
    action = next(iter(state.legal_actions()))
    after, steps = explain_move(state, action)
    assert after == state.apply(action)
    assert steps and all(s.text for s in steps)


def test_explain_move_refuses_illegal_moves_like_apply():
    from mathcards.games import sums

    state = get_game_class("sums")(num_players=2).new_game(3)
    with pytest.raises(IllegalActionError):
        explain_move(state, sums.Decline())


def test_why_not_gives_the_engines_reason():
    from mathcards.games import sums

    state = get_game_class("sums")(num_players=2).new_game(3)
    refusal = why_not(state, sums.Decline())
    assert isinstance(refusal, Refusal)
    assert refusal.reason == state.why_illegal(sums.Decline())
    assert refusal.text.startswith("let the capture happen is not allowed: ")


def test_deal_and_other_games_give_sentences():
    state = get_game_class("shoot_the_moon")(num_players=3).new_game(0)
    states = _moves("shoot_the_moon", 0, 5, num_players=3)
    steps = explain_events(states[0], states[-1])
    assert steps and all(isinstance(s, Fact) and s.text for s in steps)
    assert all(isinstance(s, Fact) for s in explain_deal(state))
    assert hint(state, 1).text.startswith("no hints for")


def test_spoken_joins_steps_for_a_live_region():
    states = _moves("suns_to_moons", 2, 3)
    steps = explain_events(states[0], states[-1])
    said = spoken(steps)
    assert all(s.spoken in said for s in steps)
    check_steps(steps)


@pytest.mark.parametrize("level", [1, 2, 3, "nudge", "card", "step"])
def test_hint_levels_for_suns_to_moons_games(level):
    for seed in range(30):
        for state in _moves("suns_to_moons", seed, 6)[1:]:
            if state.is_over:
                continue
            got = hint(state, level)
            assert got.text
            check_steps([got])
            if got.level == 3 and not got.text.endswith("pass"):
                assert got.children, got.text


def test_a_suns_hint_that_says_win_does_win():
    """Whenever the hint says the goal can be reached, its turn really wins the round."""
    from mathcards.games import suns_to_moons as stm
    from mathcards.games.suns_to_moons.explain import _turn_words

    checked = 0
    for seed in range(60):
        for state in _moves("suns_to_moons", seed, 30):
            if state.is_over or state.after_joker or not state.hands[state.turn]:
                continue
            text = hint(state, 3).text
            if not text.startswith("you can reach the goal"):
                continue
            turns = [t for t in state.turn_options()
                     if text == f"you can reach the goal with {_turn_words(t.plays)}"]
            assert turns, text
            for turn in turns:
                s = state
                for play in turn.plays:
                    s = s.apply(play)
                if any(isinstance(e, stm.GoalReached) for e in s.new_events):
                    checked += 1
                    break
            else:
                raise AssertionError(f"hint {text!r} does not win")
    assert checked >= 5
