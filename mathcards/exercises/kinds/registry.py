"""Every kind of exercise by its name in the YAML file (``KINDS``), read from each game's
``exercises.py`` (its ``KINDS``: ``mathcards.games.parts``) when the exercises are first
imported."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from mathcards.exercises.kinds.base import Kind
from mathcards.games.parts import exercises_part
from mathcards.games.registry import game_specs


def _kinds() -> dict[str, Kind]:
    found: dict[str, Kind] = {}
    for spec in game_specs():
        part = exercises_part(spec)
        for cls in part.KINDS if part is not None else ():
            kind = cls()
            where = f"{cls.__module__}:{cls.__name__}"
            if not isinstance(kind, Kind):
                raise TypeError(f"{spec.name}'s kind {where} is not an exercise Kind "
                                "(mathcards.exercises.kinds.base)")
            if kind.game != spec.name:
                raise TypeError(f"{where} is a kind of {kind.game}, not of {spec.name}")
            found[kind.name] = kind
    return found


class _Kinds(Mapping[str, Kind]):
    """``KINDS``, read from the games' folders when first looked at: a game's exercises.py
    imports ``mathcards.exercises`` (its fields, the kinds' base), so the list cannot be
    made while this package is first imported."""

    _found: dict[str, Kind] | None = None

    def _all(self) -> dict[str, Kind]:
        if self._found is None:
            self._found = _kinds()
        return self._found

    def __getitem__(self, name: str) -> Kind:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


KINDS: Mapping[str, Kind] = _Kinds()
