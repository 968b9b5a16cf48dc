"""Page kernels forked from the fork server (issue 29 item 4): a real fork server, real
kernels started through jupyter_client's own launch path, code run in them."""

from __future__ import annotations

import ast
import os
import sys
import time

import pytest
from jupyter_client.manager import KernelManager

from mathcards.widgets import forkserver


@pytest.fixture(scope="module")
def fork_server():
    server = forkserver.install()
    deadline = time.monotonic() + 300
    while not server._ready():  # its imports: a few seconds on a loaded machine
        assert time.monotonic() < deadline, "the fork server never became ready"
        assert server.process is not None and server.process.poll() is None, "it died"
        time.sleep(0.2)
    yield server


def _run(km: KernelManager, code: str) -> dict:
    client = km.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        reply = client.execute_interactive(code, timeout=120, store_history=False,
                                           user_expressions={"out": "out"})
        assert reply["content"]["status"] == "ok", reply["content"]
        return reply["content"]["user_expressions"]["out"]["data"]["text/plain"]
    finally:
        client.stop_channels()


def test_a_page_kernel_is_a_fork_with_the_page_s_imports_done(fork_server, tmp_path):
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(tmp_path), env={**os.environ, "VOILA_BASE_URL": "/",
                                             "MATHCARDS_TEST_MARK": "page-env"})
    try:
        assert isinstance(km.provisioner.process, forkserver.ForkedKernel)
        # the group jupyter_client signals (interrupt, kill) is the kernel's own
        assert km.provisioner.pgid == km.provisioner.pid != os.getpgid(0)
        out = _run(km, (
            "import os, sys\n"
            "from ipywidgets.widgets.widget import Widget\n"
            "out = (os.getppid(), 'sympy' in sys.modules, 'mathcards.widgets.table' in "
            "sys.modules, os.environ.get('MATHCARDS_TEST_MARK'), os.getcwd(), "
            "getattr(Widget, '_mathcards_guarded', False), os.getpgid(0) == os.getpid(), "
            "sorted(get_ipython().kernel.comm_manager.targets))"))
        ppid, sympy, table, mark, cwd, guarded, own_group, targets = ast.literal_eval(out)
        assert ppid == fork_server.pid  # forked, not a new Python
        assert sympy and table  # imported before the visitor came
        assert mark == "page-env" and os.path.samefile(cwd, tmp_path)  # the page's own
        assert guarded  # a Voilà page's kernel refuses bad widget messages, as imported
        assert own_group  # interrupts and shutdowns reach this kernel alone
        # ipywidgets registers these when imported in a kernel: the page asks for its
        # widgets' state through them
        assert {"jupyter.widget", "jupyter.widget.control"} <= set(targets)
        assert km.is_alive()
    finally:
        km.shutdown_kernel(now=True)
    assert not km.is_alive()


def test_two_kernels_deal_differently_and_end_on_shutdown(fork_server):
    kms = [KernelManager(kernel_name="python3") for _ in range(2)]
    for km in kms:
        km.start_kernel()
    try:
        draws = [_run(km, "import random\nout = random.random()") for km in kms]
        assert draws[0] != draws[1]  # each fork reseeds: no two pages share a deal
        pids = [km.provisioner.process.pid for km in kms]
    finally:
        for km in kms:
            km.shutdown_kernel(now=True)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_other_commands_start_the_usual_way(fork_server):
    assert fork_server.launch([sys.executable, "-c", "pass"], None, None) is None
    assert fork_server.launch(["/bin/true", "-m", "ipykernel_launcher"], None, None) is None
