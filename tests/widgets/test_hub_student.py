"""On a JupyterHub the student is the hub login (issue 16 item 1).

``JUPYTERHUB_USER`` is set in every single-user server a hub starts: saves and
progress follow the login, ``?student=`` in an address cannot change them, and
any login (spaces, other alphabets, 200 characters, capitals) gets a slot of its
own that is the same every session and never shared with another login.
"""

from __future__ import annotations

import random
import re

import pytest

from mathcards.students import hub_student_id, save_slot, student_id
from mathcards.widgets import play, student_slot
from tests.widgets.helpers import click_something
from tests.widgets.test_students import WARM_UP

ODD_LOGINS = ["Ana", "ANA", "ana", "ana maria", "Ana  Maria", "José Ñúñez", "josé ñúñez",
              "李小龍", "a" * 200, "a" * 199 + "A", "ana--x", "u-" + "0" * 24, "ana@school.org",
              "-dash", "٣", "x" * 40, "X" * 40, "🙂", "ana/../../etc"]


def _one_move(table) -> None:
    rng = random.Random(0)
    start = len(table.state.history)
    while len(table.state.history) == start:
        click_something(table, rng)


@pytest.fixture
def hub_user(monkeypatch):
    def login(name: str) -> None:
        monkeypatch.setenv("JUPYTERHUB_USER", name)
    return login


def test_every_login_gets_its_own_stable_safe_slot():
    slots = {login: save_slot(hub_student_id(login)) for login in ODD_LOGINS}
    assert len(set(slots.values())) == len(ODD_LOGINS)  # no two logins share one
    for login, slot in slots.items():
        assert re.fullmatch(r"[a-z0-9_-]{1,40}", slot), (login, slot)
        assert save_slot(hub_student_id(login)) == slot  # the same next session
        sid = hub_student_id(login)
        assert student_id(sid) == sid  # the exercise session keeps the id as it is


@pytest.mark.parametrize("a, b", [("Ana", "ana"), ("ANA", "Ana"), ("José", "josé"),
                                  ("a" * 199 + "A", "a" * 200), ("X" * 40, "x" * 40)])
def test_logins_differing_only_by_case_never_share_a_slot(a, b):
    assert hub_student_id(a) != hub_student_id(b)
    assert save_slot(hub_student_id(a)) != save_slot(hub_student_id(b))


def test_a_folded_login_is_its_own_id_and_others_keep_a_readable_prefix():
    assert hub_student_id("ana") == "ana"
    assert hub_student_id("josé ñúñez") == "josé ñúñez"
    assert hub_student_id("Ana").startswith("ana--")
    assert hub_student_id("a" * 200).startswith("a" * 16 + "--")


def test_the_hub_login_wins_over_the_address(data_dir, hub_user):
    hub_user("Ana Maria")
    slot, who, problem = student_slot("bo")
    assert (who, problem) == ("Playing as Ana Maria", "")
    table = play("sums", query="student=bo&delay=0")
    assert table.slot == slot and slot not in ("bo", "guest")
    assert "Playing as Ana Maria" in table.w_header.value and not table.refused
    _one_move(table)
    assert sorted(p.name for p in (data_dir / "tables").glob("sums-*.json")) == [
        f"sums-{slot}.json"]


def test_two_hub_users_keep_their_games_apart(data_dir, hub_user):
    hub_user("ana")
    ana = play("suns_to_moons", query="delay=0&level=show")
    _one_move(ana)
    hub_user("Ana")  # another login, same letters
    other = play("suns_to_moons", query="student=ana&delay=0&level=show")
    assert other.w_banner.value == ""  # nothing of ana's to resume
    hub_user("ana")
    again = play("suns_to_moons", query="delay=0&level=show")
    assert "saved" in again.w_banner.value


def test_outside_a_hub_nothing_changes(data_dir, monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    assert student_slot("Ana") == ("ana", "Playing as Ana", "")
    assert student_slot(None)[0] == "guest"


def test_practice_progress_is_kept_under_the_login(data_dir, hub_user, tmp_path):
    from mathcards.exercises import ProgressStore
    from mathcards.widgets.exercises import practice_page

    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "warm_up.yaml").write_text(WARM_UP, encoding="utf-8")
    store = ProgressStore(tmp_path / "p.sqlite3")
    hub_user("Ana")
    listing = practice_page(str(tmp_path / "sets"), query="student=bo", store=store)
    assert "student=" not in listing.value and "Ana" in listing.value
    view = practice_page(str(tmp_path / "sets"), query="set=warm_up&student=bo", store=store)
    view.submit("-3H")
    hub_user("ana")
    practice_page(str(tmp_path / "sets"), query="set=warm_up&student=Ana",
                  store=store).submit("+3H")
    assert sorted(a.student for a in store.attempts()) == sorted(
        [hub_student_id("Ana"), "ana"])
    store.close()
