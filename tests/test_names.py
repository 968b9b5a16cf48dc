"""A ``?student=`` name belongs to the browser that first used it (issue 26 item 8).

The claims table on a real SQLite file: the same browser keeps its name, another
browser is refused it, under every spelling the one rule of names folds together
(NFKC, casefold), until the teacher releases it or the claim lapses with the cookie
that made it.
"""

from __future__ import annotations

import pytest

from mathcards import names
from mathcards.names import CLAIM_DAYS, NameClaims
from mathcards.students import StudentNameError

ANA, BO = "a" * 32, "b" * 32  # two browsers' tokens (mathcards.visitors)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    path = tmp_path / "mathcards_data"
    path.mkdir()
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(path))
    return path


@pytest.fixture
def claims(tmp_path):
    table = NameClaims(tmp_path / "names.sqlite3")
    yield table
    table.close()


def test_the_first_browser_keeps_its_name(claims):
    assert claims.claim("ana", ANA)
    assert claims.claim("ana", ANA)  # a reload, another page, another day
    assert [c.name for c in claims.claims()] == ["ana"]


def test_another_browser_is_refused_a_claimed_name(claims):
    assert claims.claim("ana", ANA)
    assert not claims.claim("ana", BO)
    assert claims.claim("zoe", BO)  # a free name is its own
    assert not claims.claim("zoe", ANA)


@pytest.mark.parametrize("spelling", ["ANA", "Ana", "ａｎａ", "ＡＮＡ", " ana "])
def test_every_spelling_of_a_name_is_that_name(claims, spelling):
    assert claims.claim("ana", ANA)
    assert not claims.claim(spelling, BO)
    assert claims.claim(spelling, ANA)


def test_a_released_name_goes_to_the_next_browser(claims):
    assert claims.claim("José", ANA)
    assert not claims.claim("josé", BO)
    assert claims.release("JOSÉ")
    assert not claims.release("josé")  # nothing left to release
    assert claims.claim("josé", BO)
    assert not claims.claim("José", ANA)


def test_a_claim_lapses_with_the_cookie_that_made_it(claims):
    day = 86400.0
    assert claims.claim("ana", ANA, now=0.0)
    assert not claims.claim("ana", BO, now=CLAIM_DAYS * day - 1)
    assert claims.claim("ana", ANA, now=CLAIM_DAYS * day - 1)  # use does not extend it
    assert claims.claim("ana", BO, now=CLAIM_DAYS * day + 1)  # that cookie has expired
    assert not claims.claim("ana", ANA, now=CLAIM_DAYS * day + 2)


def test_claims_outlive_the_process(tmp_path):
    """Kept in a file of the data folder: a restarted server still knows them."""
    first = NameClaims(tmp_path / "names.sqlite3")
    assert first.claim("ana", ANA)
    first.close()
    again = NameClaims(tmp_path / "names.sqlite3")
    assert not again.claim("ana", BO)
    again.close()


def test_a_bad_name_is_never_claimed(claims):
    with pytest.raises(StudentNameError):
        claims.claim("<b>x</b>", ANA)
    assert claims.claims() == []


def test_the_page_side_says_one_line_and_the_guest_is_everyones(data_dir):
    assert names.claim("Ana", ANA) == ""
    taken = names.claim("ANA", BO)
    assert "\n" not in taken and "taken on this server" in taken
    assert "pick another name" in taken and "teacher" in taken and "release" in taken
    assert names.claim("guest", ANA) == names.claim("Guest", BO) == ""
    assert names.release("ana") and names.claim("ana", BO) == ""


def test_an_unreadable_names_file_refuses_the_name(data_dir):
    """A name nobody can check protects nobody: refused in one line, never a traceback."""
    (data_dir / names.NAMES_FILE).mkdir()  # a folder where the file should be
    problem = names.claim("ana", ANA)
    assert problem == names.UNCHECKED and "\n" not in problem


LOOK_ALIKES = ["\u0430na",  # Cyrillic а, Latin n a
               "an\u0430",  # Latin a n, Cyrillic а
               "\u0391na",  # Greek capital Alpha
               "Ma\u0443a"]  # Cyrillic у inside Latin Maya


@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_a_name_mixing_scripts_is_refused_not_another_student(claims, look_alike):
    """Issue 36 item 7: NFKC does not fold scripts, so a Cyrillic "аna" would be another
    student that looks like "ana": the one rule refuses a name that mixes scripts, in one
    line that says how to fix it, and nothing is claimed."""
    assert claims.claim("ana", ANA)
    with pytest.raises(StudentNameError) as refused:
        claims.claim(look_alike, BO)
    line = str(refused.value)
    assert "\n" not in line and "mixes" in line and "one alphabet" in line
    assert [c.name for c in claims.claims()] == ["ana"]


@pytest.mark.parametrize("name", ["Ана", "Δημήτρης", "山田はなこ", "アンナ", "김민준", "José",
                                  "o'neil", "ʻIolana", "ana.b@school"])
def test_a_name_in_one_script_is_still_a_name(claims, name):
    """Names written in one script (Japanese mixes kanji and kana, as it is written) and the
    ʻokina (a modifier letter) are kept."""
    assert claims.claim(name, ANA)
    assert not claims.claim(name, BO)
