"""The kind protocol: positions, answers, results, the work budget and field specs.

Every kind of exercise (one module per game) is a ``Kind``: it turns a
position (a dict of field values) into a check, hints, a solution, measures
and problems. Yes/no kinds share their answer handling (``YesNoKind``).
"""

from __future__ import annotations

import html as _html
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mathcards.cards import Card
from mathcards.errors import MathCardsError
from mathcards.exercises.fields import (
    CardsTemplate,
    DeckPlay,
    read_cards,
    read_int,
    read_one_card,
    shown,
)
from mathcards.i18n import N_, _

if TYPE_CHECKING:
    from mathcards.asking import Question
    from mathcards.explain.steps import Fact, Hint


Position = dict[str, Any]
"""A position: each field's name to its read value (cards, numbers, dice, plays)."""


class AnswerError(MathCardsError):
    """An answer that cannot be judged (not a card of the position, wrong shape)."""


# --- the work a position may take ------------------------------------------------------
MAX_WORK = 100_000  # positions a solver may search for one variant: about half a second


class WorkLimitError(MathCardsError):
    """A position (or a template's tries) that would keep the solver busy too long.

    ``advice`` says what the teacher can change, in the kind's own words.
    """

    def __init__(self, message: str, advice: str) -> None:
        super().__init__(message)
        self.advice = advice


@dataclass
class _Budget:
    limit: int
    left: int


_budget: ContextVar[_Budget | None] = ContextVar("mathcards_work_budget", default=None)


@contextmanager
def work_budget(limit: int = MAX_WORK) -> Iterator[_Budget]:
    """One budget of solver work shared by everything checked inside (an outer one wins).

    A template's variant search opens one for all its tries, so a hard constraint is
    refused after a bounded amount of work, at check time and when a page opens alike.
    """
    outer = _budget.get()
    if outer is not None:
        yield outer
        return
    budget = _Budget(limit, limit)
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


def spend(budget: _Budget, kind: Kind, positions: int = 1) -> None:
    """Count ``positions`` searched; over the budget, a one-line ``WorkLimitError``."""
    budget.left -= positions
    if budget.left < 0:
        raise WorkLimitError(f"this position takes too much work to check (over "
                             f"{budget.limit:,} positions searched): {kind.work_advice}",
                             kind.work_advice)


# --- results ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """The judgement of one answer: right or wrong, the credit, and the steps that show why."""

    correct: bool
    score: float
    headline: str
    steps: tuple[Any, ...] = ()

    @property
    def text(self) -> str:
        """Plain text: the verdict, then one line per step (screen readers, logs, tests)."""
        lines = [self.headline] + [_step_text(s) for s in self.steps]
        return "\n".join(line for line in lines if line)

    @property
    def html(self) -> str:
        """HTML for ``HTMLMath``: the verdict, then each step as the explainer draws it."""
        mark = "mc-right" if self.correct else ("mc-partial" if self.score > 0 else "mc-wrong")
        body = "".join(_step_html(s) for s in self.steps)
        return (f'<div class="mc-result {mark}" role="status" aria-live="polite">'
                f"<b>{_html.escape(self.headline)}</b>{body}</div>")


def _step_text(step: Any) -> str:
    return step.spoken if hasattr(step, "spoken") else str(step)


def _step_html(step: Any) -> str:
    if hasattr(step, "html"):
        try:
            return str(step.html)
        except Exception:  # noqa: BLE001 - LaTeX needs sympy; fall back to words
            pass
    return f'<div class="mc-step">{_html.escape(_step_text(step))}</div>'


def fact(sentence: str) -> Fact:
    from mathcards.explain.steps import Fact

    return Fact(sentence=sentence)


def make_hint(level: int, sentence: str, shown: Sequence[Any] = ()) -> Hint:
    from mathcards.explain.steps import Hint

    return Hint(level=level, sentence=sentence, shown=tuple(shown))


# --- field specs ------------------------------------------------------------------------
FieldReader = Callable[[Any, str], Any]
"""Reads a field's given value for a game: the value, or a template to draw it from."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a kind: how to read it, whether it must be given, its default."""

    name: str
    read: FieldReader
    required: bool = True
    default: Any = None
    help: str = ""

    @property
    def one_card(self) -> bool:
        return self.read in (_card_field, _card_or_none_field)


def _cards_field(low: int = 1, high: int = 20) -> FieldReader:
    return lambda value, game: read_cards(value, game, low=low, high=high)


def _card_field(value: Any, game: str) -> Card | CardsTemplate | None:
    return read_one_card(value, game)


def _card_or_none_field(value: Any, game: str) -> Card | CardsTemplate | None:
    return read_one_card(value, game, allow_none=True)


def _int_field(low: int | None = None, high: int | None = None,
               what: str = N_("a whole number")) -> FieldReader:
    return lambda value, game: read_int(value, low=low, high=high, what=what)


# --- the kind protocol ------------------------------------------------------------------
class Kind:
    """What every kind of exercise offers (see the module docstring)."""

    name: ClassVar[str]
    game: ClassVar[str]
    title: ClassVar[str]
    question: ClassVar[str]
    fields: ClassVar[tuple[FieldSpec, ...]]
    answer_style: ClassVar[str]  # choice, yesno, plays, stacks, number, capture
    measure_names: ClassVar[tuple[str, ...]] = ()
    unique_cards: ClassVar[bool] = False  # one deck: no card twice in a position
    asked_card: ClassVar[str | None] = None  # a field whose card is one of the others'
    work_advice: ClassVar[str] = "use fewer cards or loosen 'require'"
    wrong_slip: ClassVar[str] = "other"  # a wrong answer's slip when it is no worked sum

    def worked_sum(self, position: Position, answer: Any) -> tuple[Question, Any] | None:
        """The sum an attempt worked, asked as a table asks it (its skill, its numbers),
        and the number the student meant it to make (read for the slip); None when the
        answer is no sum (``mathcards.exercises.evidence``)."""
        return None

    def attempt_skill(self, position: Position, answer: Any) -> str | None:
        """The skill an attempt that is no worked sum shows, when it depends on the
        answer; None: the kind's skill (``evidence.KIND_SKILLS``)."""
        return None

    def problems(self, position: Position) -> list[str]:
        return []

    def measures(self, position: Position) -> dict[str, int]:
        return {}

    def pool_filter(self, field_name: str, card: Card) -> bool:
        """Whether a template of this field may draw ``card`` (a rule, not a choice)."""
        return True

    def prompt(self, position: Position) -> str:
        return _(self.question)  # a kind's question is marked N_: worded here

    def choices(self, position: Position) -> list[str]:
        """The labels of the answer buttons (choice and yes/no kinds)."""
        return []

    def choice_answers(self, position: Position) -> list[Any]:
        """What each button of ``choices`` answers: the value ``read_answer`` takes for it."""
        return []

    def read_answer(self, position: Position, answer: Any) -> Any:
        raise NotImplementedError

    def answer_text(self, answer: Any) -> str:
        return str(answer)

    def describe_answer(self, position: Position, answer: Any) -> str:
        """The answer as the results show it to a teacher (cards, not button numbers)."""
        return self.answer_text(answer)

    def check(self, position: Position, answer: Any) -> Result:
        raise NotImplementedError

    def hint(self, position: Position, level: int) -> Hint:
        raise NotImplementedError

    def solution(self, position: Position) -> Result:
        raise NotImplementedError

    def all_cards(self, position: Position) -> list[Card]:
        out: list[Card] = []
        for spec in self.fields:
            value = position.get(spec.name)
            if isinstance(value, Card):
                out.append(value)
            elif isinstance(value, tuple):
                for v in value:
                    if isinstance(v, Card):
                        out.append(v)
                    elif isinstance(v, DeckPlay):
                        out.append(v.card)
        return out


# --- yes/no kinds share their answer handling -------------------------------------------
_YES = {"yes", "y", "true", "sí", "si"}  # a Spanish page's "sí" typed too
_NO = {"no", "n", "false"}


class YesNoKind(Kind):
    answer_style = "yesno"
    measure_names: ClassVar[tuple[str, ...]] = ("answer",)

    def truth(self, position: Position) -> bool:
        raise NotImplementedError

    def reason(self, position: Position) -> list[Any]:
        raise NotImplementedError

    def choices(self, position: Position) -> list[str]:
        return [_("Yes"), _("No")]

    def choice_answers(self, position: Position) -> list[Any]:
        return [True, False]

    def read_answer(self, position: Position, answer: Any) -> bool:
        """Yes or no: True/False or the words (yes, y, true, sí; no, n, false), never a
        number."""
        if isinstance(answer, bool):
            return answer
        if isinstance(answer, str) and answer.strip().lower() in _YES | _NO:
            return answer.strip().lower() in _YES
        raise AnswerError(_("answer yes or no (or True/False), not {answer}").format(
            answer=shown(answer)))

    def answer_text(self, answer: Any) -> str:
        return "yes" if answer else "no"

    def measures(self, position: Position) -> dict[str, int]:
        return {"answer": int(self.truth(position))}

    def check(self, position: Position, answer: Any) -> Result:
        said = self.read_answer(position, answer)
        truth = self.truth(position)
        if said == truth:
            return Result(True, 1.0, _("Right: yes.") if truth else _("Right: no."),
                          tuple(self.reason(position)))
        return Result(False, 0.0, _("Not quite: the answer is yes.") if truth else
                      _("Not quite: the answer is no."), tuple(self.reason(position)))

    def solution(self, position: Position) -> Result:
        return Result(True, 1.0, _("The answer is yes.") if self.truth(position) else
                      _("The answer is no."), tuple(self.reason(position)))
