"""Shared checks of the explainer's tests: every printed equation against its number.

Each equation is checked three ways: sympy's ``.doit()`` of the unevaluated
expression the LaTeX is printed from, an exact read-back of the plain text
(a tiny evaluator over numbers, ``+ − × ½`` and brackets) and the pure-Python
value of the expression tree. The plain text is also read back with
``sympy.sympify`` for every equation of the unit tests and for the first
``SYMPIFY_BUDGET`` distinct equations of a run (sympify costs about a
millisecond each; bot games print tens of thousands of distinct chains).
That text is our own output, built from engine numbers, never a user's:
parsing it is for tests only.
"""

from __future__ import annotations

import ast
from fractions import Fraction

import sympy

from mathcards.explain.terms import Equation, sympy_of, text_of, value_of

_PLAIN = str.maketrans({"−": "-", "×": "*", "½": "(1/2)"})
_checked: dict[Equation, None] = {}
SYMPIFY_BUDGET = 3000
_sympified = 0


def exact_read_back(text: str) -> Fraction:
    """The exact value of our printed plain text, without sympy (numbers, + − × ½, brackets)."""
    tree = ast.parse(text.translate(_PLAIN), mode="eval")

    def value(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return Fraction(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = value(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.Div):
                return left / right
        raise AssertionError(f"unexpected piece in printed text {text!r}: {ast.dump(node)}")

    return value(tree)


def read_back(text: str) -> sympy.Expr:
    """sympy's value of our printed plain text (``−``, ``×``, ``½``)."""
    return sympy.sympify(text.translate(_PLAIN), rational=True)


def check_equation(
    eq: Equation, engine_value: int | Fraction | None = None, *, sympify: bool = False
) -> None:
    """The printed equation holds: its left side is the engine's number, three ways."""
    if engine_value is not None:
        assert eq.value == engine_value, (text_of(eq), engine_value)
    if eq in _checked:
        return
    text = text_of(eq)
    sides = text.split(" = ")
    lhs_text, value_text = sides[0], sides[1]
    expected = sympy.Rational(Fraction(eq.value).numerator, Fraction(eq.value).denominator)
    assert sympy_of(eq.lhs).doit() == expected, text
    assert exact_read_back(lhs_text) == eq.value, text
    assert exact_read_back(value_text) == eq.value, text
    assert value_of(eq.lhs) == eq.value, text
    global _sympified
    if sympify or _sympified < SYMPIFY_BUDGET:
        _sympified += 1
        assert read_back(lhs_text) == expected, text
        assert read_back(value_text) == expected, text
    _checked[eq] = None


def check_steps(steps, *, sympify: bool = True) -> int:
    """Check every equation in these steps (and their smaller steps); return how many."""
    count = 0
    for step in steps:
        for part in step.walk():
            if part.equation is not None:
                check_equation(part.equation, sympify=sympify)
                count += 1
    return count
