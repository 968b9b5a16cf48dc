"""The teacher's page for writing a set in the browser (``lessons/write_set.ipynb``).

A YAML editor and, for a teacher who does not write YAML, a form per exercise kind
whose *Add to the set* writes the YAML; the checker's messages (those of
``python -m mathcards check``, each with its line) as one types, a moment after the
last key; each exercise as two or three students will see it (their own variants,
drawn as the practice page draws them); *Save as draft* and *Publish* to the server's
sets (``mathcards.exercises.store``: publishing refuses a set with a problem; a draft
is never shown to students, and a draft of a published set leaves what students see as
it was; publishing a changed set makes its next version and says how many answers stay
with the version before); *Import* a .yaml file and *Download* the YAML.

The editor's text is kept on the server as the teacher types (a moment after the last
key, with the check): a reload, a closed tab or a restarted kernel brings it back, with
a line saying so, until it is saved or published. On the server rather than in the
browser's localStorage: everything the page holds already lives in its kernel (the
text reaches it with each key, and no script of ours runs in the page), and a teacher
who moves to another computer, or whose school browser forgets its storage at logout,
still finds the set.

Only the teacher's page builds this (the notebook guards it with ``teacher_only``).
Every value from the page is text checked here: the YAML goes to the checker (never
to ``eval``), an uploaded file is size-checked and decoded as UTF-8, names are read by
``student_id``, and a file name on the server comes from ``safe_name`` only.
"""

from __future__ import annotations

import base64
import contextlib
import re
from collections.abc import Callable
from pathlib import Path
from textwrap import indent
from typing import Any

import ipywidgets as W
import yaml

from mathcards.errors import MathCardsError
from mathcards.exercises import KINDS, read_set_text
from mathcards.exercises.loader import MAX_BYTES, parse_yaml
from mathcards.exercises.model import DEFAULT_SOLUTION_AFTER
from mathcards.exercises.store import (
    SetStore,
    StoreError,
    copy_of,
    safe_name,
    set_name_of,
    with_solution_after,
)
from mathcards.i18n import N_, _, ngettext
from mathcards.table import schedule_later
from mathcards.widgets.cards import esc, style_html
from mathcards.widgets.exercises import EXTRA_CSS, ExerciseSetView, sample_files

__all__ = ["SetWriter", "add_exercise", "kind_label", "set_writer"]

DEBOUNCE = 0.4  # seconds after the last key before the check runs
PREVIEW_STUDENTS = "ana, ben"
MAX_SHOWN = 12  # problems listed at once (the rest counted)

# The form's kinds, the common ones first; every kind of KINDS can be chosen.
FORM_FIRST = ("deck_value", "reach_goal", "make_stacks", "is_stack")
EXAMPLES = {
    "deck": N_("7♥ −10♠ +2D  (centre card first, then + adds, − subtracts)"),
    "counted": "3 -5 2",
    "hand": N_("3H 4S 9D  or  5 random cards"),
    "goal": N_("0  or  -3..3"),
    "most_plays": "2",
    "dice": N_("3 5  or  random"),
    "cards": N_("6H 2S  or  3 random cards"),
    "played": "7H",
    "own": "5H 2S",
    "opponent": "QD 9S 4C",
    "trick": "G12 G3 R3",
    "led": N_("G9  or  none"),
    "card": "R5",
    "yours": "9H",
    "prizes": "1 2 3",
}
NEW_SET = "My set"
# a set's status on the server, worded where the list shows it
STATUS_WORDS = (N_("draft"), N_("published"))

CSS = """
<style>
.mathcards .mc-writer-messages { margin: 4px 0; }
.mathcards .mc-writer-messages li { color: #8a2c00; }
.mathcards .mc-writer-ok { color: #1b5e20; font-weight: 600; }
.mathcards .mc-preview { display: flex; flex-wrap: wrap; gap: 12px; }
.mathcards .mc-preview-student { border: 1px solid #c9ced6; border-radius: 8px;
  padding: 6px 10px; min-width: 16em; }
.mathcards .mc-preview-exercise { margin: 8px 0 14px 0; }
</style>
"""


def kind_label(kind: str) -> str:
    """A kind as the form lists it, in a teacher's words: ``Suns to Moons: Reach the goal``
    (its YAML name, ``reach_goal``, is the YAML editor's business)."""
    from mathcards.games.registry import get_game_class

    return f"{get_game_class(KINDS[kind].game).title}: {_(KINDS[kind].title)}"


def _form_value(name: str, text: str) -> Any:
    """A form box's text as the YAML value the checker reads (still checked by it)."""
    text = text.replace("\u2212", "-").strip()[:300]
    if name == "dice":
        dice = re.fullmatch(r"\[?\s*(\d+)\s*[, ]\s*(\d+)\s*\]?", text)
        if dice:
            return [int(dice.group(1)), int(dice.group(2))]
    if re.fullmatch(r"-?[0-9]{1,6}", text):
        return int(text)
    return text


def add_exercise(text: str, item: dict[str, Any], title: str = NEW_SET) -> str:
    """``text`` with one more exercise at the end of its list, written as YAML.

    The new lines are added at the end, keeping the teacher's own lines and comments;
    when that would not give the list plus the new exercise (the list is not last),
    the set is written out again. An empty editor starts a new set titled ``title``.
    Raises StoreError when the text cannot take an exercise (its YAML is broken)."""
    block = indent(yaml.safe_dump([item], sort_keys=False, allow_unicode=True,
                                  default_flow_style=None, width=200), "  ")
    if not text.strip():
        title = title.strip()[:120] or NEW_SET
        head = yaml.safe_dump({"title": title, "id": safe_name(title)}, sort_keys=False,
                              allow_unicode=True, width=200)
        return f"{head}exercises:\n{block}"
    old, _lines, problems = parse_yaml(text)
    if not isinstance(old, dict) or problems:
        first = f" ({problems[0]})" if problems else ""
        raise StoreError(f"fix the YAML first{first}, or clear the editor to start a new set")
    exercises = old.get("exercises")
    if exercises is not None and not isinstance(exercises, list):
        raise StoreError("'exercises' must be a list before the form can add to it")
    joined = text.rstrip("\n") + "\n" + ("" if "exercises" in old else "exercises:\n") + block
    new, _lines, problems = parse_yaml(joined)
    if not problems and isinstance(new, dict) and new.get("exercises") == [
            *(exercises or []), item]:
        return joined
    rewritten = dict(old)
    rewritten["exercises"] = [*(exercises or []), item]
    return yaml.safe_dump(rewritten, sort_keys=False, allow_unicode=True, width=200)


class SetWriter(W.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """The write-a-set page (see the module docstring)."""

    def __init__(self, folder: str | Path = "exercises", *, store: SetStore | None = None,
                 schedule: Callable[[float, Callable[[], None]], None] = schedule_later,
                 text: str = "") -> None:
        super().__init__()
        self.add_class("mathcards")
        self.store = store or SetStore(reserved=sample_files(folder))
        self._schedule = schedule
        self._typed = 0  # a count of edits: a check runs only for the latest one
        self._server_text = text  # the editor's text as last opened, saved or published
        kept = "" if text else self._unsaved()
        text = kept or text
        self.exercise_set: Any = None
        self.problems: list[str] = []

        # the form -----------------------------------------------------------------------
        names = [*FORM_FIRST, *(k for k in KINDS if k not in FORM_FIRST)]
        self.w_kind = W.Dropdown(options=[(kind_label(k), k) for k in names if k in KINDS],
                                 description=_("Kind"), layout=W.Layout(width="560px"))
        self.w_title = W.Text(value=NEW_SET, description=_("Set title"),
                              layout=W.Layout(width="560px"))
        self.w_fields = W.VBox([])
        self.w_prompt = W.Text(description=_("Question"),
                               placeholder=_("optional: your own words"),
                               layout=W.Layout(width="560px"))
        # the set's rule for the worked solution (solution_after), written into the YAML
        self.w_solution = W.Dropdown(
            options=[(ngettext("after {n} wrong attempt", "after {n} wrong attempts", n).format(
                n=n), n) for n in (*range(1, 11), 15, 20)],
            value=DEFAULT_SOLUTION_AFTER, description=_("Worked solution opens"),
            style={"description_width": "initial"}, layout=W.Layout(width="560px"))
        self._syncing = False  # the list follows the YAML: no write back then
        self.w_solution.observe(lambda _c: self._syncing or self.set_solution_after(
            self.w_solution.value), "value")
        self.w_add = W.Button(description=_("Add to the set"), button_style="primary",
                              tooltip=_("write this exercise into the YAML below"))
        self.w_form_line = W.HTML("")
        self.field_boxes: dict[str, W.Text] = {}
        self.w_kind.observe(lambda _c: self._build_fields(), "value")
        self.w_add.on_click(lambda _b: self.add_from_form())
        self._build_fields()

        # the editor, the checker and the preview --------------------------------------------
        self.w_yaml = W.Textarea(value=text, continuous_update=True, description="YAML",
                                 style={"description_width": "initial"},
                                 placeholder="title: Integers warm-up\nid: integers_7b\n"
                                             "exercises:\n  - kind: deck_value\n"
                                             "    deck: 9H -4S +2D",
                                 layout=W.Layout(width="100%", height="320px"))
        self.w_yaml.add_class("mc-writer-yaml")
        self.w_messages = W.HTML("")
        self.w_messages.add_class("mc-writer-check")
        self.w_students = W.Text(value=PREVIEW_STUDENTS, description=_("Students"),
                                 placeholder=_("two or three names, like ana, ben"),
                                 layout=W.Layout(width="420px"))
        self.w_preview = W.HTML("")
        self.w_preview.add_class("mc-writer-preview")
        self.w_yaml.observe(lambda _c: self.typed(), "value")
        self.w_students.observe(lambda _c: self.typed(), "value")

        # saving, the server's sets, import and download -------------------------------------
        self.w_draft = W.Button(description=_("Save as draft"),
                                tooltip=_("keep it; students do not see it"))
        self.w_publish = W.Button(description=_("Publish"), button_style="success",
                                  tooltip=_("students can open it on the practice page"))
        self.w_draft.on_click(lambda _b: self.save_draft())
        self.w_publish.on_click(lambda _b: self.publish())
        self.w_sets = W.Dropdown(options=[], description=_("On the server"),
                                 style={"description_width": "initial"},
                                 layout=W.Layout(width="460px"))
        self.w_open = W.Button(description=_("Open"),
                               tooltip=_("load this set into the editor"))
        self.w_unpublish = W.Button(description=_("Unpublish"), button_style="warning",
                                    tooltip=_("take it back to the drafts"))
        self.w_duplicate = W.Button(description=_("Duplicate"),
                                    tooltip=_("a copy of this set in the editor, to change "
                                              "and save under a new name"))
        self.w_open.on_click(lambda _b: self.open_set(self.w_sets.value))
        self.w_duplicate.on_click(lambda _b: self.duplicate(self.w_sets.value))
        self.w_unpublish.on_click(lambda _b: self.unpublish(self.w_sets.value))
        self.w_upload = W.FileUpload(accept=".yaml,.yml,.txt", multiple=False,
                                     description=_("Import a .yaml"))
        self.w_upload.observe(lambda _c: self.import_upload(), "value")
        self.w_download = W.HTML("")
        self.w_status = W.HTML("")

        head = W.HTML(f"{style_html()}{EXTRA_CSS}{CSS}")
        # the words escaped, then the cards' notation and the button's name put in
        five, add = "5 random cards", _("Add to the set")  # the notation stays as typed
        step1 = esc(_("Choose a kind, fill in its boxes (cards as {ten} or {heart}, several "
                      "with spaces; a box may say {random}), then {add}: the YAML below "
                      "grows by one exercise.")).format(
            ten="<code>10H</code>", heart="<code>10♥</code>",
            random=f"<code>{esc(five)}</code>", add=f"<b>{esc(add)}</b>")
        step4 = esc(_("A draft is kept for you only; a published set is on the practice page "
                      "for your students (only a set with no problem can be published). A "
                      "draft of a published set leaves what students see as it is until you "
                      "publish it; publishing a changed set makes its next version, and each "
                      "answer keeps the version it answered."))
        titles = [_("1. Add exercises with the form"),
                  _("2. The set (YAML): write, paste or change it"), _("Checker"),
                  _("3. As your students will see it"), _("4. Save it on the server")]
        own = _("Each student gets their own variant of an exercise with random cards.")
        h1, h2, h3, h4, h5 = (f"<h3>{esc(t)}</h3>" for t in titles)
        self.children = [
            head,
            W.HTML(f"{h1}<p>{step1}</p>"),
            self.w_title, self.w_solution, self.w_kind, self.w_fields, self.w_prompt,
            W.HBox([self.w_add]), self.w_form_line,
            W.HTML(h2),
            self.w_yaml,
            W.HTML(h3), self.w_messages,
            W.HTML(f"{h4}<p>{esc(own)}</p>"),
            self.w_students, self.w_preview,
            W.HTML(f"{h5}<p>{step4}</p>"),
            W.HBox([self.w_draft, self.w_publish]), self.w_status,
            W.HBox([self.w_sets, self.w_open, self.w_duplicate, self.w_unpublish]),
            W.HBox([self.w_upload, self.w_download]),
        ]
        self.refresh_sets()
        if kept:
            self._say(_("Your set not yet saved is back in the editor (kept as you typed): "
                        "save it as a draft or publish it, or clear the editor to drop it."))
        self.check_now()

    # --- the form -------------------------------------------------------------------------
    def _build_fields(self) -> None:
        kind = KINDS[str(self.w_kind.value)]
        self.field_boxes = {}
        for spec in kind.fields:
            label = spec.name.replace("_", " ") + ("" if spec.required else _(" (optional)"))
            box = W.Text(description=label, placeholder=_(EXAMPLES.get(spec.name, spec.help)),
                         style={"description_width": "140px"},
                         layout=W.Layout(width="560px"))
            box.add_class(f"mc-field-{spec.name}")
            self.field_boxes[spec.name] = box
        self.w_fields.children = list(self.field_boxes.values())
        self.w_form_line.value = ""

    def form_item(self) -> dict[str, Any]:
        """The exercise the form describes, as the YAML will hold it (checked by the kind)."""
        kind = str(self.w_kind.value)
        if kind not in KINDS:
            raise StoreError(_("choose a kind of exercise"))
        item: dict[str, Any] = {"kind": kind}
        for name, box in self.field_boxes.items():
            text = str(box.value)
            if text.strip():
                item[name] = _form_value(name, text)
        prompt = str(self.w_prompt.value).strip()[:300]
        if prompt:
            item["prompt"] = prompt
        alone, problems = read_set_text(yaml.safe_dump({"title": "form", "exercises": [item]},
                                                       allow_unicode=True))
        if alone is not None:  # the whole check, as publishing runs it
            problems = alone.problems()
        if problems:
            raise StoreError(problems[0].message)
        return item

    def add_from_form(self) -> bool:
        try:
            item = self.form_item()
            text = add_exercise(str(self.w_yaml.value), item, str(self.w_title.value))
            if not str(self.w_yaml.value).strip() and \
                    self.w_solution.value != DEFAULT_SOLUTION_AFTER:  # a new set: its rule
                text = with_solution_after(text, int(self.w_solution.value))
            self.w_yaml.value = text
        except MathCardsError as exc:
            self.w_form_line.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return False
        for box in self.field_boxes.values():
            box.value = ""
        self.w_prompt.value = ""
        added = _("Added: a {kind} exercise at the end of the set.").format(
            kind=_(KINDS[item["kind"]].title))
        self.w_form_line.value = f'<p role="status">{esc(added)}</p>'
        return True

    # --- checking as one types --------------------------------------------------------------
    def typed(self) -> None:
        """An edit: check a moment after the last one (a check per key would lag)."""
        self._typed += 1
        mine = self._typed
        def check_if_latest() -> None:
            if self._typed == mine:
                self.check_now()

        self._schedule(DEBOUNCE, check_if_latest)

    def check_now(self) -> list[str]:
        """Run the checker on the editor's text; show its messages and the preview."""
        text = str(self.w_yaml.value)
        try:
            self._check(text)
        except Exception as exc:  # noqa: BLE001 - the page shows one line, never a traceback
            stopped = _("the checker stopped on this text ({error}): change the last edit, or "
                        "download the set and run 'python -m mathcards check' on it").format(
                error=type(exc).__name__)
            self.exercise_set, self.problems = None, [stopped]
        self._show_messages(text)
        self._show_preview()
        self._show_download(text)
        self._keep(text)
        self._follow_solution_rule()
        return self.problems

    # --- the worked solution's rule -------------------------------------------------------
    def _follow_solution_rule(self) -> None:
        """The list shows the rule of the set in the editor."""
        after = getattr(self.exercise_set, "solution_after", None)
        if isinstance(after, int) and after != self.w_solution.value and \
                after in {v for _label, v in self.w_solution.options}:
            self._syncing = True
            try:
                self.w_solution.value = after
            finally:
                self._syncing = False

    def set_solution_after(self, attempts: Any) -> bool:
        """The teacher chose when the worked solution opens: written into the set's YAML
        (an empty editor takes it with its first exercise)."""
        text = str(self.w_yaml.value)
        if not text.strip():
            return True
        try:
            self.w_yaml.value = with_solution_after(text, int(attempts))
        except (MathCardsError, ValueError, TypeError) as exc:
            self.w_form_line.value = f'<p class="mc-refused" role="alert">{esc(exc)}</p>'
            return False
        opens = ngettext("The worked solution opens after {n} wrong attempt (solution_after "
                         "in the YAML).", "The worked solution opens after {n} wrong attempts "
                         "(solution_after in the YAML).", int(attempts)).format(n=int(attempts))
        self.w_form_line.value = f'<p role="status">{esc(opens)}</p>'
        return True

    # --- the text not yet saved ---------------------------------------------------------------
    def _unsaved(self) -> str:
        try:
            return self.store.unsaved()
        except OSError:
            return ""

    def _keep(self, text: str) -> None:
        """Keep the editor's text on the server while it differs from what was saved."""
        try:
            if text == self._server_text or not text.strip():
                self.store.forget_unsaved()
            elif not self.store.keep_unsaved(text):
                self._say(_("This text is over 1 MB: it is not kept while you type; save it "
                            "as a draft or split it into smaller sets."), refused=True)
        except OSError as exc:
            self._say(_("Your typing cannot be kept on the server ({reason}): save the set as "
                        "a draft or download it before leaving the page.").format(
                reason=exc.strerror or exc), refused=True)

    def _saved(self, text: str) -> None:
        self._server_text = text
        with contextlib.suppress(OSError):
            self.store.forget_unsaved()

    def _check(self, text: str) -> None:
        if not text.strip():
            self.exercise_set, self.problems = None, []
            return
        exercise_set, problems = read_set_text(text, name=self._name(text) or "set")
        if exercise_set is not None:
            problems = exercise_set.problems()
        self.exercise_set = exercise_set
        self.problems = [str(p) for p in problems]

    def _name(self, text: str) -> str:
        try:
            return set_name_of(text)
        except MathCardsError:
            return ""

    def _show_messages(self, text: str) -> None:
        if not text.strip():
            empty = _("Write a set below, paste one, import a file, or add exercises with "
                      "the form.")
            self.w_messages.value = f"<p>{esc(empty)}</p>"
        elif self.problems:
            shown = "".join(f"<li>{esc(p)}</li>" for p in self.problems[:MAX_SHOWN])
            more = len(self.problems) - MAX_SHOWN
            and_more = _("… and {n} more.").format(n=more)
            tail = f"<p>{esc(and_more)}</p>" if more > 0 else ""
            count = len(self.problems)
            to_fix = ngettext("{n} problem to fix", "{n} problems to fix", count).format(n=count)
            each = _("(each with its line)")
            self.w_messages.value = (
                f'<div class="mc-writer-messages" role="status"><b>{esc(to_fix)}</b> '
                f"{esc(each)}<ul>{shown}</ul>{tail}</div>")
        else:
            n = len(self.exercise_set) if self.exercise_set is not None else 0
            ready = ngettext("No problems: {n} exercise, ready to publish.",
                             "No problems: {n} exercises, ready to publish.", n).format(n=n)
            self.w_messages.value = (
                f'<p class="mc-writer-ok" role="status">{esc(ready)}</p>')

    # --- the preview ------------------------------------------------------------------------
    def preview_students(self) -> list[str]:
        from mathcards.students import student_id

        names: list[str] = []
        for part in str(self.w_students.value)[:200].split(","):
            try:
                name = student_id(part.strip())
            except MathCardsError:
                continue
            if name not in names and name != "guest":
                names.append(name)
        return names[:3] or ["ana", "ben"]

    def _show_preview(self) -> None:
        if self.exercise_set is None:
            later = _("The preview shows once the set reads without a problem.")
            self.w_preview.value = f"<p>{esc(later)}</p>" if str(self.w_yaml.value).strip() else ""
            return
        students = self.preview_students()
        parts = []
        notation_words = _("In the set's notation:")
        for exercise in self.exercise_set:
            cells = []
            for student in students:
                try:
                    variant = exercise.variant(student)
                    body = (f'<div class="mc-ex-prompt">{esc(variant.prompt())}</div>'
                            f"{ExerciseSetView.picture_html(variant)}"
                            f"{ExerciseSetView.hand_html(variant)}"
                            f'<p class="mc-preview-text">{esc(notation_words)} '
                            f"<code>{esc(variant.text)}</code></p>")
                except MathCardsError as exc:
                    unshown = _("cannot be shown: {reason}").format(reason=exc)
                    body = f'<p class="mc-refused">{esc(unshown)}</p>'
                cells.append(f'<div class="mc-preview-student" data-student="{esc(student)}">'
                             f"<b>{esc(student)}</b>{body}</div>")
            heading = (_("Exercise {number}: {kind}") if exercise.is_random else
                       _("Exercise {number}: {kind} (the same for every student)")).format(
                number=exercise.number, kind=_(exercise.kind.title))
            parts.append(
                f'<div class="mc-preview-exercise"><h4>{esc(heading)}</h4>'
                f'<div class="mc-preview">{"".join(cells)}</div></div>')
        self.w_preview.value = "".join(parts)

    # --- download and import ------------------------------------------------------------------
    def _show_download(self, text: str) -> None:
        if not text.strip():
            self.w_download.value = ""
            return
        name = self._name(text) or "set"
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        download = _("Download {name}.yaml").format(name=name)
        self.w_download.value = (
            f'<a class="mc-download" download="{esc(name)}.yaml" '
            f'href="data:text/yaml;charset=utf-8;base64,{data}">'
            f"{esc(download)}</a>")

    def import_upload(self) -> bool:
        """Put an uploaded .yaml file into the editor (checked like typed text)."""
        files = self.w_upload.value
        items = list(files.values()) if isinstance(files, dict) else list(files or ())
        if not items:
            return False
        item = items[0]
        self.w_upload.value = ()  # the same file can be imported again after a change
        content = item.get("content", b"") if isinstance(item, dict) else b""
        raw = bytes(content) if isinstance(content, (bytes, bytearray, memoryview)) else b""
        try:
            if len(raw) > MAX_BYTES:
                raise StoreError(_("that file is over 1 MB: a set is a few lines of text"))
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise StoreError(_("that file is not UTF-8 text: save it as plain text "
                                   "(.yaml) and import it again")) from None
        except StoreError as exc:
            self._say(str(exc), refused=True)
            return False
        self.w_yaml.value = text
        self._say(_("Imported: the file is in the editor (not yet saved on the server)."))
        self.check_now()
        return True

    # --- the server's sets ------------------------------------------------------------------
    def _say(self, text: str, *, refused: bool = False) -> None:
        role = 'class="mc-refused" role="alert"' if refused else 'role="status"'
        self.w_status.value = f"<p {role}>{esc(text)}</p>"

    def refresh_sets(self) -> None:
        try:
            found = self.store.sets()
        except OSError:
            found = []
        # a set with a draft and a published version is listed twice, one for each; each by
        # its title, as the practice page names it (its file name when it has none)
        self.w_sets.options = [(_("{title} ({status})").format(
            title=self._title_of(s.name, s.status), status=_(s.status)), (s.name, s.status))
            for s in found]

    def _title_of(self, name: str, status: str) -> str:
        from mathcards.exercises.loader import parse_yaml

        try:
            data, _lines, _problems = parse_yaml(self.store.read(name, status))
        except (MathCardsError, OSError):
            return name
        title = data.get("title") if isinstance(data, dict) else None
        return str(title).strip()[:80] if isinstance(title, str) and title.strip() else name

    def save_draft(self) -> bool:
        text = str(self.w_yaml.value)
        try:
            saved = self.store.save_draft(text)
            published = self.store.version(saved.name)
        except (MathCardsError, OSError) as exc:
            self._say(_("Not saved: {reason}").format(reason=exc) if isinstance(exc, OSError)
                      else str(exc), refused=True)
            return False
        self._saved(text)
        self.refresh_sets()
        if published:
            self._say(_("Saved as a draft: {name}. Students still see the published version "
                        "{version} until you publish this draft.").format(
                name=saved.name, version=published))
        else:
            self._say(_("Saved as a draft: {name}. Students do not see it until you publish "
                        "it.").format(name=saved.name))
        return True

    def publish(self) -> bool:
        text = str(self.w_yaml.value)
        try:
            saved = self.store.publish(text)
        except (MathCardsError, OSError) as exc:
            self._say(_("Not published: {reason}").format(reason=exc)
                      if isinstance(exc, OSError) else str(exc), refused=True)
            return False
        self._saved(text)
        self.refresh_sets()
        from mathcards.widgets.classes import page_link, whole_link_html

        link = page_link("practice.ipynb", extra=f"set={saved.name}")
        version = ""
        if saved.replaced:
            answered = self._answers_to(text, saved.replaced)
            kept = (_("no student had answered it") if answered == 0 else
                    ngettext("the {n} answer students gave to it stays with version {old}",
                             "the {n} answers students gave to it stay with version {old}",
                             answered).format(n=answered, old=saved.replaced) if answered else
                    _("answers given to it stay with version {old}").format(
                        old=saved.replaced))
            version = " " + _("Version {new} replaces version {old} for students ({kept}); "
                              "answers from now on are to version {new}.").format(
                new=saved.version, old=saved.replaced, kept=kept)
        published = _("Published: {name}.").format(name=saved.name)
        classes = _("Your classes")
        find = esc(_("Students find it on the practice page; its whole link: {link} (for a "
                     "class whose students pick their names, make its link on {page}).")
                   ).format(link=whole_link_html(link), page=f"<i>{esc(classes)}</i>")
        self.w_status.value = f'<p role="status">{esc(published)}{esc(version)} {find}</p>'
        return True

    def _answers_to(self, text: str, version: int) -> int | None:
        """How many attempts the class made at ``version`` of the set ``text`` is (None
        when they cannot be read)."""
        from mathcards.exercises.results import read_results
        from mathcards.widgets.exercises import _dashboard_source

        exercise_set, _problems = read_set_text(text, name=self._name(text) or "set")
        if exercise_set is None:
            return None
        try:
            where, _shown, readable = _dashboard_source(None)
            attempts = read_results(where) if readable else []
        except (MathCardsError, OSError):
            return None
        return sum(1 for a in attempts
                   if a.set_id == exercise_set.id and a.set_version == version)

    @staticmethod
    def _chosen(value: Any) -> tuple[str, str | None]:
        """The set the list names: (name, status), or a name alone."""
        if isinstance(value, tuple) and len(value) == 2:
            return str(value[0]), str(value[1])
        return str(value or ""), None

    def _holds_unsaved(self) -> bool:
        """The editor holds text not saved (opening another set would replace it)."""
        text = str(self.w_yaml.value)
        if text.strip() and text != self._server_text:
            self._say(_("The editor holds changes not saved: save them as a draft (or clear "
                        "the editor) first, then open another set."), refused=True)
            return True
        return False

    def duplicate(self, value: Any) -> bool:
        """A copy of the chosen set in the editor, titled "... (copy)" under a name no set
        has; nothing is saved until the teacher saves it (kept as unsaved text)."""
        name, status = self._chosen(value)
        if not name or self._holds_unsaved():
            return False
        try:
            taken = {s.name for s in self.store.sets()} | set(self.store.reserved)
            text = copy_of(self.store.read(name, status), taken)
        except (MathCardsError, OSError) as exc:
            self._say(str(exc), refused=True)
            return False
        self._server_text = ""  # the copy is not on the server yet
        self.w_yaml.value = text
        self._say(_("A copy of {name} is in the editor as {copy}: change it, then save it as "
                    "a draft or publish it.").format(name=name, copy=set_name_of(text)))
        self.check_now()
        return True

    def open_set(self, value: Any) -> bool:
        name, status = self._chosen(value)
        if self._holds_unsaved():
            return False
        try:
            text = self.store.read(name, status)
            status = status or self.store.status(name)
        except (MathCardsError, OSError) as exc:
            self._say(str(exc), refused=True)
            return False
        self._server_text = text
        self.w_yaml.value = text
        self._say(_("Opened {name} ({status}).").format(
            name=name, status=_(status) if status else ""))
        self.check_now()
        return True

    def unpublish(self, value: Any) -> bool:
        name, _status = self._chosen(value)
        try:
            self.store.unpublish(name)
        except (MathCardsError, OSError) as exc:
            self._say(str(exc), refused=True)
            return False
        self.refresh_sets()
        self._say(_("{name} is a draft again: students no longer see it.").format(name=name))
        return True


def set_writer(folder: str | Path = "exercises") -> SetWriter:
    """The write-a-set page's widget; ``folder`` holds the sample sets (their names are
    kept for them)."""
    return SetWriter(folder)
