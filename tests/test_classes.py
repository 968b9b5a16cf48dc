"""A teacher's classes (issue 28, item 2): a class id the links carry and its list of names,
kept in SQLite in the data folder; each name checked by the one rule of names."""

from __future__ import annotations

import re

import pytest

from mathcards.classes import (
    CODE_LENGTH,
    CODE_LETTERS,
    ClassError,
    ClassStore,
    class_id,
    clean_code,
    find_class,
    member_for_code,
    member_named,
    parse_names,
)
from mathcards.students import StudentNameError, clean_name


@pytest.fixture
def store(tmp_path):
    with ClassStore(tmp_path / "classes.sqlite3") as opened:
        yield opened


def test_a_class_is_made_listed_and_read_back_in_the_teachers_order(store):
    made = store.save("7B", "Maya\nAna, Bo\n\n  Zoë  ")
    assert made.id == "7b" and not made.codes
    assert made.names == ["Maya", "Ana", "Bo", "Zoë"]
    assert store.get("7b") == made and store.get("7B") == made
    store.save("8a", ["Lee"])
    assert [c.id for c in store.classes()] == ["7b", "8a"]
    assert store.get("9c") is None and store.get("../x") is None and store.get(7) is None


def test_the_store_is_a_file_other_pages_read(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    with ClassStore() as store:
        store.save("7b", "Ana\nBo")
    assert (tmp_path / "classes.sqlite3").exists()
    found = find_class("7b")
    assert found is not None and found.names == ["Ana", "Bo"]
    assert find_class("nope") is None


def test_saving_again_replaces_the_list(store):
    store.save("7b", "Ana\nBo")
    store.save("7b", "Bo\nCy")
    assert store.get("7b").names == ["Bo", "Cy"]
    assert store.remove("7b") and store.get("7b") is None and not store.remove("7b")


def test_codes_are_short_unique_in_the_class_and_kept_for_a_kept_name(store):
    names = [f"s{i}" for i in range(40)]
    made = store.save("7b", names, codes=True)
    codes = [m.code for m in made.members]
    assert all(c and len(c) == CODE_LENGTH and set(c) <= set(CODE_LETTERS) for c in codes)
    assert len(set(codes)) == len(codes)
    again = store.save("7b", ["s1", "new"], codes=True)
    assert again.members[0].code == made.members[1].code  # s1 keeps the code printed
    assert again.members[1].code and again.members[1].code not in (None, "")
    # the code typed in lower case, with spaces, finds the student; a wrong one nobody
    s1 = again.members[0]
    assert member_for_code(again, f"  {s1.code.lower()} ") == s1
    assert member_for_code(again, "???") is None and member_for_code(again, None) is None
    assert clean_code("ab") == "" and clean_code(12) == ""
    plain = store.save("7b", ["s1"], codes=False)
    assert plain.members[0].code is None and member_for_code(plain, s1.code) is None


def test_a_name_in_two_classes_is_one_student(store):
    store.save("7b", "Ana\nBo")
    store.save("chess-club", "ANA\nLee", codes=True)
    seven, club = store.get("7b"), store.get("chess-club")
    assert member_named(seven, "ana").name == "Ana"
    assert member_named(club, "Ana").name == "ANA"
    # the one rule folds both to the same student id: one progress record
    assert member_named(seven, "ana").name.casefold() == member_named(club, "ana").name.casefold()
    assert member_named(seven, "Lee") is None and member_named(seven, "<b>") is None


@pytest.mark.parametrize("text", ["Maya!", "<b>x</b>", "a" * 200, "ana  b"])
def test_a_class_list_refuses_a_name_in_the_rules_own_words(store, text):
    with pytest.raises(StudentNameError) as rule:
        clean_name(text)
    with pytest.raises(ClassError) as listed:
        store.save("7b", f"Ana\n{text}")
    assert str(rule.value) in str(listed.value)
    assert store.get("7b") is None  # nothing saved


def test_a_list_names_every_problem_and_a_name_twice(store):
    with pytest.raises(ClassError, match="twice"):
        parse_names("Ana\nANA")
    with pytest.raises(ClassError, match="no names"):
        parse_names(" \n , ")
    with pytest.raises(ClassError, match="more than a class"):
        parse_names("\n".join(f"s{i}" for i in range(61)))


@pytest.mark.parametrize("text", ["", "7 b", "../x", "a" * 21, "<b>", "-7b", 7])
def test_a_class_id_is_short_and_plain(text):
    with pytest.raises(ClassError) as exc:
        class_id(text)
    assert "\n" not in str(exc.value) and re.search("like 7b", str(exc.value))


def test_a_name_on_a_list_with_codes_is_claimed_only_by_its_code(tmp_path, monkeypatch):
    """A class with codes answers who may use a name on a shared server: the first browser
    to type Maya's code holds the name; the name alone claims nothing."""
    from mathcards import names

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    mayas, other = "a" * 32, "b" * 32
    with ClassStore() as store:
        store.save("7b", "Maya\nAna")
        assert names.claim("Maya", other) == ""  # no codes: the first browser's
        assert names.release("Maya")
        store.save("7b", "Maya\nAna", codes=True)
    assert names.claim("MAYA", other) == names.CODED.format(name="MAYA")
    assert names.claim("Maya", mayas, by_code=True) == ""
    assert names.claim("maya", mayas) == ""  # her browser keeps it, links need no code
    assert "taken on this server" in names.claim("Maya", other, by_code=True)
    assert names.claim("Lee", other) == ""  # on no coded list: as before


@pytest.mark.parametrize("lang", ["es", "qps"])
def test_a_class_s_refusals_and_code_cards_are_in_the_page_s_language(store, lang):
    """Issue 41 item 1: what the class page says about a class id or a list it cannot use,
    and the printed code cards, with no English word left but names, codes and ids."""
    from mathcards.classes import code_cards_html
    from mathcards.i18n import using

    made = store.save("7b", "Ana\nBo", codes=True)

    def said() -> list[str]:
        out = []
        for bad in (lambda: class_id("7 B!"), lambda: class_id(7),
                    lambda: parse_names("Ana\nana"), lambda: parse_names("\n"),
                    lambda: parse_names("\n".join(f"n{i}" for i in range(61)))):
            with pytest.raises(ClassError) as raised:
                bad()
            out.append(str(raised.value))
        page = code_cards_html(made, "school.example/mathcards")
        page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
        return [*out, re.sub(r"<[^>]+>", " ", page), re.search(r'lang="(\w+)"', page)[1]]

    english = said()
    with using(lang):
        shown = said()
    assert english[-1] == "en" and shown[-1] == lang
    codes = "|".join(m.code for m in made.members if m.code)
    kept = rf"'[^']*'|\b(Ana|Bo|7b|{codes}|MathCards|school\.example/mathcards)\b|\b\d+\b|a-z"
    assert re.search(r"\b(class|names|list|type|code)\b", " ".join(english[:-1]))
    for en, text in zip(english[:-1], shown[:-1], strict=True):
        plain = re.sub(kept, "", text)
        if lang == "qps":
            assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, text)
        else:
            assert not re.search(r"\b(class|names?|list|type|your|code|the|and|use|letters)\b",
                                 plain), (en, text)
