"""The sympy side of the explainer: unevaluated expressions and their LaTeX.

sympy is imported by ``_tools()`` on the first LaTeX (or sympy expression)
asked for, so ``import mathcards`` and ``import mathcards.explain`` never load
it (about 0.3-1 s here). Expressions are built from the engines' numbers with
``evaluate=False``; no text from a page or a user is ever parsed here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from mathcards.explain.nodes import Equation, Half, Neg, Node, Num, Product, Sum

_SUIT_LATEX = {"♠": r"\spadesuit", "♥": r"\heartsuit", "♦": r"\diamondsuit", "♣": r"\clubsuit"}


@lru_cache(maxsize=1)
def _tools() -> SimpleNamespace:
    """sympy's pieces, the signed-term class and the order-keeping printer (loaded once)."""
    from mathcards.site import unpack_deferred

    unpack_deferred("mpmath", "sympy")  # the static site starts without them
    # sympy ships no type information (no stubs, no py.typed): its objects are Any here
    import sympy  # type: ignore[import-untyped]
    from sympy.printing.latex import LatexPrinter  # type: ignore[import-untyped]

    class SignedTerm(sympy.UnevaluatedExpr):  # type: ignore[misc]  # sympy's class is Any
        """A number shown with its sign in brackets: ``(−10)``, ``(+13)``."""

        def _latex(self, printer: LatexPrinter) -> str:
            value = self.args[0]
            sign = "+" if value > 0 else ""
            return rf"\left({sign}{printer._print(value)}\right)"

    return SimpleNamespace(
        sp=sympy,
        SignedTerm=SignedTerm,
        printer=LatexPrinter({"order": "none", "mul_symbol": "times"}),
    )


def _number(value: int | Fraction) -> Any:  # a sympy number (sympy is untyped)
    sp = _tools().sp
    value = Fraction(value)
    return sp.Integer(value.numerator) if value.denominator == 1 else sp.Rational(
        value.numerator, value.denominator
    )


def to_sympy(item: Node | Equation) -> Any:  # a sympy expression (sympy is untyped)
    """The unevaluated sympy expression of an expression or equation."""
    tools = _tools()
    sp = tools.sp
    if isinstance(item, Equation):
        return sp.Eq(to_sympy(item.lhs), _number(item.value), evaluate=False)
    if isinstance(item, Num):
        number = sp.Integer(item.value)
        return tools.SignedTerm(number) if item.signed else number
    if isinstance(item, Half):
        return sp.Rational(1, 2)
    if isinstance(item, Neg):
        term = item.term
        if isinstance(term, Num) and not term.signed:
            return sp.Integer(-term.value)
        return sp.Mul(sp.S.NegativeOne, to_sympy(term), evaluate=False)
    if isinstance(item, Sum):
        terms = [to_sympy(t) for t in item.terms]
        return terms[0] if len(terms) == 1 else sp.Add(*terms, evaluate=False)
    if isinstance(item, Product):
        factors = [to_sympy(f) for f in item.factors]
        return factors[0] if len(factors) == 1 else sp.Mul(*factors, evaluate=False)
    raise TypeError(f"not an expression node: {item!r}")


def _name_latex(name: str) -> str:
    if name and name[-1] in _SUIT_LATEX:
        return rf"\mathrm{{{name[:-1]}}}{_SUIT_LATEX[name[-1]]}"
    return rf"\text{{{name}}}"


@lru_cache(maxsize=4096)
def latex_of(item: Node | Equation) -> str:
    """LaTeX with the order of play kept (``order="none"``)."""
    printer = _tools().printer
    if isinstance(item, Equation):
        tail = "".join(f" = {_name_latex(n)}" for n in item.names)
        latex: str = printer.doprint(to_sympy(item))
        return latex + tail
    plain: str = printer.doprint(to_sympy(item))
    return plain


def load() -> None:
    """Import sympy now (``warm_up`` calls this, in the background or not)."""
    _tools()
