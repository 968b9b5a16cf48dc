"""The docs speak to their readers (teachers, students, developers) only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
               *(ROOT / "docs" / "rules").glob("*.md"), *(ROOT / "binder").glob("*.md")])

# Words about who writes which part and how it is merged: talk for the people making
# the project, not for the people reading it.
PROCESS_TALK = re.compile(
    r"owned by|owns (this|its|the) section|\bpaste[ds]? (it )?into|\bthe lead\b|"
    r"<!--\s*(BEGIN|END)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_have_no_process_talk(path):
    found = [
        f"line {number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PROCESS_TALK.search(line)
    ]
    assert not found, f"{path.name} speaks of who owns or pastes it: {found}"


def test_no_file_keeps_a_merge_conflict():
    """A merge's conflict markers left inside a docstring or a notebook's text still run:
    nothing but this check would find them."""
    suffixes = {".py", ".md", ".ipynb", ".json", ".yaml", ".yml", ".css", ".toml", ".txt"}
    left = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if path.suffix not in suffixes or not path.is_file() or any(
                p.startswith(".") or p in ("node_modules", "build") for p in parts):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8",
                                                     errors="replace").splitlines(), 1):
            if line.startswith(("<<<<<<< ", ">>>>>>> ")):
                left.append(f"{path.relative_to(ROOT)}:{number}")
    assert not left, f"merge conflict markers: {left}"
