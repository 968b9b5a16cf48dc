"""The sixth game: ``examples/make_ten`` is one package and one registration (issue 27).

Registered here only (``registered``: MathCards never registers it, so the app's landing
page keeps its five games), it is served everywhere a game is found by name, and the
suites written for every game pass on it unchanged: the conformance suite, the event
wording, the table controller's clicks and typed moves, the table's wording, a room of two
screens. Nothing outside ``examples/make_ten`` names it.
"""

from __future__ import annotations

import functools
import random

import pytest

from examples.make_ten import SPEC, MakeTen, Play
from mathcards import saves
from mathcards.errors import SettingsError
from mathcards.games.base import State
from mathcards.games.registry import (
    game_names,
    game_spec,
    make_game,
    register_game,
    registered,
    spec_by_code,
)
from tests import test_conformance, test_rooms, test_table_controller
from tests.games import test_event_wording
from tests.widgets import test_wording


@pytest.fixture
def make_ten():
    with registered(SPEC):
        yield SPEC
    assert "make_ten" not in game_names()


# every suite that means "every game", called as its parametrisation would call it
SUITES = {
    "conformance: hypothesis playouts": functools.partial(
        test_conformance.test_random_playouts_keep_every_invariant, "make_ten"),
    "conformance: a thousand seeded playouts": functools.partial(
        test_conformance.test_a_thousand_seeded_playouts, "make_ten"),
    "conformance: strong bots": functools.partial(
        test_conformance.test_strong_bots_play_whole_games, "make_ten"),
    "conformance: corrupted saves": functools.partial(
        test_conformance.test_a_corrupted_save_is_refused_and_names_the_problem, "make_ten"),
    "event wording": functools.partial(
        test_event_wording.test_every_event_names_seats_as_player_n, "make_ten"),
    "table: whole games by clicks": functools.partial(
        test_table_controller.test_a_controller_plays_whole_games_by_what_it_offers,
        "make_ten", 3),
    "table: typed moves": functools.partial(
        test_table_controller.test_a_typed_move_is_read_by_its_engines_parser_on_every_view,
        "make_ten"),
    "table: the typed move example": functools.partial(
        test_table_controller.test_the_typed_move_example_is_a_move_of_its_game, "make_ten"),
    "table: wording": functools.partial(
        test_wording.test_no_table_says_1_points_or_you_s, "make_ten"),
}


@pytest.mark.parametrize("suite", list(SUITES))
def test_make_ten_passes_every_game_suite(make_ten, suite):
    SUITES[suite]()


def test_make_ten_passes_every_all_games_suite_by_its_plugin(tmp_path):
    """The suites above are called here by hand; some take their games when pytest collects
    them (the clicks, the table's value, rooms, deal privacy, the words of the pages).
    Registered by its pytest plugin (as docs/new_game.md says), every one runs on it."""
    from tests.test_scaffold import REPO, run_all_games_suites

    ran = run_all_games_suites(REPO, "examples.make_ten", "make_ten", tmp_path / "report.xml")
    assert ran["tests/test_rooms.py"] >= 3


def test_a_room_of_two_screens_plays_make_ten_to_the_end(make_ten, tmp_path):
    test_rooms.test_classmates_play_a_whole_game_each_on_their_own_page(tmp_path, "make_ten", 2)


def test_the_app_does_not_register_it():
    from mathcards.widgets.lesson import landing_markdown

    assert "make_ten" not in game_names()
    assert 'id="game-make_ten"' not in landing_markdown()
    with pytest.raises(SettingsError, match="unknown game 'make_ten'"):
        make_game("make_ten")


def test_registered_it_is_on_the_landing_page_and_in_the_class_link_builder(make_ten):
    from mathcards.widgets import table_games
    from mathcards.widgets.exercises import class_link
    from mathcards.widgets.lesson import landing_markdown

    assert game_names()[-1] == "make_ten" and game_spec("make_ten") is SPEC
    text = landing_markdown()
    assert 'id="game-make_ten"' in text and 'href="play_make_ten.ipynb"' in text
    assert "number bonds to ten" in text
    assert "make_ten" in table_games()
    link = class_link("play:make_ten", players=3, seed=77)
    assert link.startswith("play_make_ten.ipynb?deal=TEN-3P-")


def test_deal_codes_and_saves_of_make_ten(make_ten, tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    game = MakeTen(num_players=3)
    code = saves.deal_code(game, 1234)
    assert code.startswith("TEN-3P-") and spec_by_code("TEN") is SPEC
    again, seed = saves.read_deal_code(code.lower())
    assert (again, seed) == (game, 1234)
    state = game.new_game(seed)
    for _ in range(5):
        state = state.apply(sorted(state.legal_actions(), key=str)[0])
    assert State.from_json(state.to_json()) == state
    path = saves.save_table(state, ("human", "random", "strong"), slot="ana")
    assert path.name == "make_ten-ana.json"
    loaded, problem = saves.load_table("make_ten", "ana")
    assert loaded is not None and loaded.state == state and not problem


def test_its_play_page_deals_plays_with_bots_and_saves(make_ten, tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    from mathcards.widgets import play

    table = play("make_ten", seats=("human", "strong"), bot_delay=0, save=True, query="",
                 ask_name=False, student="ana")
    ctl = table.ctl
    rng = random.Random(3)
    clicks = 0
    while not ctl.state.is_over:
        keys = [c.key for c in ctl.card_states() if c.enabled]
        assert keys, ctl.message
        assert ctl.attempt(ctl.click_card, rng.choice(keys)), ctl.message
        clicks += 1
        if clicks == 3:  # the bot has answered: the save holds both moves
            saved, problem = saves.load_table("make_ten", "ana")
            assert saved is not None and saved.state == ctl.state and not problem
            assert len(ctl.state.history) == 6
    assert ctl.moment is not None and ctl.moment.kind == "game"
    assert ctl.message.startswith("Game over") and ctl.message == ctl.final_words()
    assert saves.load_table("make_ten", "ana") == (None, "")  # a finished game is cleared


def test_a_second_game_of_the_same_name_or_code_is_refused(make_ten):
    import dataclasses

    game_spec("sums")  # loaded: its prefix is taken
    with pytest.raises(SettingsError, match="already registered"):
        register_game(dataclasses.replace(SPEC, code="TEN2"))
    with pytest.raises(SettingsError, match="'SUMS' is already sums's"):
        register_game(dataclasses.replace(SPEC, name="make_eleven", code="SUMS"))
    assert Play in MakeTen.action_types
