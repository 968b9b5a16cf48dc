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

from typing import Any
from urllib.parse import parse_qs

from mathcards.i18n import N_, _
from mathcards.widgets import _in_voila, _page_query

LOCKED = N_("This page is for teachers. Open it with the teacher's key in the address "
          "(…?key=<key>) once: this browser is then signed in for the day. The key is "
          "printed by <code>make play</code>, or on the server by "
          "<code>python -m mathcards teacher-key</code>.")
WRONG = N_("That teacher's key is not right: check it and open the page again.")


def key_from_query(query: str) -> str:
    values = parse_qs(query[:500], keep_blank_values=True).get("key") or [""]
    return values[0][:200]


def teacher_only(query: str | None = None, *, show: bool = True) -> bool:
    """True when the teacher may see what follows; else shows why not (once)."""
    from mathcards.errors import MathCardsError
    from mathcards.keys import is_teacher_key
    from mathcards.site import in_browser, needs_server_html
    from mathcards.visitors import teacher_page

    if in_browser():  # the static site: a public page with no key to check
        if show:
            import ipywidgets as W
            from IPython.display import display

            display(W.HTML(needs_server_html(_("The teacher's view"))))
        return False
    if query is None:
        if not _in_voila():
            return True  # JupyterLab: whoever runs the cell can read the files anyway
        query = _page_query()
    given = key_from_query(query)
    try:
        ok = is_teacher_key(given) if given else teacher_page()
        message = _(LOCKED) if not given else _(WRONG)
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


class NamesPanel:
    """The dashboard's *Names*: the names claimed on this server (each belongs to the
    browser that first used it, ``mathcards.names``) and *Release a name*, for a student
    whose browser lost its cookie or another computer. A teacher-only page's widget."""

    def __init__(self) -> None:
        import ipywidgets as W

        self.w_list = W.HTML()
        self.w_name = W.Text(placeholder=_("a name, like ana"), description=_("Name:"),
                             layout=W.Layout(width="260px"))
        self.w_release = W.Button(description=_("Release this name"), button_style="warning",
                                  layout=W.Layout(width="auto"))
        self.w_line = W.HTML()
        self.w_release.on_click(lambda _b: self.release(self.w_name.value))
        self.widget = W.VBox([self.w_list, W.HBox([self.w_name, self.w_release]), self.w_line])
        self.widget.add_class("mathcards")
        self.render()

    def render(self) -> None:
        from mathcards.errors import MathCardsError
        from mathcards.names import NameClaims
        from mathcards.widgets.cards import esc, style_html

        try:
            claims = NameClaims()
            try:
                names = [c.name for c in claims.claims()]
            finally:
                claims.close()
        except (OSError, MathCardsError, ValueError) as exc:
            names, problem = [], _("the names cannot be read ({problem})").format(problem=exc)
        else:
            problem = ""
        shown = ", ".join(esc(n) for n in names) or _("none yet")
        self.w_list.value = (
            style_html() + "<h3>" + _("Names") + "</h3><p>"
            + _("A name in a page address ({example}) belongs to the browser that first used "
                "it. A student refused their own name (cookies cleared, another computer) "
                "gets it back when you release it here.").format(
                    example="<code>?student=ana</code>")
            + "</p><p>" + _("Claimed ({n}): {names}").format(n=len(names), names=shown)
            + "</p>" + (f'<p class="mc-refused">{esc(problem)}</p>' if problem else ""))

    def release(self, name: Any) -> bool:
        """Free ``name``; says in one line what happened. True when it was claimed."""
        from mathcards.errors import MathCardsError
        from mathcards.names import release
        from mathcards.widgets.cards import esc

        try:
            done = release(name)
        except (MathCardsError, OSError, ValueError) as exc:
            self.w_line.value = f'<p class="mc-refused" role="status">{esc(exc)}</p>'
            return False
        said = (_("{name} is free again: the next browser to use it claims it.") if done
                else _("Nobody holds the name {name}: nothing to release."))
        self.w_line.value = '<p role="status">' + said.format(name=esc(name)) + "</p>"
        self.render()
        return done


def names_panel() -> Any:
    """The *Names* panel's widget (see ``NamesPanel``)."""
    return NamesPanel().widget
