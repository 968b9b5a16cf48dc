"""Changes of the level of help at a table (issue 25: a step down to "Show me the sums" is
evidence) kept in the progress file: their own table, read back by the teacher's reader,
and files written before the table existed."""

from __future__ import annotations

import shutil
import sqlite3

from mathcards.asking import COUNT, COUNT_NO_HINTS, SHOW, Answer, LevelChange
from mathcards.exercises import ProgressStore
from mathcards.exercises.results import read_answers, read_level_changes


def _changes() -> list[LevelChange]:
    return [LevelChange("ana", "suns_to_moons", COUNT, SHOW, f"2026-05-04T10:0{i}:00.000+00:00")
            for i in range(2)] + [
        LevelChange("ana", "suns_to_moons", SHOW, COUNT, "2026-05-04T10:05:00.000+00:00"),
        LevelChange("ben", "dice_stacks", COUNT_NO_HINTS, COUNT, "2026-05-04T10:06:00.000+00:00")]


def test_level_changes_are_kept_on_disk_and_filtered(tmp_path):
    changes = _changes()
    store = ProgressStore(tmp_path / "p.sqlite3")
    for change in changes:
        assert store.record_level(change) is change
    store.record_level(changes[0])  # the same change again (same uid): kept once
    store.close()
    again = ProgressStore(tmp_path / "p.sqlite3")  # a new connection: it is on disk
    try:
        assert again.level_changes() == changes
        assert again.level_changes(student="ana", game="suns_to_moons") == changes[:3]
        assert again.level_changes(game="dice_stacks") == changes[3:]
    finally:
        again.close()
    assert [c.stepped_down for c in changes] == [True, True, False, True]
    assert read_level_changes(tmp_path / "p.sqlite3") == changes
    assert read_level_changes(tmp_path) == changes  # a class folder of databases


# the progress file as main wrote it before level changes were kept
OLD_SCHEMA = """
CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL, student TEXT NOT NULL, set_id TEXT NOT NULL, set_title TEXT NOT NULL,
    exercise TEXT NOT NULL, number INTEGER NOT NULL, kind TEXT NOT NULL,
    variant TEXT NOT NULL, answer TEXT NOT NULL, correct INTEGER NOT NULL,
    score REAL NOT NULL, hints_used INTEGER NOT NULL, seconds REAL NOT NULL);
CREATE TABLE answers (id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL, student TEXT NOT NULL, game TEXT NOT NULL, skill TEXT NOT NULL,
    prompt TEXT NOT NULL, numbers TEXT NOT NULL, expected TEXT NOT NULL,
    given TEXT NOT NULL, right INTEGER NOT NULL, slip TEXT NOT NULL, seconds REAL NOT NULL,
    level TEXT NOT NULL, source TEXT NOT NULL);
CREATE TABLE solutions (id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL, student TEXT NOT NULL, set_id TEXT NOT NULL, exercise TEXT NOT NULL,
    number INTEGER NOT NULL);
INSERT INTO answers (uid, at, student, game, skill, prompt, numbers, expected, given, right,
    slip, seconds, level, source)
VALUES ('a1', '2024-01-01T00:00:00.000+00:00', 'ana', 'suns_to_moons', 'cross_zero',
    'The deck is 3; you lay 5♣ upright. Now?', '3 -5', '-2', '-2', 1, '', 2.5, 'count',
    'play');
"""


def test_a_file_written_before_level_changes_were_kept(tmp_path):
    """The teacher reads an old file as it is (no level changes, its answers); a page
    opening it adds the table and keeps the old rows."""
    old = tmp_path / "class" / "ana" / "progress.sqlite3"
    old.parent.mkdir(parents=True)
    conn = sqlite3.connect(old)
    conn.executescript(OLD_SCHEMA)
    conn.commit()
    conn.close()
    untouched = tmp_path / "untouched.sqlite3"
    shutil.copy(old, untouched)
    assert read_level_changes(untouched) == []  # read only: the old file stays old
    assert read_level_changes(tmp_path / "class") == []
    conn = sqlite3.connect(untouched)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert "level_changes" not in tables

    store = ProgressStore(old)
    try:
        assert [a.uid for a in store.answers()] == ["a1"] and store.level_changes() == []
        change = store.record_level(LevelChange("ana", "suns_to_moons", COUNT, SHOW))
        assert store.level_changes() == [change]
    finally:
        store.close()
    assert read_level_changes(tmp_path / "class") == [change]
    assert [a.uid for a in read_answers(tmp_path / "class")] == ["a1"]


def test_the_skill_grid_shows_who_stepped_down():
    """Where the teacher reads the evidence: a student who stepped down to "Show me the
    sums" at a table is named, with the game and how often; back up is said too."""
    from mathcards.exercises.skill_grid import skill_grid
    from mathcards.widgets.skill_grid import skill_grid_html

    answer = Answer(student="ana", game="suns_to_moons", skill="cross_zero", prompt="?",
                    numbers=(3, -5), expected="-2", given="-2", right=True)
    html = skill_grid_html(skill_grid([answer]), levels=_changes())
    assert "stepped down to Show me the sums" in html
    assert "Suns to Moons" in html and "2 times" in html
    assert "back up to I count" in html
    assert "ben" in html  # a student with a change of level and no answer yet
    assert "stepped down" not in skill_grid_html(skill_grid([answer]))
