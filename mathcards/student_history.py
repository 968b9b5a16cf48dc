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


def _answer_event(a: Any) -> Event:
    from mathcards.skills import SLIP_WORDS

    tried = int(getattr(a, "attempt", 1) or 1)
    hints = int(getattr(a, "hints", 0) or 0)
    rule = str(getattr(a, "rule", "") or "")
    parts = [f"answered {a.given}" + ("" if a.right else f" (the answer: {a.expected})")]
    if tried > 1:
        parts.append(f"try {tried}")
    if hints:
        parts.append(f"{hints} hint{'s' if hints != 1 else ''}")
    if a.slip:
        parts.append(SLIP_WORDS.get(a.slip, a.slip.replace("_", " ")))
    parts.append(f"at \u201c{LEVELS.get(a.level, a.level)}\u201d")
    if rule:
        return Event(a.at, WRONG, _game_title(a.game), f"refused: {rule}",
                     f"tried {a.given}")
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
        hints = f", {t.hints_used} hint{'s' if t.hints_used != 1 else ''}" if t.hints_used else ""
        events.append(Event(t.at, RIGHT if t.correct else WRONG, t.set_title,
                            f"exercise {t.number}", f"answered {t.answer}, try {n}{hints}"))
    events.extend(_answer_event(a) for a in answers
                  if str(a.student).casefold() == key and a.source != EXERCISE)
    events.extend(Event(s.at, NOTE, titles.get(s.set_id, s.set_id), f"exercise {s.number}",
                        "opened the worked solution")
                  for s in solutions if str(s.student).casefold() == key)
    events.extend(Event(c.at, NOTE, _game_title(c.game), "changed the level",
                        f"from \u201c{LEVELS.get(c.before, c.before)}\u201d to "
                        f"\u201c{LEVELS.get(c.after, c.after)}\u201d")
                  for c in levels if str(c.student).casefold() == key)
    events.extend(Event(g.at, NOTE, _game_title(g.game), "finished a game",
                        f"{'won' if g.won else 'did not win'}, at "
                        f"\u201c{LEVELS.get(g.level, g.level)}\u201d")
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
    return {game: [LEVELS[lv] for lv in sorted(lvs, key=order.index) if lv in LEVELS]
            for game, lvs in sorted(found.items())}


__all__ = ["NOTE", "RIGHT", "WRONG", "Event", "history", "levels_played"]
