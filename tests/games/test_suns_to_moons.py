"""Suns to Moons: the rules of seed 000 with the rulings "Suns to Moons", as table tests.

Each test quotes the sentence (or ruling) it checks. Positions are built by
hand with ``position(...)`` (hands, the centre deck, scores, stock, junk) and
played through the public protocol (``legal_actions`` / ``apply``), so the
tests see exactly what a student or a bot sees.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import itertools
import pkgutil
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.bots import play_game
from mathcards.cards import Card, parse_card, parse_cards, standard_deck
from mathcards.errors import IllegalActionError, MathCardsError, SettingsError
from mathcards.games import suns_to_moons
from mathcards.games.base import State
from mathcards.games.registry import make_game
from mathcards.games.suns_to_moons import (
    END_TURN,
    JOKER_PLAY,
    PASS,
    CardPlayed,
    CardsDealt,
    EndTurn,
    GameWon,
    GoalReached,
    GoalTooEarly,
    JokerPlayed,
    Pass,
    Passed,
    Play,
    RoundAbandoned,
    RoundStarted,
    RoundWon,
    StockReshuffled,
    SunsToMoons,
    Turn,
    legal_turns,
    strong_policy,
)


def pl(card: str, sign: int, value: int | None = None) -> Play:
    """A play from text: ``pl("7H", -1)`` is 7♥ played vertically (−7)."""
    c = parse_card(card)
    if c.is_joker:
        return JOKER_PLAY
    return Play(c, sign, c.rank if value is None else value)


def position(
    hands: list[str],
    table: list[Play],
    *,
    scores: tuple[int, ...] | None = None,
    turn: int = 0,
    stock: str | None = None,
    junk: str = "",
    target: int = 10,
):
    """A state with these hands and this centre deck (``table[0]`` is the centre card).

    Cards not placed anywhere go to the stock unless ``stock`` is given, so the
    game's cards are conserved.
    """
    n = len(hands)
    game = SunsToMoons(num_players=n, target_score=target)
    state = game.new_game(0)
    hand_cards = tuple(parse_cards(h) for h in hands)
    counted: list[int] = []
    counted_cards: list[Card] = []
    for play in table:
        if play.is_joker:
            if counted:
                counted.pop()
                counted_cards.pop()
        else:
            counted.append(play.contribution)
            counted_cards.append(play.card)
    junk_cards = parse_cards(junk)
    if stock is None:
        rest = Counter(game.deck())
        rest.subtract(c for h in hand_cards for c in h)
        rest.subtract(p.card for p in table)
        rest.subtract(junk_cards)
        stock_cards = tuple(rest.elements())
    else:
        stock_cards = parse_cards(stock)
    return dataclasses.replace(
        state,
        points=scores or (0,) * n,
        hands=hand_cards,
        table=tuple(table),
        counted=tuple(counted),
        counted_cards=tuple(counted_cards),
        stock=stock_cards,
        junk=junk_cards,
        turn=turn,
        first_player=turn,
        dealer=(turn - 1) % n,
    )


def values_after(turns: list[Turn]) -> set[int]:
    return {t.value_after for t in turns}


def run_chain(initial: Play, plays: list[Play], scores: tuple[int, int]):
    """Two players alternate the plays of a worked chain; returns every state on the way."""
    hands = [" ".join(str(p.card) for p in plays[0::2]), " ".join(str(p.card) for p in plays[1::2])]
    state = position(hands, [initial], scores=scores)
    states = [state]
    for play in plays:
        state = state.apply(play)
        states.append(state)
    return states


# --- the worked chains of the seed ------------------------------------------
def test_goal_0_chain():
    """'Goal is 0: 11(11) – 4(7) – 2(5) + 2(7) – 10(-3) + 8(5) – 5(0)'"""
    plays = [pl("4H", -1), pl("2H", -1), pl("2D", 1), pl("10C", -1), pl("8S", 1), pl("5C", -1)]
    states = run_chain(pl("JS", 1), plays, (0, 0))
    assert states[0].goal == 0 and states[0].deck_value == 11
    running = [e.after for s in states[1:] for e in s.new_events if isinstance(e, CardPlayed)]
    assert running == [7, 5, 7, -3, 5, 0]
    won = [e for e in states[-1].new_events if isinstance(e, RoundWon)]
    assert [(e.player, e.goal, e.counted) for e in won] == [(1, 0, (11, -4, -2, 2, -10, 8, -5))]
    assert states[-1].scores == (0, 1)
    assert not any(isinstance(e, RoundWon) for s in states[:-1] for e in s.new_events)


def test_goal_2_chain():
    """'Goal is 2: 4(4) – 7(-3) + 9(6) – 12(-6) + 3(-3) + 3(0) – 4(-4) + 9(5) – 3(2)'"""
    plays = [pl("7C", -1), pl("9S", 1), pl("QH", -1), pl("3S", 1), pl("3H", 1),
             pl("4C", -1), pl("9D", 1), pl("3D", -1)]
    states = run_chain(pl("4D", 1), plays, (2, 1))
    assert states[0].goal == 2 and states[0].deck_value == 4
    assert [s.deck_value for s in states[1:-1]] == [-3, 6, -6, -3, 0, -4, 5]
    last = states[-1].new_events
    assert [e.after for e in last if isinstance(e, CardPlayed)] == [2]
    assert [(e.player, e.value, e.deck_size) for e in last if isinstance(e, GoalReached)] == [
        (1, 2, 9)
    ]
    assert states[-1].scores == (2, 2)


def test_joker_chain_follows_the_text_per_ruling_5():
    """'Goal is 2: 7(7) – 10(-3) + 6(3) +6(9) – 4(5) – 13(-8) + 13(5) ~JOKER~ - 9(-4) ...'

    "The Joker card is used to remove the value of the previous card": the
    Joker conceals the +13, so the deck goes back to −8 (ruling 5: the text
    wins over the example's "(−4)").
    """
    plays = [pl("10S", -1), pl("6C", 1), pl("6D", 1), pl("4S", -1), pl("KS", -1), pl("KH", 1),
             JOKER_PLAY]
    states = run_chain(pl("7H", 1), plays, (2, 0))
    assert [s.deck_value for s in states] == [7, -3, 3, 9, 5, -8, 5, -8]
    joker = [e for e in states[-1].new_events if isinstance(e, JokerPlayed)]
    assert [(e.removed_card, e.removed_contribution, e.before, e.after, e.deck_size)
            for e in joker] == [(parse_card("KH"), 13, 5, -8, 8)]
    assert states[-1].counted == (7, -10, 6, 6, -4, -13)


def test_joker_chain_the_texts_minus_9_after_the_joker_would_break_the_bound():
    """Ruling 5: after the Joker the deck is −8, so the example's "− 9" would make −17.

    Played as "Joker then 9", −9 is refused (another play stays within ±10) and
    +9 gives 1; the example's (−4) is 5 − 9, the deck as if the Joker had not
    been played.
    """
    table = [pl("7H", 1), pl("10S", -1), pl("6C", 1), pl("6D", 1), pl("4S", -1), pl("KS", -1),
             pl("KH", 1)]
    state = position(["JK 9C", "2D"], table, scores=(2, 0))
    assert state.deck_value == 5
    after_joker = state.apply(JOKER_PLAY)
    assert after_joker.deck_value == -8 and after_joker.current_player == 0
    with pytest.raises(IllegalActionError) as info:
        after_joker.apply(pl("9C", -1))
    assert info.value.reason == (
        "9♣ as −9 would make the deck −17; the deck must stay between −10 and 10 "
        "whenever another card can keep it there"
    )
    assert after_joker.apply(pl("9C", 1)).deck_value == 1
    # without the Joker, −9 from 5 is the example's −4
    assert state.apply(pl("9C", -1)).deck_value == -4


def test_goal_4_chain_wins_on_the_third_card():
    """'Goal is 4: 11(11) – 12(-1) + 5(4)'"""
    states = run_chain(pl("JH", 1), [pl("QS", -1), pl("5C", 1)], (4, 3))
    assert [s.deck_value for s in states[:2]] == [11, -1]
    events = states[-1].new_events
    assert [(e.player, e.goal, e.value, e.deck_size) for e in events
            if isinstance(e, GoalReached)] == [(1, 4, 4, 3)]
    assert states[-1].scores == (4, 4)


def test_nothing_but_kings():
    """'if the current deck value is 1 and a player has nothing but kings, the new value
    would have to be -12 or +14.'"""
    turns = legal_turns(["KS", "KH", "KD"], [1])
    assert values_after(turns) == {-12, 14}
    state = position(["KS KH KD", "2C"], [pl("AS", 1, 1)])
    assert set(state.legal_actions()) == {pl(k, s) for k in ("KS", "KH", "KD") for s in (1, -1)}


def test_the_initial_card_is_the_first_value():
    """'This center card shows the initial value of the deck. If a 4 is placed then the
    first value of the deck is 4.'"""
    state = position(["2C", "3C"], [pl("4H", 1)])
    assert state.deck_value == 4 and state.counted == (4,)
    dealt = SunsToMoons(num_players=3).new_game(11)
    started = [e for e in dealt.new_events if isinstance(e, RoundStarted)]
    assert len(started) == 1
    assert started[0].initial_card == dealt.table[0].card
    assert started[0].initial_value == dealt.deck_value


def test_the_goal_starts_at_0():
    """'At the start of the game no one has any points, ... the goal is to get to 0.'"""
    state = SunsToMoons(num_players=4).new_game(3)
    assert state.goal == 0 and state.scores == (0, 0, 0, 0)
    assert [e.goal for e in state.new_events if isinstance(e, RoundStarted)] == [0]


def test_goal_is_the_leaders_score():
    """'Player 1's score is 2, Player 2's score is 3. The goal of the next round will be to
    get 3.'"""
    state = position(["2C", "3C"], [pl("4H", 1)], scores=(2, 3))
    assert state.goal == 3
    assert state.observation(0).goal == 3


def test_moving_goal_after_a_win():
    """'So in the second game one player will have a score of 1 and the goal will be to get
    to 1.'"""
    state = position(["7C 9S", "5S 9H"], [pl("5H", 1), pl("2H", 1)], scores=(0, 0))
    after = state.apply(pl("7C", -1))
    assert after.scores == (1, 0) and after.goal == 1
    started = [e for e in after.new_events if isinstance(e, RoundStarted)]
    assert [e.goal for e in started] == [1]


# --- the ±10 bound (ruling 3) ----------------------------------------------
def test_bound_keeps_plays_within_10_while_one_can():
    """'the player cannot make the value of the deck exceed 10 or -10 unless the player has
    no choice.'"""
    state = position(["KS 2H", "3C"], [pl("AS", 1, 1)])
    assert set(state.legal_actions()) == {pl("2H", 1), pl("2H", -1)}
    with pytest.raises(IllegalActionError) as info:
        state.apply(pl("KS", 1))
    assert info.value.reason == (
        "K♠ as +13 would make the deck 14; the deck must stay between −10 and 10 "
        "whenever another card can keep it there"
    )
    played = state.apply(pl("2H", -1))
    event = next(e for e in played.new_events if isinstance(e, CardPlayed))
    assert event.bound_applied is True and event.other_sign_after == 3 and event.after == -1


def test_no_bound_when_there_is_no_choice():
    state = position(["KS", "3C"], [pl("AS", 1, 1)])
    played = state.apply(pl("KS", 1))
    event = next(e for e in played.new_events if isinstance(e, CardPlayed))
    assert event.after == 14 and event.bound_applied is False and event.other_sign_after == -12


def test_exactly_10_and_minus_10_are_within_the_bound():
    turns = legal_turns(["10S", "QS"], [0])
    assert values_after(turns) == {10, -10}


def test_joker_must_be_used_first():
    """'In some cases you may have a Joker and a card which will force you to exceed 10 or
    -10, the Joker card must be used first.'"""
    state = position(["JK KS", "3C"], [pl("9H", 1), pl("8C", -1)])
    assert state.deck_value == 1
    assert tuple(state.legal_actions()) == (JOKER_PLAY,)
    assert values_after(legal_turns(["JK", "KS"], [9, -8])) == {9, -4}
    after = state.apply(JOKER_PLAY)
    assert after.deck_value == 9 and after.current_player == 0
    assert set(after.legal_actions()) == {pl("KS", -1), END_TURN}
    finished = after.apply(pl("KS", -1))
    assert finished.deck_value == -4 and finished.current_player == 1


def test_after_a_joker_out_of_bounds_a_second_card_is_required():
    """Ruling 3: a Joker alone is an option like any other; if it ends outside ±10 while
    a Joker and one more card ends inside, the turn may not stop after the Joker."""
    state = position(["JK 5S", "3C"], [pl("QH", 1), pl("4C", -1)])
    assert set(state.legal_actions()) == {pl("5S", -1), JOKER_PLAY}
    after = state.apply(JOKER_PLAY)
    assert after.deck_value == 12
    assert tuple(after.legal_actions()) == (pl("5S", -1),)
    with pytest.raises(IllegalActionError) as info:
        after.apply(EndTurn())
    assert "outside ±10" in info.value.reason and "must play one" in info.value.reason


def test_a_joker_out_of_bounds_is_refused_when_a_single_card_stays_inside():
    state = position(["JK 2S", "3C"], [pl("QH", 1), pl("QC", -1)])
    # Joker alone 12, Joker then 2: 14 or 10 -> 10 is inside, so the Joker is legal
    assert JOKER_PLAY in state.legal_actions()
    state = position(["JK 2S", "3C"], [pl("KH", 1), pl("KC", -1)])
    # Joker alone 13, then 2: 15 or 11 -> every Joker option is outside
    assert set(state.legal_actions()) == {pl("2S", 1), pl("2S", -1)}
    with pytest.raises(IllegalActionError) as info:
        state.apply(JOKER_PLAY)
    assert info.value.reason.startswith("the Joker would leave the deck at 13")


# --- the Joker (ruling 4) ----------------------------------------------------
def test_joker_then_one_more_card_as_two_actions():
    """'The player who plays a Joker is able to play the Joker and 1 other card.'"""
    state = position(["JK 3S 4S", "2C"], [pl("5H", 1), pl("6C", 1)])
    after = state.apply(JOKER_PLAY)
    assert after.deck_value == 5 and after.after_joker
    assert set(after.legal_actions()) == {pl("3S", 1), pl("3S", -1), pl("4S", 1), pl("4S", -1),
                                         END_TURN}
    done = after.apply(pl("4S", 1))
    assert done.deck_value == 9 and done.current_player == 1 and not done.after_joker
    ended = after.apply(EndTurn())
    assert ended.deck_value == 5 and ended.current_player == 1


def test_after_a_joker_the_second_card_may_not_be_a_joker():
    state = position(["JK JK 3S", "2C"], [pl("5H", 1), pl("6C", 1)])
    after = state.apply(JOKER_PLAY)
    with pytest.raises(IllegalActionError) as info:
        after.apply(JOKER_PLAY)
    assert info.value.reason == "after a Joker you may play one more card that is not a Joker"


def test_a_second_joker_removes_the_next_card_down():
    """Ruling 4: 'A second Joker removes the next one down.'"""
    state = position(["JK 2S", "JK 9C"], [pl("5H", 1), pl("3C", 1), pl("4D", -1)])
    first = state.apply(JOKER_PLAY).apply(EndTurn())
    assert first.deck_value == 8 and first.counted == (5, 3)
    second = first.apply(JOKER_PLAY)
    event = next(e for e in second.new_events if isinstance(e, JokerPlayed))
    assert (event.removed_card, event.removed_contribution, event.after) == (
        parse_card("3C"), 3, 5)
    assert second.counted == (5,)


def test_a_lone_joker_in_hand_ends_the_turn_by_itself():
    state = position(["JK", "3C"], [pl("5H", 1), pl("6C", 1)])
    after = state.apply(JOKER_PLAY)
    assert after.current_player == 1 and not after.after_joker
    assert [e.player for e in after.new_events if isinstance(e, CardsDealt)] == [0]


def test_joker_as_centre_card_gives_0_and_has_no_effect_on_the_goal():
    """'If a Joker is laid down as the very first card then the initial value of the deck is
    0.' 'if the center card is a joker in the first deal, this has no effect on the play.'"""
    state = position(["5S 9C", "5D 9D"], [JOKER_PLAY])
    assert state.deck_value == 0 and state.counted == () and state.goal == 0
    one = state.apply(pl("5S", 1))
    assert one.scores == (0, 0) and one.deck_value == 5
    two = one.apply(pl("5D", -1))
    assert two.scores == (0, 1)  # JK, 5, 5: three cards, value 0 = goal


def test_a_joker_with_nothing_to_remove_changes_nothing():
    state = position(["JK 9C", "5D"], [JOKER_PLAY])
    after = state.apply(JOKER_PLAY)
    event = next(e for e in after.new_events if isinstance(e, JokerPlayed))
    assert event.removed_card is None and event.removed_contribution == 0 and event.after == 0


def test_the_goal_is_checked_after_the_joker():
    """Ruling 6: 'The goal is checked after every card placed'; a Joker that reaches the
    goal wins at once, with no second card."""
    state = position(["JK 3S", "2C"], [pl("5H", 1), pl("5C", -1), pl("7D", 1)], scores=(0, 0))
    after = state.apply(JOKER_PLAY)
    assert after.scores == (1, 0) and after.round_number == 2
    assert [type(e) for e in after.new_events][:3] == [JokerPlayed, GoalReached, RoundWon]


# --- the 3-card minimum (ruling 6) -------------------------------------------
def test_goal_with_two_cards_does_not_count():
    """'If the goal is reached with fewer than three cards in the deck, this does not count
    as a win. Play continues and the goal must be reached again'"""
    state = position(["5S 3D", "3C 4C"], [pl("5H", 1)])
    early = state.apply(pl("5S", -1))
    assert early.deck_value == 0 and early.scores == (0, 0) and early.current_player == 1
    assert [(e.value, e.deck_size) for e in early.new_events if isinstance(e, GoalTooEarly)] == [
        (0, 2)
    ]
    later = early.apply(pl("3C", 1)).apply(pl("3D", -1))
    assert later.scores == (1, 0)


def test_the_initial_card_equal_to_the_goal_has_no_effect():
    """'if the initial center card happens to be equal to the goal (for example if the
    center card is a joker in the first deal), this has no effect on the play.'"""
    game = SunsToMoons(num_players=2)
    seed = next(s for s in range(2000) if game.new_game(s).table[0].card.is_joker)
    state = game.new_game(seed)
    assert state.deck_value == state.goal == 0
    assert state.scores == (0, 0) and state.round_number == 1 and state.current_player == 0
    assert not any(isinstance(e, (GoalReached, GoalTooEarly, RoundWon)) for e in state.events)


# --- dealing, reshuffling, passing (ruling 8) --------------------------------
def test_empty_hand_is_dealt_five_at_the_end_of_the_turn():
    """'Five new cards are dealt out to any person who uses all of their cards, but not
    until that happens.'"""
    state = position(["9S 2D", "3C"], [pl("4H", 1)])
    one = state.apply(pl("2D", 1))
    assert len(one.hands[0]) == 1 and not any(isinstance(e, CardsDealt) for e in one.new_events)
    top = state.stock[-5:]
    two = one.apply(pl("3C", 1))
    assert sorted(two.hands[1]) == sorted(top)
    assert [(e.player, e.count) for e in two.new_events if isinstance(e, CardsDealt)] == [(1, 5)]


def test_junk_is_reshuffled_into_a_short_stock():
    """'The junk cards will be combined with the unused card pile and reshuffled when there
    are not enough cards to be dealt out.'"""
    state = position(["9S", "3C"], [pl("4H", 1)], stock="2S 2H", junk="5S 5H 5D 5C 6S 6H")
    after = state.apply(pl("9S", -1))
    assert [e.cards for e in after.new_events if isinstance(e, StockReshuffled)] == [6]
    assert len(after.hands[0]) == 5 and len(after.stock) == 3 and after.junk == ()
    assert set(parse_cards("2S 2H")) <= set(after.hands[0])  # the old stock was on top


def test_a_short_stock_with_no_junk_gives_what_there_is():
    state = position(["9S", "3C"], [pl("4H", 1)], stock="2S 2H", junk="")
    after = state.apply(pl("9S", -1))
    assert sorted(after.hands[0]) == sorted(parse_cards("2S 2H")) and after.stock == ()


def test_everyone_passes_the_round_ends_with_no_winner():
    """Ruling 8: 'A player with no cards and none to get passes; if everyone passes the
    round ends with no winner.'"""
    rest = [c for c in standard_deck(jokers=2) if c not in parse_cards("4H 9S")]
    table = [pl("4H", 1)] + [pl(str(c), (-1) ** i) for i, c in enumerate(rest)]
    state = position(["9S", ""], table, stock="", junk="", scores=(2, 0))
    assert Counter(state.all_cards()) == Counter(state.game.deck())
    assert state.deck_value == -8
    one = state.apply(pl("9S", 1))
    assert one.deck_value == 1 and one.scores == (2, 0)
    assert one.hands == ((), ()) and one.current_player == 1
    assert tuple(one.legal_actions()) == (PASS,)
    two = one.apply(Pass())
    assert tuple(two.legal_actions()) == (PASS,) and two.current_player == 0
    three = two.apply(Pass())
    kinds = [type(e) for e in three.new_events]
    assert kinds[:2] == [Passed, RoundAbandoned]
    assert three.scores == (2, 0) and three.round_number == 2
    assert all(len(h) == 5 for h in three.hands)
    assert three.dealer == 0 and three.current_player == 1  # first player of round 1 deals


def test_a_player_with_cards_may_not_pass():
    state = position(["9S", "3C"], [pl("4H", 1)])
    with pytest.raises(IllegalActionError) as info:
        state.apply(Pass())
    assert "you hold cards" in info.value.reason


# --- rounds, dealer rotation, game end (rulings 7, 9) -------------------------
def test_dealer_rotation_over_a_whole_game():
    """'The player to the right of the dealer is the first to go ... the player to the
    right of the dealer will become the new dealer.'"""
    state = play_game(SunsToMoons(num_players=3, target_score=4), seed=5)
    starts = [e for e in state.events if isinstance(e, RoundStarted)]
    assert len(starts) >= 4
    assert (starts[0].player, starts[0].first_player) == (2, 0)
    for before, after in itertools.pairwise(starts):
        assert after.player == before.first_player
        assert after.first_player == (after.player + 1) % 3
        assert after.round_number == before.round_number + 1


def test_round_end_moves_hands_and_deck_to_the_junk_pile():
    """'the used cards (the dealt cards and the turned up deck cards) will be put into a junk
    pile. The cards for the next round will be dealt from the unused card pile.'"""
    state = position(["7C 9S 2S", "5S 9H"], [pl("5H", 1), pl("2H", 1)])
    stock_before = len(state.stock)
    after = state.apply(pl("7C", -1))
    used = parse_cards("9S 2S 5S 9H 5H 2H 7C")
    assert sorted(after.junk) == sorted(used)
    assert len(after.stock) == stock_before - 11 and all(len(h) == 5 for h in after.hands)
    assert Counter(after.all_cards()) == Counter(after.game.deck())


def test_game_ends_at_the_target_score():
    """'The game is finished when a player reaches a total score of 10.'"""
    state = position(["2S 8S", "4C"], [pl("5H", 1), pl("2H", 1)], scores=(9, 4))
    assert state.goal == 9
    over = state.apply(pl("2S", 1))
    assert over.is_over and over.current_player is None and over.scores == (10, 4)
    assert over.winners == (0,) and len(over.legal_actions()) == 0
    assert [e.score for e in over.new_events if isinstance(e, GameWon)] == [10]


def test_whole_games_end_at_the_target_with_one_winner():
    for seed in range(5):
        state = play_game(SunsToMoons(num_players=2), seed=seed)
        assert max(state.scores) == 10 and sorted(state.scores)[-2] < 10


# --- settings ----------------------------------------------------------------
@pytest.mark.parametrize(
    "settings_, words",
    [
        ({"num_players": 1}, "2-8 players"),
        ({"num_players": 9}, "2-8 players"),
        ({"num_players": 2, "target_score": 0}, "target_score"),
        ({"num_players": 2, "target_score": "10"}, "target_score"),
        ({"num_players": 2, "target_score": True}, "target_score"),
        ({"num_players": 2, "decks": 0}, "decks"),
        ({"num_players": 2, "decks": 1.5}, "decks"),
        ({"num_players": 2, "decks": 9}, "decks"),
    ],
)
def test_bad_settings_are_refused_clearly(settings_, words):
    with pytest.raises(SettingsError) as info:
        SunsToMoons(**settings_)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_decks_one_per_four_players_with_two_jokers_each():
    """Ruling 9: 'decks: 1 (54 cards with 2 Jokers) per 4 players, rounded up.'"""
    assert len(SunsToMoons(num_players=4).deck()) == 54
    assert len(SunsToMoons(num_players=5).deck()) == 108
    assert Counter(SunsToMoons(num_players=8).deck())[parse_card("JK")] == 4
    assert len(SunsToMoons(num_players=2, decks=3).deck()) == 162
    assert make_game("suns_to_moons", num_players=3).target_score == 10


def test_a_new_game_deals_five_each_and_a_centre_card():
    state = SunsToMoons(num_players=6).new_game(9)
    assert all(len(h) == 5 for h in state.hands) and len(state.table) == 1
    assert Counter(state.all_cards()) == Counter(standard_deck(jokers=2, decks=2))
    assert state.current_player == 0 and state.dealer == 5


# --- refusals ----------------------------------------------------------------
def test_refusals_name_the_rule_and_leave_the_state_unchanged():
    state = position(["AS 7H", "9S"], [pl("5H", 1), pl("2C", 1)])
    saved = state.to_json()
    cases = [
        (Play(parse_card("9S"), 1, 9), "you do not hold 9♠"),
        (Play(parse_card("AS"), 1, 5), "an Ace counts 1 or 14"),
        (Play(parse_card("7H"), 1, 8), "7♥ counts 7"),
        (Play(parse_card("7H"), 0, 7), "sign +1"),
        (EndTurn(), "only right after playing a Joker"),
        (JOKER_PLAY, "you do not hold a Joker"),
        (Play(parse_card("7H"), 1, 7), "7♥ as +7 would make the deck 14"),
    ]
    for action, words in cases:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert words in info.value.reason, (action, info.value.reason)
        assert words in str(info.value)
        assert state.to_json() == saved
    assert Counter(state.all_cards()) == Counter(state.game.deck())


def test_ace_counts_1_or_14():
    """'The value of the Ace is either 14 or one, at the player's discretion.'"""
    state = position(["AS", "9S"], [pl("5H", 1), pl("2C", 1)])
    assert set(state.legal_actions()) == {pl("AS", 1, 1), pl("AS", -1, 1), pl("AS", -1, 14)}
    assert state.apply(pl("AS", -1, 14)).deck_value == -7
    assert state.apply(pl("AS", 1, 1)).deck_value == 8


def test_play_accepts_card_text_and_prints_in_players_words():
    assert Play("7h", -1, 7) == pl("7H", -1)
    assert str(Play("7H", -1, 7)) == "play 7♥ as −7"
    assert str(Play("AS", 1, 14)) == "play A♠ as +14"
    assert str(JOKER_PLAY) == "play the Joker"


def test_legal_turns_checks_its_input():
    with pytest.raises(MathCardsError):
        legal_turns(["7Z"], [1])
    with pytest.raises(MathCardsError) as info:
        legal_turns(["7H"], [1.5])
    assert "whole numbers" in str(info.value)


# --- observation ---------------------------------------------------------------
def test_observation_shows_own_hand_and_hides_the_others():
    state = SunsToMoons(num_players=3).new_game(4)
    for seat in range(3):
        obs = state.observation(seat)
        assert obs.hand == state.hands[seat]
        assert obs.hand_sizes == (5, 5, 5)
        assert obs.stock_size == len(state.stock) and obs.junk_size == len(state.junk)
        text = repr(obs)
        for other in range(3):
            if other == seat:
                continue
            for card in state.hands[other]:
                if card not in state.hands[seat] and card != state.table[0].card:
                    assert repr(card) not in text
        assert obs.deck_value == state.deck_value and obs.goal == state.goal


def test_observation_keeps_concealed_cards_in_the_deck_history():
    state = position(["JK 3S", "2C"], [pl("5H", 1), pl("6C", 1)])
    after = state.apply(JOKER_PLAY)
    obs = after.observation(1)
    assert tuple(p.card for p in obs.table) == parse_cards("5H 6C JK")
    assert obs.counted == (5,) and obs.deck_value == 5 and obs.after_joker


# --- engine and legal_turns agree; brute force ---------------------------------
def brute_force(hand: list[Card], counted: list[int]) -> set[tuple[tuple, int]]:
    """Every option of ruling 3 written out, then the bound applied."""
    value = sum(counted)
    after_joker = value - counted[-1] if counted else 0
    singles = []
    for card in hand:
        if card.is_joker:
            continue
        for v in ((1, 14) if card.rank == 1 else (card.rank,)):
            singles.extend(((str(card), sign, v), sign * v) for sign in (1, -1))
    options = {((s,), value + c) for s, c in singles}
    if any(card.is_joker for card in hand):
        options.add(((("JK", 0, 0),), after_joker))
        options |= {((("JK", 0, 0), s), after_joker + c) for s, c in singles}
    inside = {o for o in options if -10 <= o[1] <= 10}
    return inside or options


CARD_TEXTS = [str(c) for c in standard_deck(jokers=1)]


@settings(max_examples=300, deadline=None)
@given(
    hand=st.lists(st.sampled_from(CARD_TEXTS), min_size=1, max_size=7),
    counted=st.lists(st.integers(-14, 14), min_size=0, max_size=6),
)
def test_legal_turns_matches_brute_force(hand, counted):
    cards_ = [parse_card(c) for c in hand]
    got = {
        (tuple((str(p.card), p.sign, p.value) for p in t.plays), t.value_after)
        for t in legal_turns(hand, counted)
    }
    assert got == brute_force(cards_, counted)
    turns = legal_turns(hand, counted)
    assert len(turns) == len(set(turns))  # no duplicate options


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_engine_offers_exactly_the_steps_of_legal_turns(seed, steps):
    state = SunsToMoons(num_players=3, target_score=3).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = list(state.legal_actions())
        if state.after_joker:
            seconds = {a for a in legal if isinstance(a, Play)}
            assert all(not a.is_joker for a in seconds)
        elif state.hands[state.current_player]:
            turns = legal_turns(state.hands[state.current_player], state.counted)
            assert set(legal) == {t.plays[0] for t in turns}
            assert len(legal) == len(set(legal))
            first = legal[rng.randrange(len(legal))]
            after = state.apply(first)
            if first.is_joker and after.after_joker and after.round_number == state.round_number:
                expect = {t.plays[1] for t in turns if len(t.plays) == 2}
                if any(t.plays == (JOKER_PLAY,) for t in turns):
                    expect.add(END_TURN)
                assert set(after.legal_actions()) == expect
            state = after
            continue
        state = state.apply(legal[rng.randrange(len(legal))])


# --- bots ----------------------------------------------------------------------
def test_strong_bot_reaches_the_goal_when_it_can():
    state = position(["9H 4S 6D", "2C"], [pl("5H", 1), pl("QC", -1), pl("KD", 1)])
    assert state.deck_value == 6
    for seed in range(5):
        action = strong_policy(state.observation(0), state.legal_actions(), random.Random(seed))
        assert action == pl("6D", -1)


def test_strong_bot_plans_joker_then_card():
    state = position(["JK 2C KD", "3C"], [pl("2H", 1), pl("7C", 1)])
    assert state.deck_value == 9
    first = strong_policy(state.observation(0), state.legal_actions(), random.Random(1))
    assert first == JOKER_PLAY
    after = state.apply(first)
    second = strong_policy(after.observation(0), after.legal_actions(), random.Random(1))
    assert second == pl("2C", -1)
    assert after.apply(second).scores == (1, 0)


def test_strong_bot_avoids_leaving_a_one_card_win():
    """Goal 0 from 8: ±2 leaves 10 or 6 (tens and sixes are out there); −6 leaves 2, and
    this player holds every 2, so nobody can answer with one card."""
    state = position(["2S 2H 2D 2C 6S", "3C"], [pl("5H", 1), pl("3D", 1)])
    assert set(state.legal_actions()) == {pl("2S", 1), pl("2S", -1), pl("6S", -1)} | {
        pl(c, s) for c in ("2H", "2D", "2C") for s in (1, -1)
    }
    for seed in range(5):
        action = strong_policy(state.observation(0), state.legal_actions(), random.Random(seed))
        assert action == pl("6S", -1)


def test_strong_bots_beat_random_bots_over_many_games():
    wins = 0
    for seed in range(40):
        state = play_game(SunsToMoons(num_players=2, target_score=3), seed=seed,
                          bots=["strong", "random"])
        wins += state.winners == (0,)
    assert wins >= 24


def test_save_and_load_replays_exactly():
    state = play_game(SunsToMoons(num_players=3, target_score=2), seed=3)
    again = State.from_json(state.to_json())
    assert again == state and again.events == state.events


def test_every_event_describes_itself_in_one_sentence():
    state = play_game(SunsToMoons(num_players=4, target_score=3), seed=8)
    kinds = set()
    for event in state.events:
        text = event.describe()
        kinds.add(type(event).__name__)
        assert text.endswith(".") and "\n" not in text and text != type(event).__name__
    assert {"RoundStarted", "CardPlayed", "RoundWon", "GameWon", "GoalReached"} <= kinds


def test_doctests():
    results = [doctest.testmod(importlib.import_module(f"{suns_to_moons.__name__}.{m.name}"))
               for m in pkgutil.iter_modules(suns_to_moons.__path__)]
    assert sum(r.attempted for r in results) >= 5 and not any(r.failed for r in results)
