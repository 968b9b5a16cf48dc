"""The guided trick lessons on a real table, driven without a browser.

A guided hand of Shoot the Moon and of Moons and Planets draws the trick as card
faces in play order (who played each, the leader marked), the prizes (face-down
ones as backs), the hand as the tables' ``CardButton``s enabled exactly for the
legal card plays, and "done putting cards down" as a button whenever it is legal.
Whole games are played to the end by clicking cards and the named buttons, and
after every click no hidden card (a bot's hand, a face-down prize) is in any
synced widget field.
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from mathcards.cards import Card
from mathcards.games.base import action_name
from mathcards.games.moons_and_planets import MoonsAndPlanets
from mathcards.games.shoot_the_moon import ShootTheMoon
from mathcards.widgets import lesson
from mathcards.widgets.cards import CardButton, synced_states
from tests.registered import trick_tables

GAMES = {
    "shoot_the_moon": lambda: ShootTheMoon(num_players=3),
    "shoot_the_moon_2p": lambda: ShootTheMoon(num_players=2),
    "moons_and_planets": lambda: MoonsAndPlanets(num_players=3),
}


def synced_text(hand: lesson.GuidedHand) -> str:
    text = json.dumps(synced_states(hand.widget), ensure_ascii=False, default=str)
    # the one style sheet of every page names classes such as "mc-sBIG", never a card
    return re.sub(r"<style>.*?</style>", "", text, flags=re.DOTALL)


def hidden_cards(hand: lesson.GuidedHand) -> set[Card]:
    """The bots' hands and the face-down prizes: what the student may not know."""
    state = hand.state
    hidden: set[Card] = set()
    for seat, cards in enumerate(state.hands):
        if seat != hand.seat:
            hidden |= set(cards)
    if hasattr(state, "dummy_pile"):
        hidden |= set(state.dummy_pile)
    prizes = getattr(state, "prizes", ())
    hidden |= {p for i, p in enumerate(prizes) if i != state.face_up}
    return hidden


def public_cards(hand: lesson.GuidedHand) -> set[Card]:
    """Cards the student's screen may show now: own hand and the public table."""
    obs = hand.state.observation(hand.seat)
    shown = set(obs.hand) | set(obs.trick)
    shown |= set(getattr(obs, "last_trick", ()))
    shown |= {p for p in getattr(obs, "prizes", ()) if p is not None}
    for group in getattr(obs, "planets", ()):
        shown |= set(group)
    for moons in getattr(obs, "moons", ()):
        for moon in moons:
            shown |= set(moon)
    # every card played to a trick or turned face up since the deal (the bots' answers to one
    # click included): the guide's history names them
    shown |= {e.card for e in hand.state.events
              if type(e).__name__ in ("CardPlayed", "PrizeTurned")}
    return shown


def assert_no_hidden_card(hand: lesson.GuidedHand, known: set[Card]) -> None:
    """No hidden card by name or symbol in any synced field, unless the screen showed it
    face up earlier (a card played in a trick and later reshuffled into the deck)."""
    text = synced_text(hand)
    for card in hidden_cards(hand) - known:
        if card.is_big_moon or card.is_little_moon:
            # "a Big Moon always wins" is a rule, not a card: look for it drawn or on a button
            drawn = re.escape(card.name)
            named = re.search(rf'(aria-label=\\"|"description": "){drawn}', text)
        else:
            named = re.search(rf"(?<![\w-]){re.escape(card.name)}(?![\w-])", text)
        assert named is None, f"{card.name} (hidden) is in a synced field"
        if card.is_standard:
            assert card.symbol not in text, f"{card.symbol} (hidden) is in a synced field"
        else:  # "G7", "BIG": as a whole word (class names such as mc-sG are not cards)
            assert re.search(rf"(?<![\w-]){card}(?![\w-])", text) is None, (
                f"{card} (hidden) is in a synced field")
            if card.is_moon_card:  # and as sentences write it: "▲9"
                assert re.search(rf"{re.escape(card.symbol)}(?!\d)", text) is None, (
                    f"{card.symbol} (hidden) is in a synced field")


def trick_in_picture(hand: lesson.GuidedHand) -> list[str]:
    """The spoken labels of the cards drawn in the trick, left to right."""
    return [html.unescape(x) for x in
            re.findall(r'<span class="mc-played[^"]*" role="listitem" aria-label="([^"]*)"',
                       hand.table.value)]


def legal_card_plays(hand: lesson.GuidedHand) -> set[Card]:
    return {a.card for a in hand.state.legal_actions() if hand.view.is_card_play(a)}


def enabled_cards(hand: lesson.GuidedHand) -> list[CardButton]:
    return [cb for cb in hand.hand_buttons.pool if not cb.button.disabled]


def check_table(hand: lesson.GuidedHand) -> None:
    """What the screen shows matches the state, at any moment."""
    state = hand.state
    obs = state.observation(hand.seat)
    # the hand: one CardButton per card, in hand order, enabled exactly for the legal plays;
    # after a hand, none until "Play the next hand" deals the next (the table's own hold)
    assert [cb.card for cb in hand.hand_buttons.pool] == ([] if hand.paused else list(obs.hand))
    assert all(isinstance(cb, CardButton) for cb in hand.hand_buttons.pool)
    assert list(hand.hand_box.children) == [cb.button for cb in hand.hand_buttons.pool]
    mine = hand.ctl.acting_human() and not hand.paused
    expected = legal_card_plays(hand) if mine else set()
    assert {cb.card for cb in enabled_cards(hand)} == expected
    # the trick: its cards as faces in play order, each with who played it, the leader marked
    if obs.trick:
        drawn = trick_in_picture(hand)
        assert len(drawn) == len(obs.trick)
        players = obs.trick_players[:len(obs.trick)]  # (Moons and Planets lists who is to come)
        for i, (label, card, seat) in enumerate(zip(drawn, obs.trick, players, strict=True)):
            assert label.startswith(f"{card.name}, played by {hand._who(seat)}"), label
            assert (", led" in label) == (i == 0), label
    # "done putting cards down": a visible button whenever it is legal
    done_legal = mine and any(action_name(a) == "done" for a in state.legal_actions())
    done = hand.done_button()
    assert (done is not None) == done_legal
    if done is not None:
        assert done.description == "done putting cards down" and not done.disabled
        assert done in hand.moves_box.children[0].children
        assert done.layout.display != "none"
    # the prizes of Moons and Planets: face-up ones as faces, face-down ones as backs
    prizes = getattr(obs, "prizes", None)
    if prizes:
        backs = len(re.findall(r'class="mc-card mc-back" role="img" aria-label="prize \d+, '
                               r'face down"', hand.prizes.value))
        assert backs == sum(p is None for p in prizes)
        for i, p in enumerate(prizes):
            if p is not None:
                assert f"prize {i + 1}: {p.name}, face up" in hand.prizes.value
    if prizes is None:  # Shoot the Moon: its prizes are chips, and the tricks taken
        assert "chips" in hand.prizes.value


def play_to_the_end(hand: lesson.GuidedHand, seed: int, max_clicks: int = 3000) -> int:
    """Click enabled cards and the named buttons until the game is over."""
    rng = random.Random(seed)
    known: set[Card] = set()
    clicks = 0
    while not hand.state.is_over:
        known |= public_cards(hand)
        check_table(hand)
        assert_no_hidden_card(hand, known)
        if hand.paused:
            hand.continue_button.click()
        elif enabled_cards(hand):
            cb = rng.choice(enabled_cards(hand))
            before = len(hand.state.history)
            card = cb.card
            cb.button.click()
            played = list(hand.state.history)[before:before + 1]
            assert played == [hand.view.card_play(hand.state, card)]
        else:
            buttons = hand.move_buttons()
            assert buttons, f"nothing to click at move {len(hand.state.history)}"
            done = hand.done_button()
            others = [b for b in buttons if b is not done]
            pick = done if done is not None and (not others or rng.random() < 0.4) else (
                rng.choice(others))
            before = len(hand.state.history)
            pick.click()
            assert len(hand.state.history) > before, f"{pick.description!r} did nothing"
            assert str(list(hand.state.history)[before]) == pick.description
        clicks += 1
        assert clicks < max_clicks, "the game did not end"
    check_table(hand)
    assert_no_hidden_card(hand, known | public_cards(hand))
    return clicks


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_guided_game_is_played_by_card_clicks_and_named_buttons(game, seed):
    hand = lesson.GuidedHand(GAMES[game](), seed=seed)
    clicks = play_to_the_end(hand, seed)
    assert clicks > 5
    assert "Game over" in hand.says.value
    if game.startswith("shoot_the_moon"):  # the guide writes cards as drawn: ▲9, Big Moon
        assert hand.guide_lines and not [
            line for line in hand.guide_lines if re.search(r"\b([RGPB]\d|BIG|LITTLE)", line)]


def step(hand: lesson.GuidedHand) -> None:
    """One plain click: "Done", else the first playable card, else the first move."""
    done = hand.done_button()
    if hand.paused:
        hand.continue_button.click()
    elif done is not None:
        done.click()
    elif enabled_cards(hand):
        enabled_cards(hand)[0].button.click()
    else:
        hand.move_buttons()[0].click()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_trick_shows_as_card_faces_in_play_order_with_the_leader_marked(game):
    """The student to play into a trick the bots began: their cards drawn in play order,
    the leader marked; after the trick, the last trick with who took it."""
    hand = lesson.GuidedHand(GAMES[game](), seed=5)
    seen_trick = seen_last = False
    for _ in range(300):
        obs = hand.state.observation(hand.seat)
        if obs.trick and hand.ctl.acting_human():
            check_table(hand)
            drawn = trick_in_picture(hand)
            assert drawn[0].endswith(", led") and 'class="mc-card' in hand.table.value
            seen_trick = True
        if "Last trick" in hand.table.value:
            assert "takes it" in hand.table.value and "mc-won" in hand.table.value
            seen_last = True
        if seen_trick and seen_last:
            break
        step(hand)
    assert seen_trick and seen_last


def test_clicking_a_card_plays_it_and_a_forged_click_on_a_disabled_card_is_refused():
    hand = lesson.GuidedHand(ShootTheMoon(num_players=3), seed=1)
    for _ in range(200):  # on to a trick where the student must follow the colour
        disabled = [cb for cb in hand.hand_buttons.pool if cb.button.disabled]
        if hand.state.observation(0).trick and disabled and enabled_cards(hand):
            break
        step(hand)
    else:
        pytest.fail("the student never had to follow")
    state = hand.state
    forged = disabled[0]
    assert "cannot be played now" in forged.button.tooltip
    forged.button.click()  # a visitor's page can send a click to a disabled button
    assert hand.state is state
    assert "Choose another card" in hand.warning.value
    legal = enabled_cards(hand)[0]
    card = legal.card
    legal.button.click()
    assert hand.view.card_play(state, card) == list(hand.state.history)[len(state.history)]
    assert hand.warning.value == ""


def test_a_relabelled_card_button_still_plays_its_own_card():
    hand = lesson.GuidedHand(ShootTheMoon(num_players=3), seed=2)
    assert enabled_cards(hand)  # the bots answer at once: the student is to play
    cb = enabled_cards(hand)[0]
    card = cb.card
    before = len(hand.state.history)
    cb.button.description = "Big Moon"  # what a visitor can set: it names nothing
    cb.button.click()
    assert list(hand.state.history)[before] == hand.view.card_play(hand.state, card)


def test_done_is_a_visible_named_button_and_moves_read_in_words_with_symbols():
    hand = lesson.GuidedHand(MoonsAndPlanets(num_players=3), seed=3)  # the lesson's deal
    done = hand.done_button()
    assert done is not None and done is hand.move_buttons()[0]
    assert "mc-primary" in done._dom_classes
    labels = [b.description for b in hand.move_buttons()[1:]]
    assert labels and all(re.search(r"[♥♦♠♣]", label) for label in labels)
    assert all(label.split()[0] in ("declare", "make", "add", "regroup") for label in labels)
    assert "putting cards down" in hand.says.value  # the guide says what to do now


def test_bots_cards_appear_one_by_one_with_a_pause(monkeypatch):
    """With a delay each bot card is its own timer: the trick grows a card at a time."""
    from mathcards import table

    timers: list[tuple[float, object]] = []
    monkeypatch.setattr(table, "schedule_later", lambda delay, fn: timers.append((delay, fn)))
    # the student sits third: two bots play first, a pause before each card
    hand = lesson.GuidedHand(ShootTheMoon(num_players=4), seed=3, seat=2, bot_delay=0.6)
    assert len(timers) == 1 and timers[0][0] == 0.6
    assert not hand.state.observation(2).trick and not enabled_cards(hand)
    shown = 0
    while timers and not hand.ctl.acting_human():
        _delay, fn = timers.pop(0)
        fn()  # one bot card, then the table is drawn again
        shown += 1
        assert len(trick_in_picture(hand)) == len(hand.state.observation(2).trick) == shown
        assert len(timers) == (0 if hand.ctl.acting_human() else 1)
    assert shown == 2 and hand.ctl.acting_human() and enabled_cards(hand)


def test_prizes_face_down_are_backs_and_never_named():
    hand = lesson.GuidedHand(MoonsAndPlanets(num_players=3), seed=3)
    for _ in range(200):
        if hand.state.prizes and hand.state.face_up is not None:
            break
        done = hand.done_button()
        if done is not None:
            done.click()
        elif enabled_cards(hand):
            enabled_cards(hand)[0].button.click()
        else:
            hand.move_buttons()[0].click()  # turn prize 1
    state = hand.state
    assert state.face_up is not None
    value = hand.prizes.value
    assert value.count('class="mc-card mc-back"') == len(state.prizes) - 1
    for i, prize in enumerate(state.prizes):
        if i != state.face_up:
            assert prize.name not in synced_text(hand)
    check_table(hand)


@pytest.mark.parametrize("game", trick_tables())
def test_the_free_play_tables_draw_the_trick_and_prizes_the_same_way(game):
    """lessons/play_<game>.ipynb: the table's board is TrickView.board_html, the trick in
    play order with who played each card, and the prizes or the chips."""
    from mathcards.games.registry import make_game
    from mathcards.saves import deal_code
    from mathcards.widgets import play
    from tests.widgets.helpers import click_something

    # a fixed deal with three players (a fresh page deals a secret one: in a two-player
    # deal where the student leads every trick, the bot answers at once and no trick in
    # progress is ever seen)
    code = deal_code(make_game(game, num_players=3), 12)
    # "Show me the sums": the moves' buttons (at "I count" a planet asks its total first)
    table = play(game, deal=code, bot_delay=0, save=False, query="level=show")
    assert table.deal_code == code
    rng = random.Random(3)
    tricks_seen = 0
    for _ in range(150):
        if table.state.is_over:
            break
        obs = table.state.observation(0)
        board = table.w_board.value
        if obs.trick:
            labels = re.findall(r'class="mc-played[^"]*" role="listitem" aria-label="([^"]*)"',
                                board)
            assert [html.unescape(x).split(",")[0] for x in labels] == [c.name for c in obs.trick]
            assert ", led" in html.unescape(labels[0])
            tricks_seen += 1
        prizes = getattr(obs, "prizes", None)
        if prizes:
            backs = len(re.findall(r'aria-label="prize \d+, face down"', board))
            assert backs == sum(p is None for p in prizes)
        elif prizes is None:
            assert "chips" in board
        click_something(table, rng)
    assert tricks_seen > 0


def test_partnerships_show_one_chips_line_per_side():
    """Four players in two partnerships: two 'chips together' lines, each naming both
    partners (not a line per seat with nobody in it)."""
    from mathcards.games.registry import make_game
    from mathcards.widgets.tricks import ShootTheMoonView

    game = make_game("shoot_the_moon", num_players=4, partnerships=True)
    state = game.new_game(seed=5)
    names = ("you", "Player 2", "Player 3", "Player 4")
    board = html.unescape(ShootTheMoonView().board_html(state, state.observation(0), names))
    lines = re.findall(r"<li>([^<]*): (\d+) chips together</li>", board)
    assert [who for who, _ in lines] == ["you and Player 3", "Player 2 and Player 4"], board
    obs = state.observation(0)
    assert [int(chips) for _, chips in lines] == [obs.chips[obs.side_of(0)],
                                                  obs.chips[obs.side_of(1)]]


@pytest.mark.parametrize("game", trick_tables())
def test_the_last_trick_is_found_by_the_events_class_not_its_name(game):
    """``TrickView.last_trick`` dispatches on the engine's event classes (issue 26 item 22):
    a subclass of the finished-trick event under another name is still the last trick, and
    an object of another class that only carries the name is not one."""
    import dataclasses
    from types import SimpleNamespace

    from mathcards.games import moons_and_planets as mp
    from mathcards.games import shoot_the_moon as stm
    from mathcards.games.registry import make_game
    from mathcards.widgets.tricks import TrickView

    view = TrickView(game)
    state = make_game(game, num_players=3).new_game(seed=2)
    rng = random.Random(2)
    while view.last_trick(state) is None:
        state = state.apply(rng.choice(state.legal_actions()))
    expected = view.last_trick(state)
    finished, dealt = {"shoot_the_moon": (stm.TrickWon, stm.HandDealt),
                       "moons_and_planets": (mp.PrizesAwarded, mp.CardsDealt)}[game]
    events = list(state.events)
    at = max(i for i, e in enumerate(events) if isinstance(e, finished))
    fields = {f.name: getattr(events[at], f.name)
              for f in dataclasses.fields(events[at]) if f.init}
    renamed = type("SomethingElse", (finished,), {})(**fields)
    assert view.last_trick(SimpleNamespace(events=(*events[:at], renamed))) == expected
    # a look-alike of another class, named as the engine's event: not a finished trick
    impostor = type(finished.__name__, (), {})()
    impostor.__dict__.update({**fields, "cards": tuple(reversed(fields["cards"]))})
    assert view.last_trick(SimpleNamespace(events=(*events[:at + 1], impostor))) == expected
    look_alike_deal = type(dealt.__name__, (), {})()
    assert view.last_trick(SimpleNamespace(events=(*events[:at + 1], look_alike_deal))) \
        == expected


def test_the_hands_last_trick_and_its_score_are_shown_with_the_odd_tricks_reminder():
    """Issue 26 item 15: after the hand the last trick was never shown (the next hand was
    dealt already) and the score was one log line; the guide never said that an odd
    number of tricks wins a chip."""
    from mathcards.games.shoot_the_moon import RoundScored, TrickWon

    hand = lesson.GuidedHand(ShootTheMoon(num_players=3), seed=7)
    reminded = False
    for _ in range(40):
        if hand.paused:
            break
        reminded |= "an odd number (1 or 3) at the end of the hand wins a chip" in \
            hand.guide_sentence()
        hand.try_card(hand.legal_cards()[0])
    assert hand.paused and reminded
    events = hand.state.new_events
    last = [e for e in events if isinstance(e, TrickWon)][-1]
    scored = next(e for e in events if isinstance(e, RoundScored))
    shown = html.unescape(hand.table.value)
    assert "The hand's last trick" in shown
    assert all(card.name in shown for card in last.cards)
    moment = html.unescape(hand.prizes.value)
    assert 'class="mc-moment' in moment
    for seat, award in enumerate(scored.awards):
        now = scored.chips[seat]
        line = (f"+{award} chip{'s' if award != 1 else ''}: {now - award} + {award} = {now}"
                if award else f"no chip: still {now}")
        assert line in moment, (line, moment)
    hand.resume()
    assert "The hand's last trick" not in html.unescape(hand.table.value)
    assert 'class="mc-moment' not in hand.prizes.value
