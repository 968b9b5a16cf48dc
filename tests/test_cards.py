"""The card notation of the rulings: parse, print, decks, errors."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathcards.cards import (
    Card,
    as_card,
    moon_deck,
    parse_card,
    parse_cards,
    standard_deck,
)
from mathcards.errors import CardParseError, MathCardsError


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("10H", "10H"), ("QS", "QS"), ("AD", "AD"), ("5C", "5C"), ("JK", "JK"),
        ("Joker", "JK"), ("joker", "JK"), ("qs", "QS"), ("A♦", "AD"), ("t♣", "10C"),
        ("TH", "10H"), ("10♥", "10H"), (" 7s ", "7S"), ("K♠", "KS"),
        ("R12", "R12"), ("g1", "G1"), ("P7", "P7"), ("B10", "B10"),
        ("BIG", "BIG"), ("little", "LITTLE"),
    ],
)
def test_accepted_spellings_print_canonically(text, canonical):
    assert str(parse_card(text)) == canonical


def test_parse_cards_reads_the_issue_example():
    assert parse_cards("10H qs A♦") == (Card("H", 10), Card("S", 12), Card("D", 1))
    assert parse_cards(["7H", Card("S", 8)]) == (Card("H", 7), Card("S", 8))
    assert parse_cards("7H,8S;  9D") == parse_cards("7H 8S 9D")
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    "bad", ["KX", "1H", "11S", "0D", "R13", "R0", "Y5", "", "10", "H10", "JKK", "A♦♦"]
)
def test_bad_text_is_a_clear_value_error(bad):
    with pytest.raises(CardParseError) as info:
        parse_card(bad)
    assert isinstance(info.value, ValueError) and isinstance(info.value, MathCardsError)
    message = str(info.value)
    assert repr(bad.strip()) in message and "ranks A 2-10 J Q K" in message


def test_non_text_is_refused():
    with pytest.raises(CardParseError):
        parse_card(7)  # type: ignore[arg-type]


def test_impossible_card_values_are_refused():
    with pytest.raises(CardParseError):
        Card("H", 14)
    with pytest.raises(CardParseError):
        Card("R", 13)
    with pytest.raises(CardParseError):
        Card("JK", 3)


def test_every_card_round_trips():
    for card in set(standard_deck(jokers=2)) | set(moon_deck()):
        assert parse_card(str(card)) == card
        assert as_card(str(card)) is not None and as_card(card) is card


@given(st.sampled_from(sorted(set(standard_deck(jokers=2)) | set(moon_deck()))))
def test_round_trip_through_symbol_and_lower_case(card):
    assert parse_card(str(card).lower()) == card
    assert parse_card(card.symbol) == card


def test_decks():
    one = standard_deck()
    assert len(one) == 52 and len(set(one)) == 52
    with_jokers = standard_deck(jokers=2, decks=3)
    assert len(with_jokers) == 162
    assert Counter(with_jokers)[Card("JK", 0)] == 6
    assert Counter(with_jokers)[Card("H", 7)] == 3
    moon = moon_deck()
    assert len(moon) == 52
    assert Counter(moon)[Card("BIG", 0)] == 2 and Counter(moon)[Card("LITTLE", 0)] == 2
    assert sum(1 for c in moon if c.suit == "R") == 12


def test_names_and_colours():
    assert parse_card("7H").name == "seven of hearts"
    assert parse_card("AS").name == "ace of spades"
    assert parse_card("R12").name == "red rocket 12"
    assert parse_card("JK").name == "joker"
    assert parse_card("QD").symbol == "Q♦"
    # moon cards are written as drawn: the colour's shape, the Moons in words (the name)
    assert [parse_card(t).symbol for t in ("R12", "G9", "P9", "B3", "BIG", "LITTLE")] == [
        "▲12", "☾9", "★9", "●3", "Big Moon", "Little Moon"]
    assert parse_card("R12").name == "red rocket 12" and str(parse_card("▲12")) == "R12"
    assert [parse_card(t).colour for t in ("7H", "7D", "7S", "7C", "G3", "JK")] == [
        "red", "red", "black", "black", "green", None,
    ]


def test_cards_are_immutable_and_hashable():
    card = parse_card("7H")
    with pytest.raises(AttributeError):
        card.rank = 8  # type: ignore[misc]
    assert {card: 1}[Card("H", 7)] == 1


def test_a_bad_moon_card_is_one_line_naming_the_shapes_too():
    """The shapes are read as colours (▲12 is R12), so the refusal names them as well."""
    import pytest

    from mathcards.cards import parse_card
    from mathcards.errors import CardParseError

    with pytest.raises(CardParseError) as info:
        parse_card("▲13")
    assert "\n" not in str(info.value) and "▲ ☾ ★ ●" in str(info.value)
