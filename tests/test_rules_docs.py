"""docs/rules/: each game's rules in the repository, and every ruling the code cites is there.

The engines cite numbered rulings in their docstrings and comments ("ruling 3",
"ruling Sums 6"); each number must be a row of the game's table in
``docs/rules/<game>.md``, so a reader can look up what the code relies on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mathcards.games.registry import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
CITATION = re.compile(r"\bruling (?:(?:Sums|Dice Stacks|Shoot the Moon|Moons and Planets|"
                      r"Suns to Moons) )?(\d+)\b", re.IGNORECASE)
ROW = re.compile(r"^\| (\d+) \|", re.MULTILINE)


def _citations(game: str) -> dict[int, list[str]]:
    """Ruling numbers cited in the code of ``game`` (its package or module, its explainer,
    its exercise kinds, its views): number -> where."""
    found: dict[int, list[str]] = {}
    for path in sorted([*(ROOT / "mathcards").rglob("*.py"), *(ROOT / "widgets").rglob("*.py")]):
        if game not in path.as_posix():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in CITATION.finditer(line):
                found.setdefault(int(match.group(1)), []).append(
                    f"{path.relative_to(ROOT)}:{number}")
    return found


@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))
def test_every_game_has_its_rules_page(game):
    page = RULES / f"{game}.md"
    assert page.exists(), f"docs/rules/{game}.md is missing"
    text = page.read_text(encoding="utf-8")
    assert "## Rulings" in text and "## The game" in text, f"{page.name} lacks its sections"
    numbers = [int(n) for n in ROW.findall(text)]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers, (
        f"{page.name}: rulings must be numbered 1, 2, 3... (found {numbers})")


@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))
def test_every_cited_ruling_is_on_the_rules_page(game):
    rows = {int(n) for n in ROW.findall((RULES / f"{game}.md").read_text(encoding="utf-8"))}
    missing = {n: where for n, where in _citations(game).items() if n not in rows}
    assert not missing, f"rulings cited in the code but not in docs/rules/{game}.md: {missing}"


def test_the_citation_pattern_finds_the_code_s_citations():
    # the check above is only as good as its pattern: the Suns to Moons engine cites ruling 3
    # (the ±10 bound) and Sums cites ruling Sums 6 (the end)
    assert 3 in _citations("suns_to_moons")
    assert 6 in _citations("sums")


def test_the_index_links_every_game():
    index = (RULES / "README.md").read_text(encoding="utf-8")
    for game in BUILTIN_GAMES:
        assert f"({game}.md)" in index, f"docs/rules/README.md does not link {game}.md"
