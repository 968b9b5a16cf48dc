"""A JupyterHub on one machine for the hub tests (tests/hub/test_hub.py).

Everything it needs comes from ``make test``: ``jupyterhub`` from PyPI (the
test dependencies), its proxy ``configurable-http-proxy`` from npm into the
repository's ``node_modules`` (package.json, package-lock.json). It listens on
127.0.0.1 only, keeps all its state (database, cookie secret, the users' homes
and Jupyter folders) under ``$MATHCARDS_HUB_STATE``, logs anyone in with the
test authenticator (``DummyAuthenticator``: any name, no password; never on a
real hub) and starts each user's server as a local process running as this
same OS user (``SimpleLocalProcessSpawner``). Each user lands on the MathCards
landing page under Voilà. As in deploy/values.yaml: a student's server is Voilà
alone (``mathcards.widgets.singleuser``) with no secret in its environment; the
MathCards service (``python -m mathcards hub-service``, run by the hub) keeps the
rooms, the variant secret and each student's progress in the class folder; the
teachers' group gets JupyterLab, the teacher's key and the class folder
(``MATHCARDS_CLASS_PROGRESS``). Each server gets the proof that it is its user's own
(``MATHCARDS_HUB_SERVER_PROOF``), which the service asks of every call: a token a
student makes at /hub/token has none. Saves go to the user's home.
"""

import os
import sys
from pathlib import Path

from mathcards.hub import server_proof

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file

STATE = Path(os.environ["MATHCARDS_HUB_STATE"])
REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "lessons"
TEACHERS = sorted(set(os.environ.get("MATHCARDS_HUB_TEACHERS", "teacher").split(",")))
SERVICE_URL = f"http://127.0.0.1:{os.environ['MATHCARDS_HUB_SERVICE_PORT']}"
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
# students: Voilà alone; teachers (their group): JupyterLab with Voilà
c.Spawner.cmd = [sys.executable, "-m", "mathcards.widgets.singleuser"]
c.Spawner.notebook_dir = str(LESSONS)
c.Spawner.default_url = "/voila/render/index.ipynb"  # the landing page under Voilà
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.JupyterHub.load_groups = {"teachers": {"users": TEACHERS}}
# the service reads who is a teacher (only a teacher makes a class's rooms, with no host)
c.JupyterHub.load_roles = [{"name": "mathcards-service", "services": ["mathcards"],
                            "scopes": ["read:groups!group=teachers"]}]
c.JupyterHub.services = [{
    "name": "mathcards",
    "url": SERVICE_URL,
    "command": [sys.executable, "-m", "mathcards", "hub-service"],
    "environment": {
        "MATHCARDS_DATA_DIR": str(STATE / "service"),
        "MATHCARDS_CLASS_PROGRESS": str(STATE / "class"),
    },
}]


def _home(spawner, sub):
    path = STATE / "homes" / spawner.user.name / sub
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


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
    "MATHCARDS_HUB_SERVICE_URL": SERVICE_URL + "/services/mathcards/",
    # the proof that a call to the service comes from this user's own server with its
    # token (a token made at /hub/token has none), keyed with a file of the service's folder
    "MATHCARDS_HUB_SERVER_PROOF": lambda spawner: server_proof(
        spawner.user.name, spawner.api_token, STATE / "service"),
}
c.Spawner.group_overrides = {"01-teachers": {"groups": ["teachers"], "spawner_override": {
    "cmd": [str(Path(sys.executable).with_name("jupyterhub-singleuser"))],
    # a CI container runs as root; Jupyter refuses that unless told
    "args": ["--ServerApp.allow_root=True"] if os.geteuid() == 0 else [],
    "environment": {
        "MATHCARDS_CLASS_PROGRESS": str(STATE / "class"),
        "MATHCARDS_TEACHER_KEY": os.environ["MATHCARDS_TEACHER_KEY"],
    },
}}}
