"""A hostile page: a script that drives a real Voilà page's widgets over its kernel's
websocket, as a classmate's browser console or a script can (issue 26).

Voilà is a public page: whoever loads it can read every synced widget field and
send any widget message to the page's kernel, hidden widgets included. This
client does just that, with no browser:

- ``HostilePage.open(server, "play_sums.ipynb?room=K7P2M", jar=...)`` loads the
  page over HTTP (with a cookie jar: a browser that keeps Voilà's identity
  cookie; ``jar=None``: the cookie dropped, a new visitor every load), then
  connects to its kernel's channels and asks for every widget's state (the
  ``jupyter.widget.control`` comm's ``request_states``, as the page does).
- ``models`` holds every widget model's state by model id, kept up to date from
  the kernel's ``comm_open`` and ``comm_msg`` "update" messages; ``find`` and
  ``button`` pick models by their fields, ``text`` joins the HTML of the page.
- ``update(model_id, state)`` sends a comm_msg "update" (set any field),
  ``click(model_id)`` a "custom" ``{"event": "click"}``; each waits until the
  kernel is idle again unless ``wait=False`` (a burst), then ``settle()`` waits
  for all of them.

Every method is synchronous (each page runs its own event loop while called).
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import struct
import time
import urllib.request
import uuid
from typing import Any

__all__ = ["HostilePage", "browser_jar", "kernel_id_of"]


def browser_jar() -> http.cookiejar.CookieJar:
    """A cookie jar: the pages opened with it are one browser (Voilà's identity cookie)."""
    return http.cookiejar.CookieJar()


def kernel_id_of(html: str) -> str:
    """The kernel a rendered Voilà page runs on."""
    match = re.search(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})', html)
    if not match:
        raise AssertionError("the page names no kernel:\n" + html[-2000:])
    return match.group(1)


def _unpack(raw: str | bytes) -> dict[str, Any]:
    """A message of the Jupyter server's (legacy) websocket protocol: JSON text, or binary
    with buffers (a count, offsets, the JSON, then the buffers)."""
    if isinstance(raw, str):
        return dict(json.loads(raw))
    count = struct.unpack("!I", raw[:4])[0]
    offsets = [*struct.unpack("!" + "I" * count, raw[4:4 * (count + 1)]), len(raw)]
    parts = [raw[offsets[i]:offsets[i + 1]] for i in range(count)]
    msg = dict(json.loads(parts[0].decode("utf-8")))
    msg["buffers"] = parts[1:]
    return msg


class HostilePage:
    """One Voilà page driven over its kernel's websocket (see the module docstring)."""

    def __init__(self, base_url: str, html: str, kernel_id: str) -> None:
        self.base_url = base_url
        self.html = html
        self.kernel_id = kernel_id
        self.session = uuid.uuid4().hex
        self.models: dict[str, dict[str, Any]] = {}  # model id -> its synced state
        self.model_names: dict[str, str] = {}  # model id -> "ButtonModel", "HTMLModel"...
        self.pending: set[str] = set()  # msg ids sent whose "idle" has not come back
        self.loop = asyncio.new_event_loop()
        # tornado's client asks for the current loop: after another test's asyncio.run
        # there is none in the main thread, so this page's loop is made the current one
        asyncio.set_event_loop(self.loop)
        self.ws: Any = None

    # --- opening ---------------------------------------------------------------------
    @classmethod
    def open(cls, server: Any, notebook: str, *, jar: http.cookiejar.CookieJar | None = None,
             timeout: float = 180.0) -> HostilePage:
        """Load ``notebook`` (with its query) from ``server`` (a VoilaServer) and connect."""
        handlers: list[Any] = [] if jar is None else [urllib.request.HTTPCookieProcessor(jar)]
        opener = urllib.request.build_opener(*handlers)
        with opener.open(server.page(notebook), timeout=timeout) as response:
            html = response.read().decode("utf-8", "replace")
        page = cls(server.url(""), html, kernel_id_of(html))
        page._run(page._connect(timeout))
        return page

    def _run(self, coro: Any) -> Any:
        asyncio.set_event_loop(self.loop)
        return self.loop.run_until_complete(coro)

    async def _connect(self, timeout: float) -> None:
        from tornado.websocket import websocket_connect

        ws_url = self.base_url.replace("http://", "ws://", 1)
        self.ws = await websocket_connect(
            f"{ws_url}api/kernels/{self.kernel_id}/channels?session_id={self.session}",
            connect_timeout=30, max_message_size=256 * 1024 * 1024)
        control = uuid.uuid4().hex
        self._send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                 "data": {}, "metadata": {}}, {"version": "1.0.0"})
        self._send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        end = time.monotonic() + timeout
        while not self.models:
            await self._read_one(end)
        await self._settle(end)

    # --- the wire ----------------------------------------------------------------------
    def _send(self, msg_type: str, content: dict[str, Any],
              metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        # tornado's streams make their futures on the current loop: with several pages
        # open, that must be this page's (another page's may be closed already)
        asyncio.set_event_loop(self.loop)
        self.ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": msg_type, "username": "hostile",
                       "session": self.session, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": metadata or {}, "content": content,
            "channel": "shell",
            "buffers": []}))
        self.pending.add(msg_id)
        return msg_id

    async def _read_one(self, end: float) -> None:
        left = end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the kernel did not answer; waiting for {len(self.pending)}")
        raw = await asyncio.wait_for(self.ws.read_message(), timeout=left)
        if raw is None:
            raise ConnectionError("the kernel's websocket closed")
        self._take(_unpack(raw))

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("header", {}).get("msg_type") or msg.get("msg_type")
        content = msg.get("content", {})
        if kind == "status" and content.get("execution_state") == "idle":
            self.pending.discard(msg.get("parent_header", {}).get("msg_id"))
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            state = dict(content.get("data", {}).get("state", {}))
            self.models[content["comm_id"]] = state
            self.model_names[content["comm_id"]] = str(state.get("_model_name", ""))
        elif kind == "comm_msg":
            data = content.get("data", {})
            if data.get("method") == "update_states":  # the answer to request_states
                for model_id, model in data.get("states", {}).items():
                    self.models[model_id] = dict(model.get("state", {}))
                    self.model_names[model_id] = str(model.get("model_name", ""))
            elif data.get("method") in ("update", "echo_update"):
                self.models.setdefault(content.get("comm_id", ""), {}).update(
                    data.get("state", {}))
        elif kind == "comm_close":
            self.models.pop(content.get("comm_id", ""), None)

    async def _settle(self, end: float) -> None:
        while self.pending:
            await self._read_one(end)

    def settle(self, timeout: float = 60.0, quiet: float = 0.0) -> None:
        """Wait until the kernel has handled every message sent, then ``quiet`` seconds
        more, reading what it sends meanwhile (a room's poll, a bot's move)."""
        async def run() -> None:
            await self._settle(time.monotonic() + timeout)
            end = time.monotonic() + quiet
            while time.monotonic() < end:
                try:
                    await asyncio.wait_for(self._read_one(end + 1), end - time.monotonic())
                except (asyncio.TimeoutError, TimeoutError):
                    return
        self._run(run())

    # --- what a hostile page sends ---------------------------------------------------
    def update(self, model_id: str, state: dict[str, Any], *, wait: bool = True) -> None:
        """Set fields of any widget model, as the page does when a field changes."""
        self._send("comm_msg", {"comm_id": model_id, "data": {
            "method": "update", "state": state, "buffer_paths": []}})
        if wait:
            self.settle()

    def click(self, model_id: str, *, wait: bool = True) -> None:
        """A click on any button model, shown or hidden, enabled or not."""
        self._send("comm_msg", {"comm_id": model_id, "data": {
            "method": "custom", "content": {"event": "click"}}})
        if wait:
            self.settle()

    # --- reading the page ------------------------------------------------------------
    def find(self, model_name: str = "", **fields: Any) -> list[str]:
        """The ids of the models of ``model_name`` ("Button", "Dropdown"...) whose fields
        equal ``fields`` (a field given as a compiled regex is searched instead)."""
        out = []
        for model_id, state in self.models.items():
            if model_name and self.model_names.get(model_id) != f"{model_name}Model":
                continue
            if all(v.search(str(state.get(k, ""))) if isinstance(v, re.Pattern)
                   else state.get(k) == v for k, v in fields.items()):
                out.append(model_id)
        return out

    def button(self, description: str | re.Pattern[str]) -> str:
        """The one button with this description (a regex: the first that matches)."""
        found = self.find("Button", description=description)
        if not found:
            raise AssertionError(f"no button {description!r} on the page")
        if len(found) > 1 and not isinstance(description, re.Pattern):
            raise AssertionError(f"{len(found)} buttons {description!r} on the page")
        return found[0]

    def text(self) -> str:
        """Every HTML field of the page joined (status lines, board, lobby...)."""
        return "\n".join(str(s.get("value", "")) for i, s in self.models.items()
                         if self.model_names.get(i, "").startswith("HTML"))

    def close(self) -> None:
        asyncio.set_event_loop(self.loop)
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        self.loop.run_until_complete(asyncio.sleep(0))
        self.loop.close()
        asyncio.set_event_loop(None)  # no closed loop left current for whatever runs next
