"""Every printed equation of thousands of bot games equals the engine's own number.

Each move is explained as the widgets do it (``explain_move``); every step's
equation is read back with sympy (plain text and ``.doit()``) and compared
with the number in the engine's event. Counts make sure nothing is skipped.
"""

from __future__ import annotations

import importlib
import os
from collections import Counter

import pytest

from mathcards.bots import Bot
from mathcards.explain import (
    CaptureStep,
    Chain,
    JokerRemoval,
    SignedAddition,
    StackExpression,
    explain_move,
)
from mathcards.games.registry import get_game_class
from tests.registered import explained_games

from .checks import check_steps

# Seeds per game: a quick run on every test run, a thousand more in the slow run
# (MATHCARDS_EXPLAIN_GAMES changes the slow count).
QUICK_GAMES = 200
SLOW_GAMES = int(os.environ.get("MATHCARDS_EXPLAIN_GAMES", "1000"))


def _cross_check(name: str, events, steps, tally: Counter) -> None:
    """The steps carry the numbers of the events, one step per arithmetic event."""
    kinds = [type(e).__name__ for e in events]
    if name == "suns_to_moons":
        plays = [s for s in steps if isinstance(s, SignedAddition)]
        played = [e for e in events if type(e).__name__ == "CardPlayed"]
        assert len(plays) == len(played)
        for step, ev in zip(plays, played, strict=True):
            assert step.equation.value == ev.after == ev.before + ev.contribution
            assert step.contribution == ev.contribution and step.before == ev.before
        jokers = [s for s in steps if isinstance(s, JokerRemoval)]
        assert len(jokers) == kinds.count("JokerPlayed")
        for ev in (e for e in events if type(e).__name__ == "RoundWon"):
            chain = next(s for s in steps if isinstance(s, Chain))
            assert chain.terms == tuple(ev.counted) and chain.value == ev.goal
            # a sum when two or more cards still count; one card is said in words
            assert (chain.equation is None) == (len(chain.terms) < 2)
            assert chain.equation is None or chain.equation.value == ev.goal
            tally["chains"] += 1
        tally["signed additions"] += len(plays)
        tally["jokers"] += len(jokers)
    elif name == "sums":
        captures = [s for s in steps if isinstance(s, CaptureStep)]
        for ev in events:
            kind = type(ev).__name__
            if kind == "Captured":
                step = next(s for s in captures if s.stage == "capture")
                assert step.target == ev.card and abs(step.equation.value) == ev.card.rank
                tally["captures"] += 1
            elif kind == "Countered":
                step = next(s for s in captures if s.stage == "counter")
                assert step.target == ev.target and abs(step.equation.value) == ev.target.rank
                tally["counters"] += 1
    elif name == "dice_stacks":
        stacks = [s for s in steps if isinstance(s, StackExpression)]
        laid = [e for e in events if type(e).__name__ == "StackLaid"]
        assert len(stacks) == len(laid)
        for step, ev in zip(stacks, laid, strict=True):
            assert step.target == ev.target
            # a card alone is said in words ("8♠ makes 8 on its own"), never "8 = 8"
            assert (step.equation is None) == (len(ev.cards) == 1)
            assert step.equation is None or step.equation.value == ev.target
            assert step.points == ev.points
            assert Counter(step.cards) == Counter(ev.cards)
        tally["stacks"] += len(stacks)
        tally["kings"] += sum(s.kings for s in stacks)
        tally["special stacks"] += sum(s.points == 2 for s in stacks)


def play_and_check(name: str, seed: int, kinds: tuple[str, ...], tally: Counter,
                   settings: dict | None = None) -> None:
    game = get_game_class(name)(**(settings or {}))
    bots = [Bot(name, kinds[i % len(kinds)], seed * 101 + i) for i in range(game.num_players)]
    state = game.new_game(seed)
    moves = 0
    while not state.is_over:
        state, steps = explain_move(state, bots[state.current_player].choose(state))
        tally["equations"] += check_steps(steps, sympify=False)
        _cross_check(name, state.new_events, steps, tally)
        moves += 1
        assert moves < 20_000, f"{name} seed {seed} does not end"
    tally["moves"] += moves
    tally["games"] += 1


def _settings(name: str, seed: int) -> dict:
    players = 2 + seed % 3
    if name == "suns_to_moons":
        # shorter games (target 3) so a thousand of them stay quick; every rule still runs
        return {"num_players": players, "target_score": 3}
    return {"num_players": players}


def _run(name: str, seeds: range) -> Counter:
    try:
        importlib.import_module(f"mathcards.games.{name}")
    except ModuleNotFoundError:
        pytest.skip(f"the {name} engine is not written yet")
    tally: Counter = Counter()
    for seed in seeds:
        kinds = ("strong", "random") if seed % 2 else ("random",)
        play_and_check(name, seed, kinds, tally, _settings(name, seed))
    assert tally["games"] == len(seeds)
    assert tally["equations"] > len(seeds)  # many checked equations per game, not a handful
    if name == "suns_to_moons":
        assert tally["chains"] >= len(seeds) and tally["jokers"] > 0
    elif name == "sums":
        assert tally["captures"] > 0 and tally["counters"] > 0
    else:
        assert tally["stacks"] > len(seeds) and tally["kings"] > 0
        assert tally["special stacks"] > 0
    return tally


NAMES = explained_games()  # every game with an explainer of its own


@pytest.mark.parametrize("name", NAMES)
def test_every_equation_of_bot_games_is_the_engines_number(name):
    _run(name, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_equation_of_a_thousand_more_bot_games(name):
    _run(name, range(QUICK_GAMES, QUICK_GAMES + SLOW_GAMES))
