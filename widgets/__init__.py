"""Playable card tables for Jupyter and Voilà (installed as ``mathcards.widgets``).

>>> from mathcards.widgets import play
>>> table = play("sums", bot_delay=0, save=False)   # doctest: +SKIP

A lesson page needs one cell: ``play("suns_to_moons")``. In Voilà the page's
address may carry ``?deal=SUMS-2P-P8-04HKR`` (a teacher's deal code),
``&seats=human,strong``, ``&delay=0.5`` (the bots' pause in seconds) and
``&level=show|count|count_no_hints`` (the level of help: "Show me the sums", "I count",
the default, or "I count, no hints"; ``&fixed=1`` hides the level picker),
``&student=ana``: the name whose saved game the page keeps (letters, digits,
``-`` and ``_``, up to 40; not case-sensitive), which belongs to the browser
that first used it (``mathcards.names``). One Voilà server is shared by
every visitor, so without a name the page plays in the shared "guest" slot
and says how to add a name. On a JupyterHub the student is the hub login
(``JUPYTERHUB_USER``) and ``?student=`` is ignored.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, parse_qsl

from mathcards.i18n import N_

from .opening import opened_together

__all__ = ["GUEST", "make_view", "play", "query_settings", "student_slot", "table_games"]

MAX_DELAY = 5.0
MAX_PAUSE = 30.0  # the longest pause after the feedback a link may set (``?pause=``)
WARM_UP_DELAY = 20.0  # seconds after a fresh kernel's page is built before sympy loads
GUEST = "guest"


_VISITOR_QUERY: str | None = None


def table_games() -> tuple[str, ...]:
    """The games with a table (a ``GameSpec.view``): each has a play page (with rooms when
    its ``GameSpec.rooms``)."""
    from mathcards.games.registry import game_specs

    return tuple(s.name for s in game_specs() if s.view)


def make_view(game_name: str) -> Any:
    """A new view of ``game_name``'s table (its registration's ``view``, imported now);
    ValueError for a game without a table."""
    from mathcards.games.registry import find_game, resolve

    spec = find_game(game_name)
    if spec is None or not spec.view:
        raise ValueError(f"no table for {game_name!r}: choose one of "
                         f"{', '.join(table_games())}")
    return resolve(spec.view)()


def _in_voila() -> bool:
    """This kernel runs a Voilà page (public: its address says who may see what)."""
    return any(k.startswith("VOILA") for k in os.environ) or "QUERY_STRING" in os.environ


def _asks_name() -> bool:
    """A page that asks a student without a name for one: Voilà's, and the static site's."""
    from mathcards.site import in_browser

    return _in_voila() or in_browser()


def _page_query() -> str:
    """The page's query string in Voilà (waits for the visitor with a preheated kernel);
    on the static site, where the address does not reach the kernel, the name kept in
    the browser (``mathcards.site``) as ``student=``."""
    global _VISITOR_QUERY
    if _VISITOR_QUERY is not None:
        return _VISITOR_QUERY
    from mathcards.site import in_browser, kept_name

    if in_browser():
        kept = kept_name()
        return with_student("", kept) if kept else ""
    if not _in_voila():
        return ""
    if os.environ.get("VOILA_PREHEAT") == "True":
        info = _wait_for_visitor()
        os.environ.update(info)
    _VISITOR_QUERY = os.environ.get("QUERY_STRING", "")
    page_language(_VISITOR_QUERY)
    return _VISITOR_QUERY


# The header the server gives a page request for the language this browser remembers
# (its ``mathcards_lang`` cookie: mathcards.widgets.server); the kernel sees it as
# HTTP_X_MATHCARDS_LANG, the browser's own Accept-Language as HTTP_ACCEPT_LANGUAGE
# (lessons/voila.json: VoilaConfiguration.http_header_envs).
REMEMBERED_HEADER = "X-MathCards-Lang"

# The name of the language switch at the foot of every Voilà page (a <nav>, named for a
# screen reader in the page's language). The page template draws it before any kernel
# runs, so it holds this msgid's words in each language (LABELS in
# lessons/share/jupyter/voila/templates/mathcards/index.html.j2), checked against the
# catalogs by tests/test_language_switch.py.
# Translators: the name of the list of languages a page can be shown in.
LANGUAGE_SWITCH = N_("Language")


def page_language(query: str) -> str:
    """Draw this Voilà page in its language and return it: the address's ``?lang=`` (a
    class link's, or the page's switch), else the language this browser remembers, else
    the browser's first language with a catalog, else English (``mathcards.i18n.choose``).
    """
    from mathcards import i18n

    return i18n.use(i18n.choose(
        query_settings(query).get("lang"),
        os.environ.get("HTTP_" + REMEMBERED_HEADER.upper().replace("-", "_")),
        os.environ.get("HTTP_ACCEPT_LANGUAGE")))


def _wait_for_visitor() -> dict[str, str]:
    """The visitor's request info, for a kernel preheated before anyone asked.

    Voilà's own helper gives up when its websocket does not open within 5 s (a
    server busy with a class arriving at once) and the page then renders without
    its address: a student as the guest. Here the kernel keeps trying until the
    server answers; the server keeps the visitor's request for a late socket.
    """
    import asyncio
    import json
    import threading

    import websockets

    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    host = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    url = f"{protocol}://{host}:{port}{base}voila/query/{os.environ.get('VOILA_KERNEL_ID')}"
    found: dict[str, str] = {}

    async def ask() -> None:
        pause = 0.2
        while True:
            try:
                async with websockets.connect(url, open_timeout=20) as socket:
                    found.update(json.loads(await socket.recv()))
                    return
            except (OSError, TimeoutError, asyncio.TimeoutError, ValueError,
                    websockets.exceptions.WebSocketException):
                await asyncio.sleep(pause)  # the server is busy or restarting: again
                pause = min(pause * 2, 2.0)

    thread = threading.Thread(target=lambda: asyncio.run(ask()), daemon=True)
    thread.start()
    thread.join()
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


def query_settings(query: str) -> dict[str, Any]:
    """Table options from a page address's query string; anything odd is left out.

    Only these keys are read: ``deal`` (a deal code, checked later),
    ``seats`` (human/random/strong, comma separated), ``delay`` (0-5 s),
    ``student`` (kept as given; ``student_slot`` checks it), ``room`` (a room code to
    join, checked when joining), ``level`` (a key of ``mathcards.asking.LEVELS``),
    ``fixed`` (``1``: the level stays as the link says), ``pause`` (after the feedback of
    the student's answer at "I count" the bots wait this many seconds, 0-30, or ``ok``:
    until the student clicks OK), ``lang`` (a language with a catalog: ``es``, ``es-MX``).
    """
    from mathcards.asking import LEVELS

    params = parse_qs(query[:500], keep_blank_values=True)
    out: dict[str, Any] = {}
    if "student" in params:
        out["student"] = params["student"][0][:200]
    if params.get("deal"):
        out["deal"] = params["deal"][0][:60]
    if params.get("room"):
        out["room"] = params["room"][0][:20]
    if params.get("seats"):
        kinds = tuple(k.strip().lower() for k in params["seats"][0].split(",") if k.strip())
        if kinds and all(k in ("human", "random", "strong") for k in kinds) and len(kinds) <= 8:
            out["seats"] = kinds
    if params.get("level") and params["level"][0] in LEVELS:
        out["level"] = params["level"][0]
    if params.get("fixed") and params["fixed"][0] in ("1", "true", "yes"):
        out["fixed"] = True
    if params.get("pause"):
        said = params["pause"][0].strip().lower()
        try:
            pause: float | str | None = "ok" if said == "ok" else float(said)
        except ValueError:
            pause = None
        if pause == "ok" or (isinstance(pause, float) and 0 <= pause <= MAX_PAUSE):
            out["pause"] = pause
    if params.get("delay"):
        try:
            delay = float(params["delay"][0])
        except ValueError:
            delay = None
        if delay is not None and 0 <= delay <= MAX_DELAY:
            out["bot_delay"] = delay
    if params.get("lang"):  # a class link's language, if it has a catalog (mathcards.i18n)
        from mathcards.i18n import normalize

        lang = normalize(params["lang"][0][:20])
        if lang is not None:
            out["lang"] = lang
    return out


def page_browser() -> str | None:
    """The token of the browser at this page when it is a Voilà page (names are claimed
    by it: ``mathcards.names``), else None (JupyterLab, a hub: nothing to claim)."""
    if not _in_voila():
        return None
    from mathcards.visitors import browser_visitor

    return browser_visitor()


def student_slot(name: str | None, browser: str | None = None) -> tuple[str, str, str]:
    """(save slot, "Playing as ..." label, problem) for a student name from the address.

    One rule for names (``mathcards.students``): ``Ana`` and ``ana`` are one student,
    with one saved game here and one progress record on the practice page; no
    name, or a bad one, plays as the shared guest. With ``browser`` (a Voilà page's
    browser token) the name belongs to the first browser that used it
    (``mathcards.names``): another browser plays as the guest, told so in one line. On
    a JupyterHub the student is the hub login and ``name`` is ignored.
    """
    from mathcards.i18n import _
    from mathcards.students import (
        StudentNameError,
        clean_name,
        hub_login,
        hub_student_id,
        save_slot,
    )

    login = hub_login()
    if login is not None:  # a JupyterHub server: the student is its user, whatever the address
        return save_slot(hub_student_id(login)), _("Playing as {name}").format(name=login), ""
    if name is None or not name.strip():
        return GUEST, _("Playing as guest (a saved game every visitor shares): add "
                        "?student=yourname to the page address to keep your own saved "
                        "game."), ""
    try:
        shown = clean_name(name)
    except StudentNameError as exc:
        return GUEST, _("Playing as guest: add ?student=yourname to the page address to "
                        "keep your own saved game."), str(exc)
    if browser is not None:
        from mathcards.names import claim

        taken = claim(shown, browser)
        if taken:
            return GUEST, _("Playing as guest (a saved game every visitor shares)."), taken
    return save_slot(shown.casefold()), _("Playing as {name}").format(name=shown), ""


def student_id_or_none(name: str | None) -> str | None:
    """The student id of ``name``, or None when there is none or the rule refuses it."""
    from mathcards.students import StudentNameError, student_id

    if not name or not name.strip():
        return None
    try:
        return student_id(name)
    except StudentNameError:
        return None


def with_student(query: str, name: str) -> str:
    """``query`` with ``student=name`` in place of any student it had."""
    from urllib.parse import urlencode

    pairs = [(k, v) for k, v in parse_qsl(query[:500], keep_blank_values=True) if k != "student"]
    return urlencode([*pairs, ("student", name)])


@opened_together()
def play(game_name: str, *, deal: str | None = None, seats: Sequence[str] | None = None,
         players: int | None = None, bot_delay: float = 0.8, save: bool = True,
         query: str | None = None, student: str | None = None, ask_name: bool | None = None,
         level: str | None = None, fixed: bool = False, lang: str | None = None,
         **settings: Any) -> Any:
    """A table for ``game_name``; page-address options (Voilà) override the arguments.
    Returns the ``GameTable``, or the name question that starts it, or a note (ipywidgets).

    A Voilà page (or ``ask_name=True``) that saves its game, without a name it can use (none
    in the address, one the rule refuses or another browser holds), asks for one first
    (``mathcards.widgets.classes.ask_name``) and starts the table for the name picked.
    ``level`` is the level of help at the arithmetic tables (``mathcards.asking.LEVELS``;
    a play page opens at "I count" unless its link says otherwise). ``lang`` (or the
    link's ``?lang=``) is the page's language (``mathcards.i18n``; the words marked so
    far: the table's, the engines', the questions')."""
    from mathcards import saves
    from mathcards.errors import MathCardsError
    from mathcards.games.registry import game_spec, get_game_class
    from mathcards.i18n import _
    from mathcards.students import clean_name, hub_login
    from mathcards.table import short_game, short_setting
    from mathcards.widgets.table import GameTable

    try:
        view = make_view(game_name)
    except ImportError as exc:  # a game whose engine or table has not landed yet
        import ipywidgets as W

        from .cards import esc

        missing = _("This table is not ready yet ({part} is missing).").format(part=exc.name)
        return W.HTML(f"<p role='status'>{esc(missing)}</p>")
    preheated = query is None and os.environ.get("VOILA_PREHEAT") == "True"
    if preheated:
        # A preheated Voilà kernel runs this far before anyone visits, then waits in
        # _page_query() for the visitor: load sympy now, so the page's first seconds
        # are not spent importing it (a background import would hold the GIL then).
        _warm_up(background=False)
    page_query = _page_query() if query is None else query
    opts = query_settings(page_query)
    if "lang" in opts or lang is not None:
        from mathcards import i18n

        i18n.use(opts.get("lang", lang))
    deal = opts.get("deal", deal)
    seats = opts.get("seats", seats)
    bot_delay = opts.get("bot_delay", bot_delay)
    name = opts.get("student", student)
    browser = page_browser() if name or ask_name is None else None
    slot, who, name_problem = student_slot(name, browser if name else None)
    if (_asks_name() if ask_name is None else ask_name) and save and slot == GUEST \
            and student_id_or_none(name) != GUEST:
        # a Voilà page without a name it can use asks for one (nothing is played as the
        # guest without the student knowing): the table starts once a name is picked
        from mathcards.widgets.classes import ask_name_for

        return ask_name_for(
            lambda chosen: play(game_name, deal=deal, seats=seats, players=players,
                                bot_delay=bot_delay, save=save, ask_name=False,
                                query=with_student(page_query, chosen), **settings),
            page_query, browser, name_problem)
    game_cls = get_game_class(game_name)
    problem = ""
    game, seed = None, None
    if deal:
        try:
            game, seed = saves.read_deal_code(deal)
            if game.name != game_name:
                raise saves.DealCodeError(_("deal code {code!r} is for {game}, not {other}")
                                          .format(code=deal, game=game.title,
                                                  other=game_cls.title))
        except MathCardsError as exc:
            problem, game, seed = str(exc), None, None
    if game is None:
        n = players or (len(seats) if seats else max(2, game_cls.min_players))
        try:
            game = game_cls(num_players=n, **settings)
        except MathCardsError as exc:  # e.g. ?seats= with more seats than the game has
            problem = _("{reason}: the address asks for {n} seats.").format(reason=exc, n=n)
            n = min(max(n, game_cls.min_players), game_cls.max_players)
            seats = tuple(seats)[:n] if seats else None
            game = game_cls(num_players=n, **settings)
    # a fresh page begins with the short game (short_setting) and offers the full one; a
    # deal code keeps its own settings, a saved game its own (resuming it drops the offer)
    short = short_setting(game_name)
    offer_length = seed is None and short is not None and short[0] not in settings
    if offer_length:
        game = short_game(game) or game
    if seats is not None and len(seats) != game.num_players:
        seats = (tuple(seats) + ("strong",) * game.num_players)[:game.num_players]
    from mathcards.asking import DEFAULT_LEVEL

    table = GameTable(view, game, seats=seats, seed=seed, bot_delay=bot_delay, save=save,
                      slot=slot, who=who, level=opts.get("level", level or DEFAULT_LEVEL))
    # answers are kept under the name only when this page plays as it (never a name that
    # another browser holds, nor one the rule refused: those play as the guest)
    _keep_answers(table, None if slot == GUEST else name, fixed=opts.get("fixed", fixed))
    if "pause" in opts:  # the teacher's link: how long the feedback stays before the bots
        table.ctl.asking.set_pause(opts["pause"])
    if offer_length:
        table.ctl.length_offer = True
        table._refresh()
    from mathcards.site import in_browser, needs_server_html

    has_rooms = game_spec(game_name).rooms
    if has_rooms and in_browser():  # the static site: no rooms
        import ipywidgets as W

        table.w_main.children = (*table.w_main.children[:-1],
                                 W.HTML(needs_server_html(_("Playing with classmates"))),
                                 table.w_main.children[-1])
    elif has_rooms:  # classmates at their own screens (rooms)
        from mathcards.widgets.rooms import RoomPanel

        # the name the room shows: the student's own (a guest's room asks for one)
        shown = "" if slot == GUEST else (hub_login() or clean_name(name))
        panel = RoomPanel(table, name=shown)
        table.rooms = panel
        table.w_main.children = (*table.w_main.children[:-1], panel.widget,
                                 table.w_main.children[-1])
        if opts.get("room"):
            panel._try(panel.join, opts["room"])
        else:
            try:
                panel.rejoin()
            except (OSError, MathCardsError) as exc:  # the room file: never block the page
                from mathcards.rooms import RoomError

                # a room's own words only: an engine's may name a seat's hand
                table.say(_("Your room could not be opened ({reason}).").format(reason=exc)
                          if isinstance(exc, RoomError) else
                          _("Your room could not be opened."), refused=True)
    if problem:
        table.say(_("{problem} A new game has started instead.").format(problem=problem),
                  refused=True)
    elif name_problem:
        table.say(name_problem + ".", refused=True)
    if not preheated and not in_browser():  # (no threads in the browser)
        # A fresh kernel (the pool was used up: often a class arriving at once) loads
        # sympy later, in the background, so the page itself costs no more than a bare
        # one (sympy is most of a fresh page's CPU); an explanation asked for sooner
        # imports it then.
        _warm_up_later()
    return table


def _keep_answers(table: Any, name: str | None, *, fixed: bool) -> None:
    """Every answer at this table is evidence in the progress store (under the student's
    id; a guest's answers stay in the page), and so is a change of level."""
    from mathcards.students import hub_login, hub_student_id, student_id

    asking = table.ctl.asking
    asking.fixed = bool(fixed)
    login = hub_login()
    try:
        asking.student = (hub_student_id(login) if login is not None
                          else student_id(name) if name and name.strip() else "")
    except ValueError:  # a name the page already refused: a guest
        asking.student = ""
    if not asking.student:
        return
    store: list[Any] = []

    def kept() -> Any:
        if not store:
            from mathcards.hub import progress_store

            store.append(progress_store())  # the hub's service on a hub that has one
        return store[0]

    asking.on_answer = lambda answer: kept().record_answer(answer)
    asking.on_level = lambda change: kept().record_level(change)

    def finished(state: Any) -> None:
        """A game played to its end here counts for the class's assignments."""
        from mathcards.errors import MathCardsError
        from mathcards.exercises.progress import FinishedGame

        record = getattr(kept(), "record_game", None)
        if record is None or not asking.student:
            return
        try:
            record(FinishedGame.new(
                student=asking.student, game=table.ctl.game_name, level=asking.level,
                won=bool(set(table.ctl.humans) & set(state.winners))))
        except (OSError, MathCardsError) as exc:  # the game is over either way
            from mathcards.i18n import _

            table.ctl.say(_("Your finished game could not be kept ({reason}).").format(
                reason=exc), refused=True)

    table.ctl.on_game_over = finished
    table._refresh()


_WARM_UP_TIMER: Any = None


def _warm_up_later() -> None:
    """Load sympy WARM_UP_DELAY seconds from now (once per kernel)."""
    global _WARM_UP_TIMER
    if _WARM_UP_TIMER is None:
        import threading

        _WARM_UP_TIMER = threading.Timer(WARM_UP_DELAY, _warm_up, kwargs={"background": False})
        _WARM_UP_TIMER.daemon = True
        _WARM_UP_TIMER.start()


def _warm_up(background: bool) -> None:
    try:
        from mathcards.explain import warm_up

        warm_up(background=background)
    except Exception:  # noqa: BLE001 - only a head start: the explainer imports sympy when it needs it
        pass


def page_kernel_started() -> None:
    """In a Voilà page's kernel: a widget message from the page never sends a traceback
    back (run when this module is imported there, and by a kernel forked from a process
    that had imported it already: ``mathcards.widgets.forkserver``)."""
    if "ipykernel" in sys.modules and _in_voila():
        from mathcards.widgets.guard import install as _guard_widget_messages

        _guard_widget_messages()


page_kernel_started()
