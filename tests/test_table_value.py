"""The table as a value (issue 39 item 1): whole games through ``step`` alone, with no
widget, thread or timer; the same games as ``TableController`` plays them, click for
click; refusals that change nothing but the status line; replays that give the same
tables."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathcards import saves
from mathcards.games.registry import game_spec, resolve
from mathcards.table import TableController
from mathcards.table_value import (
    AnnounceMoment,
    AskHint,
    BotTurn,
    ClickCard,
    ClickChoice,
    GameOver,
    Intent,
    NextRound,
    Ready,
    RefusedIntent,
    RemoteMove,
    SaveTable,
    ScheduleBot,
    Table,
    TypeMove,
    acting_human,
    card_states,
    deal,
    holding,
    offered_choices,
    run,
    step,
    waiting_for_ready,
)
from tests.registered import every_game

TABLES = tuple(g for g in every_game() if game_spec(g).view)


def _view(game: str):
    return resolve(game_spec(game).view)()


def _game(name: str):
    cls = game_spec(name).engine
    return cls(num_players=max(2, cls.min_players))


def _dealt(name: str, seed: int, seats=None, *, pauses: bool = False):
    game = _game(name)
    seats = seats or ("human",) + ("strong",) * (game.num_players - 1)
    private = saves.new_private_seed() if saves.has_private_deal(game) else None
    return deal(_view(name), game, seats, seed, private_seed=private, bot_seed=seed,
                pauses=pauses)


def _table(name: str, seed: int, seats=None, *, pauses: bool = False) -> Table:
    table, effects = _dealt(name, seed, seats, pauses=pauses)
    return run(table, [], pending=effects)[0]  # the bots who open the game


def _offered(t: Table, rng: random.Random) -> Intent:
    """One thing a student could click now, as the clicker of test_table_controller picks."""
    if holding(t):
        return ClickChoice("next-round")
    if waiting_for_ready(t) is not None:
        return Ready()
    cards = [c.key for c in card_states(t) if c.enabled]
    choices = [c.key for c in offered_choices(t)
               if not c.key.startswith("off:") and c.key not in ("back", "clear")]
    options = [ClickCard(k) for k in cards] + [ClickChoice(k) for k in choices]
    assert options, f"nothing offered at move {len(t.state.history)}: {t.message}"
    return rng.choice(options)


def _play_out(t: Table, rng: random.Random, limit: int = 5000) -> tuple[Table, list]:
    effects: list = []
    for _click in range(limit):
        if t.state.is_over:
            return t, effects
        t, new = run(t, [_offered(t, rng)])
        assert not t.refused, t.message
        effects.extend(new)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("game", TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_through_step_alone(game, seed):
    t, effects = _play_out(_table(game, seed), random.Random(seed))
    assert t.state.is_over and t.message.startswith("Game over")
    assert t.told.history and t.told.explanation.text
    saved = [e.state for e in effects if isinstance(e, SaveTable)]
    assert saved[-1] == t.state  # every move is saved, the last one too
    assert all(len(b.history) > len(a.history) for a, b in itertools.pairwise(saved))
    assert sum(isinstance(e, GameOver) for e in effects) == 1
    assert isinstance(effects[-1], (GameOver, AnnounceMoment, SaveTable))


@pytest.mark.parametrize("game", TABLES)
def test_a_round_won_holds_the_table_until_next_round(game):
    t = _table(game, 4, pauses=True)
    rng = random.Random(4)
    rounds = held = 0
    for _click in range(5000):
        if t.state.is_over:
            break
        if holding(t):
            held += 1
            # nothing but "Next round" moves the table: a bot's turn is held too
            p = t.state.current_player
            if p is not None:
                assert step(t, BotTurn(p))[0] is t
            assert step(t, TypeMove(t.state.game.move_example))[0].refused
        t, effects = run(t, [_offered(t, rng)])
        assert not t.refused, t.message
        rounds += sum(isinstance(e, AnnounceMoment) and e.moment.is_round for e in effects)
    assert t.state.is_over
    assert held == rounds, "each round won held the table until Next round"


def test_hot_seat_hides_each_hand_until_ready():
    t = _table("suns_to_moons", 3, seats=("human", "human"))
    assert t.viewer is None and waiting_for_ready(t) == t.state.current_player
    assert step(t, ClickCard("card:AS"))[0].refused  # no hand shown: nothing to click
    t, _ = step(t, Ready())
    assert t.viewer == t.state.current_player and acting_human(t)
    mover = t.viewer
    t, _ = run(t, [_offered(t, random.Random(3))])
    while t.state.current_player == mover and not t.state.is_over:
        t, _ = run(t, [_offered(t, random.Random(3))])
    assert t.viewer is None  # the next player's hand waits for "I'm ready"


# ---------------------------------------------------------------------------- vs the controller
def _controller(t: Table, seed: int) -> TableController:
    return TableController(_view(t.game_name), state=t.state, seats=t.seats, bot_delay=0,
                           save=False, bot_seed=seed)


def _same(ctl: TableController, t: Table, where: str) -> None:
    assert ctl.state == t.state, where
    assert (ctl.message, ctl.refused) == (t.message, t.refused), where
    assert (ctl.picked, ctl.selected, ctl.viewer) == (t.picked, t.selected, t.viewer), where
    assert tuple(ctl.history) == t.told.history, where
    assert (ctl.latest, ctl.latest_by_bot) == (t.told.latest, t.told.latest_by_bot), where
    assert ctl.moment == t.told.moment, where
    assert ctl.explanation == t.told.explanation, where
    assert [c.key for c in ctl.card_states()] == [c.key for c in card_states(t)], where
    assert ([(c.key, c.label, c.tooltip) for c in ctl.offered_choices()]
            == [(c.key, c.label, c.tooltip) for c in offered_choices(t)]), where


@pytest.mark.parametrize("game", TABLES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_step_plays_the_same_game_as_the_controller_click_for_click(game, seed):
    dealt, effects = _dealt(game, seed)
    ctl = _controller(dealt, seed)  # its bots open the game as it starts
    t, _ = run(dealt, [], pending=effects)
    _same(ctl, t, "after the deal")
    rng = random.Random(seed)
    for click in range(5000):
        if t.state.is_over:
            break
        intent = _offered(t, rng)
        if isinstance(intent, ClickCard):
            ctl.attempt(ctl.click_card, intent.key)
        elif isinstance(intent, ClickChoice):
            ctl.attempt(ctl.click_choice, intent.key)
        else:
            ctl.ready()
        t, _ = run(t, [intent])
        _same(ctl, t, f"click {click}: {intent}")
    assert t.state.is_over and ctl.state.is_over


@pytest.mark.parametrize("game", TABLES)
def test_refusals_are_the_controllers_words(game):
    dealt, effects = _dealt(game, 5)
    ctl = _controller(dealt, 5)
    t, _ = run(dealt, [], pending=effects)
    for intent, call in [(ClickChoice("sign:+99"), (ctl.click_choice, "sign:+99")),
                         (ClickCard("card:ZZ"), (ctl.click_card, "card:ZZ")),
                         (TypeMove("x" * 100), (ctl.type_move, "x" * 100)),
                         (TypeMove(""), (ctl.type_move, "")),
                         (ClickCard(None), (ctl.click_card, None)),
                         (TypeMove("zz zz"), (ctl.type_move, "zz zz"))]:
        after, effects = step(t, intent)
        assert not ctl.attempt(*call)
        assert after.refused and after.message == ctl.message, intent
        assert effects == (RefusedIntent(after.message),)
        assert replace(after, message=t.message, refused=t.refused) == t


# ---------------------------------------------------------------------------- properties
_any_key = st.one_of(st.none(), st.integers(-3, 99), st.text(max_size=12),
                     st.sampled_from(["card:7H", "card:AS", "h0", "h99", "back", "lay",
                                      "clear", "next-round", "sign:+", "sign:-", "ans:1"]))
_intents = st.one_of(st.builds(ClickCard, _any_key), st.builds(ClickChoice, _any_key),
                     st.builds(TypeMove, st.one_of(st.text(max_size=90), st.integers())),
                     st.just(NextRound()), st.just(Ready()), st.builds(AskHint, _any_key),
                     st.builds(BotTurn, st.integers(0, 4)),
                     st.builds(RemoteMove, st.text(max_size=5)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(TABLES), seed=st.integers(0, 2**16),
       intents=st.lists(_intents, max_size=25))
def test_step_never_changes_its_input_and_a_refusal_changes_only_the_status(
        game, seed, intents):
    t = _table(game, seed)
    for intent in intents:
        kept = (t.state, t.seats, t.bots, t.viewer, t.picked, t.selected, t.told, t.message)
        after, effects = step(t, intent)
        assert (t.state, t.seats, t.bots, t.viewer, t.picked, t.selected, t.told,
                t.message) == kept
        refusals = [e for e in effects if isinstance(e, RefusedIntent)]
        if refusals:  # refused: only the status line says why
            assert effects == (RefusedIntent(after.message),) and after.message
            assert after.refused
            assert replace(after, message=t.message, refused=t.refused) == t
        elif after is not t:  # done: nothing refused stays on the status line
            assert not after.refused
        for effect in effects:
            if isinstance(effect, ScheduleBot):
                assert after.seats[effect.seat] in ("random", "strong")
        t = after


@pytest.mark.parametrize("game", TABLES)
def test_a_replay_of_the_intents_gives_the_same_tables(game):
    rng = random.Random(9)
    t = start = _table(game, 9)
    intents: list[Intent] = []
    tables = []
    for _click in range(60):
        if t.state.is_over:
            break
        intent = _offered(t, rng)
        intents.append(intent)
        t, _ = run(t, [intent])
        tables.append(t)
    again = start
    for intent, expected in zip(intents, tables, strict=True):
        again, _ = run(again, [intent])
        assert again == expected
