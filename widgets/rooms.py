"""The "Play with classmates" panel of a play page (rooms: ``mathcards.rooms``).

A student makes a room (the players count of the New game panel) and reads its
code to classmates, or joins with a code. The room's host may fill open seats
with bots and starts the game; the table then plays the room's game with this
page's seat. Only public things are in this panel's synced fields: the room code,
the seats' names and counts. The seat's holder token and the deal's seeds stay in
the kernel; a code typed in the box is read by ``normal_code`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_string import TextStyle

from mathcards.errors import MathCardsError
from mathcards.hub import room_store
from mathcards.i18n import N_, _, pgettext
from mathcards.rooms import LEAVE_AFTER, RoomError, RoomLink, RoomStore
from mathcards.widgets.cards import esc

__all__ = ["RoomPanel"]

TIMERS = [(N_("none"), 0), (N_("30 s a turn"), 30), (N_("1 min a turn"), 60),
          (N_("2 min a turn"), 120)]


class RoomPanel:
    """Rooms for one ``GameTable`` (see the module docstring; its widgets share the
    table's Layout and styles: ``GameTable._html``, ``_button``, ``_box``)."""

    def __init__(self, table: Any, *, name: str = "", holder: Callable[[], str] | None = None,
                 store: Callable[[], RoomStore] = room_store, interval: float = 0.15) -> None:
        self.table = table
        self.ctl = table.ctl
        self.name = name
        self._holder = holder
        self._address: str | None = None  # a token of the page's client address
        self._store = store
        self.interval = interval
        self.link: RoomLink | None = None
        self._solo: tuple[Any, tuple[str, ...]] | None = None
        # what a page shows outside a room shares the table's Layout and styles (each
        # widget model is a message per page); the room's own controls (timer, bots,
        # start, leave) are made when the page first enters a room
        html, button = table._html, table._button
        self.w_title = html('<h3 class="mc-zone-title">' + _("Play with classmates") + "</h3>")
        self.w_make = button(description=_("Make a room"),
                             tooltip=_("a room for the number of players chosen above"))
        self.w_code = W.Text(placeholder=_("room code, e.g. K7P2M"), continuous_update=False,
                             description=_("Room code:"), layout=W.Layout(width="240px"),
                             style=table._shared(TextStyle))
        self.w_join = button(description=_("Join room"))
        self.w_line = html("")
        for b in (self.w_make, self.w_join):
            b.add_class("mc-choice")
        self.w_make.on_click(lambda _b: self._try(self.make))
        self.w_join.on_click(lambda _b: self._try(self.join, self.w_code.value))
        def join_typed(change: dict[str, Any]) -> None:
            if change.get("new"):
                self._try(self.join, change["new"])

        self.w_code.observe(join_typed, names="value")
        self.w_outside = W.HBox([self.w_make, self.w_code, self.w_join])
        self._inside: tuple[W.HBox, W.Dropdown, W.Button, W.Button, W.Button] | None = None
        self.widget = table._box(W.VBox, [self.w_title, self.w_outside, self.w_line])
        self.widget.add_class("mc-rooms")
        self.ctl.listen(lambda what: self.render() if what in ("table", "start") else None)
        self.render()

    def _room_controls(self) -> tuple[W.HBox, W.Dropdown, W.Button, W.Button, W.Button]:
        """The controls of a page in a room, made the first time it enters one (each shown
        or hidden by its own Layout)."""
        if self._inside is None:
            bots = W.Button(description=_("Fill open seats with bots"),
                            layout=W.Layout(width="auto"))
            start = W.Button(description=_("Start the room's game"), button_style="primary",
                             layout=W.Layout(width="auto"))
            leave = W.Button(description=_("Leave the room"), layout=W.Layout(width="auto"))
            timer = W.Dropdown(options=[(_(label), value) for label, value in TIMERS], value=0,
                               description=_("Turn timer:"), layout=W.Layout(width="220px"))
            timer.observe(lambda c: self._try(self.set_timer, c["new"]), names="value")
            for b in (bots, start, leave):
                b.add_class("mc-choice")
            bots.on_click(lambda _b: self._try(self.fill_with_bots))
            start.on_click(lambda _b: self._try(self.start))
            leave.on_click(lambda _b: self._try(self.leave))
            inside = W.HBox([timer, bots, start, leave])
            self._inside = (inside, timer, bots, start, leave)
            self.widget.children = (*self.widget.children, inside)
        return self._inside

    @property
    def w_inside(self) -> W.HBox:
        return self._room_controls()[0]

    @property
    def w_timer(self) -> W.Dropdown:
        return self._room_controls()[1]

    @property
    def w_bots(self) -> W.Button:
        return self._room_controls()[2]

    @property
    def w_start(self) -> W.Button:
        return self._room_controls()[3]

    @property
    def w_leave(self) -> W.Button:
        return self._room_controls()[4]

    def rejoin(self, wait: float = 0.3) -> bool:
        """Back to the room game this browser holds a seat in (a reload, a lost
        connection): True when there was one."""
        from mathcards.visitors import page_address, page_visitor

        if self._holder is None:
            token = page_visitor(wait=wait)
            self._holder = lambda: token
            self._address = page_address()
        code = self._store().held_room(self.holder(), self.ctl.game_name)
        if code is None:
            return False
        self._connect(code)
        return True

    # --- what the student does ------------------------------------------------------
    def _try(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except MathCardsError as exc:
            self.ctl.say(str(exc), refused=True)
        self.render()

    def holder(self) -> str:
        if self._holder is None:
            from mathcards.visitors import page_address, page_visitor

            token = page_visitor()
            self._holder = lambda: token
            self._address = page_address()
        return self._holder()

    def _connect(self, code: str) -> None:
        if self.link is not None:
            raise RoomError(_("you are in room {code}: leave it first").format(
                code=self.link.code))
        store = self._store()
        # never store.room(code) first: it would tell whether a typed code is a room
        # without counting it as a wrong code (RoomStore.join does)
        returning = store.holds_seat(code, self.holder())
        self._solo = (self.ctl.state.game, self.ctl.seats)
        self.link = RoomLink(self.ctl, store, code, self.holder(), name=self.name,
                             interval=self.interval, address=self._address)
        self.link.start_polling()
        if returning and self.link.playing:
            self.ctl.say(_("Welcome back to room {code}: your seat and your hand are as "
                           "you left them.").format(code=self.link.code))
        else:
            self.ctl.say(self.link.lobby_line())

    def make(self) -> None:
        """A room for this table's game with the players count chosen in New game."""
        players = self.table.w_players.value
        if type(players) is not int:
            raise RoomError(_("choose the number of players in the New game panel first"))
        game = self.ctl.game_cls(**(self.ctl.state.game.settings() | {"num_players": players}))
        code = self._store().create(game, self.holder(), replace_after=LEAVE_AFTER,
                                    address=self._address)
        self._connect(code)

    def join(self, code: Any) -> None:
        self._connect(code)
        self.w_code.value = ""

    def fill_with_bots(self) -> None:
        self._need_link().fill_with_bots()

    def set_timer(self, seconds: Any) -> None:
        """The host's turn timer (a choice of the list; 0: none)."""
        if seconds not in dict(TIMERS).values():
            raise RoomError(_("choose the turn timer from the list"))
        link = self._need_link()
        link.store.set_turn_timer(link.code, link.holder, float(seconds) if seconds else None)
        link.poll(force=True)

    def start(self) -> None:
        self._need_link().start()
        self.ctl.say(_("The room's game has started."))

    def leave(self) -> None:
        link = self._need_link()
        link.close()
        self.link = None
        ctl = self.ctl
        ctl.leave_room()
        ctl.save_enabled = self.table_save
        if self._solo is not None:
            game, seats = self._solo
            ctl.new_game(game, seats)
        ctl.say(_("You left room {code}.").format(code=link.code))

    @property
    def table_save(self) -> bool:
        return bool(getattr(self.table, "save_default", True))

    def _need_link(self) -> RoomLink:
        if self.link is None:
            raise RoomError(_("make a room or join one first"))
        return self.link

    # --- drawing ---------------------------------------------------------------------
    def render(self) -> None:
        link = self.link
        inside = link is not None
        self.w_outside.layout.display = "none" if inside else ""
        if inside or self._inside is not None:
            self.w_inside.layout.display = "" if inside else "none"
        if link is None:
            self.w_line.value = ('<div class="mc-status">' + _(
                "Make a room and read its code to your classmates, or type the code of "
                "theirs.") + "</div>")
            return
        host = link.is_host and not link.room.started
        self.w_bots.layout.display = "" if host and link.room.open_seats else "none"
        self.w_timer.layout.display = "" if host else "none"
        self.w_start.layout.display = "" if host else "none"
        classmate, open_seat = _("classmate"), pgettext("a room's seat", "open")

        def who(seat: Any) -> str:  # a classmate's name, an open seat, or the bot's kind
            if seat.kind == "human":
                return str(esc(seat.name or classmate))
            return open_seat if seat.kind == "open" else str(seat.kind)

        seats = ", ".join(f"{s.seat + 1}: {who(s)}" for s in link.room.seats)
        room = _("Room {code}").format(
            code=f'<code data-room="{esc(link.code)}">{esc(link.code)}</code>')
        self.w_line.value = ('<div class="mc-status" role="status" aria-live="polite">'
                             f'{room} · {esc(link.lobby_line())} <span class="mc-seats">'
                             + _("Seats: {seats}").format(seats=seats) + "</span></div>")
