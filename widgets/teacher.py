"""Teacher-only pages: shown on a Voilà page only with the teacher's key.

A notebook cell guards its teacher content with::

    from mathcards.widgets.teacher import teacher_only
    if teacher_only():
        dashboard()

In JupyterLab (the teacher runs the code) the cell simply runs. On a Voilà
page (public: anyone who can reach the server can open it) it runs only when
the address carries ``?key=<the teacher's key>``, or when the server marked
the page as the signed-in teacher's: a page opened once with the key gives that
browser a cookie and drops the key from the address
(``mathcards.widgets.server``); otherwise the page shows one line saying how a
teacher opens it, and nothing else.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from mathcards.widgets import _in_voila, _page_query

LOCKED = ("This page is for teachers. Open it with the teacher's key in the address "
          "(…?key=<key>) once: this browser is then signed in for the day. The key is "
          "printed by <code>make play</code>, or on the server by "
          "<code>python -m mathcards teacher-key</code>.")
WRONG = "That teacher's key is not right: check it and open the page again."


def key_from_query(query: str) -> str:
    values = parse_qs(query[:500], keep_blank_values=True).get("key") or [""]
    return values[0][:200]


def teacher_only(query: str | None = None, *, show: bool = True) -> bool:
    """True when the teacher may see what follows; else shows why not (once)."""
    from mathcards.errors import MathCardsError
    from mathcards.keys import is_teacher_key
    from mathcards.visitors import teacher_page

    if query is None:
        if not _in_voila():
            return True  # JupyterLab: whoever runs the cell can read the files anyway
        query = _page_query()
    given = key_from_query(query)
    try:
        ok = is_teacher_key(given) if given else teacher_page()
        message = LOCKED if not given else WRONG
    except MathCardsError as exc:
        ok, message = False, str(exc)
    if not ok and show:
        import ipywidgets as W
        from IPython.display import display

        from mathcards.widgets.cards import style_html

        box = W.HTML(f'{style_html()}<p class="mc-refused" role="status">{message}</p>')
        box.add_class("mathcards")
        display(box)
    return ok
