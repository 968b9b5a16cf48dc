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
# chart keys this file may use, as the z2jh values schema names them
# (jupyterhub/values.schema.yaml of jupyterhub/zero-to-jupyterhub-k8s, 4.x): hub.config is
# "JupyterHub and its components ... configure the Python classes"; hub.services the
# hub's services; hub.loadRoles the roles given to them ("Roles to be loaded when the
# hub starts"); hub.extraConfig Python run at the end of the hub's configuration (for what
# hub.config cannot say: a callable in KubeSpawner.environment); the others place the
# service in the hub's pod and let servers reach it, and mount the published sets
CHART_KEYS = {
    "hub": {"config", "image", "extraVolumes", "extraVolumeMounts", "service",
            "networkPolicy", "services", "loadRoles", "extraConfig"},
    "singleuser": {"storage", "networkPolicy"},
}
CHART_SUBKEYS = {
    ("hub", "image"): {"name", "tag"}, ("hub", "service"): {"extraPorts"},
    ("hub", "networkPolicy"): {"ingress"}, ("singleuser", "networkPolicy"): {"egress"},
    ("singleuser", "storage"): {"homeMountPath", "extraVolumes", "extraVolumeMounts"},
}
SECRETS = ("MATHCARDS_TEACHER_KEY", "MATHCARDS_SECRET")
SERVICE = "mathcards"


def _classes() -> dict[str, type]:
    pytest.importorskip("kubespawner", reason="jupyterhub-kubespawner is a test dependency")
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from jupyterhub.app import JupyterHub
    from jupyterhub.auth import Authenticator
    from jupyterhub.services.service import Service
    from kubespawner import KubeSpawner

    return {"JupyterHub": JupyterHub, "Authenticator": Authenticator,
            "KubeSpawner": KubeSpawner, "ServerApp": ServerApp,
            "MappingKernelManager": MappingKernelManager, "Service": Service}


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
        for sub, value in inner.items():
            allowed = CHART_SUBKEYS.get((key, sub))
            if allowed is not None:
                problems += [f"{key}.{sub}.{name}: not a chart setting this file may use"
                             for name in value if name not in allowed]
    config = values.get("hub", {}).get("config", {})

    def check(cls_name: str, settings: dict, where: str) -> None:
        cls = classes.get(cls_name)
        if cls is None:
            problems.append(f"{where}: no class {cls_name} in the pinned versions")
            return
        # a service is a dict of Service's fields (not configurable classes' settings)
        traits = cls.class_traits() if cls_name == "Service" else cls.class_traits(config=True)
        problems.extend(f"{where}.{name}: {cls_name} has no such setting"
                        for name in settings if name not in traits)

    for cls_name, settings in config.items():
        check(cls_name, settings, f"hub.config.{cls_name}")
    for name, service in values.get("hub", {}).get("services", {}).items():
        check("Service", service, f"hub.services.{name}")
    spawner = config.get("KubeSpawner", {})
    overrides = [(f"hub.config.KubeSpawner.group_overrides.{name}",
                  override.get("spawner_override", {}))
                 for name, override in spawner.get("group_overrides", {}).items()]
    for where, override in overrides:
        check("KubeSpawner", override, where)
    for where, settings in [("hub.config.KubeSpawner", spawner), *overrides]:
        for arg in settings.get("args", []):
            found = re.fullmatch(r"--(\w+)\.(\w+)=.+", arg)
            if not found:
                problems.append(f"{where}.args: {arg!r} is not --Class.setting=value")
            else:
                check(found.group(1), {found.group(2): None}, f"{where}.args")
    return problems


def _values() -> Any:
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


def test_the_values_parse_and_name_only_real_settings():
    assert unknown_settings(_values()) == []


@pytest.mark.parametrize("typo, expected", [
    ({"hub": {"config": {"KubeSpawner": {"mem_limt": "1G"}}}}, "mem_limt"),
    ({"hub": {"config": {"KubeSpawner": {"args": ["--ServerApp.no_such=1"]}}}}, "no_such"),
    ({"hub": {"confg": {}}}, "hub.confg"),
    ({"proxy": {}}, "proxy"),
    ({"hub": {"config": {"KubeSpwner": {}}}}, "KubeSpwner"),
])
def test_a_misspelt_setting_is_named(typo, expected):
    problems = unknown_settings(typo)
    assert len(problems) == 1 and expected in problems[0] and "\n" not in problems[0]


def _spawner() -> dict[str, Any]:
    return dict(_values()["hub"]["config"]["KubeSpawner"])


def _teachers() -> dict[str, Any]:
    return dict(_spawner()["group_overrides"]["01-teachers"]["spawner_override"])


def test_the_paths_in_the_image_exist_in_the_repository():
    spawner = _spawner()
    root = spawner["notebook_dir"]
    assert root.startswith(IMAGE_HOME)
    url = spawner["default_url"]
    assert url.startswith("/voila/render/")
    assert (REPO / root.removeprefix(IMAGE_HOME) / url.removeprefix("/voila/render/")).is_file()
    for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH"):
        path = spawner["environment"][name]
        assert path.startswith(IMAGE_HOME)
        assert (REPO / path.removeprefix(IMAGE_HOME)).is_dir(), name


def test_a_students_server_holds_no_secret():
    """Issue 26 item 9: every student's server had the teacher's key and the variant secret
    in its environment (fails before: both were there)."""
    env = _spawner()["environment"]
    assert [name for name in SECRETS if name in env] == []
    assert [name for name, value in env.items() if isinstance(value, dict)] == []  # no Secret
    # the teachers' servers get the teacher's key; the variant secret stays in the service
    assert "MATHCARDS_SECRET" not in _teachers()["environment"]
    assert _teachers()["environment"]["MATHCARDS_TEACHER_KEY"]["valueFrom"]["secretKeyRef"]


def test_a_students_server_mounts_no_shared_folder():
    """Issue 26 item 9: the rooms folder was mounted read-write on every server (fails
    before). Students' servers mount the chart's own home storage and, read-only, the
    published sets (sets/ of the class volume) alone; the teachers' mount of the class's
    progress is read-only, and only their sets mount is writable."""
    values = _values()
    spawner = _spawner()
    assert "volumes" not in spawner and "volume_mounts" not in spawner  # the chart's home only
    storage = values["singleuser"]["storage"]
    mounts = list(storage["extraVolumeMounts"].values())
    assert [(m["subPath"], m["readOnly"]) for m in mounts] == [("sets", True)]
    assert spawner["environment"]["MATHCARDS_DATA_DIR"].startswith(
        storage["homeMountPath"] + "/")
    teachers = _teachers()
    mounts = list(teachers["volume_mounts"].values())
    class_dir = teachers["environment"]["MATHCARDS_CLASS_PROGRESS"]
    assert [(m["subPath"], m["mountPath"], m["readOnly"]) for m in mounts] == [
        ("progress", class_dir, True), ("sets", spawner["environment"]["MATHCARDS_SETS"], False)]


def test_a_students_server_runs_voila_alone():
    """Issue 26 item 9: JupyterLab and terminals were on for students (fails before: the
    default jupyterhub-singleuser). Students run Voilà's own server; teachers JupyterLab."""
    spawner = _spawner()
    assert spawner["cmd"] == ["python3", "-m", "mathcards.widgets.singleuser"]
    assert (REPO / "widgets" / "singleuser.py").is_file()
    # no jupyter-server setting reaches Voilà's server (it would refuse them)
    assert "args" not in spawner
    assert _teachers()["cmd"] == ["jupyterhub-singleuser"]


def test_the_service_holds_the_shared_state():
    """The MathCards service: run by the hub in its pod, on the class volume, reachable by
    the servers on its port, with one role: reading who is in the teachers' group (only a
    teacher makes a class's rooms); it asks the hub whose a token is."""
    values = _values()
    hub = values["hub"]
    service = hub["services"][SERVICE]
    assert service["command"][:4] == ["python3", "-m", "mathcards", "hub-service"]
    assert [n for n in SECRETS if n in service.get("environment", {})] == []
    port = int(service["url"].rsplit(":", 1)[1])
    assert [p["targetPort"] for p in hub["service"]["extraPorts"]] == [port]
    assert [p["port"] for rule in hub["networkPolicy"]["ingress"]
            for p in rule["ports"]] == [port]
    assert [p["port"] for rule in values["singleuser"]["networkPolicy"]["egress"]
            for p in rule["ports"]] == [port]
    url = _spawner()["environment"]["MATHCARDS_HUB_SERVICE_URL"]
    assert url == f"{service['url']}/services/{SERVICE}/"
    mounted = [m["mountPath"] for m in hub["extraVolumeMounts"]]
    for folder in service["environment"].values():
        assert any(folder.startswith(m + "/") for m in mounted), folder
    assert list(hub["loadRoles"].values()) == [
        {"services": [SERVICE], "scopes": ["read:groups!group=teachers"]}]
    assert "teachers" in hub["config"]["JupyterHub"]["load_groups"]


def test_the_published_sets_reach_every_students_server():
    """Issue 36 item 8: docs/hub.md said ``MATHCARDS_SETS`` names a folder of the class
    volume that every server mounts, and the values set neither (fails before): a set the
    teacher published stayed in the teacher's own server. Now every server has it: sets/ of
    the class volume, read-only for students, writable for teachers, named as the docs say."""
    from mathcards.exercises.store import SETS_ENV

    values = _values()
    folder = _spawner()["environment"][SETS_ENV]
    storage = values["singleuser"]["storage"]
    mount = storage["extraVolumeMounts"]["mathcards-sets"]
    assert (mount["mountPath"], mount["subPath"], mount["readOnly"]) == (folder, "sets", True)
    volume = storage["extraVolumes"][mount["name"]]
    class_volume = {v["name"]: v for v in values["hub"]["extraVolumes"]}["mathcards-class"]
    assert volume["persistentVolumeClaim"] == class_volume["persistentVolumeClaim"]
    # the teachers' override (merged by KubeSpawner: dicts) makes the same mount writable
    teachers = _teachers()
    assert teachers["volume_mounts"][mount["name"]] == {**mount, "readOnly": False}
    assert teachers["volumes"]["mathcards-class"]["persistentVolumeClaim"] == (
        volume["persistentVolumeClaim"])
    assert SETS_ENV not in teachers["environment"]  # theirs is the students' (merged)
    docs = (REPO / "docs" / "hub.md").read_text(encoding="utf-8")
    assert f"`{SETS_ENV}`" in docs and f"`{folder}`" in docs


def _extra_config(values: Any, folder: Path) -> Any:
    """The hub's configuration after the values' ``hub.config`` and ``hub.extraConfig`` (as
    the chart runs them), the service's data folder moved to ``folder``."""
    from traitlets.config import Config

    c = Config(values["hub"]["config"])
    service_dir = values["hub"]["services"][SERVICE]["environment"]["MATHCARDS_DATA_DIR"]
    for name, code in sorted(values["hub"]["extraConfig"].items()):
        assert code.count(service_dir) == 1, name
        exec(compile(code.replace(service_dir, str(folder)), name, "exec"), {"c": c})
    return c


def test_each_server_gets_the_proof_that_it_is_its_users_own(tmp_path, monkeypatch):
    """Issue 36 item 4: the service took any of a student's tokens, one made at /hub/token
    too (fails before: no proof in the values). The hub gives each server a proof of its
    user, keyed with a file of the service's folder (in the hub's pod only); the service
    takes it for that user only; the servers' own settings stay as they were."""
    from types import SimpleNamespace

    from mathcards.hub import PROOF_ENV, Service

    values = _values()
    c = _extra_config(values, tmp_path / "service")
    env = c.KubeSpawner.environment
    assert {k: v for k, v in env.items() if k != PROOF_ENV} == _spawner()["environment"]
    proof = {who: env[PROOF_ENV](SimpleNamespace(user=SimpleNamespace(name=who),
                                                 api_token=f"t-{who}"))
             for who in ("ana", "ben")}
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "service"))
    monkeypatch.delenv("MATHCARDS_SECRET", raising=False)
    service = Service(tmp_path / "class")
    try:
        assert service.own_server("ana", "t-ana", proof["ana"])
        assert service.own_server("ben", "t-ben", proof["ben"])
        assert not service.own_server("ana", "t-ana", proof["ben"])
        assert not service.own_server("ana", "t-other", proof["ana"])
    finally:
        service.close()
    # the key's folder is the hub's pod's alone: no server mounts it
    service_dir = values["hub"]["services"][SERVICE]["environment"]["MATHCARDS_DATA_DIR"]
    hub_mount = values["hub"]["extraVolumeMounts"][0]["mountPath"]
    assert service_dir.startswith(hub_mount + "/")
    server_mounts = [*values["singleuser"]["storage"].get("extraVolumeMounts", {}).values(),
                     *_teachers()["volume_mounts"].values()]
    assert [m for m in server_mounts if m.get("subPath") not in ("sets", "progress")] == []
