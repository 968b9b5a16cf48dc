"""A game's asking module is checked once, when its table first asks (issue 39 item 4:
plugins checked where they are loaded, not probed at every call): a module missing the
piece a table needs, or with a hook that is not a function, is refused with one line
naming the game and the piece."""

from __future__ import annotations

from types import ModuleType

import pytest

from mathcards.asking import Question
from mathcards.asking.registry import Asker, AskingModuleError


def _module(**members: object) -> ModuleType:
    module = ModuleType("mathcards.asking.made_up")
    for name, value in members.items():
        setattr(module, name, value)
    return module


def _ask(state: object, action: object, seat: int) -> Question | None:
    return None


def test_a_module_with_neither_before_nor_after_move_is_refused_naming_the_game() -> None:
    with pytest.raises(AskingModuleError, match=r"of made_up .*neither before_move nor "
                                                r"after_move"):
        Asker(_module(check=lambda question, given: True), "made_up")


def test_a_hook_that_is_not_a_function_is_refused_naming_it() -> None:
    with pytest.raises(AskingModuleError, match=r"of made_up .*: nudge is not a function"):
        Asker(_module(before_move=_ask, nudge="Try again"), "made_up")


def test_asks_refused_must_be_true_or_false() -> None:
    with pytest.raises(AskingModuleError, match="ASKS_REFUSED is 'yes'"):
        Asker(_module(after_move=_ask, ASKS_REFUSED="yes"), "made_up")


def test_a_module_that_follows_the_protocol_gets_the_defaults() -> None:
    asker = Asker(_module(before_move=_ask, ASKS_REFUSED=True), "made_up")
    assert asker.asks_refused is True
    assert asker.hint_shows(None, None, 1) == ""
    assert asker.rule_words(None, None, "a rule") == "a rule"
