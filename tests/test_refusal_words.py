"""A refused move is worded in one place: ``mathcards.explain.refusal_words``.

The engine gives the rule (``State.reason_refused``, each engine's ``why_illegal``); one
function turns it into what the student reads, with the explainer's arithmetic. The table's
refusals, the views' card tooltips (a trick game's too) and the rooms say exactly its words,
and no other module of mathcards/ or widgets/ asks the engine for a refusal's words or
formats the explainer's refusal on its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mathcards.explain import refusal_words
from mathcards.games.registry import make_game
from mathcards.games.suns_to_moons import Play, SunsToMoons, card_values
from mathcards.table import Refused, TableController
from mathcards.widgets import make_view

ROOT = Path(__file__).resolve().parents[1]
# the engine's words (reason_refused) and the explainer's refusal (.detail) are read by the
# one wording, and by the engine itself (check_legal's error) only
ASKS_ENGINE = re.compile(r"\.reason_refused\(|for \w+ in \w+\.detail")
ALLOWED = {"mathcards/explain/api.py", "mathcards/games/base.py"}


def test_no_other_module_words_a_refusal():
    found = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in ("mathcards", "widgets", "examples")
        for path in (ROOT / folder).rglob("*.py")
        if ASKS_ENGINE.search(path.read_text(encoding="utf-8"))
        and path.relative_to(ROOT).as_posix() not in ALLOWED)
    assert found == [], f"these word a refusal themselves: {found}"


def _refused_sign(state):
    """A Suns to Moons play of the person's hand the ±10 bound refuses (with arithmetic)."""
    for card in state.observation(state.current_player).hand:
        for play in (Play(card, sign, v) for sign in (1, -1) for v in card_values(card)):
            if not card.is_joker and not state.is_legal(play):
                return play
    return None


def test_the_table_and_the_card_tooltips_say_the_one_wording():
    for seed in range(60):
        ctl = TableController(make_view("suns_to_moons"), SunsToMoons(num_players=2),
                              seats=("human", "strong"), seed=seed, bot_delay=0, save=False)
        play = _refused_sign(ctl.state)
        if play is None:
            continue
        words = refusal_words(ctl.state, play)
        assert words and "(" in words, words  # the rule, and the arithmetic in brackets
        with pytest.raises(Refused) as refused:
            ctl.play(play)
        assert str(refused.value) == words
        return
    pytest.fail("no seed deals a refused sign")


def test_a_trick_games_card_tooltip_is_the_one_wording():
    view = make_view("shoot_the_moon")
    state = make_game("shoot_the_moon", num_players=4).new_game(3)
    for _move in range(40):
        if state.current_player is not None and view.card_phase(state):
            hand = state.observation(state.current_player).hand
            refused = [c for c in hand if not state.is_legal(view.card_play(state, c))]
            if refused:
                card = refused[0]
                assert view.card_refusal(state, card) == refusal_words(
                    state, view.card_play(state, card))
                return
        state = state.apply(state.legal_actions()[0])
    pytest.fail("no card of a hand was refused in 40 moves")
