"""Moments: a round or a game won, shown with its arithmetic (no widgets here).

Each game's own moments are in its folder's ``moments.py`` (``mathcards.games.<game>.
moments``, found by that name: ``mathcards.games.parts``); this module holds what they
share and asks the registry.

After each move the table asks ``moment_for(before, after, names, here)``. When
the move ended a round or the game it returns a ``Moment``: a title, a
headline ("You won!", "Player 2 (bot) won the round") and a few lines of
arithmetic. Every number is read from the engine: the values still counted
when the goal was reached (``RoundWon.counted``), each player's stacks, stack
points, run-outs and cards left, the sides and captures, the chips of a round;
the totals are the engine's scores. Nothing here works a rule out again, and
nothing shows a hidden hand (only counts of cards, which every player sees).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mathcards.games.base import Event, State, number, plural, seat_name
from mathcards.i18n import _

__all__ = ["Moment", "moment_for", "plural"]


@dataclass(frozen=True)
class Moment:
    """A round or a game just won, as the table shows it: headline, title and arithmetic."""

    kind: str  # "round" (play goes on) or "game" (the game is over)
    title: str  # "Round 3 won", "Game over"
    headline: str  # "You won the round!", "Player 2 (bot) won the game"
    lines: tuple[str, ...]  # the arithmetic, one sentence each, plain text
    win: bool  # a win for a person at this screen
    winners: tuple[int, ...] = ()

    @property
    def is_round(self) -> bool:
        return self.kind == "round"

    @property
    def text(self) -> str:
        """The whole moment as one plain text (screen readers, tests)."""
        return " ".join((self.title + ".", self.headline, *self.lines))


def _headline(winners: Sequence[int], names: Sequence[str], here: Sequence[int],
              what: str) -> tuple[str, bool]:
    """("You won the round!" or "Player 2 (bot) won the round", a win for this screen)."""
    win = any(w in here for w in winners)
    game = what == "game"
    if not winners:
        return (_("Nobody won the game") if game else _("Nobody won the round")), False
    if len(winners) > 1:
        who = _(" and ").join(seat_name(names, w) for w in winners)
        return _("A tie: {names} share the win").format(names=who), win
    if len(here) == 1 and win:
        return (_("You won!") if game else _("You won the round!")), True
    who = seat_name(names, winners[0])
    if game:
        text = _("{name} won the game!") if win else _("{name} won the game")
    else:
        text = _("{name} won the round!") if win else _("{name} won the round")
    return text.format(name=who), win


def _scores_line(scores: Sequence[int], names: Sequence[str], word: str = "") -> str:
    """"Scores: Ana 3 · Player 2 (bot) 1" (``word`` in the page's language, "Scores" by
    default)."""
    return _("{word}: {scores}").format(
        word=word or _("Scores"),
        scores=" · ".join(f"{seat_name(names, i)} {number(s)}" for i, s in enumerate(scores)))


def _last(events: Sequence[Event], kind: type) -> Any:
    return next((e for e in reversed(events) if isinstance(e, kind)), None)


def _game_over(before: State, after: State, names: Sequence[str],
               here: Sequence[int]) -> Moment | None:
    """Any other game: its final scores."""
    if not after.is_over:
        return None
    lines = [_scores_line(after.scores, names)]
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", _("Game over"), headline, tuple(lines), win, tuple(after.winners))


MomentFinder = Callable[[State, State, Sequence[str], Sequence[int]], "Moment | None"]


def _finder(game_name: str) -> MomentFinder:
    """The ``moment`` of the game's moments.py (``mathcards.games.parts``), or
    ``_game_over``."""
    from mathcards.games.parts import moments_part
    from mathcards.games.registry import find_game

    spec = find_game(game_name)
    part = moments_part(spec) if spec is not None else None
    return _game_over if part is None else part.moment


def moment_for(before: State, after: State, names: Sequence[str],
               here: Sequence[int]) -> Moment | None:
    """The moment ``after`` ends (a round or the game), or None; ``here`` are the seats of
    the people at this screen ("You won!" when one of them wins)."""
    found = _finder(after.game.name)(before, after, names, here)
    if found is None and after.is_over:
        found = _game_over(before, after, names, here)
    return found
