"""Widget tests run without a browser: saves go to a temporary folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Every test gets its own MathCards data folder (saves never touch the home folder)."""
    path = tmp_path / "mathcards_data"
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def replayable_private_seeds(monkeypatch):
    """Tables draw a secret private seed per deal; in tests the secrets are 1, 2, 3...
    so a seeded test replays exactly (test_deal_privacy checks the real secrets)."""
    from mathcards import saves

    counter = iter(range(1, 1_000_000))
    monkeypatch.setattr(saves, "new_private_seed", lambda: next(counter))
