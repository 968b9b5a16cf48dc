"""The server's sets written on the teacher's page (mathcards.exercises.store): drafts,
publishing only a set the checker passes, unpublishing, and file names made safe."""

from __future__ import annotations

import pytest

from mathcards.exercises.store import DRAFT, PUBLISHED, SetStore, StoreError, safe_name

GOOD = """title: Integers 7B
id: integers_7b
exercises:
  - kind: deck_value
    deck: 9H -4S +2D
  - kind: deck_value
    deck: 4 random cards
  - kind: reach_goal
    deck: 7♥ -10♠
    hand: 3H 4S 9D
    goal: 0
"""
BAD_CARD = GOOD.replace("-4S", "-1OS")


@pytest.fixture
def store(tmp_path):
    return SetStore(tmp_path / "sets", reserved=["sums"])


def test_a_draft_is_kept_but_not_published(store):
    saved = store.save_draft(BAD_CARD)  # a draft may still have problems
    assert (saved.name, saved.status) == ("integers_7b", DRAFT)
    assert store.drafts() == ["integers_7b"] and store.published() == []
    assert store.path("integers_7b") is None  # what the practice page asks
    assert store.read("integers_7b") == BAD_CARD
    assert store.status("integers_7b") == DRAFT


def test_publishing_a_set_with_a_problem_is_refused_with_the_checkers_first_message(store):
    store.save_draft(BAD_CARD)
    with pytest.raises(StoreError) as refused:
        store.publish(BAD_CARD)
    assert "'1OS' is not a card" in str(refused.value)
    assert str(refused.value).startswith("not published: line 5: exercise 1:")
    assert store.published() == [] and store.drafts() == ["integers_7b"]
    assert not (store.folder / "integers_7b.yaml").exists()


def test_a_set_the_deep_check_refuses_is_not_published(store):
    impossible = GOOD.replace("hand: 3H 4S 9D\n    goal: 0", "hand: 2C\n    goal: 9")
    assert impossible != GOOD
    with pytest.raises(StoreError, match="line 8: exercise 3: no play reaches the goal 9"):
        store.publish(impossible)
    assert store.published() == []


def test_publish_then_unpublish(store):
    store.save_draft(GOOD)
    published = store.publish(GOOD)
    assert (published.name, published.status) == ("integers_7b", PUBLISHED)
    assert store.published() == ["integers_7b"] and store.drafts() == []
    assert store.path("integers_7b") == store.folder / "integers_7b.yaml"
    assert store.sets()[0].status == PUBLISHED
    back = store.unpublish("integers_7b")
    assert back.status == DRAFT and store.published() == [] and store.drafts() == ["integers_7b"]
    assert store.read("integers_7b") == GOOD
    with pytest.raises(StoreError, match="is not published"):
        store.unpublish("integers_7b")


def test_a_draft_of_a_published_set_never_changes_what_students_see(store):
    first = store.publish(GOOD)
    changed = GOOD.replace("Integers 7B", "Integers 7B (new)")
    store.save_draft(changed)  # failed before: the published set was taken away
    assert store.published() == ["integers_7b"] and store.drafts() == ["integers_7b"]
    assert (first.version, first.replaced) == (1, 0)
    assert store.path("integers_7b").read_text(encoding="utf-8") == GOOD
    assert store.read("integers_7b", PUBLISHED) == GOOD
    assert store.read("integers_7b", DRAFT) == changed
    assert store.version("integers_7b") == 1
    assert [(s.name, s.status) for s in store.sets()] == [("integers_7b", DRAFT),
                                                          ("integers_7b", PUBLISHED)]


def test_publishing_a_changed_set_makes_its_next_version_and_keeps_the_one_before(store):
    store.publish(GOOD)
    again = store.publish(GOOD)  # the same text: the same version
    assert (again.version, again.replaced) == (1, 0)
    changed = GOOD.replace("Integers 7B", "Integers 7B (new)")
    store.save_draft(changed)
    second = store.publish(changed)
    assert (second.version, second.replaced) == (2, 1)
    assert store.version("integers_7b") == 2 and store.versions("integers_7b") == [1, 2]
    assert store.read_version("integers_7b", 1) == GOOD
    assert store.read_version("integers_7b", 2) == changed
    assert store.drafts() == []  # the draft is what students now see
    store.unpublish("integers_7b")
    assert store.version("integers_7b") == 0
    assert store.publish(changed).version == 2  # as it was unpublished: no new version
    assert store.publish(GOOD).version == 3  # the first text again is a change
    with pytest.raises(StoreError, match="has no version 4"):
        store.read_version("integers_7b", 4)


def test_unpublishing_keeps_the_draft_the_teacher_was_writing(store):
    store.publish(GOOD)
    changed = GOOD.replace("Integers 7B", "Integers 7B (new)")
    store.save_draft(changed)
    store.unpublish("integers_7b")
    assert store.published() == [] and store.read("integers_7b") == changed
    assert store.read_version("integers_7b", 1) == GOOD


def test_the_editors_unsaved_text_is_kept_apart_from_the_sets(store):
    assert store.unsaved() == ""
    assert store.keep_unsaved(BAD_CARD)
    assert store.unsaved() == BAD_CARD
    assert store.sets() == []  # never listed as a set, never seen by students
    assert not store.keep_unsaved("x" * 1_000_001) and store.unsaved() == BAD_CARD
    store.forget_unsaved()
    assert store.unsaved() == ""


@pytest.mark.parametrize(("given", "name"), [
    ("Integers 7B!", "integers_7b"),
    ("../../etc/passwd", "etc_passwd"),
    ("Élève  ça/va", "eleve_ca_va"),
    ("a" * 80, "a" * 60),
    (7, "7"),
])
def test_names_are_made_safe(given, name):
    assert safe_name(given) == name


@pytest.mark.parametrize("given", ["", "../..", "☀☾", "   "])
def test_a_name_with_nothing_usable_is_refused_in_one_line(given):
    with pytest.raises(StoreError, match="gives no file name"):
        safe_name(given)


def test_the_file_name_comes_from_the_id_never_a_path(store):
    saved = store.save_draft(GOOD.replace("id: integers_7b", "id: ../../outside"))
    assert saved.name == "outside"
    assert (store.drafts_folder / "outside.yaml").is_file()
    assert not (store.folder.parent / "outside.yaml").exists()
    no_id = GOOD.replace("id: integers_7b\n", "")
    assert store.save_draft(no_id).name == "integers_7b"  # from the title
    for name in ("../x", "drafts/integers_7b", "", "A B"):
        assert store.path(name) is None
        with pytest.raises(StoreError, match="there is no set"):
            store.read(name)


def test_a_sample_sets_name_is_refused(store):
    with pytest.raises(StoreError, match="name of a sample set"):
        store.save_draft(GOOD.replace("id: integers_7b", "id: sums"))
    assert store.drafts() == []


def test_text_that_cannot_be_named_is_refused_with_its_yaml_line(store):
    with pytest.raises(StoreError, match="line 2: this is not valid YAML"):
        store.save_draft("title: [\n")
    with pytest.raises(StoreError, match="give the set an 'id:'"):
        store.save_draft("exercises: []\n")


def test_the_sets_folder_is_the_data_folders_unless_the_class_shares_another(tmp_path,
                                                                             monkeypatch):
    from mathcards.storage import data_dir

    monkeypatch.delenv("MATHCARDS_SETS", raising=False)
    assert SetStore().folder == data_dir() / "sets"
    monkeypatch.setenv("MATHCARDS_SETS", str(tmp_path / "class" / "sets"))
    SetStore().publish(GOOD)
    assert (tmp_path / "class" / "sets" / "integers_7b.yaml").is_file()
