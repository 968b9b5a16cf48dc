"""The table asks before it shows: questions a student answers at a table, and the answers
kept as evidence a teacher can see.

At the level "I count" (the play pages' default) a table never shows the result of a sum
before the student has given it: it asks a ``Question`` (the new deck value, what the
dice make, what a stack makes, which capture a card makes), checks the answer against the
engine, and then explains. Every answer becomes an ``Answer`` record: the evidence kept in
the progress store next to the exercises' attempts, named by a skill and, when wrong, by
the kind of slip (``mathcards.skills``).

A ``Question`` lives in the kernel only. Its ``expected`` value is the answer to a question
not yet answered: no synced widget field may ever hold it (Voilà pages are public; see
``tests/widgets/test_safety.py``).

Per game, a module of this package says which questions its table asks (``before_move``:
asked when a person has chosen a move, before it is laid; ``after_move``: asked about a
move just made, e.g. the dice just rolled or, when following the others, an opponent's
move) and how an answer is read and checked.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from mathcards.i18n import N_

# The levels of help at an arithmetic table, in a child's words. "show" is the table that
# shows every sum (for learning the rules); "count" asks first (the play pages' default);
# "count_no_hints" asks first and offers no hint button.
SHOW, COUNT, COUNT_NO_HINTS = "show", "count", "count_no_hints"
LEVELS: dict[str, str] = {
    SHOW: N_("Show me the sums"),
    COUNT: N_("I count"),
    COUNT_NO_HINTS: N_("I count, no hints"),
}
DEFAULT_LEVEL = COUNT

# Where an answer was given: at a table about one's own move, about another player's move
# (following the others), or in an exercise of a set.
PLAY, FOLLOW, EXERCISE = "play", "follow", "exercise"


@dataclass(frozen=True)
class Question:
    """One question a table asks a student (kept in the kernel, never in a widget field).

    ``prompt`` is what the student reads and never contains the answer. ``numbers`` are
    the operands as the student sees them (e.g. ``(3, -5)`` for "the deck is 3, you lay
    5 upright"): the slip classifier and the teacher's records read them. ``expected`` is
    the right answer: an ``int`` for a number question, a canonical text otherwise (a
    capture claim "Q♦ = 7♣ + 5♥" or "none"). ``cards`` is aligned with ``numbers``: the
    text of the card whose value ``numbers[i]`` is (``"AH"``, ``"QS"``), ``""`` where the
    number is not a card's (the deck's value, a die); empty when no number is a card. The
    slip classifier reads it to tell an Ace or a face card (``classify_slip``).
    """

    game: str
    skill: str  # a key of mathcards.skills.SKILLS
    prompt: str
    numbers: tuple[int, ...]
    expected: int | str
    kind: str = "number"  # "number" | "capture" | "cards"
    seat: int | None = None  # the seat whose move it is about
    follow: bool = False  # about another player's move (following the others)
    cards: tuple[str, ...] = ()  # the card text behind each of ``numbers`` ("" for none)
    # the number the page asks the player to reach (Suns to Moons' goal, shown as "Make the
    # deck 3"), None where there is none: typed for a deck that is not the goal, it is the
    # slip "goal"; typed after that, right or not, it is a guess (``asking.session``)
    goal: int | None = None


@dataclass(frozen=True)
class Answer:
    """One answer given at a table or in an exercise: the evidence the teacher sees."""

    student: str
    game: str
    skill: str
    prompt: str
    numbers: tuple[int, ...]
    expected: str
    given: str
    right: bool
    slip: str = ""  # "" when right; else a key of mathcards.skills.SLIP_WORDS
    seconds: float = 0.0
    level: str = DEFAULT_LEVEL
    source: str = PLAY  # PLAY, FOLLOW or EXERCISE
    uid: str = field(default_factory=lambda: uuid.uuid4().hex)
    at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(
        timespec="milliseconds"))
    # the tries of one question share its ``question`` id ("" in records kept before tries
    # were: ``mathcards.exercises.skill_grid.questions_of`` groups those by their prompt);
    # ``attempt`` is the try (1: the first answer), ``hints`` the hints taken before it
    question: str = ""
    attempt: int = 1
    hints: int = 0
    # a move the rules refused, with the rule in words: a refusal, not a question
    rule: str = ""

    @property
    def seen(self) -> bool:
        """Its result was shown before the answer (``mathcards.asking.session.SEEN``)."""
        return self.slip == "seen"

    @property
    def refusal(self) -> bool:
        """A move the rules refused (recorded with the rule), not an answer to a question."""
        return bool(self.rule)

    @classmethod
    def of(cls, question: Question, given: Any, *, right: bool, slip: str = "",
           student: str = "", asked_at: float | None = None, level: str = DEFAULT_LEVEL,
           qid: str = "", attempt: int = 1, hints: int = 0, rule: str = "") -> Answer:
        """The record of ``given`` as the answer to ``question`` (try ``attempt`` of the
        question ``qid``), or, with ``rule``, of a move the rules refused."""
        seconds = 0.0 if asked_at is None else max(0.0, time.monotonic() - asked_at)
        return cls(student=student, game=question.game, skill=question.skill,
                   prompt=question.prompt, numbers=question.numbers,
                   expected=str(question.expected), given=str(given), right=right,
                   slip="" if right else slip, seconds=round(seconds, 2), level=level,
                   source=FOLLOW if question.follow else PLAY,
                   question=qid or uuid.uuid4().hex, attempt=attempt, hints=hints, rule=rule)


@dataclass(frozen=True)
class LevelChange:
    """A student changed the level of help at a table (e.g. stepped down to "Show me the
    sums"): kept as evidence next to the answers."""

    student: str
    game: str
    before: str  # a key of LEVELS
    after: str
    at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(
        timespec="milliseconds"))
    uid: str = field(default_factory=lambda: uuid.uuid4().hex)  # kept once, however merged

    @property
    def stepped_down(self) -> bool:
        """Towards more help (e.g. from "I count" to "Show me the sums")."""
        order = list(LEVELS)
        return order.index(self.after) < order.index(self.before)


__all__ = ["COUNT", "COUNT_NO_HINTS", "DEFAULT_LEVEL", "EXERCISE", "FOLLOW", "LEVELS", "PLAY",
           "SHOW", "Answer", "LevelChange", "Question"]
