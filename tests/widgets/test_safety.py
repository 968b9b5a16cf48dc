"""Safe in Voilà: nothing hidden in a synced field, every browser value checked.

A page visitor can read and set every synced trait of every widget, so these
tests read ``get_state()`` of the whole widget tree after every click and
tamper with what the browser could send.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from mathcards.cards import Card
from mathcards.widgets.dice_stacks import dice_stacks_table
from mathcards.widgets.sums import sums_table
from mathcards.widgets.suns_to_moons import suns_to_moons_table
from tests.widgets.helpers import click_something, enabled_cards, type_answer


def _cards_in(value) -> set[Card]:
    """Every Card inside an observation (dataclasses, tuples, nested)."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Card):
            found.add(v)
        elif isinstance(v, tuple | list):
            stack.extend(v)
        elif hasattr(v, "__dataclass_fields__"):
            stack.extend(getattr(v, f) for f in v.__dataclass_fields__)
    return found


def _synced_text(table) -> str:
    text = json.dumps(table.hidden_widget_states(), ensure_ascii=False, default=str)
    # the page's one style sheet is the same text on every page ("mc-sJK", "mc-joker")
    return re.sub(r"<style>.*?</style>", "", text, flags=re.DOTALL)


def _hidden_from_screen(table) -> set[Card]:
    """Cards of other seats' hands that the person at the screen may not know."""
    state = table.state
    viewer = table.viewer
    visible = _cards_in(state.observation(viewer)) if viewer is not None else set()
    if viewer is None:  # nobody's hand may show: only public cards
        public = None
        for seat in range(state.game.num_players):
            obs_cards = _cards_in(state.observation(seat)) - set(state.observation(seat).hand)
            public = obs_cards if public is None else public & obs_cards
        visible = public or set()
    hidden: set[Card] = set()
    for seat in range(state.game.num_players):
        if seat != viewer:
            hidden |= set(state.observation(seat).hand)
    return hidden - visible


def _assert_no_leak(table, known: set[Card] | None = None) -> int:
    """No card of another seat's hand is in a synced field, unless the person at the
    screen has seen it face up before (a card drawn from Sums' face-up piles, a card
    played earlier and reshuffled): ``known`` collects what the screen has shown."""
    text = _synced_text(table)
    hidden = _hidden_from_screen(table) - (known or set())
    for card in hidden:
        # whole words: the style sheet's class "mc-joker" is not the name "joker"
        named = re.search(rf"(?<![\w-]){re.escape(card.name)}(?![\w-])", text)
        assert named is None, f"{card.name} (hidden) is in a synced field"
        assert card.symbol not in text, f"{card.symbol} (hidden) is in a synced field"
    return len(hidden)


def _seen(table) -> set[Card]:
    if table.viewer is None:
        return _public(table.state)
    return _cards_in(table.state.observation(table.viewer))


@pytest.mark.parametrize("make", [
    lambda: suns_to_moons_table(players=3, target_score=1, seed=5, bot_delay=0,
                                seats=("human", "strong", "random")),
    lambda: sums_table(players=3, seed=5, bot_delay=0, seats=("human", "strong", "random")),
    lambda: dice_stacks_table(players=3, seed=5, bot_delay=0, save=False,
                              seats=("human", "strong", "random")),
])
def test_no_synced_field_holds_another_seats_hidden_cards(make):
    table = make()
    rng = random.Random(5)
    checked = 0
    known: set[Card] = set()
    while not table.state.is_over:
        known |= _seen(table)
        checked += _assert_no_leak(table, known) > 0
        before = table.state
        click_something(table, rng)
        known |= _public_between(before, table.state)
    assert checked > 3  # the check ran while bots held cards


def test_hot_seat_hides_every_hand_until_ready():
    table = sums_table(players=3, seed=9, bot_delay=0, seats=("human", "human", "strong"))
    rng = random.Random(9)
    hidden_screens = 0
    known: set[Card] = set()
    while not table.state.is_over and len(table.state.history) < 60:
        known |= _public(table.state)
        p = table.state.current_player
        if table.viewer != p:
            assert table.viewer is None
            # before "I'm ready" no hand at all is in any synced field
            state = table.state
            text = _synced_text(table)
            for seat in (0, 1, 2):
                for card in set(state.observation(seat).hand) - known:
                    assert card.name not in text and card.symbol not in text
            hidden_screens += 1
            table.w_ready.click()
        _assert_no_leak(table, known | _public(table.state))
        before = table.state
        click_something(table, rng)
        known |= _public_between(before, table.state)
    assert hidden_screens >= 2


def _public_between(before, after) -> set[Card]:
    """Cards face up on the table at any moment between two states (the bots' moves
    happen in front of everyone: a card drawn from a face-up pile was seen)."""
    seen: set[Card] = set()
    state = before
    for action in after.actions[len(before.actions):]:
        state = state.apply(action)
        seen |= _public(state)
    return seen


def _public(state) -> set[Card]:
    seats = range(state.game.num_players)
    sets = [_cards_in(state.observation(s)) - set(state.observation(s).hand) for s in seats]
    return set.intersection(*sets)


# --- tampering: what a visitor's browser could send ------------------------------
def test_click_on_a_disabled_card_is_refused_with_the_reason():
    table = suns_to_moons_table(seed=1, bot_delay=0)
    # find a deal where some card cannot be played (±10 rule); else play until there is one
    rng = random.Random(1)
    for _ in range(200):
        off = [cb for cb in table.hand_buttons.pool if cb.card is not None and cb.button.disabled]
        if off and table.ctl.acting_human() and not table.ctl.picked:  # a card the rule bars
            break
        click_something(table, rng)
    else:
        pytest.fail("no refused card found in 200 clicks")
    before = table.state
    cb = off[0]
    cb.button.disabled = False  # the visitor re-enables the button in the page
    cb.button.click()
    assert table.state is before
    assert table.refused
    assert "±10" in table.message or "Joker" in table.message or "within" in table.message


def test_a_tampered_choice_key_is_refused_and_nothing_changes():
    table = suns_to_moons_table(seed=2, bot_delay=0)
    card = next(c for c in enabled_cards(table) if not c.card.is_joker)
    card.button.click()
    before = table.state
    # a button means its own key, kept in the kernel: a key the page never offered
    # reaches the table only as a forged call, and is refused
    table.ctl.attempt(table.ctl.click_choice, "sign:+99")
    assert table.state is before
    assert table.refused and "not one of the moves" in table.message


def test_a_button_relabelled_by_the_visitor_still_means_its_own_legal_choice():
    table = sums_table(seed=3, bot_delay=0)
    i = next(i for i, k in enumerate(table.choice_keys) if k and k.startswith("pile:"))
    table.choice_pool[i].description = "Draw the ace of spades from anywhere"
    before = table.state
    table.choice_pool[i].click()
    assert table.state is not before
    assert type(table.state.history.last).__name__ == "Draw"


@pytest.mark.parametrize("typed, reason", [
    ("KS +", "not hold"),            # a card the player does not hold
    ("__import__('os')", "not a move"),  # code is never run: it is not card text
    ("1+1", "not a move"),
    ("7H", "say + "),
])
def test_typed_moves_are_parsed_as_cards_only(typed, reason):
    table = suns_to_moons_table(seed=4, bot_delay=0)
    hand = table.state.observation(0).hand
    if typed.startswith("KS") and Card("S", 13) in hand:
        typed = "KH +" if Card("H", 13) not in hand else "KD +"
    before = table.state
    table.w_move.value = typed
    assert table.state is before
    assert table.refused, typed
    assert reason in table.message, table.message


def test_a_dropdown_set_to_an_illegal_value_is_refused_and_the_table_unchanged():
    """The seat pickers are Dropdowns: the browser sends an index; values outside the
    options are refused by the widget and never reach a new game."""
    from traitlets import TraitError

    table = sums_table(seed=5, bot_delay=0)
    picker = table.w_seat_pickers[1]
    before = (table.state, table.seats)
    with pytest.raises(TraitError):
        picker.set_state({"index": 7})
    with pytest.raises(TraitError):
        picker.value = "god mode"
    table.w_new.click()  # a new game starts only from the offered seat kinds
    assert set(table.seats) <= {"human", "random", "strong"}
    assert before[1] == table.seats


def test_a_move_typed_for_a_card_in_a_bots_hand_is_refused():
    table = sums_table(seed=6, bot_delay=0)
    next(b for i, b in enumerate(table.choice_pool)
         if (table.choice_keys[i] or "").startswith("pile:")).click()
    bot_card = table.state.observation(1).hand[0]
    if bot_card in table.state.observation(0).hand:
        pytest.skip("the same card in both hands (one deck: impossible)")
    before = table.state
    table.w_move.value = f"play {bot_card}"
    assert table.state is before
    assert table.refused
    # the same words as for any card you lack: nothing about where the card is
    assert "do not hold" in table.message


def test_clicks_during_a_bots_turn_are_refused():
    table = suns_to_moons_table(seed=7, bot_delay=30.0, save=False)  # the bot waits
    card = next(c for c in enabled_cards(table) if not c.card.is_joker)
    key = card.key
    card.button.click()
    next(b for i, b in enumerate(table.choice_pool)
         if (table.choice_keys[i] or "").startswith("sign:")).click()
    assert table.state.current_player == 1  # the bot's turn, paused
    before = table.state
    table.ctl.attempt(table.ctl.click_card, key)  # what a stale button in the page would send
    table._on_typed("pass")  # the typed-move box
    assert table.state is before
    assert table.refused and "wait for the bot" in table.message


def test_dice_stacks_hot_seat_hides_every_hand_until_ready():
    """Two classmates at one screen: before "I'm ready" no hand is in any synced field,
    and the selection line only ever shows the ready player's own cards."""
    table = dice_stacks_table(players=3, seed=9, bot_delay=0, save=False,
                              seats=("human", "human", "strong"))
    rng = random.Random(9)
    hidden_screens = 0
    while not table.state.is_over and len(table.state.history) < 150:
        p = table.state.current_player
        if table.viewer != p:
            assert table.viewer is None
            state = table.state
            text = _synced_text(table)
            # face up: the stacks and run-out markers (two decks: a card in a hand may
            # have a twin laid in a stack, which everyone sees)
            public = {c for seat in state.stacks for stack in seat for c in stack}
            public |= {c for seat in state.markers for c in seat}
            for seat in (0, 1, 2):
                for card in set(state.observation(seat).hand) - public:
                    assert card.name not in text and card.symbol not in text
            hidden_screens += 1
            table.w_ready.click()
        state = table.state
        _assert_no_leak(table, {c for seat in state.stacks for stack in seat for c in stack}
                        | {c for seat in state.markers for c in seat})
        click_something(table, rng)
        assert not table.refused, table.message
    assert hidden_screens >= 2


# --- numbers typed on a page: the digits 0-9 only, refused in one plain line -----------
UNICODE_DIGITS = ["²", "①", "٣", "৩", "Ⅲ"]  # superscript, circled, Arabic-Indic, Bengali, Roman


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
def test_typed_pile_in_unicode_digits_is_refused_in_one_line(digit):
    table = sums_table(seed=7, bot_delay=0)
    before = table.state
    table.w_move.value = f"draw {digit}"
    assert table.state is before
    assert table.refused
    assert "say which pile to draw from with the digits 0-9" in table.message, table.message


@pytest.mark.parametrize("digit", ["١٤", "¹⁴", "①④"])
def test_typed_ace_value_in_unicode_digits_is_not_a_value(digit):
    from mathcards.errors import MathCardsError
    from mathcards.widgets.suns_to_moons import SunsToMoonsView

    table = suns_to_moons_table(seed=4, bot_delay=0)
    view = SunsToMoonsView()
    assert view.parse_move(table.state, "AH +14").value == 14
    with pytest.raises(MathCardsError) as caught:
        view.parse_move(table.state, f"AH +{digit}")
    assert "is not a move" in str(caught.value) and "int()" not in str(caught.value)


def test_new_game_with_no_player_count_says_so_without_python_words():
    """A page can send no selection for a Dropdown: the table says what to do, in words."""
    table = sums_table(seed=8, bot_delay=0)
    before = table.state
    table.w_players.index = None
    table.w_new.click()
    assert table.state is before and table.refused
    assert table.message == ("Cannot start that game: choose the number of players from "
                             "the list")


# --- the guided trick lessons (widgets/lesson.py GuidedHand) ---------------------------------
def _guided(game: str, players: int, seed: int, **settings):
    from mathcards.games.moons_and_planets import MoonsAndPlanets
    from mathcards.games.shoot_the_moon import ShootTheMoon
    from mathcards.widgets.lesson import GuidedHand

    cls = {"shoot_the_moon": ShootTheMoon, "moons_and_planets": MoonsAndPlanets}[game]
    return GuidedHand(cls(num_players=players, **settings), seed=seed)


def _click_in_guided_hand(hand, rng: random.Random) -> None:
    """What a student could click: the next hand, a playable card, or a move button."""
    if hand.paused:
        hand.continue_button.click()
        return
    cards = [cb for cb in hand.hand_buttons.pool if not cb.button.disabled]
    moves = hand.move_buttons()
    options = [cb.button for cb in cards] + moves
    assert options, f"nothing to click at move {len(hand.state.history)}"
    rng.choice(options).click()


@pytest.mark.parametrize(("game", "players", "seed", "settings"), [
    ("shoot_the_moon", 3, 7, {}),  # the lessons' deals
    ("shoot_the_moon", 4, 11, {"partnerships": True}),
    ("shoot_the_moon", 2, 4, {}),  # with the dummy's face-down pile
    ("moons_and_planets", 3, 3, {}),
    ("moons_and_planets", 2, 21, {}),
])
def test_a_guided_hand_never_puts_a_bots_card_or_a_face_down_prize_in_a_synced_field(
        game, players, seed, settings):
    """The whole synced tree of a guided hand (hand, trick, prizes, guide, move buttons,
    layouts and styles) after every click: no bot's card, no face-down prize, no dummy
    card, unless it was face up on the table before."""
    from tests.widgets.test_guided_table import assert_no_hidden_card, hidden_cards, public_cards

    hand = _guided(game, players, seed, **settings)
    rng = random.Random(seed)
    known: set[Card] = set()
    checked = 0
    for _ in range(250):
        if hand.state.is_over:
            break
        known |= public_cards(hand)
        assert_no_hidden_card(hand, known)
        checked += bool(hidden_cards(hand) - known)
        _click_in_guided_hand(hand, rng)
    assert checked > 10  # the check ran while bots held cards


def test_forged_clicks_in_a_guided_hand_are_refused_and_change_nothing():
    """A visitor's page can click a disabled card, a card button no longer in the hand, or a
    move button from an earlier screen: each is checked against the legal moves now."""
    hand = _guided("moons_and_planets", 3, 3)
    stale_moves = hand.move_buttons()  # "done", then planets to declare
    assert len(stale_moves) > 1
    disabled = [cb for cb in hand.hand_buttons.pool if cb.button.disabled]
    state = hand.state
    disabled[0].button.click()  # a card while cards are to be put down: not a trick card
    assert hand.state is state and "⚠" in hand.warning.value
    hand.done_button().click()
    after_done = hand.state
    assert after_done is not state
    for button in stale_moves[1:3]:  # closed buttons of a screen gone: refused or ignored
        button.click()
        assert hand.state is after_done
    for _ in range(20):  # on to a trick: turn a prize (or put nothing down) until cards play
        if any(not cb.button.disabled for cb in hand.hand_buttons.pool):
            break
        hand.move_buttons()[0].click()
    played = next(cb for cb in hand.hand_buttons.pool if not cb.button.disabled)
    card = played.card
    played.button.click()
    before = hand.state
    played.button.click()  # the same card again: it is gone from the hand, nothing happens
    assert hand.state is before and card not in hand.hand()


# --- "I count": no synced field holds the answer to a question not yet answered (issue 25) --
_TEXT_PRIVATE = ("_dom_classes", "_options_labels", "_titles")
# the answer box's submission counters (how many times Enter, ✓ OK or Check was pressed on
# the page): no arithmetic; the text a submission sent (``value``) is walked like any field
_COUNTERS = ("submitted", "answered")


def _fields(table) -> dict[tuple[int, str], str]:
    """Every synced field of the table's widget tree, as text, by (widget, trait)."""
    import ipywidgets as W
    from ipywidgets.widgets.widget_style import Style

    from mathcards.widgets.answer_box import AnswerBox

    out: dict[tuple[int, str], str] = {}
    seen: set[int] = set()
    stack = [table]
    while stack:
        widget = stack.pop()
        if id(widget) in seen or not isinstance(widget, W.Widget):
            continue
        seen.add(id(widget))
        if isinstance(widget, W.Layout | Style):  # CSS values only, shared by the table
            continue
        for name in widget.keys:  # the synced traits: their values as the page gets them
            if name[0] == "_" and name not in _TEXT_PRIVATE:  # model names, versions
                continue
            if isinstance(widget, AnswerBox) and name in _COUNTERS:
                continue
            value = getattr(widget, name, None)
            items = value if isinstance(value, list | tuple) else [value]
            stack.extend(item for item in items if isinstance(item, W.Widget))
            texts = [str(v) for v in items if not isinstance(v, W.Widget) and v is not None]
            if texts:
                text = " | ".join(texts)
                out[(id(widget), name)] = (re.sub(r"<style>.*?</style>", "", text,
                                                  flags=re.DOTALL) if "<style>" in text
                                           else text)
    return out


def _forms(value: int) -> list[re.Pattern[str]]:
    """The value as the page would print it: "6", "−6", "-6", "→ 6", "= 6"... (a whole
    number: not a digit of another, nor a card's rank as in "6♣" or "6C")."""
    digits = str(abs(value))
    after = r"(?![\d♠♥♦♣SHDC])"
    if value < 0:
        return [re.compile(rf"[−-]\s?{digits}{after}")]
    return [re.compile(rf"(?<![\d−+\-.]){digits}{after}")]


# numbers that are no arithmetic: seat names, counts of cards, rounds, moves, the goal
# (public all round), the page's data-* markers (a move count of 2 is not the answer 2)
_NOT_SUMS = re.compile("|".join((
    r"[Mm]ove <span[^>]*>\d+</span>", r'data-[\w-]+="[^"]*"', r"Player \d+",
    r"\d+ (?:new )?cards?\b", r"[Rr]ound \d+", r"first to \d+", r"[Gg]oal (?:is )?\S+",
    r"Make the deck \S+", r"[Mm]ove \d+", r"\d+ points?",
    r": \d+(?= \(to play\)|</li>| ?<span)",  # a score (with its words after it)
    r'\b(?:start|tabindex)="\d+"', r"\d+ in hand",  # the history list's first number
    r'style="[^"]*"')))  # an element's CSS (the move list's width for its numbers: 3.6ch)


def _count(text: str, value: int) -> int:
    text = _NOT_SUMS.sub(" ", text)
    return sum(len(p.findall(text)) for p in _forms(value))


def _leaks(before: dict, after: dict, value: int) -> list[str]:
    """Fields where ``value`` appears more often than in ``before`` (the widgets just before
    the question was asked), and any field that names it after an arrow or equals sign
    that it did not name so before."""
    found = []
    for key, text in after.items():
        old = before.get(key, "")
        if _count(text, value) > _count(old, value):
            found.append(f"{key[1]}: {text[:300]}")
        for sign in ("→", "=", "deck is", "deck becomes", "makes the deck"):
            for form in _forms(value):
                pattern = re.compile(rf"{re.escape(sign)}\s*{form.pattern}")
                if len(pattern.findall(text)) > len(pattern.findall(old)):
                    found.append(f"{key[1]} names it after {sign!r}: {text[:300]}")
    return found


def _operands_print_it(question) -> bool:
    """The question's own numbers print its answer (the deck was 0, or a Joker gives back
    a number shown): a count of that number cannot tell a leak from the prompt."""
    from mathcards.games.base import number

    shown = {number(n) for n in question.numbers} | {str(n) for n in question.numbers}
    return (number(question.expected) in shown or str(abs(question.expected)) in
            {str(abs(n)) for n in question.numbers})


def test_the_leak_check_finds_show_me_the_sums_results():
    """Not trivially passing: at "Show me the sums" a chosen card's sign buttons print the
    results ("+5 → 6"), and the check finds them."""
    from mathcards.asking import SHOW
    from mathcards.games.suns_to_moons import Play

    found = 0
    for seed in range(1, 20):
        table = suns_to_moons_table(seed=seed, bot_delay=0, save=False, level=SHOW)
        move = next(a for a in table.state.legal_actions()
                    if isinstance(a, Play) and not a.is_joker)
        result = table.state.deck_value + move.contribution
        before = _fields(table)
        table.ctl.click_card(f"card:{move.card}")
        found += bool(_leaks(before, _fields(table), result))
    assert found == 19


@pytest.mark.parametrize("start", range(0, 200, 25))
def test_at_i_count_no_synced_field_holds_a_pending_answer(start):
    """200 seeded games (bots, a person answering, sometimes wrong first; following the
    others in every other game): while a question waits, no synced field holds its answer
    where it did not before the question was asked."""
    from mathcards.asking import COUNT

    checked = skipped = 0
    for seed in range(start, start + 25):
        timers: list = []
        table = suns_to_moons_table(
            players=2 + seed % 2, target_score=1, seed=seed, bot_delay=1, save=False,
            level=COUNT, schedule=lambda _delay, fn, timers=timers: timers.append(fn))
        ctl = table.ctl
        ctl.set_follow(seed % 2 == 0)
        rng = random.Random(seed)
        steps = 0
        while not table.state.is_over and steps < 3000:
            steps += 1
            pending = ctl.asking.pending
            # the widgets before what may ask (a click, a bot's move); an answer asks nothing
            before = _fields(table) if pending is None else {}
            if pending is not None:  # answer it: sometimes wrong first
                q = pending.question
                text = str(q.expected + 1) if rng.random() < 0.3 else str(q.expected)
                type_answer(table.asking_panel, text)
            elif timers:
                timers.pop(0)()
            elif ctl.refused and ctl.picked:  # both signs of the card break ±10: Back
                table.choice_pool[table.choice_keys.index("back")].click()
            else:
                click_something(table, rng)
            asked = ctl.asking.pending
            if asked is not None and asked is not pending:
                q = asked.question
                if _operands_print_it(q):
                    skipped += 1
                    continue
                leaks = _leaks(before, _fields(table), int(q.expected))
                assert not leaks, f"{q.prompt} (answer {q.expected}) leaks: {leaks[:3]}"
                checked += 1
        assert table.state.is_over, f"seed {seed}: the game did not end"
    assert checked > 5 * skipped and checked >= 25
