"""Voilà's websockets against a stranger who sends anything (issue 36 items 1, 5 and 6).

``install(manager)`` (from ``ClassroomKernelManager.__init__``) patches Voilà's socket
handlers once:

- **The request-info socket serves its own kernel only.** A preheated kernel learns its
  visitor's address over ``/voila/query/<kernel_id>``, which takes no login. Voilà's
  close handler removed the *last* registered waiter when a socket that was never
  registered (or was displaced by a second one to the same id) closed: twenty cycles of
  "open two sockets to a random id, close the second, then the first" left every
  preheated kernel waiting forever and every later page hanging at "Executing 1 of 2".
  Here a socket to an id no running kernel has is closed at once, a closing socket
  removes only itself, and the visitor's request stays cached for its kernel until the
  kernel is shut down (a socket opened again for it gets it again).
- **A page's message cannot crash or restart its kernel's socket.** A message the
  server cannot read (a 5,000-digit integer: Python refuses to convert it) is dropped
  with one log line instead of an uncaught error that dropped the connection; a page's
  ``shutdown_request`` is dropped the same way (Voilà ends kernels itself; a page's
  restart request restarted its kernel until it died).
- **No replies are kept for a socket closed for misbehaving.** A connection closed
  because its client left ``max_socket_backlog_mb`` unread is not buffered for a
  reconnect: its kernel's replies to what it asked are dropped, not held in memory.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Any

LOG: Any = logging.getLogger("mathcards.sockets")
_MARK = "_mathcards_sockets"
# session keys of connections closed for misbehaving: their replies are not buffered
_MISBEHAVED: set[str] = set()
_MANAGER: list[weakref.ReferenceType[Any]] = []


def misbehaved(handler: Any) -> None:
    """Mark a kernel websocket's connection closed for misbehaving (no buffering)."""
    key = getattr(getattr(handler, "connection", None), "session_key", None)
    if key:
        _MISBEHAVED.add(key)


def _running(kernel_id: str) -> bool | None:
    """Whether the server runs this kernel (None: no manager known)."""
    manager = _MANAGER[0]() if _MANAGER else None
    if manager is None:
        return None
    return kernel_id in getattr(manager, "_kernels", {})


def forget(kernel_id: str) -> None:
    """A kernel is shut down: drop its cached request info and its waiter."""
    try:
        from voila.request_info_handler import RequestInfoSocketHandler
    except ImportError:
        return
    RequestInfoSocketHandler._cache.pop(kernel_id, None)
    RequestInfoSocketHandler._waiters.pop(kernel_id, None)


def _guard_request_info() -> None:
    try:
        from voila.request_info_handler import RequestInfoSocketHandler
    except ImportError:
        return
    if getattr(RequestInfoSocketHandler, _MARK, False):
        return

    def open(self: Any, kernel_id: str) -> None:
        if _running(kernel_id) is False:
            LOG.warning("Closing a request-info socket for kernel %s: no such kernel",
                        kernel_id[:40])
            self.close(1008, "no such kernel")
            return
        self._mathcards_kernel_id = kernel_id
        RequestInfoSocketHandler._waiters[kernel_id] = self
        if kernel_id in RequestInfoSocketHandler._cache:
            self.write_message(RequestInfoSocketHandler._cache[kernel_id])

    def on_close(self: Any) -> None:
        kernel_id = getattr(self, "_mathcards_kernel_id", None)
        if kernel_id is not None and RequestInfoSocketHandler._waiters.get(kernel_id) is self:
            del RequestInfoSocketHandler._waiters[kernel_id]

    def send_updates(cls: Any, msg: dict[str, Any]) -> None:
        kernel_id = msg["kernel_id"]
        payload = msg["payload"]
        # kept until the kernel is shut down: a socket opened again for it gets it again
        cls._cache[kernel_id] = payload
        waiter = cls._waiters.get(kernel_id)
        if waiter is not None:
            try:
                waiter.write_message(payload)
            except Exception as exc:  # noqa: BLE001 - a closed socket: the cache answers
                LOG.warning("Could not send kernel %s its visitor: %s", kernel_id,
                            type(exc).__name__)

    RequestInfoSocketHandler.open = open
    RequestInfoSocketHandler.on_close = on_close
    RequestInfoSocketHandler.send_updates = classmethod(send_updates)
    setattr(RequestInfoSocketHandler, _MARK, True)


def _guard_kernel_messages() -> None:
    try:
        from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
    except ImportError:
        return
    if getattr(VoilaKernelWebsocketHandler, _MARK, False):
        return
    original = VoilaKernelWebsocketHandler.on_message

    def on_message(self: Any, ws_message: Any) -> Any:
        kernel_id = getattr(self, "kernel_id", "?")
        if (b"shutdown_request" if isinstance(ws_message, bytes)
                else "shutdown_request") in ws_message and _is_shutdown(self, ws_message):
            LOG.warning("Dropped a page's shutdown_request to kernel %s: Voilà ends its "
                        "kernels itself", kernel_id)
            return None
        try:
            return original(self, ws_message)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            text = str(exc).splitlines()[0][:120] if str(exc) else ""
            LOG.warning("Dropped a message to kernel %s the server cannot read: %s: %s",
                        kernel_id, type(exc).__name__, text)
            return None

    VoilaKernelWebsocketHandler.on_message = on_message
    setattr(VoilaKernelWebsocketHandler, _MARK, True)


def _is_shutdown(handler: Any, ws_message: Any) -> bool:
    """Whether a page's message is a shutdown_request (either wire protocol)."""
    import json

    try:
        connection = handler.connection
        if connection.subprotocol == "v1.kernel.websocket.jupyter.org":
            from jupyter_server.services.kernels.connection.base import (
                deserialize_msg_from_ws_v1,
            )

            _, parts = deserialize_msg_from_ws_v1(ws_message)
            header = json.loads(parts[0])
        elif isinstance(ws_message, bytes):
            from jupyter_server.services.kernels.connection.base import (
                deserialize_binary_message,
            )

            header = deserialize_binary_message(ws_message)["header"]
        else:
            header = json.loads(ws_message)["header"]
        return bool(isinstance(header, dict) and header.get("msg_type") == "shutdown_request")
    except Exception:  # noqa: BLE001 - unreadable: the original handler says so
        return False


def _no_buffer_for_misbehaving(manager: Any) -> None:
    original: Callable[[str, str, dict[str, Any]], None] = manager.start_buffering

    def start_buffering(kernel_id: str, session_key: str, channels: dict[str, Any]) -> None:
        if session_key in _MISBEHAVED:
            _MISBEHAVED.discard(session_key)
            LOG.warning("Not buffering kernel %s's replies: its socket was closed for "
                        "leaving them unread", kernel_id)
            for stream in channels.values():
                if stream is not None and not stream.closed():
                    stream.close()
            return None
        return original(kernel_id, session_key, channels)

    manager.start_buffering = start_buffering


def install(manager: Any) -> None:
    """Guard Voilà's sockets (once per process) and this manager's buffering."""
    global LOG
    LOG = getattr(manager, "log", LOG)  # Voilà's log: the lines reach its console
    _MANAGER[:] = [weakref.ref(manager)]
    _guard_request_info()
    _guard_kernel_messages()
    _no_buffer_for_misbehaving(manager)
