"""The kernel manager MathCards' Voilà server runs (``lessons/voila.json``).

A kernel per page is Voilà's model; this manager makes it fit a classroom on
one small machine:

- **A pooled kernel is never culled under its first visitor.** A kernel that
  waited in the pool longer than the idle timeout is handed out with its old
  ``last_activity``; the plain culler could shut it down before the page's
  websocket connected (the page then showed widget text). Here a kernel is not
  culled for idleness until its page has connected, and connecting counts as
  activity.
- **Kernels nobody uses are shut down soon.** A kernel whose page never
  connects (a tab closed while loading, a script fetching pages) goes
  ``unconnected_grace`` seconds after it rendered; a kernel whose page was
  connected and is gone (a closed tab, voila#1458) goes ``disconnected_grace``
  seconds after the last connection closed. Connected kernels are culled as
  jupyter_server does (``cull_idle_timeout``).
- **A cap on kernels.** Pages start a kernel only while fewer than
  ``max_kernels`` run (0: as many as the machine's memory holds,
  ``kernel_memory_mb`` each, leaving ``reserve_memory_mb``; at least 16); a page
  asked for beyond the cap gets one line saying the server is full, and the pages
  already open keep working. The pools' own kernels are sized by the settings and
  refilled only below the cap.
- **A cap per visitor.** A browser (known by the identity cookie Voilà gives it)
  holds at most ``max_kernels_per_visitor`` kernels at once: someone reloading a
  page again and again gets one line instead of taking the class's kernels. The cap
  counts the pages a browser has open, not the pages it opened: at the cap, the
  kernels of its closed pages (connected once, no connection now) are shut down at
  once, so a student clicking from page to page is never refused.
- **Pages loading per address.** Every page load counts against its client address
  until its page connects: at most ``loading_per_address`` kernels whose page never
  connected (0: a third of ``max_kernels``, at most 40), page loads under way
  included. A real browser connects within seconds of getting its page; a script
  that fetches pages never does, whether it keeps Voilà's identity cookies or drops
  them. At that bound the address's kernels whose page was sent ``connect_grace``
  seconds ago and never connected are shut down first (oldest first); only when
  every one is younger does the load get a one-line page that reloads itself a
  moment later (``WAIT_PAGE``), and no kernel. A class of 30 behind one school
  address opening a page in the same second gets 30 kernels at once; a script
  holds at most the bound, however many cookies it keeps, and its old pages make
  room for a classmate's.
- **A class warmed before it arrives.** ``class_size`` and ``class_pages`` (or
  ``MATHCARDS_CLASS=30:play_sums``, which ``make play CLASS=30:play_sums``
  sets) keep that many preheated kernels of those pages ready.
- **Refills never compete with visitors.** After a preheated kernel is handed
  out, its pool is refilled only once no page has been handed out for
  ``refill_quiet`` seconds; meanwhile a visitor who finds the pool empty gets
  a fresh kernel at once instead of waiting behind a refill.

- **Kernels start without importing.** With ``fork_kernels`` (``make play`` sets it) a
  kernel is a fork of one process that imported ipykernel, ipywidgets, the tables and
  sympy when the server started (``mathcards.widgets.forkserver``): a visitor's fresh
  kernel only builds its page (measured: 0.38 CPU-s for the Sums table against 0.9 s
  started the usual way; a class burst's server CPU about 40% lower).
- **A page's messages cost Voilà's process less.** A kernel's every message passes through
  this process (the page's executor and the activity watcher each read it): no debug
  record is built that no handler prints (``_skip_unshown_records``) and the messages'
  dates are parsed with ``datetime.fromisoformat`` (``_fast_dates``); a table built
  while Voilà's executor runs the page announces no widget, which no browser would read
  (the browser asks for every state once loaded: ``mathcards.widgets.opening``).
- **One websocket cannot bloat the server.** A page's message to its kernel is at
  most 1 MiB (``websocket_max_message_size`` in ``lessons/voila.json``: tornado
  closes the connection on a larger one; a page's widget messages are a few
  hundred bytes), and a connection whose client does not read what its kernel
  sends is closed once ``max_socket_backlog_mb`` is waiting for it, instead of
  the server holding it all (a script sending ``request_states`` and never
  reading grew Voilà to 2.3 GB).
- **Voilà's sockets take nothing from a stranger** (``mathcards.widgets.sockets``). The
  request-info socket a preheated kernel learns its visitor over (``/voila/query/<id>``,
  no login) serves only running kernels' ids, and a closing socket removes only itself
  (Voilà removed the last waiter: a script of twenty socket pairs to random ids hung
  every later page); a kernel handed to a page that stays busy without its page ever
  connecting is shut down after ``busy_unconnected_grace`` seconds. A page's message
  the server cannot read (a 5,000-digit integer) or a ``shutdown_request`` is dropped in
  one log line, the socket and the kernel go on; a widget the page opens itself is
  refused in one line (``mathcards.widgets.guard``); a socket closed for leaving
  replies unread gets none buffered for it.
- **The teacher signs in once.** A page opened with the teacher's key
  (``?key=``) gives that browser an HttpOnly cookie (Secure over https) for
  ``TEACHER_HOURS`` hours and sends it to the same address without the key (a
  projector shows no key); the server then marks the kernels of that browser's
  pages as the teacher's (``mathcards.visitors.teacher_page``), so the teacher's
  pages open with the cookie alone. No log line carries a ``key=`` value
  (``KeyRedactingFilter`` on tornado's and Voilà's loggers).

Voilà's own pool class wraps this one (it never passes pooled kernels to the
culler here).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hmac
import html
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlencode

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import ensure_async
from tornado import web
from tornado.iostream import StreamBufferFullError
from traitlets import Bool, Float, Int, List, Unicode

from mathcards import i18n, visitors
from mathcards.widgets import network, sockets

# Voilà ships no types: its page and websocket handlers, and the pool class that wraps
# the manager's methods, are this (the names say which object is meant)
VoilaHandler = Any

CLASS_ENV = "MATHCARDS_CLASS"
FULL = ("This server is full right now (every kernel it can hold is in use): wait a minute "
        "and reload, or ask your teacher.")
TOO_MANY = ("You have too many MathCards pages open: close some tabs, wait a minute, then "
            "reload this one.")
# the visitor of the page request being served (set around Voilà's page handler)
_VISITOR: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "mathcards_visitor", default=None)
# who the page request's browser is, with or without its cookie yet (rooms' seats)
_IDENTITY: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "mathcards_identity", default=None)
# the page request's client address (rooms count wrong codes and rooms made per address)
_ADDRESS: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "mathcards_address", default=None)
# whether a kernel start serves a page request (the caps) or fills a pool (sized by config)
_FOR_PAGE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "mathcards_for_page", default=False)
# the client address of a page request ("addr:<ip>": pages loading are counted by it)
_ADDRESS_KEY: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "mathcards_address_key", default=None)
# the kernels given to this page request (its page is sent when the request ends)
_PAGE_KERNELS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "mathcards_page_kernels", default=None)
WAIT_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="mathcards" content="wait-and-reload">
<title>MathCards</title></head><body>
<p id="mc-wait" role="status">{opening}</p>
<script>
(function () {{
  if (navigator.cookieEnabled) {{
    setTimeout(function () {{ location.reload(); }}, 1000 + Math.floor(Math.random() * 1500));
  }} else {{
    document.getElementById("mc-wait").textContent =
      {cookies};
  }}
}})();
</script></body></html>
"""


def wait_page(lang: str) -> str:
    """The wait page (``WAIT_PAGE``) in ``lang``, a language with a catalog."""
    with i18n.using(lang) as chosen:
        return WAIT_PAGE.format(
            lang=chosen, opening=html.escape(i18n._("Opening the page…")),
            cookies=json.dumps(i18n._("This page needs cookies: allow cookies for this site, "
                                      "then reload the page.")).replace("</", "<\\/"))


def _request_language(handler: VoilaHandler) -> str:
    """A page request's language, chosen as its page chooses (``mathcards.i18n.choose``):
    its ``?lang=``, else the remembered one (the cookie), else the browser's own."""
    return i18n.choose((handler.get_query_argument("lang", None) or "")[:20],
                       (handler.get_cookie(LANG_COOKIE) or "")[:20],
                       handler.request.headers.get("Accept-Language", "")[:200])


# whether the page request is the signed-in teacher's (its kernel is marked so)
_TEACHER: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "mathcards_teacher", default=False)
TEACHER_COOKIE = "mathcards-teacher"
TEACHER_HOURS = 12  # a school day: tomorrow's class at a shared computer is not signed in
_SIGN_IN = "teacher-sign-in"

# ``key=<anything>`` in an address, also %-encoded inside another parameter
_KEY_IN_TEXT = re.compile(r"((?:\b|%26|%3[fF])key(?:=|%3[dD]))[^&\s#'\"]*")
_LOGGERS = ("tornado.access", "tornado.application", "tornado.general")


class KeyRedactingFilter(logging.Filter):
    """Rewrites a log record so that no ``key=`` value of an address reaches the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record: leave it to logging
            return True
        if "key" in text:
            record.msg, record.args = _KEY_IN_TEXT.sub(r"\1[hidden]", text), None
        return True


def _redact_logs(*extra: logging.Logger) -> None:
    """Install the filter once on tornado's loggers (a 429 or 503 logs the whole address)
    and on Voilà's."""
    for logger in (*map(logging.getLogger, _LOGGERS), *extra):
        if not any(isinstance(f, KeyRedactingFilter) for f in logger.filters):
            logger.addFilter(KeyRedactingFilter())


def _skip_unshown_records(
        logger: logging.Logger | logging.LoggerAdapter[logging.Logger]) -> None:
    """Raise ``logger``'s level to the lowest of its handlers' levels.

    traitlets sets an application's logger to DEBUG and its handler to the log level
    (INFO): every ``log.debug`` then builds a record the handler drops. Voilà's executor
    (nbclient) logs two of them for every message a kernel sends while a page is built
    (about 7% of Voilà's CPU for a play page in a class burst, measured with py-spy).
    With the level raised nothing printed changes (``--debug`` lowers the handler's level,
    and so this one); the records nobody sees are not built."""
    base = logger.logger if isinstance(logger, logging.LoggerAdapter) else logger
    levels = [handler.level for handler in base.handlers]
    if levels and min(levels) > base.level:
        base.setLevel(min(levels))


def _fast_dates() -> None:
    """Parse the dates of kernel messages' headers with ``datetime.fromisoformat``.

    jupyter_client parses every header date a kernel sends with dateutil's ``isoparse``
    (``jsonutil.extract_dates``): in Voilà's process, twice per message (the page's
    executor and the server's activity watcher), about 20% of the CPU a play page's
    messages cost it (py-spy). For the ISO 8601 forms jupyter_client accepts (its own
    ``ISO8601_PAT``) with a time zone, ``fromisoformat`` (Python 3.11+) gives the same
    instant and the same ``isoformat()``; anything else (a naive date, a text that is not
    a date) goes to jupyter_client's own ``parse_date``, so what it returns is unchanged
    (tests/test_server_dates.py compares the two)."""
    from datetime import datetime

    from jupyter_client import jsonutil, session

    current = getattr(session, "extract_dates", None)
    if not callable(current) or getattr(current, "_mathcards", False):
        return  # already done, or a jupyter_client that parses dates elsewhere: leave it
    pattern = jsonutil.ISO8601_PAT
    slow: Callable[[str], Any] = jsonutil.parse_date

    def parse_date(text: str | None) -> Any:
        if text is None:
            return None
        match = pattern.match(text)
        if match is None:
            return text
        if match.group(3) is not None:  # a time zone: Z or an offset
            try:
                return datetime.fromisoformat(text)
            except ValueError:
                pass
        return slow(text)

    def extract_dates(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {key: extract_dates(value) for key, value in obj.items()}
        if isinstance(obj, list | tuple):
            return [extract_dates(value) for value in obj]
        if isinstance(obj, str):
            return parse_date(obj)
        return obj

    extract_dates._mathcards = True  # type: ignore[attr-defined]
    extract_dates.parse_date = parse_date  # type: ignore[attr-defined]
    session.extract_dates = extract_dates  # type: ignore[attr-defined]  # not in its __all__


_SIGNED_IN = "signed in"  # the request was answered with a redirect: render nothing


def _teacher_of(handler: VoilaHandler) -> bool | str:
    """Whether a page request is the teacher's: the right key in the address (then the
    browser gets the sign-in cookie and is sent to the address without the key:
    ``_SIGNED_IN``), or that cookie."""
    from mathcards.errors import MathCardsError
    from mathcards.keys import is_teacher_key, teacher_token

    try:
        given = handler.get_query_argument("key", None)
        if given is not None:
            if not is_teacher_key(given[:200]):
                return False  # the page says the key is wrong
            handler.set_signed_cookie(
                TEACHER_COOKIE, teacher_token(_SIGN_IN), expires_days=TEACHER_HOURS / 24,
                path=handler.settings.get("base_url") or "/", httponly=True,
                secure=handler.request.protocol == "https", samesite="Strict")
            rest = [(k, v.decode("utf-8", "replace"))
                    for k, vs in handler.request.query_arguments.items() if k != "key"
                    for v in vs]
            handler.redirect(handler.request.path + ("?" + urlencode(rest) if rest else ""))
            return _SIGNED_IN
        cookie = handler.get_signed_cookie(TEACHER_COOKIE, max_age_days=TEACHER_HOURS / 24)
        return cookie is not None and hmac.compare_digest(
            cookie, teacher_token(_SIGN_IN).encode("ascii"))
    except (MathCardsError, OSError):  # no key can be read: nobody is the teacher
        return False


def _visitor_of(handler: VoilaHandler) -> str | None:
    """The browser behind a page request, when it carries Voilà's identity cookie."""
    try:
        provider = handler.identity_provider
        if handler.get_cookie(provider.get_cookie_name(handler)) is None:
            return None
        user = handler.current_user
        name = getattr(user, "username", None)
        return f"user:{name}" if name else None
    except Exception:  # noqa: BLE001 - another Voilà or jupyter_server: no per-visitor cap, total only
        return None


def _identity_of(handler: VoilaHandler) -> str | None:
    """The identity Voilà gives this request's browser (its signed cookie says it, or the
    response sets it now)."""
    try:
        name = getattr(handler.current_user, "username", None)
    except Exception:  # noqa: BLE001 - another Voilà or jupyter_server: no identity
        return None
    return f"voila:{name}" if name else None


LANG_COOKIE = "mathcards_lang"


def _remember_language(handler: VoilaHandler) -> None:
    """The language of a page request, as the kernel reads it (``widgets.page_language``):
    a page opened with ``?lang=`` (a class link, the page's switch) makes this browser
    remember that language (a cookie, a year); a page without it gets the remembered one
    as a request header (``X-MathCards-Lang``, passed to the kernel by
    ``http_header_envs``). Only a language with a catalog is kept or passed on; a header
    of that name sent by the browser itself is dropped."""
    from mathcards.i18n import normalize
    from mathcards.widgets import REMEMBERED_HEADER

    headers = handler.request.headers
    if REMEMBERED_HEADER in headers:
        del headers[REMEMBERED_HEADER]
    asked = normalize((handler.get_query_argument("lang", None) or "")[:20])
    if asked is not None:
        handler.set_cookie(LANG_COOKIE, asked, expires_days=365,
                           path=handler.settings.get("base_url") or "/",
                           secure=handler.request.protocol == "https", samesite="Lax")
        return
    remembered = normalize((handler.get_cookie(LANG_COOKIE) or "")[:20])
    if remembered is not None:
        headers[REMEMBERED_HEADER] = remembered


def _track_visitors() -> None:
    """Wrap Voilà's page handler once so kernel starts know whose page they serve."""
    try:
        from voila.handler import VoilaHandler
    except ImportError:
        return
    if getattr(VoilaHandler, "_mathcards_tracks_visitors", False):
        return
    original = VoilaHandler.get_generator

    async def get_generator(self: VoilaHandler, path: str | None = None) -> AsyncIterator[str]:
        teacher = _teacher_of(self)
        if teacher == _SIGNED_IN:
            return
        _TEACHER.set(teacher is True)  # this request's task only
        _remember_language(self)
        visitor = _visitor_of(self)
        address: str | None = f"addr:{self.request.remote_ip}"
        manager = self.kernel_manager
        admit = getattr(manager, "admit_address", None)
        if teacher is True or admit is None:
            address = None
        elif not await admit(address, _identity_of(self)):
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            yield wait_page(_request_language(self))  # with the identity cookie: no kernel
            return
        _VISITOR.set(visitor)
        _ADDRESS_KEY.set(address)
        given: list[str] = []
        _PAGE_KERNELS.set(given)
        _IDENTITY.set(_identity_of(self))
        _ADDRESS.set(getattr(self.request, "remote_ip", None))
        _FOR_PAGE.set(True)
        try:
            async for html in original(self, path=path):
                yield html
        finally:
            if address is not None:
                manager.address_done(address, given)

    VoilaHandler.get_generator = get_generator
    VoilaHandler._mathcards_tracks_visitors = True


def _bound_sockets(backlog_bytes: int) -> None:
    """Wrap Voilà's kernel websocket once: a client that lets more than ``backlog_bytes``
    wait unread is disconnected (its page reconnects, if it is a page)."""
    try:
        from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
    except ImportError:
        return
    VoilaKernelWebsocketHandler._mathcards_backlog = backlog_bytes
    if getattr(VoilaKernelWebsocketHandler, "_mathcards_bounded", False):
        return
    original = VoilaKernelWebsocketHandler.write_message

    def write_message(self: VoilaHandler, message: bytes | str | dict[str, Any],
                      binary: bool = False) -> Any:
        stream = getattr(self.ws_connection, "stream", None)
        if stream is not None and stream.max_write_buffer_size is None:
            stream.max_write_buffer_size = self._mathcards_backlog
        try:
            return original(self, message, binary)
        except StreamBufferFullError:
            self.log.warning("Closing a websocket of kernel %s: its client left %d MB unread",
                             getattr(self, "kernel_id", "?"), self._mathcards_backlog >> 20)
            sockets.misbehaved(self)  # its kernel's replies are not buffered for it
            # the full stream is there (it raised); a close frame would not fit either:
            # drop the connection
            stream.close()  # type: ignore[union-attr]
            return None

    VoilaKernelWebsocketHandler.write_message = write_message
    VoilaKernelWebsocketHandler._mathcards_bounded = True


def parse_class(text: str) -> tuple[int, list[str]]:
    """``"30:play_sums,sums"`` -> (30, ["play_sums.ipynb", "sums.ipynb"])."""
    size, _, pages = text.partition(":")
    size = size.strip()
    if not size.isascii() or not size.isdigit() or not 0 < int(size) <= 200:
        raise ValueError(f"{CLASS_ENV}={text!r}: write the class size (1-200), a colon and the "
                         "pages, like 30:index,practice")
    names = [p.strip() for p in pages.split(",") if p.strip()]
    if not names:
        raise ValueError(f"{CLASS_ENV}={text!r}: name the pages to warm, like 30:index,practice")
    return int(size), [n if n.endswith(".ipynb") else n + ".ipynb" for n in names]


def _available_mb() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 4096


class ClassroomKernelManager(AsyncMappingKernelManager):
    """AsyncMappingKernelManager for a classroom (see the module docstring)."""

    unconnected_grace = Float(
        45.0, config=True,
        help="Seconds a kernel that rendered its page but never had a connection is kept.")
    busy_unconnected_grace = Float(
        300.0, config=True,
        help="Seconds a kernel handed to a page may stay busy without its page ever "
        "connecting (a page stuck rendering) before it is shut down.")
    disconnected_grace = Float(
        120.0, config=True,
        help="Seconds a kernel whose page connected and then went away is kept (a reload "
        "or a brief network drop comes back within this).")
    max_kernels = Int(
        0, config=True, help="Most kernels running at once; 0: what memory holds.")
    kernel_memory_mb = Int(150, config=True, help="Memory one page's kernel needs (measured).")
    reserve_memory_mb = Int(1024, config=True, help="Memory kept free for the server itself.")
    max_kernels_per_visitor = Int(
        6, config=True, help="Most kernels one browser (identity cookie) holds at once.")
    loading_per_address = Int(
        0, config=True,
        help="Most kernels whose page never connected one client address holds (page "
        "loads under way included); beyond it the address's pages sent connect_grace "
        "seconds ago and never connected are shut down, or the load gets a page that "
        "reloads a moment later, no kernel. 0: a third of max_kernels, at most 40.")
    connect_grace = Float(
        20.0, config=True,
        help="Seconds after its page was sent within which a browser connects to its "
        "kernel (measured: about 1 s; see docs/lessons.md); an address at its bound of "
        "pages loading gives up older ones.")
    class_size = Int(0, config=True, help="Preheated kernels kept ready for class_pages.")
    class_pages = List(Unicode(), config=True, help="Pages (notebooks) a class will open.")
    max_socket_backlog_mb = Int(
        16, config=True,
        help="Most megabytes waiting unread for one kernel websocket's client before the "
        "server closes that connection.")
    fork_kernels = Bool(
        False, config=True,
        help="Start page kernels as forks of a process that imported ipykernel, ipywidgets, "
        "MathCards' tables and sympy once (mathcards.widgets.forkserver). `make play` turns "
        "it on: one server for a whole class. Off elsewhere: a hub's or Binder's server is "
        "one student's, where a second process would cost memory and compete with the "
        "student's first page while it imports.")
    refill_quiet = Float(
        5.0, config=True,
        help="Seconds without a page handed out before a pool is refilled.")

    # Voilà's pool class (its kernel_pools_config trait) wraps this class, or nothing does
    kernel_pools_config: dict[str, dict[str, Any]]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]  # jupyter_server: unannotated
        self._waiting_since: dict[str, float] = {}  # never-connected kernels: idle since
        self._busy_since: dict[str, float] = {}  # never-connected kernels: busy since
        self._connected_once: set[str] = set()
        self._gone_since: dict[str, float] = {}  # connected before, no connection now
        self._last_handout = 0.0
        self._refills: dict[str | None, asyncio.Task[None]] = {}
        self._by_visitor: dict[str, set[str]] = {}  # browser or address: kernels
        self._admitting: dict[str, int] = {}  # page loads under way, by address
        self._sent_at: dict[str, float] = {}  # never-connected kernels: when the page was sent
        self._visitor_of_kernel: dict[str, str] = {}  # page kernels: their browser
        self._proven: set[str] = set()  # browsers a page of which connected once
        _track_visitors()
        _bound_sockets(self.max_socket_backlog_mb << 20)
        sockets.install(self)  # Voilà's sockets guarded against strangers (issue 36)
        network.install()  # Voilà builds its handlers after its kernel manager
        _redact_logs(self.log)
        _skip_unshown_records(self.log)
        _fast_dates()
        if self.fork_kernels:
            from mathcards.widgets import forkserver

            forkserver.install(self.log)
        if not self.max_kernels:
            self.max_kernels = max(
                16, (_available_mb() - self.reserve_memory_mb) // max(1, self.kernel_memory_mb))
        if not self.loading_per_address:
            self.loading_per_address = max(2, min(40, self.max_kernels // 3))
        text = os.environ.get(CLASS_ENV, "").strip()
        if text:
            try:
                self.class_size, self.class_pages = parse_class(text)
            except ValueError as exc:
                self.log.error("%s", exc)
        if self.class_size and self.class_pages and hasattr(self, "kernel_pools_config"):
            pools = dict(self.kernel_pools_config)
            for page in self.class_pages:
                pools[page] = {**pools.get(page, {}), "pool_size": self.class_size}
            self.kernel_pools_config = pools
            self.log.info("Warming %d kernels each for %s", self.class_size,
                          ", ".join(self.class_pages))
        original = getattr(self, "fill_if_needed", None)
        if original is not None:  # Voilà's pool class wraps this one: defer its refills
            self.fill_if_needed = self._fill_when_quiet(original)
        handout = getattr(self, "get_rendered_notebook", None)
        if handout is not None:  # and count the preheated kernels it hands out
            self.get_rendered_notebook = self._counted_handout(handout)

    # --- visitors ----------------------------------------------------------------------
    async def _check_visitor(self) -> str | None:
        visitor = _VISITOR.get()
        if visitor is None:
            return None
        mine = self._held(visitor)
        if len(mine) >= self.max_kernels_per_visitor:
            await self._reclaim_closed(mine)
            mine = self._held(visitor)
        if len(mine) >= self.max_kernels_per_visitor:
            self.log.warning("Refusing a kernel: %s holds %d", visitor, len(mine))
            raise web.HTTPError(429, TOO_MANY, reason=TOO_MANY)
        return visitor

    def _page_closed(self, kernel_id: str) -> bool:
        """Whether a kernel's page connected once and has no connection now (a closed tab,
        kept ``disconnected_grace`` seconds for a brief network drop)."""
        return (kernel_id in self._connected_once
                and not self._kernel_connections.get(kernel_id, 0))

    async def _reclaim_closed(self, mine: set[str]) -> None:
        """A browser at its cap counts the pages it has open, not the pages it opened: the
        kernels of its closed pages are shut down now, oldest close first."""
        closed = sorted((k for k in mine if self._page_closed(k)),
                        key=lambda k: self._gone_since.get(k, 0.0))
        for kernel_id in closed:
            self.log.info("Shutting down kernel %s: its page is closed and its browser opens "
                          "another", kernel_id)
            with contextlib.suppress(KeyError, web.HTTPError):
                await ensure_async(self.shutdown_kernel(kernel_id))

    def _held(self, key: str) -> set[str]:
        mine = self._by_visitor.setdefault(key, set())
        mine &= set(self._kernels)  # forget kernels already shut down
        return mine

    def _count(self, kernel_id: str) -> None:
        """Count a kernel just given to a page against its browser and its address."""
        for key in (_VISITOR.get(), _ADDRESS_KEY.get()):
            if key is not None:
                self._by_visitor.setdefault(key, set()).add(kernel_id)
        identity = _IDENTITY.get()
        if identity is not None:
            self._visitor_of_kernel[kernel_id] = identity
        given = _PAGE_KERNELS.get()
        if given is not None:
            given.append(kernel_id)

    def _loading(self, address: str) -> list[str]:
        """The address's kernels whose page has not connected (yet or ever)."""
        return [k for k in self._held(address) if k not in self._connected_once]

    async def admit_address(self, address: str, identity: str | None = None) -> bool:
        """Whether a page load from ``address`` may have a kernel: fewer than
        ``loading_per_address`` of the address's pages are loading or never connected
        (the loads under way count too: a burst arrives before any kernel is started).
        At the bound, pages sent more than ``connect_grace`` seconds ago that never
        connected (a script's) are shut down to make room, oldest first; a browser whose
        page connected before (a classmate, not a script that only fetches pages) also
        makes room from pages of browsers that never connected anything."""
        bound = self.loading_per_address
        loading = self._loading(address)
        over = len(loading) + self._admitting.get(address, 0) - bound + 1
        if over > 0:
            now = time.monotonic()
            sent = [k for k in loading if k in self._sent_at]
            stale = [k for k in sent if now - self._sent_at[k] >= self.connect_grace]
            if identity is not None and identity in self._proven:
                stale += [k for k in sent if k not in stale
                          and self._visitor_of_kernel.get(k) not in self._proven]
            for kernel_id in sorted(stale, key=lambda k: self._sent_at[k])[:over]:
                self.log.info("Shutting down kernel %s: its page was sent %.0f s ago and "
                              "never connected, and %s loads another", kernel_id,
                              now - self._sent_at.get(kernel_id, now), address)
                with contextlib.suppress(KeyError, web.HTTPError):
                    await ensure_async(self.shutdown_kernel(kernel_id))
            loading = self._loading(address)
            if len(loading) + self._admitting.get(address, 0) >= bound:
                self.log.info("Wait and reload: %s has %d pages loading", address,
                              len(loading))
                return False
        self._admitting[address] = self._admitting.get(address, 0) + 1
        return True

    def address_done(self, address: str, given: list[str]) -> None:
        """A page load from ``address`` ended: its page (if any) is sent now."""
        left = self._admitting.get(address, 1) - 1
        if left > 0:
            self._admitting[address] = left
        else:
            self._admitting.pop(address, None)
        now = time.monotonic()
        for kernel_id in given:
            if kernel_id in self._kernels and kernel_id not in self._connected_once:
                self._sent_at[kernel_id] = now

    def _counted_handout(
            self, original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def handout(*args: Any, **kwargs: Any) -> Any:
            await self._check_visitor()
            result = await original(*args, **kwargs)
            self._count(result[2])  # (task, cells, kernel id)
            self._record_identity(result[2])
            return result
        return handout

    # --- pools -----------------------------------------------------------------------
    def _fill_when_quiet(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def fill(delay: float | None = None, notebook_name: str | None = None,
                 **kwargs: Any) -> Any:
            if delay is not None:  # the first fill at start: at once
                return original(delay=delay, notebook_name=notebook_name, **kwargs)
            self._last_handout = time.monotonic()  # delay None: a kernel was just handed out
            task = self._refills.get(notebook_name)
            if task is None or task.done():
                # a context of its own: the refill's kernels belong to no visitor
                self._refills[notebook_name] = asyncio.get_event_loop().create_task(
                    self._refill(original, notebook_name, kwargs),
                    context=contextvars.Context())
            return None
        return fill

    async def _refill(self, original: Callable[..., Any], notebook_name: str | None,
                      kwargs: dict[str, Any]) -> None:
        while True:
            quiet = time.monotonic() - self._last_handout
            if quiet >= self.refill_quiet:
                break
            await asyncio.sleep(self.refill_quiet - quiet + 0.05)
        if len(self._kernels) >= self.max_kernels:
            return  # full: refill when a visitor asks again after kernels were freed
        original(delay=0, notebook_name=notebook_name, **kwargs)

    # --- the cap ---------------------------------------------------------------------
    async def start_kernel(  # type: ignore[override]  # the async manager's is async
            self, *args: Any, **kwargs: Any) -> str:
        await self._check_visitor()
        if _FOR_PAGE.get() and len(self._kernels) >= self.max_kernels:
            self.log.warning("Refusing a kernel: %d running, the cap is %d",
                             len(self._kernels), self.max_kernels)
            raise web.HTTPError(503, FULL, reason=FULL)
        kernel_id = await super().start_kernel(*args, **kwargs)
        if _FOR_PAGE.get():
            self._count(kernel_id)
        self._record_identity(kernel_id)
        return kernel_id

    def _record_identity(self, kernel_id: str) -> None:
        """Tell the page's kernel whose browser it serves (rooms hold seats by it) and
        whether it is the signed-in teacher's."""
        if not _FOR_PAGE.get():
            return
        identity = _IDENTITY.get()
        try:
            if identity is not None:
                visitors.record(kernel_id, identity, _ADDRESS.get())
            if _TEACHER.get():
                visitors.record_teacher(kernel_id)
        except (OSError, ValueError) as exc:
            self.log.warning("Could not record the visitor of kernel %s: %s", kernel_id, exc)

    # --- culling ---------------------------------------------------------------------
    def _pool_is_filling(self) -> bool:
        """Whether a pool kernel is starting (its id is not known yet)."""
        pools = getattr(self, "_pools", None) or {}
        return any(not task.done() for pool in pools.values() for task in pool)

    async def cull_kernel_if_idle(self, kernel_id: str) -> Any:
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return None
        now = time.monotonic()
        if kernel_id in self._connected_once:
            if self._kernel_connections.get(kernel_id, 0):
                self._gone_since.pop(kernel_id, None)
            else:
                since = self._gone_since.setdefault(kernel_id, now)
                if now - since >= self.disconnected_grace:
                    self.log.info("Shutting down kernel %s: its page closed %.0f s ago.",
                                  kernel_id, now - since)
                    return await ensure_async(self.shutdown_kernel(kernel_id))
            return await ensure_async(
                super().cull_kernel_if_idle(kernel_id))  # type: ignore[no-untyped-call]  # jupyter_server: unannotated
        if getattr(kernel, "execution_state", None) == "dead":
            return await ensure_async(
                super().cull_kernel_if_idle(kernel_id))  # type: ignore[no-untyped-call]  # jupyter_server: unannotated
        if getattr(kernel, "execution_state", None) == "busy" or self._pool_is_filling():
            # still rendering its page (or perhaps a pool kernel starting): not waiting yet
            self._waiting_since.pop(kernel_id, None)
            if getattr(kernel, "execution_state", None) == "busy":
                return await self._cull_if_stuck(kernel_id, now)
            return None
        self._busy_since.pop(kernel_id, None)
        since = self._waiting_since.setdefault(kernel_id, now)
        if now - since < self.unconnected_grace:
            return None
        self.log.warning("Shutting down kernel %s: its page never connected (%.0f s).",
                         kernel_id, now - since)
        return await ensure_async(self.shutdown_kernel(kernel_id))

    async def _cull_if_stuck(self, kernel_id: str, now: float) -> Any:
        """A kernel out of its pool, busy and never connected for ``busy_unconnected_grace``
        seconds is stuck (a page that never finished: its visitor gave up long ago)."""
        since = self._busy_since.setdefault(kernel_id, now)
        if now - since < self.busy_unconnected_grace:
            return None
        self.log.warning("Shutting down kernel %s: busy for %.0f s and its page never "
                         "connected.", kernel_id, now - since)
        return await ensure_async(self.shutdown_kernel(kernel_id))

    def notify_connect(self, kernel_id: str) -> None:
        """A page connected: from now on the usual idle culling applies, counted from
        now (however long the kernel waited in its pool)."""
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]  # jupyter_server: unannotated
        self._gone_since.pop(kernel_id, None)
        if kernel_id in self._kernels and kernel_id not in self._connected_once:
            self._connected_once.add(kernel_id)
            self._waiting_since.pop(kernel_id, None)
            sent = self._sent_at.pop(kernel_id, None)
            visitor = self._visitor_of_kernel.get(kernel_id)
            if visitor is not None:
                self._proven.add(visitor)
            if sent is not None:
                self.log.info("Kernel %s: its page connected %.2f s after it was sent",
                               kernel_id, time.monotonic() - sent)
            self._kernels[kernel_id].last_activity = utcnow()

    async def shutdown_kernel(  # type: ignore[override]  # the async manager's is async
            self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(OSError):
            visitors.forget(kernel_id)
        sockets.forget(kernel_id)
        self._waiting_since.pop(kernel_id, None)
        self._busy_since.pop(kernel_id, None)
        self._gone_since.pop(kernel_id, None)
        self._sent_at.pop(kernel_id, None)
        self._visitor_of_kernel.pop(kernel_id, None)
        self._connected_once.discard(kernel_id)
        return await ensure_async(
            super().shutdown_kernel(kernel_id, *args, **kwargs))  # type: ignore[no-untyped-call]  # jupyter_server: unannotated
