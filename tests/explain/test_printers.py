"""The printers: plain text, LaTeX (through sympy, order kept), HTML, the number line."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.cards import parse_card
from mathcards.explain import (
    Chain,
    Fact,
    GoalCheck,
    SignedAddition,
    chain_steps,
    number_line_svg,
)
from mathcards.explain.steps import latex_text
from mathcards.explain.terms import Equation, Half, Neg, Num, Product, Sum, sympy_of, text_of
from mathcards.games.suns_to_moons.rules import BOUND

from .checks import check_equation, read_back

NONZERO = st.integers(min_value=-14, max_value=14).filter(lambda v: v != 0)


def _text_terms(text: str) -> list[int]:
    """The signed terms of a printed chain, left to right."""
    lhs = text.split(" = ")[0].replace("−", "-")
    return [int(sign.replace(" ", "") + digits)
            for sign, digits in re.findall(r"(^-|[+-] ?)?(\d+)", lhs.replace(" ", ""))]


def _latex_terms(latex: str) -> list[int]:
    lhs = latex.split(" = ")[0].replace(" ", "")
    return [int(sign + digits) for sign, digits in re.findall(r"([+-]?)(\d+)", lhs)]


class TestImportCost:
    def test_import_does_not_load_sympy(self):
        """`import mathcards.explain` (and building text) must not import sympy."""
        code = (
            "import sys, mathcards, mathcards.explain as ex\n"
            "assert 'sympy' not in sys.modules, 'import loaded sympy'\n"
            "step = ex.chain_steps([11, -4, -2, 2, -10, 8, -5])\n"
            "assert step.text == '11 − 4 − 2 + 2 − 10 + 8 − 5 = 0'\n"
            "assert 'sympy' not in sys.modules, 'plain text loaded sympy'\n"
            "step.latex\n"
            "assert 'sympy' in sys.modules, 'LaTeX should load sympy'\n"
            "print('ok')\n"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=False)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "ok"

    def test_warm_up_loads_sympy_in_the_background(self):
        code = (
            "import sys, mathcards.explain as ex\n"
            "t = ex.warm_up()\n"
            "t.join(60)\n"
            "print('sympy' in sys.modules)\n"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=False)
        assert out.stdout.strip() == "True", out.stderr


class TestPlayOrder:
    @settings(max_examples=200, deadline=None)
    @given(st.lists(NONZERO, min_size=2, max_size=14))
    def test_printed_terms_are_the_played_terms(self, terms):
        """sympy reorders sums unless told not to: both printers keep the order of play."""
        chain = chain_steps(terms)
        assert _text_terms(chain.text) == terms
        assert _latex_terms(chain.latex) == terms
        check_equation(chain.equation, sum(terms))

    def test_a_chain_whose_sorted_order_differs(self):
        terms = [3, -5, 10, -1, 7]
        chain = chain_steps(terms)
        assert chain.text == "3 − 5 + 10 − 1 + 7 = 14"
        assert chain.latex == "3 - 5 + 10 - 1 + 7 = 14"
        # sympy's own default printing does reorder this sum: order="none" is what keeps it
        default = sympy.latex(sympy_of(chain.equation.lhs))
        assert _latex_terms(default) != terms

    def test_signed_addition_prints_its_sign_in_brackets(self):
        step = SignedAddition(player=0, card=parse_card("10S"), value=10, before=7,
                              contribution=-10, after=-3, goal=0)
        assert step.text == "10♠ takes away 10: 7 + (−10) = −3"  # issue 14: names the card
        assert step.latex == r"7 + \left(-10\right) = -3"
        assert step.html.index("10♠ takes away 10:") < step.html.index("mc-math")
        assert step.record == "− 10(−3)"
        check_equation(step.equation, -3)


class TestText:
    def test_symbols(self):
        eq = Equation(Product((Sum((Num(12), Num(8))), Half(), Half())), 5)
        assert text_of(eq) == "(12 + 8) × ½ × ½ = 5"
        assert "−" in text_of(Equation(Sum((Num(3), Neg(Num(9)))), -6))
        assert "-" not in text_of(Equation(Sum((Num(3), Neg(Num(9)))), -6))

    def test_nested_sums_and_negative_factors_get_brackets(self):
        node = Sum((Num(5), Neg(Sum((Num(2), Num(3))))))
        assert text_of(node) == "5 − (2 + 3)"
        assert read_back(text_of(node)) == 0
        assert text_of(Product((Num(-3), Num(2)))) == "(−3) × 2"
        assert read_back(text_of(Product((Num(-3), Num(2))))) == -6

    def test_a_wrong_equation_fails_the_check(self):
        """The checker can fail: a printed value that is not the sum is caught."""
        bad = Equation(Sum((Num(2), Num(2))), 5)
        try:
            check_equation(bad)
        except AssertionError:
            return
        raise AssertionError("check_equation accepted 2 + 2 = 5")


class TestHtmlAndLatexText:
    def test_html_holds_the_latex_and_a_spoken_label(self):
        step = chain_steps([4, -7, 9])
        html = step.html
        assert r"\(4 - 7 + 9 = 6\)" in html
        assert 'aria-label="4 − 7 + 9 = 6."' in html
        ET.fromstring(html)  # well-formed

    def test_words_are_escaped(self):
        fact = Fact(sentence="a < b & {c}")
        assert "&lt;" in fact.html and "&amp;" in fact.html
        assert latex_text("{x}\\") == r"\text{(x)/}"

    def test_goal_check_sentences(self):
        assert GoalCheck(value=-3, goal=0, deck_size=4).text == "−3 is not the goal 0"
        early = GoalCheck(value=4, goal=4, deck_size=2)
        assert not early.counts and "needs 3 or more" in early.text
        won = GoalCheck(value=0, goal=0, deck_size=3)
        assert won.counts and won.text.endswith("a win")
        assert won.latex.startswith(r"\text{")


class TestNumberLine:
    def test_svg_marks_jump_band_goal_and_says_it(self):
        svg = number_line_svg(5, 14, goal=2, bound=BOUND)
        root = ET.fromstring(svg)
        ns = "{http://www.w3.org/2000/svg}"
        assert root.get("role") == "img"
        assert "from 5, +9 lands on 14" in root.get("aria-label")
        assert "goal is 2" in root.find(f"{ns}title").text
        classes = {el.get("class") for el in root.iter()}
        assert {"mc-band", "mc-jump", "mc-goal", "mc-axis"} <= classes
        jump = next(el for el in root.iter() if el.get("class") == "mc-jump")
        start, end = re.match(r"M([\d.]+),60 Q[\d.]+,[\d.]+ ([\d.]+),60", jump.get("d")).groups()
        assert float(start) < float(end)  # a jump to the right for +9

    def test_signed_addition_draws_its_own_line(self):
        step = SignedAddition(player=0, card=parse_card("9S"), value=9, before=5,
                              contribution=-9, after=-4, goal=0)
        svg = step.svg()
        assert "5 + (−9) = −4" in svg
        ET.fromstring(svg)

    def test_values_far_outside_the_band_still_fit(self):
        root = ET.fromstring(number_line_svg(-20, 27, goal=9, bound=BOUND))
        xs = [float(el.get("cx")) for el in root.iter() if el.get("cx")]
        assert all(0 <= x <= float(root.get("width")) for x in xs)


def test_chain_is_a_step_with_equation():
    step = chain_steps([11, -4])
    assert isinstance(step, Chain)
    assert step.equation.value == 7
