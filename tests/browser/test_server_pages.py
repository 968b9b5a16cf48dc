"""What the server's defences look like in a real browser (issue 26 items 4 and 10): the
teacher signs in once and the address loses the key; a load past its address's bound of
pages loading reloads itself into the page; a script that keeps every identity cookie
cannot take the class's kernels (issue 36 item 2)."""

from __future__ import annotations

import http.cookiejar
import shutil
import threading
import time
import urllib.error
import urllib.request

import nbformat

from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.server import LESSONS, VoilaServer
from tests.hostile import kernel_id_of


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


def test_a_load_past_the_bound_of_pages_loading_reloads_into_the_page(page, tmp_path):
    root = tmp_path / "lessons"
    root.mkdir()
    code = "print('hello from the ' + 'kernel')"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)]),
                   root / "hello.ipynb")
    server = VoilaServer(tmp_path / "state", root_dir=root,
                         extra_args=["--ClassroomKernelManager.loading_per_address=1",
                                     "--ClassroomKernelManager.connect_grace=3"])
    server.start()
    try:
        with urllib.request.urlopen(server.page("hello.ipynb"), timeout=180) as response:
            assert "hello from the kernel" in response.read().decode()  # the bound used
        with urllib.request.urlopen(server.page("hello.ipynb"), timeout=180) as response:
            assert 'content="wait-and-reload"' in response.read().decode()
        # the browser waits a moment and reloads: the page that never connected makes room
        page.goto(server.page("hello.ipynb"))
        page.get_by_text("hello from the kernel").wait_for(state="visible", timeout=120_000)
    finally:
        server.stop()


ATTACK_SECONDS = 40.0  # the script ran for a minute; saturated within seconds here


def _script(server: VoilaServer, until: float, held: list[str], answers: list[int]) -> None:
    """The issue's script: keep every identity cookie Voilà hands out, six pages each, then
    a fresh cookie; never connect to a kernel (a script fetching pages)."""
    while time.monotonic() < until:
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        for _ in range(6):
            if time.monotonic() >= until:
                return
            try:
                with opener.open(server.page("play_sums.ipynb"), timeout=120) as response:
                    html = response.read().decode("utf-8", "replace")
                    answers.append(response.status)
            except urllib.error.HTTPError as refused:
                answers.append(refused.code)
                continue
            if 'content="wait-and-reload"' not in html:
                held.append(kernel_id_of(html))


def test_a_cookie_keeping_script_cannot_take_the_class_kernels(page, tmp_path):
    """Issue 36 item 2: a script keeping each identity cookie got six kernels per cookie
    with no bound per address: two cookies filled a max_kernels=30 server (503, a
    classmate refused). Now the pages loading from one address (never connected) are
    bounded (a third of max_kernels: 10 here) and a classmate, whose pages connect, opens
    hers in her usual time during the attack."""
    root = tmp_path / "lessons"
    root.mkdir()
    shutil.copy(LESSONS / "play_sums.ipynb", root / "play_sums.ipynb")
    server = VoilaServer(tmp_path / "state", root_dir=root,
                         extra_args=["--ClassroomKernelManager.max_kernels=30"]).start()
    visitors = server.state_dir / "mathcards_data" / "visitors"
    try:
        server.wait_for_pools(1)
        start = time.monotonic()  # the classmate's first page, before the attack
        page.goto(server.page("play_sums.ipynb?student=ana"))
        wait_for_first_widget(page, timeout=120_000)
        usual = time.monotonic() - start
        held: list[str] = []
        answers: list[int] = []
        until = time.monotonic() + ATTACK_SECONDS
        threads = [threading.Thread(target=_script, args=(server, until, held, answers))
                   for _ in range(2)]
        for thread in threads:
            thread.start()
        most = 0  # the script's kernels running at once, sampled through the attack
        opened_at = None
        while any(thread.is_alive() for thread in threads):
            alive = {kernel for kernel in held if (visitors / kernel).exists()}
            most = max(most, len(alive))
            if opened_at is None and time.monotonic() > until - ATTACK_SECONDS / 2:
                start = time.monotonic()  # mid-attack: the classmate opens another page
                page.goto(server.page("play_sums.ipynb?student=ana"))
                wait_for_first_widget(page, timeout=120_000)
                opened_at = time.monotonic() - start
            time.sleep(0.5)
        for thread in threads:
            thread.join()
        log = server.log_text()
    finally:
        server.stop()
    assert held, "the script got no page at all"
    assert most <= 10, f"the script held {most} kernels at once"
    assert 503 not in answers and "This server is full" not in log
    assert opened_at is not None
    assert opened_at < max(60.0, 10 * usual), (opened_at, usual)
