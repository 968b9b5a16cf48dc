"""Moments at the widget table: the turn banner, a round won with its arithmetic and its
Next round button, bots' moves one redraw each, and the short game a fresh page offers."""

from __future__ import annotations

import random
import re

from mathcards.table import NEXT_ROUND
from mathcards.widgets.cards import esc
from mathcards.widgets.suns_to_moons import suns_to_moons_table
from tests.widgets.helpers import click_something
from tests.widgets.test_safety import _assert_no_leak, _public_between, _seen, _synced_text


def _held_table(seed: int):
    """A Suns to Moons table (first to 3, bots with a pause) played by clicks to its first
    held round moment; the bots' timers are kept in ``pending``."""
    pending: list = []
    table = suns_to_moons_table(players=3, target_score=3, seed=seed, bot_delay=0.4,
                                save=False, seats=("human", "strong", "strong"),
                                schedule=lambda _d, fn: pending.append(fn))
    rng = random.Random(seed)
    known: set = set()
    for _ in range(3000):
        if table.ctl.holding:
            return table, pending, known
        known |= _seen(table)
        _assert_no_leak(table, known)
        before = table.state
        if table.ctl.acting_human():
            click_something(table, rng)
        else:
            pending.pop(0)()
        known |= _public_between(before, table.state)
    raise AssertionError("no round was won")


def test_banner_and_round_won_moment_are_in_the_synced_html_and_next_round_plays_on():
    table, pending, known = _held_table(4)
    moment = table.ctl.moment
    synced = _synced_text(table)
    # the banner at the top, in large type, said politely to screen readers
    assert table.w_main.children[0] is table.w_turn
    assert 'class="mc-turn mc-turn-over" role="status" aria-live="polite"' in table.w_turn.value
    assert "Round over: click Next round" in synced
    # the moment: its headline and its arithmetic, the engine's numbers
    assert "mc-hide" not in table.w_moment_box._dom_classes
    assert table.w_main.children[1] is table.w_moment_box
    assert f'<div class="mc-moment-headline">{moment.headline}</div>' in table.w_moment.value
    assert moment.headline in ("You won the round!", "Player 2 (bot) won the round",
                               "Player 3 (bot) won the round")
    sum_line = next(line for line in moment.lines if "made the deck" in line)
    assert esc(sum_line) in table.w_moment.value
    assert re.search(r"= −?\d+, the goal", table.w_moment.value)
    _assert_no_leak(table, known)  # the moment shows no bot's hand
    # Next round is the only choice, primary, in the moment's own row at the top
    assert table.choice_keys == [NEXT_ROUND]
    button = table.choice_pool[0]
    assert button.description == "Next round" and "mc-primary" in button._dom_classes
    assert list(table.w_moment_choices.children) == [button]
    assert button not in table.w_choices.children
    moves = len(table.state.history)
    assert not pending and not table.ctl.busy  # nobody moves during the moment
    button.click()
    assert table.ctl.moment is None and "mc-hide" in table.w_moment_box._dom_classes
    assert NEXT_ROUND not in table.choice_keys and not table.w_moment_choices.children
    if table.ctl.acting_human():  # the person starts the round: their cards are offered
        assert table.w_turn.value.count("Your turn") == 1
        click_something(table, random.Random(1))
    else:
        assert "is playing…" in table.w_turn.value
        pending.pop(0)()
    assert len(table.state.history) > moves  # the next round is played


def test_with_a_bot_delay_each_bot_move_is_its_own_redraw_in_order():
    pending: list = []
    table = suns_to_moons_table(players=4, seed=9, bot_delay=0.4, save=False,
                                seats=("human", "strong", "random", "strong"),
                                schedule=lambda _d, fn: pending.append(fn))
    rng = random.Random(9)
    redraws: list[tuple[int, str]] = []
    original = table._refresh

    def counted() -> None:
        original()
        redraws.append((len(table.state.history), table.w_latest.value))

    table._refresh = counted
    bot_moves = 0
    while bot_moves < 12 and not table.state.is_over:
        if table.ctl.holding:
            table.choice_pool[0].click()
        elif table.ctl.acting_human():
            click_something(table, rng)
        else:
            mover = table.state.current_player
            redraws.clear()
            moves = len(table.state.history)
            pending.pop(0)()  # one timer: one bot move
            assert len(table.state.history) == moves + 1
            assert len(redraws) == 1, redraws  # ... drawn once, on its own
            drawn_at, latest = redraws[0]
            assert drawn_at == moves + 1
            name = f"Player {mover + 1} (bot)"
            assert f"<strong>Latest:</strong> {name}" in latest and "mc-latest-bot" in latest
            assert table.ctl.latest.startswith(name) and esc(table.ctl.latest) in latest
            assert len(pending) <= 1  # the next bot waits for its own pause
            bot_moves += 1
    assert bot_moves == 12


def test_a_fresh_play_page_starts_with_the_short_game_and_offers_the_full_one():
    from mathcards.games.registry import make_game
    from mathcards.saves import deal_code
    from mathcards.widgets import play

    table = play("suns_to_moons", query="delay=0", save=False)
    assert table.state.game.target_score == 3
    assert "mc-hide" not in table.w_length_box._dom_classes
    assert "Short game: first to 3" in table.w_length_text.value
    assert table.w_length.description == "Play a full game instead (first to 10)"
    table.w_length.click()
    assert table.state.game.target_score == 10
    assert "Full game: first to 10" in table.w_length_text.value
    # a deal code keeps its own settings, and offers nothing
    code = deal_code(make_game("suns_to_moons", num_players=2), 5)
    dealt = play("suns_to_moons", query=f"deal={code}&delay=0", save=False)
    assert dealt.state.game.target_score == 10
    assert "mc-hide" in dealt.w_length_box._dom_classes
    moon = play("shoot_the_moon", query="delay=0", save=False)
    assert moon.state.game.target_chips == 5
    sums = play("sums", query="delay=0", save=False)  # no short game: nothing offered
    assert "mc-hide" in sums.w_length_box._dom_classes


def test_a_held_round_shows_the_deck_that_reached_the_goal_not_the_next_deal():
    """Issue 26 item 16: behind "You won the round!" the table showed the next round's
    deal already (its goal, its centre card, the new hand); it waits for Next round."""
    from mathcards.games.suns_to_moons import RoundWon

    table, _pending, _known = _held_table(4)
    won = next(e for e in table.state.new_events if isinstance(e, RoundWon))
    reached = sum(won.counted)
    board = table.w_board.value
    assert f'data-deck-value="{reached}"' in board and reached == won.goal
    new_centre = table.state.table[0].card  # the next round's centre card, dealt already
    assert "the deck that reached the goal" in board
    assert len(re.findall(r'class="mc-played', board)) == len(won.table)
    assert not table.hand_buttons.pool or all(b.key is None for b in table.hand_buttons.pool)
    assert "Next round" in table.w_hand_title.value
    assert "Make the deck" not in table.w_status.value  # the next round's goal waits too
    table.choice_pool[0].click()  # Next round
    assert not table.ctl.holding
    board = table.w_board.value
    assert "the deck that reached the goal" not in board
    assert new_centre.name in board and f'data-deck-value="{table.state.deck_value}"' in board
    if table.ctl.acting_human():
        assert table.ctl.hand() and "cards)" in table.w_hand_title.value


def test_the_finished_game_shows_the_goal_the_deck_reached():
    """At game over the table read "Goal 3 · deck value 2": the goal after the winning
    point, beside the deck that reached the goal before it."""
    from mathcards.games.suns_to_moons import SunsToMoons

    table = suns_to_moons_table(players=2, target_score=1, seed=3, bot_delay=0, save=False)
    rng = random.Random(3)
    for _ in range(3000):
        if table.state.is_over:
            break
        click_something(table, rng)
    state = table.state
    assert state.is_over and isinstance(state.game, SunsToMoons)
    assert state.goal == state.deck_value == 0  # first to 1 point: the goal was 0
    assert 'Goal 0 · deck value <span data-deck-value="0">0</span>' in table.w_board.value
