"""One JupyterHub for the whole module (tests/hub/hub.py) and Debian's Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.browser.conftest import require_chromium
from tests.hub.hub import Hub, missing


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    require_chromium()
    problem = missing()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)
    server = Hub(tmp_path_factory.mktemp("hub")).start()
    try:
        yield server
    finally:
        server.stop()

