"""The public pieces of a Sums position: its phase, a threat waiting for an answer,
and what one player may see."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mathcards.cards import Card
from mathcards.games.sums.rules import CaptureWay


# --- public pieces of a state ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Threat:
    """A capture waiting for the owner's answer: ``attacker``'s ``way`` on ``target_owner``."""

    attacker: int
    way: CaptureWay
    target_owner: int

    @property
    def played(self) -> Card:
        return self.way.played

    @property
    def target(self) -> Card:
        return self.way.target


class Phase(StrEnum):
    """Where the game is."""

    START = "start"  # a regular turn begins: draw (or, in "draw or play", draw/play/take back)
    PLAY = "play"  # drawn: play (or take back)
    CHOOSE = "choose"  # several cards can be captured: choose one
    COUNTER = "counter"  # the threatened card's owner counters or declines
    LAST = "last"  # a pile is empty: one last play without drawing, or end
    OVER = "over"


START, PLAY, CHOOSE, COUNTER, LAST, OVER = (
    Phase.START, Phase.PLAY, Phase.CHOOSE, Phase.COUNTER, Phase.LAST, Phase.OVER
)


@dataclass(frozen=True, slots=True)
class SumsObservation:
    """What one player may see: own hand and captured cards, the public table, counts."""

    player: int
    num_players: int
    current_player: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    sides: tuple[tuple[Card, ...], ...]  # everyone's face-up cards, in play order
    captured: tuple[Card, ...]  # own captured cards (face down, but you know them)
    captured_counts: tuple[int, ...]
    pile_tops: tuple[Card | None, ...]
    pile_sizes: tuple[int, ...]
    threat: Threat | None
    variant_return: bool
    variant_draw_or_play: bool
    last_play: bool  # this is the last play of the game (it cannot be countered)
