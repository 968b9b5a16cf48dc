"""The question area of a table (issue 25): answer box, number pad, level picker, follow."""

from __future__ import annotations

from mathcards.asking import COUNT, COUNT_NO_HINTS, SHOW
from mathcards.games.suns_to_moons import Play
from mathcards.widgets import play, query_settings
from tests.widgets.helpers import type_answer


def _table(query: str = ""):
    return play("suns_to_moons", query=f"delay=0&seats=human,strong{query}", save=False)


def _choose_a_move(table) -> Play:
    ctl = table.ctl
    move = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    ctl.click_card(f"card:{move.card}")
    if ctl.asking.pending is None:
        ctl.click_choice(f"sign:{move.contribution:+d}")
    table._refresh()
    return move


def test_the_page_reads_the_level_and_fixed_from_its_address():
    assert query_settings("level=show&fixed=1") == {"level": SHOW, "fixed": True}
    assert query_settings("level=count_no_hints") == {"level": COUNT_NO_HINTS}
    assert query_settings("level=everything&fixed=maybe") == {}
    assert _table().ctl.asking.level == COUNT  # a play page opens at "I count"
    shown = _table("&level=show")
    assert shown.ctl.asking.level == SHOW
    assert "mc-hide" not in shown.asking_panel.w_level._dom_classes
    fixed = _table("&level=count_no_hints&fixed=1")
    assert fixed.ctl.asking.fixed and "mc-hide" in fixed.asking_panel.w_level._dom_classes
    assert all("mc-hide" in b._dom_classes for b in fixed.w_hint_buttons)
    fixed.asking_panel.w_level.value = SHOW  # a visitor's browser sets the hidden picker
    assert fixed.ctl.asking.level == COUNT_NO_HINTS and fixed.refused


def test_typed_answer_with_enter_lays_the_move():
    table = _table()
    panel = table.asking_panel
    assert "mc-hide" in panel.w_box._dom_classes  # no question yet
    move = _choose_a_move(table)
    q = table.ctl.asking.pending.question
    assert "mc-hide" not in panel.w_box._dom_classes and not panel.w_answer.disabled
    assert q.prompt in panel.w_prompt.value
    type_answer(panel, "seven")  # what the browser sends on Enter
    assert table.refused and table.ctl.asking.pending is not None
    type_answer(panel, str(q.expected + 1))
    assert "not quite" in panel.w_prompt.value.lower()
    type_answer(panel, str(q.expected).replace("-", "−"))
    assert table.ctl.asking.pending is None and move in table.state.actions
    assert [a.right for a in table.ctl.asking.answers] == [False, True]
    assert "mc-hide" in panel.w_box._dom_classes and panel.w_answer.value == ""


def test_only_a_signed_whole_number_from_the_browser_is_read():
    """The box's text is whatever a visitor sends: bounded, a sign and digits, never
    evaluated; anything else is refused in one line and nothing is recorded."""
    table = _table()
    panel = table.asking_panel
    move = _choose_a_move(table)
    q = table.ctl.asking.pending.question
    for text in ("", "2+3", "1e3", "0x1f", "__import__('os')", "7" * 41, "½", "3.0", "--4"):
        type_answer(panel, text)
        assert table.refused and "\n" not in table.message and "Traceback" not in table.message
        assert table.ctl.asking.pending is not None and table.ctl.asking.answers == []
        assert panel.w_answer.answered == panel.w_answer.submitted  # the browser may go on
    pad = "".join((*str(abs(q.expected)),)) if q.expected >= 0 else "−" + str(-q.expected)
    type_answer(panel, pad)  # the pad's digits and minus, then ✓ OK
    assert table.ctl.asking.pending is None and move in table.state.actions
    assert table.ctl.asking.answers[-1].right and panel.w_answer.value == ""
    type_answer(panel, pad)  # a late second Enter: no question, nothing recorded
    assert len(table.ctl.asking.answers) == 1


def test_the_level_picker_steps_down_and_the_follow_box_turns_following_on():
    table = _table("&seats=human,strong,strong")
    panel = table.asking_panel
    panel.w_follow.value = True
    assert table.ctl.asking.follow
    panel.w_level.value = SHOW
    assert table.ctl.asking.level == SHOW and not table.refused
    assert "mc-hide" not in table.w_hint_buttons[2]._dom_classes
    panel.w_level.value = COUNT
    assert "mc-hide" in table.w_hint_buttons[2]._dom_classes  # the full step shows a sum


def test_a_sums_claim_is_clicked_and_typed_and_no_field_names_it_before():
    from mathcards.games.sums import Sums
    from mathcards.widgets.sums import SumsView
    from mathcards.widgets.table import GameTable

    table = GameTable(SumsView(), Sums(), seats=("human", "strong"), bot_delay=0, save=False,
                      level=COUNT)
    position = Sums().position(hand=["7C", "2D"], own=["5C", "3C"], opponent=["QC", "4S", "9H"])
    table.ctl.start(position.game, ("human", "strong"), None, state=position)
    table._refresh()
    panel = table.asking_panel

    def button(key):
        return table.choice_pool[table.choice_keys.index(key)]

    def synced() -> str:
        return " ".join(str(v) for w in table.choice_pool
                        for v in (w.description, w.tooltip, w.button_style, w._dom_classes))

    next(cb for cb in table.hand_buttons.pool if cb.key == "card:7C").button.click()
    assert table.ctl.asking.pending is not None
    assert panel.w_answer.placeholder.startswith("what they make")
    # before any pick: the target buttons look alike, no sum anywhere in the tree
    assert button("ans:t:QC")._dom_classes == button("ans:t:4S")._dom_classes
    assert "= 12" not in synced() and "Q♣ = " not in synced() and "12" not in synced()
    type_answer(panel, "12")  # the number before the cards: refused in one line
    assert table.refused and table.ctl.asking.answers == []
    for key in ("ans:t:QC", "ans:h:5C", "ans:op:+"):
        button(key).click()
    assert "mc-primary" in button("ans:t:QC")._dom_classes  # the student's own picks
    type_answer(panel, "12")
    assert table.ctl.asking.pending is None and table.ctl.asking.answers[-1].right


def test_a_named_students_answers_are_kept_in_the_progress_store(tmp_path, monkeypatch):
    from mathcards.exercises.progress import ProgressStore

    db = tmp_path / "progress.sqlite3"
    monkeypatch.setenv("MATHCARDS_PROGRESS", str(db))
    table = play("suns_to_moons", query="delay=0&seats=human,strong&student=Ana", save=False)
    _choose_a_move(table)
    q = table.ctl.asking.pending.question
    type_answer(table.asking_panel, str(q.expected + 2))
    type_answer(table.asking_panel, str(q.expected))
    kept = ProgressStore(db).answers(student="ana")
    assert [(a.right, a.skill, a.level) for a in kept] == [
        (False, q.skill, "count"), (True, q.skill, "count")]
    assert kept[0].slip  # named by the classifier
    guest = play("suns_to_moons", query="delay=0&seats=human,strong", save=False)
    _choose_a_move(guest)
    type_answer(guest.asking_panel, str(guest.ctl.asking.pending.question.expected))
    assert len(ProgressStore(db).answers()) == 2  # a guest's answers stay in the page


def test_a_typed_value_the_browser_syncs_without_a_submission_is_not_graded():
    """Blur, a tap on the pad or a click elsewhere sends the typed text at most: only Enter,
    the pad's ✓ or Check submit (issue 25: a half-typed number was graded on blur)."""
    table = _table()
    panel = table.asking_panel
    _choose_a_move(table)
    q = table.ctl.asking.pending.question
    panel.w_answer.set_state({"value": str(q.expected)[:1] or "1"})  # half typed, then blur
    assert table.ctl.asking.pending is not None and table.ctl.asking.answers == []
    assert not table.refused


def test_a_named_students_step_down_is_kept_in_the_progress_store(tmp_path, monkeypatch):
    """A step down to "Show me the sums" (and back up) is evidence: it is in the student's
    progress file, and the teacher's grid names it."""
    from mathcards.exercises.progress import ProgressStore
    from mathcards.widgets.exercises import dashboard_html

    db = tmp_path / "progress.sqlite3"
    monkeypatch.setenv("MATHCARDS_PROGRESS", str(db))
    monkeypatch.delenv("MATHCARDS_CLASS_PROGRESS", raising=False)
    table = play("suns_to_moons", query="delay=0&seats=human,strong&student=Ana", save=False)
    table.asking_panel.w_level.value = SHOW
    table.asking_panel.w_level.value = COUNT
    assert not table.refused, table.message
    kept = ProgressStore(db).level_changes(student="ana")
    assert [(c.game, c.before, c.after) for c in kept] == [
        ("suns_to_moons", COUNT, SHOW), ("suns_to_moons", SHOW, COUNT)]
    assert "stepped down to Show me the sums in Suns to Moons once" in dashboard_html(db)
