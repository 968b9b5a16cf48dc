"""A number line for a signed addition: the jump from the old deck value to the new one.

Hand-made SVG text (no plotting library, no server): the ±``bound`` band shaded
(the caller's game gives its bound), the goal marked, an arrow from ``before`` to
``after``. The drawing carries a ``<title>`` and an ``aria-label`` so a screen reader
says what it shows.

>>> svg = number_line_svg(7, -3, goal=0, bound=10)
>>> svg.startswith("<svg") and "<title>" in svg and 'aria-label="' in svg
True
"""

from __future__ import annotations

from html import escape

from mathcards.explain.terms import number_text, signed_text
from mathcards.i18n import _

WIDTH = 480
HEIGHT = 96
MARGIN = 24
AXIS_Y = 60


def number_line_svg(
    before: int,
    after: int,
    *,
    goal: int | None = None,
    bound: int,
    label: str | None = None,
) -> str:
    """SVG text of the jump ``before`` → ``after`` with the ±``bound`` band and the goal."""
    values = [before, after, -bound - 4, bound + 4] + ([goal] if goal is not None else [])
    low, high = min(values), max(values)
    span = high - low

    def x(v: int) -> float:
        return round(MARGIN + (v - low) * (WIDTH - 2 * MARGIN) / span, 1)

    change = after - before
    if label is None:
        label = (
            f"Number line: from {number_text(before)}, {signed_text(change)} lands on "
            f"{number_text(after)}"
        )
        if goal is not None:
            label += f"; the goal is {number_text(goal)}"
    text_label = escape(label, quote=True)
    parts = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" class="mc-number-line" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{text_label}">'),
        f"<title>{escape(label)}</title>",
        ('<defs><marker id="mc-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#1f5fbf"/></marker></defs>'),
        # the ±bound band: where a play must keep the deck while another play can
        (f'<rect class="mc-band" x="{x(-bound)}" y="{AXIS_Y - 10}" '
        f'width="{round(x(bound) - x(-bound), 1)}" height="20" fill="#e8f1e4"/>'),
        (f'<line class="mc-axis" x1="{MARGIN}" y1="{AXIS_Y}" x2="{WIDTH - MARGIN}" '
        f'y2="{AXIS_Y}" stroke="#444" stroke-width="1.5"/>'),
    ]
    step = 5 if span <= 60 else 10
    first = -(-low // step) * step
    parts.extend(
        f'<line x1="{x(v)}" y1="{AXIS_Y - 4}" x2="{x(v)}" y2="{AXIS_Y + 4}" stroke="#444"/>'
        f'<text x="{x(v)}" y="{AXIS_Y + 18}" font-size="11" text-anchor="middle">'
        f"{escape(number_text(v))}</text>"
        for v in range(first, high + 1, step)
    )
    parts.extend(
        f'<text x="{x(edge)}" y="{AXIS_Y - 14}" font-size="10" text-anchor="middle" '
        f'fill="#3b6e2f">{escape(signed_text(edge))}</text>'
        for edge in (-bound, bound)
    )
    if goal is not None:
        said = _("goal {n}").format(n=number_text(goal))
        parts.append(
            f'<g class="mc-goal"><line x1="{x(goal)}" y1="{AXIS_Y - 12}" x2="{x(goal)}" '
            f'y2="{AXIS_Y + 12}" stroke="#c47f00" stroke-width="3"/>'
            f'<text x="{x(goal)}" y="{HEIGHT - 4}" font-size="11" text-anchor="middle" '
            f'fill="#c47f00">{escape(said)}</text></g>'
        )
    # the jump: an arc from before to after
    x0, x1 = x(before), x(after)
    mid = round((x0 + x1) / 2, 1)
    parts.append(
        f'<path class="mc-jump" d="M{x0},{AXIS_Y} Q{mid},{AXIS_Y - 52} {x1},{AXIS_Y}" '
        f'fill="none" stroke="#1f5fbf" stroke-width="2" marker-end="url(#mc-arrow)"/>'
        f'<text x="{mid}" y="{AXIS_Y - 30}" font-size="12" text-anchor="middle" '
        f'fill="#1f5fbf">{escape(signed_text(change))}</text>'
        f'<circle cx="{x0}" cy="{AXIS_Y}" r="3.5" fill="#fff" stroke="#1f5fbf"/>'
        f'<circle cx="{x1}" cy="{AXIS_Y}" r="4" fill="#1f5fbf"/>'
    )
    parts.append("</svg>")
    return "".join(parts)
