"""The teacher's student x skill grid, drawn: play and exercises together, by skill
(``mathcards.exercises.skill_grid`` computes it; this module only draws it), and the CSV
downloads of the grid and of every answer, made when the teacher asks for them."""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets as W

from mathcards.asking import LEVELS, LevelChange
from mathcards.exercises.skill_grid import (
    HELP_BELOW,
    SkillGrid,
    needs_help,
    skill_grid,
    skill_grid_csv,
    skill_words,
)
from mathcards.i18n import N_, _, ngettext
from mathcards.skills import SLIP_WORDS
from mathcards.widgets.cards import esc
from mathcards.widgets.student_page import student_link_html

TREND_MARKS = {"better": N_("↑ better"), "worse": N_("↓ worse"), "steady": N_("→ steady"),
               "too few": N_("too few to tell")}

SKILL_GRID_CSS = """
<style>
.mathcards table.mc-skills td { vertical-align: top; min-width: 8em; }
.mathcards .mc-skill.mc-weak { background: #fff1e6; }
.mathcards .mc-skill.mc-strong { background: #e8f5e9; }
.mathcards .mc-skill .mc-slip { background: #6a1b9a; color: #fff; border-radius: 4px;
  padding: 0 4px; font-size: 0.85em; }
.mathcards .mc-help li { margin: 2px 0; }
</style>
"""


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"


def skill_grid_html(grid: SkillGrid, levels: Iterable[LevelChange] = ()) -> str:
    """The grid: per student and skill the questions, right at the first try and in the
    end, seen, the refusals, the most frequent slip in words, the trend; then who changed
    the level of help at a table (``levels``); then who needs help with each skill."""
    if not grid.students:
        return ("<p>" + _("No answers yet: they appear here as students answer at the "
                          "tables and in the exercises.") + f"</p>{level_changes_html(levels)}")
    head = "".join(f'<th scope="col">{esc(skill_words(s))}</th>' for s in grid.skills)
    rows = []
    for student in grid.students:
        cells = []
        for skill in grid.skills:
            cell = grid.cell(student, skill)
            if cell is None:
                cells.append('<td class="mc-skill mc-untried">' + _("no questions") + "</td>")
                continue
            if not cell.questions:  # refusals only
                cells.append('<td class="mc-skill mc-untried">' + _(
                    "no questions; {refusals}").format(refusals=_refusals(cell.refusals))
                    + "</td>")
                continue
            strength = ("mc-weak" if cell.accuracy < HELP_BELOW else
                        "mc-strong" if cell.accuracy >= 0.85 else "mc-middle")
            parts = [ngettext(
                "{n} question: <b>{right} right at the first try</b> ({percent})",
                "{n} questions: <b>{right} right at the first try</b> ({percent})",
                cell.questions).format(n=cell.questions, right=cell.first_try,
                                       percent=_percent(cell.accuracy)),
                _("{n} right in the end").format(n=cell.right)]
            if cell.seen:
                parts.append(_("{n} seen before the answer").format(n=cell.seen))
            if cell.with_solution:
                parts.append(_("{n} with the worked solution open").format(
                    n=cell.with_solution))
            if cell.refusals:
                parts.append(_refusals(cell.refusals))
            if cell.top_slip:
                parts.append(_("most often: {slip}").format(
                    slip=f'<span class="mc-slip">{esc(_(cell.top_slip_words))}</span>'))
            parts.append(_("trend: {trend}").format(trend=_(TREND_MARKS[cell.trend])))
            parts.append(_("play {play}, exercises {exercises}").format(
                play=cell.from_play, exercises=cell.from_exercises))
            cells.append(f'<td class="mc-skill {strength}">' + "<br>".join(parts) + "</td>")
        rows.append(f'<tr><th scope="row">{student_link_html(student)}</th>{"".join(cells)}</tr>')
    table = ('<div class="mc-grid-wrap"><table class="mc-progress mc-skills" '
             'aria-label="' + esc(_("students by skills")) + '"><tr><th scope="col">'
             + esc(_("student")) + f"</th>{head}</tr>{''.join(rows)}</table></div>")
    return f"{SKILL_GRID_CSS}{table}{level_changes_html(levels)}{needs_help_html(grid)}"


def _refusals(n: int) -> str:
    return ngettext("{n} move the rules refused", "{n} moves the rules refused",
                    n).format(n=n)


def _game_title(name: str) -> str:
    from mathcards.errors import MathCardsError
    from mathcards.games.registry import get_game_class

    try:
        return str(get_game_class(name).title)
    except MathCardsError:  # a game this version does not have (a file from elsewhere)
        return name.replace("_", " ")


def level_changes_html(changes: Iterable[LevelChange]) -> str:
    """Who changed the level of help at a table, in words: "stepped down to Show me the
    sums in Suns to Moons 2 times; back up to I count once" ("" when nobody did)."""
    counts: dict[str, Counter[tuple[bool, str, str]]] = {}
    for change in sorted(changes, key=lambda c: (c.at, c.uid)):
        counts.setdefault(change.student, Counter())[
            (change.stepped_down, change.after, change.game)] += 1
    if not counts:
        return ""
    items = []
    for student in sorted(counts, key=lambda s: (s.casefold(), s)):
        said = []
        for (down, after, game), n in counts[student].items():
            level = esc(_(LEVELS[after]) if after in LEVELS else after)
            title = esc(_game_title(game))
            if down:
                said.append(ngettext("stepped down to {level} in {game} once",
                                     "stepped down to {level} in {game} {n} times", n).format(
                                         level=level, game=title, n=n))
            else:
                said.append(ngettext("back up to {level} in {game} once",
                                     "back up to {level} in {game} {n} times", n).format(
                                         level=level, game=title, n=n))
        items.append(f"<li><b>{esc(student)}</b>: {'; '.join(said)}</li>")
    return ("<h4>" + _("Levels of help at the tables") + '</h4><ul class="mc-levels-changed">'
            f'{"".join(items)}</ul>')


def needs_help_html(grid: SkillGrid) -> str:
    """Who needs help with each skill (the skills where somebody does)."""
    items = []
    for skill in grid.skills:
        helped = needs_help(grid, skill)
        if not helped:
            continue
        names = ", ".join(
            f"<b>{esc(h.student)}</b> ("
            + (_("{percent} of {n}; most often {slip}").format(
                percent=_percent(h.accuracy), n=h.questions,
                slip=esc(_(SLIP_WORDS[h.top_slip]) if h.top_slip in SLIP_WORDS
                         else h.top_slip)) if h.top_slip
               else _("{percent} of {n}").format(percent=_percent(h.accuracy),
                                                 n=h.questions)) + ")" for h in helped)
        items.append(f"<li>{esc(skill_words(skill))}: {names}</li>")
    if not items:
        return ("<h4>" + _("Who needs help") + "</h4><p>"
                + _("Nobody yet, on the questions answered so far.") + "</p>")
    return "<h4>" + _("Who needs help") + f'</h4><ul class="mc-help">{"".join(items)}</ul>'


def _csv_link(text: str, file_name: str, label: str, mime: str = "text/csv") -> str:
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a download="{esc(file_name)}" href="data:{mime};charset=utf-8;base64,{data}">'
            f"{esc(label)}</a>")


def csv_downloads(description: str, tooltip: str,
                  make_files: Callable[[], list[tuple[str, str, str]]], *,
                  mime: str = "text/csv") -> W.VBox:
    """A button that makes CSV downloads (or ``mime`` files) when pressed (read then, never
    kept in a synced field before the teacher asks): ``make_files`` gives (text, file name,
    label)s.
    A ``MathCardsError`` while reading is said in one line."""
    from mathcards.errors import MathCardsError

    button = W.Button(description=description, icon="download", tooltip=tooltip,
                      layout=W.Layout(width="auto"))  # its words whole, never "Download the an…"
    out = W.HTML("")
    out.add_class("mathcards")

    def make(_b: Any = None) -> None:
        try:
            files = make_files()
        except MathCardsError as exc:
            out.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return
        links = " · ".join(_csv_link(text, name, label, mime) for text, name, label in files)
        out.value = '<p role="status">' + _("Download {links}").format(links=links) + "</p>"

    button.on_click(make)
    box = W.VBox([button, out])
    box.make = make
    box.w_out = out
    box.w_button = button
    return box


def skill_downloads(read_answers: Callable[[], list[Any]],
                    read_levels: Callable[[], list[LevelChange]] | None = None,
                    read_classes: Callable[[], dict[str, str]] | None = None) -> W.VBox:
    """The skill grid's and every answer's CSV downloads (see ``csv_downloads``), and the
    changes of the level of help at the tables when ``read_levels`` is given; the skill
    grid's class column from ``read_classes`` (student -> class id)."""
    from mathcards.exercises.progress import answers_csv, level_changes_csv

    def files() -> list[tuple[str, str, str]]:
        answers = read_answers()
        classes = read_classes() if read_classes is not None else None
        made = [(skill_grid_csv(skill_grid(answers), classes), "skill-grid.csv",
                 _("the skill grid (skill-grid.csv)")),
                (answers_csv(answers), "answers.csv", _("every answer (answers.csv)"))]
        if read_levels is not None:
            made.append((level_changes_csv(read_levels()), "levels.csv",
                         _("every change of the level of help (levels.csv)")))
        return made

    return csv_downloads(_("Download the answers (CSV)"),
                         _("the skill grid, every answer and every change of the level of "
                           "help, as CSV files"), files)


__all__ = ["csv_downloads", "level_changes_html", "needs_help_html", "skill_downloads",
           "skill_grid_html"]
