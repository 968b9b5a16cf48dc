"""Suns to Moons explained: signed additions, the round's chain, Jokers, the goal and ±10.

Every play is a signed addition with the running value (``7 + (−10) = −3``,
in the rule text's notation ``− 10(−3)``); a Joker takes a term away
(``5 − (+13) = −8``); a won round is one chain whose terms stay in the order
they were played (``11 − 4 − 2 + 2 − 10 + 8 − 5 = 0``).

>>> chain_steps([11, -4, -2, 2, -10, 8, -5]).text
'11 − 4 − 2 + 2 − 10 + 8 − 5 = 0'
>>> seed_record([(11, 1), (4, -1), (2, -1), (2, 1), (10, -1), (8, 1), (5, -1)])
'11(11) − 4(7) − 2(5) + 2(7) − 10(−3) + 8(5) − 5(0)'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any

from mathcards.cards import JOKER, Card
from mathcards.explain.errors import ExplainError
from mathcards.explain.steps import (
    BoundCheck,
    Chain,
    Fact,
    GoalCheck,
    Hint,
    JokerRemoval,
    Refusal,
    SignedAddition,
    Step,
    WhatIf,
)
from mathcards.explain.terms import MINUS, Neg, Num, Sum, number_text, signed_text
from mathcards.games.base import seat_name
from mathcards.games.suns_to_moons import (
    BOUND,
    END_TURN,
    CardPlayed,
    GoalReached,
    GoalTooEarly,
    HandsDealt,
    JokerPlayed,
    Play,
    RoundStarted,
    RoundWon,
    SunsToMoonsState,
    count_deck,
    deck_terms,
    strong_policy,
    within_bound,
)
from mathcards.i18n import N_, _

JOKER_MARK = "~JOKER~"


# --- the pinned chain ----------------------------------------------------------------
def _contribution(term: Any) -> int:
    value = getattr(term, "contribution", term)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExplainError(
            f"counted must list whole numbers (the signed values still counted), not {term!r}"
        )
    return value


def chain_steps(
    counted: Iterable[int],
    *,
    value: int | None = None,
    played: str = "",
    goal: int | None = None,
) -> Chain:
    """A deck's counted contributions (centre card first) as one chain, in play order.

    ``value`` is the engine's deck value when known; by the rules it is the sum
    of ``counted`` (ruling 4: a Joker's removed card is no longer counted);
    ``played`` the deck card by card in words (``played_words``).
    """
    terms = tuple(_contribution(t) for t in counted)
    return Chain(terms=terms, value=sum(terms) if value is None else value,
                 played=played, goal=goal)


def played_words(plays: Sequence[Any]) -> str:
    """A deck card by card in words, as a teacher says it (the centre card first), e.g.
    "7♥ starts the deck at 7; 10♠ takes away 10 and makes −3; the Joker takes away 10♠
    and makes 7".

    ``plays`` are the engine's ``Play`` records of one deck (or anything with ``card``,
    ``sign`` and ``value``); what each Joker takes away is the engine's rule
    (``count_deck``).
    """
    terms = deck_terms(plays)
    parts = []
    for i, (play, term) in enumerate(zip(plays, terms, strict=True)):
        now = count_deck(terms[:i + 1])
        made = number_text(now.value)
        if term is None:
            before = count_deck(terms[:i]).places
            gone = [p for p in before if p not in now.places]
            if not gone:
                parts.append(_("the Joker starts the deck at 0 (a Joker counts 0)") if i == 0
                             else _("the Joker has no card to take away: the deck stays "
                                    "{value}").format(value=made))
            else:
                parts.append(_("the Joker takes away {card} and makes {value}").format(
                    card=plays[gone[0]].card.symbol, value=made))
        elif i == 0:
            parts.append(_("{card} starts the deck at {value}").format(card=play.card.symbol,
                                                                       value=made))
        else:
            text = (_("{card} adds {n} and makes {value}") if term > 0
                    else _("{card} takes away {n} and makes {value}"))
            parts.append(text.format(card=play.card.symbol, n=play.value, value=made))
    return "; ".join(parts)


def seed_record(plays: Iterable[Any]) -> str:
    """The rule text's notation with running values: ``11(11) − 4(7) … ~JOKER~(−8)``
    (to check the engine against the rule text's examples; students read ``played_words``).

    ``plays`` are the engine's ``Play`` records of one deck (centre card first),
    or ``(value, sign)`` pairs; a Joker is a play of a Joker card or ``(0, 0)``.
    """
    pairs = [play if isinstance(play, tuple)
             else (play.value, 0 if play.card.suit == "JK" else play.sign) for play in plays]
    running_values = count_deck(None if sign == 0 else sign * value
                                for value, sign in pairs).running
    parts = []
    for i, ((value, sign), after) in enumerate(zip(pairs, running_values, strict=True)):
        running = number_text(after)
        if sign == 0:
            parts.append(f"{JOKER_MARK}({running})")
        elif i == 0:
            parts.append(f"{value}({running})")
        else:
            parts.append(f"{'+' if sign > 0 else MINUS} {value}({running})")
    return " ".join(parts)


# --- events -> steps ------------------------------------------------------------------------
def play_steps(events: Iterable[Any], *, player: int | None = None) -> list[Step]:
    """The arithmetic of the cards and Jokers among ``events``: a signed addition or a
    Joker's removal, each followed by its goal check (what hints and exercises show)."""
    out: list[Step] = []
    for ev in events:
        if isinstance(ev, CardPlayed):
            out.append(SignedAddition(
                player=player, card=ev.card, value=ev.value, before=ev.before,
                contribution=ev.contribution, after=ev.after, goal=ev.goal,
            ))
        elif isinstance(ev, JokerPlayed):
            if ev.removed and ev.removed_card is None:  # a counted value given without its card
                out.append(WhatIf(
                    lhs=Sum((Num(ev.before), Neg(Num(ev.removed_contribution, signed=True)))),
                    value=ev.after, comment="the Joker takes away the last counted card"))
            else:
                out.append(JokerRemoval(
                    player=player, removed_card=ev.removed_card,
                    removed_contribution=ev.removed_contribution, before=ev.before,
                    after=ev.after, goal=ev.goal,
                ))
        else:
            continue
        out.append(GoalCheck(value=ev.after, goal=ev.goal, deck_size=ev.deck_size))
    return out


def steps_for_events(events: Sequence[Any], before: Any = None, after: Any = None,
                     names: Sequence[str] = ()) -> list[Step]:
    """The steps of one action's events (``before``/``after`` are the states, if known;
    ``names`` the seats' names at the table)."""
    out: list[Step] = []
    table = list(before.table) if before is not None and hasattr(before, "table") else None
    action = after.history.last if after is not None else None
    for ev in events:
        if isinstance(ev, CardPlayed):
            addition, goal_check = play_steps((ev,), player=ev.player)
            out.append(addition)
            if ev.bound_applied or not within_bound(ev.after):
                decided = not within_bound(ev.after) or (
                    ev.other_sign_after is not None and not within_bound(ev.other_sign_after)
                )
                if decided:
                    out.append(BoundCheck(
                        card=ev.card, contribution=ev.contribution, after=ev.after,
                        other_after=ev.other_sign_after, bound_applied=ev.bound_applied,
                    ))
            out.append(goal_check)
        elif isinstance(ev, JokerPlayed):
            out.extend(play_steps((ev,), player=ev.player))
        elif isinstance(ev, HandsDealt) and any(isinstance(e, RoundStarted) for e in events):
            continue  # said in the round's one sentence below (a phone's first screen holds it)
        elif isinstance(ev, RoundStarted):
            dealt = next((e for e in events if isinstance(e, HandsDealt)), None)
            # one whole sentence per case (dealt or not, a Joker in the centre or not)
            joker = ev.initial_card.suit == "JK"
            if dealt is not None and joker:
                text = _("Round {round}: {dealer} deals {n} cards to each player; a Joker is "
                         "the centre card, so the deck starts at 0; the goal is {goal}; {first} "
                         "plays first")
            elif dealt is not None:
                text = _("Round {round}: {dealer} deals {n} cards to each player; the centre "
                         "card {card} starts the deck at {value}; the goal is {goal}; {first} "
                         "plays first")
            elif joker:
                text = _("Round {round}: a Joker is the centre card, so the deck starts at 0; "
                         "the goal is {goal}; {first} plays first")
            else:
                text = _("Round {round}: the centre card {card} starts the deck at {value}; "
                         "the goal is {goal}; {first} plays first")
            out.append(Fact(player=ev.player, sentence=text.format(
                round=ev.round_number,
                dealer=seat_name(names, dealt.player) if dealt is not None else "",
                n=dealt.cards_each if dealt is not None else 0,
                card=ev.initial_card.symbol, value=number_text(ev.initial_value),
                goal=number_text(ev.goal), first=seat_name(names, ev.first_player))))
        elif isinstance(ev, GoalReached | GoalTooEarly):
            continue  # the GoalCheck after the play says it, with the numbers
        elif isinstance(ev, RoundWon):
            played = ""
            if table is not None:
                plays = table + ([action] if isinstance(action, Play) else [])
                played = played_words(plays)
            out.append(chain_steps(ev.counted, value=ev.goal, played=played, goal=ev.goal))
            out.append(Fact(
                player=ev.player,
                sentence=_("{who} reaches the goal and scores a point: {n} in all").format(
                    who=seat_name(names, ev.player), n=ev.new_score),
            ))
        else:
            out.append(Fact(player=ev.player, sentence=ev.describe(names).rstrip(".")))
    return out


# --- what-if arithmetic (refusals, hints): the moves applied to the real state ------------------
def _play_out(state: SunsToMoonsState, plays: Sequence[Play]) -> tuple[list[Any], bool]:
    """The events of ``plays`` applied in turn to ``state``, and whether they reach the goal."""
    events: list[Any] = []
    for play in plays:
        if state.is_over or not state.is_legal(play):
            break
        state = state.apply(play)
        events.extend(state.new_events)
        if any(isinstance(ev, GoalReached) for ev in state.new_events):
            return events, True
    return events, False


def _turn_words(plays: Sequence[Play]) -> str:
    """A turn of one or two plays in the page's language: "7♥ as +7, then the Joker"."""
    words = [_("the Joker") if play.is_joker else _("{card} as {signed}").format(
        card=play.card.symbol, signed=signed_text(play.contribution)) for play in plays]
    if len(words) == 2:  # a turn is one card, or a Joker and one more
        return _("{first}, then {second}").format(first=words[0], second=words[1])
    return ", ".join(words)


def _first_card_words(plays: Sequence[Play], joker: str, card: str) -> str:
    """Level 2 of a hint: which card to play first, not yet how (``joker`` or ``card``, a
    whole sentence each: "play your {card}: ...")."""
    first = plays[0]
    return _(joker) if first.is_joker else _(card).format(card=first.card.symbol)


# a card of every value an opponent might hold (the suit does not count here)
_ANY_CARD = tuple(Card("S", rank) for rank in range(1, 14))
_JOKER_CARD = Card(JOKER, 0)
_REPLY_HANDS = ((_JOKER_CARD,), *((c,) for c in _ANY_CARD),
                *((_JOKER_CARD, c) for c in _ANY_CARD))


def _finish_turn(state: SunsToMoonsState, plays: Sequence[Play]) -> SunsToMoonsState | None:
    """The real state after ``plays`` and the end of the turn, or None if they win the round."""
    me = state.current_player
    for play in plays:
        state = state.apply(play)
        if any(isinstance(ev, GoalReached) for ev in state.new_events):
            return None
    if state.current_player == me and not state.is_over and state.is_legal(END_TURN):
        state = state.apply(END_TURN)
    return state


def reply_can_reach_goal(state: SunsToMoonsState, plays: Sequence[Play]) -> bool | None:
    """Whether the next player could reach the goal after ``plays``, whatever they hold.

    Every reply a hand of any one card (and maybe a Joker) allows is applied to
    the real state (the engine decides the Joker, the ±10 rule and the goal);
    None when no opponent answers (the turn wins, or a practice deck plays on).
    """
    me = state.current_player
    after = _finish_turn(state, plays)
    if after is None or after.is_over or after.current_player in (None, me):
        return None
    them = after.current_player
    assert them is not None
    for hand in _REPLY_HANDS:
        hands = (*after.hands[:them], hand, *after.hands[them + 1:])
        reply = dataclasses.replace(after, hands=hands)
        if any(_play_out(reply, t.plays)[1] for t in reply.turn_options()):
            return True
    return False


def _does_words(state: SunsToMoonsState, plays: Sequence[Play]) -> str:
    """What a turn does to the deck, in words: "makes the deck 4 (the goal 2 is 2 away)"."""
    events = _play_out(state, plays)[0]
    after = next((ev.after for ev in reversed(events) if isinstance(ev, CardPlayed | JokerPlayed)),
                 state.deck_value)
    gap = abs(state.goal - after)
    return _("it makes the deck {after}, {gap} away from the goal {goal}").format(
        after=number_text(after), gap=gap, goal=number_text(state.goal))


def _turns(state: SunsToMoonsState, plays: Sequence[Play]) -> list[tuple[Play, ...]]:
    """The turns the player to act may still play: after a Joker, one more card."""
    if state.after_joker:
        return [(a,) for a in plays]
    return [t.plays for t in state.turn_options()]


def _shortest_win(state: SunsToMoonsState, turns: Sequence[tuple[Play, ...]]
                  ) -> tuple[Play, ...] | None:
    winning = [t for t in turns if _play_out(state, t)[1]]
    return min(winning, key=len) if winning else None


def winning_turn(state: SunsToMoonsState) -> tuple[Play, ...] | None:
    """The turn a hint names when the player to act can reach the goal (its first card is
    the card of the hint "which card": "play your 7♥: it can reach the goal"), else None."""
    if state.current_player is None:
        return None
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    return _shortest_win(state, _turns(state, plays)) if plays else None


def hint(state: SunsToMoonsState, level: int = 1) -> Hint:
    """A hint for the player to act: 1 a nudge, 2 which card, 3 the whole turn and its sum.

    A turn is called safe only when no card the next player might hold reaches
    the goal after it (``reply_can_reach_goal``); otherwise the hint says what
    the turn does to the deck.
    """
    player = state.current_player
    if player is None:
        return Hint(level=level, sentence=_("the game is over"))
    legal = state.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Hint(level=level,
                    sentence=_("you have no cards and none are left to deal: pass"))
    goal = number_text(state.goal)
    turns = _turns(state, plays)
    best = _shortest_win(state, turns)
    if best is not None:
        if level <= 1:
            return Hint(level=1, sentence=_("there is a way to reach the goal {goal} this "
                                            "turn").format(goal=goal))
        if level == 2:
            return Hint(level=2, sentence=_first_card_words(
                best, N_("start with your Joker: it can reach the goal"),
                N_("play your {card}: it can reach the goal")))
        sentence = _("you can reach the goal with {turn}").format(turn=_turn_words(best))
        return Hint(level=3, sentence=sentence, shown=tuple(play_steps(_play_out(state, best)[0])))
    if level <= 1:
        return Hint(level=1, sentence=_(
            "no play reaches the goal {goal} this turn: leave the deck where one card "
            "cannot reach it").format(goal=goal))
    choice = strong_policy(state.observation(player), legal, random.Random(0))
    if not isinstance(choice, Play):  # after a Joker, ending the turn is the choice
        shown = (GoalCheck(value=state.deck_value, goal=state.goal, deck_size=state.deck_size),)
        safe = reply_can_reach_goal(state, ()) is False
        sentence = (_("no play reaches the goal {goal} this turn; a safe choice is to end your "
                      "turn after the Joker") if safe else
                    _("no play reaches the goal {goal} this turn; end your turn after the "
                      "Joker")).format(goal=goal)
        return Hint(level=level, sentence=sentence, shown=shown if level == 3 else ())
    ordered = sorted(turns, key=lambda t: t[0] != choice)  # the policy's choice first
    safe_turns = (t for t in ordered if reply_can_reach_goal(state, t) is False)
    turn = next(safe_turns, None)
    if turn is not None:
        if level == 2:
            return Hint(level=2, sentence=_first_card_words(
                turn, N_("start with your Joker: no card can reach the goal after it"),
                N_("play your {card}: no card can reach the goal after it")))
        sentence = _("no play reaches the goal {goal} this turn; a safe choice is {turn}: no "
                     "card the next player might hold reaches the goal after it").format(
            goal=goal, turn=_turn_words(turn))
    else:
        turn = ordered[0]
        if level == 2:
            return Hint(level=2, sentence=_first_card_words(
                turn, N_("start with your Joker; no play is safe this turn"),
                N_("play your {card}; no play is safe this turn")))
        sentence = _("no play reaches the goal {goal} this turn and none is safe; {turn}: "
                     "{does}").format(goal=goal, turn=_turn_words(turn),
                                      does=_does_words(state, turn))
    return Hint(level=3, sentence=sentence, shown=tuple(play_steps(_play_out(state, turn)[0])))


def why_not(state: SunsToMoonsState, action: Any, reason: str) -> Refusal:
    """A refused play with its arithmetic: what it would make, and a play that is allowed."""
    detail: list[Step] = []
    if isinstance(action, Play) and not action.is_joker and action.sign in (1, -1):
        before = state.deck_value
        c = action.contribution
        after = before + c
        if not within_bound(after):
            detail.append(WhatIf(
                lhs=Sum((Num(before), Num(c, signed=True))), value=after,
                comment=_("{value} is outside ±{bound}").format(value=number_text(after),
                                                                bound=BOUND),
            ))
            inside = [a for a in state.legal_actions()
                      if isinstance(a, Play) and not a.is_joker
                      and within_bound(before + a.contribution)]
            if inside:
                alt = inside[0]
                detail.append(WhatIf(
                    lhs=Sum((Num(before), Num(alt.contribution, signed=True))),
                    value=before + alt.contribution,
                    comment=_("{card} as {signed} keeps you within ±{bound}").format(
                        card=alt.card.symbol, signed=signed_text(alt.contribution), bound=BOUND),
                ))
    return Refusal(action=str(action), reason=reason, detail=tuple(detail))
