"""One student's page for the teacher (issue 38 item 3): ``student.ipynb?who=ana``,
everything the student did, newest first (``mathcards.student_history``), the levels they
played at and their row of the skill grid. A teacher-only page's widget, reached from a
name on *Your classes*, an assignment's page or the class results."""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from mathcards.errors import MathCardsError
from mathcards.i18n import N_, _, ngettext
from mathcards.student_history import RIGHT, WRONG, history, levels_played
from mathcards.widgets.cards import esc, style_html

PAGE = "student.ipynb"
SHOWN = 300  # the newest events on the page (the CSV downloads of the results hold all)
MARK = {RIGHT: ("mc-right", N_("right")), WRONG: ("mc-wrong", N_("not right"))}


def student_link_html(name: str, shown: str | None = None) -> str:
    """A name as a link to its student's page (relative, as the teacher's pages link)."""
    from urllib.parse import quote

    return (f'<a class="mc-student-link" href="{PAGE}?who={quote(name)}" '
            f'target="_blank">{esc(shown if shown is not None else name)}</a>')


def _skill_row_html(student: str, answers: list[Any]) -> str:
    from mathcards.exercises.skill_grid import skill_grid, skill_words

    grid = skill_grid([a for a in answers if str(a.student).casefold() == student])
    cells = []
    for skill in grid.skills:
        cell = grid.cell(student, skill)
        if cell is None:
            continue
        right = getattr(cell, "first_try_right", getattr(cell, "right", 0))
        slip = cell.top_slip_words
        first = _("{right} of {n} right at the first try").format(right=right,
                                                                   n=cell.questions)
        cells.append(f"<tr><th scope=\"row\">{esc(skill_words(skill))}</th>"
                     f"<td>{esc(first)}</td><td>{esc(_(slip) if slip else '')}</td></tr>")
    if not cells:
        none = _("No question answered yet.")
        return f"<p>{esc(none)}</p>"
    heads = (_("skill"), _("questions"), _("most frequent slip"))
    return ('<table class="mc-progress mc-student-skills"><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in heads) + f"</tr>{''.join(cells)}</table>")


class StudentPage:
    """The page of one student (their id or name in the address)."""

    def __init__(self, name: str, source: Any = None) -> None:
        self.name, self.source = name, source
        self.w_out = W.HTML()
        self.w_refresh = W.Button(description=_("Refresh"))
        self.w_refresh.on_click(lambda _b: self.render())
        self.widget = W.VBox([self.w_out, self.w_refresh])
        self.widget.add_class("mathcards")
        self.render()

    def render(self) -> None:
        from mathcards.students import StudentNameError, student_id

        try:
            student = student_id(self.name)
        except StudentNameError as exc:
            bad = _("{problem}: open a student's page from their name on the teacher's "
                    "pages.").format(problem=exc)
            self.w_out.value = (f'{style_html()}<p class="mc-refused" role="status">'
                                f"{esc(bad)}</p>")
            return
        try:
            records = self._read()
        except (MathCardsError, OSError) as exc:
            unread = _("the results cannot be read ({reason})").format(reason=exc)
            self.w_out.value = f'<p class="mc-refused">{esc(unread)}</p>'
            return
        attempts, solutions, answers, levels, games = records
        events = history(student, attempts=attempts, answers=answers, solutions=solutions,
                         levels=levels, games=games)
        played = levels_played(student, answers, games)
        rows = "".join(
            f'<tr class="{MARK.get(e.kind, ("mc-note", ""))[0]}"><td>'
            f"{esc(e.at[:16].replace('T', ' '))}</td><td>{esc(e.where)}</td>"
            f"<td>{esc(e.what)}</td><td>{esc(e.detail)}</td>"
            f"<td>{esc(_(MARK[e.kind][1]) if e.kind in MARK else '')}</td></tr>"
            for e in events[:SHOWN])
        earlier = _("… and {n} earlier (the CSV downloads of the class results hold every "
                    "one).").format(n=len(events) - SHOWN)
        more = f"<p>{esc(earlier)}</p>" if len(events) > SHOWN else ""
        levels_html = "".join(f"<li>{esc(game)}: {esc(', '.join(lv))}</li>"
                              for game, lv in played.items())
        done = (ngettext("{n} thing done, the newest first.",
                         "{n} things done, the newest first.", len(events)).format(
            n=len(events)) if events else
                _("Nothing yet: this student has not answered or played here."))
        played_title, skills_title = _("Levels played"), _("Skills")
        everything = _("Everything, newest first")
        heads = (_("when (UTC)"), _("where"), _("what"), _("the answer"), "")
        self.w_out.value = (
            f"{style_html()}<h3>{esc(self.name)}</h3><p>{esc(done)}</p>"
            + (f"<h4>{esc(played_title)}</h4><ul>{levels_html}</ul>" if levels_html else "")
            + f"<h4>{esc(skills_title)}</h4>{_skill_row_html(student, answers)}"
            + (f"<h4>{esc(everything)}</h4>"
               '<table class="mc-progress mc-history"><tr>'
               + "".join(f"<th>{esc(h)}</th>" for h in heads)
               + f"</tr>{rows}</table>{more}" if events else ""))

    def _read(self) -> tuple[list[Any], list[Any], list[Any], list[Any], list[Any]]:
        from mathcards.exercises.results import (
            ResultsReader,
            read_answers,
            read_finished_games,
            read_level_changes,
        )
        from mathcards.widgets.exercises import _dashboard_source

        where, _shown, readable = _dashboard_source(self.source)
        if not readable:
            return [], [], [], [], []
        attempts, solutions = ResultsReader(where).read()
        return (attempts, solutions, read_answers(where), read_level_changes(where),
                read_finished_games(where))


def student_page(query: str | None = None) -> Any:
    """The student's page for the address's ``?who=`` (not ``?student=``: that names the
    visitor on the students' pages)."""
    from urllib.parse import parse_qs

    from mathcards.widgets import _page_query

    text = _page_query() if query is None else query
    name = (parse_qs(text[:500]).get("who") or [""])[0][:60]
    return StudentPage(name).widget


__all__ = ["StudentPage", "student_link_html", "student_page"]
