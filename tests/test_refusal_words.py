"""A refused move is worded in one place: ``mathcards.explain.refusal_words``.

The engine gives the rule (``State.reason_refused``, each engine's ``why_illegal``); one
function turns it into what the student reads, with the explainer's arithmetic. The table's
refusals, the views' card tooltips (a trick game's too) and the rooms say exactly its words,
and no other module of mathcards/ or widgets/ asks the engine for a refusal's words or
formats the explainer's refusal on its own.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from mathcards.asking.session import OK_KEY
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


# --- issue 37 item 3: at "I count" a refusal or a hint states the rule, not the numbers ----
# A number "of an unanswered move" is a number the move would make that the student has
# not said yet: at a Suns to Moons position, the deck after any card of the hand laid
# either way (an Ace as 1 or 14); at a Dice Stacks position, what any part of the selected
# cards makes by adding or by taking away from the largest, then after each of its Kings
# doubling or halving, and, for a hint, how many stacks (and points) the hand makes. A
# number already on the page is not one of those: the deck and the goal, the ±10 bound, a
# card's own value (its sign either way), the dice and their total (asked and answered
# right after the roll). A refusal or hint text must contain no number of the move that
# is not on the page (numbers read with their sign: "−6", "+5", "17").
_NUMBER = re.compile(r"(?<![\w.])([-−+]?)(\d+)(?![\d])")


def _numbers_in(text: str) -> set[int]:
    return {(-1 if sign in "-−" and sign else 1) * int(digits)
            for sign, digits in _NUMBER.findall(text)}


def _either_sign(values) -> set[int]:
    return {s * v for v in values for s in (1, -1)}


def _suns_made(state) -> set[int]:
    hand = state.observation(state.current_player).hand
    deck = state.deck_value
    made = {deck + sign * v for c in hand if not c.is_joker for sign in (1, -1)
            for v in card_values(c)}
    shown = {deck, state.goal, *_either_sign((10, 14, 1)),
             *_either_sign(v for c in hand if not c.is_joker for v in card_values(c))}
    return made - shown


def _stack_values(ranks: list[int]) -> set[int]:
    from itertools import combinations

    plain = [r for r in ranks if r != 13]
    kings = len(ranks) - len(plain)
    found: set[int] = set()
    for n in range(1, len(plain) + 1):
        for part in combinations(plain, n):
            for base in {sum(part), 2 * max(part) - sum(part)}:
                value, halves = base, base
                found.add(base)
                for _k in range(kings):
                    value *= 2
                    found.add(value)
                    if halves % 2 == 0:
                        halves //= 2
                        found.add(halves)
    return found


def _dice_shown(state) -> set[int]:
    hand = state.hands[state.current_player]
    return {*state.dice, sum(state.dice), *(c.rank for c in hand)}


def _check_words(text: str, forbidden: set[int], where: str) -> int:
    said = _numbers_in(text) & forbidden
    assert not said, f"{where}: {text!r} names {sorted(said)}"
    return 1


def _suns_game(seed: int, tally: list[int]) -> None:
    from mathcards.asking import COUNT

    ctl = TableController(make_view("suns_to_moons"), SunsToMoons(num_players=2,
                                                                  target_score=3),
                          seats=("human", "strong"), seed=seed, bot_delay=0, save=False,
                          level=COUNT, bot_seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if ctl.state.is_over:
            return
        if ctl.asking.pending is not None:
            ctl.answer(str(ctl.asking.pending.question.expected))
            continue
        if ctl.asking.waiting:  # the card the hint named, laid to the goal: seen, the step
            ctl.click_choice(OK_KEY)
            continue
        if not ctl.acting_human():
            return  # pragma: no cover - the bots move at once
        state = ctl.state
        forbidden = _suns_made(state)
        for level in (1, 2):
            ctl.ask_hint(level)
            tally[0] += _check_words(ctl.hint_text(), forbidden, f"seed {seed} hint {level}")
        hand = state.observation(state.current_player).hand
        for play in (Play(c, s, v) for c in hand if not c.is_joker for s in (1, -1)
                     for v in card_values(c)):
            if not state.is_legal(play) and not ctl.attempt(ctl.play, play):
                tally[0] += _check_words(ctl.message, forbidden, f"seed {seed} refusal")
        for card in ctl.card_states():
            tally[0] += _check_words(card.tooltip, forbidden, f"seed {seed} tooltip")
        ctl.play(rng.choice(list(state.legal_actions())))


def _dice_game(seed: int, tally: list[int]) -> None:
    from mathcards.asking import COUNT
    from mathcards.games.dice_stacks import DiceStacks, LayStack, Phase, best_stacks

    ctl = TableController(make_view("dice_stacks"), DiceStacks(num_players=2),
                          seats=("human", "strong"), seed=seed, bot_delay=0, save=False,
                          level=COUNT, bot_seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if ctl.state.is_over or not ctl.acting_human():
            return
        pending = ctl.asking.pending
        if pending is not None:
            q = pending.question
            ctl.answer(q.expected if isinstance(q.expected, str) else str(q.expected))
            continue
        state = ctl.state
        if state.phase != Phase.STACKS:
            ctl.click_choice({"roll": "roll", "draw": "draw", "more": "stop"}[
                state.phase.value])
            continue
        hand = list(ctl.hand())
        shown = _dice_shown(state)
        stacks = best_stacks(tuple(hand), state.dice)
        hint_forbidden = {len(stacks), sum(len(s) for s in stacks)} - shown
        for level in (1, 2):
            ctl.ask_hint(level)
            tally[0] += _check_words(ctl.hint_text(), hint_forbidden,
                                     f"seed {seed} hint {level}")
        for _try in range(3):  # cards that are not a stack, laid: refused in words
            picked = rng.sample(range(len(hand)), rng.randint(1, min(4, len(hand))))
            cards = tuple(hand[i] for i in picked)
            if state.is_legal(LayStack(cards)):
                continue
            forbidden = _stack_values([c.rank for c in cards]) - shown
            ctl.selected = tuple(picked)
            if ctl.attempt(ctl.click_choice, "lay"):
                for key in ("ans:op:+", "ans:k:double"):  # how the student says they made it
                    if ctl.asking.pending is not None and key in {
                            c.key for c in ctl.offered_choices()}:
                        ctl.click_choice(key)
            assert ctl.asking.pending is None and ctl.refused and ctl.state is state
            tally[0] += _check_words(ctl.message, forbidden, f"seed {seed} stack refusal")
            ctl.click_choice("clear")
        if stacks:
            ctl.play(LayStack(stacks[0]))
        else:
            ctl.click_choice("end")


@pytest.mark.parametrize("game", ["suns_to_moons", "dice_stacks"])
def test_at_i_count_no_refusal_or_hint_names_a_number_of_an_unanswered_move(game):
    tally = [0]
    for seed in range(25):
        (_suns_game if game == "suns_to_moons" else _dice_game)(seed, tally)
    assert tally[0] >= 200  # texts checked


def test_the_number_check_finds_a_calculator():
    """Not trivially passing: the words of a refusal that computes are found."""
    assert _numbers_in("12 + 3 = 15 and 12 − 3 = 9, not −5") == {12, 3, 15, 9, -5}
    assert _stack_values([12, 3]) >= {15, 9}
    forbidden = _stack_values([12, 3]) - {12, 3, 5, 2}
    with pytest.raises(AssertionError):
        _check_words("12 + 3 = 15 and 12 − 3 = 9, not 5", forbidden, "calculator")
