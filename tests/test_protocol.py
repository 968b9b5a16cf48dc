"""The shared protocol on a tiny game: values, legality, history, saves."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

import pytest

from mathcards.cards import Card, parse_card, standard_deck
from mathcards.errors import IllegalActionError, SaveFileError, SettingsError
from mathcards.games import base, registry
from mathcards.games.base import Event, Game, History, State, decode_action, rng_for


@dataclass(frozen=True)
class Take:
    card: Card
    note: str | None = None

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True)
class Took(Event):
    card: Card | None = None


@dataclass(frozen=True)
class Toy(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 3
    actions: ClassVar[Mapping[str, type]] = {"take": Take}

    def _new_game(self, seed: int) -> State:
        cards = list(standard_deck())
        rng_for(seed, 0).shuffle(cards)
        return ToyState(game=self, seed=seed, stock=tuple(cards[:4]))

    def deck(self):
        return standard_deck()


@dataclass(frozen=True, kw_only=True)
class ToyState(State):
    stock: tuple = ()
    taken: tuple = ()

    @property
    def current_player(self):
        return None if self.is_over else len(self.taken) % self.game.num_players

    @property
    def is_over(self):
        return not self.stock

    @property
    def scores(self):
        return tuple(len(self.taken[i :: self.game.num_players]) for i in range(2))

    def _legal_actions(self):
        return tuple(Take(c) for c in self.stock)

    def why_illegal(self, action):
        return f"{action.card} is not on the table"

    def _apply(self, action):
        stock = tuple(c for c in self.stock if c != action.card)
        return {"stock": stock, "taken": (*self.taken, action.card)}, [
            Took(self.current_player, action.card)
        ]


@pytest.fixture(autouse=True)
def toy_registered():
    spec = registry.GameSpec(name="toy", engine=Toy, code="TOY",
                             strong_policy=lambda observation, legal, rng: legal[0])
    with registry.registered(spec):
        yield


def test_settings_are_validated_with_a_clear_message():
    with pytest.raises(SettingsError, match="Toy is for 2-3 players, not 5"):
        Toy(num_players=5)
    with pytest.raises(SettingsError, match="whole number"):
        Toy(num_players="2")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="seed"):
        Toy().new_game(-1)
    with pytest.raises(SettingsError, match="unknown game 'chess'"):
        registry.make_game("chess")
    with pytest.raises(SettingsError, match="bad settings"):
        registry.make_game("toy", colour="blue")


def test_states_are_values_and_apply_returns_a_new_one():
    start = Toy().new_game(3)
    assert start == Toy().new_game(3) and start != Toy().new_game(4)
    move = start.legal_actions()[0]
    after = start.apply(move)
    assert len(start.stock) == 4 and len(after.stock) == 3
    assert start.actions == () and after.actions == (move,)
    assert after.new_events == (Took(0, move.card),)
    assert after.current_player == 1


def test_illegal_actions_raise_with_the_reason_and_change_nothing():
    start = Toy().new_game(3)
    missing = next(c for c in standard_deck() if c not in start.stock)
    before = start.to_json()
    with pytest.raises(IllegalActionError) as info:
        start.apply(Take(missing))
    assert info.value.reason == f"{missing} is not on the table"
    assert str(info.value).startswith(f"take {missing} is not allowed")
    with pytest.raises(IllegalActionError, match="not a Toy move"):
        start.apply("take everything")
    with pytest.raises(IllegalActionError, match="not a Toy move"):
        start.apply(["unhashable"])
    assert start.to_json() == before


def test_a_finished_game_refuses_everything():
    state = Toy().new_game(1)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert state.legal_actions() == () and state.current_player is None
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(Take(parse_card("AS")))
    assert state.winners == (0, 1)


def test_save_and_load_replays_exactly():
    state = Toy().new_game(9)
    for _ in range(3):
        state = state.apply(state.legal_actions()[-1])
    text = state.to_json()
    data = json.loads(text)
    assert data["seed"] == 9 and data["game"] == "toy" and len(data["actions"]) == 3
    again = State.from_json(text)
    assert again == state and again.events == state.events


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: "][", "not valid JSON"),
        (lambda d: json.dumps([1, 2]), "not a MathCards saved game"),
        (lambda d: json.dumps({**d, "version": 3}), "version 3 is not supported"),
        (lambda d: json.dumps({**d, "version": True}), "version True is not supported"),
        (lambda d: json.dumps({**d, "settings": {"num_players": 9}}), "settings are broken"),
        (lambda d: json.dumps({**d, "actions": [{"type": "take"}]}), "missing its 'card'"),
        (lambda d: json.dumps({**d, "actions": [{"type": "take", "card": "KX", "note": None}]}),
         "'KX' is not a card"),
        (lambda d: json.dumps({**d, "actions": [{"type": "take", "card": 7, "note": None}]}),
         "expected card text"),
        (lambda d: json.dumps({**d, "actions": [{"type": "take", "card": "AS", "note": None,
                                                 "x": 1}]}), "unknown field"),
        (lambda d: json.dumps({**d, "actions": d["actions"] * 2}), "move 2 of the saved game"),
        (lambda d: json.dumps({**d, "actions": "take"}), "no action list"),
        # a version-2 save names actions by their stable names, not by class names
        (lambda d: json.dumps({**d, "actions": [{**d["actions"][0], "type": "Take"}]}),
         "'Take' is not a Toy move"),
    ],
)
def test_damaged_saves_name_the_problem(mutate, message):
    state = Toy().new_game(2)
    state = state.apply(state.legal_actions()[0])
    with pytest.raises(SaveFileError, match=message) as info:
        State.from_json(mutate(json.loads(state.to_json())))
    assert "\n" not in str(info.value)


def test_decode_action_checks_types():
    with pytest.raises(SaveFileError, match="not a Toy move"):
        decode_action(Toy(), {"type": "Fly"})
    assert decode_action(Toy(), {"type": "take", "card": "10H", "note": "x"}) == Take(
        parse_card("10H"), "x"
    )


def test_plain_fields_of_a_saved_action_are_read_strictly():
    """true/false only for a flag, a whole number (never true or false) for a number,
    text for text; anything else is refused naming what was expected."""
    from mathcards.games import sums

    assert decode_action(sums.Sums(), {"type": "draw", "pile": 1}) == sums.Draw(1)
    with pytest.raises(SaveFileError, match="expected a whole number, found True"):
        decode_action(sums.Sums(), {"type": "draw", "pile": True})
    assert base._decode_value(bool, False, "move 1") is False
    for hint, value, expected in ((bool, 1, "true/false"), (int, "3", "a whole number"),
                                  (str, 3, "text")):
        with pytest.raises(SaveFileError, match=f"^move 1: expected {expected}, found"):
            base._decode_value(hint, value, "move 1")


def test_history_is_persistent_and_compares_by_content():
    empty = History()
    one = empty.push("a")
    two = one.push("b")
    other = History().push("a").push("b")
    assert list(two) == ["a", "b"] and list(one) == ["a"] and list(empty) == []
    assert two == other and hash(two) == hash(other) and two != one
    assert len(two) == 2 and two.last == "b" and empty.last is None
    long = History()
    for i in range(50_000):
        long = long.push(i)
    assert sum(long) == sum(range(50_000))


def test_seat_name_is_the_one_wording_of_a_seat_in_a_sentence():
    """Events, actions and the explainer's steps name seats through ``base.seat_name``:
    the name at the table, else "Player N", and "nobody" for no seat."""
    from mathcards.explain.steps import CaptureStep
    from mathcards.games import sums, suns_to_moons

    assert base.seat_name(("Ana", ""), 0) == "Ana"
    assert base.seat_name(("Ana", ""), 1) == "Player 2"
    assert base.seat_name((), None) == "nobody"
    assert suns_to_moons.Passed(None).describe() == "nobody has no cards and passes."
    assert sums.CounterDeclined(None).describe(("Ana",)) == "nobody did not counter."
    step = CaptureStep(player=None, played=Card("H", 7), helper=Card("H", 5), op="+",
                       target=Card("D", 12), target_owner=1, names=("Ana", "Ben"))
    assert step.notes[0] == "nobody captures Ben's Q♦ with 7♥ and 5♥"


def test_chance_is_seeded_per_step():
    assert rng_for(5, 3).random() == rng_for(5, 3).random()
    assert rng_for(5, 3).random() != rng_for(5, 4).random()
    assert rng_for(5, 3).random() != rng_for(6, 3).random()


def test_importing_the_core_loads_neither_ipywidgets_nor_sympy():
    code = (
        "import sys, mathcards, mathcards.games, mathcards.bots, mathcards.games.base;"
        "print('sympy' in sys.modules, 'ipywidgets' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_registry_lists_the_five_games_first():
    assert registry.game_names()[:5] == registry.BUILTIN_GAMES == (
        "suns_to_moons", "dice_stacks", "sums", "shoot_the_moon", "moons_and_planets",
    )
    assert base.SAVE_FORMAT == "mathcards-game"


def test_ordinal_is_the_one_wording_of_a_place():
    """Prize places in the Moons and Planets rules and in its exercises: one ``ordinal``, in
    the page's language."""
    from mathcards import i18n
    from mathcards.games.moons_and_planets import exercises as kind
    from mathcards.games.moons_and_planets import rules

    assert [base.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    with i18n.using("es"):
        assert [base.ordinal(n) for n in (1, 2, 11, 23)] == ["1.º", "2.º", "11.º", "23.º"]
    assert kind.ordinal is rules.ordinal is base.ordinal


def test_an_event_names_its_seat_or_nobody():
    """``Event.who``: the seat's name at the table, "Player N" without one, "nobody" for an
    event of no seat (it once passed -1 on and would have said "Player 0")."""
    assert Event(player=1).who(("Ana", "Ben")) == "Ben"
    assert Event(player=2).who(("Ana", "Ben")) == "Player 3"
    assert Event(player=None).who(("Ana", "Ben")) == "nobody"
