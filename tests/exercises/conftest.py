"""Shared helpers for the exercise tests: progress always goes to a tmp folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_data(tmp_path, monkeypatch):
    """Nothing a test records reaches the user's data folder."""
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MATHCARDS_PROGRESS", raising=False)


def has_dice_stacks() -> bool:
    try:
        from mathcards.games import dice_stacks  # noqa: F401
    except ImportError:
        return False
    return True


needs_dice_stacks = pytest.mark.skipif(
    not has_dice_stacks(), reason="the Dice Stacks engine (mathcards.games.dice_stacks) is "
                                  "not in this checkout yet")
