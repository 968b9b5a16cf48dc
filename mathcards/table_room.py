"""A table's link to its room: one object the room hands the table, not hooks set on it.

``RoomSync`` is one of the table's services (``TableController.room``). A solo table has the
solo one (no code, its own seat names, this page moves the bots, nothing to publish); a
room's table (``mathcards.rooms.RoomLink``) is given the room's with ``join_room``: the room
code shown instead of a deal code, the seats' names, whether this page moves the bots, and
the hook that stores this page's moves in the room first (False: another page was first).
``leave_room`` gives the table the solo one again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mathcards.games.base import State


def _always() -> bool:
    return True


@dataclass
class RoomSync:
    """What a room says to one of its tables (the solo table's by default)."""

    code: str = ""  # the room's code ("": a solo table)
    seat_labels: tuple[str, ...] = ()  # the seats' names (the classmates'), () for the table's
    runs_bots: Callable[[], bool] = field(default=_always)  # this page moves the room's bots
    # store a move of this page in the room first; False: another page's move was first
    publish: Callable[[State, Any], bool] | None = None

    @property
    def solo(self) -> bool:
        """No room: nothing published, no code, this page's bots."""
        return not self.code and self.publish is None
