"""deploy/values.yaml, the Zero to JupyterHub values, names only real settings (issue 16 item 4).

The file must parse, use only the chart's ``hub.config`` (documented in the
z2jh chart's values schema: JupyterHub's own settings, by class), and every
setting it names must exist in the versions pyproject.toml pins: JupyterHub's
classes, KubeSpawner's (jupyterhub-kubespawner), and the jupyter-server
settings passed to each student's server on its command line. Paths it names
inside the image must exist in this repository (the image is built from it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
VALUES = REPO / "deploy" / "values.yaml"
IMAGE_HOME = "/home/jovyan/"  # repo2docker puts the repository here
# chart keys this file may use: the z2jh values schema (jupyterhub/values.schema.yaml)
# documents hub.config as "JupyterHub and its components ... configure the Python classes"
CHART_KEYS = {"hub": {"config"}}


def _classes() -> dict[str, type]:
    pytest.importorskip("kubespawner", reason="jupyterhub-kubespawner is a test dependency")
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from jupyterhub.app import JupyterHub
    from jupyterhub.auth import Authenticator
    from kubespawner import KubeSpawner

    return {"JupyterHub": JupyterHub, "Authenticator": Authenticator,
            "KubeSpawner": KubeSpawner, "ServerApp": ServerApp,
            "MappingKernelManager": MappingKernelManager}


def unknown_settings(values: Any) -> list[str]:
    """Every setting in ``values`` that the pinned versions do not have, one line each."""
    classes = _classes()
    problems = []
    if not isinstance(values, dict):
        return ["the values file is not a mapping of settings"]
    for key, inner in values.items():
        if key not in CHART_KEYS:
            problems.append(f"{key}: not a chart setting this file may use")
            continue
        problems += [f"{key}.{sub}: not a chart setting" for sub in inner
                     if sub not in CHART_KEYS[key]]
    config = values.get("hub", {}).get("config", {})

    def check(cls_name: str, settings: dict, where: str) -> None:
        cls = classes.get(cls_name)
        if cls is None:
            problems.append(f"{where}: no class {cls_name} in the pinned versions")
            return
        traits = cls.class_traits(config=True)
        problems.extend(f"{where}.{name}: {cls_name} has no such setting"
                        for name in settings if name not in traits)

    for cls_name, settings in config.items():
        check(cls_name, settings, f"hub.config.{cls_name}")
    spawner = config.get("KubeSpawner", {})
    for name, override in spawner.get("group_overrides", {}).items():
        check("KubeSpawner", override.get("spawner_override", {}),
              f"hub.config.KubeSpawner.group_overrides.{name}")
    for arg in spawner.get("args", []):
        found = re.fullmatch(r"--(\w+)\.(\w+)=.+", arg)
        if not found:
            problems.append(f"KubeSpawner.args: {arg!r} is not --Class.setting=value")
        else:
            check(found.group(1), {found.group(2): None}, "hub.config.KubeSpawner.args")
    return problems


def _values() -> Any:
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


def test_the_values_parse_and_name_only_real_settings():
    assert unknown_settings(_values()) == []


@pytest.mark.parametrize("typo, expected", [
    ({"hub": {"config": {"KubeSpawner": {"mem_limt": "1G"}}}}, "mem_limt"),
    ({"hub": {"config": {"KubeSpawner": {"args": ["--ServerApp.no_such=1"]}}}}, "no_such"),
    ({"hub": {"confg": {}}}, "hub.confg"),
    ({"singleuser": {}}, "singleuser"),
    ({"hub": {"config": {"KubeSpwner": {}}}}, "KubeSpwner"),
])
def test_a_misspelt_setting_is_named(typo, expected):
    problems = unknown_settings(typo)
    assert len(problems) == 1 and expected in problems[0] and "\n" not in problems[0]


def test_the_paths_in_the_image_exist_in_the_repository():
    spawner = _values()["hub"]["config"]["KubeSpawner"]
    url = spawner["default_url"]
    assert url.startswith("/voila/render/")
    assert (REPO / url.removeprefix("/voila/render/")).is_file()
    envs = [spawner["environment"]] + [o["spawner_override"].get("environment", {})
                                       for o in spawner["group_overrides"].values()]
    for env in envs:
        for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH"):
            assert env[name].startswith(IMAGE_HOME)
            assert (REPO / env[name].removeprefix(IMAGE_HOME)).is_dir(), name


def test_students_mount_only_their_own_folder_and_teachers_the_class():
    spawner = _values()["hub"]["config"]["KubeSpawner"]
    own = spawner["volume_mounts"]
    # their own progress folder, and the rooms file the class shares (no one's progress)
    assert [m["subPath"] for m in own] == ["progress/{username}", "rooms"]
    rooms_dir = next(m["mountPath"] for m in own if m["subPath"] == "rooms")
    assert spawner["environment"]["MATHCARDS_ROOMS"].startswith(rooms_dir + "/")
    assert "MATHCARDS_CLASS_PROGRESS" not in spawner["environment"]
    teachers = spawner["group_overrides"]["01-teachers"]["spawner_override"]
    class_dir = teachers["environment"]["MATHCARDS_CLASS_PROGRESS"]
    assert {(m["subPath"], m["mountPath"]) for m in teachers["volume_mounts"]} >= {
        ("progress", class_dir)}
