"""The static site's pure-Python side (mathcards.site): the browser is told by the
platform, the name is kept once for every page, and a feature that needs a server says
so in one line with a link."""

from __future__ import annotations

import sys

from mathcards import site, storage
from mathcards.exercises.progress import JSON_FILE_NAME, default_progress_path


def test_the_browser_is_the_emscripten_platform(monkeypatch):
    assert not site.in_browser()
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert site.in_browser()


def test_the_name_is_kept_and_checked(tmp_path, monkeypatch):
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    assert site.kept_name() is None
    site.keep_name("  Ana ")
    assert site.kept_name() == "Ana"
    (tmp_path / site.NAME_FILE).write_text("<script>")  # a name the rule refuses
    assert site.kept_name() is None
    site.forget_name()
    assert site.kept_name() is None


def test_without_sqlite_progress_is_a_json_file(tmp_path, monkeypatch):
    monkeypatch.setenv(storage.ENV_VAR, str(tmp_path))
    monkeypatch.delenv("MATHCARDS_PROGRESS", raising=False)
    assert default_progress_path().suffix == ".sqlite3"
    monkeypatch.setattr(storage, "DB_ERRORS", ())
    assert default_progress_path() == tmp_path / JSON_FILE_NAME


def test_the_server_line_links_how_to_run_one():
    line = site.needs_server_html("Playing with classmates")
    assert "Playing with classmates needs a MathCards server" in line
    assert f'href="{site.SERVER_HELP}"' in line
