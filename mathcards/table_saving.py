"""A table's save: its slot, the saved game on offer, and the save after each move.

``TableSaving`` is one of the table's services (``TableController.saving``). It owns the
slot a table saves under (a student's name, "" for the page's own), whether it saves at all
(a room's table does not: ``mathcards.rooms.RoomLink`` turns it off), the saved game a page
offers to resume, and the save after each committed move (a finished game's save is
cleared). A disk that refuses becomes a line the table shows; play goes on.
"""

from __future__ import annotations

from collections.abc import Mapping

from mathcards import saves
from mathcards.games.base import State
from mathcards.i18n import _


class TableSaving:
    """Where and whether one table saves, and the saved game it offers."""

    def __init__(self, game_name: str, slot: str = "", enabled: bool = True) -> None:
        self.game_name = game_name
        self.slot = slot
        self.enabled = enabled
        self.offer: saves.SavedTable | None = None  # nothing moves until it is answered

    def load(self) -> tuple[saves.SavedTable | None, str]:
        """The saved game still in play (None: none, or it is over), and a problem reading
        it in words ("" when none)."""
        if not self.enabled:
            return None, ""
        saved, problem = saves.load_table(self.game_name, self.slot)
        if saved is not None and saved.state.is_over:
            saved = None
        return saved, problem

    def after_commit(self, after: State, seats: tuple[str, ...],
                     withheld: Mapping[int, int] | None = None) -> str:
        """Save the table after a move (a finished game's save is cleared), with each seat's
        points that do not count; "" when saved or not saving, else the problem in words
        (the reason, never the server's path)."""
        if not self.enabled:
            return ""
        try:
            if after.is_over:
                saves.clear_table(self.game_name, self.slot)
            else:
                saves.save_table(after, seats, self.slot, withheld)
        except OSError as exc:
            why = exc.strerror or _("the disk refused")
            return _("Could not save the game ({reason}); play goes on.").format(reason=why)
        return ""
