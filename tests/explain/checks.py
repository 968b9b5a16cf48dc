"""Shared checks of the explainer's tests: every printed equation against its number.

The plain text is read back with sympy. That text is our own output (built
from engine numbers), never a user's; parsing it is for tests only.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from mathcards.explain.terms import Equation, sympy_of, text_of, value_of

_PLAIN = str.maketrans({"−": "-", "×": "*", "½": "(1/2)"})
_checked: dict[Equation, None] = {}


def read_back(text: str) -> sympy.Expr:
    """sympy's value of our printed plain text (``−``, ``×``, ``½``)."""
    return sympy.sympify(text.translate(_PLAIN), rational=True)


def check_equation(eq: Equation, engine_value: int | Fraction | None = None) -> None:
    """The printed equation holds: its left side is the engine's number, three ways."""
    if engine_value is not None:
        assert eq.value == engine_value, (text_of(eq), engine_value)
    if eq in _checked:
        return
    text = text_of(eq)
    sides = text.split(" = ")
    lhs_text, value_text = sides[0], sides[1]
    expected = sympy.Rational(Fraction(eq.value).numerator, Fraction(eq.value).denominator)
    assert read_back(lhs_text) == expected, text
    assert read_back(value_text) == expected, text
    assert sympy_of(eq.lhs).doit() == expected, text
    assert value_of(eq.lhs) == eq.value, text
    _checked[eq] = None


def check_steps(steps) -> int:
    """Check every equation in these steps (and their smaller steps); return how many."""
    count = 0
    for step in steps:
        for part in step.walk():
            if part.equation is not None:
                check_equation(part.equation)
                count += 1
    return count
