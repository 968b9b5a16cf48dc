"""A game's registration is checked once, when it registers (issue 39 item 4: plugins
checked where they plug in): a missing or wrong piece is refused with one line naming the
game and the piece, before any page asks for it."""

from __future__ import annotations

import dataclasses

import pytest

from examples.make_ten import SPEC
from mathcards.errors import SettingsError
from mathcards.games.registry import LandingCard, find_game, register_game

SPEC_NEW = dataclasses.replace(SPEC, name="make_ten_checked", code="TENC")


@pytest.mark.parametrize(("change", "said"), [
    ({"strong_policy": None}, "game 'make_ten_checked': strong_policy must be a function"),
    ({"parse_move": "e2e4"}, "game 'make_ten_checked': parse_move must be a function"),
    ({"engine": object}, "game 'make_ten_checked': engine must be a Game class"),
    ({"code": "TEN C"}, "game 'make_ten_checked': code must be letters or digits"),
    ({"view": "examples/make_ten/view.py"}, "game 'make_ten_checked': view must be a dotted"),
    ({"package": "not a path"}, "game 'make_ten_checked': package must"),
    ({"card": LandingCard(practises="tens", blurb="Make ten.", picture="pic()",
                          lesson="x.ipynb")}, "game 'make_ten_checked': card.picture must"),
    ({"name": "make ten"}, "game make ten: its name must be a word"),
])
def test_a_registration_missing_a_piece_is_refused_naming_the_game_and_the_piece(
        change: dict[str, object], said: str) -> None:
    spec = dataclasses.replace(SPEC_NEW, **change)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(SettingsError, match=said):
        register_game(spec)
    assert find_game(spec.name) is None  # nothing registered


def test_a_whole_registration_is_accepted() -> None:
    from mathcards.games.registry import registered

    with registered(SPEC_NEW):
        assert find_game("make_ten_checked") is SPEC_NEW


def test_an_exercise_kind_that_is_not_a_kind_is_refused_naming_the_game(tmp_path,
                                                                        monkeypatch) -> None:
    from mathcards.exercises.kinds.registry import _kinds
    from mathcards.games.registry import registered

    (tmp_path / "checked_parts").mkdir()
    (tmp_path / "checked_parts" / "__init__.py").write_text("")
    (tmp_path / "checked_parts" / "exercises.py").write_text(
        "from fractions import Fraction\nKINDS = (Fraction,)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with registered(dataclasses.replace(SPEC_NEW, package="checked_parts")), \
            pytest.raises(TypeError, match="make_ten_checked's kind fractions:Fraction is "
                                           "not an exercise Kind"):
        _kinds()
