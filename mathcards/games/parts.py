"""A game's parts, found by fixed module names in its folder (issue 39, item 2).

A game is a folder: its package (``mathcards/games/<game>/`` for a built-in game, any
package for a game outside MathCards, e.g. ``examples/make_ten``) holds its rules and
registers its ``GameSpec``; next to them, each of these modules is optional and found by
its name alone (no dotted path to keep in step):

``questions.py``
    the "I count" questions its table asks (the hooks ``mathcards.asking.registry``
    describes; ``Asker`` checks them when the module is first loaded);
``exercises.py``
    ``KINDS``: the classes of its exercise kinds (``mathcards.exercises.kinds.base.Kind``);
``moments.py``
    ``moment(before, after, names, here) -> Moment | None``: a round or the game won;
``explain.py``
    ``steps_for_events(events, before, after, names)``, and ``hint(state, level)`` and
    ``why_not(state, action, reason)`` when it has them.

Each part is checked once, when first loaded, against its Protocol below; a part that
does not follow it is a ``SettingsError`` naming the game and the piece. The rules never
import these modules (``mathcards.games`` knows nothing of questions, explanations or
screens), and the view is not here: a built-in game's view is ``widgets/<game>.py``,
since ``mathcards/`` makes no HTML (``GameSpec.view`` names it).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from mathcards.errors import SettingsError

if TYPE_CHECKING:
    from mathcards.games.registry import GameSpec

PARTS = ("questions", "exercises", "moments", "explain")


@runtime_checkable
class ExercisesPart(Protocol):
    """``exercises.py``: the game's exercise kinds, as classes."""

    KINDS: Sequence[type[Any]]


@runtime_checkable
class MomentsPart(Protocol):
    """``moments.py``: the moment a move ends (a round or the game won), or None."""

    def moment(self, before: Any, after: Any, names: Sequence[str],
               here: Sequence[int]) -> Any: ...


@runtime_checkable
class ExplainPart(Protocol):
    """``explain.py``: the explainer's steps for a move's events."""

    def steps_for_events(self, events: Sequence[Any], before: Any = None, after: Any = None,
                         names: Sequence[str] = ()) -> list[Any]: ...


@runtime_checkable
class HintPart(Protocol):
    """An ``explain.py`` that gives hints at three levels."""

    def hint(self, state: Any, level: int = 1) -> Any: ...


@runtime_checkable
class RefusalPart(Protocol):
    """An ``explain.py`` that explains a refused move with its arithmetic."""

    def why_not(self, state: Any, action: Any, reason: str) -> Any: ...


def home(spec: GameSpec) -> str:
    """The package that holds the game's parts: ``spec.package``, else its engine's."""
    if spec.package:
        return spec.package
    module = spec.engine.__module__
    found = sys.modules.get(module)
    return module if found is not None and hasattr(found, "__path__") else (
        module.rpartition(".")[0])


_PATHS: dict[tuple[str, str], str] = {}


def part_path(spec: GameSpec, part: str) -> str:
    """The module of the game's ``part`` ("questions", ...) when its folder has one, else
    "" (found without importing it)."""
    if part not in PARTS:
        raise ValueError(f"a game's parts are {', '.join(PARTS)}, not {part!r}")
    key = (home(spec), part)
    if key not in _PATHS:
        path = f"{key[0]}.{part}"
        _PATHS[key] = path if key[0] and importlib.util.find_spec(path) is not None else ""
    return _PATHS[key]


def load(spec: GameSpec, part: str) -> ModuleType | None:
    """The game's ``part`` module, imported (None: the game has none)."""
    path = part_path(spec, part)
    return importlib.import_module(path) if path else None


_CHECKED: dict[tuple[str, str], Any] = {}  # (folder, part) -> the checked module or None


def _checked(spec: GameSpec, part: str, protocol: type[Any], needs: str,
             wrong: Callable[[Any], str] = lambda module: "") -> Any:
    """The part's module, checked the first time only (a table asks for a game's moments
    and explainer at every move): against ``protocol``, then ``wrong`` (what is wrong with
    it, "" for nothing)."""
    key = (home(spec), part)
    if key in _CHECKED:
        return _CHECKED[key]
    module = load(spec, part)
    if module is not None:
        if not isinstance(module, protocol):
            raise SettingsError(f"game {spec.name!r}: its {part}.py ({module.__name__}) has "
                                f"no {needs}")
        problem = wrong(module)
        if problem:
            raise SettingsError(f"game {spec.name!r}: {problem}")
    _CHECKED[key] = module
    return module


def moments_part(spec: GameSpec) -> MomentsPart | None:
    found = _checked(spec, "moments", MomentsPart,
                     "function moment(before, after, names, here)",
                     lambda m: "" if callable(m.moment)
                     else "moment in its moments.py is not a function")
    return cast("MomentsPart | None", found)


def exercises_part(spec: GameSpec) -> ExercisesPart | None:
    found = _checked(spec, "exercises", ExercisesPart, "KINDS (the classes of its kinds)",
                     lambda m: "" if isinstance(m.KINDS, (tuple, list)) and all(
                         isinstance(k, type) for k in m.KINDS)
                     else "KINDS in its exercises.py must be a tuple of exercise kind classes")
    return cast("ExercisesPart | None", found)


def explain_part(spec: GameSpec) -> ExplainPart | None:
    found = _checked(spec, "explain", ExplainPart,
                     "function steps_for_events(events, before, after, names)")
    return cast("ExplainPart | None", found)


_OPTIONAL: dict[tuple[str, str], Any] = {}  # (folder, "hint" or "why_not") -> function


def _optional(spec: GameSpec, name: str, protocol: type[Any]) -> Any:
    key = (home(spec), name)
    if key not in _OPTIONAL:
        found = explain_part(spec)
        _OPTIONAL[key] = getattr(found, name) if isinstance(found, protocol) else None
    return _OPTIONAL[key]


def hint_of(spec: GameSpec) -> Callable[[Any, int], Any] | None:
    """The explainer's ``hint`` of the game, or None when it gives none."""
    return cast("Callable[[Any, int], Any] | None", _optional(spec, "hint", HintPart))


def why_not_of(spec: GameSpec) -> Callable[[Any, Any, str], Any] | None:
    """The explainer's ``why_not`` of the game, or None when it has none."""
    return cast("Callable[[Any, Any, str], Any] | None",
                _optional(spec, "why_not", RefusalPart))


__all__ = ["PARTS", "ExercisesPart", "ExplainPart", "HintPart", "MomentsPart", "RefusalPart",
           "exercises_part", "explain_part", "hint_of", "home", "load", "moments_part",
           "part_path", "why_not_of"]
