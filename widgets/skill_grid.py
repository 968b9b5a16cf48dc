"""The teacher's student x skill grid, drawn: play and exercises together, by skill
(``mathcards.exercises.skill_grid`` computes it; this module only draws it), and the CSV
downloads of the grid and of every answer, made when the teacher asks for them."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from mathcards.exercises.skill_grid import (
    HELP_BELOW,
    SkillGrid,
    needs_help,
    skill_grid,
    skill_grid_csv,
    skill_words,
)
from mathcards.skills import SLIPS
from mathcards.widgets.cards import esc

TREND_MARKS = {"better": "↑ better", "worse": "↓ worse", "steady": "→ steady",
               "too few": "too few to tell"}

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


def skill_grid_html(grid: SkillGrid) -> str:
    """The grid: per student and skill the right answers of how many, the most frequent
    slip in words, the trend; then who needs help with each skill."""
    if not grid.students:
        return ("<p>No answers yet: they appear here as students answer at the tables and "
                "in the exercises.</p>")
    head = "".join(f'<th scope="col">{esc(skill_words(s))}</th>' for s in grid.skills)
    rows = []
    for student in grid.students:
        cells = []
        for skill in grid.skills:
            cell = grid.cell(student, skill)
            if cell is None:
                cells.append('<td class="mc-skill mc-untried">no questions</td>')
                continue
            strength = ("mc-weak" if cell.accuracy < HELP_BELOW else
                        "mc-strong" if cell.accuracy >= 0.85 else "mc-middle")
            right = f"<b>{cell.right} of {cell.questions} right</b>"
            parts = [f"{right} ({_percent(cell.accuracy)})"]
            if cell.top_slip:
                parts.append(f'most often: <span class="mc-slip">'
                             f"{esc(cell.top_slip_words)}</span>")
            parts.append(f"trend: {TREND_MARKS[cell.trend]}")
            parts.append(f"play {cell.from_play}, exercises {cell.from_exercises}")
            cells.append(f'<td class="mc-skill {strength}">' + "<br>".join(parts) + "</td>")
        rows.append(f'<tr><th scope="row">{esc(student)}</th>{"".join(cells)}</tr>')
    table = ('<div class="mc-grid-wrap"><table class="mc-progress mc-skills" '
             'aria-label="students by skills"><tr><th scope="col">student</th>'
             f"{head}</tr>{''.join(rows)}</table></div>")
    return f"{SKILL_GRID_CSS}{table}{needs_help_html(grid)}"


def needs_help_html(grid: SkillGrid) -> str:
    """Who needs help with each skill (the skills where somebody does)."""
    items = []
    for skill in grid.skills:
        helped = needs_help(grid, skill)
        if not helped:
            continue
        names = ", ".join(
            f"<b>{esc(h.student)}</b> ({_percent(h.accuracy)} of {h.questions}"
            + (f"; most often {esc(SLIPS.get(h.top_slip, h.top_slip))}" if h.top_slip
               else "") + ")" for h in helped)
        items.append(f"<li>{esc(skill_words(skill))}: {names}</li>")
    if not items:
        return "<h4>Who needs help</h4><p>Nobody yet, on the questions answered so far.</p>"
    return f'<h4>Who needs help</h4><ul class="mc-help">{"".join(items)}</ul>'


def _csv_link(text: str, file_name: str, label: str) -> str:
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a download="{esc(file_name)}" href="data:text/csv;charset=utf-8;base64,{data}">'
            f"{esc(label)}</a>")


def skill_downloads(read_answers: Callable[[], list[Any]]) -> W.VBox:
    """A button that makes the CSV downloads when pressed (read then, never kept in a
    synced field before the teacher asks): the skill grid and every answer."""
    from mathcards.errors import MathCardsError
    from mathcards.exercises.progress import answers_csv

    button = W.Button(description="Download the answers (CSV)", icon="download",
                      tooltip="the skill grid and every answer, as CSV files")
    out = W.HTML("")
    out.add_class("mathcards")

    def make(_b: Any = None) -> None:
        try:
            answers = read_answers()
        except MathCardsError as exc:
            out.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return
        grid = _csv_link(skill_grid_csv(skill_grid(answers)), "skill-grid.csv",
                         "the skill grid (skill-grid.csv)")
        every = _csv_link(answers_csv(answers), "answers.csv", "every answer (answers.csv)")
        out.value = f'<p role="status">Download {grid} · {every}</p>'

    button.on_click(make)
    box = W.VBox([button, out])
    box.make = make  # type: ignore[attr-defined]
    box.w_out = out  # type: ignore[attr-defined]
    return box


__all__ = ["needs_help_html", "skill_downloads", "skill_grid_html"]
