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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from mathcards.asking import DEFAULT_LEVEL, LEVELS, SHOW
from mathcards.errors import MathCardsError
from mathcards.exercises.session import ExerciseVariant, Session
from mathcards.games.suns_to_moons import (
    JOKER_PLAY,
    Play,
    card_values,
    count_deck,
    deck_terms,
    number,
    signed,
)
from mathcards.i18n import N_, _, ngettext
from mathcards.table import short_game, short_setting
from mathcards.widgets import table_games
from mathcards.widgets.cards import CardButton, card_face_html, esc, style_html
from mathcards.widgets.lesson import cards_of, dice_svg
from mathcards.widgets.student_page import student_link_html

__all__ = ["DashboardView", "ExerciseSetView", "class_link", "class_link_builder",
           "class_table_html", "dashboard", "dashboard_html", "grid_html", "missed_chart_svg",
           "practice_page", "progress_html", "sample_files", "sample_sets", "set_file",
           "student_set"]

EXTRA_CSS = """
<style>
.mathcards a.mc-set-link { color: #1a56b8; text-decoration: underline; font-weight: 600;
  font-size: 1.1em; line-height: 1.8; }
.mathcards a.mc-set-link:hover { color: #0d3c8c; text-decoration-thickness: 2px; }
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
    head = esc(_("Hint {level} of {levels}:").format(level=hint.level, levels=levels))
    return f'<div class="mc-hint-box">{head} {hint.html}</div>'


# --- progress, class table and chart (plain HTML/SVG) -------------------------------------
def progress_html(session: Session) -> str:
    """The student's progress in this set: one row per exercise, then every attempt (the
    answers as the student saw them: card symbols, not codes)."""
    from mathcards.exercises.exercise_grid import answer_shown

    rows = []
    solved, tried, untried = _("✔ solved"), _("tried"), _("not tried")
    for p in session.progress():
        mark = solved if p.solved else (tried if p.attempts else untried)
        rows.append(f"<tr><td>{p.number}</td><td>{esc(p.title)}</td><td>{p.attempts}</td>"
                    f"<td>{esc(mark)}</td><td>{round(p.best_score * 100)}%</td></tr>")
    attempts = session.attempts()
    log = []
    right, wrong, exercise_n = _("✔ right"), _("✘ wrong"), _("exercise {number}")
    for i, a in enumerate(attempts[-30:], start=max(1, len(attempts) - 29)):
        verdict = right if a.correct else (f"◐ {round(a.score * 100)}%" if a.score > 0
                                           else wrong)
        log.append(f'<tr class="mc-attempt"><td>{i}</td>'
                   f"<td>{esc(exercise_n.format(number=a.number))}</td>"
                   f"<td>{esc(answer_shown(a.answer))}</td><td>{esc(verdict)}</td>"
                   f"<td>{a.hints_used}</td></tr>")
    yours, by_exercise = _("your attempts"), _("progress by exercise")
    none = _("No attempts yet.")
    attempt_heads = ["#", _("exercise"), _("answer"), _("result"), _("hints")]
    heads = ["#", _("exercise"), _("attempts"), _("status"), _("best")]
    attempt_table = (
        f'<table class="mc-progress mc-attempts" aria-label="{esc(yours)}">'
        "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in attempt_heads) + "</tr>"
        + "".join(log) + "</table>") if log else f"<p>{esc(none)}</p>"
    title = _("Your progress: {name}").format(name=session.student)
    return (f'<div class="mc-progress-view"><h3>{esc(title)}</h3>'
            f'<table class="mc-progress" aria-label="{esc(by_exercise)}">'
            "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in heads) + "</tr>"
            + "".join(rows) + "</table>" + attempt_table + "</div>")


def class_table_html(rows: Sequence[Any]) -> str:
    """The class table of the dashboard: one row per student and set."""
    if not rows:
        none = _("No attempts yet.")
        return f"<p>{esc(none)}</p>"
    of = _("{done} of {needed}")
    body = "".join(
        f"<tr><td>{esc(r.student)}</td><td>{esc(r.set_title)}</td><td>"
        f"{esc(of.format(done=r.solved, needed=r.exercises))}</td><td>{r.attempts}</td>"
        f"<td>{round(r.mean_best * 100)}%</td>"
        f"<td>{r.hints_used}</td><td>{esc(r.last_seen[:16].replace('T', ' '))}</td></tr>"
        for r in rows)
    heads = (_("student"), _("set"), _("solved"), _("attempts"), _("mean best score"),
             _("hints"), _("last seen (UTC)"))
    label = _("class table")
    return (f'<table class="mc-progress mc-class" aria-label="{esc(label)}"><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in heads) + "</tr>" + body + "</table>")


def _label_lines(text: str, width: int = 30) -> list[str]:
    """A label in whole words, lines of about ``width`` characters (never cut mid-word)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def missed_chart_svg(items: Sequence[Any], *, width: int = 620,
                     students: int | None = None) -> str:
    """A horizontal bar chart of wrong attempts per exercise, most missed first (SVG text):
    labels wrap in whole words; counts in plain units ("3 wrong of 5 tries, 2 of 4
    students" when the class's number of students is given)."""
    if not items:
        none = _("No wrong attempts yet.")
        return f"<p>{esc(none)}</p>"
    line_h, gap, label_w = 15, 8, 240
    labels = [_label_lines(f"{item.number}. {item.title}") for item in items]
    heights = [max(22, len(lines) * line_h + 6) for lines in labels]
    height = sum(heights) + gap * (len(items) + 1)
    top = max(i.wrong for i in items) or 1
    said, title = _("wrong attempts per exercise, most missed first"), _("Most missed exercises")
    parts = [(f'<svg role="img" width="{width}" height="{height}" viewBox="0 0 {width} '
             f'{height}" aria-label="{esc(said)}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{esc(title)}</title>')]
    y = gap
    for item, lines, bar_h in zip(items, labels, heights, strict=True):
        length = round((width - label_w - 210) * item.wrong / top)
        count = ngettext("{wrong} wrong of {n} try", "{wrong} wrong of {n} tries",
                         item.attempts).format(wrong=item.wrong, n=item.attempts)
        who = (ngettext("{some} of {n} student", "{some} of {n} students", students).format(
            some=item.students, n=students) if students else
            ngettext("{n} student", "{n} students", item.students).format(n=item.students))
        spans = "".join(f'<tspan x="{label_w - 6}" dy="{line_h if n else 0}">{esc(line)}'
                        "</tspan>" for n, line in enumerate(lines))
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 15}" font-size="12" text-anchor="end" '
            f'font-family="sans-serif">{spans}</text>'
            f'<rect x="{label_w}" y="{y}" width="{max(length, 1)}" height="{bar_h}" '
            f'fill="#c25400"><title>{esc(" ".join(lines))}: {count}, {who}</title></rect>'
            f'<text x="{label_w + length + 4}" y="{y + 15}" font-size="12" '
            f'font-family="sans-serif">{count}, {who}</text>')
        y += bar_h + gap
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


class ExerciseSetView(W.VBox):  # type: ignore[misc]  # ipywidgets ships no types
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
        teacher_words = _("Teacher view: the worked solution is open and the variant is "
                          "shown.")
        teacher = (f'<div class="mc-teacher">{esc(teacher_words)}</div>'
                   if session.teacher else "")
        student_line = _("Student: {name}").format(name="\x00")
        before, _sep, after = esc(student_line).partition("\x00")
        self.w_head = W.HTML(
            f'{style_html()}{EXTRA_CSS}<div class="mc-ex-head">'
            f"<h2>{esc(exercise_set.shown_title())}</h2><p>{esc(exercise_set.shown_instructions())}</p>"
            f"<p>{before}<b>{esc(session.student)}</b>{after}</p>{teacher}</div>")
        self.w_prev = W.Button(description=_("◀ Previous"), tooltip=_("previous exercise"))
        self.w_next = W.Button(description=_("Next ▶"), tooltip=_("next exercise"))
        self.w_where = W.HTML("")
        self.w_prev.on_click(lambda _b: self.go(self.number - 1))
        self.w_next.on_click(lambda _b: self.go(self.number + 1))
        self.w_prompt = W.HTML("")
        self.w_picture = W.HTML("")
        self.w_answer = W.VBox([])
        self.w_hint_button = W.Button(description=_("Hint"),
                                      tooltip=_("a hint: nudge, card, step"))
        self.w_hint_button.on_click(lambda _b: self.show_hint())
        self.w_solution_button = W.Button(description=_("Worked solution"))
        self.w_solution_button.on_click(lambda _b: self.show_solution())
        self.w_feedback = W.HTMLMath("")
        self.w_hint = W.HTMLMath("")
        self.w_progress = W.HTML("")
        self.w_end = W.HTML("")
        self.children = [
            self.w_head,
            W.HBox([self.w_prev, self.w_where, self.w_next]),
            self.w_prompt, self.w_picture, self.w_answer,
            W.HBox([self.w_hint_button, self.w_solution_button]),
            self.w_feedback, self.w_hint, self.w_end, self.w_progress,
        ]
        self.go(1)

    # --- navigation -------------------------------------------------------------------------
    @property
    def variant(self) -> ExerciseVariant:
        return self.session.variant(self.number)

    def go(self, number: int) -> None:
        if not 1 <= number <= len(self.session):
            return
        self.number = number
        self._pending, self._selected, self._picked_card = [], [], None
        self.w_feedback.value = ""
        self.w_hint.value = ""
        n = len(self.session)
        where = _("Exercise {number} of {count}").format(number=number, count=n)
        self.w_where.value = f"<b>&nbsp;{esc(where)}&nbsp;</b>"
        self.w_prev.disabled = number == 1
        self.w_next.disabled = number == n
        try:
            variant = self.variant
        except MathCardsError as exc:
            # a random exercise whose constraints this student's variant cannot meet:
            # say so in one line and let the student go on to the next exercise
            words = _("This exercise cannot be shown: {problem} Tell your teacher, and go on "
                      "to the next one.").format(problem=str(exc))
            self.w_prompt.value = (
                f'<div class="mc-ex-prompt mc-refused" role="alert">{esc(words)}</div>')
            self.w_picture.value = ""
            self.w_answer.children = ()
            self.w_hint_button.disabled = self.w_solution_button.disabled = True
            return
        self.w_hint_button.disabled = False
        prompt = esc(variant.prompt())
        if self.session.teacher:
            variant_words = _("variant: {text}").format(text=variant.text)
            prompt += f'<div class="mc-teacher">{esc(variant_words)}</div>'
        self.w_prompt.value = f'<div class="mc-ex-prompt">{prompt}</div>'
        self.w_picture.value = self._picture()
        self._build_answer()
        self._refresh()

    def _refresh(self) -> None:
        ready = self.session.solution_ready(self.number)
        self.w_solution_button.disabled = not ready
        if ready:
            self.w_solution_button.tooltip = _("show a worked solution")
        else:
            left = (self.session.attempts_before_solution(self.number)
                    - self.session.wrong_attempts(self.number))
            self.w_solution_button.tooltip = ngettext(
                "opens after {count} more attempt", "opens after {count} more attempts",
                left).format(count=left)
        self.w_progress.value = progress_html(self.session)

    # --- the position as pictures ------------------------------------------------------------
    def _picture(self) -> str:
        return self.picture_html(self.variant)

    @staticmethod
    def picture_html(variant: Any) -> str:
        """A variant's position as this page draws it (also the teacher's preview)."""
        pos = variant.position
        kind = variant.kind.name
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

                title = _("The deck (centre card first; a card lying across adds, an "
                          "upright card subtracts)")
                parts.append(f'<div class="mc-zone"><div class="mc-zone-title">{esc(title)}'
                             f"</div>{deck_html(deck, show_removed=False)}</div>")
            elif pos.get("counted") is not None:
                counted = _("Counted so far: {numbers}").format(
                    numbers=" ".join(map(str, pos["counted"])))
                parts.append(f"<p>{esc(counted)}</p>")
            if kind == "reach_goal":
                goal = esc(_("Goal: {goal}").format(goal="\x00"))
                parts.append("<p>" + goal.replace("\x00", f"<b>{esc(number(pos['goal']))}</b>")
                             + "</p>")
        if "dice" in pos:
            d1, d2 = pos["dice"]
            make = esc(_("{dice} make {total}").format(dice="\x00", total="\x01"))
            make = make.replace("\x00", f"{dice_svg(d1)} {dice_svg(d2)}").replace(
                "\x01", f"<b>{d1 + d2}</b>")
            parts.append(f'<div class="mc-zone">{make}</div>')
        if kind == "is_stack":
            row(_("The cards"), pos["cards"])
        if kind in ("planet_or_not", "moon_or_not"):
            row(_("The cards"), pos["cards"])
        if kind == "find_capture":
            if pos.get("played") is not None:
                row(_("You play"), [pos["played"]])
            row(_("Your face-up cards (helpers)"), pos["own"])
            row(_("Their face-up cards"), pos["opponent"])
        if kind in ("who_takes_trick", "which_prize"):
            row(_("The trick, in play order (first card led)"), pos["trick"])
            if pos.get("prizes"):
                row(_("The prizes, first to last"), pos["prizes"])
        if kind == "is_play_legal":
            if pos.get("led") is not None:
                row(_("Led"), [pos["led"]])
            row(_("Your hand"), pos["hand"])
        return "".join(parts)

    @staticmethod
    def hand_html(variant: Any) -> str:
        """The hand a student's answer buttons show (the kinds answered by picking cards of
        it: plays, stacks, a capture), drawn as cards with their suits: the teacher's
        preview shows it as the student sees it, not as a line of the set's notation."""
        pos = variant.position
        if variant.kind.answer_style not in ("plays", "stacks", "capture") or not pos.get("hand"):
            return ""
        faces = "".join(card_face_html(c, extra="mc-large") for c in cards_of(pos["hand"]))
        hand = esc(_("Your hand"))
        return (f'<div class="mc-zone"><div class="mc-zone-title">{hand}</div>'
                f'<div class="mc-row mc-ex-cards mc-ex-hand" role="group" aria-label="{hand}">'
                f"{faces}</div></div>")

    # --- answer widgets -----------------------------------------------------------------------
    def _card_button(self, card: Any, index: int, on_click: Callable[[int], None]) -> W.Button:
        """A card of the exercise's hand: the tables' ``CardButton`` (its text is the card's
        spoken name; the face is drawn by the style sheet), naming its place in the hand."""
        cb = CardButton(lambda _cb, i=index: on_click(i), mark="mc-ex-card")
        cb.show(card, key=str(index), enabled=True)
        return cb.button

    def _build_answer(self) -> None:
        style = self.variant.kind.answer_style
        pos = self.variant.position
        kind = self.variant.kind
        self.w_check = W.Button(description=_("Check"), button_style="primary",
                                tooltip=_("check your answer"))
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
            self.w_number = W.Text(value="", placeholder=_("the deck value, like -3"),
                                   layout=W.Layout(width="12em"))
            self.w_answer.children = [W.HBox([self.w_number, self.w_check])]
        elif style == "plays":
            self.w_hand = [self._card_button(c, i, self._pick_card)
                           for i, c in enumerate(pos["hand"])]
            self.w_signs = W.HBox([])
            undo = W.Button(description=_("Undo"), tooltip=_("take back the last card"))
            undo.on_click(lambda _b: self._undo())
            again = W.Button(description=_("Start again"))
            again.on_click(lambda _b: self._restart())
            self.w_answer.children = [
                W.HTML(_("<b>Your hand</b> (click a card, then + or −)")),
                _hand_row(self.w_hand),
                self.w_signs, self.w_built, W.HBox([undo, again, self.w_check])]
            self._show_plays()
        elif style == "stacks":
            self.w_hand = [self._card_button(c, i, self._toggle_card)
                           for i, c in enumerate(pos["hand"])]
            make = W.Button(description=_("Make a stack"),
                            tooltip=_("the selected cards as a stack"))
            make.on_click(lambda _b: self._make_stack())
            undo = W.Button(description=_("Undo stack"))
            undo.on_click(lambda _b: self._undo())
            self.w_answer.children = [
                W.HTML(_("<b>Your hand</b> (select cards, then Make a stack)")),
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
                rows += [W.HTML(_("<b>Your hand</b>: pick the card to play")),
                         _hand_row(self.w_hand)]
            rows += [W.HTML(_("<b>Their cards</b>: pick the card it captures")),
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
                b = W.Button(description=label,
                             tooltip=_("{card} as {value}").format(card=card.name, value=label),
                             layout=W.Layout(width="auto"))
                b.add_class("mc-ex-sign")
                play = Play(card, sign, value)
                b.on_click(lambda _b, p=play, i=index: self._add_play(i, p))
                buttons.append(b)
        ask = _("{card}: add or subtract?").format(card=card.symbol)
        self.w_signs.children = [W.HTML(f"{esc(ask)} "), *buttons]

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
        from mathcards.games.suns_to_moons.exercises import position_state

        counted = position_state(self.variant.position).counted
        if not self._pending:
            now = esc(_("Deck now: {value}. No cards played yet.").format(value="\x00"))
            self.w_built.value = "<p>" + now.replace(
                "\x00", f"<b>{esc(number(sum(counted)))}</b>") + "</p>"
            return
        plays = [play for _i, play in self._pending]
        words = [_("Joker") if p.card.is_joker else f"{p.card.symbol} {signed(p.contribution)}"
                 for p in plays]
        if self.session.level != SHOW:  # "I count": the deck after the plays is the sum to do
            said = _("Your plays: {plays}. Work out the deck after them, then press Check.")
            self.w_built.value = f"<p>{esc(said.format(plays=', '.join(words)))}</p>"
            return
        value = count_deck([*counted, *deck_terms(plays)]).value  # the engine's Joker rule
        said = esc(_("Your plays: {plays}; the deck would be {value}. Press Check.").format(
            plays=", ".join(words), value="\x00"))
        self.w_built.value = "<p>" + said.replace("\x00", f"<b>{esc(number(value))}</b>") + "</p>"

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
            said = _("Your stacks: {stacks}").format(stacks=stacks)
            self.w_built.value = f"<p>{esc(said)}</p>"
        else:
            none = _("No stacks yet.")
            self.w_built.value = f"<p>{esc(none)}</p>"

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
                self._say_refused(_("First pick the card from your hand you want to play."))
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
            self._say_refused(_("Slow down: one answer a second. Read the feedback, then "
                                "try again (this answer was not checked)."))
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
            self._show_checked()
        self._refresh()
        self._show_end()
        return result

    def _show_checked(self) -> None:
        """The answer just checked stays in sight beside its verdict (in card symbols),
        until the student starts the next one."""
        from mathcards.exercises.exercise_grid import answer_shown

        mine = self.session.attempts(self.number)
        if not mine:
            return
        what = (_("You played: {answer} (checked above). Pick cards to try again.")
                if self.variant.kind.answer_style == "plays"
                else _("Your stacks: {answer} (checked above). Pick cards to try again."))
        said = esc(what.format(answer="\x00")).replace(
            "\x00", f"<b>{esc(answer_shown(mine[-1].answer))}</b>")
        self.w_built.value = f'<p class="mc-checked">{said}</p>'

    def _show_end(self) -> None:
        """The end of the set, once every exercise is answered: the score in words and what
        to practise next (the skills with the most slips)."""
        from mathcards.exercises.skill_grid import skill_words

        end = self.session.finished()
        if end is None:
            self.w_end.value = ""
            return
        if end.practise:
            practise = ", ".join(
                ngettext("{skill} ({count} slip)", "{skill} ({count} slips)", n).format(
                    skill=skill_words(skill), count=n)
                for skill, n in end.practise)
            next_words = _("Practise next: {skills}.").format(skills=practise)
        else:
            next_words = _("No slips in this set: well done. Try another set.")
        next_line = f"<p>{esc(next_words)}</p>"
        finished = esc(_("You finished the set"))
        self.w_end.value = (f'<div class="mc-result mc-right mc-set-end" role="status">'
                            f"<h3>{finished}</h3><p>{esc(end.words())}</p>"
                            f"{next_line}</div>")

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
        worked = esc(_("Worked solution:"))
        self.w_hint.value = f'<div class="mc-hint-box">{worked} {result.html}</div>'
        return result


# --- pages: the student's practice page and the teacher's dashboard -------------------------
_SET_NAME = __import__("re").compile(r"^[A-Za-z0-9_-]{1,60}$")
_CLASS = __import__("re").compile(r"[A-Za-z0-9-]{1,20}")


def sample_files(folder: str | Any = "exercises") -> list[str]:
    """The names of the sample set files in ``folder`` (``suns_to_moons`` for
    suns_to_moons.yaml): every one is a set for students (tests' sets live in tests/)."""
    return sorted(p.stem for p in Path(folder).glob("*.yaml") if _SET_NAME.match(p.stem))


def set_file(folder: str | Any, name: str) -> Path | None:
    """The file of a set students may open: a sample in ``folder`` or a set the teacher
    published on this server (``SetStore``); never a draft, never a path from the page."""
    if name in sample_files(folder):
        return Path(folder) / f"{name}.yaml"
    from mathcards.exercises.store import SetStore

    try:
        return SetStore().path(name)
    except OSError:
        return None


def student_set(folder: str | Any, name: str) -> Any:
    """Set ``name`` as a student opens it (``set_file``), with the version students see
    of a set published on this server (their answers are stored with it)."""
    from mathcards.exercises import load_set

    version = 0 if name in sample_files(folder) else _published_version(name)
    exercise_set = load_set(set_file(folder, name) or name, check=False)
    exercise_set.version = max(version, 1)
    return exercise_set


def _published_version(name: str) -> int:
    from mathcards.exercises.store import SetStore, StoreError

    try:
        return SetStore().version(name)
    except (OSError, StoreError):
        return 0


def sample_sets(folder: str | Any = "exercises") -> list[str]:
    """The names of the sets students may open: the samples in ``folder`` and the sets the
    teacher published (drafts are the teacher's only)."""
    from mathcards.exercises.store import SetStore

    try:
        published = SetStore().published()
    except OSError:
        published = []
    return sorted({*sample_files(folder), *published})


def practice_page(folder: str | Any = "exercises", *, query: str | None = None,
                  store: Any = None, ask_name: bool | None = None) -> W.Widget:
    """The student's page: ``?set=suns_to_moons&student=ana`` opens that set for that student.

    ``&level=show`` opens it at "Show me the sums" (the deck after the plays is shown
    before *Check*); without it, or with any other value, at "I count" (nothing shown).

    Only a set file that exists in ``folder`` can be opened (the name is checked,
    never used as a path as given); a bad name or student shows the list of sets.
    """
    from urllib.parse import parse_qs, quote

    from mathcards.exercises import ExerciseFileError
    from mathcards.students import hub_login, hub_student_id, student_id
    from mathcards.widgets import _asks_name, _page_query, page_browser, with_student

    page_query = _page_query() if query is None else query
    params = parse_qs(page_query[:500])
    names = sample_sets(folder)
    name = (params.get("set") or [""])[0]
    level = (params.get("level") or [DEFAULT_LEVEL])[0]
    level = level if level in LEVELS else DEFAULT_LEVEL
    problem = ""
    login = hub_login()
    if login is not None:  # a JupyterHub server: its user, whatever the address says
        student = hub_student_id(login)
    else:
        asked = (params.get("student") or [""])[0]
        student = asked or "guest"
        try:
            student = student_id(student)
        except MathCardsError as exc:
            problem, student = str(exc), "guest"
        ask = _asks_name() if ask_name is None else ask_name
        browser = page_browser() if student != "guest" or ask else None
        if browser is not None and student != "guest":  # the name is its first browser's
            from mathcards.names import claim

            problem = claim(student, browser)
            student = "guest" if problem else student
        if ask and student == "guest" and asked.strip().casefold() != "guest":
            # no name it can use: ask for one, then open the page for it (nothing is
            # answered as the guest without the student knowing)
            from mathcards.widgets.classes import ask_name_for

            return ask_name_for(
                lambda chosen: practice_page(folder, query=with_student(page_query, chosen),
                                             store=store, ask_name=False),
                page_query, browser, problem)
    if name in names and not problem:
        try:
            exercise_set = student_set(folder, name)
        except ExerciseFileError as exc:  # the set's name, never the server's path
            first = exc.problems[0] if exc.problems else _("it cannot be read")
            problem = _("the set {name!r} cannot be used ({problem}): tell your teacher, who "
                        "can open it on the Write a set page and fix what its checker "
                        "says").format(name=name, problem=first)
        else:
            from mathcards.exercises.progress import ProgressError

            try:
                return exercise_set.show(student, store=store, level=level)
            except ProgressError:  # one line for the student; the teacher's check names it
                problem = _("your answers cannot be saved on this server right now (its "
                            "progress file cannot be opened): tell your teacher")
    if name and name not in names:
        problem = _("there is no exercise set {name!r}").format(name=name[:60])
    cls = (params.get("class") or [""])[0]
    who = "" if login is not None else f"&student={quote(student)}"
    if cls and _CLASS.fullmatch(cls):
        who += f"&class={quote(cls)}"
    links = "".join(
        f'<li><a class="mc-set-link" href="?set={quote(n)}{who}">{esc(n.replace("_", " "))}'
        "</a></li>" for n in names)
    note = f'<p class="mc-refused">{esc(problem)}</p>' if problem else ""
    # the words escaped, then the name in bold put in
    name_note = (esc(_("Your progress is kept under your login ({name}).")).format(
                     name=f"<b>{esc(login)}</b>") if login is not None else
                 esc(_("You practise as the guest: your answers are kept under {guest}, "
                       "shared by everyone without a name.")).format(guest="<b>guest</b>")
                 if student == "guest" else
                 esc(_("Your progress is kept under your name ({name}).")).format(
                     name=f"<b>{esc(student)}</b>"))
    practice, choose = _("Practice"), _("Choose a set of exercises.")
    from mathcards.site import in_browser

    if in_browser():  # the static site: the page's address does not reach the kernel
        return _site_practice(folder, names, student, level, store,
                              f"{style_html()}{EXTRA_CSS}<h2>{esc(practice)}</h2>{note}"
                              f"<p>{esc(choose)} {name_note}</p>")
    page = W.HTML(
        f"{style_html()}{EXTRA_CSS}<h2>{esc(practice)}</h2>{note}<p>{esc(choose)} "
        f"{name_note}</p><ul>{links}</ul>")
    page.add_class("mathcards")
    return page


def _site_practice(folder: str | Any, names: list[str], student: str, level: str,
                   store: Any, head: str) -> W.VBox:
    """The practice page on the static site: a button per set opens it in place (a link's
    ``?set=`` would not reach the kernel), and *Download my progress* gives the browser's
    progress file (``mathcards-progress-NAME.json``) for the teacher's dashboard, which
    reads a folder of them (``mathcards.exercises.results``)."""
    from mathcards.exercises.progress import default_progress_path
    from mathcards.widgets.skill_grid import csv_downloads

    box = W.VBox()
    box.add_class("mathcards")

    def opener(name: str) -> Any:
        def open_set(_b: Any = None) -> None:
            exercise_set = student_set(folder, name)
            back = W.Button(description=_("All sets"), icon="arrow-left")
            back.on_click(lambda _b: setattr(box, "children", shown))
            box.children = (back, exercise_set.show(student, store=store, level=level))
        return open_set

    buttons = []
    for name in names:
        button = W.Button(description=name.replace("_", " "),
                          tooltip=_("open the set {name}").format(name=name))
        button.add_class("mc-set")
        button.on_click(opener(name))
        buttons.append(button)

    def progress_file() -> list[tuple[str, str, str]]:
        path = Path(store.path) if store is not None else default_progress_path()
        text = path.read_text(encoding="utf-8") if path.exists() else (
            '{"attempts": [], "answers": [], "solutions": [], "level_changes": []}')
        file_name = f"mathcards-progress-{student}.json"
        return [(text, file_name, _("your progress ({file})").format(file=file_name))]

    download = csv_downloads(_("Download my progress"), _("your answers as a file for your "
                                                          "teacher's dashboard"),
                             progress_file, mime="application/json")
    box.w_download = download
    shown = (W.HTML(head), W.HBox(buttons), download)
    box.children = shown
    return box


def _tries(n: int) -> str:
    return ngettext("{n} try", "{n} tries", n).format(n=n)


def _answers_html(answers: Sequence[str], slips: Any = frozenset()) -> str:
    from mathcards.exercises.exercise_grid import answer_shown

    slip = _("sign slip")
    shown = ", ".join(f"<code>{esc(answer_shown(w))}</code>"
                      + (f' <span class="mc-slip">{esc(slip)}</span>' if w in slips else "")
                      for w in answers[-6:])
    more = _(" and {n} more").format(n=len(answers) - 6)
    return shown + (esc(more) if len(answers) > 6 else "")


# a cell's result in the teacher's words (worded where shown; the key names its CSS class)
CELL_MARKS = {"first try": N_("✔ right at the first try"), "solved": N_("✔ solved"),
              "after the solution": N_("📖 answered with the solution (opened before the "
                                       "answer)"),
              "partly right": N_("◐ partly right"), "not solved yet": N_("✘ not solved yet")}


def _cell_html(cell: Any) -> str:
    """One student's work on one exercise, in words."""
    from mathcards.exercises.exercise_grid import seconds_words

    opened_words = _("worked solution opened")
    if cell is None or cell.attempts == 0:
        opened = (cell is not None and cell.solution_opened)
        untried = _("not tried")
        return (f'<td class="mc-cell mc-untried">{esc(untried)}'
                + (f"<br>{esc(opened_words)}" if opened else "") + "</td>")
    parts = [f"<b>{esc(_(CELL_MARKS[cell.result]))}</b> ({esc(_tries(cell.attempts))})"]
    slips = set(cell.sign_slips)
    wrong, partly, right = _("wrong:"), _("partly right:"), _("right:")
    if cell.plain_wrong_answers:
        parts.append(f"{esc(wrong)} {_answers_html(cell.plain_wrong_answers, slips)}")
    if cell.partly_right_answers:
        parts.append(f"{esc(partly)} {_answers_html(cell.partly_right_answers)}")
    if cell.right_answer:
        parts.append(f"{esc(right)} {_answers_html([cell.right_answer])}")
    parts.append(esc(_("hints: {n}").format(n=cell.hints_used)))
    if cell.solution_opened:
        parts.append(f'<span class="mc-opened">{esc(opened_words)}</span>')
    parts.append(esc(_("time: {time}").format(time=seconds_words(cell.seconds))))
    result_class = cell.result.replace(" ", "-")
    return f'<td class="mc-cell mc-{result_class}">' + "<br>".join(parts) + "</td>"


def _summary_html(summary: Any) -> str:
    """A student's work on the whole set: every exercise of it counted."""
    from mathcards.exercises.exercise_grid import seconds_words

    n = summary.exercises
    lines = [_("{some} of {n} tried").format(some=summary.tried, n=n),
             _("{some} of {n} right at the first try").format(some=summary.first_try_right,
                                                               n=n),
             _("{some} of {n} solved").format(some=summary.solved, n=n),
             _("score {percent}% (first tries; untried count as not right)").format(
                 percent=round(summary.score * 100)),
             _("time: {time}").format(time=seconds_words(summary.seconds))]
    if summary.with_solution:
        lines.insert(3, _("{some} of {n} answered with the solution").format(
            some=summary.with_solution, n=n))
    if summary.solutions_opened:
        lines.insert(3, ngettext("{n} worked solution opened", "{n} worked solutions opened",
                                 summary.solutions_opened).format(n=summary.solutions_opened))
    return '<td class="mc-summary">' + "<br>".join(esc(line) for line in lines) + "</td>"


def grid_html(grid: Any) -> str:
    """The student x exercise grid: per student the set's summary, per cell the result at
    the first try, the tries, the answers (as the student saw them), the hints, the worked
    solution and the time. Wide grids scroll with the names column fixed."""
    if not grid.students:
        none = _("No attempts yet.")
        return f"<p>{esc(none)}</p>"
    head = "".join(
        f'<th scope="col">{c.number}. {esc(c.title or c.kind.replace("_", " "))}</th>'
        for c in grid.columns)
    rows = []
    for student in grid.students:
        cells = "".join(_cell_html(grid.cell(student, n)) for n in range(len(grid.columns)))
        rows.append(f'<tr><th scope="row">{student_link_html(student)}</th>'
                    f"{_summary_html(grid.summary(student))}{cells}</tr>")
    said, student, whole = _("students by exercises"), _("student"), _("the whole set")
    return ('<div class="mc-grid-wrap"><table class="mc-progress mc-grid" '
            f'aria-label="{esc(said)}"><tr><th scope="col">{esc(student)}</th>'
            f'<th scope="col">{esc(whole)}</th>{head}</tr>{"".join(rows)}</table></div>')


GRID_CSS = """
<style>
.mathcards .mc-grid-wrap { overflow-x: auto; max-width: 100%; }
.mathcards table.mc-grid { white-space: normal; }
.mathcards table.mc-grid td { vertical-align: top; min-width: 9em; }
.mathcards table.mc-grid th[scope="col"] { vertical-align: bottom; min-width: 7em;
  max-width: 14em; white-space: normal; overflow-wrap: normal; word-break: normal; }
.mathcards table.mc-grid th[scope="row"], .mathcards table.mc-grid tr > th:first-child {
  position: sticky; left: 0; z-index: 1; background: #fff; }
.mathcards .mc-cell.mc-first-try, .mathcards .mc-cell.mc-solved { background: #e8f5e9; }
.mathcards .mc-cell.mc-after-the-solution { background: #eef3fb; }
.mathcards .mc-cell.mc-partly-right { background: #fffde7; }
.mathcards .mc-cell.mc-not-solved-yet { background: #fff1e6; }
.mathcards .mc-cell.mc-untried { color: #555; }
.mathcards .mc-slip { background: #6a1b9a; color: #fff; border-radius: 4px; padding: 0 4px;
  font-size: 0.85em; }
</style>
"""


class DashboardView(W.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """The teacher's dashboard: read when built, on **Refresh**, and by itself every
    ``refresh_every`` seconds while the page is open (on the kernel's event loop; each
    reading takes only the attempts written since the last one)."""

    refresh_every = 20.0

    def __init__(self, source: Any = None, *, top: int = 10,
                 folder: str | Any = "exercises") -> None:
        from mathcards.widgets.skill_grid import csv_downloads, skill_downloads

        self.source, self.top, self.folder = source, top, folder
        self._reader: Any = None
        self._sets: dict[Path, tuple[float, Any]] = {}  # a set file's time and its set
        self._closed = False
        self.w_refresh = W.Button(description=_("Refresh"), icon="refresh",
                                  tooltip=_("read the students' latest attempts"))
        self.w_refresh.on_click(lambda _b: self.refresh())
        self.w_updated = W.HTML("")
        self.w_content = W.HTML("")
        self.w_content.add_class("mathcards")
        self.w_download = skill_downloads(
            lambda: self._in_class(dashboard_answers(self.source)),
            lambda: self._in_class(dashboard_levels(self.source)), self._classes_of)
        self.w_set = W.Dropdown(options=[], description=_("Set"),
                                layout=W.Layout(width="auto"))
        self.w_grid = W.HTML("")
        self.w_grid.add_class("mathcards")
        self.w_grid_download = csv_downloads(
            _("Download CSV"), _("the exercise grid of this set, as a CSV file"),
            self._grid_files)
        self.w_missed = W.HTML("")
        self.w_missed.add_class("mathcards")
        self.w_class = W.Dropdown(options=_class_options(), value="", description=_("Class"),
                                  layout=W.Layout(width="auto"))
        self.w_roster = W.HTML("")
        self.w_roster.add_class("mathcards")
        self.w_class.observe(lambda _change: self.refresh(), "value")
        self._choosing = False
        each = _("Each student, each exercise")
        self.w_set.observe(lambda _change: None if self._choosing else self._draw_set(),
                           "value")
        super().__init__([W.HBox([self.w_refresh, self.w_updated]), self.w_class,
                          self.w_roster, self.w_content,
                          self.w_download,
                          W.HTML(f"<h3>{esc(each)}</h3>"),
                          self.w_set,
                          self.w_grid, self.w_grid_download, self.w_missed])
        self.add_class("mathcards")
        self.refresh()
        self._schedule()

    @property
    def value(self) -> str:
        """The dashboard's text as shown (HTML)."""
        return f"{self.w_content.value}{self.w_grid.value}{self.w_missed.value}"

    # --- reading ------------------------------------------------------------------------------
    def _read_new(self) -> int:
        """Read what is new (attempts and opened solutions); how many records."""
        from mathcards.exercises.results import ResultsReader

        where, _shown, readable = _dashboard_source(self.source)
        if not readable:
            return 0
        if self._reader is None:
            self._reader = ResultsReader(where)
        attempts, solutions = self._reader.new()
        return len(attempts) + len(solutions)

    @property
    def attempts(self) -> list[Any]:
        return list(self._reader.attempts) if self._reader is not None else []

    @property
    def solutions(self) -> list[Any]:
        return list(self._reader.solutions) if self._reader is not None else []

    def refresh(self) -> None:
        """Read what is new and draw the whole page again (the skill grid too)."""
        try:
            self._read_new()
            answers = self._in_class(dashboard_answers(self.source))
        except MathCardsError as exc:
            self.w_content.value = f'{style_html()}<p class="mc-refused">{esc(exc)}</p>'
            return
        # the class in view: its students' attempts and answers only (summary, skill grid)
        self.w_content.value = dashboard_html(self.source, top=self.top,
                                              attempts=self._in_class(self.attempts),
                                              answers=answers)
        self.w_download.w_out.value = ""  # a download made before is out of date
        self._draw_sets()
        self._draw_roster()
        self._stamp()

    def _draw_roster(self) -> None:
        """The class in view: every student of its list a row, "not started" included."""
        from mathcards.classes import find_class
        from mathcards.exercises.class_view import roster

        cid = str(self.w_class.value or "")
        school_class = find_class(cid) if cid else None
        if school_class is None:
            self.w_roster.value = ""
            return
        rows = roster(school_class.names, [*self.attempts, *self.solutions])
        body = "".join(f'<tr><th scope="row">{student_link_html(r.name)}</th>'
                       f'<td class="mc-activity">{esc(_activity(r.activity_words))}</td></tr>'
                       for r in rows)
        said = _("class {name}").format(name=cid)
        student, last = _("student"), _("last activity")
        self.w_roster.value = (
            f'{style_html()}<table class="mc-progress mc-roster" aria-label="{esc(said)}">'
            f'<tr><th scope="col">{esc(student)}</th><th scope="col">{esc(last)}'
            f"</th></tr>{body}</table>")

    def tick(self) -> bool:
        """One periodic reading: only new attempts; the grid is drawn again when there are
        some. True when something new was read."""
        try:
            new = self._read_new()
        except MathCardsError as exc:
            self.w_updated.value = f'<span class="mc-refused">{esc(exc)}</span>'
            return False
        if new:
            self._draw_sets()
        self._stamp()
        return bool(new)

    def _stamp(self) -> None:
        updated = _("updated at {time}").format(time=time.strftime("%H:%M:%S"))
        self.w_updated.value = f'<span class="mc-read-at" role="status">{esc(updated)}</span>'

    def _schedule(self) -> None:
        """The next periodic reading, on the kernel's running event loop (none without one:
        a script or a test calls ``tick``)."""
        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(self.refresh_every, self._periodic)

    def _periodic(self) -> None:
        if self._closed:
            return
        try:
            self.tick()
        finally:
            self._schedule()

    def close(self) -> None:
        self._closed = True
        super().close()

    # --- one set --------------------------------------------------------------------------
    def _set_of(self, set_id: str) -> Any:
        """The set (a sample in ``folder`` or a set published on this server) whose id is
        ``set_id``, or None."""
        from mathcards.exercises import load_set

        for name in sample_sets(self.folder):
            path = set_file(self.folder, name)
            if path is None:
                continue
            try:
                stamp = path.stat().st_mtime
                if self._sets.get(path, (None,))[0] != stamp:
                    self._sets[path] = (stamp, load_set(path, check=False))
            except (MathCardsError, OSError):
                continue
            exercise_set = self._sets[path][1]
            if exercise_set.id == set_id:
                return exercise_set
        return None

    def grid(self) -> Any:
        """The chosen set's grid (every exercise of its file, tried or not)."""
        from mathcards.exercises.exercise_grid import progress_grid, set_columns

        set_id = self.w_set.value
        if set_id is None:
            return progress_grid([], set_id="")
        exercise_set = self._set_of(str(set_id))
        columns = set_columns(exercise_set) if exercise_set is not None else []
        grid = progress_grid(self.attempts, self.solutions, set_id=str(set_id),
                             exercises=columns)
        members = self._class_members()
        if members is None:
            return grid
        # the class in view: its students only, and every one of them (not started too)
        from dataclasses import replace

        return replace(grid, students=tuple(members),
                       cells={k: c for k, c in grid.cells.items() if k[0] in members})

    def _class_members(self) -> list[str] | None:
        """The student ids of the class in view, in the list's order (None: all students)."""
        from mathcards.classes import find_class

        cid = str(self.w_class.value or "")
        school_class = find_class(cid) if cid else None
        return None if school_class is None else [n.casefold() for n in school_class.names]

    def _in_class(self, records: list[Any]) -> list[Any]:
        """The records of the class in view's students (all of them for all students)."""
        members = self._class_members()
        if members is None:
            return records
        inside = set(members)
        return [r for r in records if str(r.student).casefold() in inside]

    def _classes_of(self) -> dict[str, str]:
        """Each student of the class in view -> its id (empty for all students)."""
        cid = str(self.w_class.value or "")
        return dict.fromkeys(self._class_members() or [], cid)

    def _draw_sets(self) -> None:
        from mathcards.exercises.exercise_grid import set_choices

        options = set_choices(self.attempts)
        if [tuple(o) for o in self.w_set.options] != options:
            keep = self.w_set.value
            ids = [set_id for _title, set_id in options]
            self._choosing = True  # one drawing below, not one per change of the list
            try:
                self.w_set.options = options
                self.w_set.value = keep if keep in ids else (ids[0] if ids else None)
            finally:
                self._choosing = False
        self._draw_set()

    def _draw_set(self) -> None:
        from mathcards.exercises.results import most_missed

        grid = self.grid()
        self.w_grid.value = f"{style_html()}{EXTRA_CSS}{GRID_CSS}{grid_html(grid)}"
        mine = [a for a in self.attempts if a.set_id == self.w_set.value]
        title = _("Most missed exercises")
        self.w_missed.value = (f"<h3>{esc(title)}</h3>"
                               + missed_chart_svg(most_missed(mine, self.top),
                                                  students=len(grid.students)))
        self.w_grid_download.w_out.value = ""

    def _grid_files(self) -> list[tuple[str, str, str]]:
        from mathcards.exercises.exercise_grid import set_grid_csv

        self._read_new()
        grid = self.grid()
        name = f"{self.w_set.value or 'exercises'}-grid.csv"
        cid = str(self.w_class.value or "")
        members = self._class_members() or []
        return [(set_grid_csv(grid, dict.fromkeys(members, cid)), name,
                 _("the exercise grid ({file})").format(file=name))]


def _activity(words: str) -> str:
    """A roster row's last activity: its time, or "not started" in the page's words."""
    from mathcards.exercises.class_view import NOT_STARTED

    return _(NOT_STARTED) if words == NOT_STARTED else words


def _class_options() -> list[tuple[str, str]]:
    """The classes of the classes page, and "all students" (first: students on no list)."""
    from mathcards import storage
    from mathcards.classes import ClassStore

    try:
        with ClassStore() as store:
            ids = [c.id for c in store.classes()]
    except storage.STORE_ERRORS:
        ids = []
    return [(_("all students"), ""), *((cid, cid) for cid in ids)]


def _dashboard_source(source: Any) -> tuple[Any, str, bool]:
    """Where the dashboard reads, how the page names it (never its path on the server),
    and whether there is anything to read yet."""
    from mathcards.exercises.progress import class_progress_folder, default_progress_path

    given = source is not None  # a file or folder the caller names
    if source is None and class_progress_folder() is not None:
        source, shown = class_progress_folder(), _("the class's progress folder")
    else:  # the page names what it read, never where it lives on the server
        shown = (_("this server's progress database") if source is None
                 else Path(str(source)).name)
    where = source if source is not None else default_progress_path()
    # no database yet on this server: nobody has answered anything
    readable = Path(str(where)).exists() or given
    return where, shown, readable


def dashboard_answers(source: Any = None) -> list[Any]:
    """The answers (play and exercises) the dashboard reads from ``source``; an exercise
    answered after its worked solution opened is no right answer of its skill."""
    from mathcards.exercises.results import ResultsReader, read_answers
    from mathcards.exercises.with_solution import with_solution_answers

    where, _shown, readable = _dashboard_source(source)
    if not readable:
        return []
    return with_solution_answers(read_answers(where), *ResultsReader(where).read())


def dashboard_levels(source: Any = None) -> list[Any]:
    """The changes of the level of help the dashboard reads from ``source``."""
    from mathcards.exercises.results import read_level_changes

    where, _shown, readable = _dashboard_source(source)
    return read_level_changes(where) if readable else []


def dashboard_html(source: Any = None, *, top: int = 10, attempts: Any = None,
                   answers: Any = None) -> str:
    """The dashboard's summary and skill grid, read now (or from the attempts and answers
    given); the exercise grid, per set, is ``DashboardView``'s."""
    from mathcards.exercises.results import read_results
    from mathcards.exercises.skill_grid import skill_grid
    from mathcards.widgets.skill_grid import skill_grid_html

    where, shown, readable = _dashboard_source(source)
    try:
        if attempts is None:
            attempts = read_results(where) if readable else []
        if answers is None:
            answers = dashboard_answers(source)
        levels = dashboard_levels(source)
    except MathCardsError as exc:
        return f'{style_html()}<p class="mc-refused">{esc(exc)}</p>'
    students = len({a.student for a in attempts})
    answering = len({a.student for a in answers})
    tried = ngettext("{n} attempt", "{n} attempts", len(attempts)).format(n=len(attempts))
    by = ngettext("by {n} student", "by {n} students", students).format(n=students)
    given = ngettext("{n} answer by skill, at the tables and in the exercises",
                     "{n} answers by skill, at the tables and in the exercises",
                     len(answers)).format(n=len(answers))
    by_answering = ngettext("by {n} student", "by {n} students", answering).format(
        n=answering)
    summary = esc(_("Results from {where}: {tried} {by}; {given}, {by_answering}.")).format(
        where=f"<code>{esc(shown)}</code>", tried=esc(tried), by=esc(by), given=esc(given),
        by_answering=esc(by_answering))
    title = _("Each student, each skill")
    return (
        f"{style_html()}{EXTRA_CSS}{GRID_CSS}<p>{summary}</p>"
        f"<h3>{esc(title)}</h3>{skill_grid_html(skill_grid(answers), levels)}")


def dashboard(source: Any = None, *, top: int = 10,
              folder: str | Any = "exercises") -> DashboardView:
    """The teacher's dashboard: the skill grid, and per set (a filter, the newest first) a
    student x exercise grid and the most-missed chart, from exports or a database, read
    when it is built, on Refresh and by itself every 20 seconds while the page is open.

    Without ``source`` it reads the class's progress folder when one is set
    (``MATHCARDS_CLASS_PROGRESS``, on a hub), else this server's database. ``folder`` holds
    the set files: a set's exercises nobody tried are still in its grid."""
    return DashboardView(source, top=top, folder=folder)


# --- the class link builder -----------------------------------------------------------------
# A shorter game, as a deal code carries it (the play pages read only ?deal=, ?seats=, ?delay=):
# short_setting (each game's registration) says it; a play page without a deal code starts
# with it. Every game with a table (mathcards.widgets.table_games) has a play page.


def class_link(page: str, *, folder: str | Any = "exercises", players: int = 2,
               short: bool = False, deal: str = "", seed: int | None = None,
               level: str = DEFAULT_LEVEL, fixed: bool = False, cls: str = "",
               student: str = "") -> str:
    """The link (relative to the lessons) for the class: ``practice.ipynb?set=NAME`` for
    ``page="set:NAME"``, ``play_GAME.ipynb?deal=CODE&level=LEVEL`` for ``page="play:GAME"``.

    ``level`` is the level of help the page opens at (``show``, ``count``,
    ``count_no_hints``; mathcards.asking.LEVELS); ``fixed`` adds ``&fixed=1``: the play
    page does not let the student change it. A practice link carries ``&level=`` only when
    it is not the default "I count".

    A play link always carries a deal code, so the whole class gets the same cards:
    ``deal`` when given (checked, and for that game), else a new one for ``players``
    (and the short game's setting when ``short``). Raises MathCardsError with one line.

    ``cls`` (a class of the teacher's *Classes*) adds ``&class=``: a student who opens the
    link without a name picks theirs from the class's names; ``student`` adds that
    student's name (checked by the one rule of names)."""
    from urllib.parse import quote

    from mathcards.classes import class_id
    from mathcards.students import clean_name

    tail = f"&class={class_id(cls)}" if cls else ""
    tail += f"&student={quote(clean_name(student))}" if student else ""

    from mathcards import saves
    from mathcards.games.registry import get_game_class

    if level not in LEVELS:
        raise MathCardsError(f"there is no level of help {str(level)[:30]!r}: choose "
                             f"{', '.join(LEVELS)}")
    kind, _sep, name = page.partition(":")
    if kind == "set":
        if name not in sample_sets(folder):
            raise MathCardsError(f"there is no exercise set {name[:60]!r}: choose one listed")
        at = "" if level == DEFAULT_LEVEL else f"&level={level}"
        return f"practice.ipynb?set={quote(name)}{at}{tail}"
    if kind != "play" or name not in table_games():
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
    return (f"play_{name}.ipynb?deal={quote(code)}&level={level}"
            f"{'&fixed=1' if fixed else ''}{tail}")


def class_link_builder(folder: str | Any = "exercises") -> W.VBox:
    """Choose an exercise set or a game (a deal code, a short game) and a class: the whole
    link for the class, the class's landing page and, if wanted, a link per student."""
    from urllib.parse import quote

    from mathcards.games.registry import get_game_class

    practice, play = _("Practice: {name}"), _("Play: {game}")
    options = []
    for n in sample_sets(folder):
        try:  # the set's title in the page's language, else its name
            shown = student_set(folder, n).shown_title()
        except (MathCardsError, OSError):
            shown = n.replace("_", " ")
        options.append((practice.format(name=shown), f"set:{n}"))
    for name in table_games():
        try:
            options.append((play.format(game=get_game_class(name).title), f"play:{name}"))
        except (KeyError, ImportError, MathCardsError):  # a game not in this checkout
            continue
    w_page = W.Dropdown(options=options, description=_("Page"),
                        layout=W.Layout(width="600px"))  # a set by its title
    w_players = W.BoundedIntText(value=2, min=2, max=8, description=_("Players"))
    w_short = W.Checkbox(value=False, description=_("Short game"), indent=False)
    w_deal = W.Text(value="", description=_("Deal code"), placeholder=_("empty: a new deal"))
    w_level = W.Dropdown(options=[(_(words), key) for key, words in LEVELS.items()],
                         value=DEFAULT_LEVEL, description=_("Help"))
    w_fixed = W.Checkbox(value=False,
                         description=_("Fix it (students cannot change the help)"),
                         indent=False)
    from mathcards.widgets.classes import class_picker

    w_class = class_picker(_("No class: students type their names"), _("Class"))
    w_each = W.Checkbox(value=False, description=_("A link for each student"), indent=False)
    w_make = W.Button(description=_("Make the link"), button_style="primary")
    w_out = W.HTML("")
    w_out.add_class("mathcards")

    def update(_change: Any = None) -> None:
        is_play = str(w_page.value).startswith("play:")
        name = str(w_page.value).partition(":")[2]
        w_players.disabled = w_deal.disabled = w_fixed.disabled = not is_play
        short = short_setting(name) if is_play else None
        w_short.disabled = short is None
        w_short.description = (_("Short game (first to {points})").format(points=short[1])
                               if short else _("Short game"))
        if is_play:
            game_cls = get_game_class(name)
            w_players.min, w_players.max = game_cls.min_players, game_cls.max_players

    def make(_b: Any = None) -> None:
        from mathcards.classes import find_class
        from mathcards.widgets.classes import LANDING, page_link, whole_link_html

        cls = str(w_class.value or "")
        school_class = find_class(cls) if cls else None
        try:
            link = class_link(str(w_page.value), folder=folder, players=int(w_players.value),
                              short=bool(w_short.value) and not w_short.disabled,
                              deal=str(w_deal.value)[:60], level=str(w_level.value),
                              fixed=bool(w_fixed.value) and not w_fixed.disabled, cls=cls)
        except MathCardsError as exc:
            w_out.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return
        if school_class is None:
            said = esc(_("The link for the class: {link}")).replace(
                "{link}", whole_link_html(link))
            more = _("A student who opens it without a name is asked for one. Give the "
                     "class its names (<i>Classes</i>) and choose it here: they then pick "
                     "their names from a list.")
            w_out.value = f'<p role="status">{said}</p><p>{more}</p>'
            return
        landing = page_link(LANDING, cls=school_class.id)
        rows = ""
        if w_each.value:
            rows = "".join(
                f"<tr><td>{esc(m.name)}</td><td>"
                f"{whole_link_html(link + '&student=' + quote(m.name))}</td></tr>"
                for m in school_class.members)
            rows = f'<table class="mc-progress mc-links">{rows}</table>'
        said = esc(_("The link for the class: {link} (each student picks their name from "
                     "class {name}'s list when it opens)").format(
                         link="\x00", name=school_class.id)).replace(
                             "\x00", whole_link_html(link))
        page = esc(_("The class's page, with every game and the practice page: {link}").format(
            link="\x00")).replace("\x00", whole_link_html(landing))
        w_out.value = f'<p role="status">{said}</p><p>{page}</p>{rows}'

    w_page.observe(update, "value")
    w_make.on_click(make)
    update()
    heading = _("A link for the class")
    box = W.VBox([W.HTML(f"<h3>{esc(heading)}</h3>"), w_page,
                  W.HBox([w_players, w_short]), w_deal, W.HBox([w_level, w_fixed]),
                  W.HBox([w_class, w_each]), w_make, w_out])
    box.add_class("mathcards")
    box.make = make
    box.w_page, box.w_players, box.w_short, box.w_deal, box.w_out = (
        w_page, w_players, w_short, w_deal, w_out)
    box.w_level, box.w_fixed = w_level, w_fixed
    box.w_class, box.w_each = w_class, w_each
    return box
