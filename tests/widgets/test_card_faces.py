"""Card pictures read the right way up: a turned (sideways) card's rank stays upright."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from mathcards.widgets.lesson import card_row, card_svg

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


@pytest.mark.parametrize("code", ["6H", "9S", "10D", "JK", "R6", "BIG"])
def test_a_turned_card_lies_across_with_its_rank_upright(code):
    upright = _parse(card_svg(code, width=50))
    turned = _parse(card_svg(code, width=50, turned=True))
    # lies across: wider than tall, the same card turned a quarter
    assert int(turned.get("width")) > int(turned.get("height"))
    assert turned.get("width") == upright.get("height")
    assert turned.get("height") == upright.get("width")
    _, _, vb_w, vb_h = map(float, turned.get("viewBox").split())
    assert vb_w > vb_h
    # nothing in the picture is rotated: the rank and suit read upright (6 is not 9)
    for element in turned.iter():
        assert "rotate" not in (element.get("transform") or ""), ET.tostring(element)
    texts = [t.text for t in turned.iter(f"{SVG}text")]
    assert texts == [t.text for t in upright.iter(f"{SVG}text")]
    # and every text lies inside the landscape card
    for text in turned.iter(f"{SVG}text"):
        assert 0 <= float(text.get("x")) <= vb_w and 0 <= float(text.get("y")) <= vb_h
    assert "turned" in turned.get("aria-label")


def test_a_row_turns_only_the_cards_it_is_told_to():
    row = card_row("6H 6S", turned=(True, False))
    found = re.findall(r'<svg [^>]*width="(\d+)" height="(\d+)"', row)
    sizes = [(int(w), int(h)) for w, h in found]
    assert len(sizes) == 2
    assert sizes[0][0] > sizes[0][1] and sizes[1][0] < sizes[1][1]


@pytest.mark.parametrize("code", ["7H", "QS", "JK", "6D"])
def test_lesson_pictures_draw_a_card_as_the_table_does(code):
    """Issue 14 item 1: one card drawing. Like the table's face (.mc-card, 56×78), a lesson
    picture has the rank large at the top left and the suit at the bottom right; a red
    card has the table's red double border (two outlines), a black card one."""
    svg = _parse(card_svg(code, width=56))
    _, _, vb_w, vb_h = (float(v) for v in svg.get("viewBox").split())
    assert (vb_w, vb_h) == (56, 78)
    rank, pip = list(svg.iter(f"{SVG}text"))
    assert float(rank.get("x")) < vb_w / 3 and float(rank.get("y")) < vb_h / 2
    assert float(pip.get("x")) > vb_w * 2 / 3 and float(pip.get("y")) > vb_h * 2 / 3
    assert pip.get("text-anchor") == "end"
    outlines = list(svg.iter(f"{SVG}rect"))
    assert len(outlines) == (2 if code in ("7H", "6D") else 1)
