"""Safe in Voilà at "I count", Dice Stacks and Sums: while a question waits, no synced
widget field holds its answer where it did not before the question was asked.

Seeded games against bots, a person at seat 0 answering (sometimes wrong first), following
the others in every other game. After every move that leaves a question waiting, and
after every click while it waits (a claim's buttons), the whole synced tree is compared
with the tree just before the question was asked (``_fields``/``_leaks`` of
``tests/widgets/test_safety.py``): Dice Stacks' dice target and stack values, a Sums
claim's number and its target card. The target card is on the table before the claim (it
lies face up on an opponent's side) and the claim's buttons name every opponent's card of
the played card's colour alike: a leak is the target named more often than another of
those cards.
"""

from __future__ import annotations

import os
import random

import pytest

from mathcards.asking import COUNT
from mathcards.cards import parse_card
from mathcards.games.dice_stacks import Phase, best_stacks
from mathcards.games.sums import Counter as SumsCounter
from mathcards.games.sums import Play as SumsPlay
from mathcards.widgets.dice_stacks import dice_stacks_table
from mathcards.widgets.sums import sums_table
from tests.widgets.helpers import type_answer
from tests.widgets.test_safety import _fields, _leaks, _operands_print_it

GAMES = int(os.environ.get("MATHCARDS_SAFETY_GAMES", "200"))
QUICK = 8  # games walked in every run; the rest of the 200 under the slow mark
CHUNK = 24


def _table(make, seed: int, **settings):
    timers: list = []
    table = make(players=2 + seed % 2, seed=seed, bot_delay=1, save=False, level=COUNT,
                 schedule=lambda _delay, fn: timers.append(fn), **settings)
    table.ctl.set_follow(seed % 2 == 0)
    return table, timers


def _grown(before: dict, after: dict, symbol: str) -> int:
    """How many more times the fields name ``symbol``, field by field (a field that names
    it less, e.g. the last answer's words gone, offsets nothing)."""
    return sum(max(0, text.count(symbol) - before.get(key, "").count(symbol))
               for key, text in after.items())


def _claim_leaks(table, before: dict, after: dict, question) -> list[str]:
    """The claim's number in a field that did not hold it, or its target singled out."""
    found: list[str] = []
    way = question.way
    if way is None:
        return found
    found += _leaks(before, after, way.result)
    candidates = {parse_card(key.split(":", 2)[2]).symbol
                  for key, *_ in table.ctl.asking.answer_choices() if key.startswith("ans:t:")}
    assert way.target.symbol in candidates  # the right target is offered, among the others
    grown = {s: _grown(before, after, s) for s in candidates}
    target = way.target.symbol
    if grown and grown.get(target, 0) > min(grown.values()):
        found.append(f"the target {target} is named more than the other cards "
                     f"of its colour: {grown}")
    return found


def _check(table, before: dict, question, checked: list[int]) -> None:
    after = _fields(table)
    if question.kind == "capture":
        leaks = _claim_leaks(table, before, after, question)
    elif question.kind == "stack":  # no field prints what the cards make, nor which way
        leaks = [f"{key} prints a sum: {text[:80]}" for key, text in after.items()
                 if text.count(" = ") > before.get(key, "").count(" = ")]
        ways = {w: _grown(before, after, w) for w in ("adding", "taking away")}
        if ways["adding"] != ways["taking away"]:
            leaks.append(f"one way is named more than the other: {ways}")
    elif _operands_print_it(question):
        return
    else:
        leaks = _leaks(before, after, int(question.expected))
    assert not leaks, f"{question.prompt} (answer {question.expected}) leaks: {leaks[:3]}"
    checked[0] += 1


def _answer(table, rng: random.Random, before: dict, checked: list[int]) -> None:
    """Answer the waiting question as a student: a claim with its buttons and the number
    box, a number in the box; sometimes wrong first."""
    ctl, panel = table.ctl, table.asking_panel
    question = ctl.asking.pending.question
    wrong = rng.random() < 0.3
    if question.kind == "stack":  # how the cards make the total: its buttons
        op, _, kings = question.expected.partition(", ")
        keys = [("ans:op:-" if op == "adding" else "ans:op:+") if wrong else
                ("ans:op:+" if op == "adding" else "ans:op:-")]
        keys += ["ans:k:double" if "double" in kings else "ans:k:halve"] if kings else []
        for key in keys:
            if ctl.asking.pending is not None and key in table.choice_keys:
                table.choice_pool[table.choice_keys.index(key)].click()
                if ctl.asking.pending is not None and not ctl.asking.feedback:
                    _check(table, before, question, checked)  # a pick names nothing more
        return
    if question.kind != "capture":
        type_answer(panel, str(question.expected + (1 if wrong else 0)))
        return
    way = question.way
    if way is None or (wrong and rng.random() < 0.5):
        table.choice_pool[table.choice_keys.index("ans:none")].click()
        return
    for key in (f"ans:t:{way.target}", f"ans:h:{way.helper}", f"ans:op:{way.op}"):
        table.choice_pool[table.choice_keys.index(key)].click()
        _check(table, before, question, checked)  # a pick names nothing more
    type_answer(panel, str(way.result + (1 if wrong else 0)))


def _person_moves_dice_stacks(table, rng: random.Random) -> None:
    ctl = table.ctl
    state = ctl.state
    if state.phase == Phase.STACKS:
        stacks = best_stacks(ctl.hand(), state.dice)
        if stacks and rng.random() < 0.9:
            ctl.click_choice("clear")
            for card in stacks[0]:
                i = next(j for j, c in enumerate(ctl.hand())
                         if c == card and j not in ctl.selected)
                ctl.click_card(f"h{i}")
            ctl.click_choice("lay")
        else:
            ctl.click_choice("end")
        return
    keys = [c.key for c in ctl.offered_choices()]
    ctl.click_choice(rng.choice([k for k in keys if k in ("roll", "draw", "rest", "stop")]))


def _person_moves_sums(table, rng: random.Random) -> None:
    ctl = table.ctl
    legal = list(ctl.state.legal_actions())
    plays = [a for a in legal if isinstance(a, SumsPlay | SumsCounter)]
    action = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)
    ctl.play(action)


def _walk(make, person, seeds: range, **settings) -> int:
    checked = [0]
    for seed in seeds:
        table, timers = _table(make, seed, **settings)
        ctl = table.ctl
        rng = random.Random(seed)
        before: dict = {}
        for _ in range(5000):
            if table.state.is_over:
                break
            pending = ctl.asking.pending
            if pending is None and (ctl.acting_human() or ctl.asking.follow):
                before = _fields(table)  # the widgets before what may ask (a bot's move
                # asks only when following the others)
            if pending is not None:
                _answer(table, rng, before, checked)
            elif ctl.asking.waiting:  # the step (or the feedback) to read: OK
                table.choice_pool[table.choice_keys.index("ok")].click()
            elif timers:
                timers.pop(0)()
            elif ctl.acting_human():
                person(table, rng)
            asked = ctl.asking.pending
            # asked now, or still waiting after a first wrong answer (a question asked
            # by the answer of another has no snapshot before it: none does here)
            if asked is not None and (pending is None or asked is pending):
                _check(table, before, asked.question, checked)
        assert table.state.is_over, f"seed {seed}: the game did not end"
    return checked[0]


# the first QUICK games of each walk run always; the others of the 200 under the slow mark
CHUNKS = [pytest.param(range(QUICK), id="quick")] + [
    pytest.param(range(start, min(start + CHUNK, GAMES)), id=f"from-{start}",
                 marks=pytest.mark.slow) for start in range(QUICK, GAMES, CHUNK)]


def test_the_claim_check_finds_a_named_target_and_sum():
    """Not trivially passing: a field naming the claim's target or number is found."""
    from mathcards.games.sums import Sums
    from mathcards.widgets.sums import SumsView
    from mathcards.widgets.table import GameTable

    table = GameTable(SumsView(), Sums(), seats=("human", "strong"), bot_delay=0, save=False,
                      level=COUNT)
    position = Sums().position(hand=["7C", "2D"], own=["5C"], opponent=["QC", "4S", "9H"])
    table.ctl.start(position.game, ("human", "strong"), None, state=position)
    before = _fields(table)
    table.ctl.click_card("card:7C")
    question = table.ctl.asking.pending.question
    assert _claim_leaks(table, before, _fields(table), question) == []
    table.w_hint.value = "look at Q♣"  # a field singling out the target
    assert len(_claim_leaks(table, before, _fields(table), question)) == 1
    table.w_hint.value = "7 + 5 = 12"  # a field printing the sum
    assert _claim_leaks(table, before, _fields(table), question)


@pytest.mark.parametrize("seeds", CHUNKS)
def test_dice_stacks_at_i_count_no_synced_field_holds_a_pending_answer(seeds):
    checked = _walk(dice_stacks_table, _person_moves_dice_stacks, seeds)
    assert checked >= len(seeds) * 4


@pytest.mark.parametrize("seeds", CHUNKS)
def test_sums_at_i_count_no_synced_field_holds_a_pending_claim(seeds):
    checked = _walk(sums_table, _person_moves_sums, seeds)
    assert checked >= len(seeds) * 2
