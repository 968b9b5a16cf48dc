"""A deal code never reveals a hidden card (issue 11 item 1).

The code shown on a table is the public seed: it decides the face-up cards and,
when one person sits at the table, that person's hand. Every other hidden card
(the bots' hands, the stock and piles) and every later chance step (dice, new
rounds) comes from a secret drawn for that table alone.
"""

from __future__ import annotations

import json
import random

import pytest

from mathcards import saves
from mathcards.games.base import load_state
from mathcards.games.registry import make_game
from mathcards.saves import deal_code, read_deal_code
from mathcards.saves import new_private_seed as REAL_SECRETS
from mathcards.widgets import play
from tests.registered import private_deal_games
from tests.widgets.helpers import click_something


@pytest.fixture
def real_secrets(monkeypatch):
    """These tests use the tables' real secrets, not the replayable test ones."""
    monkeypatch.setattr(saves, "new_private_seed", REAL_SECRETS)


def _hidden(state, seat: int):
    """The cards ``seat`` cannot see at the start: other hands, the stock or piles."""
    hands = [h for i, h in enumerate(state.hands) if i != seat]
    rest = getattr(state, "piles", None) or (getattr(state, "stock", ()),)
    return hands + list(rest)


GAMES = [("sums", {}), ("suns_to_moons", {}), ("dice_stacks", {})]


@pytest.mark.parametrize("name, settings", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_the_code_decides_the_public_cards_and_the_one_persons_hand_only(name, settings,
                                                                        players):
    game = make_game(name, num_players=players, **settings)
    for seed in range(20):
        plain = game.new_game(seed)  # what anyone computes from the code alone
        a = game.new_game(seed, private_seed=11 + seed, known_seat=0)
        b = game.new_game(seed, private_seed=911 + seed, known_seat=0)
        assert a.hands[0] == b.hands[0] == plain.hands[0]
        assert a.observation(0) == b.observation(0) == plain.observation(0)
        assert sorted(map(str, a.all_cards())) == sorted(map(str, plain.all_cards()))
        # the hidden cards: not those the code gives, and not the same on two tables
        assert _hidden(a, 0) != _hidden(plain, 0)
        assert _hidden(a, 0) != _hidden(b, 0)
        assert [len(z) for z in _hidden(a, 0)] == [len(z) for z in _hidden(plain, 0)]


def test_the_dice_come_from_the_tables_secret():
    game = make_game("dice_stacks", num_players=2)
    rolls = set()
    for private in range(1, 9):
        state = game.new_game(7, private_seed=private, known_seat=0)
        rolls.add(state.apply(next(iter(state.legal_actions()))).dice)
    plain = game.new_game(7)
    plain_roll = plain.apply(next(iter(plain.legal_actions()))).dice
    assert len(rolls) > 1 and rolls != {plain_roll}


def test_with_two_people_at_one_screen_the_code_decides_no_hand():
    game = make_game("sums", num_players=2)
    plain = game.new_game(3)
    state = game.new_game(3, private_seed=5, known_seat=None)
    assert state.sides == plain.sides  # the face-up cards are public
    assert state.hands[0] != plain.hands[0] and state.hands[1] != plain.hands[1]


def test_the_code_on_the_page_does_not_give_the_bots_hand(real_secrets):
    """The reported attack: the library, and a second tab with two human seats."""
    table = play("sums", save=False, bot_delay=0)
    code = table.deal_code
    assert code in table.w_header.value
    bot_hand = table.state.hands[1]
    game, seed = read_deal_code(code)
    assert game.new_game(seed).hands[1] != bot_hand  # the library alone
    second = play("sums", query=f"deal={code}&seats=human,human", save=False, bot_delay=0)
    assert second.state.seed == table.state.seed
    second.w_ready.click()  # "I'm ready (Player 1)"
    rng = random.Random(0)
    while second.state.current_player == 0 and not second.state.is_over:
        click_something(second, rng)
    second.w_ready.click()  # "I'm ready (Player 2)": the screen shows Player 2's hand
    assert second.viewer == 1
    assert second.state.hands[1] != bot_hand
    # and the secret itself is nowhere on the page
    assert table.state.private_seed > 1000
    assert str(table.state.private_seed) not in json.dumps(
        [w.get_state() for w in _widgets(table)], default=str)


def _widgets(root):
    seen, todo = [], [root]
    while todo:
        w = todo.pop()
        if w in seen:
            continue
        seen.append(w)
        todo.extend(c for c in getattr(w, "children", ()) or ())
    return seen


def test_a_teachers_code_gives_every_student_the_same_start(real_secrets):
    code = deal_code(make_game("suns_to_moons", num_players=3), 4321)
    tables = [play("suns_to_moons", query=f"deal={code}&level=show", save=False, bot_delay=10)
              for _ in range(3)]
    first = tables[0].state
    for table in tables[1:]:
        assert table.state.observation(0) == first.observation(0)
        assert table.state.table == first.table
    assert len({t.state.hands[1] for t in tables}) == 3  # the bots' hands differ


@pytest.mark.parametrize("name", private_deal_games())
def test_a_private_deal_replays_from_its_save(name):
    game = make_game(name, num_players=3)
    state = game.new_game(42, private_seed=987654321, known_seat=0)
    rng = random.Random(1)
    for _ in range(60):
        if state.is_over:
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
    text = state.to_json()
    assert json.loads(text)["private_seed"] == 987654321
    assert load_state(text) == state


def test_saves_written_before_private_deals_replay_exactly():
    # a save in the format every earlier MathCards wrote: no private seed
    old = ('{"format":"mathcards-game","version":1,"game":"sums","settings":'
           '{"num_players":2,"piles":2,"decks":null,"variant_return":false,'
           '"variant_draw_or_play":false},"seed":77,"actions":[]}')
    game = make_game("sums", num_players=2)
    settings = json.loads(old)["settings"]
    assert settings == json.loads(json.dumps(game.settings()))
    state = load_state(old)
    assert state == game.new_game(77) and state.private_seed == 0
    assert "private_seed" not in state.to_json()
