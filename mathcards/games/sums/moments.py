"""Sums' moment: the game over, each score as face-up points + captured points."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mathcards.games.base import State, seat_name
from mathcards.i18n import _, ngettext
from mathcards.moments import Moment, _headline, _last


def moment(before: State, after: State, names: Sequence[str],
           here: Sequence[int]) -> Moment | None:
    from mathcards.games.sums import GameEnded, SumsState, card_points

    if _last(after.new_events, GameEnded) is None:
        return None
    assert isinstance(after, SumsState)
    lines = []  # the sides are face up and every capture was shown as it happened: public
    for i, (side, caught) in enumerate(zip(after.sides, after.captured, strict=True)):
        up = ngettext("{points} face up ({n} card)", "{points} face up ({n} cards)",
                      len(side)).format(points=sum(map(card_points, side)), n=len(side))
        got = ngettext("{points} captured ({n} card)", "{points} captured ({n} cards)",
                       len(caught)).format(points=sum(map(card_points, caught)), n=len(caught))
        lines.append(f"{seat_name(names, i)}: {up} + {got} = {after.scores[i]}")
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", _("Game over"), headline,
                  (_("A pile ran out. {points}.").format(points=_points_table(card_points)),
                   *lines), win, tuple(after.winners))


def _points_table(card_points: Callable[[Any], int]) -> str:
    """The engine's points per rank, in words: "A scores 3, 2 to 10 score 1, ..."."""
    from mathcards.cards import Card

    label = {1: "A", 11: "J", 12: "Q", 13: "K"}
    groups: list[list[int]] = []  # runs of ranks with the same points
    for rank in range(1, 14):
        if groups and card_points(Card("S", groups[-1][0])) == card_points(Card("S", rank)):
            groups[-1].append(rank)
        else:
            groups.append([rank])
    parts = []
    for run in groups:
        first, last = label.get(run[0], str(run[0])), label.get(run[-1], str(run[-1]))
        ranks = first if len(run) == 1 else \
            _("{first} and {last}").format(first=first, last=last) if len(run) == 2 \
            else _("{first} to {last}").format(first=first, last=last)
        parts.append(ngettext("{ranks} scores {points}", "{ranks} score {points}",
                              len(run)).format(ranks=ranks, points=card_points(Card("S", run[0]))))
    return ", ".join(parts)
