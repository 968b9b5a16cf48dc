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
    text = re.sub(r"<(style|script)\b.*?</\1>|<[^>]+>", "", text, flags=re.S)  # HTML's tags
    text = re.sub(r"```.*?```|`[^`]*`", "", text, flags=re.S)  # code (the guide's: YAML)
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
        resources={"metadata": {"path": str(path.parent)}},  # as Voilà runs it
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
        path = link.split("?")[0]  # the Spanish page's link: es/index.ipynb?lang=es
        assert path.endswith(".ipynb"), link
        assert (LESSONS / path).exists() or path in announced, f"{link} does not exist"
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


# --- the landing page in Spanish (issue 41 item 2) --------------------------------------
SPANISH_LANDING = LESSONS / "es" / "index.ipynb"
# a word of English the Spanish pages must not show (the games' titles taken out first)
ENGLISH_WORDS = re.compile(
    r"\b(the|and|you|your|with|of|to|is|for|cards?|play|learn|practi[sc]es?|games?|die|"
    r"turned|showing|teachers?|pick|page|name|start)\b", re.I)


def _visible(html: str) -> str:
    """What a visitor reads or hears of a page's HTML: its text, and each picture's
    spoken label (``aria-label``, ``<title>``); styles, tags and addresses left out."""
    import html as html_lib

    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    labels = re.findall(r'aria-label="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # a Markdown link's address
    return html_lib.unescape(" ".join([text, *labels]))


def _links(text: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', text) + re.findall(r"\]\(([^)]+)\)", text)


def _run(nb: nbformat.NotebookNode, folder: Path, *extra: str) -> list[str]:
    """Execute ``nb`` (and ``extra`` code cells after it) in ``folder``, as Voilà runs a page:
    the text of every widget it drew, and the printed output of each extra cell."""
    from nbclient import NotebookClient

    nb.cells.extend(nbformat.v4.new_code_cell(code) for code in extra)
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    state = nb.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    said = [str(model["state"].get(field) or "") for model in state.values()
            for field in ("value", "description", "placeholder", "tooltip")
            if model["model_name"] != "TextModel" or field != "value"]
    printed = ["".join(o.get("text", "") for o in cell.outputs)
               for cell in nb.cells[len(nb.cells) - len(extra):]]
    return [*said, *printed]


def _page_text(nb: nbformat.NotebookNode) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def test_the_spanish_landing_page_is_the_landing_markdown_in_spanish():
    from mathcards.widgets.lesson import landing_markdown

    nb = nbformat.read(SPANISH_LANDING, as_version=4)
    assert landing_markdown("es") in [cell.source for cell in nb.cells], \
        "lessons/es/index.ipynb: its cards' cell is landing_markdown('es') (paste it in)"
    assert landing_markdown("es") != landing_markdown()


def test_the_spanish_landing_page_shows_no_english(isolated_jupyter: Path):
    """Everything a visitor reads on lessons/es/index.ipynb is Spanish: its text, the
    games' cards with their pictures' spoken labels, the name picker it runs and the
    greeting once a name is chosen; the game titles and the link to the English page,
    in English on purpose, aside. The English page, read the same way, has English."""
    from mathcards.games.registry import game_specs
    from mathcards.i18n import using
    from mathcards.widgets.classes import greeting_html
    from mathcards.widgets.lesson import landing_markdown
    from tests.test_i18n import _no_english_left

    greet = ("from mathcards.widgets.classes import greeting_html\n"
             "print(greeting_html('Ana', ''))")
    english = nbformat.read(LESSONS / "index.ipynb", as_version=4)
    spanish = nbformat.read(SPANISH_LANDING, as_version=4)
    english_page = _page_text(english).replace(
        '<a href="es/index.ipynb?lang=es" hreflang="es" lang="es">Español</a>', "")
    spanish_page = _page_text(spanish).replace(
        '<a href="../index.ipynb?lang=en" hreflang="en" lang="en">English</a>', "")
    english_widgets = _run(english, LESSONS, greet)
    spanish_widgets = _run(spanish, SPANISH_LANDING.parent, greet)
    with using("qps"):
        pseudo_greeting = _visible(greeting_html("Ana", ""))
    titles = "|".join(re.escape(s.title) for s in game_specs())
    said = [(_visible(english_page), _visible(spanish_page), ""),
            (_visible(landing_markdown()), _visible(landing_markdown("es")),
             _visible(landing_markdown("qps"))),
            (_visible(" ".join(english_widgets)), _visible(" ".join(spanish_widgets)), ""),
            (_visible(english_widgets[-1]), _visible(spanish_widgets[-1]), pseudo_greeting)]
    _no_english_left(said, ENGLISH_WORDS, rf"{titles}|MathCards|JupyterLab|Ana|[-+]?\d+")
    assert "Aprender" in spanish_page and "¿Quién eres?" in " ".join(spanish_widgets)


@pytest.mark.parametrize("landing", ["index.ipynb", "es/index.ipynb"])
def test_every_link_of_a_landing_page_reaches_a_notebook(landing: str,
                                                         isolated_jupyter: Path):
    """Both landing pages: each link of the page, and the greeting's links once a student
    is known (the practice page), open a notebook that exists, from the page's own folder;
    the Spanish page keeps its reader in Spanish, and each page links to the other in the
    other's own language."""
    page = LESSONS / landing
    nb = nbformat.read(page, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    greeting = _run(nb, page.parent, "from mathcards.widgets.classes import greeting_html\n"
                                     "print(greeting_html('Ana', ''))")[-1]
    links = _links(text) + _links(greeting)
    assert "practice.ipynb?student=Ana" in greeting
    for link in links:
        assert not link.startswith(("http:", "https:", "/")), f"{link}: keep links relative"
        path = link.split("?")[0].split("#")[0]
        assert path.endswith(".ipynb") and (page.parent / path).is_file(), f"{landing}: {link}"
    switch = {"index.ipynb": ("es/index.ipynb?lang=es", "es", "Español"),
              "es/index.ipynb": ("../index.ipynb?lang=en", "en", "English")}[landing]
    assert f'<a href="{switch[0]}" hreflang="{switch[1]}" lang="{switch[1]}">{switch[2]}</a>' \
        in text
    if landing.startswith("es/"):
        own = _links(text)  # the greeting's links need not: the browser remembers ?lang=es
        kept = [link for link in own if link.endswith("?lang=es")]
        assert len(kept) == len(own) - 1, "every link but the English page's keeps ?lang=es"
        for lesson in lessons():
            assert f"{lesson}?lang=es" in links  # the lessons in Spanish, beside it
        for link in _links(greeting):  # the practice page in Spanish, beside it too
            assert not link.startswith("../"), link


TEACHER_PAGES = ("teachers", "write_set", "classes", "assignment", "dashboard", "student")


def test_the_spanish_pages_are_preheated_as_their_english_pages():
    """Voilà (lessons/voila.json) keeps a warm kernel for the Spanish landing page, lessons,
    play and practice pages as for the English ones, and none for a teacher's page (the
    guide, the teacher's pages, one student's page) in Spanish."""
    import json
    from types import SimpleNamespace

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    config = json.loads((LESSONS / "voila.json").read_text())
    assert config["VoilaConfiguration"]["preheat_kernel"] is True
    pools = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    denied = SimpleNamespace(preheat_denylist=config["VoilaKernelManager"]["preheat_denylist"])
    spanish = sorted(p.relative_to(LESSONS) for p in LESSONS.glob("es/*.ipynb"))
    assert Path("es/index.ipynb") in spanish
    for page in spanish:
        warm = pools._notebook_filter(denied, page)
        assert warm == pools._notebook_filter(denied, Path(page.name)), page
        assert warm == (page.stem not in TEACHER_PAGES), page


# --- the teacher's guide in Spanish (issue 41 item 2) -----------------------------------
SPANISH_GUIDE = LESSONS / "es" / "teachers.ipynb"
# an English word that no Spanish sentence has (``a``, ``no``, ``es`` are Spanish too)
ENGLISH_SENTENCE_WORDS = re.compile(
    r"\b(the|and|you|your|with|of|to|is|for|in|on|at|by|or|it|this|that|what|which|when|"
    r"every|each|cards?|play|learn|practi[sc]es?|games?|teachers?|students?|page|name|pick|"
    r"start|link|class|set|rules?|round)\b", re.I)


def _headings(nb: nbformat.NotebookNode) -> list[str]:
    """The Markdown headings' levels, cell by cell (code blocks' comments are not)."""
    levels = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text = re.sub(r"```.*?```", "", cell.source, flags=re.S)
            levels.append(" ".join(re.findall(r"^(#+) ", text, flags=re.M)))
    return levels


def test_the_spanish_guide_is_the_english_guide_in_spanish():
    """lessons/es/teachers.ipynb: every cell of the English guide (and the page's language
    cell), the same headings, and no English sentence left once code (spans, blocks), card
    notation, the games' titles and the links' addresses are taken out; the English guide,
    read the same way, has English. (Its links, code and language cell:
    test_a_spanish_lesson_is_its_english_lesson_in_spanish; that it runs:
    test_notebook_runs_top_to_bottom.)"""
    from mathcards.games.registry import game_specs
    from tests.test_i18n import _no_english_left

    english = nbformat.read(LESSONS / "teachers.ipynb", as_version=4)
    spanish = nbformat.read(SPANISH_GUIDE, as_version=4)
    assert len(spanish.cells) == len(english.cells) + 1  # the page's language
    assert _headings(spanish) == _headings(english)
    assert "## 9. " in _page_text(spanish) and "# Guía del profesor" in _page_text(spanish)

    def prose(nb: nbformat.NotebookNode) -> list[str]:
        return [re.sub(r"```.*?```|`[^`]*`", " ", _visible(c.source), flags=re.S)
                for c in nb.cells if c.cell_type == "markdown"]

    titles = "|".join(re.escape(s.title) for s in game_specs())
    cards = r"\b(?:10|[2-9AJQK])[HSDC]\b|\b[RGPB]\d+\b|JK"
    said = [(en, es, "") for en, es in zip(prose(english), prose(spanish), strict=True)]
    _no_english_left(said, ENGLISH_SENTENCE_WORDS, rf"{titles}|{cards}")


# --- the play, practice, student and teacher's pages in Spanish (issue 41 item 2) ---------
# each of them a page of its own in lessons/es/, as the lessons, the landing page and the guide
PAGES = (*play_pages(), "practice.ipynb", "student.ipynb", "classes.ipynb",
         "dashboard.ipynb", "assignment.ipynb", "write_set.ipynb")


def test_every_page_has_its_spanish_page():
    """Every page a student or a teacher opens has its Spanish page beside the lessons."""
    english = {p.name for p in LESSONS.glob("*.ipynb")}
    assert set(PAGES) <= english
    assert sorted(english) == sorted(p.name for p in SPANISH)


@pytest.mark.parametrize("page", PAGES)
def test_a_spanish_page_is_its_english_page_in_spanish(page: str):
    """lessons/es/<page>: the English page's cells (and the page's language cell first), its
    code as it is (the sample sets read from ``../exercises``, as Voilà runs it in
    lessons/es/), the same headings, and no English sentence left once code spans, card
    notation, the games' titles and the links' addresses are taken out; the English page,
    read the same way, has English."""
    from mathcards.games.registry import game_specs
    from tests.test_i18n import _no_english_left

    english = nbformat.read(LESSONS / page, as_version=4)
    spanish = nbformat.read(LESSONS / "es" / page, as_version=4)
    assert spanish.cells[1].source.startswith('from mathcards.i18n import use\n\nuse("es")')
    cells = spanish.cells[:1] + spanish.cells[2:]
    assert [c.cell_type for c in cells] == [c.cell_type for c in english.cells]
    for en, es in zip(english.cells, cells, strict=True):
        if en.cell_type == "code":
            assert es.source.replace('"../exercises"', '"exercises"') == en.source, page
    assert _headings(spanish) == _headings(english)

    def prose(nb: nbformat.NotebookNode) -> list[str]:
        return [re.sub(r"`[^`]*`", " ", _visible(c.source))
                for c in nb.cells if c.cell_type == "markdown"]

    titles = "|".join(re.escape(s.title) for s in game_specs())
    said = [(en, es, "") for en, es in zip(prose(english), prose(spanish), strict=True)]
    _no_english_left(said, ENGLISH_SENTENCE_WORDS, rf"{titles}|CSV|\b[+−-]?\d+[♥♠♦♣]")


@pytest.mark.parametrize("path", SPANISH, ids=_id)
def test_every_link_of_a_spanish_page_stays_in_spanish(path: Path):
    """Each link of a page of lessons/es/ (its Markdown, and the cards the landing page
    draws) opens a Spanish page beside it, in Spanish (``?lang=es``): the play, practice
    and teacher's pages included, never the English page one folder up (the landing page's
    'English' link aside)."""
    nb = nbformat.read(path, as_version=4)
    text = _page_text(nb).replace(
        '<a href="../index.ipynb?lang=en" hreflang="en" lang="en">English</a>', "")
    links = _links(text)
    assert links, path
    for link in links:
        target = link.split("?")[0].split("#")[0]
        assert "/" not in target and (path.parent / target).is_file(), f"{path.name}: {link}"
        assert link.split("#")[0].endswith("?lang=es"), f"{path.name}: {link}"
