"""The strong Shoot the Moon bot: it sees only its observation and the legal plays."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from mathcards.cards import (
    BIG_MOON,
    LITTLE_MOON,
    Card,
)
from mathcards.games.shoot_the_moon.actions import Play
from mathcards.games.shoot_the_moon.rules import (
    _DECK_COUNTS,
    BIG,
    LITTLE,
    RED,
    TRICKS_PER_ROUND,
    _explain,
    _is_moon,
    moon_chips,
    moons_in,
    round_award,
)
from mathcards.games.shoot_the_moon.state import MoonObservation


# --- the strong bot ----------------------------------------------------------
def _beats(card: Card, best: Card, little_led: bool, led_suit: str | None) -> bool:
    """Would ``card``, played later, take the trick from ``best`` (winning now)?"""
    if best.suit == BIG_MOON or card.suit == LITTLE_MOON:
        return False
    if card.suit == BIG_MOON:
        return True
    if little_led:
        return best.suit == LITTLE_MOON or card.rank > best.rank
    if best.suit == RED:
        return card.suit == RED and card.rank > best.rank
    return card.suit == RED or (card.suit == led_suit and card.rank > best.rank)


def _award_after(tricks: int, chances: Sequence[float]) -> float:
    """Expected end-of-round award when each remaining card takes a trick with its chance."""
    dist = {tricks: 1.0}
    for p in chances:
        nxt: dict[int, float] = {}
        for k, w in dist.items():
            nxt[k + 1] = nxt.get(k + 1, 0.0) + w * p
            nxt[k] = nxt.get(k, 0.0) + w * (1 - p)
        dist = nxt
    return sum(w * round_award(k) for k, w in dist.items())


def strong_policy(observation: MoonObservation, legal: Sequence[Play], rng: random.Random) -> Play:
    """Play for an odd number of tricks, grab Big Moons, dump Little Moons on others.

    For each legal card it estimates the chance that its side takes this trick
    (the cards not yet seen are played at random by the seats still to play),
    and the chance each card left in hand takes a later trick (a Big Moon
    surely does). The card chosen maximises the moons won now plus the
    expected end-of-round award (odd tricks +1, all five +2) plus the chip
    of every Big Moon still to come, plus a bonus for a Little Moon dumped on
    a trick another player takes. Only the observation and legal plays are used.
    """
    obs = observation
    options = list(legal)
    if len(options) == 1:
        return options[0]
    me = obs.seat
    n = obs.num_players
    my_side = obs.side_of(me)
    seen = Counter(obs.hand) + Counter(obs.played_this_round)
    unseen = list((_DECK_COUNTS - seen).elements()) or [LITTLE]
    share = 1.0 / len(unseen)
    # Seats still to play after me in this trick.
    if n == 2:
        if obs.trick and obs.trick_players[0] == n:
            later = [] if len(obs.trick) == 2 else [1 - me]
        else:
            later = [n] if obs.trick else [1 - me, n]
    else:
        later = [(me + k) % n for k in range(1, n - len(obs.trick))]
    opponents_later = sum(1 for s in later if obs.side_of(s) != my_side)
    opponents = (n - n // 2) if obs.partnerships else (n if n == 2 else n - 1)
    partner_share = (n // 2 - 1) / (n - 1) if obs.partnerships else 0.0
    side_tricks = sum(t for s, t in enumerate(obs.tricks_won[:n]) if obs.side_of(s) == my_side)
    my_chips = obs.chips[me]

    def later_chance(card: Card) -> float:
        """Chance a card kept in hand takes a later trick for my side."""
        if card.suit == BIG_MOON:
            return 1.0
        if card.suit == LITTLE_MOON:
            return partner_share
        led = None if card.suit == RED else card.suit
        q = sum(1 for u in unseen if _beats(u, card, False, led)) * share
        own = (1 - q) ** opponents
        return own + (1 - own) * partner_share

    chances = {card: later_chance(card) for card in set(obs.hand)}
    if n == 2:
        opp_tricks = obs.tricks_won[1 - me]
        opp_future = [1 / 3] * (TRICKS_PER_ROUND - obs.trick_number)
        opp_parity = _award_after(opp_tricks + 1, opp_future) - _award_after(
            opp_tricks, opp_future
        )
    best_option, best_value = options[0], float("-inf")
    for option in options:
        card = option.card
        trick = (*obs.trick, card)
        index = _explain(trick)[0]
        winner_seat = obs.trick_players[index] if index < len(obs.trick) else me
        winning = obs.side_of(winner_seat) == my_side
        if winning:
            best = trick[index]
            led_suit = None if _is_moon(trick[0]) else trick[0].suit
            little_led = trick[0].suit == LITTLE_MOON
            q = sum(1 for u in unseen if _beats(u, best, little_led, led_suit)) * share
            p_take = (1 - q) ** opponents_later
        else:
            p_take = partner_share if later else 0.0
        rest = list(obs.hand)
        rest.remove(card)
        future_bigs = rest.count(BIG)
        rest_chances = [chances[c] for c in rest]
        moons_raw = moons_in(trick)
        moons = moon_chips(moons_raw, my_chips)
        take = moons + _award_after(side_tricks + 1, rest_chances)
        lose = _award_after(side_tricks, rest_chances)
        if n == 2:
            # Heads up, the opponent's chips count as much as ours: what they
            # would gain by taking this trick (moons and parity) counts against it.
            opponent = 1 - me
            if winning:
                p_opp = 0.5
            elif winner_seat == opponent:
                p_opp = 1.0 if not later else 0.7
            else:
                p_opp = 0.4 if opponent in later else 0.0
            opp_moons = moon_chips(moons_raw, obs.chips[opponent])
            lose -= p_opp * (opp_moons + opp_parity)
        elif (card.suit == LITTLE_MOON and not winning
              and winner_seat < n and obs.chips[winner_seat] > 0):
            lose += 0.5
        # Keep high cards for later when nothing is lost by it.
        spend = 0.002 * card.rank + (0.01 if card.suit == RED else 0.0)
        value = p_take * take + (1 - p_take) * lose + future_bigs - spend
        value += rng.random() * 1e-9
        if value > best_value:
            best_option, best_value = option, value
    return best_option

