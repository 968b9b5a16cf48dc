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
from collections.abc import Iterator
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
