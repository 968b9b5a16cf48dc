"""A game a student plays to its end is kept for the class's assignments (issue 38 item 1):
recorded by the real table in the real progress store, read back by the teacher's side
read-only, and counted by the assignment it belongs to."""

from __future__ import annotations

import datetime as dt
import json

from mathcards.assignments import DONE, GAME, IN_PROGRESS, AssignmentStore, game_progress
from mathcards.exercises.progress import ProgressStore
from mathcards.exercises.results import read_finished_games
from mathcards.widgets import play
from tests.widgets.helpers import play_to_end


def test_a_game_played_to_its_end_is_kept_and_counts_for_the_assignment(tmp_path,
                                                                        monkeypatch):
    db = tmp_path / "class" / "ana" / "progress.sqlite3"
    monkeypatch.setenv("MATHCARDS_PROGRESS", str(db))
    today = dt.datetime.now(dt.timezone.utc).date()
    with AssignmentStore(tmp_path / "classes.sqlite3") as store:
        two = store.add("7b", GAME, "sums", opens=today, due=today, level="show", games=2)
    for seed in (3, 4):
        table = play("sums", query="delay=0&seats=human,random&student=Ana&level=show",
                     save=False)
        before = len(ProgressStore(db).finished_games()) if db.exists() else 0
        play_to_end(table, seed=seed)
        kept = ProgressStore(db).finished_games(student="ana")
        assert len(kept) == before + 1  # once, at the game's end
        assert (kept[-1].game, kept[-1].level) == ("sums", "show")
        assert kept[-1].won == (0 in table.state.winners)
        rows = game_progress(two, ["ana", "bo"], read_finished_games(tmp_path / "class"))
        assert [(r.student, r.state, r.done) for r in rows] == [
            ("ana", IN_PROGRESS if seed == 3 else DONE, 1 if seed == 3 else 2),
            ("bo", "not started", 0)]
    guest = play("sums", query="delay=0&seats=human,random&level=show", save=False)
    play_to_end(guest, seed=5)
    assert len(ProgressStore(db).finished_games()) == 2  # a guest's game stays in the page


def test_the_static_sites_progress_file_keeps_finished_games_and_old_files_read(tmp_path):
    path = tmp_path / "progress.json"
    old = {"attempts": [], "answers": [], "solutions": [], "level_changes": []}
    path.write_text(json.dumps(old))  # a file written before games were kept
    assert read_finished_games(path) == []
    from mathcards.exercises.progress import FinishedGame

    store = ProgressStore(path)
    game = store.record_game(FinishedGame.new(student="ana", game="dice_stacks",
                                              level="count", won=True))
    store.record_game(game)  # the same record twice is kept once
    assert read_finished_games(path) == [game] == ProgressStore(path).finished_games()
