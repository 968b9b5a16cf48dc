"""Shoot the Moon positions: a real engine state from a described table.

As a chess board is built from FEN, an exercise's position (a hand, the card led)
becomes a ``MoonState``; "may I play this?" is then asked of the engine itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from mathcards.cards import Card, cards_text
from mathcards.errors import CardParseError
from mathcards.games.shoot_the_moon.rules import _DECK_COUNTS, START_CHIPS, _check_moon_cards
from mathcards.games.shoot_the_moon.state import MoonState, ShootTheMoon
from mathcards.i18n import _

CardsIn = Iterable[Card | str] | str


def position(
    hands: Sequence[CardsIn],
    *,
    trick: CardsIn = (),
    trick_players: Sequence[int] | None = None,
    to_play: int | None = None,
    partnerships: bool = False,
    seed: int = 0,
) -> MoonState:
    """The engine state of a described table (one hand per seat, 3 to 6 seats) in the
    first round: ``trick`` was played by ``trick_players`` (default: seats 0, 1, ...) and
    ``to_play`` (default: the next seat) plays now.

    >>> state = position(["", "G4 R5 BIG", ""], trick="G9")
    >>> [str(a) for a in state.legal_actions()]
    ['play ☾4', 'play Big Moon']
    """
    if not 3 <= len(hands) <= 6:
        raise CardParseError(
            "give 3 to 6 hands (2 players add a dummy hand, which a position does not hold)"
        )
    game = ShootTheMoon(num_players=len(hands), partnerships=partnerships)
    n = game.num_players
    held = tuple(_check_moon_cards(h, _("hand {n}").format(n=i + 1)) for i, h in enumerate(hands))
    table = _check_moon_cards(trick, _("the trick"))
    players = tuple(trick_players) if trick_players is not None else tuple(range(len(table)))
    if to_play is None:
        to_play = (players[-1] + 1) % n if players else 0
    every = Counter(table)
    for hand in held:
        every.update(hand)
    over = [c for c, k in every.items() if k > _DECK_COUNTS[c]]
    if over:
        raise CardParseError(f"{cards_text(over)}: more copies than the deck holds")
    return MoonState(
        game=game,
        seed=seed,
        hands=held,
        trick=table,
        trick_players=players,
        taken=((),) * n,
        tricks_won=(0,) * n,
        chips=(START_CHIPS,) * game.num_sides,
        dealer=n - 1,
        to_play=to_play,
        played=table,
    )
