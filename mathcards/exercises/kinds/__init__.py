"""The kinds of exercise: what a position holds, how an answer is judged, hints and solutions.

Every kind asks the game engine (``mathcards.games.<game>``) and the explainer
(``mathcards.explain``) for the truth; nothing here re-derives a rule. A kind
turns a *position* (a dict of field values: cards, numbers, dice) into:

- ``check(position, answer)``: a ``Result`` (right or wrong, a score from 0 to 1
  for partial credit, and the explainer's steps);
- ``hint(position, level)``: the explainer's ``Hint`` at level 1 (nudge),
  2 (which card) or 3 (the full step);
- ``solution(position)``: a worked solution (shown after N attempts);
- ``measures(position)``: numbers the constraints of a template talk about
  (``solutions``, ``best stacks``, ``plays needed`` ...);
- ``problems(position)``: why a position cannot be asked ("no play reaches the
  goal 4 from this hand").

Answers come from Python (``Exercise.check``) or from a click in the browser;
``read_answer`` validates either before anything is judged.

One module per game holds its kinds (``exercises.py`` in its folder,
``mathcards.games.<game>.exercises``, with their classes in ``KINDS``); ``base`` is the
protocol they share and ``registry`` lists them
(``KINDS``). A game's own names (its kinds, its helpers) are imported from its module.
"""

from __future__ import annotations

from mathcards.exercises.kinds.base import (
    MAX_WORK,
    AnswerError,
    FieldReader,
    FieldSpec,
    Kind,
    Position,
    Result,
    WorkLimitError,
    YesNoKind,
    fact,
    make_hint,
    spend,
    work_budget,
)
from mathcards.exercises.kinds.registry import KINDS

__all__ = [
    "KINDS", "MAX_WORK", "AnswerError", "FieldReader", "FieldSpec", "Kind", "Position",
    "Result", "WorkLimitError", "YesNoKind", "fact", "make_hint", "spend", "work_budget",
]
