"""The answer box of a table's question: a text box, a Check button and a number pad with a
minus key, in one small widget (anywidget) whose browser side sends an answer only when
it is submitted: Enter in the box, the pad's ✓ OK key or Check.

Typing, a tap on the pad and leaving the box (blur) send nothing. A submission sends the
typed text and a counter in ONE state update (``value`` and ``submitted`` together, one
``save_changes``): ipywidgets holds a widget's state updates back while the kernel is
busy and merges them, but sends custom messages at once, so a separate "submit" message
could overtake the last digits typed. In one update the number graded is always the
number typed.

Synced fields: what the student typed (``value``, sent with a submission), the two
counters, the placeholder and whether the box is disabled; never the question's answer.
``on_submit`` callbacks get the text as the browser sent it: anything a visitor sets, to be
checked before use (``mathcards.asking.registry.read_number``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from mathcards.asking.registry import MAX_ANSWER
from mathcards.i18n import _

__all__ = ["MINUS", "PAD_KEYS", "AnswerBox", "box_words"]

MINUS = "−"
# the pad's keys as they read on the page; "OK" submits (shown as "✓ OK")
PAD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", MINUS, "⌫", "OK")
MAX_DIGITS = 4  # the pad types at most this many digits (every answer here is smaller)

def box_words() -> dict[str, str]:
    """The box's labels, tooltips and spoken names in the page's language."""
    return {"answer": _("Answer:"), "check": _("Check"), "check_tip": _("check the answer"),
            "pad": _("number pad"), "minus": _("minus"), "back": _("delete the last digit"),
            "ok": _("OK"), "ok_tip": _("OK: check the answer")}


_ESM = """
const KEYS = %(keys)s;
// the box's words in the page's language (the words field; English until it comes)
const ENGLISH = {answer: "Answer:", check: "Check", check_tip: "check the answer",
                 pad: "number pad", minus: "minus", back: "delete the last digit",
                 ok: "OK", ok_tip: "OK: check the answer"};
let boxes = 0;

function render({ model, el }) {
  const W = Object.assign({}, ENGLISH, model.get("words") || {});
  const NAMES = {"−": W.minus, "⌫": W.back, "OK": W.ok_tip};
  const id = `mc-answer-input-${++boxes}`;
  const row = document.createElement("div");
  row.className = "mc-answer-row";
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = W.answer;
  const input = document.createElement("input");
  input.id = id;
  input.type = "text";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.maxLength = %(max)d;
  const check = document.createElement("button");
  check.type = "button";
  check.className = "mc-check jupyter-button mod-primary";
  check.textContent = W.check;
  check.title = W.check_tip;
  row.append(label, input, check);
  const pad = document.createElement("div");
  pad.className = "mc-pad";
  pad.setAttribute("role", "group");
  pad.setAttribute("aria-label", W.pad);
  const keys = KEYS.map((key) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "mc-pad-key jupyter-button" + (key === "OK" ? " mod-primary" : "");
    b.textContent = key === "OK" ? "✓ " + W.ok : key;
    b.dataset.key = key;
    if (NAMES[key]) { b.title = NAMES[key]; }
    if (key === "⌫" || key === "−") { b.setAttribute("aria-label", NAMES[key]); }
    b.addEventListener("click", () => press(key));
    return b;
  });
  pad.append(...keys);
  el.append(row, pad);

  let sentAt = 0;
  function submit() {
    // one submission at a time: the next waits for the kernel's reply (a double Enter
    // is not two answers), or five seconds
    if (model.get("answered") !== model.get("submitted") && Date.now() - sentAt < 5000) {
      return;
    }
    sentAt = Date.now();
    model.set("value", input.value);
    model.set("submitted", model.get("submitted") + 1);
    model.save_changes();  // the text and the submission in one update
  }
  function press(key) {
    if (input.disabled) { return; }
    let text = input.value;
    const negative = /^[-−]/.test(text);
    const digits = text.replace(/^[-−]/, "");
    if (key === "OK") { submit(); return; }
    if (key === "⌫") { text = text.slice(0, -1); }
    else if (key === "−") { text = negative ? digits : "−" + digits; }
    else if (/^\\d*$/.test(digits) && digits.length < %(digits)d) { text += key; }
    input.value = text;
  }
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); submit(); }
  });
  check.addEventListener("click", submit);
  function draw() {
    if (input.value !== model.get("value")) { input.value = model.get("value"); }
    input.placeholder = model.get("placeholder");
    const off = model.get("disabled");
    input.disabled = off;
    check.disabled = off;
    keys.forEach((b) => { b.disabled = off; });
  }
  function onMessage(msg) {
    if (msg && msg.do === "focus") { input.focus(); }
  }
  draw();
  if (model.get("autofocus")) { input.focus(); }  // made for the question just asked
  model.on("change:value", draw);
  model.on("change:placeholder", draw);
  model.on("change:disabled", draw);
  model.on("msg:custom", onMessage);
  return () => {
    model.off("change:value", draw);
    model.off("change:placeholder", draw);
    model.off("change:disabled", draw);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
"""


class AnswerBox(anywidget.AnyWidget):
    """A number answer: typed (Enter or Check) or on the pad (✓ OK)."""

    _esm = _ESM % {"keys": "[" + ", ".join(f'"{k}"' for k in PAD_KEYS) + "]",
                   "max": MAX_ANSWER, "digits": MAX_DIGITS}
    value = traitlets.Unicode("").tag(sync=True)  # the text sent with the last submission
    submitted = traitlets.Int(0).tag(sync=True)  # the browser adds 1 per submission
    answered = traitlets.Int(0).tag(sync=True)  # the kernel's: the last submission handled
    placeholder = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    # the box's first view takes the focus (a box made for the question just asked)
    autofocus = traitlets.Bool(False).tag(sync=True)
    # the box's own words in the page's language (labels only: the kernel never reads them)
    words = traitlets.Dict(value_trait=traitlets.Unicode()).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("words", box_words())
        super().__init__(**kwargs)
        self._callbacks: list[Callable[[Any], None]] = []
        self.observe(self._on_submitted, names="submitted")

    def on_submit(self, callback: Callable[[Any], None]) -> None:
        """Call ``callback(text)`` for each submission (the text as the browser sent it)."""
        self._callbacks.append(callback)

    def submit(self, text: str) -> None:
        """What the browser sends on Enter, ✓ OK or Check: the text and the submission in
        one state update (tests and scripts drive the box with it)."""
        self.set_state({"value": text, "submitted": self.submitted + 1})

    def focus(self) -> None:
        """Put the keyboard focus in the box (Enter then answers)."""
        self.send({"do": "focus"})

    def _on_submitted(self, change: dict[str, Any]) -> None:
        try:
            for callback in self._callbacks:
                callback(self.value)
        finally:
            self.answered = self.submitted

