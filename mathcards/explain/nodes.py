"""The nodes of an expression as a teacher writes it (``terms`` prints them, ``_sympy``
turns them into sympy): the bottom both stand on, so neither imports the other's users.

Everything here is re-exported by ``mathcards.explain.terms``, where the rest of
MathCards imports it from.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Num:
    """A whole number; ``signed`` shows its sign in brackets: ``(−10)``, ``(+13)``."""

    value: int
    signed: bool = False


@dataclass(frozen=True, slots=True)
class Half:
    """The factor ½ of a halving King."""


@dataclass(frozen=True, slots=True)
class Neg:
    """A term that is taken away: ``5 − (+13)``."""

    term: Node


@dataclass(frozen=True, slots=True)
class Sum:
    """Terms added in the order given (a negative ``Num`` prints as ``− n``)."""

    terms: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Product:
    """Factors multiplied in the order given."""

    factors: tuple[Node, ...]


Node = Num | Half | Neg | Sum | Product


@dataclass(frozen=True, slots=True)
class Equation:
    """``lhs = value`` where ``value`` is the rules engine's own number.

    ``names`` are what the value also is on the table, printed after it:
    ``7 + 5 = 12 = Q♦``.
    """

    lhs: Node
    value: int | Fraction
    names: tuple[str, ...] = ()
