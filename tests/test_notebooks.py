"""Every notebook in lessons/ runs top to bottom headless, and is saved clean.

Also: the landing page holds exactly what ``landing_markdown()`` draws, links
only to pages that exist (or are announced), and the browser tests' Voilà
server starts with the same command line as ``make play``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import nbformat
import pytest

from tests.browser.server import LESSONS, REPO, TEMPLATES, play_command
from tests.registered import lessons, play_pages

NOTEBOOKS = sorted(LESSONS.glob("*.ipynb")) + sorted(LESSONS.glob("es/*.ipynb"))
SPANISH = sorted(LESSONS.glob("es/*.ipynb"))


def _id(path: Path) -> str:
    return str(path.relative_to(LESSONS))
STATE_VARS = {
    "HOME": "home",
    "JUPYTER_CONFIG_DIR": "jupyter_config",
    "JUPYTER_DATA_DIR": "jupyter_data",
    "JUPYTER_RUNTIME_DIR": "jupyter_runtime",
    "IPYTHONDIR": "ipython",
    "MATHCARDS_DATA_DIR": "mathcards_data",
}


@pytest.fixture
def isolated_jupyter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Kernel and Jupyter state in a tmp folder, never the home folder."""
    for var, sub in STATE_VARS.items():
        (tmp_path / sub).mkdir()
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    return tmp_path


def test_every_lesson_and_the_landing_page_exist():
    names = {_id(p) for p in NOTEBOOKS}
    for expected in ("index.ipynb", *lessons()):
        assert expected in names
    for lesson in lessons():  # each game's lesson in Spanish too (issue 41)
        assert f"es/{lesson}" in names


def _code_shape(source: str) -> str:
    """A code cell as its syntax tree with every string blanked: the same calls, names and
    numbers, whatever language its words are in."""
    import ast

    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


@pytest.mark.parametrize("path", SPANISH, ids=_id)
def test_a_spanish_lesson_is_its_english_lesson_in_spanish(path: Path):
    """The same cells as the English lesson, the same code (only its words differ), the
    page's language set first, its own title, its links reaching real pages, and its words
    in Spanish."""
    english = nbformat.read(LESSONS / path.name, as_version=4)
    spanish = nbformat.read(path, as_version=4)
    language = next(i for i, c in enumerate(spanish.cells) if c.cell_type == "code")
    assert spanish.cells[language].source.startswith(
        'from mathcards.i18n import use\n\nuse("es")'), spanish.cells[language].source
    cells = spanish.cells[:language] + spanish.cells[language + 1:]
    assert [c.cell_type for c in cells] == [c.cell_type for c in english.cells]
    for en, es in zip(english.cells, cells, strict=True):
        if en.cell_type == "code":
            assert _code_shape(es.source) == _code_shape(en.source), (path.name, en.source)
    assert spanish.metadata["title"] != english.metadata["title"]
    text = "\n".join(c.source for c in spanish.cells if c.cell_type == "markdown")
    for link in re.findall(r"\]\(([^)]+)\)", text):
        assert not link.startswith(("http:", "https:", "/")), link
        target = (path.parent / link.split("?")[0]).resolve()
        assert target.exists() or target.name in play_pages(), link
        assert link.endswith("?lang=es"), f"{link}: keep the reader in Spanish"
    from mathcards.games.registry import game_specs

    for spec in game_specs():  # the games' titles stay as they are
        text = text.replace(spec.title, "")
    english_words = re.findall(r"\b(the|and|you|your|with|cards?|play|rules?|round|game)\b",
                               re.sub(r"\([^)]*\)", "", text))
    assert not english_words, english_words


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_is_saved_without_outputs(path: Path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: a code cell was saved with outputs"
            assert cell.execution_count is None, f"{path.name}: saved with execution counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_has_a_page_title(path: Path):
    nb = nbformat.read(path, as_version=4)
    title = nb.metadata.get("title", "")
    assert title and title != path.stem, f"{path.name}: set metadata.title (the page's title)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_notebook_runs_top_to_bottom(path: Path, isolated_jupyter: Path):
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=180,
        kernel_name="python3",
        resources={"metadata": {"path": str(LESSONS)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert errors == []
    assert not any(isolated_jupyter.joinpath("home").glob(".local/share/jupyter/runtime/*"))


def test_landing_page_is_the_landing_markdown():
    from mathcards.widgets.lesson import landing_markdown

    nb = nbformat.read(LESSONS / "index.ipynb", as_version=4)
    assert landing_markdown() in [cell.source for cell in nb.cells]


def test_landing_links_reach_real_pages():
    """Every relative link of the landing page names a notebook in lessons/, or one
    of the pages other parts of the project add (the play pages, the teacher's guide)."""
    nb = nbformat.read(LESSONS / "index.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in nb.cells)
    links = set(re.findall(r'href="([^"]+)"', text)) | set(re.findall(r"\]\(([^)]+)\)", text))
    assert links, "the landing page has no links"
    announced = {*play_pages(), "teachers.ipynb"}
    for link in links:
        assert not link.startswith(("http:", "https:", "/")), f"{link}: keep links relative"
        assert link.endswith(".ipynb"), link
        assert (LESSONS / link).exists() or link in announced, f"{link} does not exist"
    for lesson in lessons():
        assert lesson in links


def test_browser_server_runs_make_play_command():
    """tests/browser/server.py starts Voilà exactly as the Makefile's play target."""
    dry = subprocess.run(
        ["make", "-n", "play", "HOST=127.0.0.1", "PORT=8899"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.replace("\\\n", " ")
    line = next(ln for ln in dry.splitlines() if "voila" in ln and "pip" not in ln)
    words = shlex.split(line)
    make_env = dict(word.split("=", 1) for word in words if re.match(r"^[A-Z_]+=", word))
    make_argv = [word for word in words if not re.match(r"^[A-Z_]+=", word)]
    env, argv = play_command(LESSONS, 8899)
    assert make_env == env == {"JUPYTER_PATH": str(TEMPLATES)}
    assert Path(REPO, make_argv[0]).resolve() == Path(argv[0]).resolve()
    assert make_argv[1:] == argv[1:]
