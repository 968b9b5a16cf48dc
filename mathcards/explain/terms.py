"""The arithmetic of a step, written down as a teacher writes it on the board.

An expression is a small tree of immutable nodes (``Num``, ``Half``, ``Neg``,
``Sum``, ``Product``) that keeps the order of play: nothing here sorts or
simplifies. ``Equation`` pairs an expression with the engine's own number, so
the printed equation can be checked against the rules engine (the tests do
this with sympy for every step of thousands of bot games).

This module is pure Python; sympy is needed only for LaTeX (``latex_of``),
and is imported the first time LaTeX is asked for.

>>> chain = Sum(tuple(Num(v) for v in (11, -4, -2, 2, -10, 8, -5)))
>>> text_of(Equation(chain, 0))
'11 − 4 − 2 + 2 − 10 + 8 − 5 = 0'
>>> text_of(Equation(Sum((Num(7), Num(-10, signed=True))), -3))
'7 + (−10) = −3'
>>> text_of(Equation(Product((Sum((Num(12), Num(8))), Half(), Half())), 5))
'(12 + 8) × ½ × ½ = 5'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mathcards.explain import _sympy
from mathcards.explain.nodes import Equation as Equation
from mathcards.explain.nodes import Half as Half
from mathcards.explain.nodes import Neg as Neg
from mathcards.explain.nodes import Node as Node
from mathcards.explain.nodes import Num as Num
from mathcards.explain.nodes import Product as Product
from mathcards.explain.nodes import Sum as Sum

MINUS = "\u2212"  # the minus sign (−), not a hyphen
TIMES = "\u00d7"  # ×
HALF = "\u00bd"  # ½


# --- exact value (pure Python) ---------------------------------------------
def value_of(node: Node) -> Fraction:
    """The exact value of an expression (no sympy)."""
    if isinstance(node, Num):
        return Fraction(node.value)
    if isinstance(node, Half):
        return Fraction(1, 2)
    if isinstance(node, Neg):
        return -value_of(node.term)
    if isinstance(node, Sum):
        return sum((value_of(t) for t in node.terms), Fraction(0))
    if isinstance(node, Product):
        result = Fraction(1)
        for factor in node.factors:
            result *= value_of(factor)
        return result
    raise TypeError(f"not an expression node: {node!r}")


# --- plain text -------------------------------------------------------------
def number_text(value: int | Fraction) -> str:
    """``−3``, ``14``, ``½``, ``5/2`` with a real minus sign."""
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        return f"{sign}{value.numerator}"
    if value == Fraction(1, 2):
        return f"{sign}{HALF}"
    return f"{sign}{value.numerator}/{value.denominator}"


def signed_text(value: int) -> str:
    """A number with its sign always shown: ``+13``, ``−10``, ``0``."""
    return ("+" if value > 0 else "") + number_text(value)


def _text(node: Node, inside: str = "") -> str:
    if isinstance(node, Num):
        if node.signed:
            return f"({signed_text(node.value)})"
        if node.value < 0 and inside == "product":
            return f"({number_text(node.value)})"
        return number_text(node.value)
    if isinstance(node, Half):
        return HALF
    if isinstance(node, Neg):
        return f"{MINUS}{_text(node.term, 'neg')}"
    if isinstance(node, Sum):
        if len(node.terms) == 1:
            return _text(node.terms[0], inside)
        parts = []
        for i, term in enumerate(node.terms):
            if isinstance(term, Neg):
                op, body = MINUS, _text(term.term, "neg")
            elif isinstance(term, Num) and not term.signed and term.value < 0:
                op, body = MINUS, number_text(-term.value)
            else:
                op, body = "+", _text(term, "sum")
            if i == 0:
                parts.append(body if op == "+" else MINUS + body)
            else:
                parts.append(f" {op} {body}")
        joined = "".join(parts)
        return f"({joined})" if inside in ("product", "neg", "sum") else joined
    if isinstance(node, Product):
        if len(node.factors) == 1:
            return _text(node.factors[0], inside)
        joined = f" {TIMES} ".join(_text(f, "product") for f in node.factors)
        return f"({joined})" if inside == "neg" else joined
    raise TypeError(f"not an expression node: {node!r}")


def text_of(item: Node | Equation) -> str:
    """Plain text with ``−``, ``×`` and ``½``, terms in the order given."""
    if isinstance(item, Equation):
        tail = "".join(f" = {name}" for name in item.names)
        return f"{_text(item.lhs)} = {number_text(item.value)}{tail}"
    return _text(item)


# --- LaTeX (through sympy, imported on first use) ---------------------------
def latex_of(item: Node | Equation) -> str:
    """LaTeX for MathJax, printed by sympy with the order of play kept."""
    return _sympy.latex_of(item)


def sympy_of(item: Node | Equation) -> Any:  # a sympy expression (sympy is untyped)
    """The unevaluated sympy expression (``.doit()`` gives its value)."""
    return _sympy.to_sympy(item)
