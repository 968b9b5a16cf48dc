"""`mypy --strict` over mathcards/, examples/ and every file of widgets/ (issue 39 item 4:
typed to the edges): the suite fails on a new type error, not only `make lint`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_config_checks_every_widgets_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert {"mathcards", "examples", "widgets"} <= set(config["files"])


def test_mypy_strict_is_clean_over_mathcards_examples_and_widgets() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    checked = re.search(r"no issues found in (\d+) source files", run.stdout)
    assert checked is not None, run.stdout
    sources = [p for folder in ("mathcards", "examples", "widgets")
               for p in (ROOT / folder).rglob("*.py")]
    widgets = list((ROOT / "widgets").glob("*.py"))
    assert len(widgets) > 20  # the views, the tables, the server's parts
    assert int(checked.group(1)) >= len(sources)
