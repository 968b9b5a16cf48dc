"""One save per student: the page address names the student (``?student=ana``).

Every visitor of one Voilà server shares its data folder, so the save slot is
the student's name from the address; without one the page plays as "guest"
and says how to add a name.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from mathcards.errors import MathCardsError
from mathcards.widgets import play, query_settings, student_slot
from tests.widgets.helpers import click_something

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
WARM_UP = """title: Warm-up
exercises:
  - kind: reach_goal
    deck: 7H -10S
    hand: 3H 4S 9D
    goal: 0
"""


def _one_move(table) -> None:
    rng = random.Random(0)
    start = len(table.state.history)
    while len(table.state.history) == start:
        click_something(table, rng)


@pytest.mark.parametrize("name, slot", [
    ("ana", "ana"), ("Ana", "ana"), ("ANA", "ana"), ("bo-2", "bo-2"), ("x_y", "x_y"),
    ("a" * 40, "a" * 40), ("0", "0"),
])
def test_good_names_are_their_own_slot(name, slot):
    got, who, problem = student_slot(name)
    assert got == slot and who == f"Playing as {name}" and problem == ""


@pytest.mark.parametrize("name", ["José", "ana b", "o'neil", "ana.json", "zoë"])
def test_names_beyond_ascii_get_a_safe_slot_of_their_own(name):
    slot, who, problem = student_slot(name)
    assert problem == "" and who == f"Playing as {name}"
    assert re.fullmatch(r"[a-z0-9_-]{1,40}", slot) and slot != "guest"
    assert student_slot(name.upper())[0] == slot  # one student whatever the case


@pytest.mark.parametrize("name", ["a" * 41, "../etc", "ana/..", "<b>x</b>", "ana;rm",
                                  "ana  b", "-ana", "٣", "ana\tb", "\u202eana"])
def test_bad_names_give_one_line_and_play_as_guest(name):
    slot, who, problem = student_slot(name)
    assert slot == "guest" and "guest" in who
    assert problem and "\n" not in problem
    assert "letters or digits" in problem and "?student=" in problem


def test_one_rule_for_games_and_practice(data_dir, tmp_path):
    """'Ana' and 'ana' share a saved game and their exercise progress (issue 11 item 12)."""
    from mathcards.exercises import ProgressStore, load_set_text
    from mathcards.students import student_id

    for name in ("Ana", "José", "o'neil"):
        assert student_slot(name)[0] == student_slot(name.lower())[0]
        assert student_id(name) == student_id(name.lower())
    for bad in ("<b>x</b>", "a" * 41, "٣"):
        assert student_slot(bad)[0] == "guest"
        with pytest.raises(MathCardsError):
            student_id(bad)
    store = ProgressStore(tmp_path / "p.sqlite3")
    warm_up = load_set_text(WARM_UP, name="warm-up")
    assert not warm_up.session("Ana", store=store).check(1, "-3H").correct
    assert len(warm_up.session("ana", store=store).attempts(1)) == 1
    assert {a.student for a in store.attempts()} == {"ana"}
    store.close()


def test_no_name_plays_as_guest_and_says_how_to_add_one(data_dir):
    table = play("dice_stacks", query="delay=0")
    assert table.slot == "guest"
    assert "Playing as guest" in table.w_header.value
    assert "?student=yourname" in table.w_header.value
    assert not table.refused
    _one_move(table)
    assert (data_dir / "tables" / "dice_stacks-guest.json").exists()


def test_the_page_says_who_is_playing_and_saves_in_their_slot(data_dir):
    table = play("sums", query="student=ana&delay=0")
    assert "Playing as ana" in table.w_header.value
    _one_move(table)
    assert (data_dir / "tables" / "sums-ana.json").exists()
    assert not (data_dir / "tables" / "sums.json").exists()


def test_students_do_not_see_each_others_saved_games(data_dir):
    ana = play("suns_to_moons", query="student=ana&delay=0&level=show")
    _one_move(ana)
    bo = play("suns_to_moons", query="student=bo&delay=0&level=show")
    assert bo.w_banner.value == ""  # nothing to resume for bo
    guest = play("suns_to_moons", query="delay=0&level=show")
    assert guest.w_banner.value == ""
    again = play("suns_to_moons", query="student=ANA&delay=0&level=show")  # names ignore case
    assert "saved" in again.w_banner.value
    again.w_resume.click()
    assert again.state == ana.state


def test_a_bad_name_from_the_address_is_refused_in_one_line(data_dir):
    table = play("dice_stacks", query="student=ana%2F..%2Fx&delay=0")
    assert table.refused and "cannot be used" in table.message and "\\n" not in table.message
    assert table.slot == "guest"
    _one_move(table)
    files = sorted(p.name for p in (data_dir / "tables").iterdir())
    assert files == ["dice_stacks-guest.json"]


def test_query_settings_keeps_the_name_as_given_for_checking():
    assert query_settings("student=ana&delay=0")["student"] == "ana"
    assert query_settings("student=&delay=0")["student"] == ""
    assert "student" not in query_settings("delay=0")


def test_the_dashboard_names_no_server_path_and_opens_before_any_answer(data_dir, tmp_path):
    from mathcards.exercises import ProgressStore, load_set_text
    from mathcards.widgets.exercises import dashboard

    empty = dashboard().value  # a fresh server: no progress database yet
    assert "0 attempts" in empty and str(data_dir) not in empty
    store = ProgressStore()
    load_set_text(WARM_UP, name="warm-up").session("ana", store=store).check(1, "+3H")
    store.close()
    shown = dashboard().value
    assert "1 attempt" in shown and str(data_dir) not in shown
    exports = tmp_path / "exports"
    exports.mkdir()
    ProgressStore().export_csv(exports / "ana.csv")
    shown = dashboard(exports).value
    assert "1 attempt" in shown and str(tmp_path) not in shown and "exports" in shown


def test_a_broken_progress_file_is_one_line_on_the_practice_page(data_dir):
    from mathcards.widgets.exercises import practice_page

    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "progress.sqlite3").write_bytes(b"this is not a database" * 100)
    page = practice_page(str(LESSONS / "exercises"), query="set=sums&student=ana")
    assert "cannot be saved on this server" in page.value
    assert str(data_dir) not in page.value


def test_the_teacher_releases_a_name_from_the_dashboard(data_dir):
    """The dashboard's Names panel lists the claimed names and releases one: the next
    browser to use it gets it (issue 26 item 8)."""
    from mathcards import names
    from mathcards.widgets.teacher import NamesPanel

    first, second = "a" * 32, "b" * 32  # two browsers' tokens
    assert names.claim("Ana", first) == "" and names.claim("bo", first) == ""
    assert "taken on this server" in names.claim("ana", second)
    panel = NamesPanel()
    assert "Claimed (2): ana, bo" in panel.w_list.value
    panel.w_name.value = "ANA"
    panel.w_release.click()
    assert "free again" in panel.w_line.value and "Claimed (1): bo" in panel.w_list.value
    assert names.claim("ana", second) == ""
    assert not panel.release("nobody") and "nothing to release" in panel.w_line.value
    assert not panel.release("<b>x</b>") and "mc-refused" in panel.w_line.value
    assert "<b>x</b>" not in panel.w_line.value  # escaped


def test_a_claimed_name_plays_as_the_guest_in_another_browser(data_dir):
    """``student_slot`` with a Voilà page's browser: the first browser's name is its own,
    another browser gets the guest's slot and one line (issue 26 item 8)."""
    first, second = "a" * 32, "b" * 32
    assert student_slot("Ana", first) == ("ana", "Playing as Ana", "")
    slot, who, problem = student_slot("ａｎａ", second)
    assert slot == "guest" and "guest" in who and "Ana" not in who
    assert "taken on this server" in problem and "\n" not in problem
    assert student_slot("ANA", first)[0] == "ana"
    assert student_slot("Ana")[0] == "ana"  # no browser (JupyterLab): a label, as before
    assert student_slot("guest", second)[0] == "guest"  # the guest's name is everyone's


@pytest.mark.parametrize("lang", ["es", "qps"])
def test_the_names_panel_and_the_locked_page_are_in_the_page_s_language(data_dir, lang):
    """Issue 41 item 1: the Names panel (a real names file), its release lines and the
    teacher-only page's refusals, with no English word left but names and code."""
    import re

    from mathcards import names
    from mathcards.i18n import using
    from mathcards.widgets.teacher import LOCKED, WRONG, NamesPanel

    assert names.claim("ana", "a" * 32) == ""

    def drawn() -> str:
        panel = NamesPanel()
        said = [panel.w_list.value, panel.w_name.placeholder, panel.w_name.description,
                panel.w_release.description]
        panel.release("ana")
        said.append(panel.w_line.value)
        panel.release("zed")
        said += [panel.w_line.value, panel.w_list.value]
        from mathcards.i18n import _
        said += [_(LOCKED), _(WRONG)]
        return " ".join(said)

    english = drawn()
    assert names.claim("ana", "a" * 32) == ""
    with using(lang):
        shown = drawn()
    text = re.sub(r"<style>.*?</style>|<code>.*?</code>|<[^>]+>", " ", shown, flags=re.S)
    text = re.sub(r"\b(ana|zed|key|cookies)\b", "", text)  # names; the address's ?key=
    assert re.search(r"\b(Names|Claimed|Release|free again|teachers)\b", english)
    if lang == "qps":
        assert not re.search(r"\b[A-Za-z]{2,}\b", text), text
    else:
        assert not re.search(r"\b(Names?|Claimed|Release|free|again|Nobody|teachers?|"
                             r"page|browser|the|none|yet)\b", text), text
