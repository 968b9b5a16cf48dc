"""The teacher's pages on a Voilà page without the teacher's key: no solution, no
student's variant, no class results in any output (the notebook run as Voilà runs it)."""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from tests.browser.server import LESSONS
from tests.test_notebooks import isolated_jupyter  # noqa: F401  (the fixture)


def run_as_voila(name: str, query: str) -> str:
    """Every output of the notebook (and its widgets' state) run with the page's query."""
    from nbclient import NotebookClient

    nb = nbformat.read(LESSONS / name, as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(LESSONS)}}).execute()
    texts = [json.dumps(out, ensure_ascii=False) for cell in nb.cells
             if cell.cell_type == "code" for out in cell.outputs]
    return "\n".join(texts) + json.dumps(nb.metadata.get("widgets", {}), ensure_ascii=False)


@pytest.mark.parametrize("query", ["", "key=not-the-key"])
def test_the_teachers_guide_shows_no_solution_without_the_key(query, isolated_jupyter,  # noqa: F811
                                                              monkeypatch):
    monkeypatch.setenv("QUERY_STRING", query)  # what Voilà gives the page's kernel
    shown = run_as_voila("teachers.ipynb", query)
    assert "This page is for teachers" in shown or "not right" in shown
    assert "Right:" not in shown  # the teacher's own check: its feedback shows the right play
    from mathcards.exercises import load_set

    suns = load_set(LESSONS / "exercises" / "suns_to_moons.yaml")
    for student in ("ana", "ben"):  # the variants the teacher's part prints
        assert suns[6].variant(student).text not in shown
    assert "Class table" not in shown and "Each student, each exercise" not in shown


def test_the_dashboard_shows_nothing_without_the_key(isolated_jupyter, monkeypatch):  # noqa: F811
    monkeypatch.setenv("QUERY_STRING", "key=")
    shown = run_as_voila("dashboard.ipynb", "key=")
    assert "This page is for teachers" in shown
    assert "Class table" not in shown and "A link for the class" not in shown


@pytest.mark.parametrize("query", ["", "key=not-the-key"])
def test_the_classes_page_shows_no_class_without_the_key(query, isolated_jupyter,  # noqa: F811
                                                         monkeypatch, tmp_path):
    """A class's names and codes (issue 28 item 2) show only with the teacher's key."""
    from mathcards.classes import ClassStore

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "data"))
    with ClassStore() as store:
        made = store.save("7b", "Nia\nOto", codes=True)
    monkeypatch.setenv("QUERY_STRING", query)
    shown = run_as_voila("classes.ipynb", query)
    assert "This page is for teachers" in shown or "not right" in shown
    assert "Nia" not in shown and "Save the class" not in shown
    # a code is six capitals or digits: as a word of its own (the widgets' JSON holds
    # thousands of characters, where a few in a row can occur by chance)
    leaked = [m.code for m in made.members
              if m.code and re.search(rf"(?<![A-Za-z0-9]){m.code}(?![A-Za-z0-9])", shown)]
    assert not leaked, f"codes on the page: {leaked}"
    assert "A link for the class" not in shown and "Make the rooms" not in shown


@pytest.mark.parametrize("query", ["", "key=not-the-key"])
def test_the_assignment_page_shows_no_student_without_the_key(query, isolated_jupyter,  # noqa: F811
                                                              monkeypatch, tmp_path):
    """Issue 38: an assignment's page lists a class's students and their work."""
    from mathcards.assignments import SET, AssignmentStore
    from mathcards.classes import ClassStore

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "data"))
    with ClassStore() as store:
        store.save("7b", "Nia\nOto")
    with AssignmentStore() as store:
        made = store.add("7b", SET, "sums", opens="2026-12-01", due="2026-12-05")
    monkeypatch.setenv("QUERY_STRING", f"{query}&id={made.id}")
    shown = run_as_voila("assignment.ipynb", f"{query}&id={made.id}")
    assert "This page is for teachers" in shown or "not right" in shown
    assert "Nia" not in shown and "Oto" not in shown and "Download the rows" not in shown


@pytest.mark.parametrize("query", ["", "key=not-the-key"])
def test_a_students_page_shows_nothing_without_the_key(query, isolated_jupyter,  # noqa: F811
                                                       monkeypatch, tmp_path):
    """Issue 38 item 3: one student's answers are for the teacher only."""
    from mathcards.asking import Answer
    from mathcards.exercises import ProgressStore

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "data"))
    store = ProgressStore()
    store.record_answer(Answer(student="nia", game="sums", skill="add_positive",
                               prompt="a question only Nia saw", numbers=(1,), expected="12",
                               given="13", right=False))
    store.close()
    monkeypatch.setenv("QUERY_STRING", f"{query}&who=Nia")
    shown = run_as_voila("student.ipynb", f"{query}&who=Nia")
    assert "This page is for teachers" in shown or "not right" in shown
    assert "a question only Nia saw" not in shown and "things done" not in shown


@pytest.mark.parametrize("query", ["", "key=not-the-key"])
def test_the_write_set_page_builds_no_editor_without_the_key(query, isolated_jupyter,  # noqa: F811
                                                             monkeypatch):
    monkeypatch.setenv("QUERY_STRING", query)
    shown = run_as_voila("write_set.ipynb", query)
    assert "This page is for teachers" in shown or "not right" in shown
    assert "TextareaModel" not in shown and "FileUploadModel" not in shown
    assert "Save as draft" not in shown and "Publish" not in shown


# what only a terminal, Python or an edited address can do: none of it in a teacher's way
NOT_FOR_TEACHERS = ("python -m mathcards", "make play", "load_set", "export_csv",
                    "lessons/exercises/", "SOURCE", "MATHCARDS_", "teacher-key",
                    "in a terminal", "adds &student=", "run the page again")
SERVER_PART = "## Running the server"  # set-up by whoever runs the server, apart


def test_the_guides_main_path_needs_no_terminal_no_python_and_no_address_to_edit():
    """Everything the guide asks of a teacher is done on the pages with the teacher's key;
    the server's set-up is in its own section for whoever runs the server, and the Python
    calls in the programmers' part."""
    nb = nbformat.read(LESSONS / "teachers.ipynb", as_version=4)
    sources = [cell.source for cell in nb.cells]
    server = next(i for i, s in enumerate(sources) if s.startswith(SERVER_PART))
    programmers = next(i for i, s in enumerate(sources) if s.startswith("## For programmers"))
    assert server < programmers
    main = nb.cells[:server]
    assert all(cell.cell_type == "markdown" for cell in main)
    text = "\n".join(cell.source for cell in main)
    assert "write_set.ipynb" in text and "Publish" in text and "Save as draft" in text
    assert "classes.ipynb" in text and "Rooms for a tournament" in text
    assert "Download CSV" in text
    found = [step for step in NOT_FOR_TEACHERS if step in text]
    assert not found, f"the guide's main path asks for: {found}"
    assert "make play" in sources[server] and "teacher-key" in sources[server]
    assert any("python -m mathcards check" in s for s in sources[programmers:])


@pytest.mark.parametrize("name", ["dashboard.ipynb", "classes.ipynb", "write_set.ipynb",
                                  "assignment.ipynb", "student.ipynb"])
def test_the_teachers_pages_ask_for_no_terminal_and_no_edit(name):
    """The class results, the classes and *Write a set* say what to do on the page only:
    no variable to set and run again, no command (issue 28: "Set SOURCE to ... then run
    the page again", which cannot be done on a Voilà page)."""
    nb = nbformat.read(LESSONS / name, as_version=4)
    text = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    found = [step for step in NOT_FOR_TEACHERS if step in text]
    assert not found, f"{name} asks for: {found}"
    code = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    assert "SOURCE" not in code
