"""A real JupyterHub for the tests: started on 127.0.0.1 with jupyterhub_config.py.

``make test`` installs what it needs (``jupyterhub`` from PyPI with the test
dependencies, ``configurable-http-proxy`` from npm into ``node_modules``);
without them the hub tests are skipped with one line (a failure in CI).
"""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.browser.server import HOST, REPO, free_port, isolated_env, read_log, stop_group

CONFIG = Path(__file__).with_name("jupyterhub_config.py")
PROXY = REPO / "node_modules" / ".bin" / "configurable-http-proxy"
JUPYTERHUB = Path(sys.executable).with_name("jupyterhub")


def missing() -> str:
    """What the hub tests lack, in one line, or ""."""
    if not JUPYTERHUB.exists():
        return "jupyterhub is not installed: run `make .venv/.installed-stamp`"
    if not PROXY.exists():
        return "configurable-http-proxy is not installed: run `make node_modules`"
    return ""


class Hub:
    """One JupyterHub process (and its proxy); ``url(path)`` builds addresses."""

    def __init__(self, state_dir: Path, teachers: str = "teacher") -> None:
        self.state_dir = Path(state_dir)
        self.port = free_port()
        self.teacher_key = secrets.token_urlsafe(12)
        self.teachers = teachers
        self.log_path = self.state_dir / "jupyterhub.log"
        self.service_port = free_port()
        self.process: subprocess.Popen | None = None

    def url(self, path: str = "") -> str:
        return f"http://{HOST}:{self.port}/{path.lstrip('/')}"

    def service_url(self, method: str) -> str:
        """The MathCards service's address for ``method`` (as students' servers call it)."""
        return f"http://{HOST}:{self.service_port}/services/mathcards/rpc/{method}"

    @property
    def variant_secret(self) -> str:
        """The secret the service made in its own data folder."""
        return (self.state_dir / "service" / "variant-secret").read_text().strip()

    @property
    def server_key(self) -> str:
        """The key of the servers' proofs (only the hub and the service read it)."""
        return (self.state_dir / "service" / "server-key").read_text().strip()

    def home(self, user: str) -> Path:
        return self.state_dir / "homes" / user

    @property
    def class_dir(self) -> Path:
        return self.state_dir / "class"

    def start(self, timeout: float = 120.0) -> Hub:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        env = isolated_env(self.state_dir / "hub")
        env.pop("JUPYTERHUB_USER", None)
        env.update({
            "MATHCARDS_HUB_STATE": str(self.state_dir),
            "MATHCARDS_HUB_PORT": str(self.port),
            "MATHCARDS_HUB_API_PORT": str(free_port()),
            "MATHCARDS_HUB_PROXY_API_PORT": str(free_port()),
            "MATHCARDS_HUB_PROXY_TOKEN": secrets.token_hex(16),
            "MATHCARDS_HUB_TEACHERS": self.teachers,
            "MATHCARDS_HUB_SERVICE_PORT": str(self.service_port),
            "MATHCARDS_TEACHER_KEY": self.teacher_key,
        })
        log = open(self.log_path, "wb")  # noqa: SIM115 - kept open for the process' life
        self.process = subprocess.Popen(
            [str(JUPYTERHUB), "-f", str(CONFIG)], cwd=self.state_dir, env=env,
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited at start:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(self.url("hub/api/"), timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"JupyterHub did not answer within {timeout:.0f}s:\n{self.log_text()}")

    def log_text(self) -> str:
        return read_log(self.log_path)

    def stop(self, timeout: float = 60.0) -> None:
        """SIGTERM (the hub stops the users' servers and its proxy), then SIGKILL the group."""
        process, self.process = self.process, None
        stop_group(process, timeout)
