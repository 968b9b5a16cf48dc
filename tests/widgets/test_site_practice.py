"""The practice page on the static site, in a plain interpreter told it is the browser
(``sys.platform == "emscripten"``, no sqlite3): a set opens by its button in place (the
page's address never reaches the kernel there), and *Download my progress* gives the
browser's JSON progress file, which the teacher's results read. The same page in
Chromium on the built site: tests/browser/test_static_site.py."""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path

from mathcards import site, storage
from mathcards.exercises.results import read_results
from mathcards.widgets.exercises import ExerciseSetView, practice_page

EXERCISES = Path(__file__).resolve().parents[2] / "lessons" / "exercises"


def test_a_set_opens_in_place_and_the_progress_file_downloads(tmp_path, monkeypatch):
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path / "drive"))
    monkeypatch.delenv("MATHCARDS_PROGRESS", raising=False)
    monkeypatch.setattr(storage, "DB_ERRORS", ())  # no sqlite3, as in Pyodide
    monkeypatch.setattr(sys, "platform", "emscripten")
    (tmp_path / "drive").mkdir()
    site.keep_name("ana")

    page = practice_page(EXERCISES)
    head, sets, download = page.children
    assert "kept under your name (<b>ana</b>)" in head.value
    assert "href=" not in head.value  # no ?set= links: they would not reach the kernel
    buttons = {b.description: b for b in sets.children}
    assert "suns to moons" in buttons
    buttons["suns to moons"].click()
    back, view = page.children
    assert isinstance(view, ExerciseSetView) and view.session.student == "ana"
    assert view.session.check(1, "7").correct  # deck 9, −4, +2

    back.click()
    assert page.children == (head, sets, download)
    download.w_button.click()
    link = re.search(r'<a download="mathcards-progress-ana\.json" '
                     r'href="data:application/json;charset=utf-8;base64,([^"]+)"',
                     download.w_out.value)
    assert link, download.w_out.value
    data = json.loads(base64.b64decode(link.group(1)))
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mathcards-progress-ana.json").write_text(json.dumps(data))
    assert [(a.student, a.answer, a.correct) for a in read_results(folder)] == [
        ("ana", "7", True)]
