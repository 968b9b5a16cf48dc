"""Every kind of exercise by its name in the YAML file (``KINDS``), read from each game's
registration (``GameSpec.kinds``) when the exercises are first imported."""

from __future__ import annotations

from mathcards.exercises.kinds.base import Kind
from mathcards.games.registry import game_specs, resolve


def _kinds() -> dict[str, Kind]:
    found: dict[str, Kind] = {}
    for spec in game_specs():
        for path in spec.kinds:
            kind = resolve(path)()
            if not isinstance(kind, Kind):
                raise TypeError(f"{spec.name}'s kind {path} is not an exercise Kind "
                                "(mathcards.exercises.kinds.base)")
            if kind.game != spec.name:
                raise TypeError(f"{path} is a kind of {kind.game}, not of {spec.name}")
            found[kind.name] = kind
    return found


KINDS: dict[str, Kind] = _kinds()
