"""What the server's defences look like in a real browser (issue 26 items 4 and 10): the
teacher signs in once and the address loses the key; a first visit past the allowance of
cookie-less pages reloads itself into the page."""

from __future__ import annotations

import urllib.request

import nbformat

from tests.browser.conftest import wait_for_rendered
from tests.browser.server import VoilaServer


def test_the_teacher_opens_the_dashboard_with_the_key_once(page, voila_server, tmp_path):
    key_file = voila_server.state_dir / "mathcards_data" / "teacher-key"
    if not key_file.exists():  # the key the server makes on first use, made here first
        key_file.parent.mkdir(parents=True, exist_ok=True)
        key_file.write_text("a-classroom-key-for-chromium\n")
    key = key_file.read_text().strip()
    page.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    assert "key=" not in page.url  # the projector shows no key
    page.locator("table.mc-grid, .mc-dashboard, button:has-text('Refresh')").first.wait_for(
        state="visible", timeout=60_000)
    page.goto(voila_server.page("dashboard.ipynb"))  # the cookie alone
    wait_for_rendered(page)
    page.get_by_role("button", name="Refresh").wait_for(state="visible", timeout=60_000)
    assert page.locator(".mc-refused").count() == 0


def test_a_first_visit_past_the_allowance_reloads_into_the_page(page, tmp_path):
    root = tmp_path / "lessons"
    root.mkdir()
    code = "print('hello from the ' + 'kernel')"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)]),
                   root / "hello.ipynb")
    server = VoilaServer(tmp_path / "state", root_dir=root,
                         extra_args=["--ClassroomKernelManager.cookieless_per_address=1"])
    server.start()
    try:
        with urllib.request.urlopen(server.page("hello.ipynb"), timeout=180) as response:
            assert "hello from the kernel" in response.read().decode()  # the allowance used
        with urllib.request.urlopen(server.page("hello.ipynb"), timeout=180) as response:
            assert 'content="cookie-first"' in response.read().decode()
        page.goto(server.page("hello.ipynb"))
        page.get_by_text("hello from the kernel").wait_for(state="visible", timeout=120_000)
    finally:
        server.stop()
