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


def _open_all(pending: list[Any]) -> None:
    """Open every pending widget, each after the pending widgets its state refers to (its
    state names them by their comm ids)."""
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
