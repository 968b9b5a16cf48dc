"""Issue 37 item 4: an order that answers nothing. At "I count" the sign choices of a
Suns to Moons card keep one fixed order (the Ace 1 before 14, + before −) whatever the
goal, the deck or which sign the ±10 bound refuses; the focus goes to the first of them.
No widgets: the table's focus goes to the first enabled choice in the order offered
(``GameTable._focus_next``), so the order offered is what is focused."""

from __future__ import annotations

from mathcards.asking import COUNT
from mathcards.games.suns_to_moons import Play, SunsToMoons, card_values
from mathcards.table import TableController
from mathcards.widgets.suns_to_moons import SunsToMoonsView


def _fixed(card) -> list[str]:
    """The fixed order of a card's signs: each value (the Ace 1, then 14), + before −."""
    return [f"sign:{s * v:+d}" for v in card_values(card) for s in (1, -1)]


def test_sign_choices_keep_one_fixed_order_whatever_the_goal_or_the_bound():
    checked = bound_first = 0
    for seed in range(1, 120):
        ctl = TableController(SunsToMoonsView(), SunsToMoons(num_players=2), seed=seed,
                              bot_delay=0, save=False, level=COUNT, bot_seed=seed)
        state = ctl.state
        hand = state.observation(state.current_player).hand
        for card in dict.fromkeys(c for c in hand if not c.is_joker):
            if ctl.attempt(ctl.click_card, f"card:{card}") is False:
                continue  # no sign of it can be chosen now
            signs = [c.key for c in ctl.offered_choices() if c.key.startswith("sign:")]
            wanted = [k for k in _fixed(card) if k in signs]
            assert signs == wanted, (seed, card, signs)
            first_legal = next((f"sign:{a.contribution:+d}" for a in state.legal_actions()
                                if isinstance(a, Play) and a.card == card), None)
            if len(signs) > 1 and first_legal != signs[0]:
                bound_first += 1  # the first (focused) choice is one the bound refuses
            checked += 1
            ctl.click_choice("back")
    assert checked > 200
    assert bound_first > 0  # the order does not follow legality either
