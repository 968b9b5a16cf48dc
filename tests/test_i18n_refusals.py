"""Issue 41: the refusals of card notation and of the exercise fields, the kinds' titles and
field help, the server's own pages, the network page and the static site's line, in the
reader's language (Spanish, and the pseudo-locale that shows any word left unmarked)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mathcards import i18n
from mathcards.errors import MathCardsError
from tests.test_i18n import _in_three, _no_english_left

# what stays as it is in every language: quoted input and templates, card notation, numbers,
# the games' titles, a YAML value's Python type (``dict``)
NOTATION = (r"\bdict\b|"
            r"'[^']*'|\"[^\"]*\"|\b(?:10|[2-9AJQKT])[SHDC♠♥♦♣]\b|\bJK\b|\bBIG\b|\bLITTLE\b|"
            r"\b[RGPB]/[RGPB]/[RGPB]/[RGPB]\b|\b\d+\b|Shoot the Moon|Suns to Moons|Sums\b")


def _refused(calls: list[Callable[[], Any]]) -> list[str]:
    said = []
    for call in calls:
        try:
            call()
        except MathCardsError as exc:
            said.append(str(exc))
        else:
            raise AssertionError(f"{call} was not refused")
    return said


def _field_refusals() -> list[str]:
    from mathcards.cards import parse_card
    from mathcards.exercises import fields as F
    from mathcards.games.suns_to_moons.exercises import ReachGoal

    goal = next(f for f in ReachGoal.fields if f.name == "goal")
    return _refused([
        lambda: parse_card("1X"), lambda: parse_card(5),  # type: ignore[arg-type]
        lambda: F.read_card("1X", "sums"), lambda: F.read_card("X9", "shoot_the_moon"),
        lambda: F.read_card("7H", "shoot_the_moon"), lambda: F.read_card("JK", "sums"),
        lambda: F.read_card("R3", "sums"), lambda: F.read_card(3.5, "sums"),
        lambda: F.split_cards({}),
        lambda: F.cards_template("5 random things", "sums"),
        lambda: F.cards_template("30 random cards", "sums"),
        lambda: F.cards_template("5 random cards with jokers", "sums"),
        lambda: F.cards_template("3 random green cards", "sums"),
        lambda: F.cards_template("3 random cards from 7H 8H", "sums"),
        lambda: F.int_template("3..-3"), lambda: F.read_int("lots"),
        lambda: goal.read("40", "suns_to_moons"),
        lambda: F.read_cards("5 random cards", "sums", high=3),
        lambda: F.read_cards("7H 8H 9H", "sums", high=2),
        lambda: F.read_one_card(None, "sums"), lambda: F.read_one_card("2 random cards", "sums"),
        lambda: F.read_one_card("7H 8H", "sums"),
        lambda: F.read_dice("1 2 3"), lambda: F.read_dice([1, 9]),
        lambda: F.read_deck("20 random cards"), lambda: F.read_deck(""),
        lambda: F.read_deck("+7H"), lambda: F.read_deck("7H=14"),
        lambda: F.read_deck("AH=14"), lambda: F.read_deck("+JK"),
        lambda: F.read_deck([7, 8]),
    ])


def test_card_and_exercise_field_refusals_read_in_spanish_and_the_pseudo_locale():
    """A card a teacher or student types wrong, and every refusal of an exercise's fields,
    were English on a Spanish page; the card notation itself stays (docs/translate.md)."""
    said = _in_three(_field_refusals)
    english = re.compile(r"\b(is|not|card|cards|write|ranks?|suits?|for|the|field|takes|"
                         r"random|draw|only|uses|with|number|dice|die|range|smaller|sign|"
                         r"centre|deck|value|Joker|template|list|needs|goal|must)\b", re.I)
    _no_english_left(said, english, NOTATION)
    # the English is as it was
    assert said[0][0] == ("'1X' is not a card: ranks A 2-10 J Q K (T for 10) then a suit S H D C"
                          " (or ♠ ♥ ♦ ♣), JK for a Joker, or a Shoot the Moon card R/G/P/B "
                          "(or ▲ ☾ ★ ●) 1-12, BIG, LITTLE")
    assert said[16][0] == "40: the goal must be from -10 to 10"
    # the Spanish names what is typed as it is typed
    with i18n.using("es"):
        spanish = _field_refusals()
    assert "S H D C" in spanish[2] and "'1X'" in spanish[2]
    assert "'5 random cards'" in spanish[9]


def test_the_set_writer_names_each_kind_in_the_pages_language():
    """The Write a set page listed the kinds by their English titles on a Spanish page
    ("Suns to Moons: Reach the goal"); the game's title stays as it is."""
    from mathcards.exercises.kinds import KINDS
    from widgets.setwriter import kind_label

    english = {kind: kind_label(kind) for kind in KINDS}
    with i18n.using("es"):
        spanish = {kind: kind_label(kind) for kind in KINDS}
    assert english["reach_goal"] == "Suns to Moons: Reach the goal"
    assert spanish["reach_goal"] == "Suns to Moons: Llega a la meta"
    for kind, label in english.items():
        title = label.split(": ", 1)[1]
        assert title not in spanish[kind], (kind, spanish[kind])


def test_the_static_sites_needs_a_server_line_reads_in_spanish_and_the_pseudo_locale():
    """The static site's one line for a feature it cannot offer was English on a Spanish
    page; its link to the teacher's guide stays."""
    from mathcards.site import SERVER_HELP, needs_server_html

    def said() -> list[str]:
        lines = [needs_server_html(i18n._(w)) for w in ("Playing with classmates",
                                                         "The teacher's view")]
        return [re.sub(r"<[^>]*>", " ", line) for line in lines] * 3  # _in_three wants > 5

    english = re.compile(r"\b(needs|server|how|run|one|teacher|view|playing)\b", re.I)
    _no_english_left(_in_three(said), english, r"\bMathCards\b")
    with i18n.using("es"):
        assert f'href="{SERVER_HELP}"' in needs_server_html("x")


def test_the_set_writers_field_boxes_show_their_examples_in_the_pages_language(tmp_path):
    """Each field box of the Write a set form showed its example and help in English on a
    Spanish page (its templates and card notation stay: they are what a teacher types)."""
    from mathcards.exercises.kinds import KINDS
    from mathcards.widgets.setwriter import SetWriter

    def said() -> list[str]:
        writer = SetWriter(tmp_path, schedule=lambda delay, fn: None)
        shown = []
        for kind, cls in KINDS.items():
            if cls.game == "moons_and_planets":
                continue  # its kinds' words are another engineer's (h41q)
            writer.w_kind.value = kind
            shown += [box.placeholder for box in writer.field_boxes.values()]
        return [s for s in shown if s]

    english = re.compile(r"\b(or|the|cards?|your|first|deck|play|hand|dice|adds|their)\b")
    _no_english_left(_in_three(said), english,
                     r"\b\d+ random cards|\brandom\b|\bnone\b|'played'|" + NOTATION)


def test_the_servers_wait_page_reads_in_the_requests_language():
    """The page a server sends while a class's pages are loading was English on a Spanish
    page: its words, its ``lang`` and the no-cookies line (still a valid script string)."""
    import json

    from mathcards.widgets.server import wait_page

    def said(lang: str) -> list[str]:
        page = wait_page(lang)
        status = re.search(r'role="status">([^<]*)<', page)
        script = re.search(r"textContent =\s*(\"(?:[^\"\\]|\\.)*\");", page)
        assert status and script and f'<html lang="{lang}">' in page
        assert 'content="wait-and-reload"' in page
        return [status.group(1), json.loads(script.group(1))] * 3

    english = re.compile(r"\b(opening|the|page|needs|allow|this|site|then|reload)\b", re.I)
    _no_english_left(list(zip(said("en"), said("es"), said("qps"), strict=True)), english,
                     r"\bMathCards\b")
    assert said("en")[0] == "Opening the page…"
