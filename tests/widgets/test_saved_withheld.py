"""Points held back at "I count" stay held back when the page is opened again.

A move worked out for the student (two wrong answers) scores nothing for them (issue 37
item 2); the table's save keeps those points, so a reload and *Resume my saved game*
never turns them into points that count. Before, the save kept only the game: the
resumed table counted the engine's score.
"""

from __future__ import annotations

import json

import pytest

from mathcards.asking import COUNT
from mathcards.games.suns_to_moons import Play, RoundWon, SunsToMoons
from mathcards.table import TableController
from mathcards.widgets.suns_to_moons import SunsToMoonsView


def _table(seed: int) -> TableController:
    return TableController(SunsToMoonsView(), SunsToMoons(num_players=2, target_score=3),
                           seed=seed, bot_delay=0, level=COUNT, bot_seed=seed, slot="ana")


def _winning_play(ctl: TableController) -> Play | None:
    for action in ctl.state.legal_actions():
        if isinstance(action, Play) and any(isinstance(e, RoundWon)
                                            for e in ctl.state.apply(action).new_events):
            return action
    return None


def _round_won_for_the_student(data_dir) -> tuple[TableController, int]:
    """A table where the student's winning card was worked out for them (two wrong
    answers); the engine's score of seat 0 before that move."""
    for seed in range(60):
        for old in (data_dir / "tables").glob("*.json"):
            old.unlink()
        ctl = _table(seed)
        ctl.decline_offer()
        for _ in range(200):  # the student's turns (answered right) until a card wins
            if ctl.state.is_over or not ctl.acting_human() or _winning_play(ctl) is not None:
                break
            if ctl.asking.waiting:
                ctl.click_choice("ok")
                continue
            ctl.play(next(a for a in ctl.state.legal_actions() if isinstance(a, Play)))
            if ctl.asking.pending is not None:
                ctl.answer(str(ctl.asking.pending.question.expected))
        play = _winning_play(ctl)
        if play is None or ctl.state.is_over or not ctl.acting_human():
            continue
        before = ctl.state.scores[0]
        ctl.play(play)
        q = ctl.asking.pending.question
        ctl.answer(str(q.expected + 1))
        ctl.answer(str(q.expected + 2))
        if not ctl.state.is_over:
            return ctl, before
    pytest.fail("no deal where the student's card wins a round")  # pragma: no cover


def test_held_back_points_are_saved_and_stay_held_back_after_a_reload(data_dir):
    ctl, before = _round_won_for_the_student(data_dir)
    assert ctl.state.scores[0] == before + 1 and ctl.scores[0] == before
    saved = json.loads((data_dir / "tables" / "suns_to_moons-ana.json").read_text())
    assert saved["withheld"] == {"0": 1}
    again = _table(0)  # the page opened again: its saved game is offered and resumed
    assert again.saved_offer is not None
    again.accept_offer()
    assert again.state.scores[0] == before + 1  # the engine's count is the game's
    assert again.scores[0] == before, "a reload turned a held-back point into one that counts"
    assert again.asking.withheld_of(0) == 1
    assert "do not count (Player 1 (you) 1)" in again.withheld_words()


@pytest.mark.parametrize("held", [[1], {"0": -1}, {"5": 1}, {"0": "1"}, {"0": True}])
def test_damaged_held_back_points_are_a_broken_save_kept_aside_in_one_line(data_dir, held):
    _round_won_for_the_student(data_dir)
    path = data_dir / "tables" / "suns_to_moons-ana.json"
    data = json.loads(path.read_text())
    data["withheld"] = held
    path.write_text(json.dumps(data))
    again = _table(0)
    assert again.saved_offer is None
    assert again.message.count("\n") == 0 and "held-back points are damaged" in again.message
    assert list((data_dir / "tables").glob("suns_to_moons-ana.broken-*.json"))
