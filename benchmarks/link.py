"""A student's share of a school link, for the browser benchmarks: real bytes, delayed.

Chromium's DevTools throttling (``Network.emulateNetworkConditions``) counts a websocket's
frames as the page reads them, uncompressed, so a compressed kernel websocket looks as
slow as a plain one there. ``ShapedLink`` is a TCP relay between the browser and the
server that lets every byte through at the link's rate, as sent (compressed where it
was), each way half the round trip later: what a student's share of a school's uplink
does to a page, websockets included. It also counts the bytes each way.

    link = ShapedLink(server_port, down_kbit=2000, up_kbit=1000, latency_ms=40).start()
    page.goto(f"http://127.0.0.1:{link.port}/voila/render/...")
    ...
    link.stop()

The rate is shared by every connection of the browser (one student's share), like a
real link; bytes queue behind each other in the order they were read.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

CHUNK = 16384


class _Way:
    """One direction of the link: when it is free again, and the bytes it carried."""

    def __init__(self, kbit: float, latency: float) -> None:
        self.seconds_per_byte = 8 / (kbit * 1000)
        self.latency = latency
        self.free_at = 0.0
        self.bytes = 0

    def arrival(self, now: float, size: int) -> float:
        start = max(now, self.free_at)
        self.free_at = start + size * self.seconds_per_byte
        self.bytes += size
        return self.free_at + self.latency


class ShapedLink:
    def __init__(self, target_port: int, *, down_kbit: float, up_kbit: float,
                 latency_ms: float, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self.host = host
        self.down = _Way(down_kbit, latency_ms / 2000)
        self.up = _Way(up_kbit, latency_ms / 2000)
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()

    # --- what the benchmark reads -----------------------------------------------------
    def counted(self) -> tuple[int, int]:
        """Bytes carried so far (down to the browser, up to the server)."""
        return self.down.bytes, self.up.bytes

    # --- the relay ---------------------------------------------------------------------
    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    way: _Way) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

        async def deliver() -> None:
            while (item := await queue.get()) is not None:
                at, data = item
                delay = at - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                writer.write(data)
                await writer.drain()
            with contextlib.suppress(OSError):
                if writer.can_write_eof():
                    writer.write_eof()

        sender = asyncio.create_task(deliver())
        try:
            while data := await reader.read(CHUNK):
                queue.put_nowait((way.arrival(loop.time(), len(data)), data))
        except (ConnectionError, OSError):
            pass
        finally:
            queue.put_nowait(None)
            with contextlib.suppress(ConnectionError, OSError):
                await sender

    async def _connection(self, browser_reader: asyncio.StreamReader,
                          browser_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            browser_writer.close()
            return
        try:
            await asyncio.gather(self._pump(browser_reader, server_writer, self.up),
                                 self._pump(server_reader, browser_writer, self.down))
        except asyncio.CancelledError:
            pass  # the link is stopping: the connection ends here
        finally:
            for writer in (server_writer, browser_writer):
                with contextlib.suppress(OSError):
                    writer.close()

    def start(self) -> ShapedLink:
        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._server = loop.run_until_complete(
                asyncio.start_server(self._connection, self.host, 0))
            self.port = self._server.sockets[0].getsockname()[1]
            self._started.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name="shaped-link", daemon=True)
        self._thread.start()
        self._started.wait(10)
        return self

    async def _shut(self) -> None:
        if self._server is not None:
            self._server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.get_running_loop().stop()

    def stop(self) -> None:
        """Close the link and every connection through it."""
        loop = self._loop
        if loop is None:
            return
        asyncio.run_coroutine_threadsafe(self._shut(), loop)
        if self._thread is not None:
            self._thread.join(10)
