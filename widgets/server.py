"""The kernel manager MathCards' Voilà server runs (``lessons/voila.json``).

Voilà keeps preheated kernels in pools and culls idle ones. Two faults of the
plain culler matter in a classroom:

- **A pooled kernel could be culled under its first visitor.** A kernel that
  waited in the pool for longer than the idle timeout is handed to a visitor
  with its old ``last_activity``; if the culler runs before the page's
  websocket connects, the page opens broken (widget text instead of widgets).
  Here, handing a kernel out counts as activity: a kernel never seen
  connected is never culled for idleness.
- **A page that never connects keeps its kernel.** A visitor who closes the
  tab while the page loads (or a script that only fetches the page) leaves a
  kernel nobody will ever use. Here a kernel that has finished rendering and
  has never had a connection is shut down ``unconnected_grace`` seconds
  later (with the culler's ``cull_interval``, within about a minute).

Kernels that have been connected are culled as jupyter_server always does
(``cull_idle_timeout``, ``cull_connected``). Voilà's own pool class wraps this
one and never passes pooled kernels to it.
"""

from __future__ import annotations

import time

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import ensure_async
from traitlets import Float


class ClassroomKernelManager(AsyncMappingKernelManager):
    """AsyncMappingKernelManager that never culls a kernel before its page connects."""

    unconnected_grace = Float(
        45.0,
        config=True,
        help="Seconds a kernel that rendered its page but never had a connection is kept "
        "before it is shut down.",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._waiting_since: dict[str, float] = {}  # never-connected kernels: idle since
        self._connected_once: set[str] = set()

    def _pool_is_filling(self) -> bool:
        """Whether a pool kernel is starting (its id is not known yet)."""
        pools = getattr(self, "_pools", None) or {}
        return any(not task.done() for pool in pools.values() for task in pool)

    async def cull_kernel_if_idle(self, kernel_id: str):
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return None
        if kernel_id in self._connected_once:
            return await ensure_async(super().cull_kernel_if_idle(kernel_id))
        if getattr(kernel, "execution_state", None) == "dead":
            return await ensure_async(super().cull_kernel_if_idle(kernel_id))
        now = time.monotonic()
        if getattr(kernel, "execution_state", None) == "busy" or self._pool_is_filling():
            # still rendering its page (or perhaps a pool kernel starting): not waiting yet
            self._waiting_since.pop(kernel_id, None)
            return None
        since = self._waiting_since.setdefault(kernel_id, now)
        if now - since < self.unconnected_grace:
            return None
        self.log.warning("Shutting down kernel %s: its page never connected (%.0f s).",
                         kernel_id, now - since)
        return await ensure_async(self.shutdown_kernel(kernel_id))

    def notify_connect(self, kernel_id: str) -> None:
        """A page connected: from now on the usual idle culling applies, counted from
        now (however long the kernel waited in its pool)."""
        super().notify_connect(kernel_id)
        if kernel_id in self._kernels and kernel_id not in self._connected_once:
            self._connected_once.add(kernel_id)
            self._waiting_since.pop(kernel_id, None)
            self._kernels[kernel_id].last_activity = utcnow()

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        self._waiting_since.pop(kernel_id, None)
        self._connected_once.discard(kernel_id)
        return await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))
