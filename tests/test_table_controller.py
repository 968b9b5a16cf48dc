"""The table controller plays whole games with no widget library loaded."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from mathcards.games.registry import game_spec, game_specs, resolve
from mathcards.table import Refused, TableController
from tests.registered import trick_tables

TABLES = tuple(s.name for s in game_specs() if s.view)  # every game with a table


def _view(game: str):
    return resolve(game_spec(game).view)()


def click_to_end(ctl: TableController, rng: random.Random, limit: int = 5000) -> int:
    """Click what the controller offers (cards, then choices) until the game ends."""
    clicks = 0
    while not ctl.state.is_over:
        cards = [c.key for c in ctl.card_states() if c.enabled]
        choices = [c.key for c in ctl.offered_choices()
                   if not c.key.startswith("off:") and c.key not in ("back", "clear")]
        if ctl.selecting and ctl.selected and rng.random() < 0.3:
            choices.append("clear")
        options = [("card", k) for k in cards] + [("choice", k) for k in choices]
        assert options, f"nothing offered at move {len(ctl.state.history)}: {ctl.message}"
        kind, key = rng.choice(options)
        before = len(ctl.state.history)
        done = ctl.attempt(ctl.click_card if kind == "card" else ctl.click_choice, key)
        assert done and not ctl.refused, f"{key} refused: {ctl.message}"
        assert len(ctl.state.history) >= before
        clicks += 1
        assert clicks < limit, "the game did not end"
    return clicks


@pytest.mark.parametrize("game", sorted(TABLES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_controller_plays_whole_games_by_what_it_offers(game, seed):
    if game in trick_tables():
        from mathcards.games.registry import make_game

        game_obj = make_game(game, num_players=3)
        ctl = TableController(_view(game), game_obj, seed=None, bot_delay=0, save=False,
                              bot_seed=seed)
        assert ctl.deal_code == ""  # its code would show every hand: a secret deal
        click_to_end(ctl, random.Random(seed))
        assert ctl.state.is_over and ctl.message.startswith("Game over")
        return
    heard: list[str] = []
    ctl = TableController(_view(game), seed=seed, bot_delay=0, save=False, bot_seed=seed,
                          listener=heard.append)
    assert "start" in heard and "table" in heard
    clicks = click_to_end(ctl, random.Random(seed))
    assert clicks > 0 and ctl.state.is_over
    assert ctl.message.startswith("Game over")
    assert ctl.history and ctl.explanation.text


def test_refusals_change_nothing_and_say_why():
    ctl = TableController(_view("sums"), seed=5, bot_delay=0, save=False)
    before = ctl.state
    for fn, arg in [(ctl.click_choice, "sign:+99"), (ctl.click_card, "card:ZZ"),
                    (ctl.type_move, "x" * 100), (ctl.type_move, ""), (ctl.click_card, None)]:
        assert not ctl.attempt(fn, arg)
        assert ctl.refused and ctl.message and ctl.state is before
    with pytest.raises(Refused, match="not a move of this game"):
        ctl.play("capture everything")


def test_bots_wait_for_the_scheduler_and_stale_timers_do_nothing():
    pending = []
    ctl = TableController(_view("suns_to_moons"), seats=("random", "human"), seed=7,
                          bot_delay=0.5, save=False,
                          schedule=lambda delay, fn: pending.append((delay, fn)))
    first = ctl.state.current_player
    if first == 1:  # the person starts: play one move so the bot is due
        click = next(c.key for c in ctl.card_states() if c.enabled)
        ctl.attempt(ctl.click_card, click)
        while ctl.state.current_player == 1 and not ctl.state.is_over:
            choice = next(c.key for c in ctl.offered_choices() if not c.key.startswith("off:"))
            ctl.attempt(ctl.click_choice, choice)
    assert ctl.busy and pending and pending[0][0] == 0.5
    moves = len(ctl.state.history)
    ctl.new_game()  # a new deal: the old timer must not move in it
    stale = pending.pop(0)[1]
    newer = len(ctl.state.history)
    stale()
    assert len(ctl.state.history) == newer
    while pending and ctl.busy:
        pending.pop(0)[1]()
    assert not ctl.busy or ctl.state.is_over
    assert moves >= 0


def test_the_controller_never_loads_a_widget_library():
    code = (
        "import random, sys\n"
        "from tests.test_table_controller import TableController, _view, click_to_end\n"
        "for game in ('suns_to_moons', 'dice_stacks', 'sums', 'shoot_the_moon'):\n"
        "    ctl = TableController(_view(game), seed=4, bot_delay=0, save=False)\n"
        "    click_to_end(ctl, random.Random(4))\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'traitlets',"
        " 'IPython'))\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("game", trick_tables())
def test_the_trick_view_reads_typed_moves_with_the_engines_parser(game):
    from mathcards.games.registry import make_game
    from mathcards.widgets.tricks import TrickView

    view = TrickView(game)
    start = make_game(game, num_players=3).new_game(3)
    ctl = TableController(view, seats=("human", "random", "random"), state=start, bot_delay=0,
                          save=False, bot_seed=3)
    rng = random.Random(3)
    moves = 0
    while not ctl.state.is_over and moves < 30:
        assert ctl.acting_human()  # the bots answer at once
        legal = list(ctl.state.legal_actions())
        action = rng.choice(legal)
        # the words a move prints as are read back as that move, and played
        assert view.parse_move(ctl.state, str(action)) == action
        assert ctl.attempt(ctl.type_move, str(action)), ctl.message
        moves += 1
    assert moves == 30 or ctl.state.is_over
    before = ctl.state
    assert not ctl.attempt(ctl.type_move, "ZZ")
    assert ctl.refused and ctl.state is before


@pytest.mark.parametrize("game", TABLES)
def test_a_typed_move_is_read_by_its_engines_parser_on_every_view(game):
    """The views' typed moves and the plain ``GameView`` default read with the one parser."""
    from mathcards.bots import Bot
    from mathcards.errors import MathCardsError
    from mathcards.games.registry import make_game
    from mathcards.table import GameView

    plain = GameView()
    plain.game_name = game
    engine = game_spec(game)
    state = make_game(game, num_players=2).new_game(5)
    view = _view(game)

    def read(parse, text):
        try:
            return parse(state, text)
        except MathCardsError as exc:  # a refusal: the same words from each
            return str(exc)

    for step in range(40):
        if state.is_over:
            break
        texts = [state.game.move_example, "ZZ", *(str(a) for a in state.legal_actions())][:8]
        for text in texts:
            assert read(plain.parse_move, text) == read(engine.parse_move, text)
            assert read(view.parse_move, text) == read(engine.parse_move, text)
        state = state.apply(Bot(game, "random", seed=step).choose(state))


@pytest.mark.parametrize("game", TABLES)
def test_the_typed_move_example_is_a_move_of_its_game(game):
    """The typed-move box's example ('e.g. play 7H') is read by that game's own parser:
    it names a move of the game (refused by the rules at worst), never 'not a move'."""
    from mathcards.bots import Bot
    from mathcards.errors import IllegalActionError
    from mathcards.games.registry import make_game

    view = _view(game)
    state = make_game(game, num_players=2).new_game(3)
    example = state.game.move_example
    assert example
    read = 0
    for step in range(300):
        if state.is_over:
            break
        try:
            action = view.parse_move(state, example)
        except IllegalActionError:  # a move of the game the rules refuse here
            read += 1
        else:
            assert isinstance(action, state.game.action_types), (example, action)
            read += 1
        state = state.apply(Bot(game, "random", seed=step).choose(state))
    assert read >= 1
    ctl = TableController(_view(game), bot_delay=0, save=False, resume="never")
    with pytest.raises(Refused, match=f"e.g. {example}$"):
        ctl.type_move("")
