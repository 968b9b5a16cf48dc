"""The Suns to Moons table: pick a card, then + or − (and 1 or 14 for an Ace).

The centre deck is drawn as on a real table: the centre card and every added
card lie across, subtracted cards stand upright, and a card a Joker
removed is shown greyed under the Joker's mark. A Joker is played on its own
and may be followed by one more card or "End turn".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from mathcards.cards import Card, parse_card
from mathcards.games.base import State
from mathcards.games.suns_to_moons import (
    JOKER,
    JOKER_PLAY,
    EndTurn,
    Pass,
    Play,
    RoundAbandoned,
    RoundWon,
    SunsToMoons,
    SunsToMoonsState,
    card_values,
    count_deck,
    deck_terms,
    lies_across,
    number,
    signed,
)
from mathcards.i18n import _, ngettext
from mathcards.table import Choice, GameView

from .cards import backs_html, card_face_html, esc

if TYPE_CHECKING:  # the view is pure Python: only the table needs ipywidgets
    from mathcards.widgets.table import GameTable

__all__ = ["SunsToMoonsView", "deck_card_html", "deck_html", "neutral_order", "suns_to_moons_table"]


def _sign_key(play: Play) -> str:
    return f"sign:{play.contribution:+d}"


# --- the centre deck: one drawing for the table and the practice page ------------------
def _deck_cards(plays: Sequence[Any]) -> list[tuple[int, Any, bool]]:
    """(place, play, removed by a Joker) for each card of a deck, centre card first."""
    terms = deck_terms(plays)
    count = count_deck(terms)
    return [(i, play, count.removed(i, terms)) for i, play in enumerate(plays)]


def deck_card_html(play: Any, place: int, removed: bool = False) -> str:
    """One card of the centre deck with its term under it, lying as the rules lay it.

    ``play`` is an engine ``Play`` or an exercise's deck card (anything with
    ``card``, ``sign``, ``value`` and ``contribution``); ``place`` 0 is the centre card.
    """
    if play.card.is_joker:
        face = card_face_html(JOKER, label=_("joker (removes the last card still counted)"))
        term = "JOKER" if place else "JOKER (0)"
        return f'<span class="mc-played">{face}<span class="mc-term">{term}</span></span>'
    landscape = lies_across(play.sign)
    if removed:
        label = _("{card}, {change}, removed by a Joker").format(
            card=play.card.name, change=signed(play.contribution))
        face = card_face_html(play.card, landscape=landscape, label=label, extra="mc-removed")
        return (f'<span class="mc-played mc-concealed">{face}<span class="mc-term '
                f'mc-removed">{signed(play.contribution)}</span></span>')
    label = (_("{card}, across, adds {value}") if landscape
             else _("{card}, upright, subtracts {value}")).format(card=play.card.name,
                                                                   value=play.value)
    face = card_face_html(play.card, landscape=landscape, label=label)
    term = str(play.value) if place == 0 else signed(play.contribution)
    return f'<span class="mc-played">{face}<span class="mc-term">{term}</span></span>'


def deck_html(plays: Sequence[Any], *, show_removed: bool = True, label: str = "") -> str:
    """A Suns to Moons deck as on a real table (``show_removed=False`` leaves the Joker's
    work to the student: no card is greyed out)."""
    cards = "".join(deck_card_html(play, i, removed and show_removed)
                    for i, play, removed in _deck_cards(plays))
    label = label or _("the deck")
    return f'<div class="mc-deck" role="group" aria-label="{esc(label)}">{cards}</div>'


def neutral_order(actions: Sequence[Any], hand: Sequence[Card]) -> tuple[Any, ...]:
    """``actions`` in a fixed order that never depends on which is better or legal: the
    cards as the hand holds them, each card's ways the Ace 1 before 14 and + before −;
    any other move (End turn, Pass) after them, in the engine's order. The first of this
    order is the one the table focuses."""
    places = {str(card): i for i, card in reversed(list(enumerate(hand)))}

    def key(item: tuple[int, Any]) -> tuple[int, ...]:
        i, action = item
        if isinstance(action, Play) and not action.is_joker:
            return (0, places.get(str(action.card), len(places)), action.value, -action.sign)
        return (1, i)

    return tuple(action for _i, action in sorted(enumerate(actions), key=key))


class SunsToMoonsView(GameView):
    game_name = "suns_to_moons"

    def round_ends(self) -> tuple[type, ...]:
        return (RoundWon, RoundAbandoned)

    # --- table -----------------------------------------------------------
    def board_html(self, state: State, obs: Any, seat_names: Sequence[str], *,
                   viewer: int | None = None) -> str:
        deck = deck_html(obs.table, label=ngettext(
            "the centre deck: value {value}, {n} card", "the centre deck: value {value}, {n} cards",
            obs.deck_size).format(value=number(obs.deck_value), n=obs.deck_size))
        seats = []
        for i, name in enumerate(seat_names):
            hand = backs_html(obs.hand_sizes[i], owner=name, own=i == viewer)
            to_act = " mc-to-act" if i == obs.current_player else ""
            seats.append(f'<div class="mc-seat{to_act}"><strong>{esc(name)}</strong> '
                         f'{hand}</div>')
        # the rule text's "junk pile" is the used cards: said as a teacher says it
        info = " · ".join((
            ngettext("Stock: {n} card", "Stock: {n} cards", obs.stock_size).format(
                n=obs.stock_size),
            _("used cards: {n}").format(n=obs.junk_size),
            _("round {n}").format(n=obs.round_number),
            ngettext("first to {n} point wins", "first to {n} points wins",
                     obs.target_score).format(n=obs.target_score)))
        goal, value_word = esc(_("Goal {goal}").format(goal=number(obs.goal))), esc(_("deck value"))
        return (f'<div class="mc-zone"><div class="mc-zone-title">{goal} · '
                f'{value_word} <span data-deck-value="{obs.deck_value}">'
                f'{number(obs.deck_value)}</span></div>{deck}</div>'
                f'<div class="mc-row">{"".join(seats)}</div>'
                f'<div class="mc-zone">{esc(info)}</div>')

    def round_end_html(self, state: State, seat_names: Sequence[str]) -> str:
        """The deck that reached the goal, with that goal (the next round waits)."""
        won = next((e for e in reversed(state.new_events) if isinstance(e, RoundWon)), None)
        if won is None or not won.table or won.player is None:
            return ""
        value = number(sum(won.counted))
        deck = deck_html(won.table, label=ngettext(
            "the deck that reached the goal: value {value}, {n} card",
            "the deck that reached the goal: value {value}, {n} cards",
            len(won.table)).format(value=value, n=len(won.table)))
        reached = _("the goal, reached by {name}").format(name=seat_names[won.player])
        goal, value_word = esc(_("Goal {goal}").format(goal=number(won.goal))), esc(_("deck value"))
        return (f'<div class="mc-zone"><div class="mc-zone-title">{goal} · '
                f'{value_word} <span data-deck-value="{sum(won.counted)}">{value}'
                f'</span>: {esc(reached)}</div>{deck}</div>')

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        obs = state.observation(0)
        p = state.current_player
        if p is None:
            return _("The game is over.")
        who = seat_names[p]
        if obs.after_joker:
            return _("{who}: the Joker made the deck {deck}; play one more card or end the "
                     "turn. Goal {goal}.").format(who=who, deck=number(obs.deck_value),
                                                  goal=number(obs.goal))
        return ngettext("{who} to play. Make the deck {goal} (it is {deck}, {n} card in it).",
                        "{who} to play. Make the deck {goal} (it is {deck}, {n} cards in it).",
                        obs.deck_size).format(who=who, goal=number(obs.goal),
                                              deck=number(obs.deck_value), n=obs.deck_size)

    # --- moves -----------------------------------------------------------
    def listed_actions(self, state: State) -> Sequence[Any]:
        """The legal moves; at "I count" also each card's sign that breaks the ±10 bound,
        offered like the others (choosing it is refused in words and counted)."""
        legal = tuple(state.legal_actions())
        if not self.counting or state.current_player is None:
            return legal
        from mathcards.games.suns_to_moons.questions import refused_move

        hand = state.observation(state.current_player).hand
        tried = tuple(play for card in dict.fromkeys(hand) for play in self._all_plays(card)
                      if play not in legal
                      and refused_move(state, play, state.current_player) is not None)
        return neutral_order(legal + tried, hand)

    def path(self, state: State, action: Any) -> tuple[Choice, ...]:
        if isinstance(action, Play) and self.counting and not action.is_joker:
            from mathcards.games.suns_to_moons.questions import laid_words

            ace = (" " + _("(the Ace as {value})").format(value=action.value)
                   if action.card.rank == 1 else "")
            return (
                Choice(f"card:{action.card}", action.card.symbol, card=action.card,
                       tooltip=_("choose how it lies next")),
                Choice(_sign_key(action), laid_words(action),
                       tooltip=_("lay {card} {how}{ace}: then say what the deck is").format(
                           card=action.card.name, how=laid_words(action), ace=ace)),
            )
        if isinstance(action, Play):
            if action.is_joker:
                return (Choice("card:JK", _("Joker"), card=JOKER,
                               tooltip=_("play the Joker: it removes the last card counted")),)
            after = cast(SunsToMoonsState, state).deck_value + action.contribution
            ace = (" " + _("(Ace as {value})").format(value=action.value)
                   if action.card.rank == 1 else "")
            tip = (_("play {card} across, adding {value}{ace}: the deck becomes {deck}")
                   if action.sign > 0 else
                   _("play {card} upright, subtracting {value}{ace}: the deck becomes {deck}"))
            return (
                Choice(f"card:{action.card}", action.card.symbol, card=action.card,
                       tooltip=_("choose + or − next")),
                Choice(_sign_key(action), f"{signed(action.contribution)} → {number(after)}",
                       tooltip=tip.format(card=action.card.name, value=action.value, ace=ace,
                                          deck=number(after))),
            )
        if isinstance(action, EndTurn):
            return (Choice("end", _("End turn (no second card)"),
                           tooltip=_("stop after the Joker")),)
        if isinstance(action, Pass):
            return (Choice("pass", _("Pass"), tooltip=_("no cards and none to deal")),)
        return super().path(state, action)

    def _all_plays(self, card: Card) -> list[Play]:
        if card.is_joker:
            return [JOKER_PLAY]
        return [Play(card, sign, v) for sign in (1, -1) for v in card_values(card)]

    def refused_choices(self, state: State, picked: tuple[str, ...]) -> list[Choice]:
        if self.counting:  # nothing greyed in advance: listed_actions offers them
            return []
        if len(picked) != 1 or not picked[0].startswith("card:") or picked[0] == "card:JK":
            return []
        card = parse_card(picked[0][5:])
        out = []
        for play in self._all_plays(card):
            if not state.is_legal(play):
                after = cast(SunsToMoonsState, state).deck_value + play.contribution
                out.append(Choice(f"off:{play.contribution:+d}",
                                  f"{signed(play.contribution)} → {number(after)}",
                                  tooltip=self.why_not(state, play)))
        return out

    def card_refusal(self, state: State, card: Card) -> str:
        if self.counting:  # the engine's reason would say what the deck becomes
            return (_("a Joker may not follow a Joker") if card.is_joker
                    and cast(SunsToMoonsState, state).after_joker
                    else _("the deck must stay between −10 and 10 whenever another card can "
                           "keep it there"))
        for play in self._all_plays(card):
            if not state.is_legal(play):
                return self.why_not(state, play)
        return _("it cannot be played now")

    def chain(self, before: State, after: State) -> str:
        from mathcards.explain import chain_steps

        counted = None
        for e in after.new_events:
            if isinstance(e, RoundWon):
                counted = e.counted
        if counted is None:
            counted = cast(SunsToMoonsState, after).counted
        if not counted:
            return ""
        # the sum only when there is one: "The deck: 7 − 5 + 1 = 3", "The deck: 1"
        return _("The deck: {sum}").format(sum=chain_steps(list(counted)).sum_text)


def suns_to_moons_table(*, players: int = 2, seats: Sequence[str] | None = None,
                        target_score: int = 10, seed: int | None = None,
                        bot_delay: float = 0.8, **kwargs: Any) -> GameTable:
    """A Suns to Moons table: you against bots unless ``seats`` says otherwise."""
    game = SunsToMoons(num_players=players, target_score=target_score)
    from mathcards.widgets.table import GameTable

    return GameTable(SunsToMoonsView(), game, seats=seats, seed=seed, bot_delay=bot_delay,
                     **kwargs)
