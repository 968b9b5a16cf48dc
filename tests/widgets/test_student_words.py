"""Words a student reads on the table, said once and as a teacher says them (issue 36): the
line under the hand names the selected cards once, not "Selected: Q♥ 3♣ · selected: Q♥ 3♣";
no rule-book code ("10(−3)", "~JOKER~", "junk pile") and no sum that says nothing ("1 = 1")
anywhere on a table through whole games (no browser)."""

from __future__ import annotations

import html
import random
import re

import ipywidgets as W
import pytest

from mathcards.asking import COUNT, SHOW
from mathcards.cards import parse_card, parse_cards
from mathcards.games.moons_and_planets import MoonsAndPlanets
from mathcards.games.registry import make_game
from mathcards.games.suns_to_moons import Play
from mathcards.table import NEXT_ROUND
from mathcards.widgets import make_view, table_games
from tests.widgets.helpers import click_something, type_answer, widgets_under
from widgets.suns_to_moons import SunsToMoonsView
from widgets.table import GameTable
from widgets.tricks import MoonsAndPlanetsView


def _text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def test_the_selection_line_names_the_selected_cards_once():
    table = GameTable(MoonsAndPlanetsView(), MoonsAndPlanets(), seats=("human", "strong"),
                      seed=3, bot_delay=0, save=False, level=COUNT)
    for _ in range(50):  # let the bot move until the student puts cards down
        if table.ctl.selecting:
            break
        choice = next(c for c in table.ctl.offered_choices() if c.key.startswith("move:"))
        table.ctl.click_choice(choice.key)
    assert table.ctl.selecting
    hand = table.ctl.hand()
    table.hand_buttons.pool[0].button.click()
    table.hand_buttons.pool[1].button.click()
    line = _text(table.w_selection.value)
    names = f"{hand[0].symbol} {hand[1].symbol}"
    assert names in line, line
    assert line.lower().count("selected") == 1, line
    assert line.count(names) == 1, line


def _history(table) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", html.unescape(table.w_history.value))


def test_a_roll_asked_about_is_said_once_in_the_move_history():
    """Issue 36 item 14: at "I count" the roll asks what the stacks must make; once answered
    the move history said "Player 1 (you) rolled 2 and 3." twice."""
    table = GameTable(make_view("dice_stacks"), seats=("human", "strong"), seed=2,
                      bot_delay=0, save=False, level=COUNT)
    table.choice_pool[table.choice_keys.index("roll")].click()
    question = table.ctl.asking.pending.question
    a, b = question.dice
    rolled = f"Player 1 (you) rolled {a} and {b}."
    assert _history(table).count(rolled) == 1  # asked: the roll is in the history once
    type_answer(table.asking_panel, str(a + b))
    assert table.ctl.asking.pending is None and not table.refused, table.message
    assert _history(table).count(rolled) == 1, _history(table)
    assert table.ctl.history.count(rolled) == 1


def test_a_move_typed_and_played_with_the_button_is_not_refused_too():
    """Issue 36 item 13: typing "3H +" and pressing *Play typed move*: the browser sends the
    box's text as it loses the focus (the move is played: here its question is asked), then
    the click, with the box emptied. The click must not add "type a move first"."""
    table = GameTable(SunsToMoonsView(), seats=("human", "strong"), seed=3, bot_delay=0,
                      save=False, level=COUNT)
    ctl = table.ctl
    table.w_move_go.click()  # the button with an empty box says what to do
    assert table.refused and "type a move first" in table.message
    move = next(a for a in ctl.state.legal_actions() if isinstance(a, Play)
                and not a.is_joker and a.card.rank != 1)
    table.w_move.value = f"{move.card} {'+' if move.sign > 0 else '-'}"  # the box's text
    table.w_move_go.click()  # then the click that took the focus away
    assert ctl.asking.pending is not None  # the move's question is asked
    assert not table.refused, table.message
    assert "type a move first" not in _text(table.w_refusal.value + table.w_status.value)


# --- no rule-book code, no empty sums (issue 36 item 15) --------------------------------
JARGON = {
    "a card in the rule book's code, like 10(−3)": re.compile(r"\d\([−-]?\d+\)"),
    "the rule book's ~JOKER~": re.compile("~JOKER~"),
    "the rule book's junk pile": re.compile("junk", re.IGNORECASE),
    # a lone number "equal" to itself, like "Round so far: 1 = 1" (not the end of a sum:
    # "7 + 5 = 12 = 12" is not written either, but "(9 − 8) × 2 = 2" is a sum)
    "a sum that says nothing, like 1 = 1": re.compile(
        r"(?:^|[^\d\s+−×÷(=)/½-])\s*(−?\d+) = \1(?![\d/½])"),
}
_LATEX = {"\\(": " ", "\\)": " ", "\\times": "×", "\\left(": "(", "\\right)": ")",
          "\\frac{1}{2}": "½"}


def page_words(table) -> list[str]:
    """Every text the table shows: HTML without its tags, the LaTeX MathJax shows as its
    symbols, the buttons' labels and tooltips, the boxes' placeholders."""
    out = []
    for w in widgets_under(table):
        for field in ("value", "description", "tooltip", "placeholder"):
            value = getattr(w, field, None)
            if not isinstance(value, str) or not value or (
                    field == "value" and not isinstance(w, W.HTML | W.HTMLMath | W.Label)):
                continue
            text = html.unescape(re.sub(r"<[^>]+>", " ", value))
            for latex, shown in _LATEX.items():
                text = text.replace(latex, shown)
            out.append(text)
    return out


def jargon_in(texts: list[str]) -> list[tuple[str, str]]:
    return [(what, text) for text in texts for what, rule in JARGON.items() if rule.search(text)]


def test_the_jargon_rules_find_the_old_words():
    """The rules catch what the issue quotes (and leave real sums alone)."""
    old = ["as played: 7(7) − 10(−3) + 3(0)", "1(1) ~JOKER~(0) + 1(1)", "Round so far: 1 = 1",
           "Stock: 3 cards · junk pile: 20 cards", "Player 2 (bot) laid 5♠: 5 = 5, 1 point.",
           "made the deck 4 = 4, the goal"]
    assert [text for text in old if jargon_in([text])] == old
    fine = ["The deck: 7 − 5 + 1 = 3", "(9 − 8) × 2 = 2", "12 ÷ 2 = 6; 8 − 4 = 4",
            "7 + 5 = 12 = Q♦", "−5 + (+5) = 0", "The deck: 1", "5♠ makes 5 on its own"]
    assert jargon_in(fine) == []


def _said(question) -> str:
    """The right answer as a student gives it; for cards that are not a stack (Dice
    Stacks: the table judges them after the student says how they make the total), a way."""
    from mathcards.games.dice_stacks import KING
    from mathcards.games.dice_stacks.questions import NOT_A_STACK

    if question.expected == NOT_A_STACK:
        return "adding, Kings double" if KING in question.numbers else "adding"
    return str(question.expected)


def _play_and_read(game: str, level: str, seed: int, max_steps: int = 1500) -> set[str]:
    """A whole game at a table with a person and bots (rounds held until Next round, hints
    asked, questions answered right); every text on the table after every step."""
    pending: list = []
    settings = {"target_score": 3} if game == "suns_to_moons" else {}
    table = GameTable(make_view(game), make_game(game, **settings), seed=seed, bot_delay=0.5,
                      save=False, level=level, schedule=lambda _d, fn: pending.append(fn))
    ctl, rng = table.ctl, random.Random(seed)
    seen: set[str] = set(page_words(table))
    for _ in range(max_steps):
        if table.state.is_over:
            break
        if ctl.asking.pending is not None:
            ctl.answer(_said(ctl.asking.pending.question))
        elif ctl.asking.waiting:  # the feedback or the step: OK
            ctl.click_choice("ok")
        elif ctl.holding:
            ctl.click_choice(NEXT_ROUND)
        elif ctl.acting_human() and ctl.refused and "back" in table.choice_keys:
            table.choice_pool[table.choice_keys.index("back")].click()  # another card, then
        elif ctl.acting_human():
            if ctl.asking.hints and rng.random() < 0.15:
                ctl.ask_hint(rng.choice((1, 2) if ctl.asking.counting else (1, 2, 3)))
            else:
                click_something(table, rng)
        elif pending:
            pending.pop(0)()
        else:
            break
        seen.update(page_words(table))
    assert table.state.is_over, f"{game} did not end"
    return seen


@pytest.mark.parametrize("game", table_games())
@pytest.mark.parametrize("level", [SHOW, COUNT])
def test_no_rule_book_code_or_empty_sums_on_a_table(game, level):
    seen: set[str] = set()
    for seed in (1, 2, 3):
        seen |= _play_and_read(game, level, seed)
    found = jargon_in(sorted(seen))
    assert not found, "\n".join(f"{what}: {text[:300]}" for what, text in found[:8])


def test_a_deck_is_said_card_by_card_with_the_joker_named():
    """"1(1) ~JOKER~(0) + 1(1)" and "Round so far: 1 = 1" (issue 36 item 15), as a teacher
    says them: the cards by name, what each does, and no sum of one card."""
    from mathcards.exercises import Exercise
    from mathcards.explain import chain_steps
    from mathcards.games.suns_to_moons import Play, StockReshuffled
    from mathcards.games.suns_to_moons.explain import played_words

    ace, joker, other = (Play(parse_card(c), 1, 1 if c != "JK" else 0) for c in ("AH", "JK", "AD"))
    assert played_words([ace, joker, other]) == (
        "A♥ starts the deck at 1; the Joker takes away A♥ and makes 0; A♦ adds 1 and makes 1")
    assert played_words([joker, Play(parse_card("3D"), -1, 3)]) == (
        "the Joker starts the deck at 0 (a Joker counts 0); 3♦ takes away 3 and makes −3")
    lone = chain_steps([1])
    assert lone.equation is None and lone.sum_text == "1"
    assert lone.text == "one card is still counted: the deck is 1"
    assert chain_steps([7, -5, 1]).sum_text == "7 − 5 + 1 = 3"
    # the table's line under the explanation, and the practice page's answer
    view = SunsToMoonsView()
    state = make_game("suns_to_moons").new_game(1)
    assert view.chain(state, state) == f"The deck: {state.deck_value}"  # the centre card
    right = Exercise("deck_value", deck="AH JK +AD").check(1)
    assert "card by card: A♥ starts the deck at 1; the Joker takes away A♥" in right.text
    assert not jargon_in([right.text])
    assert StockReshuffled(None, 12).describe() == (
        "The stock ran short: the 12 used cards are shuffled into it.")


def test_the_stock_line_and_a_won_round_say_it_plainly():
    """No "junk pile" (the rule text's used cards) and no "made the deck 2 = 2"."""
    import dataclasses

    import mathcards.games.suns_to_moons as stm
    from mathcards.cards import JOKER, Card
    from mathcards.explain import explain_events, spoken
    from mathcards.moments import moment_for

    table = GameTable(SunsToMoonsView(), seats=("human", "strong"), seed=3, bot_delay=0,
                      save=False)
    board = _text(table.w_board.value)
    assert "used cards:" in board and "junk" not in board
    # the goal 2: 2♣ and 5♥ make 7, and the Joker takes the 5♥ away: one card counts
    centre, five = Card("C", 2), Card("H", 5)
    state = dataclasses.replace(
        stm.SunsToMoons(2).new_game(1), points=(2, 1), turn=0,
        hands=((Card(JOKER, 0), Card("S", 2)), parse_cards("3S 4S")),
        table=(stm.Play(centre, 1, 2), stm.Play(five, 1, 5)), counted=(2, 5),
        counted_cards=(centre, five))
    after = state.apply(stm.JOKER_PLAY)
    moment = moment_for(state, after, ("Ana", "Ben"), (0,))
    assert "Ana made the deck 2, the goal, with 3 cards in the deck." in moment.lines
    said = spoken(explain_events(state, after))
    assert ("one card is still counted: the deck is 2. card by card: 2♣ starts the deck at 2; "
            "5♥ adds 5 and makes 7; the Joker takes away 5♥ and makes 2") in said
    assert not jargon_in([moment.text, said])
