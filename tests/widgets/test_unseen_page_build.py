"""A Voilà kernel builds its page without announcing widgets no browser can read yet
(issue 29 item 4; ``mathcards.widgets.opening.page_unseen``).

A real kernel, driven as Voilà drives one: the page's code runs as an ``execute_request``
(Voilà's executor, before the page is sent), then a client does what the page's browser
does after it loads: opens ipywidgets' control comm, asks for every state, and clicks.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid

import pytest
from jupyter_client.manager import KernelManager

PAGE = ("from mathcards.widgets import play\n"
        "table = play('sums', query='student=Ana&delay=0', save=False)\n"
        "display(table)\n")


def _iopub_until_idle(client, parent_id: str, timeout: float = 120) -> list[dict]:
    """The kernel's iopub messages for one request, up to its idle status."""
    got: list[dict] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        if msg["parent_header"].get("msg_id") != parent_id:
            continue
        got.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return got
    raise AssertionError(f"no idle status for {parent_id} in {timeout} s")


def _send_comm(client, kind: str, content: dict, metadata: dict | None = None) -> str:
    msg = client.session.msg(kind, content, metadata=metadata or {})
    client.shell_channel.send(msg)
    return msg["header"]["msg_id"]


def _kernel(tmp_path, page_env: dict[str, str]):
    km = KernelManager(kernel_name="python3")
    plain = {k: v for k, v in os.environ.items()
             if not k.startswith("VOILA") and k != "QUERY_STRING"}
    km.start_kernel(cwd=str(tmp_path),
                    env={**plain, "MATHCARDS_DATA_DIR": str(tmp_path), **page_env})
    client = km.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        yield client
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.fixture
def voila_kernel(tmp_path):
    # what Voilà gives a page's kernel (QUERY_STRING and the VOILA_ variables)
    yield from _kernel(tmp_path, {"VOILA_BASE_URL": "/", "QUERY_STRING": "student=Ana&delay=0",
                                  "SERVER_SOFTWARE": "voila/0.5"})


@pytest.fixture
def notebook_kernel(tmp_path):
    """A kernel as JupyterLab starts one for a teacher's notebook (no Voilà variables)."""
    yield from _kernel(tmp_path, {})


def _run_page(client) -> list[dict]:
    msg_id = client.execute(PAGE, store_history=False)
    messages = _iopub_until_idle(client, msg_id)
    errors = [m["content"] for m in messages if m["msg_type"] == "error"]
    assert not errors, errors[0]["traceback"][-1] if errors else ""
    return messages


def _request_states(client) -> dict:
    """What the page's browser does once loaded (ipywidgets 8's widget manager): open
    the control comm and ask for every widget's state."""
    control = uuid.uuid4().hex
    _iopub_until_idle(client, _send_comm(client, "comm_open", {
        "comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
        {"version": "1.0.0"}))  # the control protocol's version, as the browser sends it
    reply = _iopub_until_idle(client, _send_comm(client, "comm_msg", {
        "comm_id": control, "data": {"method": "request_states"}}))
    states = [m["content"]["data"] for m in reply if m["msg_type"] == "comm_msg"
              and m["content"]["data"].get("method") == "update_states"]
    assert len(states) == 1, [(m["msg_type"], m["content"]) for m in reply]
    return states[0]["states"]


def test_a_voila_page_build_announces_no_widget_and_the_browser_gets_them_all(
        voila_kernel):
    messages = _run_page(voila_kernel)
    kinds = [m["msg_type"] for m in messages]
    # before: 92 comm_open messages (the Sums table), read by Voilà's process alone
    assert "comm_open" not in kinds, [m["content"]["data"]["state"].get("_model_name")
                                      for m in messages if m["msg_type"] == "comm_open"]
    assert "comm_msg" not in kinds  # nor an update of one
    shown = [m["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
             for m in messages if m["msg_type"] == "display_data"
             and "application/vnd.jupyter.widget-view+json" in m["content"]["data"]]
    assert len(shown) == 1

    states = _request_states(voila_kernel)
    # the browser gets the shown widget and every widget it refers to, at any depth
    assert shown[0] in states
    wanted, seen = [shown[0]], set()
    while wanted:
        model = wanted.pop()
        assert model in states, f"the page refers to {model}, which the browser never gets"
        if model not in seen:
            seen.add(model)
            wanted += re.findall(r"IPY_MODEL_(\w+)", json.dumps(states[model]["state"]))
    assert len(seen) > 50

    # and the browser's messages reach the widgets: a click on "Draw ... from pile 1"
    # (a Sums turn starts with a draw) gives updates: the table answers the move
    cards = [model for model, entry in states.items()
             if entry["model_name"] == "ButtonModel" and not entry["state"]["disabled"]
             and entry["state"].get("description", "").startswith("Draw ")]
    assert cards, "no pile to draw from"
    answer = _iopub_until_idle(voila_kernel, _send_comm(voila_kernel, "comm_msg", {
        "comm_id": cards[0], "data": {"method": "custom", "content": {"event": "click"}}}))
    updated = {m["content"]["comm_id"] for m in answer if m["msg_type"] == "comm_msg"
               and m["content"]["data"].get("method") == "update"}
    # widgets the page was built with are updated (the hand, the piles, the status), not
    # only the new card's button made by the click
    assert len(updated & seen) >= 3, (len(updated), len(updated & seen))


def test_widgets_made_in_answer_to_the_browser_are_announced(voila_kernel):
    """Outside Voilà's execution (a click's handler) the browser listens: a widget made
    there reaches it as ipywidgets sends it, inside ``opened_together`` or not."""
    _run_page(voila_kernel)
    msg_id = voila_kernel.execute((
        "import ipywidgets as W\n"
        "from mathcards.widgets.opening import opened_together\n"
        "made = []\n"
        "def on_click(_):\n"
        "    with opened_together():\n"
        "        made.append(W.HTML('made in a click'))\n"
        "button = W.Button(description='make')\n"
        "button.on_click(on_click)\n"
        "display(button)\n"), store_history=False)
    _iopub_until_idle(voila_kernel, msg_id)
    states = _request_states(voila_kernel)
    button = next(model for model, entry in states.items()
                  if entry["state"].get("description") == "make")
    answer = _iopub_until_idle(voila_kernel, _send_comm(voila_kernel, "comm_msg", {
        "comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}))
    opened = [m["content"]["data"]["state"] for m in answer if m["msg_type"] == "comm_open"]
    # (with its style and layout)
    assert [s.get("value") for s in opened if s["_model_name"] == "HTMLModel"] == [
        "made in a click"]


def test_a_teachers_notebook_announces_every_widget_as_it_builds_the_table(notebook_kernel):
    """In JupyterLab the notebook listens while the cell runs: the table's widgets must be
    announced, or the cell's output would name models the notebook never heard of."""
    messages = _run_page(notebook_kernel)
    opened = {m["content"]["comm_id"] for m in messages if m["msg_type"] == "comm_open"}
    shown = [m["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
             for m in messages if m["msg_type"] == "display_data"
             and "application/vnd.jupyter.widget-view+json" in m["content"]["data"]]
    assert len(shown) == 1 and shown[0] in opened
    assert len(opened) > 50
