"""Two wrong answers do not play the move for the student, and feedback waits to be read
(issue 37 items 2 and 7), through the table controller with no widgets.

At "I count" a second wrong answer shows the explainer's step, which stays until the
student clicks OK (the bots and the student's own moves wait); the move is played as
chosen, but what it scores does not count for the student. After a right answer the bots
wait a short pause (or the student's OK; the teacher's link sets it) before they move.

The scripted students below only copy what the page shows (the prompt's and the status
line's numbers, the hint's cards, the buttons in their order): at "I count" they never win.
"""

from __future__ import annotations

import re

import pytest

from mathcards.asking import COUNT
from mathcards.asking.session import OK_KEY, READ, STEP, STEP_FIRST
from mathcards.errors import MathCardsError
from mathcards.games.dice_stacks import DiceStacks
from mathcards.games.sums import Sums
from mathcards.games.suns_to_moons import Play, RoundWon, SunsToMoons
from mathcards.table import NEXT_ROUND, Refused, TableController
from mathcards.widgets.dice_stacks import DiceStacksView
from mathcards.widgets.sums import SumsView
from mathcards.widgets.suns_to_moons import SunsToMoonsView


def _suns(seed: int, **kw) -> TableController:
    game = SunsToMoons(num_players=2, target_score=kw.pop("target", 3))
    return TableController(SunsToMoonsView(), game, seed=seed, bot_delay=kw.pop("delay", 0),
                           save=False, level=COUNT, bot_seed=seed, **kw)


def _winning_play(ctl: TableController) -> Play | None:
    state = ctl.state
    for action in state.legal_actions():
        if isinstance(action, Play) and any(isinstance(e, RoundWon)
                                            for e in state.apply(action).new_events):
            return action
    return None


def _wrong(q) -> str:
    return str(q.expected + 1)


def test_a_round_won_after_two_wrong_answers_scores_nothing_and_the_step_waits_for_ok():
    for seed in range(40):
        ctl = _suns(seed)
        for _ in range(200):  # the student's turns until a card wins the round
            if ctl.state.is_over or _winning_play(ctl) is not None:
                break
            if ctl.asking.waiting:
                ctl.click_choice(OK_KEY)
                continue
            play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play))
            ctl.play(play)
            if ctl.asking.pending is not None:
                ctl.answer(str(ctl.asking.pending.question.expected))
        play = _winning_play(ctl)
        if play is not None and not ctl.state.is_over:
            break
    else:  # pragma: no cover - the deals above have winning cards
        pytest.fail("no deal with a winning card")
    before = ctl.snapshot().scores
    ctl.play(play)
    q = ctl.asking.pending.question
    ctl.answer(_wrong(q))
    ctl.answer(str(q.expected + 2))
    snap = ctl.snapshot()
    # the engine laid the move and counted the round; the student's score did not change
    assert ctl.state.scores[0] == before[0] + 1
    assert snap.scores[0] == before[0]
    assert ctl.asking.withheld_of(0) == 1
    assert snap.moment is None or not snap.moment.win
    # the step stays: OK first, the bots wait, the student's own moves wait
    assert ctl.asking.waiting == STEP and snap.choices[0].key == OK_KEY
    assert str(q.expected) in snap.status
    if ctl.holding:
        ctl.click_choice(NEXT_ROUND)
    moves = len(ctl.state.history)
    ctl.schedule_bot()
    assert len(ctl.state.history) == moves  # held
    if ctl.acting_human():
        with pytest.raises(Refused, match=re.escape(STEP_FIRST)):
            ctl.play(next(iter(ctl.state.legal_actions())))
    ctl.click_choice(OK_KEY)
    assert not ctl.asking.waiting
    with pytest.raises(Refused):  # nothing left to confirm
        ctl.click_choice(OK_KEY)


def test_after_a_right_answer_the_bots_wait_for_the_pause_or_ok():
    timers: list = []

    def table(pause=None) -> TableController:
        ctl = _suns(5, delay=0.5, schedule=lambda delay, fn: timers.append((delay, fn)))
        if pause is not None:
            ctl.asking.set_pause(pause)
        return ctl

    ctl = table()
    while not ctl.acting_human():  # the bot may start: its timer
        timers.pop(0)[1]()
    timers.clear()
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play))
    ctl.play(play)
    ctl.answer(str(ctl.asking.pending.question.expected))
    assert ctl.asking.waiting == READ and "Right" in ctl.snapshot().status
    moves = len(ctl.state.history)
    # the bot's own delay comes first, then the read pause: the bot waits for the pause
    assert [d for d, _ in timers] == [0.5, 3.0]
    timers.pop(0)[1]()
    assert len(ctl.state.history) == moves and ctl.asking.waiting == READ
    timers.pop(0)[1]()  # the pause is over: the bot's own delay starts again
    assert not ctl.asking.waiting and [d for d, _ in timers] == [0.5]
    timers.pop(0)[1]()
    assert len(ctl.state.history) > moves

    timers.clear()  # ?pause=ok: the bots wait for the OK, however long
    ctl = table("ok")
    while not ctl.acting_human():
        timers.pop(0)[1]()
    timers.clear()
    ctl.play(next(a for a in ctl.state.legal_actions() if isinstance(a, Play)))
    ctl.answer(str(ctl.asking.pending.question.expected))
    moves = len(ctl.state.history)
    assert ctl.asking.waiting == READ and [d for d, _ in timers] == [0.5]  # no pause's
    timers.pop(0)[1]()
    assert len(ctl.state.history) == moves
    assert ctl.snapshot().choices[0].key == OK_KEY
    ctl.click_choice(OK_KEY)
    assert [d for d, _ in timers] == [0.5]
    with pytest.raises(MathCardsError):
        ctl.asking.set_pause(31)


def test_the_teachers_link_sets_the_pause():
    from mathcards.widgets import query_settings

    assert query_settings("pause=ok")["pause"] == "ok"
    assert query_settings("pause=6")["pause"] == 6.0
    assert "pause" not in query_settings("pause=99") and "pause" not in query_settings("pause=x")


def test_a_dice_answer_hears_about_dice_and_a_colour_slip_is_named():
    from mathcards.asking import dice_stacks as D
    from mathcards.asking import sums as S
    from mathcards.cards import parse_card

    dice = D.DiceStacksQuestion(game="dice_stacks", skill="dice_sum", prompt="", numbers=(5, 3),
                                expected=8, dice=(5, 3))
    for given in (2, 7, 15):
        slip = D.slip(dice, given) if hasattr(D, "slip") else ""
        words = D.nudge(dice, given, slip or "subtracted_not_added")
        assert "card" not in words and "dice" in words
    q = S.SumsQuestion(game="sums", skill="capture_sum", prompt="", numbers=(7, 5, 12),
                       expected="Q♦ = 7♦ + 5♦ = 12", kind="capture", played=parse_card("7D"),
                       ways=("Q♦ = 7♦ + 5♦ = 12",))
    assert S.slip(q, "Q♦ = 7♦ + 5♣ = 12") == "colour"
    assert S.slip(q, "Q♦ = 7♦ + 4♦ = 11") != "colour"
    assert "colour" in S.nudge(q, "Q♦ = 7♦ + 5♣ = 12", "colour")


# --- scripted students that never compute ----------------------------------------------------
_NUMBER = re.compile(r"[−-]?\d+")


def _copied(text: str, k: int) -> str:
    """The k-th number shown in ``text`` (copied, never worked out), "0" when none."""
    found = _NUMBER.findall(text)
    return found[k % len(found)].replace("−", "-") if found else "0"


def _script_step(ctl: TableController, tries: list[int], never_right: bool = False) -> None:
    """One thing a copying student does, reading only the page (the snapshot).
    ``never_right``: the click-through student, whose every answer is wrong (the harness
    makes sure of it: a copied number that happens to be right is changed)."""
    snap = ctl.snapshot()
    offered = [c for c in snap.choices if not c.key.startswith("off:")]
    if snap.holding:
        ctl.click_choice(NEXT_ROUND)
        return
    if offered and offered[0].key == OK_KEY:
        ctl.click_choice(OK_KEY)
        return
    if snap.question.prompt:  # the buttons in their order, then a number from the page
        if snap.question.kind == "capture":
            for role in ("ans:t:", "ans:h:", "ans:op:"):
                first = next((c for c in offered if c.key.startswith(role)), None)
                if first is not None and not first.primary:
                    ctl.click_choice(first.key)
        tries[0] += 1
        text = _copied(f"{snap.question.prompt} {snap.status}", tries[0])
        if never_right:
            expected = ctl.asking.pending.question.expected
            text = "A♠ = A♠ + A♠ = 99" if isinstance(expected, str) else (
                str(int(text) + 100) if int(text) == expected else text)
        if not ctl.attempt(ctl.answer, text):
            ctl.click_choice("ans:none")  # no claim to finish: the last button
        return
    if not snap.your_turn:
        return
    ctl.ask_hint(2)  # "which card", then the cards it names, in the hand's order
    hint = ctl.snapshot().hint
    named = [c for c in snap.hand if c.card.symbol in hint]
    if snap.selecting:
        for c in named:
            ctl.attempt(ctl.click_card, c.key)
        keys = [c.key for c in ctl.snapshot().choices if not c.key.startswith("off:")]
        keys = [k for k in keys if k != "clear" and (named or k != "lay")]
        for key in keys:
            if ctl.attempt(ctl.click_choice, key):
                return
        ctl.attempt(ctl.click_choice, "clear")
        ctl.attempt(ctl.click_choice, "end")
        return
    # the hint's cards first, then the hand's order; a card whose signs are all refused
    # here is put back (Back) and the next one tried, as a student would
    moves = len(ctl.state.history)
    if tries[1] != moves:
        tries[1:] = [moves, 0]
    cards = [c for c in named if c.enabled] + [c for c in snap.hand if c.enabled]
    if cards and not snap.picked:
        ctl.attempt(ctl.click_card, cards[tries[2] % len(cards)].key)
        tries[2] += 1
        snap = ctl.snapshot()
    keys = [c.key for c in snap.choices if not c.key.startswith("off:")]
    for key in sorted(keys, key=lambda k: k == "back"):  # "Back" when nothing else goes
        if ctl.attempt(ctl.click_choice, key):
            return


GAMES = {
    "suns_to_moons": (SunsToMoonsView, lambda: SunsToMoons(num_players=2, target_score=3)),
    "dice_stacks": (DiceStacksView, lambda: DiceStacks(num_players=2)),
    "sums": (SumsView, lambda: Sums(num_players=2)),
}


SEEDS = 200
QUICK = 12  # games played in every run; the rest of the 200 under the slow mark
CHUNK = 47
# Dice Stacks: the script copies the total the page shows after the dice question into
# "what does the stack make?" (always that total) for the cards the hint names, and so
# wins some games (5 of 200 at this commit, seeds 11 and 16 among them): issue 37 item 3
# makes building the stack the question; then the mark goes.
# Suns to Moons: a card that reaches the goal makes the deck the goal, which the page shows
# ("Make the deck 1"); the hint "which card" says "it can reach the goal" (item 3); 0 + 5
# is 5. A script guessing the numbers on the page wins some games (3 of 47 at this commit).
GOAL = pytest.mark.xfail(strict=False, reason="a card that reaches the goal makes the deck "
                                              "the goal shown on the page")


def _params(marks: dict) -> list:
    out = []
    for name in GAMES:
        mark = marks.get(name, [])
        out.append(pytest.param(name, range(QUICK), id=f"{name}-quick", marks=mark))
        out += [pytest.param(name, range(start, min(start + CHUNK, SEEDS)),
                             id=f"{name}-{start}", marks=[pytest.mark.slow, *mark])
                for start in range(QUICK, SEEDS, CHUNK)]
    return out


PARAMS = _params({})
# Dice Stacks: since its stack question asks the way the cards make the total (issue 37
# item 3), a script copying the page won none of the 200 games
COPY_PARAMS = _params({"suns_to_moons": [GOAL]})


def _scripted(name: str, seeds: range, *, never_right: bool) -> tuple[int, int]:
    """(games the script won by the scores that count, games the engine's scores would
    have given it) over ``seeds``."""
    view, game = GAMES[name]
    wins = engine_wins = 0
    for seed in seeds:
        # the deal of the seed, hidden cards included (a table's own deal adds a secret)
        ctl = TableController(view(), state=game().new_game(seed), bot_delay=0, save=False,
                              level=COUNT, bot_seed=seed, pause_after_round=True)
        tries = [0, -1, 0]  # numbers copied; the position and the cards tried at it
        for _ in range(3000):
            if ctl.state.is_over:
                break
            _script_step(ctl, tries, never_right)
        assert ctl.state.is_over, f"seed {seed}: the game did not end"
        snap = ctl.snapshot()
        engine_wins += 0 in ctl.state.winners
        # what the page says: the scores that count, the game's moment, its last words
        won = snap.scores[0] == max(snap.scores) and 0 in ctl.winners
        assert won == (snap.moment is not None and snap.moment.win) or snap.moment is None
        wins += won
    return wins, engine_wins


@pytest.mark.parametrize(("name", "seeds"), PARAMS)
def test_a_script_that_never_answers_right_never_wins_at_i_count(name, seeds):
    """Clicking through (two wrong answers, OK, again): the moves are played, none counts."""
    wins, engine_wins = _scripted(name, seeds, never_right=True)
    assert wins == 0, f"{name}: a script that is never right won {wins} of {len(seeds)} games"
    print(f"{name}: the engine's scores would have given it {engine_wins} wins")


@pytest.mark.parametrize(("name", "seeds"), COPY_PARAMS)
def test_a_script_that_only_copies_the_page_never_wins_at_i_count(name, seeds):
    """Copying numbers from the page: right only when a copied number is the answer."""
    wins, engine_wins = _scripted(name, seeds, never_right=False)
    assert wins == 0, f"{name}: a script that never computes won {wins} of {len(seeds)} games"
    print(f"{name}: the engine's scores would have given it {engine_wins} wins")


def test_a_dice_stack_laid_after_two_wrong_answers_scores_nothing_on_the_board_too():
    from mathcards.games.dice_stacks import Phase, best_stacks

    for seed in range(30):
        ctl = TableController(DiceStacksView(), state=DiceStacks(num_players=2).new_game(seed),
                              bot_delay=0, save=False, level=COUNT, bot_seed=seed)
        for _ in range(60):
            if ctl.asking.pending is not None:  # the dice: answered right
                ctl.answer(str(ctl.asking.pending.question.expected))
            elif not ctl.acting_human() or ctl.state.is_over or ctl.state.phase == Phase.STACKS:
                break
            else:
                key = {"roll": "roll", "draw": "draw", "more": "stop"}[ctl.state.phase.value]
                ctl.click_choice(key)
        if ctl.acting_human() and ctl.state.phase == Phase.STACKS and \
                any(len(s) > 1 for s in best_stacks(ctl.hand(), ctl.state.dice)):
            break
    else:  # pragma: no cover
        pytest.fail("no deal with a stack")
    # a stack of two cards or more (a card alone is its own answer: nothing is asked)
    stack = next(s for s in best_stacks(ctl.hand(), ctl.state.dice) if len(s) > 1)
    for card in stack:
        i = next(j for j, c in enumerate(ctl.hand()) if c == card and j not in ctl.selected)
        ctl.click_card(f"h{i}")
    ctl.click_choice("lay")
    q = ctl.asking.pending.question
    way, _, kings = q.expected.partition(", ")  # the way the cards make it: the other, twice
    other = ("taking away" if way == "adding" else "adding") + (f", {kings}" if kings else "")
    ctl.answer(other)
    ctl.answer(other)
    snap = ctl.snapshot()
    assert ctl.state.stack_points[0] >= 1 and snap.scores[0] == 0
    assert "worked out for you" in snap.board_html and "score 0 = " in snap.board_html
