"""Moons and Planets at "I count", through the table controller with no widgets: the
student builds planets and moons by selecting cards (none is listed), a planet asks what
its cards total (J, Q, K count 10), the engine checks a moon; "Show me the sums" lists
them all as before."""

from __future__ import annotations

import random

from mathcards.asking import COUNT, SHOW, Answer
from mathcards.bots import Bot
from mathcards.games.moons_and_planets import (
    AddToMoon,
    DeclarePlanet,
    Done,
    MakeMoon,
    MoonsAndPlanets,
    PlayCard,
    Regroup,
    position,
)
from mathcards.table import TableController
from mathcards.widgets.tricks import MoonsAndPlanetsView

HANDS = ["9H 8H 5H 7S 7D 7C 2C QS 4D", "2H 3H 4H 6S 6D 9C 10C JC KD"]
DECK = ("AS AH 3S 3D 4S 4C 5S 5D 6C 6H 8S 8D 8C 9S 9D 10S 10D 10H JS JD JH QH QD QC KS KH "
        "KC 2S 2D 3C")


def _table(level: str = COUNT, hands=HANDS) -> tuple[TableController, list[Answer]]:
    ctl = TableController(MoonsAndPlanetsView(), state=position(hands, deck=DECK),
                          bot_delay=0, save=False, level=level, seats=("human", "strong"))
    answers: list[Answer] = []
    ctl.asking.on_answer = answers.append
    return ctl, answers


def _select(ctl: TableController, cards: str) -> None:
    ctl.click_choice("clear")
    for name in cards.split():
        i = next(j for j, c in enumerate(ctl.hand()) if str(c) == name)
        ctl.click_card(f"h{i}")


def _labels(ctl: TableController) -> str:
    return " ".join(c.label + " " + c.tooltip for c in ctl.offered_choices())


def test_show_me_lists_every_planet_i_count_lists_none():
    shown, _ = _table(SHOW)
    assert "declare the planet 8♥ 9♥" in _labels(shown)  # today's table, for the rules
    ctl, _ = _table()
    assert ctl.selecting and "planet" not in _labels(ctl)
    assert [c.key for c in ctl.offered_choices()] == ["move:done:done putting cards down"]
    _select(ctl, "9H 8H")
    _legal, line = ctl.selection_summary()
    assert line == "selected: 9♥ 8♥" and "17" not in _labels(ctl)  # no total, no tick


def test_a_planet_asks_its_total_before_it_is_put_down():
    ctl, answers = _table()
    _select(ctl, "QS 7S")  # Q counts 10: 17
    ctl.click_choice("lay")
    q = ctl.asking.pending.question
    assert q.skill == "planet_sum" and q.expected == 17 and "17" not in q.prompt
    assert not ctl.state.planets[0]  # not put down before the answer
    ctl.answer("19")  # the Queen counted 12
    assert answers[-1].slip == "face_value" and ctl.asking.pending is not None
    ctl.answer("17")
    assert ctl.asking.pending is None and [a.right for a in answers] == [False, True]
    assert {str(c) for c in ctl.state.planets[0]} == {"QS", "7S"}


def test_a_face_card_counted_as_in_the_other_games_hears_that_it_counts_10():
    """The table's nudge for a face card's value named J 11, Q 12, K 13: wrong here."""
    ctl, answers = _table()
    _select(ctl, "QS 7S")
    ctl.click_choice("lay")
    ctl.answer("19")  # the Queen counted 12, as in Suns to Moons
    assert answers[-1].slip == "face_value"
    assert "count 10" in ctl.asking.feedback and "12" not in ctl.asking.feedback
    assert "17" not in ctl.asking.feedback  # the rule, never the answer


def test_a_planet_refused_for_its_total_does_not_say_the_total_and_counts():
    ctl, answers = _table()
    state = ctl.state
    _select(ctl, "9H 5H")  # 14: not a planet
    assert not ctl.attempt(ctl.click_choice, "lay")
    assert ctl.refused and "14" not in ctl.message and "15 to 18" in ctl.message
    assert ctl.state is state and ctl.asking.pending is None
    assert [(a.skill, a.right) for a in answers] == [("planet_sum", False)]
    # a refusal with its rule, not a question "what do they total?" never asked
    assert answers[0].refusal and answers[0].rule == ctl.message
    assert answers[0].expected == "" and sorted(answers[0].numbers) == [5, 9]


def test_moons_are_built_and_checked_by_the_engine():
    ctl, answers = _table()
    _select(ctl, "9H 8H")
    ctl.click_choice("lay")
    ctl.answer("17")
    state = ctl.state
    _select(ctl, "2C QS")  # not a moon: refused with the engine's reason, counted
    assert not ctl.attempt(ctl.click_choice, "lay") and ctl.state is state
    assert answers[-1].skill == "moon_set" and not answers[-1].right
    _select(ctl, "7S 7D")
    ctl.click_choice("lay")  # a moon of one rank: laid at once, no number asked
    assert ctl.asking.pending is None and answers[-1].skill == "moon_set" and answers[-1].right
    assert ctl.state.moons[0] and not any(isinstance(a, MakeMoon)
                                          for a in ctl.view.listed_actions(ctl.state))
    _select(ctl, "7C")  # not a moon alone: it is added to the moon of 7s
    ctl.click_choice("lay")
    assert len(ctl.state.moons[0][0]) == 3 and answers[-1].right


def _human_move(ctl: TableController, bot: Bot, rng: random.Random) -> None:
    """The person's move: the strong bot's choice, made as a student makes it."""
    action = bot.choose(ctl.state)
    if isinstance(action, Regroup):  # not built by selecting: the typed-move box reads it
        action = Done()
    if isinstance(action, DeclarePlanet | MakeMoon | AddToMoon):
        cards = " ".join(str(c) for c in action.cards)
        _select(ctl, cards)
        ctl.click_choice("lay")
        if ctl.asking.pending is None:  # a moon, or the 5♣
            return
        q = ctl.asking.pending.question
        if rng.random() < 0.4:
            ctl.answer(str(q.expected + rng.choice((-2, -1, 1, 2))))
        if ctl.asking.pending is not None:
            ctl.answer(str(q.expected))
    elif isinstance(action, PlayCard):
        ctl.click_card(f"card:{action.card}")
    elif isinstance(action, Done):
        ctl.click_choice(next(c.key for c in ctl.offered_choices() if "done" in c.key))
    else:
        ctl.play(action)


def test_whole_games_at_i_count():
    skills: set[str] = set()
    for seed in range(3):
        ctl = TableController(MoonsAndPlanetsView(), MoonsAndPlanets(num_players=2),
                              seed=seed, bot_delay=0, save=False, level=COUNT,
                              seats=("human", "strong"), bot_seed=seed)
        answers: list[Answer] = []
        ctl.asking.on_answer = answers.append
        bot, rng = Bot("moons_and_planets", "strong", seed=seed), random.Random(seed)
        for _ in range(2000):
            if ctl.state.is_over:
                break
            if ctl.selecting:  # no planet or moon is ever listed while putting down
                assert "planet" not in _labels(ctl) and "moon" not in _labels(ctl)
            _human_move(ctl, bot, rng)
        assert ctl.state.is_over
        assert all(a.skill in ("planet_sum", "moon_set") for a in answers)
        skills |= {a.skill for a in answers}
        for a in answers:
            if a.skill == "planet_sum" and a.right:
                assert 15 <= int(a.given) <= 18
    assert skills == {"planet_sum", "moon_set"}
