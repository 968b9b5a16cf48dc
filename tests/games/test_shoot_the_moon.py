"""Shoot the Moon: table tests from the seed's sentences (quoted) and RULINGS.md."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcards.bots import Bot, play_game
from mathcards.cards import Card, moon_deck, parse_cards
from mathcards.errors import CardParseError, IllegalActionError, SettingsError
from mathcards.games.registry import make_game
from mathcards.games.shoot_the_moon import (
    CardPlayed,
    ChipsChanged,
    GameWon,
    HandDealt,
    MoonState,
    Play,
    RoundScored,
    ShootTheMoon,
    TrickWon,
    explain_trick,
    follow_rule,
    legal_cards,
    round_award,
    trick_winner,
)

BIG = Card("BIG", 0)
LITTLE = Card("LITTLE", 0)


def position(
    num_players: int = 3,
    hands: tuple[str, ...] = (),
    *,
    partnerships: bool = False,
    dummy: str = "",
    trick: str = "",
    trick_players: tuple[int, ...] = (),
    to_play: int = 0,
    dealer: int | None = None,
    chips: tuple[int, ...] | None = None,
    tricks_won: tuple[int, ...] | None = None,
    tricks_played: int = 0,
) -> MoonState:
    """A hand-made position; every card not placed goes to the unused rest of the deck."""
    game = ShootTheMoon(num_players=num_players, partnerships=partnerships)
    state = game.new_game(0)
    hand_cards = tuple(parse_cards(h) for h in hands)
    dummy_cards, trick_cards = parse_cards(dummy), parse_cards(trick)
    placed = Counter(c for h in hand_cards for c in h) + Counter(dummy_cards + trick_cards)
    unused = tuple((Counter(moon_deck()) - placed).elements())
    assert sum(placed.values()) + len(unused) == 52, "a card was placed twice"
    slots = num_players + (1 if num_players == 2 else 0)
    return dataclasses.replace(
        state,
        hands=hand_cards,
        dummy_pile=dummy_cards,
        unused=unused,
        trick=trick_cards,
        trick_players=trick_players,
        taken=((),) * slots,
        tricks_won=tricks_won or (0,) * slots,
        chips=chips or state.chips,
        dealer=num_players - 1 if dealer is None else dealer,
        to_play=to_play,
        tricks_played=tricks_played,
    )


def play(state: MoonState, *cards: str) -> MoonState:
    for card in cards:
        state = state.apply(Play(card))
    return state


def events_of(state: MoonState, kind: type) -> list:
    return [e for e in state.new_events if isinstance(e, kind)]


# --- who wins a trick: the pure function, sentence by sentence -------------
@pytest.mark.parametrize(
    ("cards", "winner", "rule", "reason"),
    [
        # "The trick is won by the highest numbered card of the suit that was led."
        ("G5 G9 P12", 1, "led_colour", "highest green wins: ☾9"),
        ("B2 G12 B1", 0, "led_colour", "highest blue wins: ●2"),
        # "If any red cards are played in the trick, the trick has been trumped. and the
        # highest red rocket card wins the trick."
        ("G12 R3", 1, "red_trumps", "red trumps: ▲3 beats ☾12"),
        ("G12 R3 R7 G1", 2, "red_trumps", "red trumps: ▲7 beats ☾12"),
        # red led: the highest red wins (ruling 3, "else the highest red card")
        ("R3 R9 G12", 1, "highest_red", "highest red wins: ▲9"),
        # "Big Moon cards are the highest cards in the game, and they always win the trick."
        ("R12 BIG", 1, "big_moon", "Big Moon always wins"),
        # "If both Big Moon cards are played in the same trick, then the first Big Moon
        # card to be played wins the trick."
        ("G1 BIG R12 BIG", 1, "first_big_moon",
         "Big Moon always wins: both Big Moons were played, the first one wins"),
        # "If a Big Moon card is led, there is no suit to be followed" - and it still wins.
        ("BIG R12 G3", 0, "big_moon", "Big Moon always wins"),
        # "Little Moon cards are the lowest cards in the game, and they can never win a trick."
        ("G2 LITTLE", 0, "led_colour", "highest green wins: ☾2"),
        ("P1 LITTLE LITTLE", 0, "led_colour", "highest purple wins: ★1"),
        # "If a Little Moon card is led ... highest number card, regardless of color, wins
        # the trick (Red cards are no more powerful than any other cards in this one case)."
        ("LITTLE R5 G9", 2, "little_moon_led", "Little Moon led: highest number wins: ☾9"),
        # "If two or more cards tie for high card played, then the first one played wins."
        ("LITTLE P9 G9 R9", 1, "little_moon_led",
         "Little Moon led: highest number wins: ★9, ☾9 and ▲9 tie, the first played wins"),
        # ruling 3: "If no card can win (only Little Moons), the leader takes the trick."
        ("LITTLE LITTLE", 0, "only_little_moons", "only Little Moons: the leader takes it"),
        # a Little Moon led and only moons after it: a Big Moon still always wins
        ("LITTLE LITTLE BIG", 2, "big_moon", "Big Moon always wins"),
        ("LITTLE BIG LITTLE BIG", 1, "first_big_moon",
         "Big Moon always wins: both Big Moons were played, the first one wins"),
    ],
)
def test_trick_winner_follows_every_rule_sentence(cards, winner, rule, reason):
    assert trick_winner(cards.split()) == winner
    assert explain_trick(cards.split()) == (winner, rule, reason)


def test_trick_winner_takes_cards_or_text():
    assert trick_winner([Card("G", 5), "R1"]) == 1
    assert trick_winner(parse_cards("B4 B10")) == 1
    assert trick_winner("B4 B10") == 1  # text, as legal_cards and position read it


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (["7H", "G2"], "7H is not a Shoot the Moon card"),
        (["BIG", "BIG", "BIG"], "the deck has only 2"),
        (["R5", "R5"], "the deck has only 1"),
        ([], "at least one card"),
        (["R13"], "'R13' is not a card"),
    ],
)
def test_bad_tricks_are_refused_with_the_problem_named(cards, words):
    with pytest.raises(CardParseError, match=words):
        trick_winner(cards)


# --- following ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "led", "allowed"),
    [
        # "each player must play the same color of card as led, if they have one" and
        # "Big Moon cards may be played at anytime ... even if you have cards matching"
        # "You may play a Little Moon card anytime, instead of a regular card"
        ("G4 R5 BIG LITTLE P2", "G9", "G4 BIG LITTLE"),
        ("G4 G7 R5", "G9", "G4 G7"),
        # "If it is not possible to follow suit, the player may play any card in their hand."
        ("G4 R5 P2", "B3", "G4 R5 P2"),
        # "If a Big Moon card is led, there is no suit to be followed"
        ("G4 R5 P2", "BIG", "G4 R5 P2"),
        # "If a Little Moon card is led ... All remaining players can play any card"
        ("G4 R5 P2", "LITTLE", "G4 R5 P2"),
        # leading: any card
        ("G4 R5 BIG", None, "G4 R5 BIG"),
        # red led: follow red if you can (red is a colour like the others)
        ("R1 G4 LITTLE", "R9", "R1 LITTLE"),
    ],
)
def test_legal_cards(hand, led, allowed):
    assert legal_cards(hand, led) == list(parse_cards(allowed))


def test_legal_cards_lists_duplicate_moons_once():
    assert legal_cards(["BIG", "BIG", "G1"], "G5") == [Card("BIG", 0), Card("G", 1)]


@pytest.mark.parametrize("led", ["7H", "JK"])
def test_a_led_card_of_another_deck_is_refused_alike_by_legal_cards_and_follow_rule(led):
    for rule in (legal_cards, follow_rule):
        with pytest.raises(CardParseError, match=f"{led} is not a Shoot the Moon card"):
            rule("G4 R5", led)


# --- settings -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("settings_", "words"),
    [
        ({"num_players": 1}, "2-6 players"),
        ({"num_players": 7}, "2-6 players"),
        ({"num_players": 2, "partnerships": True}, "partnerships need 4 or 6 players"),
        ({"num_players": 3, "partnerships": True}, "partnerships need 4 or 6 players"),
        ({"num_players": 5, "partnerships": True}, "partnerships need 4 or 6 players"),
        ({"num_players": 4, "partnerships": "yes"}, "true or false"),
        ({"num_players": 4, "target_chips": 0}, "target_chips"),
        ({"num_players": 4, "target_chips": 7.5}, "target_chips"),
    ],
)
def test_settings_the_rules_do_not_allow(settings_, words):
    with pytest.raises(SettingsError, match=words):
        make_game("shoot_the_moon", **settings_)


def test_settings_defaults():
    game = make_game("shoot_the_moon", num_players=4, partnerships=True)
    assert game.settings() == {"num_players": 4, "partnerships": True, "target_chips": 7}
    assert ShootTheMoon().partnerships is False and ShootTheMoon().target_chips == 7


# --- the deal -------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_deal_five_each_rest_unused(n):
    """ "deals out 5 cards, one card at a time, face down to each player. The rest of the
    deck is not used in the round." (2 players: a third, dummy hand.)"""
    state = ShootTheMoon(num_players=n).new_game(11)
    assert all(len(h) == 5 for h in state.hands)
    assert len(state.dummy_pile) == (5 if n == 2 else 0)
    assert len(state.unused) == 52 - 5 * n - len(state.dummy_pile)
    assert Counter(state.all_cards()) == Counter(moon_deck())
    # "Give each player 2 chips to start the game with."
    assert state.scores == (2,) * n
    # The last seat deals round 1; "The player to the left of the dealer leads".
    (dealt,) = [e for e in state.events if isinstance(e, HandDealt)]
    assert (dealt.player, dealt.leader, state.current_player) == (n - 1, 0, 0)


def test_dealer_rotates_left_and_the_player_left_of_the_dealer_leads():
    """ "After the round is played, the player to the left of the dealer becomes the new
    dealer." and "The player to the left of the dealer leads one card"."""
    game = ShootTheMoon(num_players=4, target_chips=40)
    state = game.new_game(5)
    bot = Bot("shoot_the_moon", "random", seed=3)
    dealers, first_players = [], []
    while len(dealers) < 6:
        for e in state.new_events:
            if isinstance(e, HandDealt):
                dealers.append(e.player)
                first_players.append(state.current_player)
                assert e.leader == (e.player + 1) % 4 == state.current_player
        state = state.apply(bot.choose(state))
    assert dealers == [3, 0, 1, 2, 3, 0]
    assert first_players == [0, 1, 2, 3, 0, 1]


def test_the_trick_winner_leads_the_next_trick():
    """ "The player who wins a trick leads a card from hand to start the next trick." """
    state = position(3, ("G1 P1", "G5 P2", "G2 P3"), tricks_played=3)
    state = play(state, "G1", "G5", "G2")
    assert events_of(state, TrickWon)[0].player == 1
    assert state.current_player == 1
    # following goes to the leader's left
    state = play(state, "P2")
    assert state.current_player == 2


# --- illegal plays ------------------------------------------------------------
def test_not_following_is_refused_naming_the_rule_and_the_state_is_unchanged():
    """ "If a player fails to follow suit when the player could follow suit, that player
    makes an illegal play." (ruling 5: the engine never accepts it)"""
    state = position(3, ("G9 B1 B2 B3 B4", "G4 R5 BIG P1 P2", "P3 P4 P5 P6 P7"))
    state = play(state, "G9")
    before = state.to_json(), state
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play("R5"))
    assert info.value.reason.startswith("you must follow green: you hold ☾4")
    assert (state.to_json(), state) == before
    # a moon may be played instead
    assert state.is_legal(Play("BIG")) and state.is_legal(Play("G4"))
    assert tuple(a.card for a in state.legal_actions()) == parse_cards("G4 BIG")


def test_a_card_you_do_not_hold_or_from_another_deck_is_refused():
    state = position(3, ("G9 B1 B2 B3 B4", "G4 R5 BIG P1 P2", "P3 P4 P5 P6 P7"))
    # the refusal names the card, never the hand (a room shows refusals to other pages)
    with pytest.raises(IllegalActionError, match=r"you do not hold ▲5$"):
        state.apply(Play("R5"))
    with pytest.raises(IllegalActionError, match="7H is not a Shoot the Moon card"):
        state.apply(Play("7H"))


# --- chips --------------------------------------------------------------------
def test_big_moon_gains_a_chip_immediately():
    """ "The "+1" on the card tells the player who wins a trick with a Big Moon that he
    gains one chip from the supply, immediately." """
    state = position(3, ("G1 P1", "BIG P2", "G2 P3"), tricks_played=3)
    state = play(state, "G1", "BIG", "G2")
    (won,) = events_of(state, TrickWon)
    assert (won.player, won.rule, won.reason, won.chips_change) == (
        1, "big_moon", "Big Moon always wins", 1)
    assert won.cards == parse_cards("G1 BIG G2") and won.players == (0, 1, 2)
    (chips,) = events_of(state, ChipsChanged)
    assert (chips.player, chips.delta, chips.chips) == (1, 1, 3)
    assert state.scores == (2, 3, 2)


def test_two_big_moons_in_a_trick_win_two_chips():
    """ "Winning two Big Moons in one trick means winning two chips immediately." """
    state = position(3, ("G1 P1", "BIG P2", "BIG P3"), tricks_played=3)
    state = play(state, "G1", "BIG", "BIG")
    (won,) = events_of(state, TrickWon)
    assert (won.player, won.winner_index, won.rule, won.chips_change) == (
        1, 1, "first_big_moon", 2)
    assert state.scores == (2, 4, 2)


def test_little_moons_lose_chips_immediately():
    """ "Winning two Little Moons in one trick means losing two chips immediately." """
    state = position(3, ("G9 P1", "LITTLE P2", "LITTLE P3"), tricks_played=3)
    state = play(state, "G9", "LITTLE", "LITTLE")
    (won,) = events_of(state, TrickWon)
    assert (won.player, won.chips_change) == (0, -2)
    assert state.scores == (0, 2, 2)


def test_little_moon_never_takes_chips_below_zero():
    """ "Note: a player can never have less than zero chips" """
    state = position(3, ("G9 P1", "LITTLE P2", "LITTLE P3"), chips=(1, 2, 2), tricks_played=3)
    state = play(state, "G9", "LITTLE", "LITTLE")
    (chips,) = events_of(state, ChipsChanged)
    assert (chips.delta, chips.chips) == (-1, 0)
    assert "never go below 0" in str(chips.reason)  # a Said: worded when shown
    assert state.scores == (0, 2, 2)


def test_a_big_and_a_little_moon_in_one_trick_cancel():
    state = position(3, ("G9 P1", "BIG P2", "LITTLE P3"), chips=(0, 0, 0), tricks_played=3)
    state = play(state, "G9", "BIG", "LITTLE")
    assert events_of(state, TrickWon)[0].chips_change == 0
    assert state.scores == (0, 0, 0)


def test_special_instance_little_moon_at_zero_then_a_chip_for_tricks():
    """ "Special Instance: If a player wins a Little Moon and has no chips during the round,
    but at the end of the round wins one or more chips for their tricks, they still score
    that chip." """
    state = position(3, ("G9", "LITTLE", "G1"), chips=(0, 3, 3), tricks_won=(0, 2, 2),
                     tricks_played=4)
    state = play(state, "G9", "LITTLE", "G1")
    moon, award = [e for e in state.events if isinstance(e, ChipsChanged)][-2:]
    assert (moon.player, moon.delta, moon.chips) == (0, 0, 0)
    assert (award.player, award.delta, award.chips) == (0, 1, 1)
    (scored,) = events_of(state, RoundScored)
    assert scored.tricks == (1, 2, 2) and scored.awards == (1, 0, 0)
    assert state.scores == (1, 3, 3)


@pytest.mark.parametrize(
    ("tricks", "award"),
    # "If an odd number (1 or 3) tricks have been won, then the player wins one chip."
    # "If the player Shoots The Moon winning all 5 of the tricks, then the player wins two
    # chips." "If the player wins no tricks or an even number of tricks (2 or 4), they do
    # not win any chips that round"
    [(0, 0), (1, 1), (2, 0), (3, 1), (4, 0), (5, 2)],
)
def test_round_award(tricks, award):
    assert round_award(tricks) == award


def test_end_of_round_scoring_in_play():
    """Shooting the moon +2, 4 tricks (even) nothing, then a new round is dealt."""
    state = position(3, ("R12", "G1", "G2"), tricks_won=(4, 0, 0), tricks_played=4)
    state = play(state, "R12", "G1", "G2")
    (scored,) = events_of(state, RoundScored)
    assert scored.tricks == (5, 0, 0) and scored.awards == (2, 0, 0)
    assert state.scores == (4, 2, 2)
    assert events_of(state, HandDealt)[0].round_number == 2
    even = position(3, ("G1", "R12", "G2"), tricks_won=(4, 0, 0), tricks_played=4)
    even = play(even, "G1", "R12", "G2")
    assert events_of(even, RoundScored)[0].awards == (0, 1, 0)
    assert even.scores == (2, 3, 2)


# --- partnerships -----------------------------------------------------------------
def test_partnerships_pool_chips_and_combine_tricks():
    """ "players 1 and 3 are partners and players 2 and 4 are partners." "each partnership
    receives a total of two chips" (ruling 4: partnerships count their combined tricks)"""
    game = ShootTheMoon(num_players=4, partnerships=True)
    assert game.side_seats(0) == (0, 2) and game.side_seats(1) == (1, 3)
    assert game.new_game(1).scores == (2, 2, 2, 2)
    # seats 0 and 2 took 1 trick each: 2 tricks together = even, nothing; seats 1 and 3
    # took 2 + 0 and now take the last: 3 = odd, +1 for both; the Big Moon goes to the pool.
    state = position(4, ("G1", "G2", "G3", "BIG"), partnerships=True,
                     tricks_won=(1, 2, 1, 0), tricks_played=4)
    state = play(state, "G1", "G2", "G3", "BIG")
    (scored,) = events_of(state, RoundScored)
    assert scored.side_tricks == (2, 3, 2, 3) and scored.awards == (0, 1, 0, 1)
    assert state.scores == (2, 4, 2, 4)
    big = events_of(state, ChipsChanged)[0]
    assert big.player == 1 and big.seats == (1, 3) and big.delta == 1


@pytest.mark.parametrize("n", [4, 6])
def test_partners_win_together(n):
    state = play_game(ShootTheMoon(num_players=n, partnerships=True), 3)
    (won,) = [e for e in state.events if isinstance(e, GameWon)]
    assert set(state.winners) == set(won.seats) == set(range(won.player, n, 2))


# --- two players: the dummy hand ----------------------------------------------------
def test_dummy_turns_up_the_third_card_after_both_players():
    """ "After each player has played a card, the top card from the dummy pile is turned up
    to become the third card in the trick." """
    state = position(2, ("G5 P1", "G3 P2"), dummy="G9 B1", tricks_played=3, dealer=1)
    state = play(state, "G5")
    assert state.trick == parse_cards("G5") and len(state.dummy_pile) == 2
    state = play(state, "G3")
    dummy_plays = [e for e in state.new_events if isinstance(e, CardPlayed) and e.by_dummy]
    # G9 turned third wins, so dummy at once leads its next card, B1
    assert [(e.player, e.card) for e in dummy_plays] == [(2, Card("G", 9)), (2, Card("B", 1))]
    (won,) = events_of(state, TrickWon)
    assert won.players == (0, 1, 2) and won.player == 2 and won.by_dummy
    assert won.cards == parse_cards("G5 G3 G9")


def test_dummy_leads_after_winning_and_the_non_dealer_plays_next():
    """ "If the dummy wins a trick, then the dummy leads its next card to start the next
    trick." "The player who did not deal the hand always plays next when Dummy leads." """
    # seat 1 deals; seat 0 leads and is the non-dealer
    state = position(2, ("G5 P1 P3", "G3 P2 P4"), dummy="G9 B1 B2", tricks_played=2, dealer=1)
    state = play(state, "G5", "G3")
    assert state.trick == parse_cards("B1") and state.trick_players == (2,)
    assert state.current_player == 0
    # now the dealer deals 0: the non-dealer (1) plays next when dummy leads
    state = position(2, ("G5 P1 P3", "G3 P2 P4"), dummy="G9 B1 B2", tricks_played=2, dealer=0,
                     to_play=1)
    state = play(state, "G3", "G5")
    assert state.trick_players == (2,) and state.current_player == 1
    state = play(state, "P2", "P1")  # no dummy card after a dummy lead: the trick is full
    (won,) = events_of(state, TrickWon)
    assert won.players == (2, 1, 0) and won.cards == parse_cards("B1 P2 P1")


def test_dummy_does_not_accumulate_chips():
    """ "Dummy does not accumulate chips." Moons dummy wins give or take no chips. """
    state = position(2, ("G5 P1", "LITTLE P2"), dummy="BIG B1", tricks_played=3, dealer=1)
    state = play(state, "G5", "LITTLE")
    (won,) = events_of(state, TrickWon)
    assert won.by_dummy and won.chips_change == 0
    assert not events_of(state, ChipsChanged)
    assert state.scores == (2, 2)


def test_dummy_cards_are_in_no_observation_until_turned():
    state = ShootTheMoon(num_players=2).new_game(4)
    for seat in (0, 1):
        obs = state.observation(seat)
        text = repr(obs)
        assert obs.hand == state.hands[seat] and obs.dummy_cards_left == 5
        assert obs.hand_sizes == (5, 5)
        visible = Counter(obs.hand) + Counter(obs.trick) + Counter(obs.played_this_round)
        assert not (Counter(state.dummy_pile) & (visible - Counter(state.hands[seat])))
        for card in state.hands[1 - seat]:
            if card not in state.hands[seat]:
                assert repr(card) not in text
    state = play(state, str(state.legal_actions()[0].card))
    state = play(state, str(state.legal_actions()[0].card))
    turned = [e.card for e in state.new_events if isinstance(e, CardPlayed) and e.by_dummy]
    assert turned and turned[0] in state.observation(0).played_this_round


def test_the_two_player_round_scores_the_two_players_only():
    state = position(2, ("R12", "G1"), dummy="G2", tricks_won=(2, 1, 1), tricks_played=4,
                     dealer=1)
    state = play(state, "R12", "G1")
    (scored,) = events_of(state, RoundScored)
    assert scored.tricks == (3, 1) and scored.awards == (1, 1)
    assert state.scores == (3, 3)


# --- game end ------------------------------------------------------------------------
def test_seven_chips_and_one_more_than_everyone_wins():
    """ "The first player to accumulate 7 chips (at the end of a round) wins the game." """
    state = position(3, ("R12", "G1", "G2"), chips=(6, 6, 2), tricks_won=(0, 2, 2),
                     tricks_played=4)
    state = play(state, "R12", "G1", "G2")
    assert state.is_over and state.winners == (0,) and state.current_player is None
    assert events_of(state, GameWon)[0].player == 0
    assert len(state.legal_actions()) == 0


def test_a_tie_at_seven_plays_another_round():
    """ "If more than one player ties with 7 chips, all continue with another round, and so
    on, until one player has at least 7 chips and 1 more than any other player." """
    state = position(3, ("R12", "G1", "G2"), chips=(6, 7, 2), tricks_won=(0, 2, 2),
                     tricks_played=4)
    state = play(state, "R12", "G1", "G2")
    assert state.scores == (7, 7, 2) and not state.is_over
    assert events_of(state, HandDealt)[0].round_number == 2
    assert not events_of(state, GameWon)


def test_seven_chips_reached_during_a_round_only_count_after_it():
    """Chips are checked at the end of a round: a Big Moon reaching 7 mid-round does not end it."""
    state = position(3, ("G1 P1", "BIG P2", "G2 P3"), chips=(2, 6, 2), tricks_played=3)
    state = play(state, "G1", "BIG", "G2")
    assert state.scores == (2, 7, 2) and not state.is_over


# --- explanations as data --------------------------------------------------------------
def test_every_finished_trick_says_why_it_was_won():
    state = play_game(ShootTheMoon(num_players=3), 21)
    tricks = [e for e in state.events if isinstance(e, TrickWon)]
    assert tricks
    for won in tricks:
        assert explain_trick(won.cards) == (won.winner_index, won.rule, won.reason)
        assert won.players[won.winner_index] == won.player
        assert won.reason in won.describe()


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_trick_winner_properties(data):
    deck = list(moon_deck())
    size = data.draw(st.integers(min_value=1, max_value=6))
    cards = data.draw(st.permutations(deck))[:size]
    index, _rule, _ = explain_trick(cards)
    winner = cards[index]
    if BIG in cards:
        assert index == cards.index(BIG)
    elif winner == LITTLE:
        assert set(cards) == {LITTLE} and index == 0
    elif cards[0] == LITTLE:
        # regardless of colour: no numbered card is higher, none equal comes earlier
        assert all(c.rank < winner.rank for c in cards[:index] if c != LITTLE)
        assert all(c.rank <= winner.rank for c in cards if c != LITTLE)
    elif any(c.suit == "R" for c in cards):
        assert winner.suit == "R" and winner.rank == max(c.rank for c in cards if c.suit == "R")
    else:
        assert winner.suit == cards[0].suit
        assert winner.rank == max(c.rank for c in cards if c.suit == cards[0].suit)
    # a Little Moon played last never changes who wins (it can never win)
    if cards.count(LITTLE) < 2:
        assert trick_winner([*cards, LITTLE]) == index


# --- bots --------------------------------------------------------------------------------
def test_strong_bot_uses_only_what_it_may_see():
    state = ShootTheMoon(num_players=3).new_game(2)
    bot = Bot("shoot_the_moon", "strong", seed=1)
    action = bot.choose(state)
    assert state.is_legal(action)


def _strong_win_share(num_players: int, games: int, partnerships: bool = False) -> float:
    game = ShootTheMoon(num_players=num_players, partnerships=partnerships)
    wins = 0
    for seed in range(games):
        seat = seed % num_players
        kinds = ["random"] * num_players
        kinds[seat] = "strong"
        if partnerships:
            kinds[(seat + 2) % num_players] = "strong"
        wins += seat in play_game(game, seed, kinds).winners
    return wins / games


@pytest.mark.slow
def test_strong_beats_random_heads_up_in_a_clear_majority_of_1000_games():
    """Two players, strong against random, seats alternating: measured about 0.64."""
    share = _strong_win_share(2, 1000)
    assert share >= 0.58, share


@pytest.mark.slow
def test_strong_partners_beat_random_partners_in_a_clear_majority_of_1000_games():
    """Four players in partnerships, two strong against two random: measured about 0.74."""
    share = _strong_win_share(4, 1000, partnerships=True)
    assert share >= 0.65, share


def test_strong_bot_wins_more_than_its_share_at_three_players():
    """One strong against two random (a fair share would be 1/3): measured about 0.49."""
    share = _strong_win_share(3, 300)
    assert share >= 0.40, share


def test_random_play_is_seeded_and_reproducible():
    game = ShootTheMoon(num_players=5)
    one, two = play_game(game, 9), play_game(game, 9)
    assert one.actions == two.actions and one.scores == two.scores
