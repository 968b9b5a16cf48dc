"""The Dice Stacks table through the widget layer: whole games by clicks, the live
arithmetic of a selection, special stacks, hints and refusals (no browser)."""

from __future__ import annotations

import random

import pytest

from mathcards.bots import Bot
from mathcards.cards import Card
from mathcards.explain import stack_steps
from mathcards.games.dice_stacks import (
    DiceStacks,
    LayStack,
    Roll,
    best_stacks,
    stack_points,
    stack_problem,
)
from mathcards.saves import deal_code
from mathcards.widgets import play
from mathcards.widgets.dice_stacks import DiceStacksView, dice_stacks_table
from tests.widgets.helpers import enabled_cards, enabled_choices, play_to_end


def _choice(table, key):
    for i, k in enumerate(table.choice_keys):
        if k == key:
            return table.choice_pool[i]
    return None


def _select(table, cards):
    """Click the hand's buttons for ``cards`` (one button per card, duplicates too)."""
    hand = list(table.state.observation(table.viewer).hand)
    used: set[int] = set()
    for card in cards:
        i = next(j for j, c in enumerate(hand) if c == card and j not in used)
        used.add(i)
        button = table.hand_buttons.pool[i]
        assert button.card == card and not button.button.disabled
        button.button.click()
        assert not table.refused, table.message


def play_smart(table, rng: random.Random, max_clicks: int = 4000) -> dict[str, int]:
    """Play the person's seat by clicks: roll, draw (the rest or stop at random), select the
    cards of the best stacks one by one and lay each, sometimes a wrong selection first."""
    done = {"stacks": 0, "special": 0, "wrong": 0, "clicks": 0}
    while not table.state.is_over:
        done["clicks"] += 1
        assert done["clicks"] < max_clicks, "the game did not end"
        state = table.state
        if state.phase == "stacks":
            hand = state.observation(table.viewer).hand
            stacks = best_stacks(hand, state.dice)
            if hand and rng.random() < 0.3:
                wrong = tuple(rng.sample(hand, k=min(len(hand), rng.randint(1, 3))))
                if stack_points(wrong, state.dice) == 0:
                    _select(table, wrong)
                    # not a stack: "Lay down" is disabled and the reason shows under the hand
                    lay = _choice(table, "off:lay")
                    assert lay is not None and lay.disabled
                    assert "not a stack" in table.w_selection.value
                    assert _choice(table, "lay") is None
                    _choice(table, "clear").click()
                    assert table.selected == ()
                    done["wrong"] += 1
            if stacks:
                stack = stacks[0]
                _select(table, stack)
                assert "✓" in table.w_selection.value
                expected = stack_steps(stack, state.dice).text
                assert expected in table.w_selection.value
                _choice(table, "lay").click()
                assert not table.refused, table.message
                done["stacks"] += 1
                done["special"] += stack_points(stack, state.dice) == 2
                continue
            _choice(table, "end").click()
            assert not table.refused, table.message
            continue
        choices = enabled_choices(table)
        assert choices, f"nothing to click in phase {state.phase}"
        keys = [table.choice_keys[table.choice_pool.index(b)] for b in choices]
        # only the moves of this phase are offered
        allowed = {"roll": {"roll"}, "draw": {"draw"}, "more": {"rest", "stop"}}[state.phase]
        assert set(keys) == allowed
        assert not enabled_cards(table)  # cards wait until the drawing is done
        rng.choice(choices).click()
        assert not table.refused, table.message
    return done


def _check_over(table):
    state = table.state
    assert state.is_over and "Game over" in table.message
    for i, score in enumerate(state.scores):
        assert f"{table.seat_names[i]}: {score}" in table.w_header.value
    assert not enabled_cards(table) and not enabled_choices(table)


@pytest.mark.parametrize("seed", [1, 2])
def test_dice_stacks_whole_game_by_random_clicks(seed):
    """A student clicking any enabled control plays to the end; nothing enabled is refused."""
    table = dice_stacks_table(seed=seed, bot_delay=0, save=False)
    clicks = play_to_end(table, seed)
    assert clicks > 10
    _check_over(table)


@pytest.mark.parametrize("seed, seats", [
    (3, ("human", "strong")),
    (4, ("human", "random", "strong")),
])
def test_dice_stacks_whole_game_laying_stacks_by_clicks(seed, seats):
    table = dice_stacks_table(players=len(seats), seats=seats, seed=seed, bot_delay=0,
                              save=False)
    done = play_smart(table, random.Random(seed))
    assert done["stacks"] >= 3 and done["wrong"] >= 1
    _check_over(table)
    # every stack the person laid is on the table, in the engine's state
    assert len(table.state.stacks[0]) == done["stacks"]
    assert any("Player 1 (you) laid" in h for h in table.history)
    # the board draws every seat's stacks: as many piles as stacks (special: two piles)
    # and how each score is made, agreeing with the header's (issue 26 item 18)
    import re

    from mathcards.games.base import number

    board = table.w_board.value
    for seat in range(len(seats)):
        name, score = table.seat_names[seat], table.state.scores[seat]
        points = table.state.stack_points[seat]
        assert re.search(rf"{re.escape(name)}</strong> · (score {number(score)} = )?"
                         rf"{points} stack point", board)


def test_explainer_shows_the_stack_as_an_equation_and_the_turns_stacks():
    table = dice_stacks_table(seed=3, bot_delay=0, save=False)
    rng = random.Random(0)
    for _ in range(400):
        state = table.state
        if state.phase == "stacks":
            # a stack of two or more cards: an equation (a card alone is said in words)
            stacks = [s for s in best_stacks(state.observation(0).hand, state.dice)
                      if len(s) > 1]
            if stacks:
                _select(table, stacks[0])
                _choice(table, "lay").click()
                text = stack_steps(stacks[0], state.dice).text
                assert "\\(" in table.w_step.value  # LaTeX for HTMLMath
                assert text.split(" = ")[-1] in table.w_step_text.value
                assert "Stacks this turn:" in table.w_chain.value
                assert text in table.w_chain.value
                return
            _choice(table, "end").click()
        else:
            rng.choice(enabled_choices(table)).click()
    pytest.fail("no stack laid in 400 clicks")


def _to_stacks_phase_with(table, rng, want) -> bool:
    """Play (ending turns without stacks) until the person's hand satisfies ``want``."""
    for _ in range(300):
        state = table.state
        if state.is_over:
            return False
        if state.phase == "stacks":
            if want(state):
                return True
            _choice(table, "end").click()
        else:
            rng.choice(enabled_choices(table)).click()
    return False


def test_a_special_stack_lies_as_two_stacks_marked_two_points():
    """Seed: "This is denoted by placing the two of clubs and the four of diamonds in
    separate stacks, so that they will be counted as two points in the end." """
    def special(state):
        hand = state.observation(0).hand
        return any(stack_points(s, state.dice) == 2 for s in best_stacks(hand, state.dice))

    for seed in range(1, 40):
        table = dice_stacks_table(seed=seed, bot_delay=0, save=False)
        if _to_stacks_phase_with(table, random.Random(seed), special):
            break
    else:
        pytest.fail("no special stack in 40 deals")
    state = table.state
    pair = next(s for s in best_stacks(state.observation(0).hand, state.dice)
                if stack_points(s, state.dice) == 2)
    _select(table, pair)
    assert "special stack: 2 points" in table.w_selection.value
    points = state.stack_points[0]
    pairs = table.w_board.value.count('class="mc-special-pair"')
    _choice(table, "lay").click()
    assert table.state.stack_points[0] == points + 2
    board = table.w_board.value
    assert board.count('class="mc-special-pair"') == pairs + 1
    assert "2 points</span>" in board
    assert f"special stack: {pair[0].name} and {pair[1].name}, 2 points" in board


def test_hints_at_three_levels_while_making_stacks():
    def has_stack(state):
        return bool(best_stacks(state.observation(0).hand, state.dice))

    table = dice_stacks_table(seed=5, bot_delay=0, save=False)
    assert _to_stacks_phase_with(table, random.Random(5), has_stack)
    state = table.state
    stacks = best_stacks(state.observation(0).hand, state.dice)
    texts = []
    for button in table.w_hint_buttons:
        button.click()
        texts.append(table.w_hint.value)
    assert len(set(texts)) == 3
    target = sum(state.dice)
    n = len(stacks)
    assert f"these cards make {n} stack{'s' if n != 1 else ''} of {target}" in texts[0]
    assert "here is one" in texts[1] and stacks[0][0].symbol in texts[1]
    assert stack_steps(stacks[0], state.dice).text.split(" = ")[0] in texts[2]
    assert table.state is state  # a hint moves nothing


def test_a_forced_click_on_a_disabled_lay_down_is_refused_with_the_reason():
    def non_stack_pair(state):
        hand = state.observation(0).hand
        return len(hand) >= 2 and stack_points(hand[:2], state.dice) == 0

    table = dice_stacks_table(seed=6, bot_delay=0, save=False)
    assert _to_stacks_phase_with(table, random.Random(6), non_stack_pair)
    state = table.state
    cards = state.observation(0).hand[:2]
    _select(table, cards)
    lay = _choice(table, "off:lay")
    assert lay.disabled
    assert lay.tooltip == table.ctl.selection_summary()[1]  # the line under the hand
    reason = stack_problem(cards, state.dice)
    assert reason in table.w_selection.value.replace("&#x27;", "'")
    lay.disabled = False  # the visitor re-enables the button in the page
    lay.click()
    assert table.state is state
    assert table.refused and reason in table.message


@pytest.mark.parametrize("typed, words", [
    ("lay KS KH", "Kings alone"),
    ("__import__('os')", "not a move"),
    ("1+1", "not a move"),
    ("roll", "already rolled"),
])
def test_typed_stacks_are_parsed_as_cards_only_and_refused_with_the_reason(typed, words):
    table = dice_stacks_table(seed=7, bot_delay=0, save=False)
    assert _to_stacks_phase_with(table, random.Random(7), lambda s: True)
    hand = table.state.observation(0).hand
    if typed.startswith("lay K"):
        kings = [c for c in hand if c.rank == 13]
        if len(kings) < 2:  # Kings the player does not hold are refused for that first
            words = "do not hold"
    before = table.state
    table.w_move.value = typed
    assert table.state is before
    assert table.refused and words in table.message, table.message


def test_a_typed_stack_of_a_bots_cards_is_refused_like_any_card_not_held():
    table = dice_stacks_table(seed=8, bot_delay=0, save=False)
    rng = random.Random(8)

    def bot_holds_other(state):
        return bool(set(state.observation(1).hand) - set(state.observation(0).hand))

    assert _to_stacks_phase_with(table, rng, bot_holds_other)
    card = next(iter(set(table.state.observation(1).hand) - set(table.state.observation(0).hand)))
    before = table.state
    table.w_move.value = f"lay {card}"
    assert table.state is before
    assert table.refused and "do not hold" in table.message


def test_tampered_selection_indices_are_refused_and_nothing_changes():
    table = dice_stacks_table(seed=9, bot_delay=0, save=False)
    assert _to_stacks_phase_with(table, random.Random(9), lambda s: True)
    before = table.state
    n = len(before.observation(0).hand)
    for key in (f"h{n + 5}", "h-1", "card:KS", "hx", None):
        table.ctl.attempt(table.ctl.click_card, key)  # what a forged click could carry
        assert table.state is before and table.refused
    assert table.selected == ()
    # a forged index list never reaches the engine as cards the player lacks
    table.ctl.selected = (n + 3, n + 4)
    table.ctl.attempt(table.ctl.click_choice, "lay")
    assert table.state is before and table.refused and "select cards" in table.message


def test_typed_moves_drive_a_whole_turn():
    table = dice_stacks_table(seed=10, bot_delay=0, save=False)
    table.w_move.value = "roll"
    assert table.state.phase == "draw", table.message
    table.w_move.value = "draw"
    assert table.state.phase in ("more", "stacks"), table.message
    if table.state.phase == "more":
        table.w_move.value = "stop"
    assert table.state.phase == "stacks"
    hand, dice = table.state.observation(0).hand, table.state.dice
    stacks = best_stacks(hand, dice)
    if stacks:
        table.w_move.value = "lay " + " ".join(str(c) for c in stacks[0])
        assert not table.refused, table.message
        assert table.state.stacks[0][-1] == LayStack(stacks[0]).cards
    table.w_move.value = "end"
    assert not table.refused and table.state.actions[-1].__class__.__name__ in (
        "EndTurn", "LayStack", "Roll", "Draw", "DrawRest", "StopDrawing")


def test_play_dice_stacks_with_a_deal_code_from_the_page_address():
    code = deal_code(DiceStacks(num_players=3), 77)
    table = play("dice_stacks", save=False,
                 query=f"deal={code}&seats=human,random,strong&delay=0&level=show")
    assert table.state.game.num_players == 3 and table.state.seed == 77
    assert table.seats == ("human", "random", "strong")
    assert code in table.w_header.value
    play_to_end(table, 77)
    _check_over(table)


def test_run_out_markers_show_on_the_table():
    """Seed: "he turns up the next card on the stock pile and places it face up before
    him as one of his stacks." The marker shows face up in the player's row."""
    for seed in range(60):
        state = DiceStacks(num_players=2).new_game(seed)
        bots = [Bot("dice_stacks", "strong", seed=1), Bot("dice_stacks", "strong", seed=2)]
        while not state.is_over and not any(state.markers):
            state = state.apply(bots[state.current_player].choose(state))
        if any(state.markers):
            break
    else:
        pytest.fail("no run-out in 60 strong-bot games")
    seat = next(i for i, m in enumerate(state.markers) if m)
    marker: Card = state.markers[seat][0]
    view = DiceStacksView()
    names = ("Player 1", "Player 2")
    board = view.board_html(state, state.observation(0), names)
    assert f"run-out point, counted by {marker.name} turned face up" in board
    assert "mc-marker" in board


def test_the_status_line_of_a_large_hand_does_not_list_every_stack(monkeypatch):
    """Making stacks, a large hand makes a great many stacks (a random clicker's table once
    took seconds a click): the status line asks the engine's legal moves only while drawing,
    where it names the engine's draw count."""
    from mathcards.games import dice_stacks as engine

    game = DiceStacks(num_players=2)
    hand = "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D 6C KS KH"
    state = game.position(hand, (6, 6))
    listed = 0
    real_iter = engine.LegalStacks.__iter__

    def counting_iter(self):
        nonlocal listed
        for action in real_iter(self):
            listed += 1
            yield action

    monkeypatch.setattr(engine.LegalStacks, "__iter__", counting_iter)
    line = DiceStacksView().status(state, ("Ana", "Ben"))
    assert line == "Ana: make stacks of 12 (click cards, then lay them down), or end the turn."
    assert listed == 0
    assert len(state.legal_actions()) > 500_000  # what listing them would have cost
    drawing = game.new_game(3).apply(Roll())
    words = DiceStacksView().status(drawing, ("Ana", "Ben"))
    (draw,) = drawing.legal_actions()
    assert f"Draw {draw.count} first" in words


# --- issue 26 item 18: an empty hand, the marker, how the score is made ------------------
def _emptying_table(stock: str = "2C 3C 4C"):
    """A table where the person's one card, 8♥, is a stack of 3 + 5 (the stock not empty)."""
    import dataclasses

    from mathcards.cards import parse_cards
    from mathcards.table import TableController

    state = DiceStacks(num_players=2).position("8H", (3, 5))
    state = dataclasses.replace(state, stock=parse_cards(stock))
    return TableController(DiceStacksView(), seats=("human", "strong"), state=state,
                           bot_delay=0, save=False)


def test_an_emptied_hand_ends_the_turn_by_itself():
    from mathcards.cards import parse_card
    from mathcards.games.dice_stacks import Phase

    ctl = _emptying_table()
    ctl.play(LayStack((parse_card("8H"),)))
    state = ctl.state
    assert state.run_outs[0] == 1 and state.markers[0] == (parse_card("4C"),)
    assert state.current_player == 0 and state.phase == Phase.ROLL  # another whole turn
    assert any("ran out of cards" in line for line in ctl.history)


def test_the_run_out_says_what_its_card_is_for():
    ctl = _emptying_table()
    from mathcards.cards import parse_card

    ctl.play(LayStack((parse_card("8H"),)))
    said = " ".join(ctl.history)
    assert "marker" not in said
    assert "4♣ from the stock is turned face up beside them to count it" in said


def test_the_seat_shows_how_its_score_is_made():
    from mathcards.cards import parse_card

    ctl = _emptying_table()
    ctl.play(LayStack((parse_card("8H"),)))
    state = ctl.state
    assert state.scores[0] == 2  # 1 stack point + 1 run-out point
    board = DiceStacksView().board_html(state, state.observation(0), ctl.seat_names)
    assert "score 2 = 1 stack point + 1 run-out point" in board
