"""The class in view (issue 37 item 8): every student of a class's list is a row, one who
never started included ("a student who did nothing is a row, not a gap")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ALL = ""  # the dashboard's "all students"
NOT_STARTED = "not started"


@dataclass(frozen=True)
class RosterRow:
    student: str  # the student id (as records carry it)
    name: str  # as the teacher typed it
    last_activity: str  # ISO time of the last record, or "" (not started)

    @property
    def activity_words(self) -> str:
        return self.last_activity[:16].replace("T", " ") if self.last_activity else NOT_STARTED


def roster(names: Iterable[str], records: Iterable[Any]) -> list[RosterRow]:
    """A row per name of the list (the teacher's order), with its last activity: the
    latest ``at`` of the records (attempts, answers, opened solutions) of that student."""
    last: dict[str, str] = {}
    for r in records:
        key = str(r.student).casefold()
        last[key] = max(last.get(key, ""), str(r.at))
    return [RosterRow(n.casefold(), n, last.get(n.casefold(), "")) for n in names]


__all__ = ["ALL", "NOT_STARTED", "RosterRow", "roster"]
