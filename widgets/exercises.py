"""Exercise sets on screen: one exercise at a time, answered by clicks, checked in the kernel.

``ExerciseSetView(session)`` (what ``ExerciseSet.show()`` returns) draws the
position with card pictures and gives the student buttons: cards to pick,
``+``/``−`` for a Suns to Moons play, Yes/No, one button per choice. Every
click is a button event handled here; the pending answer (cards picked so
far) lives in the kernel, the only text the page can send (a typed number) is
validated before use, and no answer or solution ever sits in a widget field
until the student has answered or earned the worked solution.

Also here: the class table and the "most missed" bar chart of the teacher's
dashboard, drawn as plain HTML/SVG (no plotting library needed).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from mathcards.asking import DEFAULT_LEVEL, LEVELS, SHOW
from mathcards.errors import MathCardsError
from mathcards.exercises.session import Session
from mathcards.games.suns_to_moons import (
    JOKER_PLAY,
    Play,
    card_values,
    count_deck,
    deck_terms,
    number,
    signed,
)
from mathcards.table import SHORT_GAMES, short_game
from mathcards.widgets import VIEWS
from mathcards.widgets.cards import CardButton, card_face_html, esc, style_html
from mathcards.widgets.lesson import cards_of, dice_svg

__all__ = ["DashboardView", "ExerciseSetView", "class_link", "class_link_builder",
           "class_table_html", "dashboard", "dashboard_html", "grid_html", "missed_chart_svg",
           "practice_page", "progress_html", "sample_sets"]

EXTRA_CSS = """
<style>
.mathcards .mc-ex-head h2 { margin: 0 0 4px 0; font-size: 1.3em; }
.mathcards .mc-ex-prompt { font-size: 1.1em; font-weight: 600; margin: 6px 0; }
.mathcards .mc-result { padding: 6px 10px; border-radius: 6px; margin: 4px 0; }
.mathcards .mc-right { background: #e8f5e9; border: 2px solid #2e7d32; }
.mathcards .mc-wrong { background: #fff1e6; border: 2px solid #c25400; }
.mathcards .mc-partial { background: #fffde7; border: 2px solid #9e7c00; }
.mathcards .mc-hint-box { background: #eef3fb; border-left: 4px solid #1a56b8; padding: 4px 8px; }
.mathcards table.mc-progress { border-collapse: collapse; margin: 4px 0; }
.mathcards table.mc-progress td, .mathcards table.mc-progress th {
  border: 1px solid #c9ced6; padding: 2px 8px; text-align: left; }
.mathcards .mc-teacher { background: #f3e5f5; border: 1px dashed #6a1b9a; padding: 2px 8px; }
</style>
"""


def refusal_html(text: str) -> str:
    """An answer that was not checked (unreadable, too soon...), said in one line."""
    return f'<div class="mc-result mc-wrong" role="alert">{esc(text)}</div>'


def hint_html(hint: Any, levels: int = 3) -> str:
    """A hint in its box: "Hint 1 of 3: ..." (a nudge, then which card, then the step;
    a lesson check may give fewer: "Hint 1 of 1")."""
    return f'<div class="mc-hint-box">Hint {hint.level} of {levels}: {hint.html}</div>'


# --- progress, class table and chart (plain HTML/SVG) -------------------------------------
def progress_html(session: Session) -> str:
    """The student's progress in this set: one row per exercise, then every attempt."""
    rows = []
    for p in session.progress():
        mark = "✔ solved" if p.solved else ("tried" if p.attempts else "not tried")
        rows.append(f"<tr><td>{p.number}</td><td>{esc(p.title)}</td><td>{p.attempts}</td>"
                    f"<td>{mark}</td><td>{round(p.best_score * 100)}%</td></tr>")
    attempts = session.attempts()
    log = []
    for i, a in enumerate(attempts[-30:], start=max(1, len(attempts) - 29)):
        verdict = "✔ right" if a.correct else (f"◐ {round(a.score * 100)}%" if a.score > 0
                                               else "✘ wrong")
        log.append(f'<tr class="mc-attempt"><td>{i}</td><td>exercise {a.number}</td>'
                   f"<td>{esc(a.answer)}</td><td>{verdict}</td><td>{a.hints_used}</td></tr>")
    attempt_table = (
        '<table class="mc-progress mc-attempts" aria-label="your attempts">'
        "<tr><th>#</th><th>exercise</th><th>answer</th><th>result</th><th>hints</th></tr>"
        + "".join(log) + "</table>") if log else "<p>No attempts yet.</p>"
    return (f'<div class="mc-progress-view"><h3>Your progress: {esc(session.student)}</h3>'
            '<table class="mc-progress" aria-label="progress by exercise">'
            "<tr><th>#</th><th>exercise</th><th>attempts</th><th>status</th><th>best</th></tr>"
            + "".join(rows) + "</table>" + attempt_table + "</div>")


def class_table_html(rows: Sequence[Any]) -> str:
    """The class table of the dashboard: one row per student and set."""
    if not rows:
        return "<p>No attempts yet.</p>"
    body = "".join(
        f"<tr><td>{esc(r.student)}</td><td>{esc(r.set_title)}</td><td>{r.solved} of "
        f"{r.exercises}</td><td>{r.attempts}</td><td>{round(r.mean_best * 100)}%</td>"
        f"<td>{r.hints_used}</td><td>{esc(r.last_seen[:16].replace('T', ' '))}</td></tr>"
        for r in rows)
    return ('<table class="mc-progress mc-class" aria-label="class table"><tr><th>student</th>'
            "<th>set</th><th>solved</th><th>attempts</th><th>mean best score</th><th>hints</th>"
            "<th>last seen (UTC)</th></tr>" + body + "</table>")


def missed_chart_svg(items: Sequence[Any], *, width: int = 560) -> str:
    """A horizontal bar chart of wrong attempts per exercise, most missed first (SVG text)."""
    if not items:
        return "<p>No wrong attempts yet.</p>"
    bar_h, gap, label_w = 22, 6, 230
    top = max(i.wrong for i in items) or 1
    height = len(items) * (bar_h + gap) + gap
    parts = [(f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} '
             f'{height}" aria-label="wrong attempts per exercise, most missed first" '
             'xmlns="http://www.w3.org/2000/svg"><title>Most missed exercises</title>')]
    for n, item in enumerate(items):
        y = gap + n * (bar_h + gap)
        length = round((width - label_w - 50) * item.wrong / top)
        label = f"{item.set_title[:18]} · {item.number}. {item.title[:16]}"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 15}" font-size="12" text-anchor="end" '
            f'font-family="sans-serif">{esc(label)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{max(length, 1)}" height="{bar_h}" '
            f'fill="#c25400"><title>{esc(label)}: {item.wrong} wrong of {item.attempts}'
            f"</title></rect>"
            f'<text x="{label_w + length + 4}" y="{y + 15}" font-size="12" '
            f'font-family="sans-serif">{item.wrong} of {item.attempts}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --- the exercise view ----------------------------------------------------------------------
def _mark_selected(button: W.Button, selected: bool) -> None:
    """A chosen card is raised, as on the tables (``mc-selected``)."""
    if selected:
        button.add_class("mc-selected")
    else:
        button.remove_class("mc-selected")


def _hand_row(buttons: list[W.Button]) -> W.HBox:
    """A row of card buttons laid out as a table's hand (it wraps on a narrow window)."""
    row = W.HBox(buttons, layout=W.Layout(flex_flow="row wrap"))
    row.add_class("mc-row")
    row.add_class("mc-hand")
    return row


class ExerciseSetView(W.VBox):
    """A set on screen for one student (see the module docstring)."""

    # Answers from the page are paced (a token bucket): a burst of ``answer_burst``,
    # then ``answer_rate`` a second, so a held-down key or a script cannot fill the
    # progress database; a student thinking between answers never meets the limit.
    answer_burst = 10
    answer_rate = 1.0
    clock = staticmethod(time.monotonic)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.add_class("mathcards")
        self.session = session
        self._tokens = float(self.answer_burst)
        self._tokens_at = self.clock()
        self.number = 1
        self._pending: list[Any] = []  # Suns to Moons plays, or Dice Stacks stacks
        self._selected: list[int] = []  # hand positions picked (stacks, capture)
        self._picked_card: int | None = None  # a Suns to Moons card waiting for its sign
        exercise_set = session.set
        teacher = ('<div class="mc-teacher">Teacher view: the worked solution is open and '
                   "the variant is shown.</div>" if session.teacher else "")
        self.w_head = W.HTML(
            f'{style_html()}{EXTRA_CSS}<div class="mc-ex-head"><h2>{esc(exercise_set.title)}'
            f"</h2><p>{esc(exercise_set.instructions)}</p>"
            f"<p>Student: <b>{esc(session.student)}</b></p>{teacher}</div>")
        self.w_prev = W.Button(description="◀ Previous", tooltip="previous exercise")
        self.w_next = W.Button(description="Next ▶", tooltip="next exercise")
        self.w_where = W.HTML("")
        self.w_prev.on_click(lambda _b: self.go(self.number - 1))
        self.w_next.on_click(lambda _b: self.go(self.number + 1))
        self.w_prompt = W.HTML("")
        self.w_picture = W.HTML("")
        self.w_answer = W.VBox([])
        self.w_hint_button = W.Button(description="Hint", tooltip="a hint: nudge, card, step")
        self.w_hint_button.on_click(lambda _b: self.show_hint())
        self.w_solution_button = W.Button(description="Worked solution")
        self.w_solution_button.on_click(lambda _b: self.show_solution())
        self.w_feedback = W.HTMLMath("")
        self.w_hint = W.HTMLMath("")
        self.w_progress = W.HTML("")
        self.children = [
            self.w_head,
            W.HBox([self.w_prev, self.w_where, self.w_next]),
            self.w_prompt, self.w_picture, self.w_answer,
            W.HBox([self.w_hint_button, self.w_solution_button]),
            self.w_feedback, self.w_hint, self.w_progress,
        ]
        self.go(1)

    # --- navigation -------------------------------------------------------------------------
    @property
    def variant(self):
        return self.session.variant(self.number)

    def go(self, number: int) -> None:
        if not 1 <= number <= len(self.session):
            return
        self.number = number
        self._pending, self._selected, self._picked_card = [], [], None
        self.w_feedback.value = ""
        self.w_hint.value = ""
        n = len(self.session)
        self.w_where.value = f"<b>&nbsp;Exercise {number} of {n}&nbsp;</b>"
        self.w_prev.disabled = number == 1
        self.w_next.disabled = number == n
        try:
            variant = self.variant
        except MathCardsError as exc:
            # a random exercise whose constraints this student's variant cannot meet:
            # say so in one line and let the student go on to the next exercise
            self.w_prompt.value = (
                f'<div class="mc-ex-prompt mc-refused" role="alert">This exercise cannot be '
                f"shown: {esc(str(exc))} Tell your teacher, and go on to the next one.</div>")
            self.w_picture.value = ""
            self.w_answer.children = ()
            self.w_hint_button.disabled = self.w_solution_button.disabled = True
            return
        self.w_hint_button.disabled = False
        prompt = esc(variant.prompt())
        if self.session.teacher:
            prompt += f'<div class="mc-teacher">variant: {esc(variant.text)}</div>'
        self.w_prompt.value = f'<div class="mc-ex-prompt">{prompt}</div>'
        self.w_picture.value = self._picture()
        self._build_answer()
        self._refresh()

    def _refresh(self) -> None:
        ready = self.session.solution_ready(self.number)
        self.w_solution_button.disabled = not ready
        if ready:
            self.w_solution_button.tooltip = "show a worked solution"
        else:
            left = (self.session.attempts_before_solution(self.number)
                    - self.session.wrong_attempts(self.number))
            self.w_solution_button.tooltip = (f"opens after {left} more "
                                              f"attempt{'s' if left != 1 else ''}")
        self.w_progress.value = progress_html(self.session)

    # --- the position as pictures ------------------------------------------------------------
    def _picture(self) -> str:
        pos = self.variant.position
        kind = self.variant.kind.name
        parts = []

        def row(label: str, cards: Any) -> None:
            # the tables' own card faces, at the size of the tables' card buttons
            faces = "".join(card_face_html(c, extra="mc-large") for c in cards_of(cards))
            parts.append(f'<div class="mc-zone"><div class="mc-zone-title">{esc(label)}</div>'
                         f'<div class="mc-row mc-ex-cards" role="group" '
                         f'aria-label="{esc(label)}">{faces}</div></div>')

        if kind in ("reach_goal", "deck_value"):
            deck = pos.get("deck")
            if deck:
                # drawn by the table's own code: added cards across, subtracted ones upright;
                # no card is greyed out, finding what a Joker removed is the student's work
                from mathcards.widgets.suns_to_moons import deck_html

                parts.append('<div class="mc-zone"><div class="mc-zone-title">The deck (centre '
                             "card first; a card lying across adds, an upright card "
                             f"subtracts)</div>{deck_html(deck, show_removed=False)}</div>")
            elif pos.get("counted") is not None:
                parts.append(f"<p>Counted so far: {esc(' '.join(map(str, pos['counted'])))}</p>")
            if kind == "reach_goal":
                parts.append(f"<p>Goal: <b>{esc(number(pos['goal']))}</b></p>")
        if "dice" in pos:
            d1, d2 = pos["dice"]
            parts.append(f'<div class="mc-zone">{dice_svg(d1)} {dice_svg(d2)} make '
                         f"<b>{d1 + d2}</b></div>")
        if kind == "is_stack":
            row("The cards", pos["cards"])
        if kind in ("planet_or_not", "moon_or_not"):
            row("The cards", pos["cards"])
        if kind == "find_capture":
            if pos.get("played") is not None:
                row("You play", [pos["played"]])
            row("Your face-up cards (helpers)", pos["own"])
            row("Their face-up cards", pos["opponent"])
        if kind in ("who_takes_trick", "which_prize"):
            row("The trick, in play order (first card led)", pos["trick"])
            if pos.get("prizes"):
                row("The prizes, first to last", pos["prizes"])
        if kind == "is_play_legal":
            if pos.get("led") is not None:
                row("Led", [pos["led"]])
            row("Your hand", pos["hand"])
        return "".join(parts)

    # --- answer widgets -----------------------------------------------------------------------
    def _card_button(self, card: Any, index: int, on_click) -> W.Button:
        """A card of the exercise's hand: the tables' ``CardButton`` (its text is the card's
        spoken name; the face is drawn by the style sheet), naming its place in the hand."""
        cb = CardButton(lambda _cb, i=index: on_click(i), mark="mc-ex-card")
        cb.show(card, key=str(index), enabled=True)
        return cb.button

    def _build_answer(self) -> None:
        style = self.variant.kind.answer_style
        pos = self.variant.position
        kind = self.variant.kind
        self.w_check = W.Button(description="Check", button_style="primary",
                                tooltip="check your answer")
        self.w_check.on_click(lambda _b: self.submit())
        self.w_built = W.HTML("")
        if style in ("choice", "yesno"):
            buttons = []
            # each button sends the answer it stands for (True, a prize number...), the
            # value the kind reads from typed answers too, never its place in the row
            for label, value in zip(kind.choices(pos), kind.choice_answers(pos), strict=True):
                b = W.Button(description=label, tooltip=label, layout=W.Layout(width="auto"))
                b.add_class("mc-ex-choice")
                b.on_click(lambda _b, value=value: self.submit(value))
                buttons.append(b)
            self.w_answer.children = [W.HBox(buttons, layout=W.Layout(flex_flow="row wrap"))]
        elif style == "number":
            self.w_number = W.Text(value="", placeholder="the deck value, like -3",
                                   layout=W.Layout(width="12em"))
            self.w_answer.children = [W.HBox([self.w_number, self.w_check])]
        elif style == "plays":
            self.w_hand = [self._card_button(c, i, self._pick_card)
                           for i, c in enumerate(pos["hand"])]
            self.w_signs = W.HBox([])
            undo = W.Button(description="Undo", tooltip="take back the last card")
            undo.on_click(lambda _b: self._undo())
            again = W.Button(description="Start again")
            again.on_click(lambda _b: self._restart())
            self.w_answer.children = [
                W.HTML("<b>Your hand</b> (click a card, then + or −)"),
                _hand_row(self.w_hand),
                self.w_signs, self.w_built, W.HBox([undo, again, self.w_check])]
            self._show_plays()
        elif style == "stacks":
            self.w_hand = [self._card_button(c, i, self._toggle_card)
                           for i, c in enumerate(pos["hand"])]
            make = W.Button(description="Make a stack", tooltip="the selected cards as a stack")
            make.on_click(lambda _b: self._make_stack())
            undo = W.Button(description="Undo stack")
            undo.on_click(lambda _b: self._undo())
            self.w_answer.children = [
                W.HTML("<b>Your hand</b> (select cards, then Make a stack)"),
                _hand_row(self.w_hand),
                W.HBox([make, undo, self.w_check]), self.w_built]
            self._show_stacks()
        elif style == "capture":
            played = pos.get("played")
            self.w_opponent = [self._card_button(c, i, self._pick_target)
                               for i, c in enumerate(pos["opponent"])]
            rows: list[W.Widget] = []
            if played is None:
                self.w_hand = [self._card_button(c, i, self._pick_played)
                               for i, c in enumerate(pos["hand"])]
                rows += [W.HTML("<b>Your hand</b>: pick the card to play"),
                         _hand_row(self.w_hand)]
            rows += [W.HTML("<b>Their cards</b>: pick the card it captures"),
                     _hand_row(self.w_opponent)]
            self.w_answer.children = rows

    # Suns to Moons: a card, then its sign ------------------------------------------------------
    def _used(self) -> list[int]:
        return [i for i, _ in self._pending]

    def _pick_card(self, index: int) -> None:
        hand = self.variant.position["hand"]
        if not 0 <= index < len(hand) or index in self._used():
            return
        card = hand[index]
        if card.is_joker:
            self._pending.append((index, JOKER_PLAY))
            self._show_plays()
            return
        self._picked_card = index
        buttons = []
        for value in card_values(card):
            for sign in (1, -1):
                label = signed(sign * value)
                b = W.Button(description=label, tooltip=f"{card.name} as {label}",
                             layout=W.Layout(width="auto"))
                b.add_class("mc-ex-sign")
                play = Play(card, sign, value)
                b.on_click(lambda _b, p=play, i=index: self._add_play(i, p))
                buttons.append(b)
        self.w_signs.children = [W.HTML(f"{esc(card.symbol)}: add or subtract? "), *buttons]

    def _add_play(self, index: int, play: Any) -> None:
        if index in self._used() or index != self._picked_card:
            return
        self._pending.append((index, play))
        self._picked_card = None
        self.w_signs.children = []
        self._show_plays()

    def _show_plays(self) -> None:
        used = self._used()
        for i, b in enumerate(self.w_hand):
            b.disabled = i in used
        from mathcards.exercises.kinds import position_state

        counted = position_state(self.variant.position).counted
        if not self._pending:
            self.w_built.value = (f"<p>Deck now: <b>{esc(number(sum(counted)))}</b>. "
                                  "No cards played yet.</p>")
            return
        plays = [play for _i, play in self._pending]
        words = ["Joker" if p.card.is_joker else f"{p.card.symbol} {signed(p.contribution)}"
                 for p in plays]
        if self.session.level != SHOW:  # "I count": the deck after the plays is the sum to do
            self.w_built.value = (f"<p>Your plays: {esc(', '.join(words))}. Work out the "
                                  "deck after them, then press Check.</p>")
            return
        value = count_deck([*counted, *deck_terms(plays)]).value  # the engine's Joker rule
        self.w_built.value = (f"<p>Your plays: {esc(', '.join(words))}; the deck would be "
                              f"<b>{esc(number(value))}</b>. Press Check.</p>")

    # Dice Stacks: select cards, make stacks ------------------------------------------------------
    def _toggle_card(self, index: int) -> None:
        used = {i for stack in self._pending for i in stack}
        if index in used or not 0 <= index < len(self.w_hand):
            return
        if index in self._selected:
            self._selected.remove(index)
        else:
            self._selected.append(index)
        self._show_stacks()

    def _make_stack(self) -> None:
        if self._selected:
            self._pending.append(tuple(self._selected))
            self._selected = []
        self._show_stacks()

    def _show_stacks(self) -> None:
        used = {i for stack in self._pending for i in stack}
        hand = self.variant.position["hand"]
        for i, b in enumerate(self.w_hand):
            b.disabled = i in used
            _mark_selected(b, i in self._selected)
        if self._pending:
            stacks = " | ".join(" ".join(hand[i].symbol for i in s) for s in self._pending)
            self.w_built.value = f"<p>Your stacks: {esc(stacks)}</p>"
        else:
            self.w_built.value = "<p>No stacks yet.</p>"

    # Sums: the card to play, then its target -----------------------------------------------------
    def _pick_played(self, index: int) -> None:
        self._picked_card = index
        for i, b in enumerate(self.w_hand):
            _mark_selected(b, i == index)

    def _pick_target(self, index: int) -> None:
        pos = self.variant.position
        if not 0 <= index < len(pos["opponent"]):
            return
        played = pos.get("played")
        if played is None:
            if self._picked_card is None:
                self._say_refused("First pick the card from your hand you want to play.")
                return
            played = pos["hand"][self._picked_card]
        self.submit((played, pos["opponent"][index]))

    def _undo(self) -> None:
        if self._pending:
            self._pending.pop()
        self._picked_card = None
        self._show_built()

    def _restart(self) -> None:
        self._pending, self._picked_card = [], None
        self._show_built()

    def _show_built(self) -> None:
        """The plays or the stacks built so far (a card waiting for its sign is put back)."""
        if self.variant.kind.answer_style == "plays":
            self.w_signs.children = []
            self._show_plays()
        else:
            self._show_stacks()

    # --- checking, hints, solutions ------------------------------------------------------------
    def _answer_now(self) -> Any:
        style = self.variant.kind.answer_style
        if style == "plays":
            return [play for _i, play in self._pending]
        if style == "stacks":
            hand = self.variant.position["hand"]
            stacks = list(self._pending)
            if self._selected:
                stacks.append(tuple(self._selected))
            return [tuple(hand[i] for i in s) for s in stacks]
        if style == "number":
            return self.w_number.value[:12]
        return None

    def _say_refused(self, text: str) -> None:
        self.w_feedback.value = refusal_html(text)

    def submit(self, answer: Any = None) -> Any:
        """Check the answer built so far (or the one given by a click) in the kernel."""
        now = self.clock()
        self._tokens = min(float(self.answer_burst),
                           self._tokens + max(0.0, now - self._tokens_at) * self.answer_rate)
        self._tokens_at = now
        if self._tokens < 1:
            self._say_refused("Slow down: one answer a second. Read the feedback, then try "
                              "again (this answer was not checked).")
            return None
        if answer is None:
            answer = self._answer_now()
        try:
            self._tokens -= 1
            result = self.session.check(self.number, answer)
        except MathCardsError as exc:  # unreadable: say so, record nothing
            self._say_refused(str(exc))
            return None
        self.w_feedback.value = result.html
        if self.variant.kind.answer_style in ("plays", "stacks"):
            self._pending, self._selected, self._picked_card = [], [], None
            self._show_built()
        self._refresh()
        return result

    def show_hint(self) -> Any:
        try:
            hint = self.session.hint(self.number)
        except MathCardsError as exc:  # e.g. a position too costly to search: one line
            self._say_refused(str(exc))
            return None
        self.w_hint.value = hint_html(hint)
        return hint

    def show_solution(self) -> Any:
        try:
            result = self.session.solution(self.number)
        except MathCardsError as exc:
            self._say_refused(str(exc))
            return None
        self.w_hint.value = f'<div class="mc-hint-box">Worked solution: {result.html}</div>'
        return result


# --- pages: the student's practice page and the teacher's dashboard -------------------------
_SET_NAME = __import__("re").compile(r"^[A-Za-z0-9_-]{1,60}$")


def sample_sets(folder: str | Any = "exercises") -> list[str]:
    """The names of the set files in ``folder`` (``suns_to_moons`` for suns_to_moons.yaml)."""
    return sorted(p.stem for p in Path(folder).glob("*.yaml") if _SET_NAME.match(p.stem))


def practice_page(folder: str | Any = "exercises", *, query: str | None = None,
                  store: Any = None) -> W.Widget:
    """The student's page: ``?set=suns_to_moons&student=ana`` opens that set for that student.

    ``&level=show`` opens it at "Show me the sums" (the deck after the plays is shown
    before *Check*); without it, or with any other value, at "I count" (nothing shown).

    Only a set file that exists in ``folder`` can be opened (the name is checked,
    never used as a path as given); a bad name or student shows the list of sets.
    """
    from urllib.parse import parse_qs, quote

    from mathcards.exercises import ExerciseFileError, load_set
    from mathcards.students import hub_login, hub_student_id, student_id
    from mathcards.widgets import _page_query

    params = parse_qs((_page_query() if query is None else query)[:500])
    names = sample_sets(folder)
    name = (params.get("set") or [""])[0]
    level = (params.get("level") or [DEFAULT_LEVEL])[0]
    level = level if level in LEVELS else DEFAULT_LEVEL
    problem = ""
    login = hub_login()
    if login is not None:  # a JupyterHub server: its user, whatever the address says
        student = hub_student_id(login)
    else:
        student = (params.get("student") or ["guest"])[0]
        try:
            student = student_id(student)
        except MathCardsError as exc:
            problem, student = str(exc), "guest"
    if name in names and not problem:
        try:
            exercise_set = load_set(Path(folder) / f"{name}.yaml", check=False)
        except ExerciseFileError as exc:  # the set's name, never the server's path
            first = exc.problems[0] if exc.problems else "it cannot be read"
            problem = (f"the set {name!r} cannot be used ({first}): ask your teacher to run "
                       f"'python -m mathcards check {name}.yaml'")
        else:
            from mathcards.exercises.progress import ProgressError

            try:
                return exercise_set.show(student, store=store, level=level)
            except ProgressError:  # one line for the student; the teacher's check names it
                problem = ("your answers cannot be saved on this server right now (its "
                           "progress file cannot be opened): tell your teacher")
    if name and name not in names:
        problem = f"there is no exercise set {name[:60]!r}"
    who = "" if login is not None else f"&student={quote(student)}"
    links = "".join(
        f'<li><a href="?set={quote(n)}{who}">{esc(n.replace("_", " "))}'
        "</a></li>" for n in names)
    note = f'<p class="mc-refused">{esc(problem)}</p>' if problem else ""
    name_note = (f"Your progress is kept under your login (<b>{esc(login)}</b>)."
                 if login is not None else
                 "Add <code>&amp;student=yourname</code> to the address so your progress is "
                 f"kept under your name (now: <b>{esc(student)}</b>).")
    page = W.HTML(
        f"{style_html()}{EXTRA_CSS}<h2>Practice</h2>{note}<p>Choose a set of exercises. "
        f"{name_note}</p><ul>{links}</ul>")
    page.add_class("mathcards")
    return page


def _shown_answer(answer: str) -> str:
    """An answer as the page shows it: minus signs as real minus signs (-3H reads −3H)."""
    return " ".join(("\u2212" + part[1:]) if part.startswith("-") else part
                    for part in answer.split())


def grid_html(grid: Any) -> str:
    """The student x exercise grid: per cell the result, the wrong answers and the hints."""
    if not grid.students:
        return "<p>No attempts yet.</p>"
    head = "".join(
        f'<th scope="col">{esc(c.set_title[:24])}<br>{c.number}. '
        f"{esc(c.kind.replace('_', ' '))}</th>" for c in grid.columns)
    rows = []
    for student in grid.students:
        cells = []
        for n in range(len(grid.columns)):
            cell = grid.cell(student, n)
            if cell is None:
                cells.append('<td class="mc-cell mc-untried">not tried</td>')
                continue
            mark = {"solved": "✔ solved", "partly right": "◐ partly right"}.get(
                cell.result, "✘ not solved yet")
            tries = f"{cell.attempts} tr{'ies' if cell.attempts != 1 else 'y'}"
            parts = [f"<b>{mark}</b> ({tries})"]
            if cell.wrong_answers:
                slips = set(cell.sign_slips)
                wrong = ", ".join(
                    f"<code>{esc(_shown_answer(w))}</code>"
                    + (' <span class="mc-slip">sign slip</span>' if w in slips else "")
                    for w in cell.wrong_answers[-6:])
                more = (f" and {len(cell.wrong_answers) - 6} more"
                        if len(cell.wrong_answers) > 6 else "")
                parts.append(f"wrong: {wrong}{more}")
            if cell.right_answer:
                parts.append(f"right: <code>{esc(_shown_answer(cell.right_answer))}</code>")
            parts.append(f"hints: {cell.hints_used}")
            result_class = cell.result.replace(" ", "-")
            cells.append(f'<td class="mc-cell mc-{result_class}">' + "<br>".join(parts)
                         + "</td>")
        rows.append(f'<tr><th scope="row">{esc(student)}</th>{"".join(cells)}</tr>')
    return ('<div class="mc-grid-wrap"><table class="mc-progress mc-grid" '
            'aria-label="students by exercises"><tr><th scope="col">student</th>'
            f"{head}</tr>{''.join(rows)}</table></div>")


GRID_CSS = """
<style>
.mathcards .mc-grid-wrap { overflow-x: auto; max-width: 100%; }
.mathcards table.mc-grid td { vertical-align: top; min-width: 9em; }
.mathcards .mc-cell.mc-solved { background: #e8f5e9; }
.mathcards .mc-cell.mc-partly-right { background: #fffde7; }
.mathcards .mc-cell.mc-not-solved-yet { background: #fff1e6; }
.mathcards .mc-cell.mc-untried { color: #555; }
.mathcards .mc-slip { background: #6a1b9a; color: #fff; border-radius: 4px; padding: 0 4px;
  font-size: 0.85em; }
</style>
"""


class DashboardView(W.VBox):
    """The teacher's dashboard: read when built, and again on **Refresh**."""

    def __init__(self, source: Any = None, *, top: int = 10) -> None:
        from mathcards.widgets.skill_grid import skill_downloads

        self.source, self.top = source, top
        self.w_refresh = W.Button(description="Refresh", icon="refresh",
                                  tooltip="read the students' latest attempts")
        self.w_refresh.on_click(lambda _b: self.refresh())
        self.w_content = W.HTML("")
        self.w_content.add_class("mathcards")
        self.w_download = skill_downloads(lambda: dashboard_answers(self.source))
        super().__init__([self.w_refresh, self.w_content, self.w_download])
        self.add_class("mathcards")
        self.refresh()

    @property
    def value(self) -> str:
        """The dashboard's text as shown (HTML)."""
        return str(self.w_content.value)

    def refresh(self) -> None:
        self.w_content.value = dashboard_html(self.source, top=self.top)
        self.w_download.w_out.value = ""  # a download made before is out of date


def _dashboard_source(source: Any) -> tuple[Any, str, bool]:
    """Where the dashboard reads, how the page names it (never its path on the server),
    and whether there is anything to read yet."""
    from mathcards.exercises.progress import class_progress_folder, default_progress_path

    if source is None and class_progress_folder() is not None:
        source, shown = class_progress_folder(), "the class's progress folder"
    else:  # the page names what it read, never where it lives on the server
        shown = ("this server's progress database" if source is None
                 else Path(str(source)).name)
    where = source if source is not None else default_progress_path()
    # no database yet on this server: nobody has answered anything
    readable = Path(str(where)).exists() or (
        source is not None and shown != "the class's progress folder")
    return where, shown, readable


def dashboard_answers(source: Any = None) -> list[Any]:
    """The answers (play and exercises) the dashboard reads from ``source``."""
    from mathcards.exercises.results import read_answers

    where, _shown, readable = _dashboard_source(source)
    return read_answers(where) if readable else []


def dashboard_html(source: Any = None, *, top: int = 10) -> str:
    """The dashboard's HTML, read now: summary, skill grid, exercise grid, class table and
    most-missed chart."""
    from mathcards.exercises.progress import progress_grid
    from mathcards.exercises.results import class_table, most_missed, read_results
    from mathcards.exercises.skill_grid import skill_grid
    from mathcards.widgets.skill_grid import skill_grid_html

    where, shown, readable = _dashboard_source(source)
    try:
        attempts = read_results(where) if readable else []
        answers = dashboard_answers(source)
    except MathCardsError as exc:
        return f'{style_html()}<p class="mc-refused">{esc(exc)}</p>'
    students = len({a.student for a in attempts})
    answering = len({a.student for a in answers})
    read_at = time.strftime("%H:%M:%S")
    return (
        f"{style_html()}{EXTRA_CSS}{GRID_CSS}<p>Results from <code>{esc(shown)}</code>: "
        f"{len(attempts)} attempts by {students} student{'s' if students != 1 else ''} "
        f'<span class="mc-read-at">(read at {read_at})</span>; {len(answers)} '
        f"answer{'s' if len(answers) != 1 else ''} by skill, at the tables and in the "
        f"exercises, by {answering} student{'s' if answering != 1 else ''}.</p>"
        f"<h3>Each student, each skill</h3>{skill_grid_html(skill_grid(answers))}"
        f"<h3>Each student, each exercise</h3>{grid_html(progress_grid(attempts))}"
        f"<h3>Class table</h3>{class_table_html(class_table(attempts))}"
        f"<h3>Most missed exercises</h3>{missed_chart_svg(most_missed(attempts, top))}")


def dashboard(source: Any = None, *, top: int = 10) -> DashboardView:
    """The teacher's dashboard: a student x exercise grid, class table and most-missed chart
    from exports or a database, read when it is built and again on Refresh.

    Without ``source`` it reads the class's progress folder when one is set
    (``MATHCARDS_CLASS_PROGRESS``, on a hub), else this server's database."""
    return DashboardView(source, top=top)


# --- the class link builder -----------------------------------------------------------------
# A shorter game, as a deal code carries it (the play pages read only ?deal=, ?seats=, ?delay=):
# SHORT_GAMES (mathcards.table) is the one list; a play page without a deal code starts with it.
PLAY_PAGES = tuple(VIEWS)  # every game with a table (mathcards.widgets.VIEWS) has a play page


def class_link(page: str, *, folder: str | Any = "exercises", players: int = 2,
               short: bool = False, deal: str = "", seed: int | None = None,
               level: str = DEFAULT_LEVEL, fixed: bool = False) -> str:
    """The link (relative to the lessons) for the class: ``practice.ipynb?set=NAME`` for
    ``page="set:NAME"``, ``play_GAME.ipynb?deal=CODE&level=LEVEL`` for ``page="play:GAME"``.

    ``level`` is the level of help the page opens at (``show``, ``count``,
    ``count_no_hints``; mathcards.asking.LEVELS); ``fixed`` adds ``&fixed=1``: the play
    page does not let the student change it. A practice link carries ``&level=`` only when
    it is not the default "I count".

    A play link always carries a deal code, so the whole class gets the same cards:
    ``deal`` when given (checked, and for that game), else a new one for ``players``
    (and the short game's setting when ``short``). Raises MathCardsError with one line."""
    from urllib.parse import quote

    from mathcards import saves
    from mathcards.games.registry import get_game_class

    if level not in LEVELS:
        raise MathCardsError(f"there is no level of help {str(level)[:30]!r}: choose "
                             f"{', '.join(LEVELS)}")
    kind, _, name = page.partition(":")
    if kind == "set":
        if name not in sample_sets(folder):
            raise MathCardsError(f"there is no exercise set {name[:60]!r}: choose one listed")
        at = "" if level == DEFAULT_LEVEL else f"&level={level}"
        return f"practice.ipynb?set={quote(name)}{at}"
    if kind != "play" or name not in PLAY_PAGES:
        raise MathCardsError(f"there is no page {page[:60]!r}: choose one listed")
    game_cls = get_game_class(name)
    if deal.strip():
        game, _seed = saves.read_deal_code(deal)
        if game.name != name:
            raise saves.DealCodeError(
                f"deal code {deal.strip()[:40]!r} is for {game.title}, not {game_cls.title}")
        code = saves.deal_code(game, _seed)
    else:
        try:
            game = game_cls(num_players=players)
        except TypeError as exc:
            raise MathCardsError(f"{game_cls.title} cannot be dealt that way ({exc})") from None
        if short:
            game = short_game(game) or game
        code = saves.deal_code(game, saves.new_seed() if seed is None else seed)
    return f"play_{name}.ipynb?deal={quote(code)}&level={level}{'&fixed=1' if fixed else ''}"


def class_link_builder(folder: str | Any = "exercises") -> W.VBox:
    """Choose an exercise set or a game (a deal code, a short game): the link for the class."""
    from mathcards.games.registry import get_game_class

    options = [(f"Practice: {n.replace('_', ' ')}", f"set:{n}") for n in sample_sets(folder)]
    for name in PLAY_PAGES:
        try:
            options.append((f"Play: {get_game_class(name).title}", f"play:{name}"))
        except (KeyError, ImportError, MathCardsError):  # a game not in this checkout
            continue
    w_page = W.Dropdown(options=options, description="Page")
    w_players = W.BoundedIntText(value=2, min=2, max=8, description="Players")
    w_short = W.Checkbox(value=False, description="Short game", indent=False)
    w_deal = W.Text(value="", description="Deal code", placeholder="empty: a new deal")
    w_level = W.Dropdown(options=[(words, key) for key, words in LEVELS.items()],
                         value=DEFAULT_LEVEL, description="Help")
    w_fixed = W.Checkbox(value=False, description="Fix it (students cannot change the help)",
                         indent=False)
    w_make = W.Button(description="Make the link", button_style="primary")
    w_out = W.HTML("")
    w_out.add_class("mathcards")

    def update(_change: Any = None) -> None:
        is_play = str(w_page.value).startswith("play:")
        name = str(w_page.value).partition(":")[2]
        w_players.disabled = w_deal.disabled = w_fixed.disabled = not is_play
        w_short.disabled = not is_play or name not in SHORT_GAMES
        w_short.description = (f"Short game (first to {SHORT_GAMES[name][1]})"
                               if name in SHORT_GAMES else "Short game")
        if is_play:
            game_cls = get_game_class(name)
            w_players.min, w_players.max = game_cls.min_players, game_cls.max_players

    def make(_b: Any = None) -> None:
        try:
            link = class_link(str(w_page.value), folder=folder, players=int(w_players.value),
                              short=bool(w_short.value) and not w_short.disabled,
                              deal=str(w_deal.value)[:60], level=str(w_level.value),
                              fixed=bool(w_fixed.value) and not w_fixed.disabled)
        except MathCardsError as exc:
            w_out.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return
        w_out.value = (f'<p role="status">The link for the class: <a href="{esc(link)}" '
                       f'target="_blank"><code>…/{esc(link)}</code></a> (each student adds '
                       "<code>&amp;student=</code> and their name at its end, to keep their "
                       "own progress)</p>")

    w_page.observe(update, "value")
    w_make.on_click(make)
    update()
    box = W.VBox([W.HTML("<h3>A link for the class</h3>"), w_page,
                  W.HBox([w_players, w_short]), w_deal, W.HBox([w_level, w_fixed]), w_make,
                  w_out])
    box.add_class("mathcards")
    box.make = make  # type: ignore[attr-defined]
    box.w_page, box.w_players, box.w_short, box.w_deal, box.w_out = (  # type: ignore[attr-defined]
        w_page, w_players, w_short, w_deal, w_out)
    box.w_level, box.w_fixed = w_level, w_fixed  # type: ignore[attr-defined]
    return box
