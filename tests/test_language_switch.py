"""Choosing a page's language (issue 41 item 3): the class link's ?lang=, else the
language this browser remembers, else the browser's Accept-Language, else English; and
the switch every Voilà page shows lists every language with a catalog."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mathcards import i18n
from mathcards.widgets import REMEMBERED_HEADER, page_language

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "lessons/share/jupyter/voila/templates/mathcards/index.html.j2"
REMEMBERED = "HTTP_" + REMEMBERED_HEADER.upper().replace("-", "_")


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.use(i18n.SOURCE)


@pytest.mark.parametrize(("query", "remembered", "browser", "expected"), [
    ("", None, None, "en"),
    ("", None, "es-ES,es;q=0.9,en;q=0.8", "es"),
    ("", None, "fr-FR, de;q=0.5", "en"),
    ("", "es", "en-US,en;q=0.9", "es"),  # the remembered choice beats the browser's
    ("lang=en&student=ana", "es", "es-ES", "en"),  # a class link's ?lang wins
    ("lang=es", None, "en-US", "es"),
    ("lang=xx", "zz", "es", "es"),  # no catalog: the next in line
])
def test_a_page_chooses_its_language(monkeypatch, query, remembered, browser, expected):
    for name, value in ((REMEMBERED, remembered), ("HTTP_ACCEPT_LANGUAGE", browser)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert page_language(query) == expected
    assert i18n.language() == expected


def test_voila_passes_the_language_headers_to_the_kernel():
    config = json.loads((ROOT / "lessons/voila.json").read_text())
    assert {"Accept-Language", REMEMBERED_HEADER} <= set(
        config["VoilaConfiguration"]["http_header_envs"])


def test_the_switch_lists_every_language_each_in_its_own_words():
    found = re.search(r"var LANGS = (\[.*?\]);\n", TEMPLATE.read_text(encoding="utf-8"))
    assert found, "no LANGS in the page template"
    listed = json.loads(found.group(1))
    assert [code for code, _name in listed] == [
        lang for lang in i18n.available() if lang != i18n.PSEUDO]
    for code, name in listed:  # the language's name in that language
        assert name == {"en": "English", "es": "Español"}.get(code, name)


def test_the_switch_is_named_in_each_language_as_the_catalog_says():
    """The switch's <nav> is named for a screen reader in the page's language: the
    template's LABELS hold mathcards.widgets.LANGUAGE_SWITCH as each catalog words it."""
    from mathcards.widgets import LANGUAGE_SWITCH

    found = re.search(r"var LABELS = (\{.*?\});\n", TEMPLATE.read_text(encoding="utf-8"))
    assert found, "no LABELS in the page template"
    labels = json.loads(found.group(1))
    langs = [lang for lang in i18n.available() if lang != i18n.PSEUDO]
    assert sorted(labels) == sorted(langs)
    for lang in langs:
        with i18n.using(lang):
            assert labels[lang] == i18n.gettext(LANGUAGE_SWITCH), lang
    assert labels["es"] != labels["en"]  # a language with a catalog has its own word


def test_the_switch_knows_every_page_written_again_in_a_language():
    """The switch opens a page's copy in a language's folder (lessons/es/sums.ipynb for
    sums.ipynb) when there is one: its FOLDERS list is exactly the copies there are, so it
    never leads to a missing page nor leaves a copy out."""
    found = re.search(r"var FOLDERS = (\{.*?\});\n", TEMPLATE.read_text(encoding="utf-8"),
                      re.S)
    assert found, "no FOLDERS in the page template"
    folders = json.loads(found.group(1))
    lessons = ROOT / "lessons"
    written = {lang: sorted(p.stem for p in (lessons / lang).glob("*.ipynb"))
               for lang in i18n.available() if (lessons / lang).is_dir()}
    assert written.get("es"), "no Spanish pages found"
    assert {lang: sorted(pages) for lang, pages in folders.items()} == written
    for pages in folders.values():  # each a copy of an English page
        assert all((lessons / f"{page}.ipynb").is_file() for page in pages)
