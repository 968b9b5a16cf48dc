"""Issue 37 item 1: a question is answered once, by the student. At "I count", a result the
student was shown for the move (stepping down to "Show me the sums" while a question waits,
or while choosing the move) makes the answer "seen": recorded not right, with the slip
"seen", and the teacher's skill grid counts it so. Suns to Moons, Dice Stacks and Sums
through the table controller, no widgets."""

from __future__ import annotations

from mathcards.asking import COUNT, SHOW, Answer
from mathcards.exercises.skill_grid import skill_grid
from mathcards.games.dice_stacks import DiceStacks, Phase, best_stacks
from mathcards.games.sums import Sums
from mathcards.games.suns_to_moons import Play, SunsToMoons
from mathcards.table import TableController
from mathcards.widgets.dice_stacks import DiceStacksView
from mathcards.widgets.sums import SumsView
from mathcards.widgets.suns_to_moons import SunsToMoonsView

SEEN = "seen"  # the slip a seen answer is recorded with (mathcards.asking.session.SEEN)


def _table(view, game, seed: int) -> tuple[TableController, list[Answer]]:
    ctl = TableController(view, game, seed=seed, bot_delay=0, save=False, level=COUNT,
                          bot_seed=seed)
    answers: list[Answer] = []
    ctl.asking.on_answer = answers.append
    ctl.asking.student = "ana"
    return ctl, answers


def _seen_once(answers: list[Answer]) -> None:
    assert len(answers) == 1, answers
    assert not answers[0].right and answers[0].slip == SEEN and answers[0].level == COUNT
    cell = skill_grid(answers).cell("ana", answers[0].skill)
    assert cell is not None and cell.questions == 1 and cell.right == 0


def _step_down_while_waiting_then_answer(ctl: TableController, answers: list[Answer]) -> None:
    """A question waits: step down, read the result shown, step up, answer it."""
    q = ctl.asking.pending.question
    ctl.set_level(SHOW)
    shown = " ".join((ctl.explanation.text, ctl.status_line(), *ctl.history)).replace("−", "-")
    assert str(q.expected).split(" = ")[-1] in shown  # the result is on the page now
    ctl.set_level(COUNT)
    ctl.attempt(ctl.answer, str(q.expected))  # nothing waits: refused, nothing recorded
    _seen_once(answers)


def test_suns_to_moons_a_question_waiting_when_stepping_down_is_seen():
    ctl, answers = _table(SunsToMoonsView(), SunsToMoons(num_players=2), 5)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    ctl.click_card(f"card:{play.card}")
    ctl.click_choice(f"sign:{play.contribution:+d}")
    _step_down_while_waiting_then_answer(ctl, answers)


def test_suns_to_moons_peek_and_copy_is_seen_not_right():
    ctl, answers = _table(SunsToMoonsView(), SunsToMoons(num_players=2), 5)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    ctl.click_card(f"card:{play.card}")
    ctl.set_level(SHOW)  # the sign buttons show "+9 → 7"
    label = next(c.label for c in ctl.offered_choices()
                 if c.key == f"sign:{play.contribution:+d}")
    read = label.split("→")[1].strip().replace("−", "-")
    ctl.click_choice("back")
    ctl.set_level(COUNT)
    ctl.click_card(f"card:{play.card}")
    ctl.click_choice(f"sign:{play.contribution:+d}")
    assert ctl.asking.pending is not None
    ctl.answer(read)
    _seen_once(answers)
    assert ctl.state.actions[-1] == play or play in ctl.state.actions  # laid


def _to_stacks(ctl: TableController) -> None:
    for _ in range(20):
        if ctl.state.phase == Phase.STACKS and best_stacks(ctl.hand(), ctl.state.dice):
            return
        if ctl.asking.pending is not None:
            ctl.answer(str(ctl.asking.pending.question.expected))
            continue
        key = {"roll": "roll", "draw": "draw", "more": "stop", "stacks": "end"}[
            ctl.state.phase.value]
        ctl.click_choice(key)
    raise AssertionError("no stack to lay")


def test_dice_stacks_the_dice_question_waiting_when_stepping_down_is_seen():
    ctl, answers = _table(DiceStacksView(), DiceStacks(num_players=2), 4)
    ctl.click_choice("roll")
    assert ctl.asking.pending is not None  # what must your stacks make?
    _step_down_while_waiting_then_answer(ctl, answers)


def test_dice_stacks_a_stack_read_at_show_me_then_laid_is_seen():
    for seed in range(1, 40):
        ctl, answers = _table(DiceStacksView(), DiceStacks(num_players=2), seed)
        try:
            _to_stacks(ctl)
        except AssertionError:
            continue
        # a stack of two cards or more: its line is a sum ("10 − 1 − 1 = 8 ✓"; a card
        # alone "makes 8 on its own")
        if any(len(s) > 1 for s in best_stacks(ctl.hand(), ctl.state.dice)):
            break
    answers.clear()
    stack = next(s for s in best_stacks(ctl.hand(), ctl.state.dice) if len(s) > 1)
    ctl.set_level(SHOW)
    for card in stack:
        i = next(j for j, c in enumerate(ctl.hand()) if c == card and j not in ctl.selected)
        ctl.click_card(f"h{i}")
    ok, line = ctl.selection_summary()  # "10 − 1 − 1 = 8 ✓"
    assert ok and "=" in line
    shown = line.split("=")[0]  # the way read on the page: taking away, the Kings halving
    read = "taking away" if "−" in shown else "adding"
    read += ", Kings halve" if "½" in shown else ", Kings double" if "× 2" in shown else ""
    ctl.set_level(COUNT)
    ctl.click_choice("lay")
    if ctl.asking.pending is None:  # one card: its own answer, seen as it was laid
        _seen_once(answers)
        return
    ctl.answer(read)
    _seen_once(answers)


def test_sums_a_claim_waiting_when_stepping_down_is_seen():
    ctl, answers = _table(SumsView(), Sums(num_players=2), 2)
    for _ in range(50):
        if ctl.asking.pending is not None:
            break
        cards = [c for c in ctl.card_states() if c.enabled]
        if cards and ctl.state.phase.value in ("play", "last"):
            ctl.click_card(cards[0].key)
        else:
            ctl.click_choice(next(c.key for c in ctl.offered_choices()
                                  if not c.key.startswith("off:")))
    q = ctl.asking.pending.question
    assert not answers
    ctl.set_level(SHOW)
    ctl.set_level(COUNT)
    ctl.attempt(ctl.answer, str(q.expected))
    _seen_once(answers)


def test_a_seen_answer_kept_in_the_progress_store_is_not_right_on_the_dashboard(tmp_path):
    from mathcards.exercises import ProgressStore

    store = ProgressStore(tmp_path / "p.sqlite3")
    ctl, _answers = _table(SunsToMoonsView(), SunsToMoons(num_players=2), 5)
    ctl.asking.on_answer = store.record_answer  # the real SQLite file the dashboard reads
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    ctl.click_card(f"card:{play.card}")
    ctl.click_choice(f"sign:{play.contribution:+d}")
    ctl.set_level(SHOW)
    kept = ProgressStore(tmp_path / "p.sqlite3").answers("ana")  # read back from the file
    _seen_once(list(kept))
