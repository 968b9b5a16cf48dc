"""A real Voilà server for the browser tests and the page benchmarks.

It starts Voilà with exactly the command line of ``make play`` (the same
``lessons/voila.json``, the same template path, 127.0.0.1) on a free port,
with every piece of Jupyter state (config, data, runtime, IPython, HOME) and
MathCards' saves in a temporary folder, so a test run never touches the
home folder. ``tests/test_notebooks.py`` checks that ``play_command`` and the
Makefile's ``play`` target agree.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "lessons"
TEMPLATES = LESSONS / "share" / "jupyter"
VOILA = Path(sys.executable).with_name("voila")
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def play_command(root_dir: Path | str, port: int) -> tuple[dict[str, str], list[str]]:
    """The environment additions and argv of ``make play`` for ``root_dir`` and ``port``."""
    env = {"JUPYTER_PATH": str(TEMPLATES)}
    argv = [
        str(VOILA),
        "--no-browser",
        f"--Voila.ip={HOST}",
        f"--port={port}",
        "--ClassroomKernelManager.fork_kernels=True",
        f"--Voila.root_dir={root_dir}",
        f"--Voila.config_file_paths={LESSONS}",
    ]
    return env, argv


def isolated_env(state_dir: Path) -> dict[str, str]:
    """os.environ with all Jupyter/IPython state and MathCards saves under ``state_dir``."""
    env = dict(os.environ)
    for name, sub in (
        ("HOME", "home"),
        ("JUPYTER_CONFIG_DIR", "jupyter_config"),
        ("JUPYTER_DATA_DIR", "jupyter_data"),
        ("JUPYTER_RUNTIME_DIR", "jupyter_runtime"),
        ("IPYTHONDIR", "ipython"),
        ("MATHCARDS_DATA_DIR", "mathcards_data"),
    ):
        path = state_dir / sub
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    # No user-site or platform config leaking in from the developer's machine.
    env.pop("JUPYTER_CONFIG_PATH", None)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env["PYTHONNOUSERSITE"] = "1"
    return env


class VoilaServer:
    """One Voilà process serving ``root_dir``; ``url(path)`` builds page addresses."""

    def __init__(self, state_dir: Path, root_dir: Path = LESSONS, port: int | None = None,
                 extra_args: list[str] | None = None):
        self.extra_args = list(extra_args or [])  # e.g. shorter culling times in a test
        self.state_dir = Path(state_dir)
        self.root_dir = Path(root_dir)
        self.port = port or free_port()
        self.log_path = self.state_dir / "voila.log"
        self.process: subprocess.Popen | None = None

    def url(self, path: str = "") -> str:
        return f"http://{HOST}:{self.port}/{path.lstrip('/')}"

    def page(self, notebook: str) -> str:
        """The address Voilà renders ``notebook`` (relative to the root) at."""
        return self.url(f"voila/render/{notebook}")

    def start(self, timeout: float = 90.0) -> VoilaServer:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        extra_env, argv = play_command(self.root_dir, self.port)
        # a setting given in extra_args takes the place of make play's own (traitlets
        # refuses one setting given twice)
        given = {arg.split("=", 1)[0] for arg in self.extra_args if arg.startswith("--")}
        argv = [arg for arg in argv if arg.split("=", 1)[0] not in given] + self.extra_args
        env = isolated_env(self.state_dir)
        env.update(extra_env)
        log = open(self.log_path, "wb")  # noqa: SIM115 - kept open for the process' life
        self.process = subprocess.Popen(
            argv,
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        return self.wait_started(timeout)

    def wait_started(self, timeout: float) -> VoilaServer:
        """Wait until the started process answers (its log in the error when it does not)."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Voilà exited at start:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(self.url("voila/api/contents"), timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"Voilà did not answer within {timeout:.0f}s:\n{self.log_text()}")

    def wait_for_pools(self, notebooks: int, timeout: float = 180.0) -> None:
        """Wait until Voilà logs that ``notebooks`` kernel pools are filled."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log_text().count("Kernel pool of") >= notebooks:
                return
            time.sleep(0.25)
        raise RuntimeError(f"kernel pools not filled within {timeout:.0f}s:\n{self.log_text()}")

    def log_text(self) -> str:
        return read_log(self.log_path)

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM (Voilà shuts its kernels down), then SIGKILL the group if it hangs."""
        process, self.process = self.process, None
        stop_group(process, timeout)


def read_log(path: Path) -> str:
    """A server's log so far ("" before it has written one)."""
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:
        return ""


def stop_group(process: subprocess.Popen | None, timeout: float) -> None:
    """SIGTERM a server started in its own session, then SIGKILL the whole group: its
    children (kernels, a hub's proxy and users' servers) may not outlive it."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
