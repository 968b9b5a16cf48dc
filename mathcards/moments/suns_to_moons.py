"""Suns to Moons' moments: a round won by reaching the goal (the chain of the counted
values), a round nobody won, the game won."""

from __future__ import annotations

from collections.abc import Sequence

from mathcards.games.base import State, plural, seat_name
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
        reached = _last(events, GoalReached)
        cards = f", with {plural(reached.deck_size, 'card')} in the deck" if reached else ""
        # the explainer's chain of the counted values: "7 − 5 + 1 = 3", true minus signs
        # ("7 − 5 + 1 = 3", or "4" with one card still counted: no "4 = 4")
        lines = [(f"{seat_name(names, p)} made the deck {chain_steps(won.counted).sum_text}, "
                 f"the goal{cards}."),
                 f"{seat_name(names, p)} now has {plural(won.new_score, 'point')}."]
        target = getattr(after.game, "target_score", None)
        if over is None and target is not None:
            lines[-1] = lines[-1][:-1] + f" (the first to {target} wins the game)."
        lines.append(_scores_line(scores, names))
        if over is not None:
            headline, win = _headline(after.winners, names, here, "game")
            return Moment("game", "Game over", headline,
                          ((f"{seat_name(names, p)} reached {plural(over.score, 'point')} "
                           f"and won the game."), *lines), win, tuple(after.winners))
        headline, win = _headline((p,), names, here, "round")
        return Moment("round", f"Round {round_number} won", headline, tuple(lines), win, (p,))
    gone = _last(events, RoundAbandoned)
    if gone is not None:
        return Moment("round", f"Round {gone.round_number}: no winner",
                      "Nobody won the round",
                      (("Everyone passed: no cards were left to play, so nobody reached the "
                       "goal."), _scores_line(scores, names)), False, ())
    return None
