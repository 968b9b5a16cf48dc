"""A seat's snapshot (``TableController.snapshot``): what one screen shows, typed and frozen.

A seat's snapshot never holds another seat's hidden hand (seeded games of every registered
game, played by a person and bots, a snapshot of every seat after each move), building one
changes nothing at the table, and the ipywidgets table draws exactly what the snapshot says.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathcards.asking import SHOW
from mathcards.cards import Card
from mathcards.games.registry import BUILTIN_GAMES, get_game_class, make_game
from mathcards.table import Refused, TableController
from mathcards.table_snapshot import SeatSnapshot
from mathcards.widgets import make_view
from mathcards.widgets.cards import esc
from mathcards.widgets.table import GameTable
from tests.widgets.helpers import click_something


def _text(snap: SeatSnapshot) -> str:
    """Every word and drawing of a snapshot, as one string (but the game's example of a
    typed move, the same at every table: "7H -")."""
    return repr(dataclasses.astuple(dataclasses.replace(snap, move_example="")))


def _shows(text: str, card: Card) -> bool:
    """``card`` named in ``text`` (its code "7H" or its symbol "7♥", not inside "17♥"; a card
    named in words, "Little Moon", by its code only: the rules' sentences say the words)."""
    names = (str(card),) + ((card.symbol,) if " " not in card.symbol else ())
    return any(re.search(rf"(?<![\w▲★]){re.escape(name)}(?!\w)", text) for name in names)


def _table(name: str, seed: int, players: int) -> TableController:
    game = make_game(name, num_players=players)
    return TableController(make_view(name), game,
                           seats=("human",) + ("random",) * (players - 1), seed=seed,
                           bot_seed=seed, bot_delay=0, save=False, level=SHOW)


def _check_every_seat(ctl: TableController) -> None:
    state = ctl.state
    kept = (ctl.viewer, ctl.picked, ctl.selected, ctl.hint_level, ctl.message)
    for seat in (*range(len(ctl.seats)), None):
        snap = ctl.snapshot(seat)
        assert snap.seat == seat
        text = _text(snap)
        own = () if seat is None else tuple(getattr(state.observation(seat), "hand", ()))
        if not snap.holding:
            assert tuple(c.card for c in snap.hand) == own
        # what this seat may know: its own observation (no seat: what every seat sees), and
        # the move list, said alike to every seat (a card named there in an earlier round
        # may be in a hand again after a shuffle)
        seen = [repr(state.observation(s)) for s in range(len(ctl.seats))]
        known = " ".join(snap.history) + (seen[seat] if seat is not None else "")
        for other in range(len(ctl.seats)):
            if other == seat:
                continue
            for card in getattr(state.observation(other), "hand", ()):
                if seat is None and all(repr(card) in obs for obs in seen):
                    continue  # the same card (another deck's) lies in sight of everyone
                if (seat is not None and repr(card) in known) or _shows(known, card):
                    continue
                assert not _shows(text, card), (
                    f"seat {seat}'s snapshot shows {card.symbol} of seat {other}'s hand "
                    f"at move {snap.moves}")
    # building a snapshot of any seat leaves the table as it was
    assert (ctl.viewer, ctl.picked, ctl.selected, ctl.hint_level, ctl.message) == kept
    assert ctl.snapshot() == ctl.snapshot(ctl.viewer)


@pytest.mark.parametrize("name", BUILTIN_GAMES)
@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), extra=st.integers(0, 2))
def test_a_seats_snapshot_never_holds_another_seats_hidden_hand(name, seed, extra):
    cls = get_game_class(name)
    players = min(cls.max_players, cls.min_players + extra)
    ctl = _table(name, seed, players)
    rng = random.Random(seed)
    for _move in range(12):
        _check_every_seat(ctl)
        if ctl.state.is_over:
            break
        assert ctl.acting_human(), ctl.message  # the bots have moved (bot_delay=0)
        ctl.play(rng.choice(list(ctl.state.legal_actions())))


def test_a_snapshot_is_frozen_and_names_only_real_seats():
    ctl = _table("sums", 5, 2)
    snap = ctl.snapshot()
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.status = "changed"  # type: ignore[misc]
    for seat in (2, -1, "0", True):
        with pytest.raises(Refused):
            ctl.snapshot(seat)


def test_a_snapshot_holds_no_markup_but_the_drawn_board_and_the_explainers_steps():
    """Words and data only: no HTML tag and no CSS class name in any field but the board
    (drawn by the game's view, a widgets/ module) and the explanation (the explainer's
    steps, HTML with LaTeX); the banner's look is a word ("you") the table turns into a
    class."""
    ctl = _table("sums", 3, 2)
    rng = random.Random(3)
    for _move in range(30):
        snap = ctl.snapshot()
        rest = dataclasses.replace(snap, board_html="", explanation=None)
        text = repr(dataclasses.astuple(rest))
        assert "<" not in text and "mc-" not in text, text
        assert snap.turn in ("you", "other", "over")
        if ctl.state.is_over:
            break
        ctl.play(rng.choice(list(ctl.state.legal_actions())))


def _drawn(table: GameTable, snap: SeatSnapshot) -> None:
    """The table's synced fields say what the snapshot says."""
    assert snap.board_html in table.w_board.value
    assert [cb.key for cb in table.hand_buttons.pool if cb.key is not None] == [
        c.key for c in snap.hand]
    assert [not cb.button.disabled for cb in table.hand_buttons.pool if cb.key is not None] == [
        c.enabled for c in snap.hand]
    assert table.choice_keys == [c.key for c in snap.choices]
    assert [b.description for b in table.choice_pool] == [c.label for c in snap.choices]
    assert esc(snap.message if snap.refused else snap.status) in table.w_status.value
    assert esc(snap.turn_banner) in table.w_turn.value
    assert (esc(snap.latest) in table.w_latest.value) if snap.latest else not table.w_latest.value
    assert (esc(snap.hint) in table.w_hint.value) if snap.hint else not table.w_hint.value
    for line in snap.history[-5:]:
        assert f"<li>{esc(line)}</li>" in table.w_history.value
    assert esc(snap.explanation.text or "No move yet.") in table.w_step_text.value
    assert f'data-move="{snap.moves}"' in table.w_sync.value
    assert f'data-busy="{int(snap.busy)}"' in table.w_sync.value
    for name, score in zip(snap.seat_names, snap.scores, strict=True):
        assert f"{esc(name)}: {score}" in table.w_header.value
    assert table.w_move.disabled is not snap.your_turn


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_the_table_draws_what_the_snapshot_says(name):
    table = GameTable(make_view(name), make_game(name, num_players=2),
                      seats=("human", "strong"), seed=3, bot_delay=0, save=False, level=SHOW)
    rng = random.Random(3)
    for _click in range(25):
        _drawn(table, table.ctl.snapshot())
        if table.state.is_over:
            break
        if rng.random() < 0.2 and table.ctl.acting_human():
            table.w_hint_buttons[0].click()  # a hint is drawn too
            _drawn(table, table.ctl.snapshot())
        click_something(table, rng)
