"""Voilà's websockets against a stranger who sends anything (issue 36 item 1).

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
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

LOG: Any = logging.getLogger("mathcards.sockets")
_MARK = "_mathcards_sockets"
_MANAGER: list[weakref.ReferenceType[Any]] = []


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


def install(manager: Any) -> None:
    """Guard Voilà's sockets (once per process)."""
    global LOG
    LOG = getattr(manager, "log", LOG)  # Voilà's log: the lines reach its console
    _MANAGER[:] = [weakref.ref(manager)]
    _guard_request_info()
