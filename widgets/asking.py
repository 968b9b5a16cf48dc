"""The table's questions on the page: the answer box, the number pad, the level picker and
the "follow the others" checkbox (a view over ``TableController.asking``).

Synced fields hold only what the student typed or chose: the question's prompt (which
never contains its answer), the words after an answer, the text sent with a submission
(``mathcards.widgets.answer_box``: Enter, ✓ OK or Check; typing and leaving the box send
nothing). The expected answer stays in the kernel (``mathcards.asking.session``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as W

from mathcards.asking import LEVELS
from mathcards.asking.registry import read_number
from mathcards.i18n import _
from mathcards.widgets.answer_box import AnswerBox
from mathcards.widgets.cards import esc

if TYPE_CHECKING:
    from mathcards.table_snapshot import QuestionShown
    from mathcards.widgets.table import GameTable

__all__ = ["AskingPanel"]

PAD_CSS = """<style>
.mc-ask { border: 2px solid #1565c0; border-radius: 8px; padding: 6px 10px; margin: 6px 0;
  background: #e3f2fd; max-width: 100%; box-sizing: border-box; }
.mc-ask .mc-ask-prompt { font-size: 1.15em; font-weight: 600; }
.mc-ask .mc-ask-feedback { margin-top: 2px; }
.mc-pad { display: grid; grid-template-columns: repeat(7, minmax(40px, 52px)); gap: 4px;
  margin: 4px 0; }
.mc-pad button { width: auto; min-width: 40px; height: 44px; margin: 0;
  font-size: 1.2em; padding: 0; }
.mc-pad button[data-key="OK"] { grid-column: span 2; }
.mc-answer-row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.mc-answer input { font-size: 1.2em; flex: 1 1 9em; min-width: 0; max-width: 14em; }
.mc-answer input::placeholder { font-size: 0.8em; }
.mc-answer button.mc-check { width: auto; height: 36px; padding: 0 12px; }
.mc-levels .widget-toggle-buttons .widget-toggle-button { width: auto; }
@media (max-width: 480px) { .mc-levels .widget-toggle-button { font-size: 0.85em; } }
</style>"""


class AskingPanel:
    """The question area of a ``GameTable`` (built by it; ``render`` after each change)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.ctl = table.ctl
        self._setting = False  # the kernel changes a field: no answer, no level change
        # the panel's widgets share the table's Layout and styles (one message less each)
        self.w_style = table._html(PAD_CSS)
        self.w_prompt = table._html("")
        # the answer box is made with the table's first question (``w_answer``): a page
        # that asks nothing yet neither sends nor draws it (time to interactive)
        self._answer_box: AnswerBox | None = None
        self.w_box = table._box(W.VBox, [self.w_prompt])
        self.w_box.add_class("mc-ask")
        self.w_box.add_class("mc-hide")
        self.w_level = W.ToggleButtons(options=[(_(words), key) for key, words in LEVELS.items()],
                                       value=self.ctl.asking.level, description=_("Help:"),
                                       tooltips=[_("the table shows every sum"),
                                                 _("you say what each move makes"),
                                                 _("you say what each move makes; no hints")],
                                       layout=table._shared(W.Layout))
        self.w_level.add_class("mc-levels")
        self.w_level.observe(self._on_level, names="value")
        self.w_follow = W.Checkbox(value=False, description=_("Follow the others' moves too"),
                                   indent=False, layout=table._shared(W.Layout))
        self.w_follow.observe(self._on_follow, names="value")
        self.w_settings = table._box(W.HBox, [self.w_level, self.w_follow],
                                     layout=table._shared_layout("wrap", flex_flow="row wrap"))
        self.w_settings.add_class("mc-ask-settings")
        # the question (its prompt, the answer box and number pad) goes under the table's
        # choices, the help row (level, following) under the typed move: the choices (a
        # draw, a claim's pieces) come first on the screen (issue 36 item 16)
        self.widget = table._box(W.VBox, [self.w_style, self.w_box])
        self.widget.add_class("mc-asking")
        self._shown: float | None = None

    @property
    def w_answer(self) -> AnswerBox:
        """The answer box, made the first time it is needed (a question is asked): the
        answer is sent on Enter, ✓ OK or Check only, with the text typed (one update)."""
        if self._answer_box is None:
            # made for a question the table is about to focus: the browser's first view of
            # it takes the focus itself (a focus message sent now could come before it)
            box = AnswerBox(placeholder=_("type the number, then Enter"), autofocus=True,
                            layout=W.Layout(max_width="100%"))
            box.add_class("mc-answer")
            box.on_submit(self._on_submit)
            self._answer_box = box
            self.w_box.children = (*self.w_box.children, box)
        return self._answer_box

    # ------------------------------------------------------------------ the page's events
    def _on_submit(self, text: Any) -> None:
        """Enter, ✓ OK or Check in the browser: the text sent with it, checked here (an
        optional sign and digits, bounded: never evaluated)."""
        with self.ctl.lock:
            if self.ctl.asking.pending is None:  # a late second submission: nothing asked
                return
            self._answer(text)

    def _answer(self, text: Any) -> None:
        def answer() -> None:
            self.ctl.answer(str(read_number(text)))

        self.ctl.attempt(answer)
        # emptied, answered or refused: the box starts again from nothing
        self._set(self.w_answer, "")
        self.table._refresh()

    def _on_level(self, change: dict[str, Any]) -> None:
        if self._setting:
            return
        if not self.ctl.attempt(self.ctl.set_level, change.get("new")):
            self._set(self.w_level, self.ctl.asking.level)
        self.table._refresh()

    def _on_follow(self, change: dict[str, Any]) -> None:
        if self._setting:
            return
        if not self.ctl.attempt(self.ctl.set_follow, change.get("new")):
            self._set(self.w_follow, self.ctl.asking.follow)

    def _set(self, widget: W.ValueWidget, value: Any) -> None:
        self._setting = True
        try:
            if widget.value != value:
                widget.value = value
        finally:
            self._setting = False

    # ------------------------------------------------------------------ drawing
    def render(self, asking: QuestionShown) -> bool:
        """Draw the question (if any) and the settings, as the table's snapshot says them
        (``SeatSnapshot.question``); True when a new question was just asked (the table
        then puts the focus in the answer box)."""
        pending = asking.asked_at or None
        self._set(self.w_level, asking.level)
        self._set(self.w_follow, asking.follow)
        if asking.fixed:
            self.w_level.add_class("mc-hide")
        else:
            self.w_level.remove_class("mc-hide")
        if not asking.asks:  # a game that asks nothing: no settings either
            self.w_settings.add_class("mc-hide")
        else:
            self.w_settings.remove_class("mc-hide")
        for i, b in enumerate(self.table.w_hint_buttons):
            # "I count": the nudge and which card, never the full step (it shows the sum)
            if not asking.hints or (asking.counting and i == 2):
                b.add_class("mc-hide")
            else:
                b.remove_class("mc-hide")
        if pending is None:
            self.w_box.add_class("mc-hide")
            if self._answer_box is not None:
                self._set(self._answer_box, "")
            new = False
            prompt = ""
        else:
            self.w_box.remove_class("mc-hide")
            new = self._shown != pending
            # a capture claim: the buttons above pick the cards and the sign, the box
            # takes the number they make
            # a Dice Stacks stack: the buttons above say the way (adding, taking away)
            self.w_answer.placeholder = (_("what they make, then Enter")
                                         if asking.kind == "capture"
                                         else _("or type + or −, then Enter")
                                         if asking.kind == "stack"
                                         else _("type the number, then Enter"))
            prompt = (f'<div class="mc-ask-prompt" role="status" aria-live="polite">'
                      f'{esc(asking.prompt)}</div>')
            if asking.feedback:
                prompt += (f'<div class="mc-ask-feedback" role="alert">'
                           f'{esc(asking.feedback)}</div>')
        self._shown = pending
        if self.w_prompt.value != prompt:
            self.w_prompt.value = prompt
        if pending is not None or self._answer_box is not None:
            self.w_answer.disabled = pending is None
        return new
