"""Page kernels forked from a process that has already imported them (issue 29 item 4).

A page's kernel started the usual way is a new Python that imports ipykernel, IPython,
ipywidgets and then, running the page, MathCards' table and (for the explainer) sympy:
most of a fresh play page's CPU, spent after its visitor arrived, and thirty times over
when a class opens the page at once. Here the server keeps one helper process (the
*fork server*) that imported all of that once at start; a kernel is a ``fork()`` of it
that reads its connection file and runs ipykernel as ``python -m ipykernel_launcher``
would. The visitor's kernel then only builds the page's widgets, and the imported code is
shared copy-on-write between the kernels (less memory per kernel too).

``ClassroomKernelManager`` (``fork_kernels``, on by default) starts the fork server and
routes jupyter_client's local kernel launches through it; a kernel command that is not
this Python's ``-m ipykernel_launcher`` (another kernel, another interpreter) and any
failure of the fork server fall back to the usual launch. The fork server ends when the
server does (its socket closes); its kernels then see their parent gone and end too, as
ipykernel's kernels do.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from typing import Any

# what a play page's kernel imports (the explainer's sympy through its own warm-up)
PRELOAD = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipywidgets",
    "mathcards.widgets",
    "mathcards.widgets.table",
    "mathcards.widgets.rooms",
    "mathcards.widgets.classes",
)
LAUNCHER = ("-m", "ipykernel_launcher")
READY = "MathCards kernel fork server ready"
_HEADER = struct.Struct("!I")


def _send(sock: socket.socket, payload: dict[str, Any]) -> None:
    data = json.dumps(payload).encode("utf-8")
    sock.sendall(_HEADER.pack(len(data)) + data)


def _receive(sock: socket.socket) -> dict[str, Any] | None:
    """One message, or None when the other end closed."""
    head = _read_exactly(sock, _HEADER.size)
    if head is None:
        return None
    body = _read_exactly(sock, _HEADER.unpack(head)[0])
    return None if body is None else json.loads(body.decode("utf-8"))


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = sock.recv(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


# --- the fork server ---------------------------------------------------------------------
def preload() -> None:
    """Import what a page's kernel needs, before any visitor (no thread, no zmq context)."""
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from mathcards.games.registry import game_specs, resolve

    for spec in game_specs():
        if getattr(spec, "view", None):
            with contextlib.suppress(ImportError):  # a game whose table has not landed
                resolve(spec.view)
    from mathcards.explain import warm_up

    warm_up(background=False)  # sympy, which the explainer loads in every kernel anyway


def _child(request: dict[str, Any], server: socket.socket) -> None:
    """In the forked kernel: become ``python -m ipykernel_launcher <args>`` (never returns)."""
    code = 1
    try:
        server.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.chdir(request["cwd"] or os.getcwd())
        env = dict(request["env"])
        env["JPY_PARENT_PID"] = str(os.getppid())  # the fork server: gone with the server
        os.environ.clear()
        os.environ.update(env)
        # ipykernel read JPY_PARENT_PID when the fork server imported it: say it again
        sys.argv = [LAUNCHER[1], *request["argv"],
                    f"--IPKernelApp.parent_handle={env['JPY_PARENT_PID']}"]
        from mathcards import widgets

        widgets.page_kernel_started()  # what importing it does in a Voilà page's kernel
        from ipykernel.kernelapp import IPKernelApp

        app = IPKernelApp.instance()
        app.initialize()
        # what importing ipywidgets does in a running kernel: the widgets' comm targets
        # (without them a page's widgets never get their state)
        import ipywidgets

        ipywidgets.register_comm_target()
        app.start()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:  # noqa: BLE001 - a kernel that cannot start: its log says why
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve(fd: int) -> None:
    """The fork server's loop: one fork per request, its pid as the answer."""
    server = socket.socket(fileno=fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernels are reaped as they end
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the teacher's terminal: the server
    print(f"{READY} (pid {os.getpid()})", file=sys.stderr, flush=True)  # the server's log
    _send(server, {"ready": os.getpid()})
    while True:
        request = _receive(server)
        if request is None:
            return  # the server closed its end: stop (the kernels follow)
        started, done = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(started)
            os.setsid()  # its own process group: interrupts and shutdowns reach it alone
            os.close(done)  # ... before the server learns its pid and its group
            _child(request, server)
        os.close(done)
        os.read(started, 1)  # the child's end closed: it has its own session now
        os.close(started)
        _send(server, {"pid": pid})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # as ipykernel_launcher: the folder it was started in is not on the import path
    if sys.path and (sys.path[0] in ("", os.getcwd())):
        del sys.path[0]
    for name in [k for k in os.environ if k.startswith("VOILA") or k == "QUERY_STRING"]:
        del os.environ[name]  # the server's own environment: not a page's
    preload()
    # what was imported stays out of every kernel's garbage collections: a collection
    # walking it would cost each kernel CPU and copy the pages it shares with the others
    gc.collect()
    gc.freeze()
    serve(int(args[0]))
    return 0


# --- in the server -----------------------------------------------------------------------
class ForkedKernel:
    """What jupyter_client keeps of a launched kernel (a ``subprocess.Popen``'s part it
    uses): the fork server, not this process, is the kernel's parent, so its end is seen
    through a pidfd (or ``kill(pid, 0)``) and its exit code is not known (0)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self._pidfd = os.pidfd_open(pid)

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        if self._pidfd is not None:
            ended = bool(select.select([self._pidfd], [], [], 0)[0])
        else:
            try:
                os.kill(self.pid, 0)
                ended = False
            except ProcessLookupError:
                ended = True
            except PermissionError:
                ended = False
        if ended:
            self.returncode = 0
            if self._pidfd is not None:
                os.close(self._pidfd)
                self._pidfd = None
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.05)
        return self.returncode or 0

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The server's handle on its fork server (started once, shared by every launch)."""

    def __init__(self, log: Any = None):
        self.log = log
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.pid = 0

    def start(self) -> ForkServer:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mathcards.widgets.forkserver", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        self._sock = ours
        return self

    def _ready(self) -> bool:
        """Whether the fork server has done its imports (never waits for them: until
        then kernels start the usual way); False too if it died."""
        if self.pid:
            return True
        if self._sock is None or not select.select([self._sock], [], [], 0)[0]:
            return False
        answer = _receive(self._sock)
        if not answer or "ready" not in answer:
            self._broken("did not start")
            return False
        self.pid = int(answer["ready"])
        return True

    def _broken(self, why: str) -> None:
        if self.log is not None:
            self.log.warning("Kernel fork server %s: kernels start the usual way.", why)
        with contextlib.suppress(OSError):
            if self._sock is not None:
                self._sock.close()
        self._sock = None

    def launch(self, cmd: list[str], env: dict[str, str] | None,
               cwd: str | None) -> ForkedKernel | None:
        """A kernel forked for ``cmd`` (``python -m ipykernel_launcher ...``), or None
        when this command is not one the fork server can run (the caller launches it)."""
        if len(cmd) < 3 or tuple(cmd[1:3]) != LAUNCHER or \
                os.path.realpath(cmd[0]) != os.path.realpath(sys.executable):
            return None
        with self._lock:
            if not self._ready() or self._sock is None:
                return None
            try:
                _send(self._sock, {"argv": list(cmd[3:]),
                                   "env": dict(os.environ if env is None else env),
                                   "cwd": str(cwd) if cwd else None})
                answer = _receive(self._sock)
            except OSError as exc:
                self._broken(f"failed ({exc})")
                return None
            if not answer or "pid" not in answer:
                self._broken("stopped")
                return None
        return ForkedKernel(int(answer["pid"]))

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            if self._sock is not None:
                self._sock.close()
        self._sock = None
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)


_SERVER: ForkServer | None = None


def install(log: Any = None) -> ForkServer:
    """Start the fork server (once) and launch local kernels through it."""
    global _SERVER
    from jupyter_client.provisioning import local_provisioner

    if _SERVER is None:
        _SERVER = ForkServer(log).start()
    server = _SERVER
    # the provisioner calls jupyter_client.launcher's launch_kernel by this name (it is
    # not in the module's __all__, hence the attr-defined ignores)
    if getattr(local_provisioner.launch_kernel, "_mathcards_forks", False):  # type: ignore[attr-defined]
        return server
    usual = local_provisioner.launch_kernel  # type: ignore[attr-defined]

    def launch_kernel(cmd: list[str], **kwargs: Any) -> Any:
        forked = server.launch(cmd, kwargs.get("env"), kwargs.get("cwd"))
        return forked if forked is not None else usual(cmd, **kwargs)

    launch_kernel._mathcards_forks = True  # type: ignore[attr-defined]
    local_provisioner.launch_kernel = launch_kernel  # type: ignore[attr-defined,assignment]
    return server


if __name__ == "__main__":
    raise SystemExit(main())
