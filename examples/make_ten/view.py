"""Make Ten's table: the pile and the seats as HTML, a move as one card (pure Python).

``GameSpec.view`` names ``MakeTenView``; only ``mathcards.widgets`` imports it, to draw a
play page (``mathcards.widgets.play("make_ten")``) or a room's table. It uses the widgets'
card drawing (HTML strings) and never ipywidgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from examples.make_ten.rules import TEN, MakeTenObservation, Play
from mathcards.cards import Card
from mathcards.games.base import State, plural
from mathcards.table import Choice, GameView
from mathcards.widgets.cards import backs_html, esc, pile_html


class MakeTenView(GameView):
    """One pile in the middle; each seat's hand (as backs) and the cards it took."""

    game_name = "make_ten"

    def board_html(self, state: State, obs: MakeTenObservation, seat_names: Sequence[str],
                   *, viewer: int | None = None) -> str:
        seats = []
        for i, name in enumerate(seat_names):
            to_act = " mc-to-act" if i == obs.current_player else ""
            hand = backs_html(obs.hand_sizes[i], owner=name, own=i == viewer)
            seats.append(f'<div class="mc-seat{to_act}" role="group" aria-label="{esc(name)}">'
                         f"<strong>{esc(name)}</strong> · hand {hand} · took "
                         f"{plural(obs.taken[i], 'card')}</div>")
        pile = pile_html(obs.top, obs.pile_size, label="the pile")
        return f'<div class="mc-row">{pile}</div>{"".join(seats)}'

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        top = getattr(state, "top", None)
        if top is None:
            return "The pile is empty: any card begins it."
        return f"The pile shows {top.symbol}: a card that makes {TEN} with it takes the pile."

    def path(self, state: State, action: Any) -> tuple[Choice, ...]:
        if isinstance(action, Play):
            return (Choice(f"card:{action.card}", action.card.symbol, card=action.card,
                           tooltip="play it on the pile"),)
        return super().path(state, action)

    def card_refusal(self, state: State, card: Card) -> str:
        return "it is not your turn"


def picture() -> str:
    """The landing card's picture: 3 and 7 make ten."""
    from mathcards.widgets.lesson import card_row

    return str(card_row("3H 7S", width=40))
