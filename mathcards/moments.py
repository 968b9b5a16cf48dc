"""Moments: a round or a game won, shown with its arithmetic (no widgets here).

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


# --- Suns to Moons ----------------------------------------------------------------------
def suns_to_moons_moment(before: State, after: State, names: Sequence[str],
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


# --- Dice Stacks ------------------------------------------------------------------------
def dice_stacks_moment(before: State, after: State, names: Sequence[str],
                 here: Sequence[int]) -> Moment | None:
    from mathcards.games.dice_stacks import DiceStacksState, GameEnded

    if _last(after.new_events, GameEnded) is None:
        return None
    assert isinstance(after, DiceStacksState)
    lines = []
    for i, (stacks, left) in enumerate(zip(after.stacks, after.hands, strict=True)):
        terms = plural(len(stacks), "stack")
        bonus = after.stack_points[i] - len(stacks)  # special stacks' extra points
        if bonus:
            terms += f" + {bonus} for special stacks"
        terms += f" + {plural(after.run_outs[i], 'run-out')} − {plural(len(left), 'card')} left"
        lines.append(f"{seat_name(names, i)}: {terms} = {number(after.scores[i])}")
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", "Game over", headline,
                  ("The stock is empty. Score = stacks + run-outs − cards left in hand:",
                   *lines), win, tuple(after.winners))


# --- Sums -------------------------------------------------------------------------------
def sums_moment(before: State, after: State, names: Sequence[str],
          here: Sequence[int]) -> Moment | None:
    from mathcards.games.sums import GameEnded, SumsState, card_points

    if _last(after.new_events, GameEnded) is None:
        return None
    assert isinstance(after, SumsState)
    lines = []  # the sides are face up and every capture was shown as it happened: public
    for i, (side, caught) in enumerate(zip(after.sides, after.captured, strict=True)):
        lines.append(f"{seat_name(names, i)}: {sum(map(card_points, side))} face up "
                     f"({plural(len(side), 'card')}) + {sum(map(card_points, caught))} "
                     f"captured ({plural(len(caught), 'card')}) = {after.scores[i]}")
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", "Game over", headline,
                  (f"A pile ran out. {_points_table(card_points)}.", *lines),
                  win, tuple(after.winners))


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
        ranks = first if len(run) == 1 else f"{first} and {last}" if len(run) == 2 \
            else f"{first} to {last}"
        verb = "scores" if len(run) == 1 else "score"
        parts.append(f"{ranks} {verb} {card_points(Card('S', run[0]))}")
    return ", ".join(parts)


# --- Shoot the Moon ---------------------------------------------------------------------
def shoot_the_moon_moment(before: State, after: State, names: Sequence[str],
                    here: Sequence[int]) -> Moment | None:
    from mathcards.games.shoot_the_moon.events import GameWon, RoundScored

    events = after.new_events
    scored = _last(events, RoundScored)
    over = _last(events, GameWon)
    if scored is None and over is None:
        return None
    lines = []
    gained: tuple[int, ...] = ()
    if scored is not None:
        awards = scored.awards
        for i, (tricks, award) in enumerate(zip(scored.side_tricks, awards, strict=True)):
            # the arithmetic: odd or even, the award, the chips before and after it
            kind = "all five" if tricks == 5 else "odd" if tricks % 2 else "even"
            now = scored.chips[i]
            gain = (f"+{plural(award, 'chip')}: {now - award} + {award} = "
                    f"{plural(now, 'chip')}" if award else
                    f"no chip: still {plural(now, 'chip')}")
            lines.append(f"{seat_name(names, i)}: {plural(tricks, 'trick')} ({kind}) → {gain}")
        best = max(awards, default=0)
        gained = tuple(i for i, a in enumerate(awards) if a == best) if best > 0 else ()
    lines.append(_scores_line(after.scores, names, _("Chips")))
    if over is not None or after.is_over:
        headline, win = _headline(after.winners, names, here, "game")
        return Moment("game", "Game over", headline, tuple(lines), win, tuple(after.winners))
    round_no = scored.round_number if scored is not None else 0
    if gained:
        headline, win = _headline(gained, names, here, "round")
    else:
        headline, win = "Nobody won chips this round", False
    return Moment("round", f"Round {round_no} scored", headline, tuple(lines), win, gained)


def moons_and_planets_moment(before: State, after: State, names: Sequence[str],
                             here: Sequence[int]) -> Moment | None:
    """Moons and Planets: who emptied their hand (its scores are no points to add)."""
    if not after.is_over:
        return None
    from mathcards.games.moons_and_planets.events import GameWon

    lines = [e.describe(names) for e in after.new_events if isinstance(e, GameWon)]
    headline, win = _headline(after.winners, names, here, "game")
    return Moment("game", "Game over", headline, tuple(lines), win, tuple(after.winners))


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
    """The moments function a game registered (``GameSpec.moments``), or ``_game_over``."""
    from mathcards.games.registry import find_game, resolve

    spec = find_game(game_name)
    if spec is None or not spec.moments:
        return _game_over
    found: MomentFinder = resolve(spec.moments)
    return found


def moment_for(before: State, after: State, names: Sequence[str],
               here: Sequence[int]) -> Moment | None:
    """The moment ``after`` ends (a round or the game), or None; ``here`` are the seats of
    the people at this screen ("You won!" when one of them wins)."""
    found = _finder(after.game.name)(before, after, names, here)
    if found is None and after.is_over:
        found = _game_over(before, after, names, here)
    return found
