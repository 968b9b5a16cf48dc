"""Dice Stacks: however many stacks a seat has laid, they stay on one row, so the seats'
row never grows past its tallest stack and the student's hand below it stays on a
Chromebook's first screen (CI at f9f24bc: a bot that ran out and played on had laid
stacks on two rows, and the student's first card lay 10 px below the first screen).

The board is the view's real HTML with the package's real style sheet, drawn by Chromium
at the width a 1366 px page gives the table; the position is a real state of the engine.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

import mathcards.widgets
from mathcards.cards import parse_cards
from mathcards.games.base import EMPTY
from mathcards.games.dice_stacks import DiceStacks, StackLaid
from mathcards.widgets.dice_stacks import DiceStacksView

pytestmark = pytest.mark.browser

CSS = (Path(mathcards.widgets.__file__).parent / "static" / "mathcards.css").read_text()
TABLE_WIDTH = 685  # the table's column at 1366×768 (the moves list takes the rest)

MEASURE = """() => {
    const seat = document.querySelectorAll('.mc-seats > .mc-seat')[1];
    const stacks = [...seat.querySelectorAll('.mc-stacks > *')].map(e => {
        const r = e.getBoundingClientRect();
        // what it draws may overflow its box: the right of its last drawn part
        const right = Math.max(
            r.right, ...[...e.children].map(c => c.getBoundingClientRect().right));
        return {left: r.left, right, top: r.top, bottom: r.bottom, cls: e.className};
    });
    const cards = [...seat.querySelectorAll('.mc-stacks .mc-card')].map(
        e => e.getBoundingClientRect().bottom);
    const header = seat.querySelector('strong').getBoundingClientRect();
    const s = seat.getBoundingClientRect();
    return {stacks, seatTop: s.top, seatBottom: s.bottom, seatRight: s.right,
            lowestCard: Math.max(...cards), headerBottom: header.bottom,
            row: document.querySelector('.mc-seats').getBoundingClientRect().height};
}"""


def _board(stacks: list[str], *, run_outs: int = 0, special: int | None = None) -> str:
    """The board with the second seat (the bot's) holding ``stacks`` (each "5♠ 4♣"; the
    one at index ``special`` laid as a special stack, 2 points), ``run_outs`` run-out
    points with their markers, and three hidden cards."""
    game = DiceStacks(num_players=2)
    start = game.position("3♣ 2♦", (3, 2))
    laid = tuple(tuple(parse_cards(s)) for s in stacks)
    points = [2 if i == special else 1 for i in range(len(laid))]
    markers = tuple(parse_cards("Q♦ 9♠ 4♥")[:run_outs])
    state = dataclasses.replace(
        start, hands=(start.hands[0], tuple(parse_cards("7♣ 8♦ 2♠"))),
        stacks=((), laid), stack_points=(0, sum(points)), run_outs=(0, run_outs),
        markers=((), markers),
        log=EMPTY.push(tuple(StackLaid(1, cards, (3, 2), 5, pts)
                             for cards, pts in zip(laid, points, strict=True))))
    html = DiceStacksView().board_html(state, state.observation(0),
                                       ["Player 1 (you)", "Player 2 (bot)"], viewer=0)
    return (f"<style>{CSS}</style><div class='mathcards' style='width:{TABLE_WIDTH}px'>"
            f"<div class='mc-board'>{html}</div></div>")


def _measure(page, stacks: list[str], *, run_outs: int = 0, special: int | None = None) -> dict:
    page.set_viewport_size({"width": 1366, "height": 768})
    page.set_content(_board(stacks, run_outs=run_outs, special=special))
    return page.evaluate(MEASURE)


TALL = "A♣ A♦ 2♠ K♥"  # the tallest stack here: four cards


@pytest.mark.parametrize("count", [1, 4, 8, 12])
def test_a_seats_stacks_stay_on_one_row_however_many(page, count):
    few = _measure(page, [TALL])
    laid = [TALL, *(["5♠ 4♣", "7♥", "10♦ A♦"] * 4)[:count - 1]]
    many = _measure(page, laid, run_outs=2 if count >= 8 else 0)
    tops = {round(s["top"]) for s in many["stacks"]}
    assert len(tops) == 1, f"{count} stacks laid on more than one row: tops {sorted(tops)}"
    assert many["lowestCard"] <= few["lowestCard"] + 0.5, (
        f"{count} stacks reach {many['lowestCard']:.0f} px, one reaches {few['lowestCard']:.0f}")
    assert many["row"] <= few["row"] + 0.5, (
        f"the seats' row is {many['row']:.0f} px high with {count} stacks, "
        f"{few['row']:.0f} with one: it grew and pushed the hand down")


def test_crowded_stacks_overlap_with_every_top_cards_rank_showing(page):
    m = _measure(page, [TALL, *["5♠ 4♣", "10♦ A♦", "7♥"] * 4], run_outs=2)
    lefts = [s["left"] for s in m["stacks"]]
    pitch = [b - a for a, b in itertools.pairwise(lefts)]
    # a card's rank sits in its left 20 px ("10" in 15 px type): each stack keeps that much
    assert min(pitch) >= 20, f"stacks overlap too far to read their ranks: {pitch}"
    assert lefts[-1] < m["seatRight"], "the last stack starts outside its seat"
    runouts = [s for s in m["stacks"] if "mc-runouts" in s["cls"]]
    assert runouts, "the run-out points are not drawn"


def test_a_special_stack_is_never_covered_by_the_next(page):
    """A special stack (two halves side by side and its "2 points") keeps its width among
    crowded stacks: the plain stacks overlap, the next stack starts after it."""
    m = _measure(page, ["A♣ A♦ 2♠ K♥", "5♠ 4♣", *["10♦ A♦", "7♥", "6♠ 3♣"] * 3], special=1)
    kinds = [s["cls"] for s in m["stacks"]]
    i = next(k for k, c in enumerate(kinds) if "mc-special-pair" in c)
    pair, after = m["stacks"][i], m["stacks"][i + 1]
    assert after["left"] >= pair["right"], (
        f"the stack after the special stack starts at {after['left']:.0f} px, inside it "
        f"(it ends at {pair['right']:.0f} px)")
