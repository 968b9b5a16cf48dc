"""Widget tests run without a browser: saves go to a temporary folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Every test gets its own MathCards data folder (saves never touch the home folder)."""
    path = tmp_path / "mathcards_data"
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(path))
    return path
