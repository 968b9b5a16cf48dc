"""Every kind of exercise by its name in the YAML file (``KINDS``)."""

from __future__ import annotations

from mathcards.exercises.kinds.base import Kind
from mathcards.exercises.kinds.dice_stacks import IsStack, MakeStacks
from mathcards.exercises.kinds.moons_and_planets import MoonOrNot, PlanetOrNot, WhichPrize
from mathcards.exercises.kinds.shoot_the_moon import IsPlayLegal, WhoTakesTrick
from mathcards.exercises.kinds.sums import FindCapture
from mathcards.exercises.kinds.suns_to_moons import DeckValue, ReachGoal

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (ReachGoal(), DeckValue(), MakeStacks(), IsStack(), FindCapture(),
                 WhoTakesTrick(), IsPlayLegal(), PlanetOrNot(), MoonOrNot(), WhichPrize())
}
