"""Lesson widgets driven without a browser: clicks are handler calls, state is read back.

Every answer is judged by the engines; no synced field holds an answer before
the student answers.
"""

from __future__ import annotations

import re

import pytest

from mathcards.games import moons_and_planets as mp
from mathcards.games import shoot_the_moon as stm
from mathcards.games.moons_and_planets import MoonsAndPlanets
from mathcards.games.shoot_the_moon import ShootTheMoon
from mathcards.widgets import checks, lesson


def synced_text(widget) -> str:
    """Everything a Voilà visitor could read from the widget tree's synced fields."""
    parts = []
    stack = [widget]
    while stack:
        current = stack.pop()
        state = current.get_state()
        parts.append(repr(state))
        stack.extend(getattr(current, "children", ()))
    return "\n".join(parts)


def click(button) -> None:
    button.click()  # the same path as a click in the page: on_click handlers


class TestTrickChecks:
    def test_who_takes_the_trick_right_and_wrong(self):
        check = checks.trick_winner_check("G12 R3 G5")
        winner = stm.trick_winner(["G12", "R3", "G5"])
        assert winner == 1
        click(check.buttons[0])
        assert check.attempts[-1].correct is False
        assert "Not quite" in check.feedback.value and "red trumps" in check.feedback.value
        click(check.buttons[winner])
        assert check.attempts[-1].correct is True
        assert "Right" in check.feedback.value

    def test_answer_is_not_in_any_synced_field_before_answering(self):
        check = checks.trick_winner_check("LITTLE R2 G9 B9")
        text = synced_text(check.widget)
        assert "Right" not in text and "Little Moon led" not in text
        assert check.feedback.value == ""

    @pytest.mark.parametrize(
        "hand, led, card, allowed",
        [("G4 R5 B2", "G9", "R5", False), ("G4 R5 BIG", "G9", "BIG", True),
         ("R5 B2", "G9", "B2", True), ("G4 R5", None, "R5", True)],
    )
    def test_may_you_play(self, hand, led, card, allowed):
        check = checks.may_play_check(hand, led, card)
        assert (card in map(str, stm.legal_cards(hand, led))) is allowed
        click(check.buttons[0 if allowed else 1])
        assert check.attempts[-1].correct
        click(check.buttons[1 if allowed else 0])
        assert not check.attempts[-1].correct

    def test_may_play_refuses_a_card_not_in_hand(self):
        with pytest.raises(ValueError, match="B7 must be one of the hand's cards"):
            checks.may_play_check("G4 R5", "G9", "B7")


class TestMoonsAndPlanetsChecks:
    @pytest.mark.parametrize("cards", ["9H 8H", "KS 5S", "AH 9H 6H", "5C", "9H 5H"])
    def test_planet(self, cards):
        check = checks.planet_check(cards)
        click(check.buttons[0 if mp.is_planet(cards) else 1])
        assert check.attempts[-1].correct
        assert mp.planet_reason(cards) in check.feedback.value.replace("&#x27;", "'")

    @pytest.mark.parametrize("cards", ["5S 6S 7C", "3H 4D 6H", "AS AH", "7S 7H"])
    def test_moon(self, cards):
        check = checks.moon_check(cards)
        click(check.buttons[1 if mp.is_moon(cards) else 0])
        assert not check.attempts[-1].correct

    def test_prize_check_seed_trick(self):
        """Seed: "3 of spades was led ... 2 spades, 4 hearts, and 8 diamonds, 3 spades
        takes 1st prize, 2 spades second, 8 diamonds 3rd, and 4 hearts fourth prize"."""
        check = checks.PrizeCheck("3S 2S 4H 8D")
        click(check.check_button)
        assert "Choose a prize for every card" in check.feedback.value
        assert check.attempts == []  # not judged: nothing recorded
        for choice, place in zip(check.choices, [1, 2, 4, 3], strict=True):
            choice.index = place
        assert check.chosen_places() == [1, 2, 4, 3]
        click(check.check_button)
        assert check.attempts[-1].correct
        check.choices[2].index, check.choices[3].index = 3, 4
        click(check.check_button)
        assert not check.attempts[-1].correct
        assert check.attempts[-1].score == 0.5  # 3♠ and 2♠ still right

    def test_prize_check_options_hold_no_answer(self):
        check = checks.PrizeCheck("9C KC 7H 7D")
        options = {tuple(choice.options) for choice in check.choices}
        assert len(options) == 1  # every card offers the same choices


class TestArithmeticChecks:
    def test_deck_value(self):
        check = checks.deck_value_check("7H -10S", "+6H", [-9, 3, 9, -3])
        assert "The deck is worth −3" in synced_text(check.widget)
        click(check.buttons[1])
        assert check.attempts[-1].correct and "7 − 10 + 6 = 3" in check.feedback.value
        click(check.buttons[0])
        assert not check.attempts[-1].correct

    def test_which_make_eight(self):
        check = checks.stack_choice_check((3, 5), ["9H 5S", "10S 5D 4C", "QD 4H", "7C AH AD"])
        verdicts = [check.answer(i).correct for i in range(4)]
        assert verdicts == [False, False, True, False]  # 7 + 1 + 1 = 9, 7 − 1 − 1 = 5

    def test_capture(self):
        check = checks.capture_check("QH", "JD", "AH AS KD")
        verdicts = [check.answer(i).correct for i in range(4)]
        assert verdicts == [True, False, False, False]
        assert "King can be captured only with a 2" in check.attempts[2].text

    def test_bad_answer_numbers_are_refused(self):
        check = checks.capture_check("9H", "2H", "7H")
        for bad in (5, -1):
            with pytest.raises(ValueError):
                check.answer(bad)
        with pytest.raises(TypeError):
            check.answer("0")
        assert check.attempts == []


def test_a_check_counts_its_hints_out_of_the_hints_it_gives():
    """A check with fewer than three hints ("which prize": two) never promises a third."""
    prizes = checks.PrizeCheck("3S 2S 4H 8D")
    for _ in range(3):
        click(prizes.hint_button)
    assert "Hint 2 of 2:" in prizes.hint_box.value
    stacks = checks.stack_choice_check((3, 5), ["9H 5S", "QD 4H"])
    click(stacks.hint_button)
    assert "Hint 1 of 1:" in stacks.hint_box.value
    winner = checks.trick_winner_check("G12 R3 G5")
    click(winner.hint_button)
    assert "Hint 1 of 3:" in winner.hint_box.value


class TestStepThrough:
    def test_joker_example_follows_the_text_not_the_seed(self):
        """Ruling 5: after the Joker the value is −8 (the seed's example writes −4)."""
        plays = [(7, 1), (10, -1), (6, 1), (6, 1), (4, -1), (13, -1), (13, 1), (0, 0),
                 (9, -1), (4, 1), (2, 1)]
        example = lesson.suns_to_moons_example(plays, goal=2)
        texts = [text for text, _latex in example.steps]
        # issue 14: each step names its card, and the Joker the card it covers
        assert any(t.startswith("the Joker covers K") and t.endswith(": 5 − (+13) = −8")
                   for t in texts)
        assert "9♥ takes away 9: −8 + (−9) = −17" in texts
        example.go(len(texts))  # clamped to the last step
        assert example.next.disabled and "−11" in example.shown.value
        click(example.back)
        assert example.position == len(texts) - 2

    def test_dice_stacks_examples(self):
        example = lesson.dice_stacks_example([("QS 8D KH KC", (2, 3)), ("10S 5D 4C", (5, 6))])
        assert example.steps[0][0] == "Making 5: (12 + 8) × ½ × ½ = 5"
        assert "not a stack" in example.steps[1][0]


class TestGuidedHand:
    def test_warns_before_an_illegal_card_and_plays_nothing(self):
        hand = lesson.GuidedHand(ShootTheMoon(num_players=3), seed=1)
        for _ in range(40):
            if hand.paused:
                break
            state = hand.state
            led = state.led_card
            cards = hand.hand()
            illegal = [c for c in cards if c not in stm.legal_cards(cards, led)]
            if illegal:
                assert hand.try_card(illegal[0]) is False
                assert hand.state is state
                assert "must follow" in hand.warning.value
            assert hand.try_card(stm.legal_cards(cards, led)[0]) is True
        assert hand.paused and any("takes it" in line or "take it" in line
                                   for line in hand.guide_lines)
        tricks = [line for line in hand.guide_lines if line.startswith("Trick ")]
        assert len(tricks) == 5
        # each line is two sentences: who takes it, then the engine's reason, capitalised
        assert all(re.search(r" it\. [A-Z▲☾★●]", line) for line in tricks), tricks
        click(hand.continue_button)
        assert not hand.paused and len(hand.hand()) == 5

    def test_a_finished_hand_is_held_by_the_tables_own_round_hold(self):
        """The guided hand's pause is every table's hold after a round (the round's
        moment, ``TableController.holding``; "Play the next hand" is its "Next round"): a
        bot's timer that fires during it moves nothing; the button lets the bots go on."""
        timers = []
        hand = lesson.GuidedHand(ShootTheMoon(num_players=3), seed=1, bot_delay=0.5)
        hand.ctl.bot_scheduler._schedule = lambda _delay, fn: timers.append(fn)
        for _ in range(200):
            if hand.paused:
                break
            if timers:
                timers.pop(0)()  # the bot's pause is over
            elif hand.ctl.acting_human():
                cards = hand.hand()
                assert hand.try_card(stm.legal_cards(cards, hand.state.led_card)[0])
        assert hand.paused and hand.ctl.holding and not hand.state.is_over
        assert hand.ctl.moment is not None and hand.ctl.moment.is_round
        assert hand.ctl.turn_banner() == "Round over: click Next round"
        moves = len(hand.state.history)
        for fn in timers:  # timers set before the pause fire now: nothing moves
            fn()
        timers.clear()
        hand.ctl.schedule_bot()
        assert len(hand.state.history) == moves and not timers
        click(hand.continue_button)
        assert not hand.paused and not hand.ctl.holding
        assert hand.ctl.seats[hand.state.current_player] != "human"  # (this deal: a bot leads)
        assert timers  # the next bot's turn is scheduled again
        timers.pop(0)()
        assert len(hand.state.history) == moves + 1

    def test_only_the_students_hand_is_in_widgets(self):
        hand = lesson.GuidedHand(ShootTheMoon(num_players=3), seed=4)
        text = synced_text(hand.widget)
        mine = {str(c) for c in hand.hand()}
        for seat in (1, 2):
            others = {str(c) for c in hand.state.hands[seat]} - mine
            shown = set(hand.state.trick)
            for card in others - {str(c) for c in shown}:
                assert f"'description': '{card}'" not in text

    def test_moons_and_planets_game_plays_to_the_end(self):
        hand = lesson.GuidedHand(MoonsAndPlanets(num_players=2), seed=21)
        for _ in range(400):
            if hand.state.is_over:
                break
            if hand._card_phase():
                assert any(hand.try_card(card) for card in hand.hand())
            else:
                buttons = hand.move_buttons()  # "Done" first, then a page of moves
                click(buttons[1] if len(buttons) > 1 else buttons[0])
        assert hand.state.is_over

    def test_done_always_shows_and_every_move_is_on_some_page(self):
        """Seed 1299 deals seat 0 eighteen planets: more moves than one page holds."""
        hand = lesson.GuidedHand(MoonsAndPlanets(num_players=2), seed=1299)
        legal = [str(a) for a in hand.state.legal_actions()]
        assert len(legal) > hand.MAX_MOVE_BUTTONS
        seen = []
        for _page in range(len(legal)):
            shown = [b.description for b in hand.move_buttons()]
            assert shown[0] == str(mp.Done()), "Done is on every page"
            assert len(shown) <= hand.MAX_MOVE_BUTTONS + 1
            seen.extend(shown[1:])
            more = hand.moves_box.children[-1].children[-1]
            if more.disabled:
                break
            click(more)
        assert sorted([*seen, str(mp.Done())]) == sorted(legal), "every legal move is reachable"
        back = hand.moves_box.children[-1].children[0]
        click(back)
        assert hand.move_page == 0 and hand.moves_box.children[-1].children[0].disabled
        # a move from a later page is played like any other
        click(hand.moves_box.children[-1].children[-1])
        late = hand.move_buttons()[1]
        chosen = next(a for a in hand.state.legal_actions() if str(a) == late.description)
        click(late)
        assert chosen in hand.state.history

    @pytest.mark.parametrize(
        ("game", "seed"), [(ShootTheMoon(num_players=3), 5), (MoonsAndPlanets(num_players=2), 6)]
    )
    def test_replaced_buttons_are_closed(self, game, seed):
        """After 40 plays every widget the hand made is still on the page: replaced buttons
        (and their layout and style widgets) are closed, not left alive in the kernel."""
        from ipywidgets.widgets import widget as ipy

        before = set(ipy._instances)
        hand = lesson.GuidedHand(game, seed=seed)  # seeds whose games last 40 plays
        plays = 0
        while plays < 40 and not hand.state.is_over:
            if hand.paused:
                click(hand.continue_button)
            elif hand._card_phase():
                assert any(hand.try_card(card) for card in hand.hand())
            else:
                click(hand.move_buttons()[0])  # "Done": a long game
            plays += 1
        assert plays == 40

        on_page = set()
        stack = [hand.widget]
        while stack:
            current = stack.pop()
            on_page.add(current.model_id)
            for part in (getattr(current, "layout", None), getattr(current, "style", None)):
                if part is not None:
                    on_page.add(part.model_id)
            stack.extend(getattr(current, "children", ()))
        alive = set(ipy._instances) - before
        assert alive <= on_page, f"{len(alive - on_page)} replaced widgets still alive"
        assert len(alive) < 150


def test_landing_markdown_has_every_registered_game_and_relative_links():
    from mathcards.games.registry import game_specs

    text = lesson.landing_markdown()
    assert [g.name for g in lesson.game_cards()] == [s.name for s in game_specs()]
    for game in lesson.game_cards():
        assert f'id="game-{game.name}"' in text and f'href="{game.lesson}"' in text
    assert "http" not in text.replace('xmlns="http', "")
    assert 'target="_blank"' not in text
