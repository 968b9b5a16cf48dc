"""No import loops in mathcards/ (issue 39 item 3).

Every ``import`` statement of every module of mathcards/ counts, at any depth: the
ones at the top, the ones inside a function and the ``if TYPE_CHECKING:`` ones. A
loop hidden in a function-local import is still a loop: the two modules cannot be
read, tested or moved one without the other.

The graph: one node per module of mathcards/ (a package is its ``__init__``); an
edge for each import of another mathcards module. ``from pkg import name`` is an
import of ``pkg.name`` when ``name`` is a submodule, of ``pkg`` otherwise. Relative
imports are resolved. Importing ``a.b.c`` also runs the ``__init__`` of ``a`` and
``a.b``: that is not counted as an edge, otherwise every package that re-exports its
own modules would be a loop.

A strongly connected component of more than one module is a loop; the failure
message shows one cycle through each, with the lines of the imports.

No import is let off: sympy is no module of mathcards (``explain._sympy`` imports it on
first use), and the registry loads a built-in game with ``importlib`` by its name, not
with an import statement, so neither is an edge here.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import mathcards

ROOT = Path(mathcards.__file__).resolve().parent
PACKAGE = "mathcards"



@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _base_of(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    # a relative import counts from the importer's package
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    if node.level > 1:
        package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, node.module] if node.module else package)


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The mathcards module that ``import name`` runs last (the longest known prefix)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(
    name: str, source: str, is_package: bool, modules: dict[str, Path]
) -> Iterator[Edge]:
    """The imports of mathcards modules in one module's source, at any depth."""
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = _base_of(node, name, is_package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.append(submodule if submodule in modules else base)
        for target in targets:
            if target != PACKAGE and not target.startswith(PACKAGE + "."):
                continue
            owner = _owner(target, modules)
            if owner is not None and owner != name:
                yield Edge(name, owner, node.lineno)


def import_graph() -> dict[str, dict[str, list[int]]]:
    """importer -> imported -> the lines of those imports."""
    modules = all_modules()
    graph: dict[str, dict[str, list[int]]] = {name: {} for name in modules}
    for name, path in modules.items():
        source = path.read_text(encoding="utf-8")
        for edge in imports_of(name, source, path.name == "__init__.py", modules):
            lines = graph[name].setdefault(edge.target, [])
            if edge.line not in lines:
                lines.append(edge.line)
                lines.sort()
    return graph


def strongly_connected(graph: dict[str, dict[str, list[int]]]) -> list[list[str]]:
    """Tarjan's algorithm, without recursion (the graph is a hundred modules deep at most)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(graph[start]))))
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def a_cycle(graph: dict[str, dict[str, list[int]]], component: list[str]) -> list[str]:
    """The shortest cycle through the component's first module (breadth first)."""
    members = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child not in members:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in a component of {len(component)}")  # pragma: no cover


def describe(graph: dict[str, dict[str, list[int]]], component: list[str]) -> str:
    cycle = a_cycle(graph, component)
    def arrow(a: str, b: str) -> str:
        return f"    {a} -> {b}  (line {', '.join(map(str, graph[a][b]))})"

    members = set(component)
    inside = [arrow(a, b) for a in component for b in sorted(graph[a]) if b in members]
    return "\n".join([
        f"  loop of {len(component)} modules: {', '.join(component)}",
        "   a cycle:", *(arrow(a, b) for a, b in itertools.pairwise(cycle)),
        "   every import inside it:", *inside,
    ])


def test_the_graph_sees_every_kind_of_import() -> None:
    """The graph reads what the loops hide in: function-local, type-only, relative imports."""
    graph = import_graph()
    assert len(graph) == len(all_modules()) > 50
    # a top-level absolute import
    assert "mathcards.cards" in graph["mathcards.games.sums.rules"]
    modules = all_modules()
    # an `if TYPE_CHECKING:` import
    source = "if TYPE_CHECKING:\n    from mathcards.games.sums.game import Sums\n"
    edges = list(imports_of("mathcards.probe", source, False, modules))
    assert [(e.target, e.line) for e in edges] == [("mathcards.games.sums.game", 2)]
    # `from pkg import submodule` is an import of the submodule
    source = "from mathcards.games import sums\n"
    edges = list(imports_of("mathcards.probe", source, False, modules))
    assert [e.target for e in edges] == ["mathcards.games.sums"]
    # a function-local relative import, and `from . import name` of a plain name
    source = ("def f():\n    from ..cards import Card\n"
              "    from . import base\n    from . import nothing\n")
    edges = list(imports_of("mathcards.games.probe", source, False, modules))
    assert [e.target for e in edges] == [
        "mathcards.cards", "mathcards.games.base", "mathcards.games"]
    assert [e.line for e in edges] == [2, 3, 4]


def test_a_loop_is_found_through_any_number_of_modules() -> None:
    graph: dict[str, dict[str, list[int]]] = {
        "a": {"b": [1]}, "b": {"c": [2]}, "c": {"a": [3], "d": [4]}, "d": {}, "e": {"e": [5]}}
    assert sorted(strongly_connected(graph)) == [["a", "b", "c"], ["d"], ["e"]]
    assert a_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert "c -> a  (line 3)" in describe(graph, ["a", "b", "c"])


def test_no_import_loops_in_mathcards() -> None:
    graph = import_graph()
    loops = [component for component in strongly_connected(graph) if len(component) > 1]
    assert not loops, f"{len(loops)} import loop(s) in mathcards/:\n" + "\n".join(
        describe(graph, component) for component in loops)


# --- issue 39 item 2: no shared module names a game --------------------------------------
# A game's facts live on its own side: its GameSpec (mathcards/games/registry.py) and its
# own modules. A module every game shares asks the registry; it never names a game. This
# test reads every module of mathcards/ and widgets/ (ast, so comments do not count) and
# lists each place a shared module names one.
#
# A game's own modules (where it may name itself, and only itself), for a game <g>:
#   mathcards/games/<g>/ (its package) or mathcards/games/<g>.py, and the modules beside it
#   whose names start with "<g>_" (mathcards/games/dice_stacks/rule.py, ..._solver.py);
#   mathcards/asking/<g>.py, mathcards/exercises/kinds/<g>.py, mathcards/explain/<g>.py,
#   mathcards/moments/<g>.py;
#   widgets/<g>.py (installed as mathcards.widgets.<g>).
# A module names a game when, outside its docstrings (documentation, often an example):
#   - a string holds the game's name as a code word: a name with an underscore anywhere
#     ("suns_to_moons"); a one-word name as the whole string ("sums"), quoted ('sums') or
#     touching one of _ . / : (play_sums, mathcards.games.sums): "Show me the sums" is an
#     English sentence, not a name;
#   - a string holds its title ("Dice Stacks"), except "Shoot the Moon card(s)": the name
#     of the moon deck (mathcards.cards), which two games play with;
#   - an identifier (a name, an attribute, a def, a class, an argument, an import) holds
#     the name between underscores or dots (sums_picture, mathcards.games.sums) or its
#     title in CamelCase (SumsView).
GAME_NAMING_ALLOWED = {
    # the built-in games in the landing page's order, each imported by its name when first
    # asked for (a Sums page imports Sums only): loading by name needs the names
    "mathcards/games/registry.py": "BUILTIN_GAMES",
}
# Shared modules that still name games (issue 39 item 2 not finished): each entry goes when
# its module is moved to the games' side; an entry whose module no longer names a game fails
# the test, so the list only shrinks.
NOT_YET_MOVED = {
    "mathcards/exercises/fields.py": "the Suns to Moons deck field (DeckPlay, read_deck)",
    "mathcards/explain/steps.py": "Sums' and Suns to Moons' steps",
    "mathcards/skills.py": "four skills' words name their game",
    "widgets/checks.py": "the lessons' checks of Suns to Moons and Dice Stacks",
    "widgets/exercises.py": "the Suns to Moons exercise board",
    "widgets/lesson.py": "the landing cards' pictures, the lessons' examples, a trick hint",
    "widgets/tricks.py": "the two trick games' views share one module",
}

REPO = ROOT.parent
WIDGETS = REPO / "widgets"


def _game_words() -> dict[str, tuple[str, str]]:
    """game name -> (its title, its title in CamelCase), from the registry."""
    from mathcards.games.registry import game_specs

    return {s.name: (s.title, "".join(w[:1].upper() + w[1:] for w in s.title.split()))
            for s in game_specs()}


def own_game(relative: str, games: Iterable[str]) -> str | None:
    """The game whose own module ``relative`` (a path from the repository) is, or None."""
    parts = Path(relative).parts
    stem = Path(relative).stem
    for game in games:
        if parts[:2] == ("mathcards", "games") and len(parts) > 2 and (
                parts[2] == game or stem == game or stem.startswith(game + "_")):
            return game
        if stem == game and (parts[:-1] in {("mathcards", "asking"), ("widgets",),
                                            ("mathcards", "explain"), ("mathcards", "moments"),
                                            ("mathcards", "exercises", "kinds")}):
            return game
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def game_names_in(source: str, words: dict[str, tuple[str, str]],
                  but: str | None = None) -> Iterator[tuple[int, str, str]]:
    """(line, game, what) for each place ``source`` names a game other than ``but``."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    for game, (title, camel) in words.items():
        if game == but:
            continue
        as_code = re.compile(rf"(?<![A-Za-z0-9]){game}(?![A-Za-z0-9])")
        as_title = re.compile(rf"\b{title}\b(?! cards?\b)" if title == "Shoot the Moon"
                              else rf"\b{title}\b")
        as_camel = re.compile(rf"(?<![A-Za-z]){camel}(?![a-z])")
        # a one-word name ("sums") is a name in an identifier only as a dotted path's part
        # or a prefix (mathcards.games.sums, sums_picture): a variable ``sums`` is a word
        as_name = as_code if "_" in game else re.compile(
            rf"\.{game}(?:\.|$)|^{game}[._]")
        for node in ast.walk(tree):
            texts: list[str] = []
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docs:
                    continue
                text = node.value
                code_word = text == game or ("_" in game and game in text) or any(
                    text[m.start() - 1:m.start()] in ("_", ".", "/", ":")
                    or text[m.end():m.end() + 1] in ("_", ".", "/", ":")
                    or (text[m.start() - 1:m.start()] == text[m.end():m.end() + 1]
                        and text[m.end():m.end() + 1] in ("'", '"'))
                    for m in as_code.finditer(text))
                if code_word or as_title.search(text):
                    yield node.lineno, game, f"string {text[:60]!r}"
                continue
            if isinstance(node, ast.Name):
                texts = [node.id]
            elif isinstance(node, ast.Attribute):
                texts = [node.attr]
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                texts = [node.name]
            elif isinstance(node, ast.arg):
                texts = [node.arg]
            elif isinstance(node, ast.alias):
                texts = [node.name, node.asname or ""]
            elif isinstance(node, ast.ImportFrom):  # from mathcards.games import sums
                texts = [f"{node.module}.{alias.name}" for alias in node.names]
            for text in texts:
                if as_name.search(text) or as_camel.search(text):
                    yield node.lineno, game, f"name {text}"


def shared_modules_naming_games() -> dict[str, list[str]]:
    """relative path -> "line N: what (game)" for every module that names another game."""
    words = _game_words()
    found: dict[str, list[str]] = {}
    for path in sorted([*ROOT.rglob("*.py"), *WIDGETS.rglob("*.py")]):
        relative = path.relative_to(REPO).as_posix()
        own = own_game(relative, words)
        for line, game, what in game_names_in(path.read_text("utf-8"), words, but=own):
            found.setdefault(relative, []).append(f"line {line}: {what} ({game})")
    return found


def test_the_game_name_reader_sees_names_and_not_words() -> None:
    words = {"sums": ("Sums", "Sums"), "shoot_the_moon": ("Shoot the Moon", "ShootTheMoon")}
    source = ('"""Docs may say sums and Shoot the Moon."""\n'
              'A = ("sums",)\n'
              'B = "Show me the sums" + \'you saw "Show me the sums"\'\n'
              'C = "like 30:play_sums"\n'
              'def sums_picture(): pass\n'
              'from mathcards.games.shoot_the_moon import x\n'
              'D = "a Shoot the Moon card"\n'
              'E = "Shoot the Moon: take tricks"\n'
              'class ShootTheMoonView: pass\n'
              'F = "not mathcards.games.sumsx"\n'
              'def f(sums, new_sums): return sums + new_sums\n'
              'import mathcards.games.sums.rules\n'
              'from mathcards.games import sums as s\n')
    found = sorted((line, game) for line, game, _ in game_names_in(source, words))
    assert found == [(2, "sums"), (4, "sums"), (5, "sums"), (6, "shoot_the_moon"),
                     (8, "shoot_the_moon"), (9, "shoot_the_moon"), (12, "sums"), (13, "sums")]
    assert {g for _, g, _ in game_names_in(source, words, but="sums")} == {"shoot_the_moon"}
    games = ["sums", "dice_stacks"]
    assert own_game("mathcards/games/sums/rules.py", games) == "sums"
    assert own_game("mathcards/games/dice_stacks/solver.py", games) == "dice_stacks"
    assert own_game("mathcards/games/sums/exercises.py", games) == "sums"
    assert own_game("widgets/dice_stacks.py", games) == "dice_stacks"
    assert own_game("widgets/lesson.py", games) is None
    assert own_game("mathcards/games/registry.py", games) is None


def test_no_shared_module_names_a_game() -> None:
    """Issue 39 item 2: shared code asks the registry (a GameSpec's fields) for a game's
    facts; only a game's own modules name it."""
    found = shared_modules_naming_games()
    assert found.keys() >= {"mathcards/games/registry.py"}  # the reader reads
    wrong = {m: lines for m, lines in found.items()
             if m not in GAME_NAMING_ALLOWED and m not in NOT_YET_MOVED}
    assert not wrong, "shared modules name games (ask the registry instead):\n" + "\n".join(
        f"  {m}: " + "; ".join(lines) for m, lines in sorted(wrong.items()))
    moved = sorted(m for m in NOT_YET_MOVED if m not in found)
    assert not moved, f"no longer name a game: take them off NOT_YET_MOVED: {moved}"
