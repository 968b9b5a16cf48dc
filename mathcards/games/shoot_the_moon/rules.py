"""Shoot the Moon rules on cards: who wins a trick and why, what may be played, round awards.

Each rule is computed here only; the engine, the events, the bot and the exercise kinds ask it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from mathcards.cards import (
    BIG_MOON,
    LITTLE_MOON,
    MOON_COLOUR_NAMES,
    Card,
    as_card,
    moon_deck,
)
from mathcards.errors import CardParseError
from mathcards.i18n import N_, _

HAND_SIZE = 5
TRICKS_PER_ROUND = 5
START_CHIPS = 2
RED = "R"

BIG = Card(BIG_MOON, 0)
LITTLE = Card(LITTLE_MOON, 0)
_DECK = moon_deck()
_DECK_COUNTS = Counter(_DECK)

# Rule keys of a trick's winner (the lesson text of each is in the sentence).
RULE_BIG_MOON = "big_moon"
RULE_FIRST_BIG_MOON = "first_big_moon"
RULE_LITTLE_MOON_LED = "little_moon_led"
RULE_ONLY_LITTLE_MOONS = "only_little_moons"
RULE_RED_TRUMPS = "red_trumps"
RULE_HIGHEST_RED = "highest_red"
RULE_LED_COLOUR = "led_colour"
RULES = (
    RULE_BIG_MOON,
    RULE_FIRST_BIG_MOON,
    RULE_LITTLE_MOON_LED,
    RULE_ONLY_LITTLE_MOONS,
    RULE_RED_TRUMPS,
    RULE_HIGHEST_RED,
    RULE_LED_COLOUR,
)
# Each rule key in the players' words (lessons and exercises say why a trick was won).
RULE_WORDS = {
    RULE_BIG_MOON: N_("a Big Moon always wins the trick"),
    RULE_FIRST_BIG_MOON: N_("two Big Moons were played: the first one wins"),
    RULE_LITTLE_MOON_LED: N_("a Little Moon was led: the highest number of any colour wins"),
    RULE_ONLY_LITTLE_MOONS: N_("only Little Moons were played: the leader takes the trick"),
    RULE_RED_TRUMPS: (
        N_("a red rocket was played: red trumps every other colour, the highest red wins")
    ),
    RULE_HIGHEST_RED: N_("red was led: the highest red wins"),
    RULE_LED_COLOUR: N_("no Big Moon and no red: the highest card of the led colour wins"),
}


# --- the pure rules API ----------------------------------------------------
def _is_moon(card: Card) -> bool:
    return card.suit == BIG_MOON or card.suit == LITTLE_MOON


def _check_moon_cards(cards: Iterable[str | Card] | str, what: str) -> tuple[Card, ...]:
    """Shoot the Moon cards, given as cards or as text ("G4 R5 BIG"), at most as many of
    each as the deck holds; ``what`` names them in the refusal."""
    out = tuple(as_card(c) for c in (cards.split() if isinstance(cards, str) else cards))
    for card in out:
        if not (card.is_moon_card or _is_moon(card)):
            raise CardParseError(
                _("{card} is not a Shoot the Moon card: use R, G, P or B with 1-12, BIG or "
                  "LITTLE").format(card=card))
    for card, count in Counter(out).items():
        if count > _DECK_COUNTS[card]:
            raise CardParseError(
                _("{what} holds {count} x {card}, but the deck has only {most}").format(
                    what=what, count=count, card=card, most=_DECK_COUNTS[card]))
    return out


def _explain(cards: tuple[Card, ...]) -> tuple[int, str, str]:
    """Winner index, rule key and sentence of a trick of valid cards (not empty)."""
    first_big = -1
    for i, card in enumerate(cards):
        if card.suit == BIG_MOON:
            if first_big < 0:
                first_big = i
            else:
                return (
                    first_big,
                    RULE_FIRST_BIG_MOON,
                    _("Big Moon always wins: both Big Moons were played, the first one wins"),
                )
    if first_big >= 0:
        return first_big, RULE_BIG_MOON, _("Big Moon always wins")
    led = cards[0]
    if led.suit == LITTLE_MOON:
        best = -1
        for i, card in enumerate(cards):
            if card.suit != LITTLE_MOON and (best < 0 or card.rank > cards[best].rank):
                best = i
        if best < 0:
            return 0, RULE_ONLY_LITTLE_MOONS, _("only Little Moons: the leader takes it")
        win = cards[best]
        ties = [c for c in cards[best + 1 :] if c.suit != LITTLE_MOON and c.rank == win.rank]
        sentence = (_("Little Moon led: highest number wins: {cards} tie, the first played "
                      "wins") if ties else _("Little Moon led: highest number wins: {cards}")
                    ).format(cards=_and([win, *ties]))
        return best, RULE_LITTLE_MOON_LED, sentence
    best_red = -1
    best_led = -1
    for i, card in enumerate(cards):
        if card.suit == RED:
            if best_red < 0 or card.rank > cards[best_red].rank:
                best_red = i
        elif card.suit == led.suit and (best_led < 0 or card.rank > cards[best_led].rank):
            best_led = i
    if best_red >= 0:
        if led.suit == RED:
            return best_red, RULE_HIGHEST_RED, _("highest red wins: {card}").format(
                card=cards[best_red].symbol)
        return (
            best_red,
            RULE_RED_TRUMPS,
            _("red trumps: {red} beats {led}").format(red=cards[best_red].symbol,
                                                      led=cards[best_led].symbol),
        )
    return best_led, RULE_LED_COLOUR, _("highest {colour} wins: {card}").format(
        colour=colour_word(led.suit), card=cards[best_led].symbol)


def _and(cards: Sequence[Card]) -> str:
    return _and_names([c.symbol for c in cards])


def _and_names(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


# the moon cards' colours as a sentence says them ("you must follow red")
_COLOUR_WORDS = {"R": N_("red"), "G": N_("green"), "P": N_("purple"), "B": N_("blue")}


def colour_word(suit: str) -> str:
    """A moon card colour's name in the page's language (``MOON_COLOUR_NAMES`` in words)."""
    assert _COLOUR_WORDS[suit] == MOON_COLOUR_NAMES[suit]
    return _(_COLOUR_WORDS[suit])



def explain_trick(cards_in_play_order: Iterable[str | Card]) -> tuple[int, str, str]:
    """Who wins a trick and why: ``(winner_index, rule_key, sentence)``.

    The first card is the one led. Works for a finished trick or one still
    being played (then it is the card winning so far).

    >>> explain_trick(["G12", "R3"])
    (1, 'red_trumps', 'red trumps: ▲3 beats ☾12')
    >>> explain_trick(["R5", "BIG", "BIG"])
    (1, 'first_big_moon', 'Big Moon always wins: both Big Moons were played, the first one wins')
    """
    cards = _check_moon_cards(cards_in_play_order, _("a trick"))
    if not cards:
        raise CardParseError("a trick needs at least one card: give the cards in play order")
    return _explain(cards)


def trick_winner(cards_in_play_order: Iterable[str | Card]) -> int:
    """Index (0 = the card led) of the card that wins the trick.

    >>> trick_winner(["LITTLE", "R2", "G9"])
    2
    """
    return explain_trick(cards_in_play_order)[0]


def _legal_cards(hand: tuple[Card, ...], led: Card | None) -> tuple[Card, ...]:
    if led is None or _is_moon(led):
        return hand
    suit = led.suit
    if any(c.suit == suit for c in hand):
        return tuple(c for c in hand if c.suit == suit or _is_moon(c))
    return hand


def legal_cards(hand: Iterable[str | Card], led_card_or_None: str | Card | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led by ``led_card_or_None``.

    Follow the led colour if you can; a Big or Little Moon may always be played;
    a led moon (or leading yourself: ``None``) leaves every card playable.

    >>> legal_cards("G4 R5 BIG", "G9")
    [Card('G4'), Card('BIG')]
    >>> legal_cards("G4 R5", "P2")
    [Card('G4'), Card('R5')]
    """
    cards = _check_moon_cards(hand, _("a hand"))
    led = None if led_card_or_None is None else _check_moon_cards([led_card_or_None], "")[0]
    return list(dict.fromkeys(_legal_cards(cards, led)))


def follow_rule(hand: Iterable[str | Card], led_card_or_None: str | Card | None) -> str:
    """In words, what the hand must play to this trick."""
    cards = _check_moon_cards(hand, _("a hand"))
    led = None if led_card_or_None is None else _check_moon_cards([led_card_or_None], "")[0]
    if led is None:
        return _("you lead: any card may be played")
    if _is_moon(led):
        return _("a {card} was led: it sets no colour, any card may be played").format(
            card=led.name)
    colour = colour_word(led.suit)
    same = [c for c in cards if c.suit == led.suit]
    if same:
        return _("you must follow {colour}: you hold {cards} (or play a Big or Little "
                 "Moon)").format(colour=colour, cards=_and(same))
    return _("you hold no {colour}: any card may be played").format(colour=colour)


def moons_in(trick: Sequence[Card]) -> int:
    """What a trick's moons are worth to its taker: +1 a Big Moon, −1 a Little Moon."""
    return trick.count(BIG) - trick.count(LITTLE)


def moon_chips(moons: int, chips: int) -> int:
    """The chips gained or lost by the taker of a trick whose moons are worth ``moons``
    (``moons_in``), holding ``chips`` before: chips never go below 0."""
    return max(moons, -chips)


def round_award(tricks: int) -> int:
    """Chips for a round's tricks: 1 or 3 tricks +1, all 5 +2, an even number 0."""
    if tricks == TRICKS_PER_ROUND:
        return 2
    return 1 if tricks % 2 == 1 else 0

