"""The catalogs' tools, run by ``make translations`` (with Babel; never by a page).

``python -m mathcards.i18n_catalogs`` does it all, in this order:

1. **extract**: every string marked in mathcards/ and widgets/ (``_``, ``gettext``,
   ``ngettext``, ``pgettext``, ``N_``) into the template ``mathcards/locale/mathcards.pot``;
2. **update**: every language's ``.po`` gains the new strings (empty, to translate) and
   loses the ones gone; a changed English string becomes "fuzzy" (to check);
3. **pseudo**: the pseudo-locale's catalog, made from the template (``[Ŵŕåƥƥéð]``);
4. **compile**: each ``.po`` to its ``.mo`` (what the pages read);
5. **check**: for each language, how many entries are still untranslated or fuzzy, and
   which (``--list``).

``python -m mathcards.i18n_catalogs new fr`` starts a language from the template.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from mathcards.i18n import DOMAIN, LOCALE_DIR, PSEUDO, SOURCE

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("mathcards", "widgets")
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "later": None,
    "later_n": (1, 2),
}
# a fixed date in the files' headers: the catalogs change only when their strings do
STAMP = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROJECT = "MathCards"


def shown(path: Path) -> str:
    """A path as the command prints it: from the project's root when it is inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    """Every language with a catalog (the pseudo-locale is made, not written)."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
                  if p.parent.parent.name != PSEUDO)


HEADER = """\
# The words of MathCards' pages{language}.
# Translate each msgstr (keep {placeholders}, %(names)s and <tags> as they are);
# docs/translate.md says how, `make translations` checks and compiles."""


def _new_catalog(locale: str | None = None) -> Catalog:
    catalog = Catalog(locale=locale, domain=DOMAIN, project=PROJECT, version="1",
                      copyright_holder="the MathCards authors", msgid_bugs_address="",
                      creation_date=STAMP, revision_date=STAMP, charset="utf-8",
                      last_translator="", language_team="", fuzzy=False)
    catalog.header_comment = HEADER.format(language=f": {locale}" if locale else "",
                                           placeholders="{placeholders}")
    return catalog


def extract(root: Path = ROOT) -> Catalog:
    """The template: every marked string of mathcards/ and widgets/, where it is used."""
    template = _new_catalog()
    for folder in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                root / folder, method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=("Translators:",), strip_comment_tags=True):
            template.add(message, locations=[(f"{folder}/{filename}", lineno)],
                         auto_comments=comments, context=context)
    return template


def _write(catalog: Catalog, path: Path) -> bool:
    """Write a catalog as a .po/.pot file; False when the file already says the same."""
    buf = io.BytesIO()
    write_po(buf, catalog, width=88, sort_output=True, include_lineno=False,
             omit_header=False, ignore_obsolete=True)
    data = buf.getvalue()
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def update(template: Catalog) -> list[str]:
    """Every language's catalog follows the template; returns the files changed."""
    changed = []
    for lang in languages():
        path = po_path(lang)
        catalog = read(path, lang)
        catalog.update(template, update_header_comment=False, update_creation_date=False)
        if _write(catalog, path):
            changed.append(shown(path))
    return changed


# --- the pseudo-locale ------------------------------------------------------------
_ACCENTED = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöƥǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖṔǪŔŠŢÛṼŴẊÝŽ", strict=True))
# kept as written: placeholders ({name}, %s, %(n)d), HTML tags and entities
_KEEP = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]|<[^>]*>|&[#\w]+;")


def pseudo_text(text: str) -> str:
    """``text`` wrapped and accented, its placeholders and markup kept: "Play {game}" ->
    "[Ṕļåý {game}]"."""
    out, last = [], 0
    for m in _KEEP.finditer(text):
        out.append("".join(_ACCENTED.get(c, c) for c in text[last:m.start()]))
        out.append(m.group())
        last = m.end()
    out.append("".join(_ACCENTED.get(c, c) for c in text[last:]))
    return "[" + "".join(out) + "]"


def pseudo(template: Catalog) -> Catalog:
    """The pseudo-locale's catalog: every entry of the template, translated by ``pseudo_text``."""
    catalog = _new_catalog()
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            string: str | tuple[str, ...] = tuple(pseudo_text(s) for s in message.id)
        else:
            string = pseudo_text(message.id)
        catalog.add(message.id, string, context=message.context)
    return catalog


# --- compile and check ------------------------------------------------------------
def mo_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> list[str]:
    """Each .po (the pseudo-locale's too) to its .mo; returns the files changed."""
    changed = []
    for lang in [*languages(), PSEUDO]:
        path = po_path(lang)
        if not path.exists():
            continue
        data = mo_bytes(read(path, None if lang == PSEUDO else lang))
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            changed.append(shown(mo))
    return changed


def _untranslated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return message.fuzzy or not all(strings)


def untranslated(lang: str) -> list[str]:
    """The entries of ``lang`` still to translate (empty) or to check (fuzzy)."""
    catalog = read(po_path(lang), lang)
    out = []
    for message in catalog:
        if message.id and _untranslated(message):
            msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            out.append(("(to check) " if message.fuzzy else "") + msgid)
    return out


_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[sdif]")


def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


def mismatched(lang: str) -> list[str]:
    """The entries of ``lang`` whose translation lost or added a placeholder ({rank},
    %(n)s): the page would break or show the wrong number."""
    catalog = read(po_path(lang), lang)
    out = []
    for message in catalog:
        if not message.id or _untranslated(message):
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        want = placeholders(str(ids[-1]))
        if any(placeholders(str(s)) != want for s in strings):
            out.append(str(ids[0]))
    return out


def new_language(lang: str, template: Catalog) -> Path:
    """Start a language's catalog from the template (every entry empty)."""
    path = po_path(lang)
    if path.exists():
        raise SystemExit(f"{shown(path)} exists already: run `make translations`")
    catalog = _new_catalog(lang)
    catalog.update(template, update_creation_date=False)
    _write(catalog, path)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mathcards.i18n_catalogs",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("command", nargs="?", default="all", choices=("all", "check", "new"))
    parser.add_argument("lang", nargs="?", help="the language of `new` (e.g. fr, pt-BR)")
    parser.add_argument("--list", action="store_true", help="list the untranslated entries")
    args = parser.parse_args(argv)
    if args.command == "new":
        if not args.lang or args.lang in (SOURCE, PSEUDO):
            parser.error(f"say which language to start, e.g. `new fr` (not {SOURCE} or {PSEUDO})")
        template = read(TEMPLATE)
        print(f"started {shown(new_language(args.lang, template))}: "
              "translate it, then run `make translations`")
        return 0
    if args.command == "all":
        template = extract()
        changed = [shown(TEMPLATE)] if _write(template, TEMPLATE) else []
        changed += update(template)
        if _write(pseudo(template), po_path(PSEUDO)):
            changed.append(shown(po_path(PSEUDO)))
        changed += compile_all()
        print(f"{len(template)} strings; " + (f"changed: {', '.join(changed)}" if changed
                                               else "every catalog up to date"))
    report(languages(), listing=args.list)
    return 0


def report(langs: Iterable[str], *, listing: bool) -> None:
    for lang in langs:
        missing = untranslated(lang)
        print(f"{lang}: {len(missing)} to translate" if missing else f"{lang}: complete")
        if listing:
            for msgid in missing:
                print(f"    {msgid}")
        for msgid in mismatched(lang):
            print(f"{lang}: the placeholders differ from the English: {msgid}")


if __name__ == "__main__":
    sys.exit(main())
