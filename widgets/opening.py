"""A page's widgets reach the browser once each, with the state they are first shown in.

ipywidgets sends a widget to the page (a ``comm_open`` message with its whole state) the
moment it is made, then one ``update`` message for every change made afterwards. Building
a table does both: it makes a widget, then gives it its CSS classes (``add_class``), and
the table's first drawing sets texts, tooltips and children. A first visit to the Sums
table sent 92 widgets and 91 updates before the student saw anything; every one of those
messages goes from the kernel through Voilà's own process (which a whole class shares) to
the browser.

Inside ``opened_together()`` a widget made by this thread is not opened when it is made
but when the block ends, each with its final state, the widgets it refers to (children,
layout, style) first: one message per widget, none per change. Changes to a widget not
yet opened are kept by the widget itself (ipywidgets sends nothing for a widget without a
comm), so nothing is lost; a widget closed inside the block is never opened.

**While Voilà builds a page no browser listens.** Voilà's executor runs the notebook before
the page is sent, and a page's browser loads every widget afterwards in one message (it
asks the kernel for all states: ipywidgets' ``request_states``), never from the
``comm_open`` messages sent before it connected: those reach Voilà's process alone, which
reads each twice and drops it (92 for a first visit to the Sums table; a class arriving
at once pays them on the process it shares). So a block that ends inside the execution of
Voilà's executor (``page_unseen()``: a Voilà kernel whose current request is an
``execute_request``, which Voilà lets no browser send) registers each widget's comm with
the kernel, so that the browser's messages reach it, and sends nothing. Everywhere else
(JupyterLab, whose notebook listens; a click's handler; the static site, where the page
is drawn as the kernel runs) widgets are announced as ipywidgets announces them.

This is the only place that changes how ipywidgets opens widgets; ``install`` (idempotent)
runs at the first block. Outside a block (JupyterLab code a teacher runs, a click's redraw)
and in other threads (a bot's timer) widgets open as ipywidgets opens them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

_local = threading.local()
_MARK = "_mathcards_opened_together"


def _pending() -> list[Any] | None:
    pending: list[Any] | None = getattr(_local, "pending", None)
    return pending


def install() -> None:
    """Teach ipywidgets' ``Widget.open`` and ``Widget.close`` the block (once)."""
    from ipywidgets import Widget

    if getattr(Widget, _MARK, False):
        return
    original_open = Widget.open
    original_close = Widget.close

    def open(self: Any) -> None:
        pending = _pending()
        if pending is not None and self.comm is None:
            pending.append(self)
            return
        original_open(self)

    def close(self: Any) -> None:
        pending = _pending()
        if pending is not None and self.comm is None:
            # never opened: forget it (the block would open it on leaving)
            with contextlib.suppress(ValueError):
                pending.remove(self)
            return
        original_close(self)

    open.__doc__ = original_open.__doc__
    close.__doc__ = original_close.__doc__
    Widget.open = open
    Widget.close = close
    setattr(Widget, _MARK, True)


def page_unseen() -> bool:
    """Whether no browser can see this kernel's messages now: a Voilà kernel (not the
    static site's) running a request of Voilà's executor, which builds the page before it
    is sent (Voilà's websocket lets a browser send no ``execute_request``)."""
    from mathcards.site import in_browser
    from mathcards.widgets import _in_voila

    if in_browser() or not _in_voila():
        return False
    try:
        from ipykernel.kernelbase import Kernel
    except ImportError:
        return False
    if not Kernel.initialized():
        return False
    kernel: Any = Kernel.instance()
    parent = kernel.get_parent("shell") or {}
    return bool(parent.get("header", {}).get("msg_type") == "execute_request")


def _register_unsent(widget: Any) -> None:
    """Give a widget its comm, registered with the kernel so that the browser's messages
    reach it, without the ``comm_open`` message no browser would read (``page_unseen``).
    The browser gets its state with every other widget's when it asks for them."""
    import comm
    from ipykernel.kernelbase import Kernel

    made: Any = comm.create_comm(target_name="jupyter.widget", primary=False,
                            **({"comm_id": widget._model_id}
                               if widget._model_id is not None else {}))
    # ipywidgets sends a widget's updates only through a comm that knows its kernel,
    # which ipykernel's comm learns when it first sends (the comm_open skipped here)
    made.kernel = Kernel.instance()
    comm.get_comm_manager().register_comm(made)
    widget.comm = made  # (ipywidgets then lists it among the states a browser gets)


def _referred(value: Any) -> Iterator[Any]:
    """The widgets a trait's value refers to (a widget, or a list, tuple or dict of them)."""
    from ipywidgets import Widget

    if isinstance(value, Widget):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _referred(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _referred(item)


def _register_all(pending: list[Any]) -> None:
    """Register the comms of the pending widgets and of those their states refer to (a
    style or layout ipywidgets makes the first time it is read, here): each made now is
    held back like the rest, the stack standing in as the block's list."""
    stack = list(pending)
    _local.pending = stack
    try:
        while stack:
            widget = stack.pop()
            if widget.comm is None:
                _register_unsent(widget)
                for name in widget.keys:
                    stack.extend(_referred(getattr(widget, name, None)))
    finally:
        _local.pending = None


def _open_all(pending: list[Any]) -> None:
    """Open every pending widget, each after the pending widgets its state refers to (its
    state names them by their comm ids); while no browser listens (``page_unseen``), only
    register their comms."""
    if pending and page_unseen():
        _register_all(pending)
        return
    waiting = {id(w) for w in pending}
    visited: set[int] = set()  # a cycle of references is walked once
    for first in pending:
        if id(first) not in waiting:
            continue
        # depth first without recursion: a widget is opened once all it refers to are
        stack: list[tuple[Any, bool]] = [(first, False)]
        while stack:
            widget, ready = stack.pop()
            if id(widget) not in waiting:
                continue
            if ready:
                waiting.discard(id(widget))
                widget.open()
                continue
            if id(widget) in visited:
                continue
            visited.add(id(widget))
            stack.append((widget, True))
            for name in widget.keys:
                stack.extend((other, False) for other in _referred(getattr(widget, name, None))
                             if id(other) in waiting)


@contextlib.contextmanager
def opened_together() -> Iterator[None]:
    """Widgets made by this thread inside the block are opened when it ends, with their
    final state. Nested blocks open with the outermost one."""
    install()
    if _pending() is not None:
        yield
        return
    pending: list[Any] = []
    _local.pending = pending
    try:
        yield
    finally:
        _local.pending = None
        _open_all(pending)
