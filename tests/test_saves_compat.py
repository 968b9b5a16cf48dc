"""Saves and deal codes written by the first release still load and replay.

``tests/fixtures/release1/saves_and_codes.json`` was written by MathCards with
save format 1 (actions named by their Python class), before the stable action
names of format 2: real games of every game, with and without a table's
private deal, plus a deal code per game. Each must replay to the very state it
was saved in (the fingerprint: scores, turn, every card in every zone).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mathcards import saves
from mathcards.errors import SaveFileError
from mathcards.games.base import SAVE_VERSION, State, action_name
from mathcards.games.registry import game_names, make_game

FIXTURES = json.loads(
    (Path(__file__).parent / "fixtures" / "release1" / "saves_and_codes.json").read_text("utf-8"))


def fingerprint(state: State) -> dict[str, Any]:
    return {"actions": len(state.history), "scores": list(state.scores),
            "current_player": state.current_player, "is_over": state.is_over,
            "cards": [str(c) for c in state.all_cards()]}


def test_the_fixtures_cover_every_game_and_both_formats_of_deal():
    games = {json.loads(s["save"])["game"] for s in FIXTURES["saves"]}
    assert games == set(game_names())
    assert any("private_seed" in json.loads(s["save"]) for s in FIXTURES["saves"])
    assert any(s["fingerprint"]["is_over"] for s in FIXTURES["saves"])
    assert all(json.loads(s["save"])["version"] == 1 for s in FIXTURES["saves"])


@pytest.mark.parametrize("case", FIXTURES["saves"],
                         ids=lambda c: f"{json.loads(c['save'])['game']}-"
                                       f"{c['fingerprint']['actions']}")
def test_a_release1_save_replays_to_the_same_state(case):
    state = State.from_json(case["save"])
    assert fingerprint(state) == case["fingerprint"]
    # saved again, it is written in today's format with stable names, and reads back equal
    data = json.loads(state.to_json())
    assert data["version"] == SAVE_VERSION == 2
    old = json.loads(case["save"])["actions"]
    assert [a["type"] for a in data["actions"]] == [action_name(a) for a in state.actions]
    assert len(data["actions"]) == len(old)
    assert all(a["type"].islower() for a in data["actions"])
    assert State.from_json(state.to_json()) == state


@pytest.mark.parametrize("case", FIXTURES["deal_codes"], ids=lambda c: c["code"])
def test_a_release1_deal_code_deals_the_same_start(case):
    game, seed = saves.read_deal_code(case["code"])
    assert game == make_game(case["game"], **case["settings"])
    assert seed == case["seed"]
    assert fingerprint(game.new_game(seed)) == case["fingerprint"]
    assert saves.deal_code(game, seed) == case["code"]


def test_a_release1_save_with_a_class_name_unknown_then_is_refused_in_one_line():
    data = json.loads(FIXTURES["saves"][0]["save"])
    data["actions"][0]["type"] = "play"  # a format-2 name inside a format-1 save
    with pytest.raises(SaveFileError, match=r"move 1: 'play' is not a .* move") as info:
        State.from_json(json.dumps(data))
    assert "\n" not in str(info.value)


def test_every_action_of_every_game_has_one_stable_name():
    for name in game_names():
        game = make_game(name)
        assert list(game.actions) == [action_name(cls.__new__(cls)) for cls in game.action_types]
        assert len(set(game.actions)) == len(game.actions)
        # every class name a format-1 save used still maps to an action
        assert set(game.v1_actions.values()) == set(game.actions)
