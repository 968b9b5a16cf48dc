"""Who is at a page: the token that holds a seat in a room.

- Under JupyterHub, the hub login (``JUPYTERHUB_USER``): each student's kernels
  run in their own server, as them.
- Under Voilà started as ``make play`` starts it, the browser: Voilà gives each
  browser a signed identity cookie; when the server hands a kernel to a page it
  writes a token of that identity (an HMAC with the server's secret, never the
  cookie itself) to ``<data folder>/visitors/<kernel id>``, and the kernel reads
  its own. A reload from the same browser has the same token; another browser
  cannot make it.
- Elsewhere (a notebook in JupyterLab), a token of this kernel only.

The server writes a token of the page request's client address on the file's
second line (``page_address``): a script that drops its cookie is a new visitor at
every load, so rooms count wrong codes and rooms made per address too.

The same hand-over tells a kernel that its page is the signed-in teacher's
(``record_teacher``, ``teacher_page``): the teacher's key, or the cookie it
gave that browser, was checked by the server, so the address need not carry it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import sys
import time
from pathlib import Path

from mathcards import storage
from mathcards.students import hub_login

VISITORS = "visitors"
_KERNEL_ID = r"[0-9a-f-]{8,64}"  # what a Jupyter server names a kernel (a file name here)
_KERNEL_FILE = re.compile(rf"kernel-({_KERNEL_ID})\.json$")
_THIS_KERNEL = "kernel:" + secrets.token_hex(16)


def token_for(identity: str) -> str:
    """The seat holder's token of an identity ("hub:ana", "voila:<user id>")."""
    from mathcards.keys import variant_secret

    digest = hmac.new(variant_secret().encode(), identity.encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _folder() -> Path:
    return storage.data_dir() / VISITORS


def _write(kernel_id: str, name: str, text: str) -> None:
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{kernel_id}.{secrets.token_hex(4)}"
    tmp.write_text(text, encoding="ascii")
    os.replace(tmp, folder / name)


def record(kernel_id: str, identity: str, address: str | None = None) -> None:
    """Server side: the kernel ``kernel_id`` serves the page of ``identity``, requested
    from the client ``address`` (kept as a token only)."""
    if re.fullmatch(_KERNEL_ID, kernel_id):
        text = token_for(identity) + (f"\n{token_for('address:' + address)}" if address else "")
        _write(kernel_id, kernel_id, text)


def forget(kernel_id: str) -> None:
    """Server side: the kernel is gone."""
    if re.fullmatch(_KERNEL_ID, kernel_id):
        (_folder() / kernel_id).unlink(missing_ok=True)
        (_folder() / (kernel_id + _TEACHER)).unlink(missing_ok=True)


_TEACHER = ".teacher"


def _teacher_mark(kernel_id: str) -> str:
    from mathcards.keys import teacher_token

    return teacher_token("teacher-page:" + kernel_id)


def record_teacher(kernel_id: str) -> None:
    """Server side: the kernel ``kernel_id`` serves a page of the signed-in teacher."""
    if re.fullmatch(_KERNEL_ID, kernel_id):
        _write(kernel_id, kernel_id + _TEACHER, _teacher_mark(kernel_id))


def teacher_page() -> bool:
    """Kernel side: whether the server marked this kernel's page as the teacher's."""
    kernel_id = this_kernel_id()
    if kernel_id is None:
        return False
    try:
        text = (_folder() / (kernel_id + _TEACHER)).read_text(encoding="ascii").strip()
        return hmac.compare_digest(text, _teacher_mark(kernel_id))
    except (OSError, ValueError):  # no mark, or the key cannot be read
        return False


def this_kernel_id() -> str | None:
    """The id the Jupyter server gave this kernel (from its connection file's name)."""
    if "ipykernel" not in sys.modules:  # not in a kernel: importing it would swap the
        return None  # widgets' comm manager under tables already drawn
    try:
        from ipykernel.connect import get_connection_file

        match = _KERNEL_FILE.search(get_connection_file())
    except Exception:  # noqa: BLE001 - not in a kernel, or no connection file
        return None
    return match.group(1) if match else None


def _recorded(wait: float) -> list[str]:
    """The tokens the server recorded for this kernel (visitor, then address), or []."""
    kernel_id = this_kernel_id()
    if kernel_id is None:
        return []
    path = _folder() / kernel_id
    end = time.monotonic() + wait
    while True:
        try:
            lines = path.read_text(encoding="ascii").split()
        except OSError:
            lines = []
        if lines and all(re.fullmatch(r"[0-9a-f]{32}", line) for line in lines):
            return lines
        if time.monotonic() >= end:
            return []
        time.sleep(0.05)


def page_visitor(wait: float = 2.0) -> str:
    """The token of whoever is at this page (see the module docstring)."""
    user = hub_login()
    if user:
        from mathcards import hub_client as hub

        if hub.service_url():  # the service holds the secret and says who this is
            return hub.holder()
        return token_for("hub:" + user)
    return next(iter(_recorded(wait)), _THIS_KERNEL)


def page_address(wait: float = 0.0) -> str | None:
    """A token of the client address this page was requested from (None: not known, as
    on a JupyterHub or in JupyterLab)."""
    if hub_login():
        return None
    lines = _recorded(wait)
    return lines[1] if len(lines) > 1 else None


def browser_visitor(wait: float = 2.0) -> str | None:
    """The token of the browser at this Voilà page (its identity cookie), or None: on a hub
    (the login is the student), or when no browser is known (a notebook outside Voilà, a
    Voilà without MathCards' kernel manager)."""
    if hub_login():
        return None
    token = page_visitor(wait)
    return None if token == _THIS_KERNEL else token
