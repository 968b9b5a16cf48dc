"""A page whose kernel is a fork of the fork server (issue 29 item 4), in a real browser:
its widgets arrive and a click goes round."""

from __future__ import annotations

import os
import re
import shutil
import time

import nbformat

from mathcards.widgets.forkserver import READY
from tests.browser.conftest import wait_for_first_widget
from tests.browser.server import LESSONS, VoilaServer
from tests.browser.test_game_pages import _kernel_pids

COUNTER = """import ipywidgets as W
button, label = W.Button(description="Count"), W.Label("clicks: 0")
button.on_click(lambda _: setattr(label, "value", f"clicks: {int(label.value[8:]) + 1}"))
W.VBox([button, label])"""


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.add(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


def test_a_forked_kernel_s_page_works_in_the_browser(page, tmp_path):
    root = tmp_path / "lessons"
    root.mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(COUNTER)]),
                   root / "counter.ipynb")
    shutil.copy(LESSONS / "play_sums.ipynb", root / "play_sums.ipynb")
    # no pools: every kernel starts when its page is asked for, once the fork server is ready
    server = VoilaServer(tmp_path / "state", root_dir=root,
                         extra_args=["--VoilaConfiguration.preheat_kernel=False"])
    server.start()
    try:
        deadline = time.monotonic() + 180
        while READY not in server.log_text():
            assert time.monotonic() < deadline, server.log_text()
            time.sleep(0.2)
        forker = int(re.search(re.escape(READY) + r" \(pid (\d+)\)", server.log_text())[1])
        assert not _children(forker)
        page.goto(server.page("counter.ipynb"))
        page.get_by_role("button", name="Count").click(timeout=120_000)
        page.get_by_text("clicks: 1").wait_for(state="visible", timeout=60_000)
        first = _children(forker)
        assert len(first) == 1  # that page's kernel
        # the tests that kill a page's kernel find a forked one by its sockets
        kernel_id = re.search(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})', page.content())
        assert kernel_id and set(_kernel_pids(kernel_id[1])) == first
        page.goto(server.page("play_sums.ipynb?student=Ada"))
        wait_for_first_widget(page, timeout=120_000)
        assert page.locator(".mc-refused").count() == 0
        assert _children(forker) - first  # its own kernel, forked too (the first page's
        # kernel may have ended as the browser left it)
        assert not page.console_errors
    finally:
        server.stop()
