"""Every question a table would ask a person, over seeded bot games: each has a skill of
``mathcards.skills.SKILLS``, reads back as its own answer, and its expected answer is
the explainer's number, checked with sympy (``tests/explain/checks.py``).

The 1,000 games of each game (the slow mark) check every question's equation with plain
integers, which is equivalent (the value of the explainer's own expression tree and an
exact read-back of its printed text must both be the expected answer) and with sympy on
a sample: every equation of the first ``SYMPY_GAMES`` games and one question in
``SYMPY_EVERY`` after them. Their bots are the cheap random ones (a strong one in one
game of ``STRONG_EVERY``). ``benchmarks/`` measures speed; this keeps each game's 1,000
under about a minute here.

At each move of a game played by bots, the questions of that move are generated as if
a person sat at every seat: the one asked before the move is laid (``before_move``),
the one about the move just made (``after_move``: a roll) and the follow question the
other players would be asked (``follow=True``).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from mathcards.asking import Question
from mathcards.asking.registry import asker_for
from mathcards.bots import Bot
from mathcards.explain import explain_events
from mathcards.explain.steps import DeckJump
from mathcards.explain.terms import Equation, text_of, value_of
from mathcards.games.parts import part_path
from mathcards.games.registry import game_spec, get_game_class
from mathcards.skills import SKILLS
from tests.explain.checks import check_equation, exact_read_back
from tests.registered import asking_games

QUICK_GAMES = 60
SLOW_GAMES = int(os.environ.get("MATHCARDS_ASKING_GAMES", "1000"))
SYMPY_GAMES = 20  # the slow run's first games: every equation checked with sympy too
SYMPY_EVERY = 50  # after them, one question in 50 (seeded) checked with sympy too
STRONG_EVERY = 20  # the slow run: a strong bot in one game of 20

_read: dict[Equation, None] = {}


def _integer_check(eq: Equation, expected: int) -> None:
    """The explainer's equation is the expected number, with integers only: the value of
    its expression tree and an exact read-back of its printed text (no sympy)."""
    assert eq.value == expected, (text_of(eq), expected)
    if eq in _read:
        return
    lhs_text, value_text = text_of(eq).split(" = ")[:2]
    assert value_of(eq.lhs) == expected, lhs_text
    assert exact_read_back(lhs_text) == expected == exact_read_back(value_text), lhs_text
    _read[eq] = None


def _check_number(eq: Equation, expected: int, sympy_too: bool) -> None:
    if sympy_too:
        check_equation(eq, expected)
    else:
        _integer_check(eq, expected)


def _check_question(name: str, module, question: Question, before, after,
                    tally: Counter, sympy_too: bool = True) -> None:
    assert question.skill in SKILLS, question
    assert question.game == name
    # the prompt never states the result ("= 8", "making 8s", the claim itself)
    assert f"= {question.expected}" not in question.prompt
    assert f"making {question.expected}" not in question.prompt
    assert question.kind != "capture" or " = " not in question.prompt
    given = module.read_answer(question, str(question.expected))
    assert given == question.expected, (given, question)
    assert module.check(question, given)
    steps = module.explain(question, before, after)
    if steps is None:  # the table shows the explainer's steps of the move itself
        steps = [s for s in explain_events(before, after) if isinstance(s, DeckJump)]
    step = steps[0]
    tally[f"skill {question.skill}"] += 1
    tally["follow" if question.follow else "own"] += 1
    if question.kind == "number" and step.equation is None:
        # a card laid alone: said in words ("8♠ makes 8 on its own"), never "8 = 8"
        assert step.alone and step.target == question.expected, step
        tally["number questions"] += 1
        tally["cards alone"] += 1
    elif question.kind == "number":
        # the explainer's equation for the question, its value the expected answer
        _check_number(step.equation, question.expected, sympy_too)
        tally["number questions"] += 1
        tally["sympy-checked"] += sympy_too
    elif question.expected == "none":
        # no way of the capture rule: the engine captured nothing
        assert question.ways == ("none",)
        assert question.way is None
        tally["no capture"] += 1
    elif question.kind == "stack":
        # a stack's way (adding, taking away, the Kings'): the explainer's step of the
        # stack makes the dice total, and another way is right only if it makes it too
        _check_number(step.equation, sum(question.dice), sympy_too)
        other = "taking away" if question.expected.startswith("adding") else "adding"
        kings = question.expected.partition(", ")[2]
        said = module.read_answer(question, f"{other}, {kings}" if kings else other)
        assert module.check(question, said) == (
            module.module._made(question, said) == sum(question.dice))
        tally["stacks"] += 1
    else:
        way = question.way
        assert way is not None and question.expected in question.ways
        _check_number(step.equation, way.result, sympy_too)
        tally["sympy-checked"] += sympy_too
        assert abs(way.value) == way.result == way.target.rank
        assert question.expected.startswith(way.target.symbol + " = ")
        # the claim ends with the number the sum or difference makes: a wrong one is wrong
        assert question.expected.endswith(f" = {way.result}")
        wrong = question.expected.rsplit(" = ", 1)[0] + f" = {way.result + 1}"
        assert not module.check(question, module.read_answer(question, wrong))
        tally["captures"] += 1
    if question.kind == "number":  # a wrong number is refused as wrong
        assert not module.check(question, int(question.expected) + 1)


def _play(name: str, seed: int, tally: Counter, *, slow: bool = False) -> None:
    """One seeded bot game; ``slow``: one of the 1,000 (cheap bots, sympy on a sample)."""
    module = asker_for(name)
    sample = random.Random(seed)
    players = 2 + seed % 3
    settings = {"num_players": players}
    if name == "suns_to_moons":
        settings["target_score"] = 3
    game = get_game_class(name)(**settings)
    # Sums: cheap random bots (a strong one in every tenth game); Dice Stacks: a random
    # bot lays few stacks and its games run longer, so half its games have a strong one
    every = STRONG_EVERY if slow else 2 if name == "dice_stacks" else 10
    kinds = ("strong", "random") if seed % every == 1 else ("random",)
    bots = [Bot(name, kinds[i % len(kinds)], seed * 101 + i) for i in range(players)]
    state = game.new_game(seed)
    moves = 0
    first = seed < QUICK_GAMES + SYMPY_GAMES

    def sympy_too(rng: random.Random) -> bool:
        return not slow or first or rng.randrange(SYMPY_EVERY) == 0

    while not state.is_over:
        seat = state.current_player
        action = bots[seat].choose(state)
        asked = module.before_move(state, action, seat)
        after = state.apply(action)
        if asked is not None:
            _check_question(name, module, asked, state, after, tally, sympy_too(sample))
        for follow in (False, True):
            asked_seat = (seat + 1) % players if follow else seat  # who is asked
            about = module.after_move(state, after, asked_seat, follow=follow)
            if about is not None:
                _check_question(name, module, about, state, after, tally, sympy_too(sample))
        state = after
        moves += 1
        assert moves < 20_000
    tally["games"] += 1


def _run(name: str, seeds: range, *, slow: bool = False) -> Counter:
    if not part_path(game_spec(name), "questions"):
        pytest.skip(f"the questions of {name} are not written yet")
    tally: Counter = Counter()
    for seed in seeds:
        _play(name, seed, tally, slow=slow)
    assert tally["games"] == len(seeds)
    assert tally["own"] > len(seeds) and tally["follow"] > len(seeds)
    if name == "dice_stacks":
        for skill in ("dice_sum", "stack_sum", "stack_difference", "double", "halve"):
            assert tally[f"skill {skill}"] > 0, skill
    elif name == "sums":
        assert tally["captures"] > 0 and tally["no capture"] > 0
        for skill in ("capture_sum", "capture_difference", "capture_spot"):
            assert tally[f"skill {skill}"] > 0, skill
    elif name == "moons_and_planets":
        assert tally["skill planet_sum"] > 0
    return tally


NAMES = asking_games()  # every table that asks


@pytest.mark.parametrize("name", NAMES)
def test_every_question_of_bot_games_has_a_skill_and_the_explainers_answer(name):
    _run(name, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_question_of_a_thousand_bot_games(name):
    tally = _run(name, range(QUICK_GAMES, QUICK_GAMES + SLOW_GAMES), slow=True)
    assert tally["sympy-checked"] >= 100  # the sample is checked with sympy too
