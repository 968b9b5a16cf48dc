"""Widget messages from the browser never send a traceback back (issue 26 item 11).

A Voilà page is public: anyone can send any widget message over its websocket.
ipywidgets answers a message it cannot apply (a text box set to a number, list or
dict: traitlets refuses the type) and any callback that raises with
``ip.showtraceback()``: an ``error`` message carrying the whole Python traceback,
with the server's paths, to the page, whatever ``show_tracebacks`` says. Under
Voilà, ``install`` (run when ``mathcards.widgets`` is imported in a kernel) turns
those into one log line without a traceback: the message is refused, the
widget keeps its value and sends it back to the page, the page goes on. In
JupyterLab nothing changes: a teacher running the code still sees tracebacks.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

LOG = logging.getLogger("mathcards.widgets")
REFUSED = "A widget message was refused: %s"
_MARK = "_mathcards_guarded"


def one_line(exc: BaseException) -> str:
    """The exception's kind and the first line of its text, short (never a traceback)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if len(text) > 160:
        text = text[:160] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _undecorated(function: Any) -> Any:
    """ipywidgets' ``_handle_msg`` without its ``_show_traceback`` wrapper."""
    for cell in getattr(function, "__closure__", None) or ():
        inner = cell.cell_contents
        if callable(inner) and getattr(inner, "__name__", "") == "_handle_msg":
            return inner
    return function


def _resend(widget: Any, msg: Any) -> None:
    """After a refused update, send the page the fields' real values (ipywidgets echoed
    the refused ones back before checking them)."""
    try:
        state = msg["content"]["data"].get("state") or {}
        names = [name for name in state if name in widget.keys]
        if names:
            widget.send_state(names)
    except Exception as exc:  # noqa: BLE001 - a malformed message: nothing to send back
        LOG.warning(REFUSED, one_line(exc))


def _guard_comm_targets() -> None:
    """A widget the page opens itself (a ``comm_open`` on ``jupyter.widget``: Voilà's pages
    open none; ipywidgets raised "Incompatible widget protocol versions" or worse, and the
    comm package printed the whole traceback to the page) is refused in one log line, its
    comm closed (issue 36 item 5)."""
    try:
        import comm
    except ImportError:
        return
    manager = comm.get_comm_manager()
    targets = getattr(manager, "targets", None)
    if not isinstance(targets, dict):
        return
    for name in ("jupyter.widget", "jupyter.widget.control"):
        target = targets.get(name)
        if target is None or getattr(target, _MARK, False):
            continue

        def guarded(opened: Any, msg: Any, _target: Any = target) -> None:
            try:
                _target(opened, msg)
            except Exception as exc:  # noqa: BLE001 - a page's message: refuse it, never raise
                LOG.warning("A widget the page opened was refused: %s", one_line(exc))
                with contextlib.suppress(Exception):  # not open yet: nothing to close
                    opened.close()

        setattr(guarded, _MARK, True)
        manager.register_target(name, guarded)


def install() -> None:
    """Guard every widget's messages and callbacks in this kernel (once)."""
    from ipywidgets.widgets.widget import CallbackDispatcher, Widget

    _guard_comm_targets()
    if getattr(Widget, _MARK, False):
        return
    handle = _undecorated(Widget._handle_msg)

    def _handle_msg(self: Any, msg: Any) -> None:
        try:
            handle(self, msg)
        except Exception as exc:  # noqa: BLE001 - a page's message: refuse it, never raise
            LOG.warning(REFUSED, one_line(exc))
            _resend(self, msg)

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        value = None
        for callback in self.callbacks:
            try:
                local_value = callback(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - as ipywidgets, without the traceback
                LOG.warning(REFUSED, one_line(exc))
            else:
                value = local_value if local_value is not None else value
        return value

    Widget._handle_msg = _handle_msg
    CallbackDispatcher.__call__ = call
    setattr(Widget, _MARK, True)
