"""The one rule for students' names, for saved games and exercise progress alike.

A name is 1-40 characters: letters (any alphabet), the digits 0-9, and
``-``, ``_``, ``.``, ``'``, ``@`` or single spaces between them (``o'neil``,
``ana.b@school``). It is compared without
regard to case or to how an accent was typed (Unicode NFKC, then casefold),
so ``Ana``, ``ana`` and ``ANA`` are one student with one saved game and one
progress record, and ``José`` typed either way is one student too. A name is
written in one script: NFKC does not fold scripts, so a Cyrillic ``аna`` (its
``а`` Cyrillic) would be another student that looks like ``ana``; a name that
mixes scripts is refused (Japanese may mix kanji, hiragana and katakana, Korean
hangul and hanja, as those names are written).

Under JupyterHub (``JUPYTERHUB_USER`` is set in every single-user server) the
student is the hub login instead: nobody types a name and ``?student=`` in an
address changes nothing. A login is the hub's exact text, so the id it maps to
(``hub_student_id``) never folds case: ``ana`` stays ``ana``, while ``Ana``,
``Ana Maria`` or a 200-character login get a readable prefix and a digest of
the exact login (``ana--3f0c…``), stable across sessions and never shared by
two logins.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from typing import Any

from mathcards.errors import MathCardsError
from mathcards.i18n import N_, _

MAX_NAME = 40
# worded in the page's language where a name is refused: ``_(RULE).format(most=MAX_NAME)``
RULE = N_("use 1-{most} letters or digits, with - _ . ' @ or single spaces between them, "
          "like ?student=ana")
_SAFE_SLOT = re.compile(r"[a-z0-9_-]{1,40}")
_DIGEST_SLOT = re.compile(r"u-[0-9a-f]{24}")
HUB_ENV = "JUPYTERHUB_USER"
HUB_MARK = "--"  # only digested hub ids contain it: a plain login never equals one


class StudentNameError(MathCardsError):
    """A name that breaks the rule (the message quotes it and says the rule)."""


def _allowed(ch: str) -> bool:
    return ch.isalpha() or ch in "0123456789-_.'@ "


# the script of a letter is the first word of its Unicode name (LATIN, CYRILLIC, GREEK...);
# the scripts a name may mix, as those names are written, count as one
_SCRIPT_GROUPS = {"CJK": "HAN", "HIRAGANA": "HAN", "KATAKANA": "HAN",
                  "KATAKANA-HIRAGANA": "HAN", "HANGUL": "HAN"}
_NO_SCRIPT = {"MODIFIER"}  # ʼ and ʻ (MODIFIER LETTER APOSTROPHE...) go with any script


def _scripts(name: str) -> list[str]:
    """The scripts of the letters of ``name``, in the order they first appear."""
    found: list[str] = []
    for ch in name:
        if not ch.isalpha():
            continue
        word = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
        if word in _NO_SCRIPT:
            continue
        script = _SCRIPT_GROUPS.get(word, word)
        if script not in found:
            found.append(script)
    return found


def clean_name(text: Any) -> str:
    """The name as it is shown (NFKC, trimmed); raises StudentNameError."""
    if not isinstance(text, str):
        raise StudentNameError(_("a student name is text, like ?student=ana: {rule}").format(
            rule=_(RULE).format(most=MAX_NAME)))
    name = unicodedata.normalize("NFKC", text).strip()
    shown = name if len(name) <= MAX_NAME else name[:MAX_NAME - 3] + "..."
    if (not name or len(name) > MAX_NAME or not all(_allowed(ch) for ch in name)
            or "  " in name or not (name[0].isalpha() or name[0] in "0123456789")):
        raise StudentNameError(_("student name {name!r} cannot be used: {rule}").format(
            name=shown, rule=_(RULE).format(most=MAX_NAME)))
    scripts = _scripts(name)
    if len(scripts) > 1:
        first, second = (s.title() for s in scripts[:2])
        raise StudentNameError(_(
            "student name {name!r} cannot be used: it mixes {first} and {second} letters, "
            "which can look alike (Cyrillic а and Latin a): type it in one alphabet, {rule}"
        ).format(name=shown, first=first, second=second, rule=_(RULE).format(most=MAX_NAME)))
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


def hub_login() -> str | None:
    """The JupyterHub login of this server's user, or None outside a hub."""
    login = os.environ.get(HUB_ENV, "")
    return login or None


def _plain_hub_id(login: str) -> bool:
    """A login that is already a student id of its own: clean, folded, and not
    shaped like a digest (``--`` or ``u-`` and 24 hex digits), so no digest can equal it."""
    try:
        folded = student_id(login)
    except StudentNameError:
        return False
    return folded == login and HUB_MARK not in login and not _DIGEST_SLOT.fullmatch(login)


def hub_student_id(login: str) -> str:
    """The student id (progress and saves) of a hub login; never the same for two logins.

    A login that is already a folded name (``ana``, ``josé``) is its own id. Any
    other (capitals, a double space, symbols, over 40 characters) is a readable
    prefix, ``--`` and a digest of the exact login: ``Ana`` -> ``ana--…`` while
    ``ana`` stays ``ana``. Plain ids never contain ``--``, so the two never meet.
    """
    if _plain_hub_id(login):
        return login
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", login).casefold())
    prefix = "".join(ch for ch in folded if ch.isalpha() or ch in "0123456789")[:16] or "user"
    digest = hashlib.sha256(login.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return f"{prefix}{HUB_MARK}{digest}"
