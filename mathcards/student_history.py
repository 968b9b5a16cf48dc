"""One student's history for the teacher (issue 38 item 3): everything the student did,
newest first, in a teacher's words: each answer at a table with its try, hints and slip;
each exercise attempt; the worked solutions opened; the changes of level; the games
finished. Built from the records the progress stores keep (``mathcards.exercises``);
the page is ``student.ipynb?who=ana`` (``mathcards.widgets.student_page``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mathcards.asking import EXERCISE, LEVELS
from mathcards.i18n import _, ngettext

RIGHT, WRONG, NOTE = "right", "wrong", "note"


@dataclass(frozen=True)
class Event:
    at: str  # ISO 8601 UTC time
    kind: str  # RIGHT, WRONG or NOTE (a level, a solution, a game)
    where: str  # the game or the set
    what: str  # the question, the exercise or the event in words
    detail: str  # the answer given, its try and slip; or more words


def _game_title(name: str) -> str:
    from mathcards.games.registry import find_game

    spec = find_game(name)
    return spec.engine.title if spec is not None else name


def _level(level: str) -> str:
    """A level of help in the page's words ("I count"), or as it was kept."""
    return _(LEVELS[level]) if level in LEVELS else level


def _answer_event(a: Any) -> Event:
    from mathcards.skills import SLIP_WORDS

    tried = int(getattr(a, "attempt", 1) or 1)
    hints = int(getattr(a, "hints", 0) or 0)
    rule = str(getattr(a, "rule", "") or "")
    parts = [_("answered {given}").format(given=a.given) if a.right else
             _("answered {given} (the answer: {expected})").format(given=a.given,
                                                                  expected=a.expected)]
    if tried > 1:
        parts.append(_("try {n}").format(n=tried))
    if hints:
        parts.append(ngettext("{n} hint", "{n} hints", hints).format(n=hints))
    if a.slip:
        parts.append(_(SLIP_WORDS[a.slip]) if a.slip in SLIP_WORDS else
                     a.slip.replace("_", " "))
    parts.append(_("at \u201c{level}\u201d").format(level=_level(a.level)))
    if rule:
        return Event(a.at, WRONG, _game_title(a.game), _("refused: {rule}").format(rule=rule),
                     _("tried {given}").format(given=a.given))
    return Event(a.at, RIGHT if a.right else WRONG, _game_title(a.game), a.prompt,
                 ", ".join(parts))


def history(student: str, *, attempts: Iterable[Any] = (), answers: Iterable[Any] = (),
            solutions: Iterable[Any] = (), levels: Iterable[Any] = (),
            games: Iterable[Any] = ()) -> list[Event]:
    """Everything ``student`` (an id) did, newest first. Exercise answers come from the
    attempts (with their set and number); the answers' table gives the tables' questions."""
    key = student.casefold()
    events: list[Event] = []
    attempts = list(attempts)
    titles = {t.set_id: t.set_title for t in attempts}
    tries: dict[tuple[str, str], int] = {}
    for t in sorted(attempts, key=lambda t: t.at):
        if str(t.student).casefold() != key:
            continue
        n = tries[(t.set_id, t.exercise)] = tries.get((t.set_id, t.exercise), 0) + 1
        done = (ngettext("answered {answer}, try {n}, {hints} hint",
                         "answered {answer}, try {n}, {hints} hints", t.hints_used)
                if t.hints_used else _("answered {answer}, try {n}")).format(
            answer=t.answer, n=n, hints=t.hints_used)
        events.append(Event(t.at, RIGHT if t.correct else WRONG, t.set_title,
                            _("exercise {number}").format(number=t.number), done))
    events.extend(_answer_event(a) for a in answers
                  if str(a.student).casefold() == key and a.source != EXERCISE)
    events.extend(Event(s.at, NOTE, titles.get(s.set_id, s.set_id),
                        _("exercise {number}").format(number=s.number),
                        _("opened the worked solution"))
                  for s in solutions if str(s.student).casefold() == key)
    events.extend(Event(c.at, NOTE, _game_title(c.game), _("changed the level"),
                        _("from \u201c{before}\u201d to \u201c{after}\u201d").format(
                            before=_level(c.before), after=_level(c.after)))
                  for c in levels if str(c.student).casefold() == key)
    events.extend(Event(g.at, NOTE, _game_title(g.game), _("finished a game"),
                        (_("won, at \u201c{level}\u201d") if g.won else
                         _("did not win, at \u201c{level}\u201d")).format(
                            level=_level(g.level)))
                  for g in games if str(g.student).casefold() == key)
    return sorted(events, key=lambda e: e.at, reverse=True)


def levels_played(student: str, answers: Iterable[Any], games: Iterable[Any] = ()
                  ) -> dict[str, list[str]]:
    """The levels the student played each game at (answers given and games finished)."""
    key = student.casefold()
    found: dict[str, set[str]] = {}
    for r in (*answers, *games):
        if str(r.student).casefold() == key and getattr(r, "source", "") != EXERCISE:
            found.setdefault(_game_title(r.game), set()).add(r.level)
    order = list(LEVELS)
    return {game: [_(LEVELS[lv]) for lv in sorted(lvs, key=order.index) if lv in LEVELS]
            for game, lvs in sorted(found.items())}


__all__ = ["NOTE", "RIGHT", "WRONG", "Event", "history", "levels_played"]
