"""Words in the reader's language: the gettext catalogs of mathcards/ and widgets/ (issue 41).

Code is written in English; every sentence a student or teacher reads goes through
``gettext`` (``_``), ``ngettext`` (a count: "1 card", "3 cards"), or ``pgettext`` (the
same English word meaning two things), and a module-level constant is marked with
``N_`` and translated where it is shown. The catalogs live in ``mathcards/locale/<lang>/
LC_MESSAGES/mathcards.po`` with their compiled ``.mo`` beside them: Python's own
``gettext`` reads the ``.mo`` files, so a page needs no extra package (the static site
runs in the browser, where every megabyte counts). ``make translations`` extracts the
strings, updates every catalog, makes the pseudo-locale and compiles
(``mathcards.i18n_catalogs``, with Babel); ``docs/translate.md`` says how a teacher adds
a language without writing Python.

The language is the reader's, not the server's. A page has a kernel of its own (Voilà,
the static site, a notebook in JupyterLab), so ``use`` sets the kernel's language: a
module-level setting, seen by the widgets' callbacks and the bots' timers alike (a
context variable set in one notebook cell is not seen by the next cell's tasks).
``using`` draws one block in another language (a context variable, so two threads or
tasks each keep theirs). An unknown language is the source language, never an error.

Numbers, card notation (``10H``, ``QS``) and arithmetic (−, ×, ½) are never translated.
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DOMAIN = "mathcards"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE = "en"  # the language the code is written in: no catalog
# The pseudo-locale: every marked string wrapped and accented ("[Ṕļåý Šûɱš]"), made from
# the template by ``make translations``. A page in it shows at a glance any word that was
# not marked: it stays plain English.
PSEUDO = "qps"

_KERNEL = {"language": SOURCE}  # use(): the language of this kernel's page
_LANGUAGE: ContextVar[str | None] = ContextVar("mathcards_language", default=None)
_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")


def available() -> tuple[str, ...]:
    """The languages a reader can choose: the source language, then every compiled
    catalog (the pseudo-locale last)."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    ordered = [lang for lang in found if lang != PSEUDO]
    return (SOURCE, *ordered, *([PSEUDO] if PSEUDO in found else []))


def normalize(tag: object) -> str | None:
    """The catalog a language tag asks for ("es-MX", "es_ES", "ES" -> "es"), or None when
    the tag is not a language tag or no catalog has it."""
    if not isinstance(tag, str) or not _TAG.match(tag.strip()):
        return None
    langs = available()
    full = tag.strip().replace("_", "-").lower()
    if full in langs:
        return full
    base = full.split("-")[0]
    return base if base in langs else None


def from_accept_language(header: object) -> str | None:
    """The first language of a browser's ``Accept-Language`` header that has a catalog
    (by its q-values, then its order), or None."""
    if not isinstance(header, str):
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _eq, value = p.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, i, tag.strip()))
    for _q, _i, tag in sorted(ranked):
        if (lang := normalize(tag)) is not None:
            return lang
    return None


def choose(asked: object = None, remembered: object = None, browser: object = None) -> str:
    """The page's language: the one asked for (a class link's ``?lang=``, the page's
    switch), else the one the student's pages remember, else the browser's first
    language with a catalog, else the source language."""
    for tag in (asked, remembered):
        if (lang := normalize(tag)) is not None:
            return lang
    return from_accept_language(browser) or SOURCE


@cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (the source language's is the identity)."""
    if lang == SOURCE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang], fallback=True)


def language() -> str:
    """The language of the page being drawn."""
    return _LANGUAGE.get() or _KERNEL["language"]


def use(lang: object) -> str:
    """Draw this kernel's page in ``lang`` from now on; an unknown language is the source
    language. Returns the language chosen."""
    chosen = normalize(lang) or SOURCE
    _KERNEL["language"] = chosen
    return chosen


@contextmanager
def using(lang: object) -> Iterator[str]:
    """Draw a block in ``lang`` (this thread or task only; the language before is
    restored after)."""
    chosen = normalize(lang) or SOURCE
    token = _LANGUAGE.set(chosen)
    try:
        yield chosen
    finally:
        _LANGUAGE.reset(token)


def gettext(message: str) -> str:
    """``message`` in the page's language."""
    return catalog(language()).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the page's language (its own plural rules: gettext's)."""
    return catalog(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the page's language, told apart from the same English words in
    another ``context``."""
    return catalog(language()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a constant for the catalog; it is translated where it is shown."""
    return message


@dataclass(frozen=True)
class Said:
    """A sentence made now and said later, in the language of the page that shows it: an
    event's reason, made when a move is applied and worded by ``describe`` (a game's
    events live in its state, which outlives a page's language). Made by ``later`` or
    ``later_n``; ``str()`` translates and fills in the values."""

    singular: str
    plural: str = ""
    n: int = 0
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        text = ngettext(self.singular, self.plural, self.n) if self.plural else gettext(
            self.singular)
        return text.format(**dict(self.values))


def later(message: str, **values: Any) -> Said:
    """``message`` with ``values``, translated when it is shown (``Said``)."""
    return Said(message, values=tuple(sorted(values.items())))


def later_n(singular: str, plural: str, n: int, **values: Any) -> Said:
    """The form for ``n``, translated when it is shown (``Said``); ``{n}`` is ``n``."""
    return Said(singular, plural, n, tuple(sorted({"n": n, **values}.items())))


def and_list(items: Any) -> str:
    """Words in a list in the page's language: "3♥", "3♥ and 5♣", "3♥, 5♣ and K♠"."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return gettext("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


# a day as a class calendar says it ("Mon 30 Nov"): the days' and months' short names from
# the catalog (Python's own %a and %b are the process's C locale's, English everywhere)
_DAYS = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun"))
_MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"),
           N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


def short_date(day: Any, *, year: bool = False) -> str:
    """``day`` (a ``datetime.date``) in the page's language: "Mon 30 Nov" ("lun 30 nov"),
    with its year when ``year``."""
    words = {"weekday": gettext(_DAYS[day.weekday()]), "day": f"{day.day:02d}",
             "month": gettext(_MONTHS[day.month - 1]), "year": day.year}
    return (gettext("{weekday} {day} {month} {year}") if year else
            gettext("{weekday} {day} {month}")).format(**words)
