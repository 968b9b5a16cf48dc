"""JupyterLab never asks a teacher to fetch Jupyter news (issue 26 item 23).

JupyterLab 4 asks, on its first start, whether to fetch the Jupyter news feed (and
checks for updates) from the internet: the settings of
``@jupyterlab/apputils-extension:notification``. MathCards installs package defaults
for them in ``<environment>/share/jupyter/lab/settings/overrides.d/mathcards.json``
(pyproject.toml's data files, from ``lessons/share/jupyter/lab/settings``), where
JupyterLab reads them: in the project's ``.venv`` that ``.venv/bin/jupyter lab
lessons/`` runs, and in every environment built by ``pip install .`` (binder/, the
hub's image).
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from tests.browser.server import HOST, REPO, free_port, isolated_env, read_log, stop_group

SETTING = "@jupyterlab/apputils-extension:notification"
SOURCE = REPO / "lessons" / "share" / "jupyter" / "lab" / "settings" / "overrides.d"
INSTALLED = "share/jupyter/lab/settings/overrides.d/mathcards.json"


def test_the_running_jupyterlab_of_the_project_never_fetches_news(tmp_path: Path):
    """A real ``jupyter lab lessons/`` from the project's environment, asked through its
    settings API (fails before: fetchNews was "none", i.e. ask, and updates were checked)."""
    port, token = free_port(), secrets.token_hex(16)
    log_path = tmp_path / "lab.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser",
             f"--ServerApp.ip={HOST}", f"--ServerApp.port={port}",
             f"--IdentityProvider.token={token}", "--ServerApp.allow_root=True",
             str(REPO / "lessons")],
            env=isolated_env(tmp_path / "state"), stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        url = f"http://{HOST}:{port}/lab/api/settings/{SETTING}?token={token}"
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as answer:
                    settings = json.loads(answer.read())
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert process.poll() is None, read_log(log_path)
                assert time.monotonic() < deadline, read_log(log_path)
                time.sleep(0.5)
        # the defaults JupyterLab's page applies (no user setting here): overrides.d's
        defaults = {name: spec.get("default")
                    for name, spec in settings["schema"]["properties"].items()}
        assert defaults["fetchNews"] == "false"
        assert defaults["checkForUpdates"] is False
        assert settings["raw"].strip() in ("", "{}")  # not a user's own setting
    finally:
        stop_group(process, 30)


def test_the_setting_is_in_every_environment_built_from_the_repository(tmp_path: Path):
    """``pip install .`` (binder/, the hub's image) installs the file where JupyterLab
    reads package defaults: the wheel carries it as a data file."""
    source = tmp_path / "source"  # a copy: the build writes its folders beside the code
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "build", "*.egg-info", "__pycache__", "tests",
        "benchmarks", "docs"))
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
         str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("mathcards-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        data = [n for n in archive.namelist() if n.endswith(INSTALLED)]
        assert len(data) == 1 and ".data/data/" in data[0]
        assert json.loads(archive.read(data[0])) == json.loads(
            (SOURCE / "mathcards.json").read_text())
