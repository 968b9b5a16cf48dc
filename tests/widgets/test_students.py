"""One save per student: the page address names the student (``?student=ana``).

Every visitor of one Voilà server shares its data folder, so the save slot is
the student's name from the address; without one the page plays as "guest"
and says how to add a name.
"""

from __future__ import annotations

import random

import pytest

from mathcards.widgets import play, query_settings, student_slot
from tests.widgets.helpers import click_something


def _one_move(table) -> None:
    rng = random.Random(0)
    start = len(table.state.history)
    while len(table.state.history) == start:
        click_something(table, rng)


@pytest.mark.parametrize("name", ["ana", "Ana", "bo-2", "x_y", "a" * 40, "0"])
def test_good_names_are_their_own_slot(name):
    slot, who, problem = student_slot(name)
    assert slot == name.lower() and who == f"Playing as {name}" and problem == ""


@pytest.mark.parametrize("name", ["a" * 41, "ana b", "../etc", "ana/..", "<b>x</b>", "é",
                                  "ana;rm", "ana.json"])
def test_bad_names_give_one_line_and_play_as_guest(name):
    slot, who, problem = student_slot(name)
    assert slot == "guest" and "guest" in who
    assert problem and "\\n" not in problem
    assert "letters, digits, - and _" in problem and "?student=" in problem


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
    ana = play("suns_to_moons", query="student=ana&delay=0")
    _one_move(ana)
    bo = play("suns_to_moons", query="student=bo&delay=0")
    assert bo.w_banner.value == ""  # nothing to resume for bo
    guest = play("suns_to_moons", query="delay=0")
    assert guest.w_banner.value == ""
    again = play("suns_to_moons", query="student=ANA&delay=0")  # names ignore case
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
