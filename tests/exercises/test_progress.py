"""Progress is not lost: it survives a new process, two writers at once, and a CSV round trip."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mathcards.exercises import Attempt, ProgressStore, load_set_text, read_csv
from mathcards.exercises.progress import ProgressError, default_progress_path
from mathcards.exercises.results import class_table, most_missed, read_results

SET = """\
title: Warm-up
id: warm-up
solution_after: 2
exercises:
  - kind: reach_goal
    deck: 7H -10S
    hand: 3H 4S 9D
    goal: 0
  - kind: who_takes_trick
    trick: G12 G3 R3
"""


@pytest.fixture
def warm_up():
    return load_set_text(SET, name="warm-up")


def test_default_location_is_the_data_folder_and_is_a_setting(tmp_path, monkeypatch):
    assert default_progress_path() == tmp_path / "data" / "progress.sqlite3"
    monkeypatch.setenv("MATHCARDS_PROGRESS", str(tmp_path / "hub" / "class.sqlite3"))
    store = ProgressStore()
    assert store.path == tmp_path / "hub" / "class.sqlite3" and store.path.exists()
    mode = store._conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_rooms_and_progress_open_their_files_the_same_way(tmp_path, monkeypatch):
    """Both SQLite stores open their file through ``storage.open_database``: WAL (read back
    from the file by a new connection), ``synchronous=NORMAL``, each its own busy timeout."""
    from mathcards import storage
    from mathcards.rooms import RoomStore

    opened = []
    open_database = storage.open_database

    def spy(path, **options):
        opened.append(path.name)
        return open_database(path, **options)

    monkeypatch.setattr(storage, "open_database", spy)
    rooms = RoomStore(tmp_path / "rooms.sqlite3")
    progress = ProgressStore(tmp_path / "progress.sqlite3")
    assert opened == ["rooms.sqlite3", "progress.sqlite3"]
    for connection, name, busy_ms in ((rooms._db, "rooms.sqlite3", 10_000),
                                      (progress._conn, "progress.sqlite3", 30_000)):
        with contextlib.closing(sqlite3.connect(tmp_path / name)) as reader:
            assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert connection.execute("PRAGMA busy_timeout").fetchone()[0] == busy_ms
        assert connection.isolation_level is None  # the stores write in write_transaction
    rooms.close()
    progress.close()


def test_attempts_survive_a_kernel_restart(tmp_path, warm_up):
    """The student answers in one process; a new process (a restarted kernel) sees it all."""
    db = tmp_path / "progress.sqlite3"
    code = textwrap.dedent(f"""
        import sys
        from mathcards.exercises import ProgressStore, load_set_text
        s = load_set_text(sys.stdin.read(), name="warm-up")
        session = s.session("ana", store=ProgressStore({str(db)!r}))
        session.hint(1)
        session.check(1, "-3H")
        session.check(1, "+3H")
        session.check(2, 0)
        """)
    done = subprocess.run([sys.executable, "-c", code], input=SET, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    session = warm_up.session("ana", store=ProgressStore(db))
    attempts = session.attempts()
    assert [(a.number, a.answer, a.correct, a.hints_used) for a in attempts] == [
        (1, "-3H", False, 1), (1, "+3H", True, 1), (2, "G12", False, 0)]
    assert attempts[0].variant == "deck: 7H -10S; hand: 3H 4S 9D; goal: 0; most_plays: 1"
    progress = session.progress()
    assert [(p.attempts, p.solved) for p in progress] == [(2, True), (1, False)]
    assert session.wrong_attempts(2) == 1 and not session.solution_ready(2)
    session.check(2, 1)  # the second wrong attempt opens the worked solution (N = 2)
    assert session.solution_ready(2)
    assert session.solution(2).headline == "▲3 takes the trick."


WRITER = textwrap.dedent("""
    import sys
    from mathcards.exercises import Attempt, ProgressStore
    db, who, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = ProgressStore(db)
    for i in range(n):
        store.record(Attempt.new(student=who, set_id="s", set_title="S", exercise=str(i % 5),
                                 number=i % 5 + 1, kind="reach_goal", variant="v",
                                 answer=f"{who}-{i}", correct=i % 3 == 0, score=0.5,
                                 hints_used=0, seconds=1.0))
    print("done")
    """)


def test_two_writers_at_once_lose_nothing(tmp_path):
    """Two processes (two tabs, two kernels) hammer the same file; every attempt is kept."""
    db = tmp_path / "shared.sqlite3"
    ProgressStore(db).close()  # created before, as the first tab would
    n = 300
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), who, str(n)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for who in ("tab-a", "tab-b")]
    outs = [p.communicate(timeout=300) for p in procs]
    elapsed = time.perf_counter() - start
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0 and out.strip() == "done", err
    store = ProgressStore(db)
    attempts = store.attempts()
    assert len(attempts) == 2 * n
    for who in ("tab-a", "tab-b"):
        mine = [a.answer for a in attempts if a.student == who]
        assert mine == [f"{who}-{i}" for i in range(n)]  # all there, in order
    assert len({a.uid for a in attempts}) == 2 * n
    print(f"two writers: {2 * n} attempts in {elapsed:.2f}s")


def test_csv_export_round_trips(tmp_path):
    # commas, quotes and non-ASCII in the text fields must survive the CSV
    warm_up = load_set_text(SET.replace("title: Warm-up", "title: 'Warm-up, \"part 1\" – café'"),
                            name="warm-up")
    store = ProgressStore(tmp_path / "a.sqlite3")
    for student in ("ana", "ben jr", "o'neil"):
        session = warm_up.session(student, store=store)
        session.check(1, "-3H")
        session.hint(1)
        session.hint(1)
        session.check(1, "+3H")
        session.check(2, "R3")
    exported = store.export_csv(tmp_path / "all.csv")
    back = read_csv(tmp_path / "all.csv")
    assert back == store.attempts()
    assert back[0].set_title == 'Warm-up, "part 1" – café'
    assert all(isinstance(a, Attempt) for a in back)
    other = ProgressStore(tmp_path / "b.sqlite3")
    assert other.import_csv(tmp_path / "all.csv") == 9
    assert other.import_csv(tmp_path / "all.csv") == 0  # the same attempts are not added twice
    assert other.export_csv() == exported


def test_a_file_that_is_not_an_export_is_named(tmp_path):
    bad = tmp_path / "marks.csv"
    bad.write_text("name,mark\nana,7\n")
    with pytest.raises(ProgressError, match=r"marks\.csv is not a MathCards export"):
        read_csv(bad)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ProgressError, match="cannot use"):
        ProgressStore(junk)


def test_dashboard_reads_a_folder_of_exports_or_one_database(tmp_path, warm_up):
    store = ProgressStore(tmp_path / "class.sqlite3")
    answers = {"ana": [(1, "-3H"), (1, "+3H"), (2, 2)],
               "ben": [(1, "+9D"), (1, "-4S"), (2, 0), (2, 2)],
               "cy": [(2, 1)]}
    folder = tmp_path / "exports"
    folder.mkdir()
    for student, given in answers.items():
        session = warm_up.session(student, store=store)
        for number, answer in given:
            session.check(number, answer)
        store.export_csv(folder / f"{student}.csv", student=student)
    store.export_csv(folder / "everyone.csv")  # overlapping exports count once
    from_folder = read_results(folder)
    from_db = read_results(tmp_path / "class.sqlite3")
    assert sorted(a.uid for a in from_folder) == sorted(a.uid for a in from_db)
    assert len(from_folder) == 8
    rows = {r.student: r for r in class_table(from_folder)}
    assert (rows["ana"].solved, rows["ana"].attempts) == (2, 3)
    assert (rows["ben"].solved, rows["ben"].attempts) == (1, 4)
    assert (rows["cy"].solved, rows["cy"].exercises) == (0, 1)
    missed = most_missed(from_folder)
    # exercise 1: ana once, ben twice (3 wrong); exercise 2: ben once, cy once (2 wrong)
    assert [(m.number, m.wrong, m.students) for m in missed] == [(1, 3, 2), (2, 2, 2)]


def test_dashboard_chart_is_plain_svg(tmp_path, warm_up):
    from mathcards.widgets.exercises import class_table_html, missed_chart_svg

    store = ProgressStore(tmp_path / "c.sqlite3")
    warm_up.session("ana", store=store).check(1, "-3H")
    attempts = store.attempts()
    svg = missed_chart_svg(most_missed(attempts))
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "1 wrong of 1 try" in svg
    assert "<td>ana</td>" in class_table_html(class_table(attempts))
    assert Path(tmp_path / "c.sqlite3").exists()


def test_most_missed_labels_wrap_in_whole_words_and_counts_have_units():
    """Issue 28: "Integers warm-up (" (a label cut mid-word) and "3 of 5" (no unit)."""
    from mathcards.exercises.results import Missed
    from mathcards.widgets.exercises import missed_chart_svg

    item = Missed(set_id="i", set_title="Integers warm-up (signed addition)", exercise="4",
                  number=4, title="Make stacks that reach the dice's sum", wrong=3,
                  attempts=5, students=2)
    svg = missed_chart_svg([item], students=4)
    words = " ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg))
    assert words == "4. Make stacks that reach the dice&#x27;s sum"  # every word whole
    assert "3 wrong of 5 tries, 2 of 4 students" in svg
