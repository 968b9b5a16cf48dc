"""Suns to Moons: the seed's chains, signed additions, Jokers, the goal and the ±10 rule."""

from __future__ import annotations

import dataclasses

import pytest

from mathcards.cards import Card, parse_card, parse_cards
from mathcards.errors import MathCardsError
from mathcards.explain import (
    BoundCheck,
    Chain,
    ExplainError,
    GoalCheck,
    JokerRemoval,
    Refusal,
    SignedAddition,
    chain_steps,
    explain_events,
    explain_move,
    hint,
    seed_record,
    why_not,
)
from mathcards.games import suns_to_moons as stm
from mathcards.games.suns_to_moons.explain import _turn_words

from .checks import check_steps

JOKER = (0, 0)


class TestSeedChains:
    def test_goal_0_chain(self):
        """Seed 000: "Goal is 0: 11(11) – 4(7) – 2(5) + 2(7) – 10(-3) + 8(5) – 5(0)"."""
        chain = chain_steps([11, -4, -2, 2, -10, 8, -5])
        assert chain.text == "11 − 4 − 2 + 2 − 10 + 8 − 5 = 0"
        assert chain.latex == "11 - 4 - 2 + 2 - 10 + 8 - 5 = 0"
        plays = [(11, 1), (4, -1), (2, -1), (2, 1), (10, -1), (8, 1), (5, -1)]
        assert seed_record(plays) == "11(11) − 4(7) − 2(5) + 2(7) − 10(−3) + 8(5) − 5(0)"
        check_steps([chain])

    def test_goal_2_chain(self):
        """Seed 000: "Goal is 2: 4(4) – 7(-3) + 9(6) – 12(-6) + 3(-3) + 3(0) – 4(-4) + 9(5)
        – 3(2)"."""
        chain = chain_steps([4, -7, 9, -12, 3, 3, -4, 9, -3])
        assert chain.text == "4 − 7 + 9 − 12 + 3 + 3 − 4 + 9 − 3 = 2"
        assert chain.latex == "4 - 7 + 9 - 12 + 3 + 3 - 4 + 9 - 3 = 2"
        plays = [(4, 1), (7, -1), (9, 1), (12, -1), (3, 1), (3, 1), (4, -1), (9, 1), (3, -1)]
        assert seed_record(plays) == (
            "4(4) − 7(−3) + 9(6) − 12(−6) + 3(−3) + 3(0) − 4(−4) + 9(5) − 3(2)"
        )

    def test_goal_2_chain_with_the_joker_follows_ruling_5(self):
        """Seed 000: "7(7) – 10(-3) + 6(3) +6(9) – 4(5) – 13(-8) + 13(5) ~JOKER~ - 9(-4) ...".

        Ruling 5: the Joker removes the +13, so the deck is −8 after it (the seed's
        −4 does not follow its own text); the rest of the chain runs on from −8.
        """
        plays = [(7, 1), (10, -1), (6, 1), (6, 1), (4, -1), (13, -1), (13, 1), JOKER,
                 (9, -1), (4, 1), (2, 1)]
        assert seed_record(plays) == (
            "7(7) − 10(−3) + 6(3) + 6(9) − 4(5) − 13(−8) + 13(5) ~JOKER~(−8) − 9(−17) "
            "+ 4(−13) + 2(−11)"
        )
        joker = JokerRemoval(player=0, removed_card=parse_card("KD"), removed_contribution=13,
                             before=5, after=-8, goal=2)
        assert joker.text == "the Joker covers K♦: 5 − (+13) = −8"  # issue 14: names both
        assert joker.latex == r"5 - \left(+13\right) = -8"
        assert joker.notes == ("the Joker takes away K♦'s +13, the last card still counted",)
        chain = chain_steps([7, -10, 6, 6, -4, -13, -9, 4, 2])  # the +13 is no longer counted
        assert chain.text == "7 − 10 + 6 + 6 − 4 − 13 − 9 + 4 + 2 = −11"
        assert chain.latex == "7 - 10 + 6 + 6 - 4 - 13 - 9 + 4 + 2 = -11"
        check_steps([joker, chain])

    def test_goal_4_chain(self):
        """Seed 000: "Goal is 4: 11(11) – 12(-1) + 5(4)"."""
        assert chain_steps([11, -12, 5]).text == "11 − 12 + 5 = 4"
        assert seed_record([(11, 1), (12, -1), (5, 1)]) == "11(11) − 12(−1) + 5(4)"

    def test_counted_must_be_whole_numbers(self):
        with pytest.raises(ExplainError, match="whole numbers"):
            chain_steps([1, "2"])
        assert issubclass(ExplainError, MathCardsError)


def _position(hands, centre="JC", points=(0, 0), turn=0):
    """A two-player position with chosen hands and centre card (stock left as dealt)."""
    state = stm.SunsToMoons(2).new_game(0)
    centre = parse_card(centre)
    return dataclasses.replace(
        state, hands=tuple(parse_cards(h) for h in hands),
        table=(stm.Play(centre, 1, centre.rank),), counted=(centre.rank,),
        counted_cards=(centre,), turn=turn, points=points,
    )


class TestThroughTheEngine:
    def test_seed_goal_0_round_played_by_the_engine(self):
        """The seed's first chain, played move by move through the real engine."""
        state = _position(["4S 2H 8D KS KH", "2C 10D 5S KD KC"])
        moves = [("4S", -1), ("2C", -1), ("2H", 1), ("10D", -1), ("8D", 1), ("5S", -1)]
        texts, records = [], []
        for card, sign in moves:
            card = parse_card(card)
            state, steps = explain_move(state, stm.Play(card, sign, card.rank))
            check_steps(steps)
            play = next(s for s in steps if isinstance(s, SignedAddition))
            texts.append(play.text)
            records.append(play.record)
        assert texts == ["4♠ takes away 4: 11 + (−4) = 7", "2♣ takes away 2: 7 + (−2) = 5",
                         "2♥ adds 2: 5 + (+2) = 7", "10♦ takes away 10: 7 + (−10) = −3",
                         "8♦ adds 8: −3 + (+8) = 5", "5♠ takes away 5: 5 + (−5) = 0"]
        assert " ".join(["11(11)", *records]) == (
            "11(11) − 4(7) − 2(5) + 2(7) − 10(−3) + 8(5) − 5(0)")
        chain = next(s for s in steps if isinstance(s, Chain))
        assert chain.text == "11 − 4 − 2 + 2 − 10 + 8 − 5 = 0"
        # card by card as a teacher says it, never the rule book's "11(11) − 4(7) …"
        assert chain.played == (
            "J♣ starts the deck at 11; 4♠ takes away 4 and makes 7; 2♣ takes away 2 and "
            "makes 5; 2♥ adds 2 and makes 7; 10♦ takes away 10 and makes −3; 8♦ adds 8 and "
            "makes 5; 5♠ takes away 5 and makes 0")
        assert f"card by card: {chain.played}" in chain.notes
        goal = next(s for s in steps if isinstance(s, GoalCheck))
        assert goal.counts and goal.text == "0 is the goal 0, with 7 cards in the deck: a win"

    def test_goal_check_says_minus_3_is_not_the_goal(self):
        state = _position(["10D 2C 3C 4C 5C", "2S 3S 4S 5S 6S"], centre="7C")
        after, steps = explain_move(state, stm.Play(parse_card("10D"), -1, 10))
        assert [s.text for s in steps[:3]] == ["10♦ takes away 10: 7 + (−10) = −3", ("+10 "
                                               "would make 17; "
                                               "−10 keeps you within ±10"), "−3 is not the goal 0"]
        assert steps == explain_events(state, after)

    def test_the_bound_sentence_when_it_decides(self):
        """Issue example: "+9 would make 14; −9 keeps you within ±10"."""
        state = _position(["9H 2C 3C 4C 6C", "2S 3S 4S 5S 6S"], centre="5D")
        _, steps = explain_move(state, stm.Play(parse_card("9H"), -1, 9))
        bound = [s for s in steps if isinstance(s, BoundCheck)]
        assert [b.text for b in bound] == ["+9 would make 14; −9 keeps you within ±10"]

    def test_no_bound_sentence_when_both_signs_stay_inside(self):
        state = _position(["2H 3C 4C 6C 7C", "2S 3S 4S 5S 6S"], centre="5D")
        _, steps = explain_move(state, stm.Play(parse_card("2H"), 1, 2))
        assert not any(isinstance(s, BoundCheck) for s in steps)

    def test_no_choice_is_said(self):
        """Seed: "if the current deck value is 1 and a player has nothing but kings, the new
        value would have to be -12 or +14"."""
        state = _position(["KH KS", "2S 3S 4S 5S 6S"], centre="AD")
        _, steps = explain_move(state, stm.Play(parse_card("KH"), -1, 13))
        assert steps[0].text == "K♥ takes away 13: 1 + (−13) = −12"
        assert steps[1].text == "no play keeps the deck within ±10, so −13 making −12 is allowed"

    def test_ace_shows_its_chosen_value(self):
        state = _position(["AH 2C 3C 4C 6C", "2S 3S 4S 5S 6S"], centre="5D")
        _, steps = explain_move(state, stm.Play(parse_card("AH"), -1, 14))
        assert steps[0].text == "A♥ takes away 14: 5 + (−14) = −9"
        assert "the Ace counts 14 here (an Ace is 1 or 14)" in steps[0].notes
        check_steps(steps)

    def test_joker_then_a_card(self):
        state = _position(["JK 9C 3C", "2S 3S 4S 5S 6S"], centre="5D")
        state, steps = explain_move(state, stm.Play(parse_card("3C"), 1, 3))
        state = dataclasses.replace(state, turn=0)
        state, steps = explain_move(state, stm.JOKER_PLAY)
        assert steps[0].text == "the Joker covers 3♣: 8 − (+3) = 5"
        check_steps(steps)

    def test_goal_too_early_is_said(self):
        """Seed: "If the goal is reached with fewer than three cards in the deck, this does
        not count as a win."""
        state = _position(["5C 2C 3C 4C 6C", "2S 3S 4S 5S 6S"], centre="5D")
        _, steps = explain_move(state, stm.Play(parse_card("5C"), -1, 5))
        goal = next(s for s in steps if isinstance(s, GoalCheck))
        assert goal.text == ("0 is the goal 0, but the deck has only 2 cards: it needs 3 or "
                             "more to count")


class TestWhyNotAndHints:
    def test_why_not_shows_the_arithmetic_of_the_bound(self):
        state = _position(["9H 2C 3C 4C 6C", "2S 3S 4S 5S 6S"], centre="5D")
        refusal = why_not(state, stm.Play(parse_card("9H"), 1, 9))
        assert isinstance(refusal, Refusal)
        assert "the deck must stay between −10 and 10" in refusal.text
        assert refusal.children[0].text == "5 + (+9) = 14"
        assert "14 is outside ±10" in refusal.children[0].notes
        check_steps([refusal])

    def test_why_not_refuses_to_explain_a_legal_move(self):
        state = _position(["9H 2C 3C 4C 6C", "2S 3S 4S 5S 6S"], centre="5D")
        with pytest.raises(ExplainError, match="allowed"):
            why_not(state, stm.Play(parse_card("9H"), -1, 9))

    def test_hint_levels_for_a_winning_card(self):
        """Issue example: "you can reach the goal with 7♥ as −7"."""
        state = _position(["7H 2C", "2S 3S 4S 5S 6S"], centre="3D")
        state = dataclasses.replace(state, table=(*state.table, stm.Play(parse_card("4D"), 1, 4)),
                                    counted=(3, 4), counted_cards=parse_cards("3D 4D"))
        assert hint(state, 1).text == "there is a way to reach the goal 0 this turn"
        assert hint(state, "card").text == "play your 7♥: it can reach the goal"
        full = hint(state, 3)
        assert full.text == "you can reach the goal with 7♥ as −7"
        assert [s.text for s in full.children] == [
            "7♥ takes away 7: 7 + (−7) = 0", "0 is the goal 0, with 3 cards in the deck: a win"]
        check_steps([full])
        with pytest.raises(ExplainError, match="hint level"):
            hint(state, 4)


def _replies_that_reach(state, plays):
    """Independently of the hint: the engine's whole-turn options of any one card (and maybe a
    Joker) the next player might hold, after ``plays`` and the end of the turn."""
    after = state
    for play in plays:
        after = after.apply(play)
    if after.current_player == state.current_player and after.is_legal(stm.END_TURN):
        after = after.apply(stm.END_TURN)
    found = []
    for rank in range(1, 14):
        card = Card("S", rank)
        for hand in ((card,), (parse_card("JK"), card)):
            for turn in stm.legal_turns(hand, after.counted):
                size = after.deck_size + len(turn.plays)
                if turn.value_after == after.goal and size >= stm.MIN_DECK_FOR_GOAL:
                    found.append(turn)
    return found


class TestSafeHints:
    def test_no_move_is_called_safe_when_any_reply_reaches_the_goal(self):
        """Issue 14: the deck at 5, goal 0, hand 3♣ 4♣: every play leaves the deck 1 to 9 away
        from 0, so any card of that value wins for the next player; nothing is "safe"."""
        state = _position(["3C 4C", "2S 3S 4S 5S 6S"], centre="5D")
        for turn in state.turn_options():
            assert _replies_that_reach(state, turn.plays), turn
        two, three = hint(state, 2).text, hint(state, 3).text
        assert "safe choice" not in three and "none is safe" in three
        assert "it makes the deck" in three and "away from the goal 0" in three
        assert two.endswith("no play is safe this turn")
        check_steps([hint(state, 3)])

    def test_hint_levels_differ_and_safe_means_no_reply_reaches(self):
        """Over bot games: the three levels say different things; "safe" and "none is safe"
        are checked against every reply the engine allows."""
        from .test_api import _moves

        unsafe = 0
        for seed in range(12):
            for state in _moves("suns_to_moons", seed, 20):
                if state.is_over or state.after_joker or not state.hands[state.turn]:
                    continue
                levels = [hint(state, level).spoken for level in (1, 2, 3)]
                assert len(set(levels)) == 3, levels
                text = hint(state, 3).text
                if "a safe choice is" in text:
                    turn = next(t for t in state.turn_options()
                                if f"a safe choice is {_turn_words(t.plays)}:" in text)
                    assert not _replies_that_reach(state, turn.plays), text
                elif "none is safe" in text:
                    assert all(_replies_that_reach(state, t.plays)
                               for t in state.turn_options()), text
                    unsafe += 1
        assert unsafe >= 10


def _deck(plays, hand):
    """A two-player position whose centre deck holds ``plays`` ((card, sign), centre first)."""
    state = stm.SunsToMoons(2).new_game(0)
    table = tuple(stm.Play(parse_card(c), sign, parse_card(c).rank) for c, sign in plays)
    return dataclasses.replace(
        state, hands=(parse_cards(hand), parse_cards("2S 3S 4S 5S 6S")), table=table,
        counted=tuple(p.contribution for p in table), counted_cards=tuple(p.card for p in table),
        turn=0, points=(0, 0),
    )


SEED_JOKERS = [
    # "7(7) – 10(-3) + 6(3) +6(9) – 4(5) – 13(-8) + 13(5) ~JOKER~": the Joker covers the
    # +13 (ruling 5: the deck is −8 after it)
    ([("7H", 1), ("10S", -1), ("6D", 1), ("6C", 1), ("4H", -1), ("KS", -1), ("KD", 1)], 1,
     ["the Joker covers K♦: 5 − (+13) = −8"]),
    # "A second Joker removes the next one down" (ruling 4)
    ([("7H", 1), ("10S", -1), ("6D", 1), ("6C", 1), ("4H", -1), ("KS", -1), ("KD", 1)], 2,
     ["the Joker covers K♦: 5 − (+13) = −8", "the Joker covers K♠: −8 − (−13) = 5"]),
    # "The Joker card is used to remove the value of the previous card"
    ([("5D", 1), ("10S", -1)], 1, ["the Joker covers 10♠: −5 − (−10) = 5"]),
]


@pytest.mark.parametrize(("plays", "jokers", "written"), SEED_JOKERS)
def test_seed_jokers_name_the_joker_and_the_card_it_covers(plays, jokers, written):
    """Issue 14: a Joker's step names the Joker and the card; the numbers are the engine's."""
    state = _deck(plays, "JK JK 9H 2C")
    texts = []
    for _ in range(jokers):
        state, steps = explain_move(state, stm.JOKER_PLAY)
        played = next(e for e in state.new_events if isinstance(e, stm.JokerPlayed))
        joker = next(s for s in steps if isinstance(s, JokerRemoval))
        assert joker.equation.value == played.after
        texts.append(joker.text)
        check_steps(steps)
        if state.is_legal(stm.END_TURN):  # the Joker alone: the turn ends, seat 0 plays again
            state = state.apply(stm.END_TURN)
        state = dataclasses.replace(state, turn=0)
    assert texts == written
