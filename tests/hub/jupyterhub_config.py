"""A JupyterHub on one machine for the hub tests (tests/hub/test_hub.py).

Everything it needs comes from ``make test``: ``jupyterhub`` from PyPI (the
test dependencies), its proxy ``configurable-http-proxy`` from npm into the
repository's ``node_modules`` (package.json, package-lock.json). It listens on
127.0.0.1 only, keeps all its state (database, cookie secret, the users' homes
and Jupyter folders) under ``$MATHCARDS_HUB_STATE``, logs anyone in with the
test authenticator (``DummyAuthenticator``: any name, no password; never on a
real hub) and starts each user's server as a local process running as this
same OS user (``SimpleLocalProcessSpawner``). Each user lands on the MathCards
landing page under Voilà; saves go to the user's home, progress to the user's
own folder of the class folder, which only the teacher's server is told of
(``MATHCARDS_CLASS_PROGRESS``). deploy/ has the same settings for Kubernetes.
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file

STATE = Path(os.environ["MATHCARDS_HUB_STATE"])
REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "lessons"
TEACHERS = set(os.environ.get("MATHCARDS_HUB_TEACHERS", "teacher").split(","))
HOST = "127.0.0.1"

c.JupyterHub.bind_url = f"http://{HOST}:{os.environ['MATHCARDS_HUB_PORT']}"
c.JupyterHub.hub_ip = HOST
c.JupyterHub.hub_port = int(os.environ["MATHCARDS_HUB_API_PORT"])
c.ConfigurableHTTPProxy.api_url = f"http://{HOST}:{os.environ['MATHCARDS_HUB_PROXY_API_PORT']}"
c.ConfigurableHTTPProxy.command = [str(REPO / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.auth_token = os.environ["MATHCARDS_HUB_PROXY_TOKEN"]
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "homes" / "{username}")
c.Spawner.cmd = [str(Path(sys.executable).with_name("jupyterhub-singleuser"))]
c.Spawner.notebook_dir = str(LESSONS)
c.Spawner.default_url = "/voila/render/index.ipynb"  # the landing page under Voilà
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
if os.geteuid() == 0:  # a CI container runs as root; Jupyter refuses that unless told
    c.Spawner.args = ["--ServerApp.allow_root=True"]


def _home(spawner, sub):
    path = STATE / "homes" / spawner.user.name / sub
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


def _progress(spawner):
    """The user's own database in the class folder (a volume's subPath on Kubernetes)."""
    folder = STATE / "class" / spawner.user.name
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / "progress.sqlite3")


c.Spawner.environment = {
    # Voilà's settings and the offline page template, as binder/start sets them
    "JUPYTER_PATH": str(LESSONS / "share" / "jupyter"),
    "JUPYTER_CONFIG_PATH": str(LESSONS),
    "JUPYTER_CONFIG_DIR": lambda spawner: _home(spawner, "jupyter_config"),
    "JUPYTER_DATA_DIR": lambda spawner: _home(spawner, "jupyter_data"),
    "JUPYTER_RUNTIME_DIR": lambda spawner: _home(spawner, "jupyter_runtime"),
    "IPYTHONDIR": lambda spawner: _home(spawner, "ipython"),
    "JUPYTER_PLATFORM_DIRS": "1",
    "PYTHONNOUSERSITE": "1",
    "MATHCARDS_DATA_DIR": lambda spawner: _home(spawner, "mathcards"),
    "MATHCARDS_PROGRESS": _progress,
    "MATHCARDS_CLASS_PROGRESS": lambda spawner: (
        str(STATE / "class") if spawner.user.name in TEACHERS else ""),
    "MATHCARDS_TEACHER_KEY": os.environ["MATHCARDS_TEACHER_KEY"],
    "MATHCARDS_SECRET": os.environ["MATHCARDS_SECRET"],
}
