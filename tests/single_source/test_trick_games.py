"""Each trick-game rule is computed once, in its engine package; the exercise kinds,
the events and the move parser ask it (issue 13).

Seed texts: 003 (Shoot the Moon) and 004 (Moons and Planets) in shared/seeds.
"""

from __future__ import annotations

import dataclasses
import inspect
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.bots import play_game
from mathcards.cards import Card, parse_cards, standard_deck
from mathcards.errors import CardParseError, IllegalActionError
from mathcards.exercises.kinds import KINDS
from mathcards.explain import explain_new_events
from mathcards.games import moons_and_planets as mp
from mathcards.games import shoot_the_moon as stm
from mathcards.games.moons_and_planets import rules as mp_rules
from mathcards.games.registry import make_game
from mathcards.games.shoot_the_moon import rules as stm_rules
from tests.registered import trick_tables

MOON_DECK = sorted(set(stm.ShootTheMoon(num_players=3).deck()), key=str)
TRICK_CARDS = [c for c in standard_deck() if mp._playable(c)]


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- Shoot the Moon: who takes a trick (seed 003, "The Moon Cards") -----------------
@pytest.mark.parametrize(
    ("trick", "winner", "rule"),
    [
        ("G12 G3 G5", 0, stm.RULES[6]),  # the highest numbered card of the suit led
        ("G12 R3 G5", 1, "red_trumps"),  # any red card played: the highest red wins
        ("R5 R9 G12", 1, "highest_red"),
        ("R12 BIG G5", 1, "big_moon"),  # Big Moon cards always win the trick
        ("BIG R12 BIG", 0, "first_big_moon"),  # both Big Moons: the first one wins
        ("LITTLE R2 G9 P9", 2, "little_moon_led"),  # any colour, ties: first played wins
        ("LITTLE LITTLE", 0, "only_little_moons"),
    ],
)
def test_trick_winner_is_the_rules_module(trick: str, winner: int, rule: str) -> None:
    assert stm.trick_winner(trick.split()) == winner
    assert stm_rules.explain_trick(trick.split())[:2] == (winner, rule)
    assert rule in stm.RULE_WORDS


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(MOON_DECK), min_size=3, max_size=6, unique=True))
def test_the_engine_the_event_and_the_exercise_agree_on_the_trick_winner(trick: list[Card]) -> None:
    # played on a real table, the engine's event says who won and why
    table = stm.position([(c,) for c in trick])
    for card in trick:
        table = table.apply(stm.Play(card))
    won = next(e for e in table.events if isinstance(e, stm.TrickWon))
    index, rule, sentence = stm.explain_trick(trick)
    assert (won.winner_index, won.rule, won.reason) == (index, rule, sentence)
    kind = KINDS["who_takes_trick"]
    position = {"trick": tuple(trick)}
    assert kind.check(position, index).correct
    wrong = (index + 1) % len(trick)
    assert not kind.check(position, wrong).correct
    _wrong_pick_says_the_engines_rule(trick)


@pytest.mark.parametrize(
    ("trick", "chips", "change"),
    [
        ("BIG G5 P3", 2, 1),  # "Winning a Big Moon ... gains one chip ... immediately"
        ("BIG R12 BIG", 2, 2),  # two Big Moons: two chips
        ("G9 LITTLE LITTLE", 2, -2),  # two Little Moons: two chips lost
        ("G9 LITTLE LITTLE", 1, -1),  # "a player can never have less than zero chips"
        ("G9 LITTLE", 0, 0),
        ("G9 BIG LITTLE", 0, 0),  # they cancel
        ("G9 P9 R2", 3, 0),
    ],
)
def test_a_tricks_chips_are_the_rules_module(trick: str, chips: int, change: int) -> None:
    assert stm_rules.moon_chips(stm_rules.moons_in(parse_cards(trick)), chips) == change


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(MOON_DECK), min_size=3, max_size=3, unique=True),
       st.integers(0, 3))
def test_the_engines_chips_for_a_trick_are_the_rules_modules(trick: list[Card], chips: int) -> None:
    table = dataclasses.replace(stm.position([(c,) for c in trick]), chips=(chips,) * 3)
    for card in trick:
        table = table.apply(stm.Play(card))
    won = next(e for e in table.events if isinstance(e, stm.TrickWon))
    assert won.chips_change == stm_rules.moon_chips(stm_rules.moons_in(trick), chips)
    assert table.scores[won.player] == chips + won.chips_change


def _wrong_pick_says_the_engines_rule(trick) -> None:
    index, rule, _sentence = stm.explain_trick(trick)
    for pick in set(range(len(trick))) - {index}:
        result = KINDS["who_takes_trick"].check({"trick": tuple(trick)}, pick)
        assert [s.sentence for s in result.steps] == [stm.RULE_WORDS[rule]], trick


@pytest.mark.parametrize("trick", ["LITTLE LITTLE", "P5 G3 P9 LITTLE", "G12 G3 R3"])
def test_a_wrong_pick_is_told_the_engines_rule_and_nothing_of_its_own(trick: str) -> None:
    """Only Little Moons: the leader's Little Moon takes it, so "a Little Moon never wins"
    (the exercise's own rule, before) was wrong there."""
    _wrong_pick_says_the_engines_rule(cards(trick))


def _rule_holds(rule: str, trick: list[Card]) -> bool:
    """What each of RULE_WORDS says of a trick, checked on its cards."""
    suits = [c.suit for c in trick]
    colours = [s for s in suits if s not in ("BIG", "LITTLE")]
    return {
        "big_moon": suits.count("BIG") == 1,
        "first_big_moon": suits.count("BIG") == 2,
        "little_moon_led": suits[0] == "LITTLE" and bool(colours) and "BIG" not in suits,
        "only_little_moons": set(suits) == {"LITTLE"},
        "red_trumps": "R" in suits and suits[0] != "R" and "BIG" not in suits,
        "highest_red": suits[0] == "R" and "BIG" not in suits,
        # "no Big Moon and no red" (a Little Moon may lie in the trick, not led)
        stm.RULES[6]: "BIG" not in suits and "R" not in suits and suits[0] != "LITTLE",
    }[rule]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MOON_DECK), min_size=2, max_size=6, unique=True))
def test_the_rule_words_are_true_of_the_trick(trick: list[Card]) -> None:
    _index, rule, _sentence = stm.explain_trick(trick)
    assert _rule_holds(rule, trick), (trick, rule)


def test_the_led_colour_words_allow_a_little_moon_in_the_trick() -> None:
    """'G9 LITTLE G12': the led colour wins with a Little Moon played; the words said
    'no red and no moon' before."""
    _index, rule, _sentence = stm.explain_trick(cards("G9 LITTLE G12"))
    assert rule == stm.RULES[6] and _rule_holds(rule, list(cards("G9 LITTLE G12")))
    assert "no moon" not in stm.RULE_WORDS[rule] and "no Big Moon" in stm.RULE_WORDS[rule]


# --- Shoot the Moon: may this card be played (seed 003, "Game Play") -----------------
@pytest.mark.parametrize(
    ("hand", "led", "allowed"),
    [
        ("G4 R5 BIG", "G9", "G4 BIG"),  # follow suit or play a moon card
        ("G4 R5", "P2", "G4 R5"),  # cannot follow: any card
        ("G4 R5 LITTLE", "BIG", "G4 R5 LITTLE"),  # a led Big Moon sets no suit
        ("G4 R5", None, "G4 R5"),  # leading: any card
    ],
)
def test_may_play_is_the_engines_legal_actions(hand: str, led: str | None, allowed: str) -> None:
    table = stm.position(["", hand, ""], trick=() if led is None else (led,), to_play=1)
    legal = {a.card for a in table.legal_actions()}
    assert legal == set(cards(allowed)) == set(stm.legal_cards(hand, led))
    kind = KINDS["is_play_legal"]
    for card in cards(hand):
        position = {"hand": cards(hand), "led": None if led is None else cards(led)[0],
                    "card": card}
        assert kind.truth(position) is (card in legal)


# --- Shoot the Moon: a card is written as it is drawn (issue 13) ---------------------
TYPED_MOON_CARD = re.compile(r"\b(?:[RGPB](?:1[0-2]|[1-9])|BIG|LITTLE)\b")


def test_every_sentence_writes_a_moon_card_as_drawn() -> None:
    """Events, the explainer, moves, refusals and exercise feedback say ▲12 and Big Moon, as
    the cards show them, never the typed R12 or BIG (which saves and the move box read)."""
    game = stm.ShootTheMoon(num_players=3)
    final = play_game(game, seed=4, bots="strong")
    state, said = game.new_game(4), []
    for action in final.actions:
        said.append(str(action))
        said += [state.why_illegal(stm.Play(c)) for c in MOON_DECK
                 if not state.is_legal(stm.Play(c))]
        state = state.apply(action)
    said += [e.describe(("Ada", "Ben", "Cy")) for e in final.events]
    said += [step.spoken for step in explain_new_events(final.events, game=game.name)]
    who, legal = KINDS["who_takes_trick"], KINDS["is_play_legal"]
    for won in (e for e in final.events if isinstance(e, stm.TrickWon)):
        trick = {"trick": won.cards}
        said += [*who.choices(trick), who.solution(trick).text, who.hint(trick, 3).spoken]
        said += [who.check(trick, i).text for i in range(len(won.cards))]
        position = {"hand": won.cards[1:], "led": won.cards[0], "card": won.cards[1]}
        said += [legal.prompt(position), legal.check(position, "yes").text]
    assert any("▲" in s for s in said) and any("Big Moon" in s for s in said)
    typed = [s for s in said if TYPED_MOON_CARD.search(s)]
    assert typed == []
    assert [str(c) for c in cards("R12 BIG")] == ["R12", "BIG"]  # the typed form stays


# --- Moons and Planets: planets and moons (seed 004) --------------------------------
@pytest.mark.parametrize(
    ("text", "planet"),
    [
        ("9H 8H", True),  # 2+ cards of one suit adding to 15-18
        ("KS 5S", True),  # picture cards count 10
        ("KS 9S", False),  # 19
        ("9H 5H", False),  # 14
        ("5C", True),  # the 5 of clubs on its own
        ("5C 10C", False),  # never part of a larger planet
        ("AH 7H 8H", False),  # no aces
        ("9H 8D", False),  # one suit
    ],
)
def test_planets_are_the_rules_module(text: str, planet: bool) -> None:
    assert mp_rules.is_planet(text) is planet
    assert KINDS["planet_or_not"].truth({"cards": cards(text)}) is planet


def test_planet_words_give_the_rules_bounds() -> None:
    """Seed 004: a planet's cards add up to 15-18; every sentence about it takes the two
    numbers from the rules (PLANET_LOW, PLANET_HIGH), as the check does."""
    from mathcards.widgets.lesson import GuidedHand

    bounds = f"{mp_rules.PLANET_LOW}-{mp_rules.PLANET_HIGH}"
    assert bounds in mp_rules.planet_reason("9H 8H")
    assert bounds in KINDS["planet_or_not"].hint({"cards": cards("9H 8H")}, 1).spoken
    for words in (mp_rules.planet_problem, mp_rules.planet_reason,
                  type(KINDS["planet_or_not"]).hint, GuidedHand.guide_sentence):
        assert not re.search(r"15\s*(-|–|to)\s*18", inspect.getsource(words)), words


@pytest.mark.parametrize(
    ("text", "moon"),
    [
        ("3H 4D 5H", True),  # a run of the same colour, not suit
        ("3H 4S 5H", False),
        ("9S 9C", True),  # 2-4 of one value
        ("9S 9C 9D 9H", True),
        ("AS", True),  # an ace is an automatic moon
        ("AS AH", False),  # ... only alone
        ("QH KH AH", False),  # aces never in a run
        ("5C 6C 7C", False),  # the 5 of clubs is only a planet
    ],
)
def test_moons_are_the_rules_module(text: str, moon: bool) -> None:
    assert mp_rules.is_moon(text) is moon
    assert KINDS["moon_or_not"].truth({"cards": cards(text)}) is moon


# --- Moons and Planets: which prize a card takes (seed 004 rule 4) -------------------
def test_discards_of_one_rank_go_by_suit() -> None:
    # discards of the same denomination: diamonds, clubs, spades, hearts
    assert mp.prize_order(["3S", "8H", "8D", "8C", "2S"]) == [0, 4, 2, 3, 1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(TRICK_CARDS), min_size=2, max_size=5, unique=True))
def test_the_engine_the_event_and_the_exercise_agree_on_prizes(trick: list[Card]) -> None:
    award = mp.play_trick(trick)  # the trick played on a real table
    assert list(award.order) == mp.prize_order(trick)
    kind = KINDS["which_prize"]
    for mine, card in enumerate(trick):
        ranking = next(r for r in award.ranking_reasons if r.player == mine)
        assert ranking.card == card and ranking.reason.startswith(ranking.ranking)
        position = {"trick": tuple(trick), "yours": card, "prizes": None}
        assert kind.check(position, ranking.place).correct
        wrong = kind.check(position, ranking.place % len(trick) + 1)
        assert not wrong.correct
        assert ("it follows the led suit" in wrong.text) is ranking.follows


def test_a_wrong_prize_gives_the_suit_order_of_the_rules(monkeypatch) -> None:
    """Seed 004: "Diamonds are highest, followed by clubs, then spades, then hearts"."""
    position = {"trick": cards("3S 2S 4H 8D"), "yours": Card("H", 4), "prizes": None}
    assert "♦ > ♣ > ♠ > ♥" in KINDS["which_prize"].check(position, 1).text
    monkeypatch.setattr(mp, "SUITS_HIGH_TO_LOW", "(the rules' one order)")
    assert "(the rules' one order)" in KINDS["which_prize"].check(position, 1).text


# --- events are worded with the table's names ---------------------------------------
@pytest.mark.parametrize("name", trick_tables())
def test_events_name_the_seats(name: str) -> None:
    game = make_game(name, num_players=3)
    state = play_game(game, seed=3, bots="strong")
    names = ("Ada", "Ben", "Cy")
    worded = [e.describe(names) for e in state.events]
    assert not any("Player " in text for text in worded)
    assert any(n in text for text in worded for n in names)
    plain = [e.describe() for e in state.events]
    assert any("Player 1" in text or "Player 2" in text for text in plain)


def test_phases_are_an_enum() -> None:
    state = mp.MoonsAndPlanets(num_players=2).new_game(0)
    assert isinstance(state.phase, mp.Phase) and state.phase is mp.Phase.PUT_DOWN
    assert state.observation(0).phase is mp.Phase.PUT_DOWN


# --- one move parser per game --------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1])
def test_every_legal_move_reads_back_through_the_parser(seed: int) -> None:
    state = mp.MoonsAndPlanets(num_players=3, trick_limit=4).new_game(seed)
    bot_state = play_game(state.game, seed=seed, bots="strong")
    for action in bot_state.actions:
        assert mp.parse_move(state, str(action)) == action
        state = state.apply(action)
    stm_state = stm.ShootTheMoon(num_players=4, target_chips=3).new_game(seed)
    while not stm_state.is_over:
        action = next(iter(stm_state.legal_actions()))
        assert stm.parse_move(stm_state, str(action)) == action
        stm_state = stm_state.apply(action)


def test_the_parser_refuses_with_the_engines_rule() -> None:
    table = stm.position(["", "G4 R5 BIG", ""], trick="G9")
    with pytest.raises(IllegalActionError, match="you must follow green"):
        stm.parse_move(table, "R5")
    with pytest.raises(CardParseError):
        stm.parse_move(table, "play")
    state = mp.position(["9H 8H 3S", "2S"])
    with pytest.raises(IllegalActionError, match="you do not hold"):
        mp.parse_move(state, "planet 9D 8D")
    with pytest.raises(CardParseError, match="moves look like"):
        mp.parse_move(state, "fly to the moon")
    assert mp.parse_move(state, "planet 9♥ 8h") == mp.DeclarePlanet("9H 8H")
