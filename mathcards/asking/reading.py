"""Reading a student's answer: a whole number typed or tapped on the number pad.

Page text is never given to sympify or eval: a number is a sign and at most three
digits, read by hand; anything else is one line saying what to type.
"""

from __future__ import annotations

from mathcards.errors import MathCardsError

_MINUSES = "-−–"  # hyphen, the minus sign, an en dash (what phones type)
MAX_DIGITS = 3


def read_number(text: object) -> int:
    """``"-4"``, ``"−4"``, ``" 12 "`` -> the whole number; else a one-line MathCardsError."""
    if not isinstance(text, str) or not text.strip():
        raise MathCardsError("type a whole number first, e.g. 7 or −3")
    body = text.strip().replace(" ", "")
    sign = 1
    if body[0] in _MINUSES:
        sign, body = -1, body[1:]
    elif body[0] == "+":
        body = body[1:]
    if not body or len(body) > MAX_DIGITS or not body.isascii() or not body.isdigit():
        shown = text.strip()[:12]
        raise MathCardsError(f"{shown!r} is not a whole number: type digits, e.g. 7 or −3")
    return sign * int(body)
