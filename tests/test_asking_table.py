"""The table asks before it shows (issue 25): Suns to Moons at "I count", no widgets.

A scripted student plays whole short games against bots: right answers, a wrong one then
a right one, two wrong ones (the move is laid as chosen and explained), a sign that breaks
the ±10 bound (refused in words, counted), a step down to "Show me the sums" (recorded),
and following the others' moves.
"""

from __future__ import annotations

import random
import re

import pytest

from mathcards.asking import COUNT, COUNT_NO_HINTS, SHOW, Answer, LevelChange
from mathcards.asking.registry import AnswerError, read_number
from mathcards.games.suns_to_moons import JokerPlayed, Play, SunsToMoons, within_bound
from mathcards.table import Refused, TableController
from mathcards.widgets.suns_to_moons import SunsToMoonsView

Table = tuple[TableController, list[Answer], list[LevelChange]]


def _table(seed: int = 3, *, level: str = COUNT, players: int = 2, seats=None,
           follow: bool = False, target: int = 1) -> Table:
    game = SunsToMoons(num_players=players, target_score=target)
    ctl = TableController(SunsToMoonsView(), game, seed=seed, bot_delay=0, save=False,
                          level=level, seats=seats, bot_seed=seed)
    answers: list[Answer] = []
    levels: list[LevelChange] = []
    ctl.asking.on_answer = answers.append
    ctl.asking.on_level = levels.append
    ctl.asking.student = "ana"
    ctl.set_follow(follow)
    return ctl, answers, levels


def _deck_after(state, play: Play) -> int:
    """The deck after ``play``, from the engine's event (what the student should say)."""
    after = state.apply(play)
    return next(ev.after for ev in after.new_events if hasattr(ev, "after")
                and hasattr(ev, "before"))


def _choose(ctl: TableController, play: Play) -> None:
    """Click the card, then its sign (the student's two clicks)."""
    ctl.click_card(f"card:{play.card}")
    if ctl.asking.pending is None and not play.is_joker:
        ctl.click_choice(f"sign:{play.contribution:+d}")


def _play_game(ctl: TableController, rng: random.Random, *, wrong_first: float = 0.0,
               limit: int = 400) -> int:
    """Play the person's moves by clicking, answering every question (sometimes wrong
    first); returns the number of questions asked."""
    asked = 0
    while not ctl.state.is_over and limit:
        limit -= 1
        if ctl.asking.pending is not None:  # a followed move
            q = ctl.asking.pending.question
            ctl.answer(str(q.expected))
            continue
        plays = [a for a in ctl.state.legal_actions() if isinstance(a, Play)]
        if not plays:
            ctl.play(ctl.state.legal_actions()[0])
            continue
        play = rng.choice(plays)
        _choose(ctl, play)
        if ctl.asking.pending is None:
            continue  # a Joker with nothing to take away: laid at once
        q = ctl.asking.pending.question
        asked += 1
        assert q.expected == _deck_after(ctl.state, play)
        if rng.random() < wrong_first:
            ctl.answer(str(q.expected + 1))
        ctl.answer(f"{q.expected}")
    assert ctl.state.is_over
    return asked


def test_a_whole_short_game_at_i_count_every_move_asked_before_it_is_laid():
    ctl, answers, _ = _table(3, target=3)  # the short game: first to 3
    asked = _play_game(ctl, random.Random(3))
    assert asked >= 3
    assert len(answers) == asked and all(a.right for a in answers)
    assert {a.student for a in answers} == {"ana"} and {a.level for a in answers} == {COUNT}
    assert all(a.skill in ("add_positive", "subtract_positive", "cross_zero",
                           "subtract_negative") for a in answers)


def test_the_chosen_move_waits_for_the_answer_and_shows_no_result():
    ctl, answers, _ = _table(5)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    before = ctl.state
    history = list(ctl.history)
    ctl.click_card(f"card:{play.card}")
    labels = [c.label + c.tooltip for c in ctl.offered_choices()]
    expected = _deck_after(before, play)
    assert all("→" not in text for text in labels), labels
    ctl.click_choice(f"sign:{play.contribution:+d}")
    q = ctl.asking.pending.question
    assert ctl.state is before and ctl.history == history  # not laid, not in the history
    assert str(expected) not in q.prompt.replace(str(before.deck_value), "")
    assert ctl.offered_choices() == [] and not any(c.enabled for c in ctl.card_states())
    with pytest.raises(Refused, match="first answer"):
        ctl.play(play)
    ctl.answer(str(expected))
    assert ctl.asking.pending is None and len(ctl.state.history) > len(before.history)
    assert answers[-1].right and answers[-1].given == str(expected)


def test_wrong_then_right_nudges_by_the_slip_then_lays_the_move():
    ctl, answers, _ = _table(7)
    play = next(a for a in ctl.state.legal_actions()
                if isinstance(a, Play) and not a.is_joker and a.contribution != 0)
    before = ctl.state
    _choose(ctl, play)
    q = ctl.asking.pending.question
    wrong = before.deck_value - play.contribution  # the sign slip
    if wrong == q.expected:
        wrong = q.expected + 1
    ctl.answer(str(wrong))
    assert ctl.state is before and ctl.asking.pending is not None  # still asked
    assert str(q.expected) not in ctl.asking.feedback
    assert ctl.asking.feedback.startswith("Not quite")
    assert not answers[-1].right and answers[-1].slip  # named
    ctl.answer(str(q.expected))
    assert [a.right for a in answers] == [False, True]
    assert ctl.state.actions[len(before.actions)] == play


def test_two_wrong_answers_lay_the_move_and_show_the_step_with_its_number_line():
    ctl, answers, _ = _table(11)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    before = ctl.state
    _choose(ctl, play)
    q = ctl.asking.pending.question
    ctl.answer(str(q.expected + 3))
    ctl.answer(str(q.expected - 3))
    assert ctl.asking.pending is None
    assert ctl.state.actions[len(before.actions)] == play  # laid as chosen
    assert len(answers) == 2 and not any(a.right for a in answers)
    # the explainer's step of that move: its signed addition and the number line
    assert "<svg" in ctl.explanation.svg
    first = ctl.explanation.text.split(".")[0]
    assert str(abs(q.expected)) in ctl.explanation.text, first
    assert "Not quite: it is" in ctl.message


def test_a_sign_that_breaks_the_bound_is_offered_then_refused_in_words_and_counted():
    for seed in range(1, 400):
        ctl, answers, _ = _table(seed)
        state = ctl.state
        hand = state.observation(state.current_player).hand
        tried = [Play(c, s, v) for c in hand if not c.is_joker for s in (1, -1)
                 for v in ((1, 14) if c.rank == 1 else (c.rank,))
                 if not state.is_legal(Play(c, s, v))
                 and not within_bound(state.deck_value + s * v)]
        if tried:
            break
    else:  # pragma: no cover
        pytest.fail("no deal with a sign out of bound")
    play = tried[0]
    ctl.click_card(f"card:{play.card}")
    keys = [c.key for c in ctl.offered_choices()]
    assert f"sign:{play.contribution:+d}" in keys  # not greyed in advance
    assert not any(k.startswith("off:") for k in keys)
    assert ctl.attempt(ctl.click_choice, f"sign:{play.contribution:+d}") is False
    # the rule in a teacher's words, not the deck the card would make (issue 37 item 3)
    assert ctl.refused and "between −10 and 10" in ctl.message
    made = state.deck_value + play.contribution
    assert not re.search(rf"(?<![\d])[-−]?{abs(made)}(?![\d])", ctl.message.replace(
        play.card.symbol, "")), ctl.message
    assert ctl.state is state and ctl.asking.pending is None  # unchanged
    # recorded as a refusal with its rule, not as a question the student never saw
    assert len(answers) == 1 and answers[0].skill == "bound" and not answers[0].right
    assert answers[0].refusal and answers[0].rule == ctl.message
    assert "?" not in answers[0].prompt and answers[0].expected == ""


def test_stepping_down_to_show_me_is_recorded_and_a_fixed_level_stays():
    ctl, _, levels = _table(13, target=3)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    _choose(ctl, play)
    assert ctl.asking.pending is not None
    ctl.set_level(SHOW)
    assert levels == [LevelChange("ana", "suns_to_moons", COUNT, SHOW, levels[0].at,
                                  levels[0].uid)]
    assert ctl.asking.pending is None and play in ctl.state.actions  # laid as at SHOW
    # at "Show me the sums" the signs show their results again and nothing is asked
    nxt = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    ctl.click_card(f"card:{nxt.card}")
    assert any("→" in c.label for c in ctl.offered_choices())
    fixed, _, fixed_levels = _table(13)
    fixed.asking.fixed = True
    assert fixed.attempt(fixed.set_level, SHOW) is False and fixed.asking.level == COUNT
    assert fixed_levels == []
    assert fixed.attempt(fixed.set_level, "everything") is False


def test_hints_at_i_count_never_name_a_result_and_none_without_hints():
    ctl, _, _ = _table(17)
    ctl.ask_hint(3)  # the full step shows a sum's result
    assert ctl.refused and ctl.hint_level == 0 and ctl.hint_text() == ""
    ctl.ask_hint(2)
    assert ctl.hint_text() and not ctl.refused
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    _choose(ctl, play)
    assert ctl.hint_text() == ""  # a question is waiting: no hint at all
    quiet, _, _ = _table(17, level=COUNT_NO_HINTS)
    quiet.ask_hint(1)
    assert quiet.refused and quiet.hint_text() == ""


def test_following_the_others_asks_about_each_bot_move_and_the_bots_wait():
    ctl, answers, _ = _table(19, players=3, follow=True, target=3)
    followed = 0
    rng = random.Random(19)
    while not ctl.state.is_over and followed < 6:
        p = ctl.asking.pending
        if p is not None and p.action is None:
            q = p.question
            assert q.follow and q.seat != 0
            moves = len(ctl.state.history)
            shown = list(ctl.history)
            assert ctl.shown_state is not ctl.state  # the board waits too
            assert not ctl.busy  # the bots wait for the answer
            ctl.schedule_bot()
            assert len(ctl.state.history) == moves
            ctl.answer(str(q.expected))
            assert len(ctl.history) > len(shown)  # the move and its arithmetic now
            followed += 1
            continue
        plays = [a for a in ctl.state.legal_actions() if isinstance(a, Play)]
        if not plays:
            ctl.play(ctl.state.legal_actions()[0])
            continue
        _choose(ctl, rng.choice(plays))
        if ctl.asking.pending is not None and ctl.asking.pending.action is not None:
            ctl.answer(str(ctl.asking.pending.question.expected))
    assert followed >= 2
    assert sum(a.source == "follow" for a in answers) == followed


def test_an_unanswered_follow_question_is_dropped_when_the_next_move_arrives():
    """A room: nobody waits for one student's answer."""
    ctl, answers, _ = _table(23, players=3, follow=True, seats=("human", "remote", "remote"))
    ctl.publish = lambda state, action: True
    ctl.room_code = "ABCDE"
    ctl.set_seat(1, "remote")
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    _choose(ctl, play)
    ctl.answer(str(ctl.asking.pending.question.expected))
    # two classmates move; the first move's question goes unanswered
    for _ in range(2):
        if ctl.state.current_player == 0 or ctl.state.is_over:
            break
        move = next(a for a in ctl.state.legal_actions())
        ctl.apply_remote(move)
        assert not ctl.asking.holds_bots()
    asked = ctl.asking.pending
    if asked is not None:
        assert asked.question.follow
    assert all(a.source == "play" for a in answers)  # dropped questions are not recorded


def test_a_joker_asks_what_it_takes_away():
    for seed in range(1, 3000):
        ctl, answers, _ = _table(seed)
        state = ctl.state
        jokers = [a for a in state.legal_actions() if isinstance(a, Play) and a.is_joker]
        if jokers and state.counted:
            break
    else:  # pragma: no cover
        pytest.fail("no deal with a Joker to play")
    ctl.click_card("card:JK")
    q = ctl.asking.pending.question
    after = state.apply(jokers[0])
    ev = next(e for e in after.new_events if isinstance(e, JokerPlayed))
    assert q.expected == ev.after and q.numbers == (ev.before, ev.removed_contribution)
    ctl.answer(str(ev.after))
    assert answers[-1].right


def test_bad_answer_text_is_one_line_and_changes_nothing():
    assert read_number("−6") == -6 and read_number(" -6") == -6 and read_number("+6") == 6
    assert [read_number(str(n)) for n in range(-20, 21)] == list(range(-20, 21))
    for bad in ("", "  ", "six", "6+1", "1e3", "__import__('os')", "9" * 50, "--6"):
        with pytest.raises(AnswerError):
            read_number(bad)
    ctl, answers, _ = _table(29)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    _choose(ctl, play)
    assert ctl.attempt(ctl.answer, "seven") is False
    assert "\n" not in ctl.message and "not a whole number" in ctl.message
    assert ctl.asking.pending.tries == 0 and answers == []
    assert ctl.attempt(ctl.answer, None) is False


def test_show_me_the_sums_is_todays_table():
    ctl, answers, _ = _table(31, level=SHOW)
    play = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    _choose(ctl, play)
    assert ctl.asking.pending is None and play in ctl.state.actions and answers == []
