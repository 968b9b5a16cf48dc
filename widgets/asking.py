"""The table's questions on the page: the answer box, the number pad, the level picker and
the "follow the others" checkbox (a view over ``TableController.asking``).

Synced fields hold only what the student typed or chose: the question's prompt (which
never contains its answer), the words after an answer, the digits typed so far. The
expected answer stays in the kernel (``mathcards.asking.session``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as W

from mathcards.asking import LEVELS
from mathcards.widgets.cards import esc

if TYPE_CHECKING:
    from mathcards.widgets.table import GameTable

__all__ = ["MINUS", "AskingPanel"]

MINUS = "−"
PAD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", MINUS, "⌫", "OK")
PAD_CSS = """<style>
.mc-ask { border: 2px solid #1565c0; border-radius: 8px; padding: 6px 10px; margin: 6px 0;
  background: #e3f2fd; max-width: 100%; box-sizing: border-box; }
.mc-ask .mc-ask-prompt { font-size: 1.15em; font-weight: 600; }
.mc-ask .mc-ask-feedback { margin-top: 2px; }
.mc-pad { display: grid; grid-template-columns: repeat(7, minmax(40px, 52px)); gap: 4px;
  margin: 4px 0; }
.mc-pad button.jupyter-button { width: auto; min-width: 40px; height: 44px; margin: 0;
  font-size: 1.2em; padding: 0; }
.mc-answer input { font-size: 1.2em; }
.mc-levels .widget-toggle-buttons .widget-toggle-button { width: auto; }
@media (max-width: 480px) { .mc-levels .widget-toggle-button { font-size: 0.85em; } }
</style>"""


class AskingPanel:
    """The question area of a ``GameTable`` (built by it; ``render`` after each change)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.ctl = table.ctl
        self._setting = False  # the kernel changes a field: no answer, no level change
        self.w_style = W.HTML(PAD_CSS)
        self.w_prompt = W.HTML("")
        self.w_answer = W.Text(placeholder="type the number, then Enter",
                               continuous_update=False, description="Answer:",
                               layout=W.Layout(width="230px"))
        self.w_answer.add_class("mc-answer")
        self.w_answer.observe(self._on_text, names="value")
        self.pad_buttons: dict[str, W.Button] = {}
        for key in PAD_KEYS:
            b = W.Button(description=key, tooltip={"⌫": "delete the last digit",
                                                   MINUS: "minus", "OK": "answer"}.get(key, key),
                         layout=W.Layout(width="auto"))
            b.add_class("mc-pad-key")
            if key == "OK":
                b.button_style = "primary"
            b.on_click(lambda _b, k=key: self._on_pad(k))
            self.pad_buttons[key] = b
        self.w_pad = W.Box(list(self.pad_buttons.values()))
        self.w_pad.add_class("mc-pad")
        self.w_box = W.VBox([self.w_prompt, self.w_answer, self.w_pad])
        self.w_box.add_class("mc-ask")
        self.w_box.add_class("mc-hide")
        self.w_level = W.ToggleButtons(options=[(words, key) for key, words in LEVELS.items()],
                                       value=self.ctl.asking.level, description="Help:",
                                       tooltips=["the table shows every sum",
                                                 "you say what each move makes",
                                                 "you say what each move makes; no hints"])
        self.w_level.add_class("mc-levels")
        self.w_level.observe(self._on_level, names="value")
        self.w_follow = W.Checkbox(value=False, description="Follow the others' moves too",
                                   indent=False)
        self.w_follow.observe(self._on_follow, names="value")
        self.w_settings = W.HBox([self.w_level, self.w_follow],
                                 layout=W.Layout(flex_flow="row wrap"))
        self.w_settings.add_class("mc-ask-settings")
        self.widget = W.VBox([self.w_style, self.w_box, self.w_settings])
        self.widget.add_class("mc-asking")
        self._shown = None

    # ------------------------------------------------------------------ the page's events
    def _on_text(self, change: dict[str, Any]) -> None:
        if self._setting or not change.get("new"):
            return
        self._answer(change["new"])

    def _answer(self, text: Any) -> None:
        self.ctl.attempt(self.ctl.answer, text)
        # emptied, answered or refused: the same text typed again (after picking a claim's
        # cards) is a new value the page sends
        self._set(self.w_answer, "")
        self.table._refresh()

    def _on_pad(self, key: str) -> None:
        with self.ctl.lock:
            if self.ctl.asking.pending is None:
                return
            text = self.w_answer.value or ""
            if key == "OK":
                if text:
                    self._answer(text)
                else:
                    self.ctl.say("type the number first (the keys above, then OK)",
                                 refused=True)
                return
            if key == "⌫":
                text = text[:-1]
            elif key == MINUS:
                text = text[1:] if text.startswith((MINUS, "-")) else MINUS + text
            elif len(text) < 4:
                text += key
            self._set(self.w_answer, text)

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
    def render(self) -> bool:
        """Draw the question (if any) and the settings; True when a new question was just
        asked (the table then puts the focus in the answer box)."""
        asking = self.ctl.asking
        pending = asking.pending
        self._set(self.w_level, asking.level)
        self._set(self.w_follow, asking.follow)
        if asking.fixed:
            self.w_level.add_class("mc-hide")
        else:
            self.w_level.remove_class("mc-hide")
        if asking.asker is None:  # a game that asks nothing: no settings either
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
            self._set(self.w_answer, "")
            new = False
            prompt = ""
        else:
            self.w_box.remove_class("mc-hide")
            new = self._shown is not pending
            # a capture claim: the buttons above pick the cards and the sign, the box
            # takes the number they make
            self.w_answer.placeholder = ("what they make, then Enter"
                                         if pending.question.kind == "capture"
                                         else "type the number, then Enter")
            prompt = (f'<div class="mc-ask-prompt" role="status" aria-live="polite">'
                      f'{esc(pending.question.prompt)}</div>')
            if asking.feedback:
                prompt += (f'<div class="mc-ask-feedback" role="alert">'
                           f'{esc(asking.feedback)}</div>')
        self._shown = pending
        if self.w_prompt.value != prompt:
            self.w_prompt.value = prompt
        disabled = pending is None
        self.w_answer.disabled = disabled
        for b in self.pad_buttons.values():
            b.disabled = disabled
        return new
