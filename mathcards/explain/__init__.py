"""The step explainer: every move's arithmetic, written as a teacher writes it.

After each move the widgets call ``explain_events(before, after)`` (or
``explain_move(state, action)``) and get ``Step`` records: data, printed as
plain text (``.text``, ``.spoken``), LaTeX (``.latex``, for ``HTMLMath``) and
HTML (``.html``). ``why_not`` explains a refused move, ``hint`` gives a hint
at three levels, ``number_line_svg`` draws a signed addition.

The pinned API: ``stack_steps(cards, dice)`` (``NotAStackError`` says why
cards are not a stack) and ``chain_steps(counted)``.

Importing this package does not import sympy; the first LaTeX does (call
``warm_up()`` to load it in the background while a lesson's page opens).

>>> chain_steps([11, -4, -2, 2, -10, 8, -5]).text
'11 − 4 − 2 + 2 − 10 + 8 − 5 = 0'
>>> stack_steps(["QS", "8D", "KH", "KC"], (2, 3)).text
'(12 + 8) × ½ × ½ = 5'
"""

from __future__ import annotations

import threading
from typing import Any

from mathcards.explain.api import (
    explain_deal,
    explain_events,
    explain_move,
    explain_new_events,
    hint,
    refusal_words,
    spoken,
    why_not,
)
from mathcards.explain.errors import ExplainError, NotAStackError
from mathcards.explain.numberline import number_line_svg
from mathcards.explain.steps import (
    HINT_LEVELS,
    BoundCheck,
    CaptureStep,
    Chain,
    Fact,
    GoalCheck,
    Hint,
    JokerRemoval,
    KingStep,
    Refusal,
    SignedAddition,
    StackExpression,
    Step,
    WhatIf,
)
from mathcards.explain.terms import Equation, Half, Neg, Num, Product, Sum, text_of


# a game's own steps, re-exported here as the pinned API has them (stack_steps,
# chain_steps, seed_record): found in the games' explainer modules through the registry
# when first asked for, so this shared module names no game
def __getattr__(name: str) -> Any:
    from mathcards.games.parts import load
    from mathcards.games.registry import game_specs

    if name in _GAME_STEPS:
        for spec in game_specs():
            module = load(spec, "explain")
            if module is not None and name in vars(module):
                return vars(module)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_GAME_STEPS = frozenset({"chain_steps", "seed_record", "stack_steps"})


def warm_up(background: bool = True) -> threading.Thread | None:
    """Load sympy now (in a background thread by default) so the first LaTeX is quick."""

    def load() -> None:
        from mathcards.explain import _sympy

        _sympy.load()

    if not background:
        load()
        return None
    thread = threading.Thread(target=load, name="mathcards-sympy-warm-up", daemon=True)
    thread.start()
    return thread


__all__ = [
    "HINT_LEVELS", "BoundCheck", "CaptureStep", "Chain", "Equation", "ExplainError", "Fact",
    "GoalCheck", "Half", "Hint", "JokerRemoval", "KingStep", "Neg", "NotAStackError", "Num",
    "Product", "Refusal", "SignedAddition", "StackExpression", "Step", "Sum", "WhatIf",
    "chain_steps", "explain_deal", "explain_events", "explain_move", "explain_new_events",
    "hint", "number_line_svg", "refusal_words", "seed_record", "spoken", "stack_steps",
    "text_of", "warm_up", "why_not",
]
