"""Which questions each game's table asks: the protocol of a game's asking module.

A game's module (``questions.py`` in its folder, ``mathcards.games.<game>.questions``,
imported when a table first asks: ``mathcards.games.parts``) defines
module-level functions; only ``before_move`` or ``after_move`` is needed, the others have
the defaults below:

``before_move(state, action, seat) -> Question | None``
    asked when the person at ``seat`` has chosen the legal ``action``, before it is laid
    (Suns to Moons: the new deck value). None: the move is played at once.
``after_move(before, after, seat, *, follow) -> Question | None``
    asked about a move just made (``after = before.apply(action)``), for the person at
    ``seat``: their own move (``follow=False``: Dice Stacks' roll), or, following the
    others (``follow=True``), another player's move ("Player 2 laid 7 upright: the deck
    was 3; what is it now?").
``refused_move(state, action, seat) -> Question | None``
    a move the rules refuse that still counts as an answer (Suns to Moons: a sign that
    breaks the ±10 bound, the skill "bound"); the table records it as a wrong answer.
``accepted_move(state, action, seat) -> Question | None``
    a legal move that is itself a right answer, recorded with nothing asked (Moons and
    Planets: a moon the student built and the engine accepts, the skill "moon_set").
``read_answer(question, text) -> int | str``
    what the student typed or clicked; raises ``AnswerError`` (one line: what is wrong
    and what to type) on bad text. Never ``eval``/``sympify``.
``check(question, given) -> bool``
    default: ``given == question.expected``.
``nudge(question, given, slip) -> str``
    the words after a first wrong answer (default: from the slip, never the answer).
``after_answer(question, given, state) -> action | None``
    a move the answer already chose, laid after the move asked about (Sums: the capture
    claimed, when the engine asks which card to capture). Default: None.
``slip(question, given) -> str``
    the slip of a wrong answer (default: ``mathcards.skills.classify_slip``).
``answer_skill(question, given) -> str``
    the skill an answer is recorded under (default: the question's; Sums: a capture
    missed is ``capture_spot``).
``answer_choices(question, state, picks) -> list[(key, label, tooltip, picked)]``
    buttons that build the answer (Sums' claim: the card captured, the helper, + or −,
    "No capture"); keys start with ``"ans:"``; ``state`` is the position the question is
    about. ``pick(question, picks, key) -> (picks, text | None)``: the picks after a
    click on an offered key and an answer it gives at once. ``compose(question, picks,
    text) -> text``: the answer of the picks and the typed number.
``ASKS_REFUSED = True``
    ``before_move`` is asked about moves the rules refuse too (Dice Stacks: cards that are
    not a stack are a wrong answer to "how do they make the dice total?", judged after the
    student says; without it a refused move is never asked about).
``rule_words(state, action, reason) -> str``
    a refused move in words at "I count": the rule, never the numbers of the move
    (default: the engine's ``reason``); ``mathcards.explain.refusal_words`` says it.
``hint(state, level) -> str | None``
    the hint at "I count" (None, the default: the explainer's), naming no answer of a
    question.
``hint_shows(state, action, level) -> str``
    why the hint of ``level`` shown at ``state`` made the answer about ``action`` known,
    "" when it did not (Suns to Moons: "which card" named a card that can reach the goal,
    and the move does: the deck will be the goal the page shows). The answer is then
    recorded as seen and the move's points held back, as after two wrong answers.
``explain(question, before, after) -> list[Step] | None``
    the explainer's steps shown after a second wrong answer; ``before``/``after`` are the
    states around the move the question is about. None (the default): the table shows the
    explainer's steps of that move (``mathcards.explain.explain_events``).

The table (``mathcards.table.TableController``) asks at the levels ``COUNT`` and
``COUNT_NO_HINTS`` only; at ``SHOW`` it shows every sum as before.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from mathcards.asking import Question
from mathcards.errors import MathCardsError
from mathcards.i18n import N_, _

MAX_ANSWER = 40  # characters: longer text is not an answer


class AnswerError(MathCardsError):
    """Text that is not an answer to the question (the message says what to type)."""


# what a first wrong answer hears, by slip (never the answer itself)
NUDGES: dict[str, str] = {
    "sign": N_("Not quite: check the sign."),
    "off_by_one": N_("Close, but not quite: count again, one step at a time."),
    "off_by_two": N_("Close, but not quite: count again, one step at a time."),
    "ace_14": N_("Not quite: check what the Ace counts here."),
    "face_value": N_("Not quite: check the face card's value (J 11, Q 12, K 13)."),
    "added_not_subtracted": N_("Not quite: does this card add or take away?"),
    "subtracted_not_added": N_("Not quite: does this card add or take away?"),
    "doubled_not_halved": N_("Not quite: does the King double or halve here?"),
    "halved_not_doubled": N_("Not quite: does the King double or halve here?"),
    "goal": N_("Not quite: that is the goal, not the deck. Work out what the deck makes "
                "(typing the goal is guessing: a goal you type next counts only after a deck "
                "you get right the first time)."),
}
NUDGE = N_("Not quite: try once more.")

_MINUSES = "-−–—‒﹣－"  # a hyphen, the minus sign, dashes a tablet's keyboard may type
_NUMBER = re.compile(rf"\s*([+{re.escape(_MINUSES)}]?)\s*(\d{{1,4}})\s*")


def read_number(text: Any) -> int:
    """A whole number as a student types it: ``6``, ``-6``, ``−6`` (the minus sign),
    ``+6``; raises ``AnswerError`` otherwise.

    >>> read_number(" −6 "), read_number("+4"), read_number("0"), read_number("10")
    (-6, 4, 0, 10)
    """
    if not isinstance(text, str) or not text.strip():
        raise AnswerError(_("type a number first, e.g. 6 or −6"))
    if len(text) > MAX_ANSWER:
        raise AnswerError(_("that is too long to be an answer: type a number, e.g. 6 or −6"))
    found = _NUMBER.fullmatch(text)
    if found is None:
        shown = text.strip()[:12]
        raise AnswerError(_("{text!r} is not a whole number: type one, e.g. 6 or −6").format(
            text=shown))
    sign, digits = found.groups()
    value = int(digits)
    return -value if sign and sign != "+" else value


# the functions a game's asking module may define (the module docstring says each one)
HOOKS = ("before_move", "after_move", "refused_move", "accepted_move", "read_answer",
         "check", "nudge", "after_answer", "slip", "answer_skill", "answer_choices", "pick",
         "compose", "rule_words", "hint", "hint_shows", "explain")
NEEDED = ("before_move", "after_move")  # one of them at least: what a table asks


class AskingModuleError(MathCardsError):
    """A game's asking module that does not follow the protocol (says the game and the
    piece)."""


class Asker:
    """A game's asking module with the protocol's defaults filled in; the module is
    checked once, here: its hooks are functions, one of ``NEEDED`` is there, and
    ``ASKS_REFUSED`` is True or False."""

    def __init__(self, module: ModuleType, game: str = "") -> None:
        self.module = module
        where = f"the asking module of {game or 'a game'} ({module.__name__})"
        found = vars(module)
        self._hooks: dict[str, Callable[..., Any]] = {}
        for name in HOOKS:
            fn = found.get(name)
            if fn is None:
                continue
            if not callable(fn):
                raise AskingModuleError(f"{where}: {name} is not a function")
            self._hooks[name] = fn
        if not any(name in self._hooks for name in NEEDED):
            raise AskingModuleError(f"{where} defines neither before_move nor after_move: "
                                    "its table would ask nothing")
        refused = found.get("ASKS_REFUSED", False)
        if not isinstance(refused, bool):
            raise AskingModuleError(f"{where}: ASKS_REFUSED is {refused!r}, not True or False")
        self._asks_refused = refused

    def _fn(self, name: str) -> Callable[..., Any] | None:
        return self._hooks.get(name)

    @property
    def asks_refused(self) -> bool:
        return self._asks_refused

    def before_move(self, state: Any, action: Any, seat: int) -> Question | None:
        fn = self._fn("before_move")
        if fn is None or not (self.asks_refused or state.is_legal(action)):
            return None
        return fn(state, action, seat)  # type: ignore[no-any-return]

    def rule_words(self, state: Any, action: Any, reason: str) -> str:
        """A refused move's words at "I count": the rule without the move's numbers."""
        fn = self._fn("rule_words")
        return reason if fn is None else str(fn(state, action, reason))

    def after_move(self, before: Any, after: Any, seat: int, *, follow: bool
                   ) -> Question | None:
        fn = self._fn("after_move")
        return None if fn is None else fn(before, after, seat,
                                          follow=follow)

    def accepted_move(self, state: Any, action: Any, seat: int) -> Question | None:
        fn = self._fn("accepted_move")
        return None if fn is None else fn(state, action, seat)

    def refused_move(self, state: Any, action: Any, seat: int) -> Question | None:
        fn = self._fn("refused_move")
        return None if fn is None else fn(state, action, seat)

    def read_answer(self, question: Question, text: Any) -> int | str:
        fn = self._fn("read_answer")
        if fn is not None:
            given: int | str = fn(question, text)
            return given
        if question.kind == "number":
            return read_number(text)
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ANSWER * 4:
            raise AnswerError(_("give an answer first"))
        return text.strip()

    def check(self, question: Question, given: int | str) -> bool:
        fn = self._fn("check")
        if fn is not None:
            return bool(fn(question, given))
        return given == question.expected

    def nudge(self, question: Question, given: int | str, slip: str) -> str:
        fn = self._fn("nudge")
        if fn is not None:
            return str(fn(question, given, slip))
        return _(NUDGES.get(slip, NUDGE))

    def after_answer(self, question: Question, given: Any, state: Any) -> Any | None:
        """The move an answer already chose (Sums: the capture claimed, when the engine
        asks which card to capture), else None."""
        fn = self._fn("after_answer")
        return None if fn is None else fn(question, given, state)

    def slip(self, question: Question, given: int | str) -> str | None:
        """The module's slip of a wrong answer, or None (the classifier decides)."""
        fn = self._fn("slip")
        found = None if fn is None else fn(question, given)
        return None if found is None else str(found)

    def answer_skill(self, question: Question, given: int | str) -> str:
        fn = self._fn("answer_skill")
        return question.skill if fn is None else str(fn(question, given))

    def answer_choices(self, question: Question, state: Any, picks: tuple[str, ...]
                       ) -> list[tuple[str, str, str, bool]]:
        fn = self._fn("answer_choices")
        return [] if fn is None else list(fn(question, state, picks))

    def pick(self, question: Question, picks: tuple[str, ...], key: str
             ) -> tuple[tuple[str, ...], str | None]:
        fn = self._fn("pick")
        if fn is None:
            return picks, None
        new, text = fn(question, picks, key)
        return tuple(new), text

    def compose(self, question: Question, picks: tuple[str, ...], text: Any) -> Any:
        fn = self._fn("compose")
        return text if fn is None else fn(question, picks, text)

    def hint(self, state: Any, level: int) -> str | None:
        """The module's hint at "I count", or None (the explainer's hint)."""
        fn = self._fn("hint")
        found = None if fn is None else fn(state, level)
        return None if found is None else str(found)

    def hint_shows(self, state: Any, action: Any, level: int) -> str:
        fn = self._fn("hint_shows")
        return "" if fn is None or not level else str(fn(state, action, level))

    def explain(self, question: Question, before: Any, after: Any) -> Sequence[Any] | None:
        fn = self._fn("explain")
        return None if fn is None else fn(question, before, after)


_ASKERS: dict[str, Asker | None] = {}


def asker_for(game_name: str) -> Asker | None:
    """The asking module of a game (None: its table asks nothing, e.g. a trick game, or a
    game whose questions have not landed yet)."""
    if game_name not in _ASKERS:
        from mathcards.games.parts import part_path
        from mathcards.games.registry import find_game

        spec = find_game(game_name)  # its questions.py, imported when first asked
        path = part_path(spec, "questions") if spec is not None else ""
        module = None
        if path:
            try:
                module = importlib.import_module(path)
            except ModuleNotFoundError as exc:
                if exc.name != path:  # a module that is there but broken: say so
                    raise
        _ASKERS[game_name] = None if module is None else Asker(module, game_name)
    return _ASKERS[game_name]


__all__ = ["HOOKS", "NEEDED", "NUDGE", "NUDGES", "AnswerError", "Asker", "AskingModuleError",
           "asker_for", "read_number"]
