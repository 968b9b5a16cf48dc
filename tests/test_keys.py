"""The server's secrets: the teacher's key and the variant secret (issue 11 item 2)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from mathcards import keys
from mathcards.errors import MathCardsError
from mathcards.exercises import load_set, variant_seed
from mathcards.widgets.teacher import teacher_only

LESSONS = os.path.join(os.path.dirname(__file__), os.pardir, "lessons")


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A server with nothing configured: the secrets come from its data folder."""
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv(keys.TEACHER_ENV, raising=False)
    monkeypatch.delenv(keys.SECRET_ENV, raising=False)
    return tmp_path


def test_the_teacher_key_is_made_once_readable_by_its_owner_only(server):
    first = keys.teacher_key()
    assert len(first) >= 20 and keys.teacher_key() == first
    mode = stat.S_IMODE(os.stat(server / keys.TEACHER_FILE).st_mode)
    assert mode == 0o600
    out = subprocess.run([sys.executable, "-m", "mathcards", "teacher-key"],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert out.returncode == 0 and out.stdout.strip() == first



def test_the_teachers_links_open_every_teacher_page(server):
    """What ``make play`` prints for whoever runs the server to hand on: a link with the
    key to each teacher's page, *Write a set* (where the guide starts) included."""
    import io

    from mathcards.__main__ import teacher_key

    out = io.StringIO()
    assert teacher_key(["--url", "http://school:8866/"], out=out) == 0
    key = keys.teacher_key()
    printed = out.getvalue().split()
    for page in ("write_set.ipynb", "classes.ipynb", "dashboard.ipynb", "teachers.ipynb"):
        assert f"http://school:8866/voila/render/{page}?key={key}" in printed, page

def test_the_cookie_secret_is_made_once_readable_by_its_owner_only(server):
    first = keys.cookie_secret()
    assert len(first) >= 40 and keys.cookie_secret() == first
    assert stat.S_IMODE(os.stat(server / keys.COOKIE_FILE).st_mode) == 0o600
    assert first != keys.teacher_key().encode()


def test_the_environment_sets_the_key_and_a_short_one_is_refused(server, monkeypatch):
    monkeypatch.setenv(keys.TEACHER_ENV, "a-long-classroom-key")
    assert keys.is_teacher_key("a-long-classroom-key")
    assert not keys.is_teacher_key("a-long-classroom-kez")
    assert not (server / keys.TEACHER_FILE).exists()
    monkeypatch.setenv(keys.TEACHER_ENV, "short")
    assert not teacher_only("key=short", show=False)


def test_a_students_server_on_a_hub_makes_no_teachers_key(server, monkeypatch):
    """Issue 26 item 9: with the hub's MathCards service and no teacher's key in its
    environment (a student's server), teacher pages stay shut and no key file is made
    (fails before: a key was made in the student's own data folder)."""
    monkeypatch.setenv("MATHCARDS_HUB_SERVICE_URL", "http://127.0.0.1:9/services/mathcards/")
    with pytest.raises(MathCardsError, match="teacher's server"):
        keys.teacher_key()
    assert not teacher_only("key=anything-at-all", show=False)
    assert not (server / keys.TEACHER_FILE).exists()
    monkeypatch.setenv(keys.TEACHER_ENV, "a-long-classroom-key")  # a teacher's server
    assert teacher_only("key=a-long-classroom-key", show=False)


@pytest.mark.parametrize("query, opens", [
    ("", False), ("key=", False), ("key=wrong", False), ("student=ana", False),
    ("key=RIGHT", True), ("student=ana&key=RIGHT", True),
])
def test_a_teacher_page_opens_only_with_the_key(server, query, opens):
    right = keys.teacher_key()
    assert teacher_only(query.replace("RIGHT", right), show=False) is opens


def test_teacher_pages_are_gated_in_the_notebooks():
    import nbformat

    for name in ("dashboard.ipynb", "teachers.ipynb", "write_set.ipynb"):
        nb = nbformat.read(os.path.join(LESSONS, name), as_version=4)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        guarded = [src for src in code if "display(dashboard(" in src or "teacher=True" in src
                   or "set_writer(" in src]
        assert guarded, name
        for src in guarded:
            assert "if teacher_only():" in src, f"{name}: {src[:60]}"


def test_variants_depend_on_the_servers_secret(server, monkeypatch):
    suns = load_set(os.path.join(LESSONS, "exercises", "suns_to_moons.yaml"))
    randomised = [e for e in suns if e.variant("ana").text != e.variant("ben").text]
    assert randomised, "the sample set has no exercise that varies by student"
    exercise = randomised[0]
    mine = exercise.variant("ana").text
    assert exercise.variant("ana").text == mine  # the same on every visit
    public = variant_seed(suns.id, exercise.id, "ana", secret="")  # what anyone computes
    assert variant_seed(suns.id, exercise.id, "ana") != public
    secret = (server / keys.SECRET_FILE).read_text().strip()
    assert variant_seed(suns.id, exercise.id, "ana", secret=secret) == variant_seed(
        suns.id, exercise.id, "ana")
    monkeypatch.setenv(keys.SECRET_ENV, "another-server-secret")  # another server
    assert variant_seed(suns.id, exercise.id, "ana") != variant_seed(
        suns.id, exercise.id, "ana", secret=secret)
