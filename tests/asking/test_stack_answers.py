"""Issue 37 items 3 and 5 at a Dice Stacks table at "I count" (the table controller, no
widgets): building a stack is the question, the cards and the way the student says they
made the dice total are the answer; cards that are not a stack are a wrong try, recorded
with its slip and refused with the rule alone (no number of their own); the skill and the
slip are what the student did; the tries of one stack are one question in the grid."""

from __future__ import annotations

from mathcards.asking import COUNT, Answer
from mathcards.exercises import ProgressStore
from mathcards.exercises.skill_grid import skill_grid
from mathcards.games.dice_stacks import DiceStacks
from mathcards.table import TableController
from mathcards.widgets.dice_stacks import DiceStacksView


def _at(cards: str, dice: tuple[int, int]) -> tuple[TableController, list[Answer]]:
    game = DiceStacks(num_players=2)
    ctl = TableController(DiceStacksView(), game, seats=("human", "strong"), bot_delay=0,
                          save=False, level=COUNT)
    ctl.start(game, ("human", "strong"), None, state=game.position(cards, dice))
    answers: list[Answer] = []
    ctl.asking.on_answer = answers.append
    ctl.asking.student = "ana"
    return ctl, answers


def _select(ctl: TableController, cards: str) -> None:
    ctl.click_choice("clear")
    hand = [str(c) for c in ctl.hand()]
    for card in cards.split():
        i = next(j for j, c in enumerate(hand) if c == card and j not in ctl.selected)
        ctl.click_card(f"h{i}")


def test_skill_and_slip_are_what_the_student_did():
    """Cards 7♥ 3♠ for dice 2 and 2 (4: 7 − 3): said "adding", a stack by adding with the
    slip "added instead of subtracted"; then "taking away", right: one question, two
    tries. 3♥ 4♠ for 3 and 4 said "adding": a stack by adding, right at the first try
    (it was filed under "a stack by subtracting")."""
    ctl, answers = _at("7H 3S 5D 2C", (2, 2))
    _select(ctl, "7H 3S")
    ctl.click_choice("lay")
    assert "+" not in ctl.asking.prompt() and "4" not in ctl.asking.prompt()
    ctl.click_choice("ans:op:+")
    assert ctl.asking.pending is not None  # a first wrong answer: the nudge, no number
    assert not any(ch.isdigit() for ch in ctl.asking.feedback)
    ctl.click_choice("ans:op:-")
    assert ctl.asking.pending is None and ctl.state.stacks[0]
    first, second = answers
    assert (first.skill, first.right, first.slip, first.attempt) == (
        "stack_sum", False, "added_not_subtracted", 1)
    assert (second.skill, second.right, second.attempt) == ("stack_difference", True, 2)
    assert first.question == second.question

    ctl, answers = _at("3H 4S 9D", (3, 4))
    _select(ctl, "3H 4S")
    ctl.click_choice("lay")
    ctl.click_choice("ans:op:+")
    assert [(a.skill, a.right, a.attempt) for a in answers] == [("stack_sum", True, 1)]


def test_cards_that_are_not_a_stack_are_a_wrong_try_refused_with_the_rule(tmp_path):
    ctl, answers = _at("QC 3S 5D 2C 8H", (3, 4))  # 7: 5 + 2, or 8 − ... not Q 3
    store = ProgressStore(tmp_path / "progress.sqlite3")  # the file the dashboard reads
    ctl.asking.on_answer = lambda a: (answers.append(a), store.record_answer(a))
    state = ctl.state
    _select(ctl, "QC 3S")
    ctl.click_choice("lay")  # asked how, whatever the cards make: nothing is judged yet
    assert ctl.asking.pending is not None and not ctl.refused
    ctl.click_choice("ans:op:+")
    assert ctl.asking.pending is None and ctl.state is state and ctl.refused
    assert "not a stack" in ctl.message
    assert not {"15", "9", "7"} & set(ctl.message.replace("♣", " ").replace("♠", " ").split())
    assert (answers[-1].skill, answers[-1].right, answers[-1].attempt) == ("stack_sum",
                                                                           False, 1)
    _select(ctl, "8H")  # one card that is not a stack: its own answer, the next try
    assert not ctl.attempt(ctl.click_choice, "lay")
    assert "not a stack" in ctl.message and "8" not in ctl.message.replace("8♥", "")
    assert (answers[-1].right, answers[-1].attempt) == (False, 2)
    _select(ctl, "5D 2C")  # the third try: right
    ctl.click_choice("lay")
    ctl.click_choice("ans:op:+")
    assert answers[-1].right and answers[-1].attempt == 3
    assert len({a.question for a in answers}) == 1
    kept = ProgressStore(tmp_path / "progress.sqlite3").answers("ana")
    cell = skill_grid(kept).cell("ana", "stack_sum")
    assert (cell.questions, cell.first_try, cell.right, cell.refusals) == (1, 0, 1, 0)
    assert cell.top_slip  # the wrong tries' slip


def test_every_refusal_is_recorded_with_its_rule_at_every_level():
    """A stack refused at "Show me the sums" (it was not recorded at all) and a move
    refused by another rule: refusals with the rule the student read, not questions."""
    from mathcards.asking import SHOW
    from mathcards.games.dice_stacks import LayStack

    ctl, answers = _at("QC 3S 5D 2C", (3, 4))
    ctl.set_level(SHOW)
    assert not ctl.attempt(ctl.play, LayStack(("QC", "3S")))
    assert not ctl.attempt(ctl.play, LayStack(("9H",)))  # a card not held
    said = [ctl.message]
    assert [(a.skill, a.refusal, a.right, a.level) for a in answers] == [
        ("stack_sum", True, False, SHOW), ("", True, False, SHOW)]
    assert answers[-1].rule == said[0] and answers[0].rule and answers[0].expected == ""
    cell = skill_grid(answers).cell("ana", "stack_sum")
    assert (cell.questions, cell.refusals) == (0, 1)
