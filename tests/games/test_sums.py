"""Sums: every rule sentence of seed 002 with the rulings "Sums", as table tests.

Each test quotes the sentence it checks. Positions are built by hand with
``position(...)`` (hands, face-up sides, piles), then played through the
public protocol (``legal_actions`` / ``apply``), so the tests see exactly
what a student or a bot sees.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import itertools
import pkgutil
import random
from collections import Counter as Tally

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.bots import play_game
from mathcards.cards import Card, parse_card, parse_cards, standard_deck
from mathcards.errors import IllegalActionError, SettingsError
from mathcards.games import sums
from mathcards.games.registry import make_game
from mathcards.games.sums import (
    Capture,
    Captured,
    CaptureThreatened,
    CardDealtFaceUp,
    CardDrawn,
    CardPlayed,
    CardTakenBack,
    Counter,
    CounterDeclined,
    Countered,
    Decline,
    Draw,
    EndGame,
    GameEnded,
    LastPlay,
    Play,
    Sums,
    TakeBack,
    TurnSkipped,
    capture_targets,
    capture_ways,
    card_points,
    card_value,
    strong_policy,
)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def position(
    hands: list[str],
    sides: list[str],
    piles: tuple[str, ...] = ("2C 3C 4C", "5C 6C 7C"),
    *,
    turn: int = 0,
    captured: list[str] | None = None,
    **settings_,
):
    """A hand-made position at the start of ``turn``'s regular turn.

    The first card of each side is the card that player was dealt face up.
    """
    n = len(hands)
    game = Sums(num_players=n, **settings_)
    start = game.new_game(0)
    side_cards = tuple(cards(s) for s in sides)
    return dataclasses.replace(
        start,
        hands=tuple(cards(h) for h in hands),
        sides=side_cards,
        dealt=tuple(side[0] if side else None for side in side_cards),
        captured=tuple(cards(c) for c in (captured or [""] * n)),
        piles=tuple(cards(p) for p in piles),
        turn_player=turn,
        actor=turn,
    )


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def legal_set(state):
    return set(state.legal_actions())


# --- values and scoring ---------------------------------------------------------------


@pytest.mark.parametrize(
    "card, value, points",
    [
        ("2H", 2, 1), ("5S", 5, 1), ("10D", 10, 1),  # "Number cards ... face value ... 1 point"
        ("AC", 1, 3),  # "Aces are worth 1 in game, 3 in scoring"
        ("KH", 13, 3),  # "Kings are worth 13 in game, 3 in scoring"
        ("QS", 12, 2),  # "Queens are worth 12 in game, 2 in scoring"
        ("JD", 11, 2),  # "Jacks are worth 11 in game, 2 in scoring"
    ],
)
def test_values_and_scoring_table(card, value, points):
    assert card_value(card) == value
    assert card_points(parse_card(card)) == points


def test_score_is_cards_on_your_side_plus_cards_you_captured():
    """"highest combined score of cards in play on your side AND cards removed from opponent"."""
    state = position(["", ""], ["2H KS", "QD"], captured=["AD JC", ""])
    assert state.scores == (1 + 3 + 3 + 2, 2)


# --- the deal -----------------------------------------------------------------------------


@pytest.mark.parametrize("players, hand", [(2, 5), (3, 5), (4, 3), (5, 5), (8, 5)])
def test_deal_five_each_or_three_with_four_players_and_one_face_up(players, hand):
    """"Players get 5 cards each (or 3, if a 4-player game) ... and dealt 1 card face-up"."""
    state = Sums(num_players=players).new_game(3)
    assert all(len(h) == hand for h in state.hands)
    assert all(len(side) == 1 for side in state.sides)
    dealt = [e for e in state.events if isinstance(e, CardDealtFaceUp)]
    assert [(e.player, e.card) for e in dealt] == [(i, s[0]) for i, s in enumerate(state.sides)]
    assert Tally(state.all_cards()) == Tally(Sums(num_players=players).deck())


@pytest.mark.parametrize("players, decks", [(2, 1), (4, 1), (5, 2), (8, 2)])
def test_one_deck_per_four_players_rounded_up(players, decks):
    """Ruling 1: decks 1 per 4 players, rounded up ("Multiple decks recommended for > 4")."""
    game = Sums(num_players=players)
    assert len(game.deck()) == 52 * decks
    assert Tally(game.deck()) == Tally(standard_deck(0, decks))


@pytest.mark.parametrize("piles", [2, 3, 5])
def test_the_rest_goes_into_face_up_community_piles(piles):
    """"Split the rest of the cards into face-up community piles on the table, at least two"."""
    game = Sums(num_players=3, piles=piles)
    state = game.new_game(11)
    sizes = [len(p) for p in state.piles]
    assert len(sizes) == piles and sum(sizes) == 52 - 3 * 6
    assert max(sizes) - min(sizes) <= 1
    obs = state.observation(1)
    assert obs.pile_tops == tuple(p[-1] for p in state.piles)  # face up: the top shows
    assert obs.pile_sizes == tuple(sizes)


def test_same_seed_same_deal_other_seed_other_deal():
    game = Sums(num_players=3)
    assert game.new_game(5) == game.new_game(5)
    assert game.new_game(5).hands != game.new_game(6).hands


@pytest.mark.parametrize(
    "settings_, words",
    [
        ({"num_players": 1}, "2-8 players"),
        ({"num_players": 9}, "2-8 players"),
        ({"num_players": 2, "piles": 1}, "2 or more"),
        ({"num_players": 2, "piles": True}, "piles must be"),
        ({"num_players": 2, "decks": 0}, "decks must be"),
        ({"num_players": 2, "decks": "2"}, "decks must be"),
        ({"num_players": 2, "variant_return": "yes"}, "variant_return must be True or False"),
        ({"num_players": 2, "variant_draw_or_play": 1}, "True or False"),
        ({"num_players": 8, "decks": 1, "piles": 5}, "more decks or fewer piles"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(settings_, words):
    with pytest.raises(SettingsError) as info:
        make_game("sums", **settings_)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_eight_players_one_deck_four_piles_is_just_enough():
    state = Sums(num_players=8, decks=1, piles=4).new_game(0)
    assert [len(p) for p in state.piles] == [1, 1, 1, 1]


# --- capture_targets: the capture rule as a pure function --------------------------


@pytest.mark.parametrize(
    "played, own, opponent, expected, sentence",
    [
        # sum: P + H = O
        ("3H", "4H", "7H", "7H", "most recent card played, plus ... any other card"),
        # difference: P − H = O
        ("9H", "2H", "7H", "7H", "plus OR minus any other card"),
        # "the negative of": P − H = −O, i.e. |P − H| = O
        ("2H", "9H", "7H", "7H", "equals the value or negative of"),
        # colour, not suit: hearts and diamonds are both red
        ("3H", "4D", "7D", "7D", "cards of the same color"),
        ("3C", "4S", "7C 7S 7H", "7C 7S", "of the same color an opponent has in play"),
        # helper of the other colour does not help
        ("3H", "4S", "7H", "", "any other card of the same color the current player has"),
        # target of the other colour is safe
        ("3H", "4H", "7S", "", "one of the cards of the same color an opponent has"),
        # a helper is required: a lone equal card captures nothing
        ("7H", "", "7H", "", "ruling 4: a helper card H is required"),
        ("7H", "7S", "7H", "", "ruling 4: a helper card H is required (of P's colour)"),
        # several targets are all listed (only one is captured: see the engine tests)
        ("5D", "2D", "3H 7D 3D", "3H 7D 3D", "two or more cards meet this criteria"),
        # values beyond the deck are simply not reached
        ("KH", "QH", "AD", "", "only a Queen takes an Ace (13 − 12 = 1 is not enough)"),
    ],
)
def test_capture_targets_table(played, own, opponent, expected, sentence):
    assert capture_targets(played, cards(own), cards(opponent)) == list(cards(expected)), sentence


@pytest.mark.parametrize(
    "played, own, opponent, expected",
    [
        ("QH", "JH", "AH", "AH"),  # 12 − 11 = 1: a Queen takes an Ace
        ("QH", "KD", "AD", "AD"),  # 12 − 13 = −1, the negative of 1
        ("3H", "2H", "AH", ""),  # 3 − 2 = 1 but not a Queen
        ("AH", "2H", "AH", ""),  # 2 − 1 = 1, still not a Queen
        ("QH", "5H", "AH", ""),  # a Queen, but the sum must still hold
        ("QH", "JS", "AH", ""),  # a Queen with a helper of the other colour
        ("QS", "JS", "AH", ""),  # a black Queen cannot take a red Ace
    ],
)
def test_an_opponents_ace_only_falls_to_a_queen_and_the_sum_must_hold(
    played, own, opponent, expected
):
    """"An opponent's Aces can only be removed by playing a Queen of the same color"."""
    assert capture_targets(played, cards(own), cards(opponent)) == list(cards(expected))


@pytest.mark.parametrize(
    "played, own, opponent, expected",
    [
        ("2S", "JS", "KS", "KS"),  # 2 + 11 = 13: a 2 takes a King
        ("2C", "JS", "KS", "KS"),  # colour, not suit
        ("6S", "7S", "KS", ""),  # 6 + 7 = 13 but not a 2
        ("2S", "10S", "KS", ""),  # a 2, but the sum must still hold
        ("2H", "JH", "KS", ""),  # a red 2 cannot take a black King
    ],
)
def test_an_opponents_king_only_falls_to_a_two_and_the_sum_must_hold(
    played, own, opponent, expected
):
    """"An opponent's Kings can only be removed by playing a 2 of the same color"."""
    assert capture_targets(played, cards(own), cards(opponent)) == list(cards(expected))


def test_capture_ways_give_helper_operation_and_result():
    ways = capture_ways("5H", ["2H", "KS", "8D"], ["7H", "3D", "AH"])
    found = {(str(w.target), str(w.helper), w.op, w.result) for w in ways}
    assert found == {("7H", "2H", "+", 7), ("3D", "2H", "-", 3), ("3D", "8D", "-", 3)}
    negative = next(w for w in ways if str(w.helper) == "8D")
    assert negative.equation == "8 − 5 = 3"
    assert capture_ways("9H", ["2H"], ["7H"])[0].equation == "9 − 2 = 7"
    assert capture_ways("3H", ["4H"], ["7H"])[0].equation == "3 + 4 = 7"


def test_capture_targets_accepts_cards_or_text_and_lists_each_copy():
    assert capture_targets(parse_card("3H"), ["4H"], cards("7H 7H")) == list(cards("7H 7H"))
    assert capture_targets("3h", ["4H", "5C"], ("7♥",)) == [Card("H", 7)]


def brute_force_targets(played, own, opponent):
    """Ruling 4 read word by word, by trying every helper and both signs."""
    def colour(card):
        return "red" if card.suit in "HD" else "black"

    found = []
    for target in opponent:
        if colour(target) != colour(played):
            continue
        if target.rank == 1 and played.rank != 12:
            continue
        if target.rank == 13 and played.rank != 2:
            continue
        for helper, sign in itertools.product(own, (1, -1)):
            if colour(helper) != colour(played):
                continue
            total = played.rank + sign * helper.rank
            if total in (target.rank, -target.rank):
                found.append(target)
                break
    return found


card_strategy = st.builds(Card, st.sampled_from("SHDC"), st.integers(1, 13))


@settings(max_examples=400, deadline=None)
@given(
    played=card_strategy,
    own=st.lists(card_strategy, max_size=6),
    opponent=st.lists(card_strategy, max_size=8),
)
def test_capture_targets_agrees_with_brute_force(played, own, opponent):
    assert capture_targets(played, own, opponent) == brute_force_targets(played, own, opponent)
    for way in capture_ways(played, own, opponent):
        assert way.helper in own and way.target in opponent
        p, h = played.rank, way.helper.rank
        assert (p + h if way.op == "+" else abs(p - h)) == way.result == way.target.rank


# --- a turn ---------------------------------------------------------------------------------


def test_a_turn_is_draw_then_play_by_the_same_player():
    """"drawing one card from any one of the community piles. Then the current player places
    one card from their hand to the table on their side, face up"."""
    state = position(["4D 5D", "6D"], ["9H", "8S"], piles=("2C 3C", "10S JS"))
    assert legal_set(state) == {Draw(0), Draw(1)}
    state = state.apply(Draw(1))
    assert state.new_events == (CardDrawn(0, 1, parse_card("JS")),)
    assert state.current_player == 0
    assert state.hands[0] == cards("4D 5D JS") and state.piles[1] == cards("10S")
    assert legal_set(state) == {Play(c) for c in cards("4D 5D JS")}
    state = state.apply(Play("5D"))
    assert state.sides[0] == cards("9H 5D") and state.current_player == 1
    assert state.new_events == (CardPlayed(0, parse_card("5D")),)


def test_only_the_top_card_of_a_pile_can_be_drawn():
    """Ruling 2: "Only a pile's top card can be drawn"."""
    state = position(["", ""], ["9H", "8S"], piles=("2C 3C", "10S JS")).apply(Draw(0))
    assert state.hands[0] == cards("3C")


@pytest.mark.parametrize(
    "action, reason",
    [
        (Play("4D"), "draw a card first"),
        (Play("7H"), "draw a card first"),
        (Draw(2), "there is no pile 3"),
        (Capture("8S", 1), "there is no capture to choose now"),
        (Counter("4D"), "there is no capture to counter now"),
        (Decline(), "there is no capture to counter now"),
        (TakeBack("9H"), "'return' variant, which is off"),
        (EndGame(), "the game ends only when a pile is empty"),
    ],
)
def test_illegal_actions_say_why_and_leave_the_state_unchanged(action, reason):
    state = position(["4D 5D", "6D"], ["9H", "8S"])
    before = state.to_json(), state.hands, state.sides, state.piles
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert reason in info.value.reason
    assert (state.to_json(), state.hands, state.sides, state.piles) == before


def test_after_drawing_you_must_play_a_card_you_hold():
    state = position(["4D 5D", "6D"], ["9H", "8S"]).apply(Draw(0))
    with pytest.raises(IllegalActionError, match="you do not hold 7♥"):
        state.apply(Play("7H"))
    with pytest.raises(IllegalActionError, match="you have drawn already"):
        state.apply(Draw(1))


# --- captures in play ---------------------------------------------------------------------------


def test_a_capture_happens_after_the_play_and_is_compulsory():
    """"that opponent's card is removed and placed aside face-down for the current player"."""
    state = position(["3H", "KC"], ["4H", "7H 8S"], piles=("2C 3C", "5C 6C"))
    state = play(state, Draw(0), Play("3H"))
    # player 2 holds KC: no counter, so the capture resolves at once
    assert state.sides == (cards("4H 3H"), cards("8S"))
    assert state.captured == (cards("7H"), ())
    threat, captured = state.new_events[1:3]
    assert threat == CaptureThreatened(0, *cards("3H 4H"), "+", parse_card("7H"), 1)
    assert captured == Captured(0, parse_card("7H"), 1, *cards("3H 4H"), "+")
    assert state.current_player == 1
    assert state.scores == (1 + 1 + 1, 1)


def test_the_negative_of_a_card_captures_too():
    """"equals the value or negative of one of the cards": 2 − 9 = −7 takes a 7."""
    state = play(position(["2H", "KC"], ["9H", "7D"]), Draw(0), Play("2H"))
    assert state.captured[0] == cards("7D")
    assert "9 − 2 = 7" in state.new_events[-2].describe()


def test_no_helper_no_capture():
    """Ruling 4: "A helper card H is required" — playing a 7 next to nothing takes no 7."""
    state = play(position(["7H", "KC"], ["8S", "7H"]), Draw(0), Play("7H"))
    assert state.captured == ((), ()) and state.sides[1] == cards("7H")
    assert state.current_player == 1


def test_the_helper_must_already_be_on_your_side_not_in_your_hand():
    """"any other card of the same color the current player has face-up"."""
    state = play(position(["3H 4H", "KC"], ["8S", "7H"]), Draw(0), Play("3H"))
    assert state.captured == ((), ())


def test_only_one_card_is_removed_and_the_player_chooses_which():
    """"In the event that two or more cards meet this criteria, only one is removed"."""
    state = position(["5D", "KC", "KS"], ["2D", "3H 7D", "3D"])
    state = play(state, Draw(0), Play("5D"))
    assert state.current_player == 0
    options = legal_set(state)
    assert options == {Capture("3H", 1), Capture("7D", 1), Capture("3D", 2)}
    with pytest.raises(IllegalActionError, match="first choose which card"):
        state.apply(Draw(0))
    state = state.apply(Capture("3D", 2))
    assert state.captured[0] == cards("3D")
    assert state.sides[1] == cards("3H 7D") and state.sides[2] == ()
    assert sum(isinstance(e, Captured) for e in state.events) == 1
    assert state.current_player == 1


def test_choosing_a_card_that_cannot_be_captured_says_why():
    # QH with JH makes 1 (the AH), with 4H makes 8 (the 8H)
    state = position(["QH", "KC", "KS"], ["JH 4H", "AH AS 5H 8H", "KH 5C"])
    state = play(state, Draw(0), Play("QH"))
    assert legal_set(state) == {Capture("AH", 1), Capture("8H", 1)}
    before = state.to_json(), state.sides, state.captured
    for action, reason in [
        (Capture("AS", 1), "a capture needs cards of one colour"),
        (Capture("5H", 1), "no red card on your side makes 5"),
        (Capture("5C", 2), "a capture needs cards of one colour"),
        (Capture("KH", 2), "an opponent's King can be captured only with a 2"),
        (Capture("9H", 1), "Player 2 has no 9H face up"),
        (Capture("JH", 0), "you cannot capture your own card"),
        (Capture("AH", 7), "there is no player 7"),
    ]:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert reason in info.value.reason
    assert (state.to_json(), state.sides, state.captured) == before


def test_an_ace_chosen_without_a_queen_is_refused_with_the_exception():
    # 3H with 2H makes 5 (two fives qualify) and 1, but only a Queen takes an Ace
    state = play(position(["3H", "KC"], ["2H", "5H 5D AH"]), Draw(0), Play("3H"))
    assert legal_set(state) == {Capture("5H", 1), Capture("5D", 1)}
    with pytest.raises(IllegalActionError) as info:
        state.apply(Capture("AH", 1))
    assert info.value.reason == "an opponent's Ace can be captured only with a Queen"


def test_queen_and_king_exceptions_in_play():
    """Rule exceptions in a real play: QH with JH makes 1 (takes the Ace, not the King);
    2D with JH makes 13 (takes the King, not the Ace)."""
    state = play(position(["QH", "KC"], ["JH", "KD AD"]), Draw(0), Play("QH"))
    assert state.captured[0] == cards("AD")  # not KD: only a 2 takes a King
    state = play(position(["2D", "AC"], ["JH", "KD AD"]), Draw(0), Play("2D"))
    assert state.captured[0] == cards("KD")  # 2 + 11 = 13


# --- counters -------------------------------------------------------------------------------------


def threat_against_player_2():
    """Player 1 plays 3H (helper 4H: 3 + 4 = 7) on player 2's 7H; player 2 holds 5H (5 − 2 = 3
    would take the 3H), 9H (makes 2, 7, 11, 16: no 3) and KC."""
    return play(position(["3H 10C", "5H 9H KC"], ["4H", "7H 2H"]), Draw(0), Play("3H"))


def test_the_owner_may_counter_or_decline():
    """"The other player may skip his draw, and immediately play a card that can counter"."""
    state = threat_against_player_2()
    assert state.current_player == 1 and state.phase == "counter"
    assert legal_set(state) == {Counter("5H"), Decline()}
    obs = state.observation(0)
    assert obs.threat.target == parse_card("7H") and obs.threat.played == parse_card("3H")


def test_declining_lets_the_capture_resolve():
    """Ruling 5: "when a player declines, the last threatened card is captured by the player
    who threatened it"."""
    state = threat_against_player_2().apply(Decline())
    assert state.new_events[0] == CounterDeclined(1)
    assert state.captured == (cards("7H"), ())
    assert state.current_player == 1 and state.phase == "start"


def counter_position(players: int = 2, counter_owner: int = 1):
    """Player 1 plays 3H (helper 4H: 3 + 4 = 7) on the 7H of ``counter_owner``, who can
    counter with AH (helper 2H: 1 + 2 = 3 takes the 3H); player 1 can counter that with QH
    (helper JH: 12 − 11 = 1, and a Queen may take an Ace)."""
    hands = ["3H QH"] + ["KC"] * (players - 1)
    hands[counter_owner] = "AH KC"
    sides = ["4H JH"] + ["8S"] * (players - 1)
    sides[counter_owner] = "7H 2H"
    piles = ("2C 3C 4C 5C 6C", "7C 8C 9C 10C JC")
    return play(position(hands, sides, piles), Draw(0), Play("3H"))


def test_a_counter_threatens_the_played_card_instead():
    """"If so, then that player removes the countered card instead and the play counts as his
    turn. All other cards are left as played"."""
    state = counter_position()
    assert Counter("AH") in legal_set(state)
    state = state.apply(Counter("AH"))
    assert state.new_events[0] == Countered(1, *cards("AH 2H"), "+", parse_card("3H"), 0)
    # player 1 can counter the counter: QH with JH makes 12 − 11 = 1 (and a Queen takes an Ace)
    assert state.current_player == 0 and legal_set(state) == {Counter("QH"), Decline()}
    state = state.apply(Decline())
    assert state.captured == ((), cards("3H"))
    assert state.sides == (cards("4H JH"), cards("7H 2H AH"))  # the 7H is safe
    # the counter was player 2's turn: player 1 plays next
    assert state.current_player == 0 and state.phase == "start"


def test_a_counter_played_while_a_pile_is_empty_is_the_last_play():
    """Ruling Sums 6 (updated): "a counter played while a pile is empty is that player's
    last play; it captures, it cannot be countered, and the game ends"."""
    # player 1 draws the last card of pile 1 and threatens the 7H; player 2 counters
    state = play(
        position(["3H QH", "AH KC"], ["4H JH", "7H 2H"], ("5C", "7C 8C 9C")),
        Draw(0), Play("3H"),
    )
    assert state.phase == "counter" and state.observation(1).last_play
    state = state.apply(Counter("AH"))
    # QH with JH could counter the AH, but the counter was player 2's last play
    assert state.is_over and state.current_player is None
    assert state.captured == ((), cards("3H"))
    assert state.sides == (cards("4H JH"), cards("7H 2H AH"))
    assert not any(isinstance(e, LastPlay) for e in state.new_events)
    assert state.new_events[-1] == GameEnded(None, state.scores)


def test_a_counter_while_both_piles_hold_cards_can_still_be_countered():
    state = play(
        position(["3H QH", "AH KC"], ["4H JH", "7H 2H"], ("5C 6C", "7C 8C 9C")),
        Draw(0), Play("3H"),
    )
    assert not state.observation(1).last_play
    assert state.apply(Counter("AH")).phase == "counter"


def test_return_never_takes_back_the_dealt_card_even_after_it_moved():
    """Ruling Sums 7: "a player takes back only a card they played themselves, never the
    face-up card they were dealt"."""
    state = position(["4D 5D", "6D"], ["9H", "8S"], variant_return=True).apply(Draw(0))
    assert not any(isinstance(a, TakeBack) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="9♥ is the card you were dealt face up"):
        state.apply(TakeBack("9H"))


def test_return_with_two_decks_keeps_one_copy_of_the_dealt_card():
    """With two identical cards, one played and one dealt, one copy may go back."""
    state = position(
        ["4D 5D", "6D", "7D", "8D", "9D"], ["9H 9H", "8S", "2S", "3S", "4S"],
        variant_return=True,
    ).apply(Draw(0))
    assert TakeBack("9H") in legal_set(state)
    state = state.apply(TakeBack("9H"))
    assert state.sides[0] == cards("9H")
    assert state.dealt[0] == parse_card("9H")


def test_a_dealt_card_that_is_captured_frees_nothing_for_return():
    """After the dealt card is captured, every card left on the side was played."""
    state = position(["3H QH", "5D KC"], ["4H", "7H 2D"], variant_return=True)
    # 3 + 4 = 7 takes player 2's dealt 7H; player 2 lets it go
    state = play(state, Draw(0), Play("3H"), Decline())
    assert state.captured[0] == cards("7H") and state.dealt[1] is None
    state = play(state, Draw(0))
    assert TakeBack("2D") in legal_set(state)


def test_a_counter_can_be_countered_and_only_the_last_countered_card_is_removed():
    """"A player can counter a counter card. Only the last countered card is removed when no
    other counters are played"."""
    state = counter_position().apply(Counter("AH")).apply(Counter("QH"))
    countered = state.new_events[0]
    assert countered == Countered(0, *cards("QH JH"), "-", parse_card("AH"), 1)
    # player 2 holds only KC now: no counter, so the AH is captured at once
    assert state.captured == (cards("AH"), ())
    assert state.sides == (cards("4H JH 3H QH"), cards("7H 2H"))
    # two counters, one each: player 2 plays next, as if players simply alternated
    assert state.current_player == 1


def test_a_counter_must_capture_the_threatening_card():
    """Ruling 5: the counter is "a card C that would capture P by rule 4"."""
    state = position(["3H", "10H KC"], ["4H", "7H 2H 5S"])
    state = play(state, Draw(0), Play("3H"))
    assert Counter("10H") in legal_set(state)  # 10 − 7 = 3: even the threatened card helps
    state = position(["3H", "9H KC 6H 5H"], ["4H", "7H 2H"])
    state = play(state, Draw(0), Play("3H"))
    assert state.phase == "counter"
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(Counter("KC"))
    assert "a capture needs cards of one colour" in info.value.reason
    with pytest.raises(IllegalActionError) as info:
        state.apply(Counter("6H"))
    assert "no red card on your side makes 3" in info.value.reason
    with pytest.raises(IllegalActionError, match="you do not hold 8♥"):
        state.apply(Counter("8H"))
    with pytest.raises(IllegalActionError, match="first answer the threat"):
        state.apply(Draw(0))
    assert state.to_json() == before


def test_a_threatened_ace_is_countered_only_with_the_exceptions():
    """A counter follows rule 4, exceptions included: an Ace that threatens falls only to a
    Queen."""
    state = play(position(["AH QH", "3H KC"], ["2H JH", "3D 4H"]), Draw(0), Play("AH"))
    # 1 + 2 = 3 threatens 3D; player 2's 3H with 4H makes 1, but only a Queen takes an Ace
    assert state.phase == "start" and state.captured[0] == cards("3D")
    state = play(position(["AH", "QH KC"], ["2H", "3D JH"]), Draw(0), Play("AH"))
    assert legal_set(state) == {Counter("QH"), Decline()}
    with pytest.raises(IllegalActionError):
        state.apply(Counter("KC"))


def test_the_owner_without_a_counter_is_not_asked():
    state = position(["3H", "KC 5S"], ["4H", "7H"])
    state = play(state, Draw(0), Play("3H"))
    assert state.phase == "start" and state.current_player == 1
    assert [type(e) for e in state.new_events] == [CardPlayed, CaptureThreatened, Captured]


def test_in_three_player_games_the_countering_players_next_turn_is_skipped():
    """Ruling 5: "In games of 3 or more, the countering player's next regular turn is
    skipped" (the counter was that player's turn)."""
    state = counter_position(players=3, counter_owner=2)
    state = play(state, Counter("AH"), Decline())
    assert state.captured == ((), (), cards("3H"))
    # player 2 plays as usual, then player 3's turn is skipped
    assert state.current_player == 1
    state = play(state, Draw(0), Play("KC"))
    assert TurnSkipped(2) in state.new_events
    assert state.current_player == 0
    state = play(state, Draw(1), Play(state.hands[0][0]))
    assert state.current_player == 1  # and player 3 plays after player 2 again
    state = play(state, Draw(1), Play(state.hands[1][0]))
    assert state.current_player == 2


def test_in_three_player_games_the_next_player_who_counters_loses_that_turn():
    state = counter_position(players=3, counter_owner=1)
    state = play(state, Counter("AH"), Decline())
    assert TurnSkipped(1) in state.new_events
    assert state.current_player == 2


def test_a_counter_counter_skips_the_first_players_next_turn_too():
    state = counter_position(players=3, counter_owner=1)
    state = play(state, Counter("AH"), Counter("QH"))
    assert state.captured == (cards("AH"), (), ())
    # both counterers lose their next regular turn: player 2 (now), then player 1
    assert state.current_player == 2
    state = play(state, Draw(0), Play(state.hands[2][0]))
    assert TurnSkipped(0) in state.new_events and state.current_player == 1


def test_two_player_games_alternate_and_skip_nobody():
    state = play(counter_position(), Counter("AH"), Decline())
    assert not any(isinstance(e, TurnSkipped) for e in state.events)
    assert state.current_player == 0


# --- the end --------------------------------------------------------------------------------------


def end_position(**settings_):
    """Player 1 draws the last card of pile 1; player 2 then starts a turn with a pile empty."""
    return play(
        position(["5S", "3H QS", "KC"], ["9S", "4H", "7D"], piles=("2C", "6C 10C"), **settings_),
        Draw(0),
        Play("5S"),
    )


def test_an_empty_pile_gives_one_last_play_without_drawing():
    """"The game ends when one of the community piles is empty at the start of a player's
    turn. That player may opt to play one card from his hand without drawing"."""
    state = end_position()
    assert state.new_events[-1] == LastPlay(1)
    assert state.current_player == 1 and not state.is_over
    assert legal_set(state) == {Play("3H"), Play("QS"), EndGame()}
    with pytest.raises(IllegalActionError, match="that pile is empty"):
        state.apply(Draw(0))
    with pytest.raises(IllegalActionError, match="nobody draws any more"):
        state.apply(Draw(1))


def test_the_last_play_may_capture_and_cannot_be_countered():
    """Ruling 6: "(it may capture; it cannot be countered); then the game ends"."""
    state = end_position().apply(Play("3H"))  # 3 + 4 = 7 takes the 7D
    assert state.is_over and state.current_player is None
    assert state.captured == ((), cards("7D"), ())
    # player 3 holds nothing that could counter anyway; no threat event, no counter phase
    assert not any(isinstance(e, CaptureThreatened) for e in state.new_events)
    assert state.new_events[-1] == GameEnded(None, state.scores)
    assert state.scores == (2, 3, 0)


def test_the_last_play_is_not_countered_even_when_a_counter_exists():
    state = position(["9S", "3H", "4D"], ["", "4H", "7D 2D"], piles=("2C", "6C"))
    state = play(state, Draw(0), Play("9S"))
    assert state.phase == "last"
    state = state.apply(Play("3H"))
    # player 3's 4D with 7D would make 3 (7 − 4), but the last play cannot be countered
    assert state.is_over and state.captured[1] == cards("7D")


def test_the_last_player_may_choose_among_captures_then_the_game_ends():
    state = position(["9S", "5D", "KC"], ["", "2D", "3H 7D"], piles=("2C", "6C"))
    state = play(state, Draw(0), Play("9S"), Play("5D"))
    assert legal_set(state) == {Capture("3H", 2), Capture("7D", 2)}
    state = state.apply(Capture("7D", 2))
    assert state.is_over and state.captured[1] == cards("7D")


def test_the_last_player_may_end_without_playing():
    state = end_position().apply(EndGame())
    assert state.is_over and state.hands[1] == cards("3H QS")
    assert state.scores == (2, 1, 1)


def test_with_no_card_to_play_the_game_ends_at_once():
    """Chosen here: a player who starts the last turn with an empty hand has nothing to play."""
    state = position(["5S", "", "KC"], ["9S", "4H", "7D"], piles=("2C", "6C"))
    state = play(state, Draw(0), Play("5S"))
    assert state.is_over
    assert [type(e) for e in state.new_events][-2:] == [LastPlay, GameEnded]


def test_final_scores_follow_the_table():
    state = end_position().apply(Play("QS"))
    # player 1: 9S 5S; player 2: 4H QS; player 3: 7D
    assert state.scores == (2, 3, 1)
    assert state.winners == (1,)


# --- variants -------------------------------------------------------------------------------------


def test_return_variant_take_back_instead_of_playing():
    """"(variant) – OR – they may choose to return a card they have played up until now to
    their hand if they have less than 5 cards in hand"."""
    state = position(["4D 5D", "6D"], ["9H 3S", "8S"], variant_return=True).apply(Draw(0))
    # 9H was dealt face up, 3S was played: only 3S may go back (ruling Sums 7)
    assert legal_set(state) == {Play(c) for c in cards("4D 5D 4C")} | {TakeBack("3S")}
    state = state.apply(TakeBack("3S"))
    assert state.new_events[0] == CardTakenBack(0, parse_card("3S"))
    assert state.hands[0] == cards("4D 5D 4C 3S") and state.sides[0] == cards("9H")
    assert state.current_player == 1


def test_return_variant_needs_fewer_than_five_cards_in_hand():
    state = position(["2D 3D 4D 5D", "6D"], ["9H", "8S"], variant_return=True).apply(Draw(0))
    assert not any(isinstance(a, TakeBack) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="fewer than 5 cards in hand; you hold 5"):
        state.apply(TakeBack("9H"))


def test_return_variant_still_draws_first():
    state = position(["4D", "6D"], ["9H", "8S"], variant_return=True)
    with pytest.raises(IllegalActionError, match="draw a card first"):
        state.apply(TakeBack("9H"))


def test_draw_or_play_variant_is_one_or_the_other():
    """"a player must choose to either draw one, or play one from their hand, but not both"."""
    state = position(["4D 5D", "6D"], ["9H", "8S"], variant_draw_or_play=True)
    assert legal_set(state) == {Draw(0), Draw(1), Play("4D"), Play("5D")}
    drawn = state.apply(Draw(0))
    assert drawn.current_player == 1 and drawn.hands[0] == cards("4D 5D 4C")
    played = state.apply(Play("5D"))
    assert played.current_player == 1 and played.piles == state.piles


def test_draw_or_play_with_an_empty_hand_must_draw():
    state = position(["", "6D"], ["9H", "8S"], variant_draw_or_play=True)
    assert legal_set(state) == {Draw(0), Draw(1)}


def test_both_variants_need_a_draw_between_two_take_backs():
    """Chosen here: otherwise "take back, play, take back, play..." would never end."""
    state = position(
        ["4D", "6D"], ["2H 9H 3S", "8S"], ("2C 3C 4C 5C", "6C 7C 8C 9C"),
        variant_return=True, variant_draw_or_play=True,
    )
    assert TakeBack("9H") in legal_set(state)
    state = play(state, TakeBack("9H"), Draw(0), Play("9H"), Draw(0))
    assert state.current_player == 0 and TakeBack("3S") not in legal_set(state)
    with pytest.raises(IllegalActionError, match="draw a card before you take back another"):
        state.apply(TakeBack("3S"))
    state = play(state, Draw(1), Draw(1))
    assert TakeBack("3S") in legal_set(state)


# --- observation ------------------------------------------------------------------------------


def test_observation_shows_own_hand_and_captures_and_only_counts_for_others():
    state = position(
        ["4D 5D", "6D 7C 8C"], ["9H", "8S"], captured=["2S", "3S JD"]
    )
    obs = state.observation(0)
    assert obs.hand == cards("4D 5D") and obs.hand_sizes == (2, 3)
    assert obs.sides == (cards("9H"), cards("8S"))
    assert obs.captured == cards("2S") and obs.captured_counts == (1, 2)
    assert obs.pile_tops == cards("4C 7C") and obs.pile_sizes == (3, 3)
    assert obs.current_player == 0 and obs.threat is None


def test_observation_does_not_change_when_only_hidden_cards_differ():
    one = position(["4D 5D", "6D 7C 8C"], ["9H", "8S"], captured=["2S", "3S JD"])
    other = dataclasses.replace(
        one, hands=(one.hands[0], cards("KH KD 2C")), captured=(cards("2S"), cards("AS 4C"))
    )
    assert one.observation(0) == other.observation(0)
    assert one.observation(1) != other.observation(1)


# --- events, saves and bots ---------------------------------------------------------------------


def test_events_describe_themselves_in_plain_sentences():
    state = play(counter_position(), Counter("AH"), Counter("QH"))
    text = [e.describe() for e in state.events]
    assert "Player 1 played 3♥." in text
    assert any("3 + 4 = 7: it threatens Player 2's 7♥" in t for t in text)
    assert any(t.startswith("Player 2 countered with A♥") for t in text)
    assert "Player 1 captured Player 2's A♥ (12 − 11 = 1)." in text


def test_actions_read_like_moves_and_accept_card_text():
    assert Play("7h") == Play(Card("H", 7))
    assert str(Play("7H")) == "play 7♥" and str(Draw(0)) == "draw from pile 1"
    assert str(Capture("AD", 1)) == "capture Player 2's A♦"
    assert str(Counter("QH")) == "counter with Q♥"


def test_a_saved_game_with_counters_replays_exactly():
    game = Sums(num_players=3, variant_return=True)
    for seed in range(30):
        real = play_game(game, seed, bots="strong")
        if any(isinstance(e, Countered) for e in real.events):
            break
    else:
        pytest.fail("no strong-bot game with a counter in 30 seeds")
    again = type(real).from_json(real.to_json())
    assert again == real and again.events == real.events
    assert real.events[-1] == GameEnded(None, real.scores)


@pytest.mark.parametrize(
    "settings_",
    [
        {"num_players": 2},
        {"num_players": 4},
        {"num_players": 3, "variant_return": True, "variant_draw_or_play": True},
    ],
)
def test_strong_bots_beat_random_bots_on_average(settings_):
    game = Sums(**settings_)
    n = game.num_players
    wins = 0.0
    for seed in range(60):
        seat = seed % n
        kinds = ["random"] * n
        kinds[seat] = "strong"
        final = play_game(game, seed, bots=kinds)
        if seat in final.winners:
            wins += 1 / len(final.winners)
    assert wins / 60 > 1.3 / n


def test_strong_policy_takes_the_highest_scoring_card():
    state = position(["QH 5D", "KC"], ["JH 2D", "AH 3H"]).apply(Draw(0))
    action = strong_policy(state.observation(0), state.legal_actions(), random.Random(0))
    assert action == Play("QH")  # takes the Ace (3 points), not the 3H with 5D (1 point)
    # 5D with 2D makes 3 (the 3H, 1 point); with 6D it makes 11 (the JD, 2 points)
    state = play(position(["5D", "KC"], ["2D 6D", "3H JD"]), Draw(0), Play("5D"))
    assert legal_set(state) == {Capture("3H", 1), Capture("JD", 1)}
    action = strong_policy(state.observation(0), state.legal_actions(), random.Random(0))
    assert action == Capture("JD", 1)


def test_strong_policy_counters_when_able():
    state = counter_position()
    action = strong_policy(state.observation(1), state.legal_actions(), random.Random(0))
    assert action == Counter("AH")


def test_the_examples_in_the_docstrings_hold():
    results = [doctest.testmod(importlib.import_module(f"{sums.__name__}.{m.name}"))
               for m in pkgutil.iter_modules(sums.__path__)]
    assert sum(r.attempted for r in results) >= 3 and not any(r.failed for r in results)
