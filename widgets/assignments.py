"""The teacher's assignments (issue 38 items 1 and 2): *Assign work* on *Your classes*
(an exercise set, or a game at a level and a number of games, to a class, with an
opening and a due day) and the page of each assignment (``assignment.ipynb?id=…``):
every student of the class a row, the students to see first on top, the exercise or
skill most missed, who needs help, and the rows as CSV. Teacher-only pages' widgets;
the logic is ``mathcards.assignments``."""

from __future__ import annotations

import base64
import datetime as dt
import weakref
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ipywidgets as W

from mathcards.assignments import (
    GAME,
    SET,
    Assignment,
    StudentProgress,
    for_the_teacher,
    game_progress,
    most_missed,
    most_missed_skill,
    needs_help,
    report_csv,
    set_progress,
)
from mathcards.classes import ClassStore, SchoolClass
from mathcards.errors import MathCardsError
from mathcards.hub_client import assignment_store, progress_store, service_url
from mathcards.i18n import N_, _, ngettext, short_date
from mathcards.widgets.cards import esc, style_html

PAGE = "assignment.ipynb"
STATE_CLASS = {"not started": "mc-not-started", "in progress": "mc-in-progress",
               "done": "mc-done", "done late": "mc-done-late"}
# a row's state in the teacher's words (worded where shown)
STATE_WORDS = {"not started": N_("not started"), "in progress": N_("in progress"),
               "done": N_("done"), "done late": N_("done late")}


def assignable_games() -> tuple[str, ...]:
    """The games a class can be given at a level (``GameSpec.assignable``: the tables that
    ask), in the registry's order."""
    from mathcards.games.registry import game_specs

    return tuple(s.name for s in game_specs() if s.assignable)


def _game_title(name: str) -> str:
    from mathcards.games.registry import find_game

    spec = find_game(name)
    return spec.engine.title if spec is not None else name


def _set_title(folder: str | Path, name: str) -> str:
    from mathcards.widgets.exercises import student_set

    try:
        return str(student_set(folder, name).title)
    except (MathCardsError, OSError, ValueError):
        return name


def describe(assignment: Assignment, folder: str | Path = "exercises") -> str:
    """The assignment in a teacher's words: "Suns to Moons at I count, 3 games"."""
    from mathcards.asking import LEVELS

    if assignment.kind == GAME:
        level = LEVELS.get(assignment.level, "")
        return ngettext("{game} at \u201c{level}\u201d, {n} game",
                        "{game} at \u201c{level}\u201d, {n} games", assignment.games).format(
            game=_game_title(assignment.target), level=_(level) if level else "",
            n=assignment.games)
    return _("the exercise set \u201c{title}\u201d").format(
        title=_set_title(folder, assignment.target))


def student_link(assignment: Assignment) -> str:
    """The page a student of the class opens for it (the class in the address)."""
    from mathcards.widgets.classes import page_link, up

    if assignment.kind == GAME:
        return page_link(  # type: ignore[no-any-return]  # mathcards.widgets: Any to mypy
            up(f"play_{assignment.target}.ipynb"), cls=assignment.class_id,
            extra=f"level={assignment.level}")
    return page_link(  # type: ignore[no-any-return]  # mathcards.widgets: Any to mypy
        up("practice.ipynb"), cls=assignment.class_id, extra=f"set={assignment.target}")


def _dates(assignment: Assignment) -> str:
    return _("from {opens} to {due}").format(opens=short_date(assignment.opens),
                                             due=short_date(assignment.due, year=True))


_PANELS: weakref.WeakSet[AssignPanel] = weakref.WeakSet()


def refresh_assign_panels() -> None:
    """A class was saved on this page: *Assign work* lists it at once."""
    for panel in list(_PANELS):
        panel.refresh_choices()


class AssignPanel:
    """*Assign work*: a set or a game at a level to a class, with its days; the class's
    assignments listed with their pages. A teacher-only page's widget."""

    def __init__(self, folder: str | Path = "exercises") -> None:
        from mathcards.asking import COUNT, LEVELS

        self.folder = folder
        today = dt.date.today()
        self.w_class = W.Dropdown(description=_("Class:"), layout=W.Layout(width="260px"))
        self.w_what = W.Dropdown(description=_("Work:"), layout=W.Layout(width="560px"))
        self.w_level = W.Dropdown(options=[(_(label), key) for key, label in LEVELS.items()],
                                  value=COUNT, description=_("Level:"),
                                  layout=W.Layout(width="360px"))
        self.w_games = W.BoundedIntText(value=3, min=1, max=20, description=_("Games:"),
                                        layout=W.Layout(width="200px"))
        self.w_opens = W.DatePicker(value=today, description=_("Opens:"))
        self.w_due = W.DatePicker(value=today + dt.timedelta(days=7), description=_("Due:"))
        self.w_assign = W.Button(description=_("Assign"), button_style="primary")
        self.w_line = W.HTML()
        self.w_list = W.HTML()
        self.w_assign.on_click(lambda _b: self.assign())
        self.w_what.observe(lambda _c: self._show_game_boxes(), "value")
        self.w_class.observe(lambda _c: self.render(), "value")
        self.w_game_boxes = W.HBox([self.w_level, self.w_games])
        for box, name in ((self.w_class, "class"), (self.w_what, "what"), (self.w_level, "level"),
                          (self.w_games, "games"), (self.w_opens, "opens"),
                          (self.w_due, "due")):
            box.add_class(f"mc-assign-{name}")  # the page's tests find them by it
        self.w_list.add_class("mc-assign-list")
        title, todo = _("Assign work"), _("To do")
        intro = esc(_("Give a class an exercise set or a game at a level, from a day to a due "
                      "day. Its students see it first on the class's landing page ({todo}); "
                      "work done after the due day counts and is marked late. Each "
                      "assignment has its page: who has done it, who is stuck, who has not "
                      "opened it.")).format(todo=f"<i>{esc(todo)}</i>")
        self.widget = W.VBox([
            W.HTML(f"{style_html()}<h3>{esc(title)}</h3><p>{intro}</p>"),
            self.w_class, self.w_what, self.w_game_boxes,
            W.HBox([self.w_opens, self.w_due]), self.w_assign, self.w_line, self.w_list])
        self.widget.add_class("mathcards")
        self.refresh_choices()
        _PANELS.add(self)

    def refresh_choices(self) -> None:
        """The classes and the work to choose from (published sets and the samples)."""
        from mathcards.exercises.store import SetStore
        from mathcards.widgets.exercises import sample_files

        try:
            with ClassStore() as store:
                classes = [c.id for c in store.classes()]
        except (OSError, MathCardsError):
            classes = []
        chosen = self.w_class.value
        self.w_class.options = classes
        self.w_class.value = chosen if chosen in classes else (classes[0] if classes else None)
        try:
            published = SetStore().published()
        except OSError:
            published = []
        sets = sorted(set(published) | set(sample_files(self.folder)))
        self.w_what.options = (
            [(_("Exercise set: {title}").format(title=_set_title(self.folder, n)), (SET, n))
             for n in sets]
            + [(_("Game: {title}").format(title=_game_title(g)), (GAME, g))
               for g in assignable_games()])
        if self.w_what.value is None and self.w_what.options:
            self.w_what.value = self.w_what.options[0][1]
        self._show_game_boxes()
        self.render()

    def _show_game_boxes(self) -> None:
        what = self.w_what.value
        shown = isinstance(what, tuple) and what[0] == GAME
        self.w_game_boxes.layout.display = "" if shown else "none"

    def assign(self) -> Assignment | None:
        what = self.w_what.value
        if not isinstance(what, tuple) or len(what) != 2:
            self._say(_("Choose the work to assign."), refused=True)
            return None
        kind, target = what
        try:
            with assignment_store() as store:
                made: Assignment = store.add(self.w_class.value or "", kind, target,
                                 opens=self.w_opens.value or "", due=self.w_due.value or "",
                                 level=str(self.w_level.value) if kind == GAME else "",
                                 games=int(self.w_games.value) if kind == GAME else 0)
        except (MathCardsError, OSError, ValueError) as exc:
            self._say(str(exc), refused=True)
            return None
        self._say(_("Assigned to class {name}: {work}, {days}.").format(
            name=made.class_id, work=describe(made, self.folder), days=_dates(made)))
        self.render()
        return made

    def _say(self, text: str, *, refused: bool = False) -> None:
        kind = ' class="mc-refused" role="alert"' if refused else ' role="status"'
        self.w_line.value = f"<p{kind}>{esc(text)}</p>"

    def render(self) -> None:
        from mathcards.widgets.classes import page_link, whole_link_html

        cid = self.w_class.value
        if not cid:
            first = _("Make a class above first.")
            self.w_list.value = f"<p>{esc(first)}</p>"
            return
        try:
            with assignment_store() as store:
                mine = store.for_class(cid)
        except (MathCardsError, OSError) as exc:
            self.w_list.value = f'<p class="mc-refused">{esc(exc)}</p>'
            return
        if not mine:
            none = _("Class {name} has no assignment yet.").format(name=cid)
            self.w_list.value = f"<p>{esc(none)}</p>"
            return
        who, theirs = _("who has done it"), _("the students' link:")
        items = "".join(
            f"<li>{esc(describe(a, self.folder))}, {esc(_dates(a))}: "
            f'<a href="{esc(page_link(PAGE, extra=f"id={a.id}"))}" target="_blank">'
            f"{esc(who)}</a>; {esc(theirs)} "
            f"{whole_link_html(student_link(a))}</li>" for a in mine)
        heading = _("Class {name}'s assignments").format(name=cid)
        self.w_list.value = f"<h4>{esc(heading)}</h4><ul>{items}</ul>"


def assign_panel(folder: str | Path = "exercises") -> Any:
    """The *Assign work* panel's widget (see ``AssignPanel``)."""
    return AssignPanel(folder).widget


# --- the student's "To do" on the class's landing page ------------------------------------
# a row's state in the student's words (worded where shown; the English names the CSS class)
TODO_WORDS = {"not started": N_("to do"), "in progress": N_("started"), "done": N_("done"),
              "done late": N_("done, late")}


def todo_html(cls: str, name: str, folder: str | Path = "exercises",
              today: dt.date | None = None) -> str:
    """The class's open assignments for this student, soonest due first, each with its
    link (the student's name and class in it) and where the student stands: to do,
    started, done, done late, or late (past its due day and not done). "" when the class
    has none open.

    On a hub with the MathCards service (``name`` is the hub login) the assignments and
    the student's progress are the service's: the teacher's, of the classes whose list
    has the student (``cls`` "": all of them)."""
    from mathcards.classes import find_class
    from mathcards.students import StudentNameError, hub_student_id, student_id

    today = dt.date.today() if today is None else today
    on_hub = service_url() is not None
    try:
        student = hub_student_id(name) if on_hub else student_id(name)
        with assignment_store() as store:
            listed = store.for_class(cls) if cls or not on_hub else store.all()
        open_now = [a for a in listed if a.open_on(today)]
    except (StudentNameError, MathCardsError, OSError):
        return ""
    if not open_now or (not on_hub and find_class(cls) is None):
        return ""
    try:  # one store for all of them (each open of it makes sure of its tables)
        store = progress_store()
    except (MathCardsError, OSError):
        store = None
    items = []
    for assignment in open_now:
        try:
            row = _own_row(store, assignment, student, folder, today) if store else None
        except (MathCardsError, OSError):
            row = None
        state = TODO_WORDS[row.state] if row is not None else TODO_WORDS["not started"]
        late = row is not None and row.overdue
        link = student_link(assignment) + ("" if on_hub else f"&student={quote(name)}")
        due = (_("due today") if assignment.due == today else
               _("due {day}").format(day=short_date(assignment.due)))
        shown = _("late") if late else _(state)
        done = (_(" ({done} of {needed})").format(done=row.done, needed=row.needed)
                if row is not None and row.done else "")
        items.append(
            f'<li class="mc-todo-{"late" if late else state.replace(", ", "-")}">'
            f'<a href="{esc(link)}">{esc(describe(assignment, folder))}</a>: '
            f"<b>{esc(shown)}</b>{esc(done)}, {esc(due)}</li>")
    if store is not None:
        store.close()
    heading = _("To do")
    return (f'<section class="mc-todo" aria-label="{esc(heading)}"><h3>{esc(heading)}</h3>'
            f'<ul>{"".join(items)}</ul></section>')


def _own_row(store: Any, assignment: Assignment, student: str, folder: str | Path,
             today: dt.date) -> StudentProgress:
    """The student's own row for an assignment, from their own records only."""
    from mathcards.widgets.exercises import student_set

    if assignment.kind == SET:
        exercises = [e.id for e in student_set(folder, assignment.target)]
        rows = set_progress(assignment, [student], exercises, store.attempts(student=student),
                            store.solutions(student=student), today)
    else:
        rows = game_progress(assignment, [student], store.finished_games(student=student),
                             store.answers(student=student, game=assignment.target), today)
    return rows[0]


# --- one assignment's page ----------------------------------------------------------------
def assignment_rows(assignment: Assignment, school_class: SchoolClass,
                    folder: str | Path = "exercises", source: Any = None,
                    today: dt.date | None = None) -> tuple[list[StudentProgress], str]:
    """Every student of the class a row (the students to see first on top), and the
    exercise or skill most missed in words ("" when none), from the progress the
    dashboard reads."""
    from mathcards.exercises.results import ResultsReader, read_answers, read_finished_games
    from mathcards.widgets.exercises import _dashboard_source, student_set

    where, _shown, readable = _dashboard_source(source)
    students = [m.name.casefold() for m in school_class.members]
    if assignment.kind == SET:
        attempts, solutions = ResultsReader(where).read() if readable else ([], [])
        try:
            exercises = [e.id for e in student_set(folder, assignment.target)]
        except (MathCardsError, OSError, ValueError):
            exercises = sorted({a.exercise for a in attempts
                                if a.set_id == assignment.target})
        rows = set_progress(assignment, students, exercises, attempts, solutions, today)
        missed, count = most_missed(assignment, attempts, students)
        words = (ngettext("exercise {exercise}, missed at the first try by {n}",
                          "exercise {exercise}, missed at the first try by {n}", count).format(
            exercise=missed, n=count) if count else "")
    else:
        finished = read_finished_games(where) if readable else []
        answers = read_answers(where) if readable else []
        rows = game_progress(assignment, students, finished, answers, today)
        skill, count = most_missed_skill(assignment, answers, students)
        if count:
            from mathcards.exercises.skill_grid import skill_words

            words = ngettext("{skill}, missed at the first try {n} time",
                             "{skill}, missed at the first try {n} times", count).format(
                skill=skill_words(skill), n=count)
        else:
            words = ""
    return for_the_teacher(rows), words


def assignment_html(assignment: Assignment, school_class: SchoolClass,
                    rows: list[StudentProgress], missed: str,
                    folder: str | Path = "exercises") -> str:
    from mathcards.widgets.student_page import student_link_html

    names = {m.name.casefold(): m.name for m in school_class.members}
    counts = {s: sum(r.state == s for r in rows) for s in STATE_CLASS}
    summary = ", ".join(f"{n} {_(STATE_WORDS[s])}" for s, n in counts.items() if n)
    overdue, needs, never = _(" (overdue)"), _("needs help"), _("never")

    def of(done: int, needed: int) -> str:
        return _("{done} of {needed}").format(done=done, needed=needed)

    body = "".join(
        f'<tr class="{STATE_CLASS[r.state]}"><th scope="row">'
        f"{student_link_html(names.get(r.student, r.student))}</th>"
        f"<td>{esc(_(STATE_WORDS[r.state]))}{esc(overdue) if r.overdue else ''}</td>"
        f"<td>{esc(of(r.done, r.needed))}</td>"
        f"<td>{esc(of(r.first_try, r.questions)) if r.questions else '–'}</td>"
        f"<td>{esc(needs) if needs_help(r) else ''}</td>"
        f"<td>{esc(r.last_at[:16].replace('T', ' ') or never)}</td></tr>" for r in rows)
    done_word = _("games finished") if assignment.kind == GAME else _("exercises finished")
    helped = [names.get(r.student, r.student) for r in rows if needs_help(r)]
    line = _("Class {name}, {days}.").format(name=assignment.class_id, days=_dates(assignment))
    most_label, who_label = _("Most missed"), _("Who needs help")
    most = esc(_("{label}: {missed}.")).format(label=f"<b>{esc(most_label)}</b>",
                                               missed=esc(missed))
    who = esc(_("{label} (under 60% right at the first try): {names}.")).format(
        label=f"<b>{esc(who_label)}</b>", names=esc(", ".join(helped)))
    heads = [_("student"), _("state"), done_word, _("right at the first try"), "",
             _("last work")]
    return (
        f"{style_html()}<h3>{esc(describe(assignment, folder))}</h3>"
        f"<p>{esc(line)} {esc(summary)}.</p>"
        + (f"<p>{most}</p>" if missed else "")
        + (f"<p>{who}</p>" if helped else "")
        + '<table class="mc-progress mc-assignment"><tr>'
        + "".join(f"<th>{esc(h)}</th>" for h in heads) + f"</tr>{body}</table>")


class AssignmentPage:
    """``assignment.ipynb?id=…``: one assignment's follow-up, read again on *Refresh*."""

    def __init__(self, aid: str, folder: str | Path = "exercises", source: Any = None) -> None:
        self.aid, self.folder, self.source = aid, folder, source
        self.w_out = W.HTML()
        self.w_csv = W.HTML()
        self.w_refresh = W.Button(description=_("Refresh"))
        self.w_refresh.on_click(lambda _b: self.render())
        self.widget = W.VBox([self.w_out, W.HBox([self.w_refresh, self.w_csv])])
        self.widget.add_class("mathcards")
        self.render()

    def render(self) -> None:
        if not self.aid:
            self._list_all()
            return
        try:
            with assignment_store() as store:
                assignment = store.get(self.aid)
            with ClassStore() as classes:
                school_class = (classes.get(assignment.class_id)
                                if assignment is not None else None)
        except (MathCardsError, OSError) as exc:
            self.w_out.value = f'<p class="mc-refused">{esc(exc)}</p>'
            return
        if assignment is None or school_class is None:
            page = _("Your classes")
            gone = esc(_("There is no such assignment (it may have been removed): open it "
                         "from {page}.")).format(page=f"<i>{esc(page)}</i>")
            self.w_out.value = (f'{style_html()}<p class="mc-refused" role="status">{gone}'
                                "</p>")
            self.w_csv.value = ""
            return
        try:
            rows, missed = assignment_rows(assignment, school_class, self.folder, self.source)
        except (MathCardsError, OSError) as exc:
            unread = _("the results cannot be read ({reason})").format(reason=exc)
            self.w_out.value = f'<p class="mc-refused">{esc(unread)}</p>'
            return
        self.w_out.value = assignment_html(assignment, school_class, rows, missed, self.folder)
        names = {m.name.casefold(): m.name for m in school_class.members}
        data = base64.b64encode(report_csv(rows, names).encode("utf-8")).decode("ascii")
        download = _("Download the rows (CSV)")
        self.w_csv.value = (f'<a download="assignment-{esc(assignment.id)}.csv" '
                            f'href="data:text/csv;charset=utf-8;base64,{data}">'
                            f"{esc(download)}</a>")


    def _list_all(self) -> None:
        """Without an assignment in the address: every class's assignments, each a link."""
        from mathcards.widgets.classes import page_link

        try:
            with assignment_store() as store:
                every = store.all()
        except (MathCardsError, OSError) as exc:
            self.w_out.value = f'<p class="mc-refused">{esc(exc)}</p>'
            return
        class_of = _("Class {name}:")
        items = "".join(
            f"<li>{esc(class_of.format(name=a.class_id))} "
            f'<a href="{esc(page_link(PAGE, extra=f"id={a.id}"))}">'
            f"{esc(describe(a, self.folder))}</a>, {esc(_dates(a))}</li>" for a in every)
        title, classes = _("Every class's assignments"), _("Your classes")
        none = esc(_("No assignment yet: assign work on {page}.")).format(
            page=f"<i>{esc(classes)}</i>")
        self.w_out.value = (f"{style_html()}<h3>{esc(title)}</h3>"
                            + (f"<ul>{items}</ul>" if items else f"<p>{none}</p>"))
        self.w_csv.value = ""


def assignment_page(query: str | None = None, folder: str | Path = "exercises") -> Any:
    """The assignment's page for the address's ``?id=``."""
    from urllib.parse import parse_qs

    from mathcards.widgets import _page_query

    text = _page_query() if query is None else query
    aid = (parse_qs(text[:500]).get("id") or [""])[0][:20]
    return AssignmentPage(aid, folder).widget


__all__ = ["AssignPanel", "AssignmentPage", "assign_panel", "assignment_page",
           "assignment_rows", "describe", "student_link"]
