"""Dice Stacks' moment: the game over, each score as stacks + run-outs − cards left."""

from __future__ import annotations

from collections.abc import Sequence

from mathcards.games.base import State, number, seat_name
from mathcards.i18n import _, ngettext
from mathcards.moments import Moment, _headline, _last


def moment(before: State, after: State, names: Sequence[str],
           here: Sequence[int]) -> Moment | None:
    from mathcards.games.dice_stacks import DiceStacksState, GameEnded

    if _last(after.new_events, GameEnded) is None:
        return None
    assert isinstance(after, DiceStacksState)
    lines = []
    for i, (stacks, left) in enumerate(zip(after.stacks, after.hands, strict=True)):
        terms = ngettext("{n} stack", "{n} stacks", len(stacks)).format(n=len(stacks))
        bonus = after.stack_points[i] - len(stacks)  # special stacks' extra points
        if bonus:
            terms += " + " + _("{n} for special stacks").format(n=bonus)
        runs = after.run_outs[i]
        terms += " + " + ngettext("{n} run-out", "{n} run-outs", runs).format(n=runs)
        terms += " − " + ngettext("{n} card left", "{n} cards left", len(left)).format(
            n=len(left))
        lines.append(f"{seat_name(names, i)}: {terms} = {number(after.scores[i])}")
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", _("Game over"), headline,
                  (_("The stock is empty. Score = stacks + run-outs − cards left in hand:"),
                   *lines), win, tuple(after.winners))
