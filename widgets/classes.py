"""Classes and names on the pages: the landing page's name picker, the name prompt of a page
opened without a name, and the teacher's *Classes* panel.

A student never edits an address. The landing page ``index.ipynb?class=7b`` shows
the class's names as buttons (or asks for the student's code when the class has
codes); a name picked or typed is checked by the one rule of names
(``mathcards.students.clean_name``) and claimed for this browser
(``mathcards.names``), and only then does the page greet the student and carry
``student=`` and ``class=`` on every link (the page template's script reads them
from the greeting, ``data-mc-student``). A play page or the practice page opened
without a name asks for one the same way, then starts for that name: nothing is
played or answered as the guest unless the student is one.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote

import ipywidgets as W

from mathcards.classes import (
    ClassError,
    ClassStore,
    SchoolClass,
    code_cards_html,
    find_class,
    member_for_code,
)
from mathcards.errors import MathCardsError
from mathcards.i18n import N_, _, ngettext
from mathcards.students import StudentNameError, clean_name, hub_login
from mathcards.widgets.cards import esc, style_html

__all__ = ["ClassesPanel", "NamePicker", "TournamentPanel", "ask_name", "ask_name_for",
           "classes_panel", "landing", "page_link", "site_base", "take_name", "tournament_panel"]

LANDING = "index.ipynb"
PRACTICE = "practice.ipynb"
# the student's side in the page's language: worded where shown (``_(WHO)``)
WHO = N_("Who are you? Your name keeps your games and answers yours.")
# a wrong code and the code of a name another browser holds: one line, nothing confirmed
NOT_A_CODE = N_("that is not a code of this class, or its name is in use in another "
                "browser: check the letters and digits your teacher gave you, or ask your "
                "teacher")
# The landing page's own rules (issue 36 item 12): the name picker and the greeting use
# these of the tables' style sheet (``widgets/static/mathcards.css``: the font, a refusal's
# colours, the keyboard's focus ring, rows that wrap) and the greeting's Practice link;
# the whole sheet (about 24 KB, the tables' cards) is not sent with the landing page.
LANDING_CSS = """<style>
.mathcards { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1b1b;
  max-width: 100%; }
.mathcards .widget-html-content { line-height: 1.35; }
.mathcards .mc-refused { background: #fff1e6; border: 2px solid #c25400; color: #6b2e00;
  padding: 4px 8px; border-radius: 6px; }
.mathcards .mc-hide { display: none !important; }
.mathcards button:focus-visible, .mathcards input:focus-visible {
  outline: 3px solid #1a56b8 !important; outline-offset: 2px; box-shadow: 0 0 0 5px #fff; }
.widget-hbox:has(> .widget-text) { flex-wrap: wrap; }
.mathcards .mc-pick-name.widget-button { width: auto; max-width: 100%; flex: 0 0 auto; }
.mathcards a.mc-practice { display: inline-block; padding: 6px 14px; border-radius: 6px;
  border: 2px solid #1976d2; color: #1565c0; font-weight: 600; text-decoration: none; }
.mathcards a.mc-practice:focus-visible, .mathcards a.mc-practice:hover {
  outline: 3px solid #ffb300; outline-offset: 2px; }
</style>"""


def take_name(name: Any, browser: str | None, *, by_code: bool = False) -> tuple[str, str]:
    """(the name as shown, "") when this browser may use ``name``; ("", the problem in one
    line) when the one rule of names refuses it or another browser holds it. The same words
    on every page: the rule's (``clean_name``) and the claim's (``names.claim``)."""
    try:
        shown = clean_name(name)
    except StudentNameError as exc:
        return "", str(exc)
    if browser is not None:
        from mathcards.names import claim

        problem = claim(shown, browser, by_code=by_code)
        if problem:
            return "", problem
    return shown, ""


# "../" on a page of a language's folder (lessons/es/): the pages it has no copy of (the
# practice page, the play pages) are one folder up; its own landing page is beside it
_UP = [""]


def pages_up() -> None:
    """This page is in a language's folder (``lessons/es/index.ipynb``, its language cell
    says so): the practice and play pages it links to are one folder up."""
    _UP[0] = "../"


def up(page: str) -> str:
    """``page`` (a page of lessons/) as this page reaches it: ``../practice.ipynb`` from a
    page in a language's folder."""
    return _UP[0] + page


def page_link(page: str, *, student: str = "", cls: str = "", extra: str = "") -> str:
    """A link (relative to the lessons) to ``page`` carrying ``extra`` (``set=x&level=show``),
    the class and the student: ``practice.ipynb?set=x&class=7b&student=Maya``."""
    parts = [extra] if extra else []
    if cls:
        parts.append(f"class={quote(cls)}")
    if student:
        parts.append(f"student={quote(student)}")
    return page + ("?" + "&".join(parts) if parts else "")


def site_base() -> str:
    """The address of the lessons' folder as the visitor's browser reached this page
    (``http://school:8866/voila/render/``), from what Voilà tells the kernel; "" outside
    Voilà. Links made from it are whole links a teacher can paste anywhere."""
    import os
    from urllib.parse import urlsplit

    from mathcards.widgets import _in_voila, _page_query

    if not _in_voila():
        return ""
    _page_query()  # a preheated kernel learns the visitor's request here
    request = os.environ.get("VOILA_REQUEST_URL", "")
    host = os.environ.get("SERVER_NAME", "")
    port = os.environ.get("SERVER_PORT", "")
    path = os.environ.get("SCRIPT_NAME", "")
    if request:
        parts = urlsplit(request)
        scheme, netloc, path = parts.scheme, parts.netloc, parts.path
    elif host:
        scheme = "https" if os.environ.get("VOILA_WS_PROTOCOL") == "wss" else "http"
        netloc = f"{host}:{port}" if port else host
    else:
        return ""
    folder = path.rsplit("/", 1)[0] + "/" if "/" in path else "/"
    return f"{scheme}://{netloc}{folder}"


def whole_link_html(link: str, label: str = "") -> str:
    """A link the teacher copies: the whole address as its text (the page's script makes
    the text the browser's own address of the link when the kernel cannot know it)."""
    address = site_base() + link
    return (f'<a class="mc-whole" href="{esc(address)}" target="_blank">'
            f"{esc(label or address)}</a>")


def _query(query: str | None) -> dict[str, str]:
    from mathcards.widgets import _page_query

    params = parse_qs((_page_query() if query is None else query)[:500], keep_blank_values=True)
    return {k: v[0][:200] for k, v in params.items() if k in ("class", "student", "code")}


def _browser() -> str | None:
    from mathcards.widgets import page_browser

    return page_browser()  # type: ignore[no-any-return]  # mathcards.widgets: Any to mypy


class NamePicker:
    """The class's names as buttons (a class without codes), a box for the student's code
    (a class with codes) or a box for a typed name (no class): ``on_name(name)`` is
    called with the name once it is checked and this browser's."""

    def __init__(self, on_name: Callable[[str], None], *, school_class: SchoolClass | None,
                 browser: str | None, heading: str = WHO) -> None:
        self.on_name, self.school_class, self.browser = on_name, school_class, browser
        self.w_line = W.HTML()
        rows: list[W.Widget] = [W.HTML(f'<p class="mc-ask-name">{esc(_(heading))}</p>')]
        self.w_names: list[W.Button] = []
        self.w_text = W.Text(layout=W.Layout(width="220px"))
        self.w_go = W.Button(description=_("Start"), button_style="primary")
        if school_class is not None and not school_class.codes:
            for name in school_class.names:
                button = W.Button(description=name, tooltip=_("I am {name}").format(name=name))
                button.add_class("mc-pick-name")
                button.on_click(lambda _b, n=name: self.choose(n))
                self.w_names.append(button)
            rows.append(W.HBox(self.w_names, layout=W.Layout(flex_flow="row wrap")))
            pick = _("Class {name}: pick your name. Not on the list? Ask your teacher.").format(
                name=school_class.id)
            rows.append(W.HTML(f"<p>{esc(pick)}</p>"))
        else:
            coded = school_class is not None
            self.w_text.description = _("Your code:") if coded else _("Your name:")
            self.w_text.placeholder = _("the code from your teacher") if coded else "ana"
            self.w_text.continuous_update = False
            self.w_go.on_click(lambda _b: self.submit())
            rows.append(W.HBox([self.w_text, self.w_go]))
        rows.append(self.w_line)
        self.widget = W.VBox(rows)
        self.widget.add_class("mathcards")
        self.widget.add_class("mc-name-picker")

    def refuse(self, text: str) -> None:
        self.w_line.value = f'<p class="mc-refused" role="alert">{esc(text)}</p>'

    def choose(self, name: Any, *, by_code: bool = False) -> bool:
        """Use ``name`` (a name button, or a typed name): True when the page starts for it."""
        shown, problem = take_name(name, self.browser, by_code=by_code)
        if problem:
            self.refuse(problem)
            return False
        self.w_line.value = ""
        self.on_name(shown)
        return True

    def submit(self, text: Any = None) -> bool:
        """The typed box: a code in a class with codes, else a name."""
        typed = self.w_text.value if text is None else text
        if self.school_class is not None and self.school_class.codes:
            return self.submit_code(self.school_class, typed)
        return self.choose(str(typed)[:200] if isinstance(typed, str) else typed)

    def submit_code(self, school_class: SchoolClass, typed: Any) -> bool:
        """A typed student code: the page starts for its name when the code is right and
        the name is not another browser's. Every try counts in the wrong-codes limit of
        room codes (per browser, else page, and per address), asked before the code is
        looked at; a wrong code and the code of a name in use elsewhere get the same line,
        so nothing a page sees confirms a code."""
        from mathcards import storage
        from mathcards.names import UNCHECKED
        from mathcards.rooms import RoomError, RoomStore
        from mathcards.visitors import page_address, page_visitor

        started: list[str] = []
        problems: list[str] = []

        def right() -> bool:
            member = member_for_code(school_class, typed)
            if member is None:
                return False
            shown, problem = take_name(member.name, self.browser, by_code=True)
            if problem == _(UNCHECKED):  # the names file, not the code: counted as no try
                problems.append(problem)
                return True
            if not problem:
                started.append(shown)
            return not problem

        try:
            store = RoomStore()
            try:
                store.try_code(self.browser or page_visitor(), page_address(), right,
                               what="codes")
            finally:
                store.close()
        except RoomError as exc:
            self.refuse(str(exc))
            return False
        except storage.STORE_ERRORS:
            problems.append(_(UNCHECKED))
        if problems or not started:
            self.refuse(problems[0] if problems else _(NOT_A_CODE))
            return False
        self.w_line.value = ""
        self.on_name(started[0])
        return True


def ask_name(start: Callable[[str], Any], *, school_class: SchoolClass | None,
             browser: str | None, problem: str = "") -> W.VBox:
    """The small name prompt of a page opened without a name (or with one it cannot use):
    when a name is picked, the box holds what ``start(name)`` builds instead."""
    box = W.VBox()
    box.add_class("mathcards")

    def started(name: str) -> None:
        box.children = (start(name),)
        box.student = name

    picker = NamePicker(started, school_class=school_class, browser=browser)
    if problem:
        picker.refuse(problem)
    box.children = (W.HTML(style_html()), picker.widget)
    box.picker = picker
    box.student = ""
    return box


def ask_name_for(start: Callable[[str], Any], query: str, browser: str | None,
                 problem: str = "") -> W.VBox:
    """``ask_name`` for a page whose address is ``query``: the class's names when it
    carries a known ``class=``, else a box for a typed name."""
    cid = _query(query).get("class", "")
    return ask_name(_kept(start), school_class=find_class(cid) if cid else None,
                    browser=browser, problem=problem)


def _kept(start: Callable[[str], Any]) -> Callable[[str], Any]:
    """``start`` that first keeps the name in the browser on the static site (the page's
    address does not reach its kernel: every page of the site reads the kept name)."""
    from mathcards.site import in_browser, keep_name

    def started(name: str) -> Any:
        if in_browser():
            keep_name(name)
        return start(name)

    return started


def greeting_html(name: str, cls: str) -> str:
    """The landing page's greeting once the student is known: the page's script carries
    ``data-mc-student``/``data-mc-class`` on every link (and into the address)."""
    again = page_link(LANDING, cls=cls)
    practice = page_link(up(PRACTICE), student=name, cls=cls)
    # the words escaped, then the name in bold put in
    playing = (esc(_("Playing as {name} (class {cls})")) if cls else
               esc(_("Playing as {name}"))).format(name=f"<b>{esc(name)}</b>", cls=esc(cls))
    not_you, sets = _("not you?"), _("Practice: exercise sets")
    return (f'<p class="mc-hello" data-mc-student="{esc(name)}" data-mc-class="{esc(cls)}">'
            f'{playing} · <a href="{esc(again)}" data-no-student="1">{esc(not_you)}</a></p>'
            f'<p><a class="mc-button mc-practice" href="{esc(practice)}">{esc(sets)}</a></p>')


def landing(query: str | None = None) -> W.VBox:
    """The landing page's name cell: with ``?class=7b`` the class's names as buttons (or a
    box for the student's code), otherwise a box for a typed name; with ``?student=`` (a
    link back from another page) the name is checked and claimed again. Once the student
    is known it greets them and every link of the page carries their name and class."""
    params = _query(query)
    login = hub_login()
    box = W.VBox()
    box.add_class("mathcards")
    box.add_class("mc-landing")
    school_class = find_class(params.get("class", "")) if params.get("class") else None
    cls = school_class.id if school_class is not None else ""
    style = W.HTML(LANDING_CSS)  # the picker's rules, not the tables' whole sheet

    def greet(name: str) -> None:
        from mathcards.widgets.assignments import todo_html

        box.student = name
        # the greeting, then the class's work for the student (issue 38), before the games
        box.w_hello.value = greeting_html(name, cls) + (
            todo_html(cls, name) if cls else "")
        box.children = (style, box.w_hello)

    box.w_hello = W.HTML()
    box.student = ""
    if login is not None:  # a hub: the student is the login; the links need no name
        from mathcards.hub import service_url
        from mathcards.widgets.assignments import todo_html

        box.student = login
        # the work of the student's classes, from the hub's service (issue 38)
        todo = todo_html(params.get("class", "")[:20], login) if service_url() else ""
        playing = esc(_("Playing as {name}")).format(name=f"<b>{esc(login)}</b>")
        sets = _("Practice: exercise sets")
        box.w_hello.value = (
            f'<p class="mc-hello">{playing}</p><p><a class="mc-button '
            f'mc-practice" href="{up(PRACTICE)}">{esc(sets)}</a></p>{todo}')
        box.children = (style, box.w_hello)
        return box
    browser = _browser()
    picker = NamePicker(_kept(greet), school_class=school_class, browser=browser)
    box.picker = picker
    box.children = (style, picker.widget)
    note = ""
    if params.get("class") and school_class is None:
        note = _("there is no class {name!r} on this server: type your name, or ask your "
                 "teacher for the class's link").format(name=params["class"][:20])
    if params.get("code") and school_class is not None and school_class.codes:
        picker.submit(params["code"])
    elif params.get("student"):
        picker.choose(params["student"])
    elif note:
        picker.refuse(note)
    return box


# --- the teacher's side ------------------------------------------------------------------
class ClassesPanel:
    """The teacher's *Classes*: make a class (its id and its names, one a line; codes if
    wanted), see each class's link for the landing page, its codes to print and, if
    wanted, a whole link per student. A teacher-only page's widget."""

    def __init__(self) -> None:
        self.w_id = W.Text(description=_("Class:"), placeholder="7b",
                           layout=W.Layout(width="220px"))
        self.w_names = W.Textarea(description=_("Names:"), placeholder="Ana\nBo\nMaya",
                                  layout=W.Layout(width="420px", height="160px"))
        self.w_codes = W.Checkbox(value=False, indent=False,
                                  description=_("A code for each student (to print)"))
        self.w_new = W.Checkbox(value=False, indent=False,
                                description=_("New codes for everyone (print them again)"))
        self.w_save = W.Button(description=_("Save the class"), button_style="primary")
        self.w_each = W.Checkbox(value=False, indent=False,
                                 description=_("Show a link for each student"))
        self.w_line = W.HTML()
        self.w_list = W.HTML()
        self.w_save.on_click(lambda _b: self.save())
        self.w_each.observe(lambda _c: self.render(), "value")
        title = _("Classes")
        intro = _("Give a class its names (one a line); each student then picks their name "
                  "on the class's page, and every link they follow carries it.")
        self.widget = W.VBox([
            W.HTML(f"{style_html()}<h3>{esc(title)}</h3><p>{esc(intro)}</p>"),
            self.w_id, self.w_names, self.w_codes, self.w_new, self.w_save, self.w_line,
            self.w_each, self.w_list])
        self.widget.add_class("mathcards")
        self.render()

    def save(self, cid: Any = None, names: Any = None, codes: bool | None = None,
             new_codes: bool | None = None) -> bool:
        cid = self.w_id.value if cid is None else cid
        names = self.w_names.value if names is None else names
        codes = bool(self.w_codes.value) if codes is None else codes
        new_codes = bool(self.w_new.value) if new_codes is None else new_codes
        try:
            with ClassStore() as store:
                saved = store.save(str(cid)[:40], str(names), codes=codes, new_codes=new_codes)
        except (MathCardsError, OSError) as exc:
            self.w_line.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return False
        n = len(saved.members)
        done = ngettext("Class {name} saved with {n} name.", "Class {name} saved with {n} names.",
                        n).format(name=saved.id, n=n)
        self.w_line.value = f'<p role="status">{esc(done)}</p>'
        from mathcards.hub_client import HubAssignmentStore, service_url

        if service_url():  # a hub: the class's work follows its new list (issue 38)
            try:
                HubAssignmentStore().class_list(saved.id, saved.names)
            except MathCardsError as exc:
                late = _("The class's work does not know its new list yet ({reason}): save "
                         "it again in a minute.").format(reason=exc)
                self.w_line.value += f'<p class="mc-refused" role="alert">{esc(late)}</p>'
        self.render()
        refresh_class_pickers()  # the tournament rooms' class list on the same page
        from mathcards.widgets.assignments import refresh_assign_panels

        refresh_assign_panels()  # and Assign work's
        return True

    def render(self) -> None:
        try:
            with ClassStore() as store:
                classes = store.classes()
        except (OSError, MathCardsError) as exc:
            unread = _("the classes cannot be read ({reason})").format(reason=exc)
            self.w_list.value = f'<p class="mc-refused">{esc(unread)}</p>'
            return
        none = _("No class yet.")
        self.w_list.value = "".join(self.class_html(c) for c in classes) or f"<p>{esc(none)}</p>"

    def class_html(self, school_class: SchoolClass) -> str:
        cls = school_class.id
        rows = []
        from mathcards.widgets.student_page import student_link_html

        for member in school_class.members:
            cells = [student_link_html(member.name)]  # the student's page
            if school_class.codes:
                cells.append(f"<code>{esc(member.code)}</code>")
            if self.w_each.value:
                own = (page_link(LANDING, cls=cls) + f"&code={member.code}"
                       if school_class.codes else page_link(LANDING, student=member.name, cls=cls))
                cells.append(whole_link_html(own))
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        columns = [_("name")] + ([_("code")] if school_class.codes else []) + (
            [_("the student's own link")] if self.w_each.value else [])
        head = "".join(f"<th>{esc(c)}</th>" for c in columns)
        how = (_("each student types their code there") if school_class.codes
               else _("each student picks their name there"))
        short_words = _("Some codes here have 3 characters, from an earlier release: they "
                        "still work, but are easier to guess. To print longer ones, type the "
                        "class and its names above, tick {box} and save.").format(
                            box="\0")
        box = _("New codes for everyone")
        short = ('<p class="mc-note">' + esc(short_words).replace(
            "\0", f"<i>{esc(box)}</i>") + "</p>" if school_class.short_codes else "")
        cards = ""
        if school_class.codes:
            import base64

            page = code_cards_html(school_class, site_base() + page_link(LANDING, cls=cls))
            data = base64.b64encode(page.encode("utf-8")).decode("ascii")
            to_print = _("Code cards to print")
            what = _("(one page: each student's name and code in large type; open it and "
                     "print it)")
            cards = (f'<p><a class="mc-code-cards" download="codes-{esc(cls)}.html" '
                     f'href="data:text/html;charset=utf-8;base64,{data}">{esc(to_print)}'
                     f"</a> {esc(what)}</p>")
        heading = _("Class {name}").format(name=cls)
        link_words = _("The class's link ({how}):").format(how=how)
        return (f'<section class="mc-class" data-class="{esc(cls)}"><h4>{esc(heading)}</h4>'
                f"<p>{esc(link_words)} "
                f"{whole_link_html(page_link(LANDING, cls=cls))}</p>{short}{cards}"
                f'<table class="mc-progress"><tr>{head}</tr>{"".join(rows)}</table></section>')


def classes_panel() -> Any:
    """The *Classes* panel's widget (see ``ClassesPanel``)."""
    return ClassesPanel().widget


class TournamentPanel:
    """The teacher's *Rooms for a tournament*: rooms made ahead for a game, a number of
    players each, with each room's code to read out and its whole link to hand to the
    students who play in it (the first student in a room starts it). A teacher-only page's
    widget; the same rooms as ``python -m mathcards rooms``."""

    def __init__(self) -> None:
        from mathcards.games.registry import game_specs

        specs = [s for s in game_specs() if s.rooms]
        self.w_game = W.Dropdown(options=[(s.engine.title, s.name) for s in specs],
                                 value=next((s.name for s in specs if s.tournament_default),
                                            specs[0].name), description=_("Game:"))
        self.w_players = W.BoundedIntText(value=2, min=2, max=8, description=_("Players:"),
                                          layout=W.Layout(width="160px"))
        self.w_count = W.BoundedIntText(value=15, min=1, max=100, description=_("Rooms:"),
                                        layout=W.Layout(width="160px"))
        self.w_class = class_picker(_("no class: each student types a name"), _("Class:"))
        self.w_bots = W.Checkbox(value=True, indent=False, description=(
            _("A bot takes the seat of a student gone for 2 minutes")))
        self.w_make = W.Button(description=_("Make the rooms"), button_style="primary")
        self.w_out = W.HTML()
        self.w_make.on_click(lambda _b: self.make())
        title, panel = _("Rooms for a tournament"), _("Play with classmates")
        intro = esc(_("Rooms made ahead: read out a room's code (students type it in {panel}) "
                      "or hand out its link (with a class, its students pick their names); "
                      "the first student in a room starts its game.")).format(
            panel=f"<i>{esc(panel)}</i>")
        self.widget = W.VBox([
            W.HTML(f"{style_html()}<h3>{esc(title)}</h3><p>{intro}</p>"),
            W.HBox([self.w_game, self.w_players, self.w_count]), self.w_class, self.w_bots,
            self.w_make,
            self.w_out])
        self.widget.add_class("mathcards")

    def make(self) -> list[str]:
        from mathcards.hub_client import teacher_rooms

        game = str(self.w_game.value)
        try:
            codes = teacher_rooms(game, int(self.w_players.value), int(self.w_count.value),
                                  leave_after=120.0 if self.w_bots.value else None)
        except (MathCardsError, OSError, ValueError, TypeError) as exc:
            failed = _("The rooms were not made: {reason}").format(reason=exc)
            self.w_out.value = f'<p class="mc-refused" role="alert">{esc(failed)}</p>'
            return []
        cls = str(self.w_class.value or "")  # a class's link: its students pick their names
        rows = "".join(
            f"<tr><td><code>{esc(code)}</code></td><td>"
            f"{whole_link_html(page_link(f'play_{game}.ipynb', cls=cls, extra=f'room={code}'))}"
            "</td></tr>" for code in codes)
        made = ngettext("{n} room made for {players} players each.",
                        "{n} rooms made for {players} players each.", len(codes)).format(
            n=len(codes), players=int(self.w_players.value))
        code_head, link_head = _("room code"), _("its link")
        self.w_out.value = (
            f'<p role="status">{esc(made)}</p><table class="mc-progress '
            f'mc-rooms-made"><tr><th>{esc(code_head)}</th><th>{esc(link_head)}</th></tr>'
            f"{rows}</table>")
        return codes


def tournament_panel() -> Any:
    """The *Rooms for a tournament* panel's widget (see ``TournamentPanel``)."""
    return TournamentPanel().widget


def class_choices() -> list[tuple[str, str]]:
    """(label, id) of every class, for the class link builder; [] when none or unreadable."""
    try:
        with ClassStore() as store:
            return [(ngettext("Class {name} ({n} name)", "Class {name} ({n} names)",
                              len(c.members)).format(name=c.id, n=len(c.members)), c.id)
                    for c in store.classes()]
    except (OSError, ClassError, MathCardsError):
        return []


# the class pickers of this kernel's pages: a class saved on the page appears in each
_CLASS_PICKERS: weakref.WeakSet[W.Dropdown] = weakref.WeakSet()


def class_picker(no_class: str, description: str) -> W.Dropdown:
    """A dropdown of the classes (first ``no_class``: no class), kept up to date when a
    class is saved on this page (``refresh_class_pickers``)."""
    # as wide as its longest choice ("No class: students type their names" was cut at
    # ipywidgets' fixed 300 px), its label whole
    picker = W.Dropdown(options=[(no_class, ""), *class_choices()], description=description,
                        layout=W.Layout(width="max-content", max_width="100%"),
                        style={"description_width": "initial"})
    picker.no_class = no_class
    _CLASS_PICKERS.add(picker)
    return picker


def refresh_class_pickers() -> None:
    """Read the classes again into every class picker (its choice kept when it still
    exists)."""
    choices = class_choices()
    for picker in list(_CLASS_PICKERS):
        kept = picker.value
        picker.options = [(picker.no_class, ""), *choices]
        picker.value = kept if kept in {cid for _label, cid in choices} else ""
