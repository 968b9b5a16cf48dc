"""Where MathCards keeps a user's saved games and progress.

The default is the platform's user data folder (``platformdirs``); the
``MATHCARDS_DATA_DIR`` environment variable moves it (tests, a hub's shared
volume, a USB stick).
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "MATHCARDS_DATA_DIR"


def data_dir() -> Path:
    """The folder for saves and progress, created when missing."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        path = Path(configured).expanduser()
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("mathcards", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
