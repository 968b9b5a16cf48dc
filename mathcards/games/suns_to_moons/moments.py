"""Suns to Moons' moments: a round won by reaching the goal (the chain of the counted
values), a round nobody won, the game won."""

from __future__ import annotations

from collections.abc import Sequence

from mathcards.games.base import State, seat_name
from mathcards.i18n import _, ngettext
from mathcards.moments import Moment, _headline, _last, _scores_line


def moment(before: State, after: State, names: Sequence[str],
           here: Sequence[int]) -> Moment | None:
    from mathcards.explain import chain_steps
    from mathcards.games.suns_to_moons import (
        GameWon,
        GoalReached,
        RoundAbandoned,
        RoundWon,
    )

    events = after.new_events
    won = _last(events, RoundWon)
    over = _last(events, GameWon)
    round_number = getattr(before, "round_number", 0)
    scores = after.scores
    if won is not None and won.player is not None:
        p = won.player
        who = seat_name(names, p)
        reached = _last(events, GoalReached)
        # the explainer's chain of the counted values: "7 − 5 + 1 = 3", true minus signs
        # ("7 − 5 + 1 = 3", or "4" with one card still counted: no "4 = 4")
        made = chain_steps(won.counted).sum_text
        if reached:
            first = ngettext("{who} made the deck {sum}, the goal, with {n} card in the deck.",
                             "{who} made the deck {sum}, the goal, with {n} cards in the deck.",
                             reached.deck_size).format(who=who, sum=made, n=reached.deck_size)
        else:
            first = _("{who} made the deck {sum}, the goal.").format(who=who, sum=made)
        n = won.new_score
        target = getattr(after.game, "target_score", None)
        if over is None and target is not None:
            points = ngettext("{who} now has {n} point (the first to {target} wins the game).",
                              "{who} now has {n} points (the first to {target} wins the game).",
                              n).format(who=who, n=n, target=target)
        else:
            points = ngettext("{who} now has {n} point.", "{who} now has {n} points.",
                              n).format(who=who, n=n)
        lines = [first, points, _scores_line(scores, names)]
        if over is not None:
            headline, win = _headline(after.winners, names, here, "game")
            reached_line = ngettext("{who} reached {n} point and won the game.",
                                    "{who} reached {n} points and won the game.",
                                    over.score).format(who=who, n=over.score)
            return Moment("game", _("Game over"), headline, (reached_line, *lines), win,
                          tuple(after.winners))
        headline, win = _headline((p,), names, here, "round")
        return Moment("round", _("Round {n} won").format(n=round_number), headline,
                      tuple(lines), win, (p,))
    gone = _last(events, RoundAbandoned)
    if gone is not None:
        return Moment("round", _("Round {n}: no winner").format(n=gone.round_number),
                      _("Nobody won the round"),
                      (_("Everyone passed: no cards were left to play, so nobody reached the "
                         "goal."), _scores_line(scores, names)), False, ())
    return None
