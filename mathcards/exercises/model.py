"""Exercise sets: read a teacher's YAML file, check it, and give every student their variant.

Why YAML (and not Markdown with front matter): an exercise set is a list of
small records (a kind, a hand, a goal), which is exactly what YAML writes
without any punctuation a teacher has to learn beyond ``key: value`` and
``- `` for a new item. PyYAML is already a dependency, and composing the
document (``yaml.compose``) keeps every node's line, so each problem is
reported at its line. Markdown would need a second parser for the list.

A set::

    title: Reach the goal
    instructions: Play cards from your hand until the deck equals the goal.
    solution_after: 3          # a worked solution after 3 wrong attempts
    exercises:
      - kind: reach_goal
        deck: 7H -10S          # centre card first, then +card / -card
        hand: 3H 4S 5D
        goal: 0
      - kind: reach_goal
        deck: 2 random cards   # any field may be a template ...
        hand: 5 random cards
        goal: -3..3
        require: [solvable, exactly one solution]   # ... checked by the solvers

Each student's variant comes from a keyed hash of (set, exercise, student)
with the server's variant secret (``mathcards.keys``), so it is the same in
every session and a teacher can open it again, while nobody without the secret
can compute a classmate's variant (cards or answers) from a name.
"""

from __future__ import annotations

import difflib
import hashlib
import hmac
import importlib
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathcards.asking import DEFAULT_LEVEL
from mathcards.cards import Card
from mathcards.errors import MathCardsError
from mathcards.exercises.fields import (
    CardsTemplate,
    DeckPlay,
    DeckTemplate,
    FieldError,
    IntTemplate,
    game_deck,
    is_template,
)
from mathcards.exercises.kinds import KINDS, Kind, Result, WorkLimitError, work_budget
from mathcards.games.registry import game_spec
from mathcards.i18n import _, language, ngettext

if TYPE_CHECKING:
    from mathcards.exercises.session import Session

SET_KEYS = ("title", "id", "lang", "game", "instructions", "solution_after", "exercises")
EXERCISE_KEYS = ("kind", "id", "prompt", "require", "tries", "solution_after")
DEFAULT_SOLUTION_AFTER = 3
DEFAULT_TRIES = 200
SAMPLE_STUDENTS = tuple(f"sample-{i}" for i in range(1, 9))


# --- problems ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    """One problem in a set file: its line, the exercise it is in, what to fix."""

    line: int | None
    message: str
    exercise: int | None = None

    def __str__(self) -> str:
        if self.line and self.exercise:
            return _("line {line}: exercise {number}: {problem}").format(
                line=self.line, number=self.exercise, problem=self.message)
        if self.line:
            return _("line {line}: {problem}").format(line=self.line, problem=self.message)
        if self.exercise:
            return _("exercise {number}: {problem}").format(number=self.exercise,
                                                             problem=self.message)
        return self.message


class ExerciseFileError(MathCardsError):
    """A set (or exercise) that cannot be used; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[Problem], source: str = "") -> None:
        self.problems = list(problems)
        self.source = source
        first = str(self.problems[0]) if self.problems else _("unknown problem")
        more = len(self.problems) - 1
        if more:
            first = ngettext("{problem} (and {more} more problem: run 'python -m mathcards "
                             "check {file}')",
                             "{problem} (and {more} more problems: run 'python -m mathcards "
                             "check {file}')", more).format(problem=first, more=more,
                                                            file=source or "FILE")
        super().__init__(f"{source}: {first}" if source else first)


class VariantError(MathCardsError):
    """No variant of a random exercise met its constraints within the allowed tries."""


# --- constraints ------------------------------------------------------------------------
_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b, "≥": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    "≤": lambda a, b: a <= b, "==": lambda a, b: a == b, "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b, "≠": lambda a, b: a != b, ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
}
_CONSTRAINT = re.compile(r"^([a-z][a-z ]*?)\s*(>=|<=|==|!=|≥|≤|≠|=|>|<)\s*(-?[0-9]+)$")
_WORDS = {
    "solvable": ("solutions", ">=", 1),
    "must be solvable": ("solutions", ">=", 1),
    "exactly one solution": ("solutions", "==", 1),
    "one solution": ("solutions", "==", 1),
    "unique solution": ("solutions", "==", 1),
    "answer is yes": ("answer", "==", 1),
    "answer yes": ("answer", "==", 1),
    "answer is no": ("answer", "==", 0),
    "answer no": ("answer", "==", 0),
}


@dataclass(frozen=True)
class Constraint:
    """A condition a variant must meet, such as ``best stacks >= 2``."""

    measure: str
    op: str
    value: int
    text: str

    def holds(self, measures: dict[str, int]) -> bool:
        return _OPS[self.op](measures[self.measure], self.value)


def read_constraint(text: Any, kind: Kind) -> Constraint:
    """A constraint from its words, for this kind, or a FieldError naming what it measures."""
    if not isinstance(text, str):
        raise FieldError(f"{text!r} is not a constraint: write one like 'solvable' or "
                         "'best stacks >= 2'")
    norm = " ".join(text.lower().replace("\u2212", "-").split())
    if norm in _WORDS:
        measure, op, value = _WORDS[norm]
    else:
        m = _CONSTRAINT.match(norm)
        if not m:
            raise FieldError(f"{text!r} is not a constraint: write 'solvable', 'exactly one "
                             "solution', 'answer is yes' or '<measure> >= <number>'")
        measure, op, value = m.group(1).strip(), m.group(2), int(m.group(3))
    if measure not in kind.measure_names:
        known = ", ".join(kind.measure_names) or "nothing"
        raise FieldError(f"{text!r}: {kind.name} cannot check '{measure}'; it measures "
                         f"{known}")
    return Constraint(measure, op, value, text)


# --- stable variant seeds ---------------------------------------------------------------
def variant_seed(set_id: str, exercise_id: str, student: str,
                 secret: str | None = None) -> int:
    """A seed from (set, exercise, student), keyed with the server's variant secret.

    The same secret gives the same seed on every machine and run (Python's
    ``hash()`` of a string changes from process to process; HMAC-SHA-256 does not);
    without the secret nobody can compute it. ``secret`` defaults to
    ``mathcards.keys.variant_secret()``.
    """
    if secret is None:
        from mathcards import hub_client as hub

        if hub.service_url():  # a hub's student server holds no secret: the service draws
            return hub.variant_seed(set_id, exercise_id, student)
        from mathcards.keys import variant_secret

        secret = variant_secret()
    key = "\x1f".join(("mathcards-exercise-v2", set_id, exercise_id, student))
    digest = hmac.new(secret.encode("utf-8"), key.encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class Variant:
    """One student's version of an exercise: the position they see."""

    exercise: Exercise
    student: str
    position: dict[str, Any]
    tries: int  # how many draws it took (0 for a fixed exercise)

    @property
    def kind(self) -> Kind:
        return self.exercise.kind

    @property
    def text(self) -> str:
        """The position in the card notation (what the teacher sees in the results)."""
        return position_text(self.exercise.kind, self.position)

    def prompt(self) -> str:
        """The teacher's prompt in the page's language (or the set's own), else the
        kind's question."""
        return self.exercise.shown_prompt() or self.kind.prompt(self.position)

    def check(self, answer: Any) -> Result:
        return self.kind.check(self.position, answer)

    def hint(self, level: int = 1) -> Any:
        if isinstance(level, bool) or level not in (1, 2, 3):
            raise MathCardsError(f"hint level must be 1, 2 or 3, not {level!r}")
        return self.kind.hint(self.position, level)

    def solution(self) -> Result:
        return self.kind.solution(self.position)


def _value_text(value: Any) -> str:
    if isinstance(value, tuple):
        if value and all(isinstance(v, DeckPlay) for v in value):
            return " ".join(str(p.card) if i == 0 else str(p) for i, p in enumerate(value))
        return " ".join(str(v) for v in value)
    return "none" if value is None else str(value)


def position_text(kind: Kind, position: dict[str, Any]) -> str:
    parts = [f"{spec.name}: {_value_text(position[spec.name])}" for spec in kind.fields
             if spec.name in position and position[spec.name] is not None]
    return "; ".join(parts)


# --- exercises --------------------------------------------------------------------------
@dataclass(eq=False)
class Exercise:
    """One exercise of a set: its kind, its fields (values or templates) and its constraints.

    >>> ex = Exercise("is_stack", dice=(3, 5), cards="10H AS AD")
    >>> ex.check("yes").correct
    True
    """

    kind: Kind
    fields: dict[str, Any]
    id: str = ""
    prompt: str = ""
    require: tuple[Constraint, ...] = ()
    tries: int = DEFAULT_TRIES
    solution_after: int | None = None
    number: int = 1
    line: int | None = None
    set_id: str = ""
    prompts: dict[str, str] = field(default_factory=dict)  # language -> the prompt

    def __init__(self, kind: str | Kind, *, id: str = "", prompt: str = "",
                 require: Sequence[str] = (), tries: int = DEFAULT_TRIES,
                 solution_after: int | None = None, number: int = 1, line: int | None = None,
                 set_id: str = "", field_lines: Mapping[str, int | None] | None = None,
                 prompts: Mapping[str, str] | None = None, **fields: Any) -> None:
        """``field_lines``: the line of each field (and of ``require``) in a set file, where
        its problems are reported; ``line`` (the exercise's) otherwise."""
        problems: list[Problem] = []
        lines = field_lines or {}
        if isinstance(kind, str):
            if kind not in KINDS:
                raise ExerciseFileError([Problem(line, _unknown_kind(kind))])
            kind = KINDS[kind]
        self.kind = kind
        self.auto_id = id in ("", None)
        self.id = str(number) if self.auto_id else str(id)
        self.prompt = prompt  # in the set's own language (what the results keep)
        self.prompts = dict(prompts or {})
        self.tries = tries
        self.solution_after = solution_after
        self.number = number
        self.line = line
        self.set_id = set_id
        self.fields = {}
        names = {s.name for s in kind.fields}
        problems.extend(Problem(line, _unknown_field(kind, name), number)
                        for name in fields if name not in names)
        for spec in kind.fields:
            if spec.name in fields and fields[spec.name] is not None:
                try:
                    self.fields[spec.name] = spec.read(fields[spec.name], kind.game)
                except FieldError as exc:
                    problems.append(Problem(lines.get(spec.name, line), f"{spec.name}: {exc}",
                                            number))
            elif spec.required:
                problems.append(Problem(line, f"{kind.name} needs '{spec.name}' "
                                              f"({spec.help or 'see the guide'})", number))
            else:
                self.fields[spec.name] = spec.default
        constraints = []
        for text in ([require] if isinstance(require, str) else list(require)):
            try:
                constraints.append(read_constraint(text, kind))
            except FieldError as exc:
                problems.append(Problem(lines.get("require", line), f"require: {exc}", number))
        self.require = tuple(constraints)
        if problems:
            raise ExerciseFileError(problems)

    def shown_prompt(self) -> str:
        """The prompt in the page's language, else in the set's own language."""
        return self.prompts.get(language()) or self.prompt

    # --- variants ------------------------------------------------------------------------
    @property
    def is_random(self) -> bool:
        return any(is_template(v) for v in self.fields.values())

    def variant(self, student: str = "") -> Variant:
        """The position ``student`` sees (the same every time for the same student)."""
        if not self.is_random:
            return Variant(self, student, dict(self.fields), 0)
        seed = variant_seed(self.set_id, self.id, student)
        failures: Counter[str] = Counter()
        # one budget for all the tries: a page never waits on a costly template
        with work_budget() as budget:
            for attempt in range(self.tries):
                rng = random.Random(seed + attempt)
                position = self._draw(rng)
                try:
                    problems = self.kind.problems(position)
                    if problems:
                        failures[problems[0]] += 1
                        continue
                    if self.require:
                        measures = self.kind.measures(position)
                        broken = [c for c in self.require if not c.holds(measures)]
                        if broken:
                            failures[f"'{broken[0].text}'"] += 1
                            continue
                except WorkLimitError as exc:
                    raise VariantError(
                        f"finding a variant takes too much work (over {budget.limit:,} "
                        f"positions searched in {attempt + 1} "
                        f"tr{'ies' if attempt else 'y'}): {exc.advice}") from None
                return Variant(self, student, position, attempt + 1)
        common = ", ".join(f"{why} ({n}x)" for why, n in failures.most_common(2))
        raise VariantError(
            f"no variant met the constraints after {self.tries} tries (most failed: "
            f"{common}): widen the templates or loosen 'require'")

    def _draw(self, rng: random.Random) -> dict[str, Any]:
        kind = self.kind
        jokers = any(isinstance(v, CardsTemplate) and v.jokers for v in self.fields.values())
        pool = list(game_deck(kind.game, jokers=jokers))
        for card in kind.all_cards(self.fields):
            if card in pool:
                pool.remove(card)
        rng.shuffle(pool)
        position: dict[str, Any] = {}
        for spec in kind.fields:
            value = self.fields.get(spec.name)
            position[spec.name] = self._realise(spec, value, pool, rng)
        return position

    def _realise(self, spec: Any, value: Any, pool: list[Card], rng: random.Random) -> Any:
        if isinstance(value, IntTemplate):
            return value.draw(rng)
        if isinstance(value, CardsTemplate):
            ok = [c for c in pool if value.pool_filter(c) and self.kind.pool_filter(spec.name, c)
                  and (value.jokers or not c.is_joker)
                  and (value.source is None or c in value.source)]
            if len(ok) < value.count:
                raise VariantError(f"{spec.name}: '{value.text}' needs {value.count} cards but "
                                   f"only {len(ok)} are left to draw from")
            drawn = ok[:value.count]  # the pool is shuffled already
            for card in drawn:
                pool.remove(card)
            return drawn[0] if spec.one_card else tuple(drawn)
        if isinstance(value, DeckTemplate):
            return value.draw(pool, rng)
        if isinstance(value, tuple) and any(isinstance(v, IntTemplate) for v in value):
            return tuple(v.draw(rng) if isinstance(v, IntTemplate) else v for v in value)
        return value

    # --- answering (for teachers in notebooks and for tests) ------------------------------
    def check(self, answer: Any, student: str = "") -> Result:
        return self.variant(student).check(answer)

    def hint(self, level: int = 1, student: str = "") -> Any:
        return self.variant(student).hint(level)

    def solution(self, student: str = "") -> Result:
        return self.variant(student).solution()

    # --- validation ------------------------------------------------------------------------
    def problems(self, samples: Sequence[str] = SAMPLE_STUDENTS) -> list[Problem]:
        """Impossible positions and unmet constraints (for random ones: on sample students)."""
        out: list[Problem] = []

        def add(message: str) -> None:
            out.append(Problem(self.line, message, self.number))

        try:
            if not self.is_random:
                position = dict(self.fields)
                with work_budget():  # one budget for the whole check of this position
                    for message in self._duplicates(position) + self.kind.problems(position):
                        add(message)
                    if not out and self.require:
                        measures = self.kind.measures(position)
                        for c in self.require:
                            if not c.holds(measures):
                                add(f"'{c.text}' does not hold here ({c.measure} is "
                                    f"{measures[c.measure]}): change the position or the "
                                    "constraint")
            else:
                for student in samples:
                    variant = self.variant(student)
                    dup = self._duplicates(variant.position)
                    if dup:
                        add(dup[0])
                        break
        except MathCardsError as exc:  # a VariantError among them
            add(str(exc))
        return out

    def _duplicates(self, position: dict[str, Any]) -> list[str]:
        kind = self.kind
        if not kind.unique_cards:
            return []
        seen = Counter(kind.all_cards(position))
        if kind.asked_card is not None and position.get(kind.asked_card) is not None:
            seen[position[kind.asked_card]] -= 1  # it is one of the position's other cards
        if game_spec(kind.game).deck == "moon":  # a deck with twin cards (two of some)
            deck = Counter(game_deck(kind.game))
            return [f"{c} appears {seen[c]} times but the deck has {deck[c]}: a card can "
                    "be in one place only" for c in seen if seen[c] > deck[c]]
        return [f"{c} appears {seen[c]} times: one deck has one {c}" for c in seen
                if seen[c] > 1]


def _unknown_kind(kind: Any) -> str:
    names = list(KINDS)
    close = difflib.get_close_matches(str(kind), names, n=1)
    if close:
        return _("unknown kind {kind}: did you mean '{close}'? kinds are {kinds}").format(
            kind=repr(kind), close=close[0], kinds=", ".join(names))
    return _("unknown kind {kind}: kinds are {kinds}").format(kind=repr(kind),
                                                              kinds=", ".join(names))


def _unknown_field(kind: Kind, name: str) -> str:
    names = [s.name for s in kind.fields]
    close = difflib.get_close_matches(str(name), names + list(EXERCISE_KEYS), n=1)
    if close:
        return _("{kind} has no field '{name}' (did you mean '{close}'?): its fields are "
                 "{fields}").format(kind=kind.name, name=name, close=close[0],
                                    fields=", ".join(names))
    return _("{kind} has no field '{name}': its fields are {fields}").format(
        kind=kind.name, name=name, fields=", ".join(names))


# --- sets -------------------------------------------------------------------------------
@dataclass(eq=False)
class ExerciseSet:
    """A titled list of exercises with instructions, as a teacher wrote it."""

    title: str
    exercises: list[Exercise] = field(default_factory=list)
    instructions: str = ""
    id: str = "exercises"
    solution_after: int = DEFAULT_SOLUTION_AFTER
    path: Path | None = None
    version: int = 1  # the published version (mathcards.exercises.store); a sample is 1
    lang: str = "en"  # the set's own language: ``title`` and the prompts are in it
    titles: dict[str, str] = field(default_factory=dict)  # language -> the title
    # language -> the instructions (given per language like the title)
    instructions_by_lang: dict[str, str] = field(default_factory=dict)

    def shown_title(self) -> str:
        """The title in the page's language, else in the set's own language."""
        return self.titles.get(language()) or self.title

    def shown_instructions(self) -> str:
        """The instructions in the page's language, else in the set's own language."""
        return self.instructions_by_lang.get(language()) or self.instructions

    def __post_init__(self) -> None:
        for number, exercise in enumerate(self.exercises, start=1):
            exercise.number = number
            exercise.set_id = self.id
            if exercise.auto_id:
                exercise.id = str(number)
        ids = [e.id for e in self.exercises]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ExerciseFileError([Problem(None, f"exercise id {twice[0]!r} is used twice: "
                                                   "give every exercise its own id")])

    def __iter__(self) -> Iterator[Exercise]:
        return iter(self.exercises)

    def __len__(self) -> int:
        return len(self.exercises)

    def __getitem__(self, key: int | str) -> Exercise:
        """By number (1 = first, as the teacher counts) or by id."""
        if isinstance(key, int) and not isinstance(key, bool):
            if not 1 <= key <= len(self.exercises):
                raise IndexError(f"exercises are numbered 1 to {len(self.exercises)}")
            return self.exercises[key - 1]
        for exercise in self.exercises:
            if exercise.id == str(key):
                return exercise
        raise KeyError(f"no exercise {key!r} in {self.title!r}")

    def attempts_allowed(self, exercise: Exercise) -> int:
        """Wrong attempts before the worked solution is offered."""
        return exercise.solution_after or self.solution_after

    def problems(self) -> list[Problem]:
        out: list[Problem] = []
        for exercise in self.exercises:
            out.extend(exercise.problems())
        return out

    def session(self, student: str = "guest", *, store: Any = None,
                teacher: bool = False, level: str = DEFAULT_LEVEL) -> Session:
        from mathcards.exercises.session import Session

        return Session(self, student, store=store, teacher=teacher, level=level)

    def show(self, student: str = "guest", *, store: Any = None, teacher: bool = False,
             level: str = DEFAULT_LEVEL) -> Any:
        """The set as a widget: one exercise at a time, checked in the kernel. At the level
        "I count" (the default) the page shows no result before *Check*; at "Show me the
        sums" (``level="show"``) it shows what the deck would be after the plays."""
        # the view lives in widgets/ (installed as mathcards.widgets), outside the typed core
        view = importlib.import_module("mathcards.widgets.exercises")
        return view.ExerciseSetView(self.session(student, store=store, teacher=teacher,
                                                 level=level))


__all__ = [
    "Constraint", "Exercise", "ExerciseFileError", "ExerciseSet", "Problem", "Variant",
    "VariantError", "position_text", "read_constraint", "variant_seed",
]
