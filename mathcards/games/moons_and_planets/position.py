"""Moons and Planets positions: a real engine state from a described table.

As a chess board is built from FEN, an exercise's position (hands, the trick so far,
the prizes) becomes a ``MoonsAndPlanetsState``; "what if" questions are then answered
by applying moves to it, so the engine's rules judge every answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from mathcards.cards import Card, cards_shown, standard_deck
from mathcards.errors import MathCardsError
from mathcards.games.base import State
from mathcards.games.moons_and_planets.actions import PlayCard
from mathcards.games.moons_and_planets.events import PrizesAwarded
from mathcards.games.moons_and_planets.rules import Phase, _cards, _playable
from mathcards.games.moons_and_planets.state import MoonsAndPlanets, MoonsAndPlanetsState
from mathcards.i18n import _

CardsIn = Iterable[Card | str] | str


def position(
    hands: Sequence[CardsIn],
    *,
    planets: Sequence[CardsIn] | None = None,
    moons: Sequence[Sequence[CardsIn]] | None = None,
    prizes: CardsIn = (),
    face_up: int | None = None,
    trick: CardsIn = (),
    trick_players: Sequence[int] | None = None,
    phase: Phase | str = Phase.PUT_DOWN,
    deck: CardsIn = (),
    discard: CardsIn = (),
    queue: Sequence[int] | None = None,
    leader: int = 0,
    seed: int = 0,
) -> MoonsAndPlanetsState:
    """The engine state of a described table (one hand per seat, seat 0 first).

    ``phase`` says what happens next: putting down (``queue``: the seats still to put
    down, first on turn; default every seat from ``leader``), turning a prize or playing
    (``trick_players``: the seats in this trick in play order; default every seat from
    ``leader`` that holds a card it may play).

    >>> state = position(["3S", "2S"], prizes="KC QC", phase="play", face_up=0)
    >>> state.current_player, [str(a) for a in state.legal_actions()]
    (0, ['play 3♠'])
    """
    game = MoonsAndPlanets(num_players=len(hands))
    n = game.num_players
    held = tuple(tuple(sorted(_cards(h))) for h in hands)
    down = tuple(_cards(p) for p in planets) if planets is not None else ((),) * n
    groups = (
        tuple(tuple(_cards(g) for g in seat) for seat in moons) if moons is not None
        else ((),) * n
    )
    table = _cards(trick)
    shown = _cards(prizes)
    seats = [(leader + i) % n for i in range(n)]
    the_phase = Phase(phase)
    if trick_players is None:
        if the_phase in (Phase.PLAY, Phase.TURN_PRIZE):
            trick_players = [s for s in seats if any(map(_playable, held[s]))]
        else:
            trick_players = ()
    if queue is None:
        queue = seats if the_phase == Phase.PUT_DOWN else ()
    state = MoonsAndPlanetsState(
        game=game,
        seed=seed,
        hands=held,
        planets=down,
        moons=groups,
        deck=_cards(deck),
        discard=_cards(discard),
        prizes=shown,
        face_up=face_up,
        trick=table,
        trick_players=tuple(trick_players),
        phase=the_phase,
        queue=tuple(queue),
        leader=leader,
    )
    twice = [c for c, k in Counter(state.all_cards()).items() if k > 1]
    if twice:
        raise MathCardsError(_("{cards}: a card can be in only one place on the table").format(
            cards=cards_shown(twice)))
    return state


def play_trick(trick: CardsIn, prizes: CardsIn = ()) -> PrizesAwarded:
    """Play ``trick`` (in play order, one card per seat, seat 0 leads) on a real table and
    return the engine's award: the prize order and, per card, why it ranks there.

    Without ``prizes`` the first cards of the deck not in the trick stand in for them.
    """
    cards = _cards(trick)
    if not 2 <= len(cards) <= MoonsAndPlanets.max_players:
        raise MathCardsError(_("a trick has one card per player: 2 to {n} cards").format(
            n=MoonsAndPlanets.max_players))
    given = _cards(prizes)
    if not given:
        given = tuple(c for c in standard_deck() if c not in cards)[: len(cards)]
    state = position(
        [(c,) for c in cards],
        prizes=given,
        face_up=0,
        phase=Phase.PLAY,
        trick_players=range(len(cards)),
    )
    table: State = state
    for card in cards:
        table = table.apply(PlayCard(card))
    return next(e for e in table.new_events if isinstance(e, PrizesAwarded))
