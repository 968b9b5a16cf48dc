"""The bots' turns at a table: the one owner of threads, timers and the page's loop.

``BotScheduler`` decides when a bot moves (``due``), runs the bots at once at a fast table
(``bot_delay=0``: tests, demos) and otherwise after the table's pause, on the running
asyncio loop (a kernel's: comm messages, i.e. clicks, keep flowing during the pause) or, with
no loop, on a ``threading.Timer``. A new deal bumps its generation, so a timer of an earlier
game does nothing. The move itself is the table's (``TableController._commit``): the
scheduler asks the bot for its action and hands it over, stored in the room first when the
table is a room's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from mathcards.bots import BOT_KINDS
from mathcards.errors import MathCardsError
from mathcards.i18n import _

if TYPE_CHECKING:
    from mathcards.bots import Bot
    from mathcards.games.base import State
    from mathcards.saves import SavedTable
    from mathcards.table_room import RoomSync

Schedule = Callable[[float, Callable[[], None]], None]


def schedule_later(delay: float, fn: Callable[[], None]) -> None:
    """Run ``fn`` after ``delay`` seconds: on the running asyncio loop (a kernel's: comm
    messages, i.e. clicks, keep flowing during the pause), else on a timer thread."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is not None:
        loop.call_later(delay, fn)
    else:
        timer = threading.Timer(delay, fn)
        timer.daemon = True
        timer.start()


class _Questions(Protocol):
    def holds_bots(self) -> bool: ...


class BotTable(Protocol):
    """What the scheduler reads of its table and asks it to do: ``mathcards.table.
    TableController`` (which makes the scheduler) has it all; this module does not import
    the table."""

    @property
    def state(self) -> State: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def bots(self) -> dict[int, Bot]: ...
    @property
    def holding(self) -> bool: ...
    @property
    def room(self) -> RoomSync: ...
    @property
    def asking(self) -> _Questions: ...
    @property
    def saved_offer(self) -> SavedTable | None: ...
    @property
    def lock(self) -> threading.RLock: ...
    def say(self, text: str, *, refused: bool = False) -> None: ...
    def _commit(self, action: Any, *, by_bot: bool = False) -> None: ...


class BotScheduler:
    """When and how the bots of one table move (the table's lock guards every move)."""

    def __init__(self, table: BotTable, delay: float, schedule: Schedule) -> None:
        self.table = table
        self.delay = max(0.0, float(delay))
        self._schedule = schedule
        self.generation = 0  # bumps on every new game, so stale bot timers do nothing
        self.pending = False  # a timer is set for the next bot move

    def new_game(self) -> None:
        """Forget the last game's timer (it will find another generation and do nothing)."""
        self.generation += 1
        self.pending = False

    def due(self) -> bool:
        """A bot of this page is to move: not held by a round's moment or a question."""
        t = self.table
        p = t.state.current_player
        return (p is not None and t.seats[p] in BOT_KINDS and not t.holding
                and t.room.runs_bots() and not t.asking.holds_bots())

    def schedule(self) -> None:
        """Let the bots move: at once at a fast table, else after the pause."""
        t = self.table
        if not self.due() or self.pending or t.saved_offer is not None:
            return
        if self.delay <= 0:
            # tests and "fast" tables: bots move at once, one after another
            guard = 0
            while self.due():
                before = len(t.state.history)
                self.move(self.generation)
                if len(t.state.history) == before:
                    return  # the room had the move already: it arrives by the room
                guard += 1
                if guard > 100_000:  # pragma: no cover - a game that never ends
                    raise RuntimeError("bots did not finish")
            return
        self.pending = True
        generation = self.generation
        self._schedule(self.delay, lambda: self._timer(generation))

    def _timer(self, generation: int) -> None:
        t = self.table
        with t.lock:
            self.pending = False
            if generation != self.generation or t.holding or not self.due():
                return  # another game's timer, or a round (or an answer's feedback) held
                # since: "Next round" (or the student's OK, or the pause's end) schedules
            try:
                self.move(generation)
            except Exception as exc:  # noqa: BLE001 - never let a timer die silently, nor show Python's words
                why = exc if isinstance(exc, MathCardsError) else _("please reload the page")
                t.say(_("A bot could not move: {reason}").format(reason=why), refused=True)
                return
            self.schedule()

    def move(self, generation: int) -> None:
        """The bot to act chooses its move and the table lays it (nothing when the game
        changed since, or when another page stored this turn's move first)."""
        t = self.table
        with t.lock:
            if generation != self.generation:
                return
            p = t.state.current_player
            if p is None or t.seats[p] not in BOT_KINDS:
                return
            action = t.bots[p].choose(t.state)
            publish = t.room.publish
            if publish is not None and not publish(t.state, action):
                return  # another page stored this turn's move first
            t._commit(action, by_bot=True)
