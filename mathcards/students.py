"""The one rule for students' names, for saved games and exercise progress alike.

A name is 1-40 characters: letters (any alphabet), the digits 0-9, and
``-``, ``_``, ``.``, ``'``, ``@`` or single spaces between them (``o'neil``,
``ana.b@school``). It is compared without
regard to case or to how an accent was typed (Unicode NFKC, then casefold),
so ``Ana``, ``ana`` and ``ANA`` are one student with one saved game and one
progress record, and ``José`` typed either way is one student too.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

from mathcards.errors import MathCardsError

MAX_NAME = 40
RULE = (f"use 1-{MAX_NAME} letters or digits, with - _ . ' @ or single spaces between them, "
        "like ?student=ana")
_SAFE_SLOT = re.compile(r"[a-z0-9_-]{1,40}")


class StudentNameError(MathCardsError):
    """A name that breaks the rule (the message quotes it and says the rule)."""


def _allowed(ch: str) -> bool:
    return ch.isalpha() or ch in "0123456789-_.'@ "


def clean_name(text: Any) -> str:
    """The name as it is shown (NFKC, trimmed); raises StudentNameError."""
    if not isinstance(text, str):
        raise StudentNameError(f"a student name is text, like ?student=ana: {RULE}")
    name = unicodedata.normalize("NFKC", text).strip()
    shown = name if len(name) <= MAX_NAME else name[:MAX_NAME - 3] + "..."
    if (not name or len(name) > MAX_NAME or not all(_allowed(ch) for ch in name)
            or "  " in name or not (name[0].isalpha() or name[0] in "0123456789")):
        raise StudentNameError(f"student name {shown!r} cannot be used: {RULE}")
    return name


def student_id(text: Any) -> str:
    """The student's id: the name folded (``Ana`` -> ``ana``); raises StudentNameError."""
    return clean_name(text).casefold()


def save_slot(student: str) -> str:
    """A file-name-safe slot for a student id: the id itself when it is plain ASCII
    (the slots saved games always had), else a stable digest of it."""
    if _SAFE_SLOT.fullmatch(student):
        return student
    return "u-" + hashlib.sha256(student.encode("utf-8")).hexdigest()[:24]
