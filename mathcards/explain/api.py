"""The explainer's entry points, called by the widgets after every move.

``explain_events(before, after)`` turns the events of the last action into
steps; ``explain_move(state, action)`` applies a legal action and explains
it; ``why_not(state, action)`` explains a refusal; ``hint(state, level)``
gives a hint at three levels. Each game's arithmetic lives in its own
game's folder (its ``explain.py``: ``mathcards.games.parts``); other games get their
events' plain sentences.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mathcards.explain.errors import ExplainError
from mathcards.explain.steps import HINT_LEVELS, Fact, Hint, Refusal, Step
from mathcards.games.parts import ExplainPart, explain_part, hint_of, why_not_of
from mathcards.games.registry import GameSpec, find_game
from mathcards.i18n import _


def _spec(game: str) -> GameSpec | None:
    return find_game(game)


def _explainer(game: str) -> ExplainPart | None:
    """The game's explain.py (None: its events' sentences are its steps)."""
    spec = find_game(game)
    return explain_part(spec) if spec is not None else None


def explain_new_events(
    events: Sequence[Any], *, game: str, before: Any = None, after: Any = None,
    names: Sequence[str] = (),
) -> list[Step]:
    """Steps for a list of events of one game (in the order they happened); ``names``
    are the seats' names at the table (else "Player N")."""
    explainer = _explainer(game)
    if explainer is None:
        return [Fact(player=e.player, sentence=e.describe(names).rstrip(".")) for e in events]
    steps: list[Step] = explainer.steps_for_events(events, before, after, names)
    return steps


def explain_events(state_before: Any, state_after: Any, names: Sequence[str] = ()
                   ) -> list[Step]:
    """The steps of everything that happened between two states, in play order.

    Usually ``state_after = state_before.apply(action)``; several actions apart
    works too (every action's events are explained in turn).
    """
    n_before = len(state_before.log)
    n_after = len(state_after.log)
    if n_after < n_before:
        raise ExplainError("state_after is earlier than state_before: pass them in play order")
    groups: list[Sequence[Any]] = []
    node = state_after.log
    while len(groups) < n_after - n_before:
        groups.append(node.item)
        node = node.prev
    groups.reverse()
    if len(groups) == 1:
        return explain_new_events(groups[0], game=state_before.game.name,
                                  before=state_before, after=state_after, names=names)
    events = [e for group in groups for e in group]
    return explain_new_events(events, game=state_before.game.name, names=names)


def explain_move(state: Any, action: Any) -> tuple[Any, list[Step]]:
    """Apply a legal ``action`` and explain it: ``(new_state, steps)``.

    An illegal action raises the engine's ``IllegalActionError`` as ``apply``
    does (``why_not`` explains it).
    """
    after = state.apply(action)
    return after, explain_events(state, after)


def explain_deal(state: Any) -> list[Step]:
    """Steps for the events of the deal (the first state of a game)."""
    return explain_new_events(state.new_events, game=state.game.name)


def why_not(state: Any, action: Any) -> Refusal:
    """Why the rules refuse ``action`` here: the engine's reason, with the arithmetic."""
    if state.is_legal(action):
        raise ExplainError(f"{action} is allowed here: there is nothing to refuse")
    reason = state.reason_refused(action)
    spec = _spec(state.game.name)
    explain_why = why_not_of(spec) if spec is not None else None
    if explain_why is not None:
        refusal: Refusal = explain_why(state, action, reason)
        return refusal
    return Refusal(action=str(action), reason=reason)


def refusal_words(state: Any, action: Any, *, arithmetic: bool = True,
                  counting: bool = False) -> str:
    """The one wording of a refused move for the student: the rule that refuses it
    (``State.reason_refused``, the engine's words), with the explainer's arithmetic in
    brackets when it has some. The table, the views' tooltips, the guided hands and the
    rooms all say a refusal through it; it never raises (the engine's words alone when the
    explainer has none, or ``arithmetic=False``: a card's tooltip that names the phase's
    rule, not why one card is not a stack). ``counting`` ("I count": the student has not
    said what the move makes) gives the rule alone, in the game's asking module's words
    (``rule_words``): no number the move would make."""
    if counting:
        from mathcards.asking.registry import asker_for

        reason = str(state.reason_refused(action))
        asker = asker_for(state.game.name)
        try:
            return asker.rule_words(state, action, reason) if asker is not None else reason
        except Exception:  # noqa: BLE001 - the engine's own words are enough
            return reason
    if not arithmetic:
        return str(state.reason_refused(action))
    try:
        refusal = why_not(state, action)
    except Exception:  # noqa: BLE001 - the engine's own words are enough
        return str(state.reason_refused(action))
    extra = " ".join(c.spoken for c in refusal.detail)
    return f"{refusal.reason}{' (' + extra.rstrip('.') + ')' if extra else ''}"


def hint(state: Any, level: int | str = 1) -> Hint:
    """A hint for the player to act: 1 ``nudge``, 2 which ``card``, 3 the full ``step``."""
    if isinstance(level, str):
        if level not in HINT_LEVELS:
            raise ExplainError(f"hint level {level!r}: choose one of {', '.join(HINT_LEVELS)}")
        level = HINT_LEVELS.index(level) + 1
    if isinstance(level, bool) or level not in (1, 2, 3):
        raise ExplainError(f"hint level must be 1, 2 or 3 (nudge, card, step), not {level!r}")
    spec = _spec(state.game.name)
    give_hint = hint_of(spec) if spec is not None else None
    if give_hint is None:
        return Hint(level=level, sentence=_("no hints for {game} yet").format(
            game=state.game.title))
    found: Hint = give_hint(state, level)
    return found


def spoken(steps: Iterable[Step]) -> str:
    """Steps as one paragraph of plain text, for a screen reader's live region."""
    return " ".join(s.spoken for s in steps)
