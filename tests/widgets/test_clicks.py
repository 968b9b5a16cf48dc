"""A click names what it was made on: double and replayed clicks, clicks behind the
resume offer, and tables of every size the engines allow (issue 11 items 8-10)."""

from __future__ import annotations

import random

import pytest

from mathcards.games.registry import get_game_class
from mathcards.saves import deal_code
from mathcards.table import MAX_SEATS, Refused
from mathcards.widgets import play
from mathcards.widgets.dice_stacks import dice_stacks_table
from mathcards.widgets.suns_to_moons import suns_to_moons_table
from tests.registered import card_tables
from tests.widgets.helpers import click_something, enabled_cards, play_to_end


def _button(table, key):
    return next(b for b, k in zip(table.choice_pool, table.choice_keys, strict=True) if k == key)


def test_a_double_click_on_roll_the_dice_rolls_once_and_draws_nothing():
    table = dice_stacks_table(seats=["human", "strong"], seed=5, bot_delay=0)
    roll = _button(table, "roll")
    roll.click()
    after_one = table.state
    assert len(after_one.history) == 1 and after_one.phase != "roll"
    offered = list(table.choice_keys)
    roll.click()  # the second click of a double click, or a replay, lands after the redraw
    roll.click()  # and a third
    assert table.state == after_one  # no card drawn, no draw-or-stop chosen
    assert table.choice_keys == offered


def test_a_click_on_a_hand_card_that_left_the_hand_names_nothing():
    table = suns_to_moons_table(seats=["human", "human"], seed=3, bot_delay=0)
    table.w_ready.click()
    button = enabled_cards(table)[0]
    card = button.card
    button.button.click()
    while table.selected or len(table.state.history) == 0:  # finish the move if it asks more
        click_something(table, random.Random(0))
    played = table.state
    assert card not in played.observation(0).hand or table.state.history
    button.button.click()  # a replay of the same click: the card is gone from the hand
    assert table.state == played


def test_a_click_behind_the_resume_offer_is_refused_and_the_save_is_kept(data_dir):
    table = suns_to_moons_table(seed=12, bot_delay=0)
    rng = random.Random(0)
    while len(table.state.history) < 2:
        click_something(table, rng)
    saved_state = table.state
    slot_files = list(data_dir.rglob("*.json"))
    assert slot_files
    before = {p: p.read_bytes() for p in slot_files}
    reopened = suns_to_moons_table(seed=99, bot_delay=0)
    assert reopened.ctl.saved_offer is not None
    action = next(iter(reopened.state.legal_actions()))
    with pytest.raises(Refused, match="resume your saved game or start a new one"):
        reopened.play(action)
    reopened._on_new_game()
    reopened._on_deal_code(reopened.deal_code)
    assert reopened.refused
    assert {p: p.read_bytes() for p in data_dir.rglob("*.json")} == before
    reopened.w_resume.click()
    assert reopened.state == saved_state


@pytest.mark.parametrize("game", card_tables())
def test_the_largest_table_each_engine_allows_plays_to_the_end(game):
    most = get_game_class(game).max_players
    assert most <= MAX_SEATS
    # "Show me the sums": the clicker plays by the buttons (I count: tests/test_asking_table)
    table = play(game, query="seats=" + ",".join(["human"] + ["random"] * (most - 1)),
                 save=False, bot_delay=0, level="show")
    assert len(table.seats) == most and not table.refused, table.message
    assert table.w_players.value == most
    play_to_end(table, seed=most)
    assert table.state.is_over


@pytest.mark.parametrize("game", card_tables())
def test_a_deal_code_for_the_largest_table_deals_through_the_box_and_the_address(game):
    cls = get_game_class(game)
    code = deal_code(cls(num_players=cls.max_players), 4242)
    by_address = play(game, query=f"deal={code}", save=False, bot_delay=0)
    assert not by_address.refused and len(by_address.seats) == cls.max_players
    assert by_address.state.seed == 4242
    by_box = play(game, save=False, bot_delay=0, level="show")
    by_box._on_deal_code(code)
    assert not by_box.refused, by_box.message
    assert len(by_box.seats) == cls.max_players and by_box.w_players.value == cls.max_players
    assert by_box.state.seed == 4242 and by_box.state.game == by_address.state.game
    play_to_end(by_box, seed=1)


def test_more_seats_than_the_game_has_gives_one_line_and_a_table():
    table = play("sums", players=9, save=False)
    assert table.refused and "\n" not in table.message
    assert "9 seats" in table.message and "2-8" in table.message, table.message
    assert len(table.seats) == 8


def test_while_a_card_is_chosen_the_other_cards_say_true_things_and_a_refusal_shows_by_the_hand():
    code = deal_code(get_game_class("suns_to_moons")(num_players=2), 11)  # the hand is fixed
    table = play("suns_to_moons", query=f"deal={code}&delay=0&level=show", save=False,
                 bot_delay=0)
    ctl = table.ctl
    # a card, then its sign: two clicks (a Joker alone is one)
    playable = [c for c in ctl.card_states() if c.enabled and not c.card.is_joker]
    assert len({c.card for c in playable}) >= 2, "a deal with two playable cards"
    first, second = playable[0], next(c for c in playable if c.card != playable[0].card)
    ctl.attempt(ctl.click_card, first.key)
    assert ctl.picked == (first.key,)
    states = {c.key: c for c in ctl.card_states()}
    # the other playable card is not "cannot be played": it can, after Back
    assert "click Back" in states[second.key].tooltip
    assert "cannot be played" not in states[second.key].tooltip
    ctl.attempt(ctl.click_card, second.key)  # what a stale or forged click sends
    assert table.refused and "click Back to choose it instead" in table.message
    assert "Not allowed" in table.w_refusal.value and second.card.symbol in table.w_refusal.value
    ctl.attempt(ctl.click_choice, "back")
    assert not table.refused and table.w_refusal.value == ""
