"""deploy/site/build.py's patch of the kernel worker (issue 40): each place the worker
loads Pyodide starts from the site's snapshot, and a worker that loads it otherwise (a new
jupyterlite-pyodide-kernel) stops the build with one line instead of a site that silently
starts without it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _build():
    spec = importlib.util.spec_from_file_location("site_build", REPO / "deploy/site/build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the shape of jupyterlite-pyodide-kernel 0.7.0's minified worker start
WORKER = ('async initRuntime(e){let t,{pyodideUrl:n,indexUrl:s}=e;n.endsWith(".mjs")?'
          't=(await r(476)(n)).loadPyodide:(importScripts(n),t=self.loadPyodide),'
          'this._pyodide=await t({indexURL:s})}')


def test_the_worker_starts_from_the_snapshot(tmp_path):
    (tmp_path / "352.js").write_text(WORKER + WORKER.replace("(n)", "(q)").replace("n,", "q,"))
    (tmp_path / "154.js").write_text("no pyodide here")
    assert _build().patch_worker(tmp_path) == 2
    text = (tmp_path / "352.js").read_text()
    assert text.count("(function mathcardsStart(load, pyodideUrl)") == 2
    assert "}))(self.loadPyodide,n))" in text and "}))(self.loadPyodide,q))" in text
    assert "=self.loadPyodide)" not in text
    assert (tmp_path / "154.js").read_text() == "no pyodide here"


@pytest.mark.parametrize("chunk", [
    WORKER.replace("(importScripts(n),t=self.loadPyodide)",
                   "(importScripts(n),t=globalThis.loadPyodide)"),
    WORKER.replace("(importScripts(n),t=self.loadPyodide)",
                   "(await importScripts(n),t=self.loadPyodide)"),
])
def test_a_worker_that_no_longer_matches_stops_the_build(tmp_path, chunk):
    (tmp_path / "352.js").write_text(chunk)
    with pytest.raises(SystemExit) as stopped:
        _build().patch_worker(tmp_path)
    message = str(stopped.value)
    assert message.startswith("site: ") and "WORKER_START" in message, message
    assert "\n" not in message


def test_the_site_has_no_link_to_the_pages_of_a_server_only(tmp_path):
    """The static site holds the English pages only: the landing page's link to the Spanish
    one (lessons/es/, issue 41) is left out, and its other links become the site's pages
    (fails before: the site kept a link to es/index.ipynb, a page it does not have)."""
    import nbformat
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    landing = nbformat.read(REPO / "lessons" / "index.ipynb", as_version=4)
    body = "".join(markdown2html_mistune(c.source) for c in landing.cells
                   if c.cell_type == "markdown")
    assert 'href="es/index.ipynb?lang=es"' in body  # the server's page links to it
    render = tmp_path / "voici" / "render"
    render.mkdir(parents=True)
    (render / "index.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    _build().finish(tmp_path)
    text = (render / "index.html").read_text(encoding="utf-8")
    assert "es/index" not in text and "Español" not in text
    assert 'href="practice.html"' in text and 'href="teachers.html"' in text
