"""Suns to Moons' questions: the new deck value, before a chosen card is laid.

The expected value is the explainer's: the move is applied to the real state and its
``CardPlayed``/``JokerPlayed`` event becomes the explainer's ``SignedAddition`` (or
``JokerRemoval``), whose ``after`` is the answer (never a copy of the rule here).

``numbers`` of a question are ``(deck before, the card's signed value)``: a card's expected
value is their sum, a Joker's their difference (it takes the card's value away);
``cards`` names the card behind the second number (the slip classifier reads it).

>>> from mathcards.games.suns_to_moons import SunsToMoons, Play
>>> state = SunsToMoons().new_game(1)
>>> play = next(a for a in state.legal_actions() if isinstance(a, Play) and not a.is_joker)
>>> q = before_move(state, play, state.current_player)
>>> q.expected == state.deck_value + play.contribution
True
"""

from __future__ import annotations

from typing import Any

from mathcards.asking import Question
from mathcards.games.base import seat_name
from mathcards.games.suns_to_moons import (
    BOUND,
    CardPlayed,
    GoalReached,
    JokerPlayed,
    Play,
    RoundWon,
    card_values,
    lies_across,
    number,
    signed,
    within_bound,
)
from mathcards.i18n import _, pgettext

GAME = "suns_to_moons"


def laid_words(play: Play) -> str:
    """How a card lies, in the table's words: "+5 laid across", "−5 upright"."""
    if lies_across(play.sign):
        return _("{change} laid across").format(change=signed(play.contribution))
    return _("{change} upright").format(change=signed(play.contribution))


def lying(play: Play) -> str:
    """ "across" (it adds) or "upright" (it takes away)."""
    return pgettext("a card lies", "across") if lies_across(play.sign) \
        else pgettext("a card lies", "upright")


def skill_of(before: int, change: int) -> str:
    """The skill a signed step practises (a key of ``mathcards.skills.SKILLS``)."""
    if before * (before + change) < 0:
        return "cross_zero"
    return "add_positive" if change >= 0 else "subtract_positive"


def _step(state: Any, action: Any) -> tuple[Any, Any] | None:
    """The explainer's step of ``action`` on ``state`` and its event (None: not a card)."""
    from mathcards.games.suns_to_moons.explain import play_steps

    after = state.apply(action)
    for ev in after.new_events:
        if isinstance(ev, CardPlayed | JokerPlayed):
            return play_steps((ev,), player=ev.player)[0], ev
    return None


def _question(step: Any, ev: Any, *, seat: int, prompt: str, follow: bool,
              goal: int | None = None) -> Question:
    if isinstance(ev, JokerPlayed):
        term, card = ev.removed_contribution, ev.removed_card
        skill = "subtract_negative" if term < 0 else skill_of(ev.before, -term)
    else:
        term, card = ev.contribution, ev.card
        skill = skill_of(ev.before, term)
    return Question(game=GAME, skill=skill, prompt=prompt, numbers=(ev.before, term),
                    expected=int(step.after), seat=seat, follow=follow,
                    cards=("", str(card) if card is not None else ""), goal=goal)


def before_move(state: Any, action: Any, seat: int) -> Question | None:
    """The new deck value, asked when the person has chosen a card and its sign."""
    if not isinstance(action, Play):
        return None
    found = _step(state, action)
    if found is None:
        return None
    step, ev = found
    if isinstance(ev, JokerPlayed):
        if not ev.removed or ev.removed_card is None:
            return None  # nothing to take away: the deck stays as it is
        prompt = _("The deck is {deck}. Your Joker takes away {card} ({change}): what is "
                   "the deck now?").format(deck=number(ev.before), card=ev.removed_card.symbol,
                                           change=signed(ev.removed_contribution))
    else:
        prompt = _("The deck is {deck}. You lay {card} {lying} ({change}): what is the deck "
                   "now?").format(deck=number(ev.before), card=action.card.symbol,
                                  lying=lying(action), change=signed(action.contribution))
    return _question(step, ev, seat=seat, prompt=prompt, follow=False, goal=state.goal)


def after_move(before: Any, after: Any, seat: int, *, follow: bool) -> Question | None:
    """Following the others: the deck after another player's card (not when it won the
    round: the round's moment shows its arithmetic at once)."""
    if not follow:
        return None
    if any(isinstance(ev, RoundWon) for ev in after.new_events):
        return None
    for ev in after.new_events:
        if ev.player == seat:
            return None
        if isinstance(ev, CardPlayed):
            play = Play(ev.card, ev.sign, ev.value)
            prompt = _("{who} laid {card} {lying} ({change}): the deck was {deck}; what is "
                       "it now?").format(who=seat_name((), ev.player), card=ev.card.symbol,
                                         lying=lying(play), change=signed(play.contribution),
                                         deck=number(ev.before))
        elif isinstance(ev, JokerPlayed) and ev.removed and ev.removed_card is not None:
            prompt = _("{who} played a Joker on {card} ({change}): the deck was {deck}; what "
                       "is it now?").format(who=seat_name((), ev.player),
                                            card=ev.removed_card.symbol,
                                            change=signed(ev.removed_contribution),
                                            deck=number(ev.before))
        else:
            continue
        from mathcards.games.suns_to_moons.explain import play_steps

        step = play_steps((ev,), player=ev.player)[0]
        return _question(step, ev, seat=ev.player, prompt=prompt, follow=True,
                         goal=before.goal)
    return None


def rule_words(state: Any, action: Any, reason: str) -> str:
    """A refused play in words at "I count": the ±10 rule, not the deck it would make."""
    if isinstance(action, Play) and state.current_player is not None:
        if _joker_breaks_bound(state, action):
            return _("you can't play the Joker here: after it no card could bring the deck "
                     "back between −{bound} and {bound}, and another card keeps it "
                     "there").format(bound=BOUND)
        if refused_move(state, action, state.current_player) is not None:
            return _("you can't lay {card} {lying} here: the deck must stay between −{bound} "
                     "and {bound} whenever another card can keep it there").format(
                card=action.card.symbol, lying=lying(action), bound=BOUND)
    return reason


def _joker_breaks_bound(state: Any, action: Play) -> bool:
    """A Joker refused only because no card after it could bring the deck back within the
    bound (the rules' other Joker refusals are not the bound's)."""
    hand = state.hands[state.turn]
    return (action.is_joker and action.sign == 0 and action.value == 0
            and state.pending is None and action.card in hand
            and not state.is_legal(action))


def refused_move(state: Any, action: Any, seat: int) -> Question | None:
    """A card and sign that would break the ±10 bound while another play keeps within it:
    counted as a wrong answer of the skill "bound"."""
    if not isinstance(action, Play) or action.is_joker or action.sign not in (1, -1):
        return None
    if action.value not in card_values(action.card) or state.is_legal(action):
        return None
    before = state.deck_value
    if within_bound(before + action.contribution):
        return None  # refused for another reason (not this player's card...)
    prompt = _("{card} {lying} ({change}) with the deck at {deck}").format(
        card=action.card.symbol, lying=lying(action), change=signed(action.contribution),
        deck=number(before))
    return Question(game=GAME, skill="bound", prompt=prompt,
                    numbers=(before, action.contribution), expected="no", kind="choice",
                    seat=seat, cards=("", str(action.card)))


def _reaches_goal(state: Any, action: Any) -> bool:
    return any(isinstance(ev, GoalReached) for ev in state.apply(action).new_events)


def hint_card(state: Any) -> Play | None:
    """The card the hint "which card" names as one that can reach the goal (the first of
    the shortest turn that does), else None."""
    from mathcards.games.suns_to_moons.explain import winning_turn

    turn = winning_turn(state)
    return turn[0] if turn else None


def hint(state: Any, level: int) -> str | None:
    """At "I count", the hint "which card" that names a card reaching the goal says too
    that a round it wins is won with help (the move's answer is then the goal on the page:
    ``hint_shows``); every other hint is the explainer's."""
    if level != 2 or state.current_player is None:
        return None
    play = hint_card(state)
    if play is None:
        return None
    if play.is_joker:
        return _("start with your Joker: it can reach the goal. A round won with a hint's "
                 "card does not count for you")
    return _("play your {card}: it can reach the goal. A round won with a hint's card does "
             "not count for you").format(card=play.card.symbol)


def hint_shows(state: Any, action: Any, level: int) -> str:
    """Why the answer of ``action`` was shown by a hint at ``state`` ("" when not): the hint
    "which card" (``level`` 2) named its card as one that can reach the goal, and it does,
    so the deck will be the goal the page shows."""
    if level < 2 or not isinstance(action, Play) or not state.is_legal(action):
        return ""
    play = hint_card(state)
    if play is None or play.card.rank != action.card.rank or not _reaches_goal(state, action):
        return ""
    if action.is_joker:
        return _("the hint said your Joker can reach the goal")
    return _("the hint said your {card} can reach the goal").format(card=action.card.symbol)


__all__ = ["after_move", "before_move", "hint", "hint_card", "hint_shows", "laid_words",
           "refused_move", "rule_words", "skill_of"]
