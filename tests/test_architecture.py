"""What docs/architecture.md claims about the code, checked on the code (issue 39 item 6).

Each test quotes the sentence of docs/architecture.md it checks. The import graph is the one
of tests/test_import_graph.py (every import statement, at any depth: top level, inside a
function, under ``if TYPE_CHECKING:``), whose helpers are reused here.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mathcards.games.parts import PARTS, part_path
from mathcards.games.registry import game_specs
from tests.test_import_graph import ROOT as PACKAGE_DIR
from tests.test_import_graph import _base_of, all_modules, import_graph

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
VIEW_LIBRARIES = ("ipywidgets", "anywidget", "traitlets", "widgets", "mathcards.widgets")


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(title: str) -> str:
    text = _doc()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def _path(module: str) -> str:
    """``mathcards.games.sums.rules`` -> ``mathcards/games/sums/rules.py`` (as the doc names it)."""
    return all_modules()[module].relative_to(PACKAGE_DIR.parent).as_posix()


# --------------------------------------------------------------------------- the layers
ROW = re.compile(r"^\| (\d+) [^|]+\| (.+) \|$", re.MULTILINE)
PATH = re.compile(r"`((?:mathcards|widgets)/[\w/*]*(?:\.py)?)`")


def layers(section: str | None = None) -> dict[str, int]:
    """The layer table of "Layers: which way the imports go": path (a file, or a folder
    ending in /) -> its layer's number."""
    text = _section("Layers: which way the imports go") if section is None else section
    found: dict[str, int] = {}
    for number, cells in ROW.findall(text):
        for path in PATH.findall(cells):
            assert path not in found, f"{path} is in two rows of the layer table"
            found[path] = int(number)
    return found


def layer_of(path: str, table: dict[str, int]) -> int | None:
    """The layer of a file: its own row, else a pattern's row (``mathcards/games/*/explain.py``:
    a part of every game's folder), else the row of the nearest folder holding it."""
    if path in table:
        return table[path]
    patterns = [p for p in table if "*" in p and fnmatch.fnmatchcase(path, p)]
    if patterns:
        return table[patterns[0]]
    folders = [p for p in table if p.endswith("/") and path.startswith(p)]
    return table[max(folders, key=len)] if folders else None


def misplaced_imports(table: dict[str, int],
                      graph: dict[str, dict[str, list[int]]]) -> list[str]:
    """Every import statement of mathcards/ that points to a higher layer than its own."""
    bad = []
    for source, targets in sorted(graph.items()):
        here = layer_of(_path(source), table)
        for target, lines in sorted(targets.items()):
            there = layer_of(_path(target), table)
            if here is not None and there is not None and there > here:
                bad.append(f"{_path(source)} (layer {here}) imports {_path(target)} "
                           f"(layer {there}) at line {', '.join(map(str, lines))}")
    return bad


def test_every_module_of_mathcards_is_in_one_layer_of_the_table():
    """"every module of `mathcards/` is in exactly one row" (a row names a file or a folder;
    a file's own row wins over its folder's)."""
    table = layers()
    assert len(set(table.values())) == 7 and table["widgets/"] == 7
    unplaced = [_path(m) for m in all_modules() if layer_of(_path(m), table) is None]
    assert not unplaced, f"modules in no layer of docs/architecture.md: {unplaced}"
    named = [p for p in table if p.startswith("mathcards/")]
    missing = [p for p in named if not ((PACKAGE_DIR.parent / p).exists() if "*" not in p
                                        else list(PACKAGE_DIR.parent.glob(p)))]
    assert not missing, f"the layer table names files that do not exist: {missing}"


def test_every_import_points_to_its_own_layer_or_one_under_it():
    """"every import statement points to its own row or a row above it in this table" (the
    table lists the lowest layer first)."""
    bad = misplaced_imports(layers(), import_graph())
    assert not bad, "imports against the layers of docs/architecture.md:\n" + "\n".join(bad)


def test_the_layer_check_finds_an_import_that_points_up():
    """The check itself: the table moved so that the table's own modules sit under the
    explainer would make `mathcards/table.py`'s import of `mathcards/moments/` point up."""
    text = _section("Layers: which way the imports go")
    swapped = text.replace("| 4 questions, evidence |", "| 9 questions, evidence |")
    bad = misplaced_imports(layers(swapped), import_graph())
    assert any(line.startswith("mathcards/table.py (layer 5) imports mathcards/moments/")
               for line in bad), bad


# --------------------------------------------------------------------------- no view below
class _Imports(ast.NodeVisitor):
    """Every imported module name and every module loaded by a literal name
    (``importlib.import_module("...")``, ``__import__("...")``), with the function it is in."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module, self.is_package = module, is_package
        self.scope: list[str] = []
        self.found: list[tuple[str, str, int, bool]] = []  # name, scope, line, by name

    def _in(self, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_ClassDef = visit_FunctionDef = visit_AsyncFunctionDef = _in

    def _add(self, name: str, line: int, by_name: bool = False) -> None:
        self.found.append((name, ".".join(self.scope), line, by_name))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self._add(_base_of(node, self.module, self.is_package), node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if (name in ("import_module", "__import__") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            self._add(node.args[0].value, node.lineno, by_name=True)
        self.generic_visit(node)


def imports_in(module: str, source: str, is_package: bool = False
               ) -> list[tuple[str, str, int, bool]]:
    visitor = _Imports(module, is_package)
    visitor.visit(ast.parse(source))
    return visitor.found


def _is_view(name: str) -> bool:
    return any(name == lib or name.startswith(lib + ".") for lib in VIEW_LIBRARIES)


def view_imports(sources: dict[str, tuple[str, bool]]) -> tuple[list[str], list[str]]:
    """(import statements of a view library, modules of widgets/ loaded by name)."""
    statements, by_name = [], []
    for module, (source, is_package) in sorted(sources.items()):
        for name, scope, line, named in imports_in(module, source, is_package):
            if _is_view(name):
                (by_name if named else statements).append(
                    f"{module}:{line} ({scope or 'module'}) {name}")
    return statements, by_name


def _sources() -> dict[str, tuple[str, bool]]:
    return {m: (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for m, p in all_modules().items()}


def test_nothing_under_mathcards_imports_a_view_library():
    """"Nothing under `mathcards/` imports ipywidgets, anywidget, traitlets or
    `mathcards.widgets`, in any import statement." and "One arrow points up without an
    import statement: `mathcards/exercises/model.py` `ExerciseSet.show` loads
    `mathcards.widgets.exercises` by name [...] It is the only place in `mathcards/` that
    loads a view"."""
    statements, by_name = view_imports(_sources())
    assert statements == [], statements
    assert [line.split(":")[0] + " " + line.split(" ", 1)[1] for line in by_name] == [
        "mathcards.exercises.model (ExerciseSet.show) mathcards.widgets.exercises"]


def test_the_view_check_finds_every_kind_of_view_import():
    """The check itself, on a scratch module: a top-level, a function-local, a
    type-checking import and a load by name are all found."""
    source = ("import ipywidgets as W\n"
              "from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from mathcards.widgets.table import GameTable\n"
              "def f():\n    from traitlets import Int\n"
              "class C:\n    def g(self):\n"
              "        return importlib.import_module('mathcards.widgets.sums')\n")
    statements, by_name = view_imports({"mathcards.probe": (source, False)})
    assert statements == ["mathcards.probe:1 (module) ipywidgets",
                          "mathcards.probe:4 (module) mathcards.widgets.table",
                          "mathcards.probe:6 (f) traitlets"]
    assert by_name == ["mathcards.probe:9 (C.g) mathcards.widgets.sums"]


def test_sympy_is_imported_by_the_explainers_printer_only_and_on_first_use():
    """"sympy is loaded only by `mathcards/explain/_sympy.py` (`_tools`), on first use"."""
    found = [(m, scope) for m, (source, pkg) in _sources().items()
             for name, scope, _line, _named in imports_in(m, source, pkg)
             if name == "sympy" or name.startswith("sympy.")]
    assert found and {m for m, _ in found} == {"mathcards.explain._sympy"}
    assert {scope for _, scope in found} == {"_tools"}


def test_the_paths_mathcards_loads_itself_name_no_view():
    """"the parts `mathcards/` loads itself (a game folder's `questions.py`,
    `exercises.py`, `moments.py`, `explain.py`) are no module of `widgets/`"; a game's
    view and its card's picture do."""
    specs = game_specs()
    assert len(specs) >= 5
    for spec in specs:
        loaded = [part_path(spec, part) for part in PARTS]
        assert not [p for p in loaded if p and _is_view(p)], spec.name
        if spec.view:
            assert spec.view.startswith("mathcards.widgets."), spec.name


# --------------------------------------------------------------------------- the docs' tests
def test_the_tests_the_doc_cites_exist():
    """"The tests that walk every synced field after every move: `tests/widgets/test_safety.py`
    (`test_no_synced_field_holds_another_seats_hidden_cards`, ...)": every test file the
    sections on state and layers name exists, and every test named after it is in it."""
    text = _section("Where state lives, and what the browser sees")
    cited = re.findall(r"`(tests/[\w/]+\.py)`((?:\s*\(?`test_\w+`,?\)?)*)", text)
    assert len(cited) >= 3
    for path, names in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        for name in re.findall(r"`(test_\w+)`", names):
            assert f"def {name}(" in source, f"{path} has no {name}"


# --------------------------------------------------------------------------- the traced answer
STEP = re.compile(r"`((?:mathcards|widgets)/[\w/]+\.py)`\s+`([\w.]+)`")


def named_steps() -> list[tuple[str, str]]:
    """The (file, function) pairs of the numbered steps of "The path of an answer at
    "I count"", in the doc's order; a bare `Class.method` after a named one is in the
    same file."""
    text = _section('The path of an answer at "I count"')
    steps = text[text.index("\n1. "):text.rindex("\n\nThe widget fields")]
    pairs: list[tuple[str, str]] = []
    for file, function in STEP.findall(steps):
        pairs.append((file, function))
    return pairs


def _suns_to_moons_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Ana's play page, as Voilà runs it: named, at "I count", saving, her answers kept in
    a progress store of this test's own."""
    from mathcards.widgets import play
    from tests.widgets.test_asking_widgets import _choose_a_move

    monkeypatch.setenv("MATHCARDS_PROGRESS", str(tmp_path / "progress.sqlite3"))
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "data"))
    table = play("suns_to_moons", query="delay=0&seats=human,strong&student=Ana")
    assert table.ctl.asking.counting
    _choose_a_move(table)
    return table


def trace(fn) -> list[tuple[str, str]]:
    """(file, function) of every call into mathcards/ and widgets/ while ``fn`` runs."""
    calls: list[tuple[str, str]] = []

    def profile(frame, event, _arg):
        if event != "call":
            return
        code = frame.f_code
        try:
            rel = Path(code.co_filename).resolve().relative_to(ROOT).as_posix()
        except ValueError:
            return
        if rel.startswith(("mathcards/", "widgets/")):
            calls.append((rel, code.co_qualname))

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


def missing_in_order(steps: list[tuple[str, str]], calls: list[tuple[str, str]]) -> list[str]:
    """The steps that never run, or whose first call comes before the first call of the
    step named before them (a later move's calls cannot stand in for this one's)."""
    missing, last = [], -1
    for step in steps:
        if step not in calls:
            missing.append(f"{step[0]} {step[1]}")
            continue
        first = calls.index(step)
        if first < last:
            missing.append(f"{step[0]} {step[1]} (before the step named before it)")
        last = max(last, first)
    return missing


def test_the_traced_answer_runs_the_functions_the_doc_names_in_its_order(tmp_path, monkeypatch):
    """"File by file (traced with `sys.setprofile` in `tests/test_architecture.py`, which
    checks that these functions run, in this order)" and step 4: "one row of the `answers`
    table of `progress.sqlite3`", step 5: "the save in `data_dir()/tables/`"."""
    from mathcards.exercises.progress import ProgressStore

    table = _suns_to_moons_table(tmp_path, monkeypatch)
    question = table.ctl.asking.pending.question
    assert question.kind == "number"
    assert not list((tmp_path / "data").glob("tables/*"))  # nothing laid, nothing saved yet
    calls = trace(lambda: table.asking_panel.w_answer.submit(str(question.expected)))

    steps = named_steps()
    assert len(steps) >= 30
    missing = missing_in_order(steps, calls)
    assert not missing, "named in docs/architecture.md but not run in this order: " + \
        ", ".join(missing)
    # the evidence, where the doc says it lands
    kept = ProgressStore(tmp_path / "progress.sqlite3").answers(student="ana")
    assert [(a.right, a.skill, a.level, a.given) for a in kept] == [
        (True, question.skill, "count", str(question.expected))]
    assert table.ctl.asking.answers == kept
    assert list((tmp_path / "data" / "tables").glob("*")), "no save in data_dir()/tables/"
    # and back on the page
    assert table.ctl.asking.pending is None
    right = f"Right: {question.expected}.".replace("-", "−")
    assert right in table.w_status.value  # the status line, a synced field
    assert "mc-hide" in table.asking_panel.w_box._dom_classes
    assert table.asking_panel.w_answer.value == ""


def test_the_order_check_finds_a_step_out_of_order():
    calls = [("a.py", "f"), ("b.py", "g"), ("c.py", "h"), ("b.py", "g")]
    assert missing_in_order([("a.py", "f"), ("c.py", "h")], calls) == []
    assert missing_in_order([("c.py", "h"), ("b.py", "g")], calls) == [
        "b.py g (before the step named before it)"]
    assert missing_in_order([("a.py", "nothing")], calls) == ["a.py nothing"]


def test_the_table_records_an_answer_at_i_count_with_no_widget_library_loaded(tmp_path):
    """"Nothing under `mathcards/` imports ipywidgets [...]" at run time: an answer at
    "I count" driven through `TableController.answer` (no page) lands in the progress store
    as step 4 says, and no widget library was loaded (see also
    `tests/test_table_controller.py` `test_the_controller_never_loads_a_widget_library`)."""
    db = tmp_path / "progress.sqlite3"
    code = f"""
import sys
from mathcards.asking import COUNT
from mathcards.exercises.progress import ProgressStore
from mathcards.games.registry import game_spec, resolve, make_game
from mathcards.games.suns_to_moons import Play
from mathcards.table import TableController

ctl = TableController(resolve(game_spec("suns_to_moons").view)(),
                      make_game("suns_to_moons", num_players=2), seats=("human", "strong"),
                      seed=3, bot_delay=0, save=False, level=COUNT)
ctl.asking.student = "ana"
ctl.asking.on_answer = ProgressStore({str(db)!r}).record_answer
move = next(a for a in ctl.state.legal_actions() if isinstance(a, Play) and not a.is_joker)
ctl.click_card(f"card:{{move.card}}")
if ctl.asking.pending is None:
    ctl.click_choice(f"sign:{{move.contribution:+d}}")
question = ctl.asking.pending.question
ctl.answer(str(question.expected))
assert ctl.asking.pending is None and move in ctl.state.actions
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("ipywidgets", "anywidget",
             "traitlets", "IPython"))
print(bad)
sys.exit(1 if bad else 0)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    from mathcards.exercises.progress import ProgressStore

    kept = ProgressStore(db).answers(student="ana")
    assert [(a.right, a.level) for a in kept] == [(True, "count")]
