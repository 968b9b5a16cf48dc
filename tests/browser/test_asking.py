"""'I count' in a real browser (issue 25): a whole short Suns to Moons game against a bot
where the student gives every new deck value, typed at 1280 px (Enter answers; the
answer box takes the focus) and on the number pad at 390 px; one wrong answer followed
by a right one; one sign that breaks the ±10 bound refused in words; then the teacher's
dashboard shows that student's answers by skill with the slip named.

The test reads each question on the page and works out the answer as a student would
(the deck and the card's signed value it names): the page never shows the result first.
"""

from __future__ import annotations

import re
import time

from mathcards.games.registry import make_game
from mathcards.games.suns_to_moons import Play, within_bound
from mathcards.saves import deal_code
from mathcards.table import short_setting
from tests.browser.conftest import wait_for_first_widget, wait_for_rendered
from tests.browser.test_game_pages import open_table, render_number, wait_settled
from tests.browser.test_teacher_dashboard import servers_data

SHORT = {"num_players": 2, **dict([short_setting("suns_to_moons")])}
ASKED = ".mc-ask:not(.mc-hide) .mc-ask-prompt"
SCREENSHOTS = "docs/screenshots"


def _first_move_with_a_sign_out_of_bound() -> tuple[int, str, int, int]:
    """(seed, card, refused sign, legal sign) of a short game's deal whose first move is
    the student's, with a card one of whose signs breaks ±10 (the deal code decides the
    student's hand and the centre card, whatever the table's secret)."""
    game = make_game("suns_to_moons", **SHORT)
    for seed in range(1, 500):
        states = [game.new_game(seed, private_seed=p, known_seat=0) for p in (1, 2)]
        state = states[0]
        if state.current_player != 0 or states[1].hands[0] != state.hands[0]:
            continue
        for card in state.hands[0]:
            if card.is_joker or card.rank == 1:
                continue
            plays = [Play(card, sign, card.rank) for sign in (1, -1)]
            legal = [p for p in plays if state.is_legal(p)]
            out = [p for p in plays if not state.is_legal(p)
                   and not within_bound(state.deck_value + p.contribution)]
            if len(legal) == 1 and len(out) == 1:
                return seed, card.name, out[0].contribution, legal[0].contribution
    raise AssertionError("no deal with a sign out of bound")


def _number(text: str) -> int:
    return int(text.replace("−", "-"))


def numbers_of(prompt: str) -> tuple[int, int]:
    """The deck and the card's signed value the question names."""
    found = re.search(r"(?:deck is|deck was) ([−\d]+)", prompt)
    term = re.search(r"\(([+−]\d+)\)", prompt)
    assert found and term, prompt
    return _number(found.group(1)), _number(term.group(1).lstrip("+"))


def answer_of(prompt: str) -> int:
    """What the student works out from the question: the deck plus the card's signed value
    (a Joker takes the value away)."""
    deck, value = numbers_of(prompt)
    return deck - value if "Joker" in prompt else deck + value


def _give(page, value: int, *, pad: bool) -> None:
    """Type the answer and press Enter (the box has the focus), or press the pad's keys."""
    rendered = render_number(page)
    if pad:
        keys = [*str(abs(value))] + (["−"] if value < 0 else []) + ["OK"]
        for key in keys:
            page.locator(f'.mc-pad button[data-key="{key}"]').click()
    else:
        focused = page.evaluate("() => !!document.activeElement.closest('.mc-answer')")
        assert focused, "the answer box did not take the focus"
        page.keyboard.type(str(value).replace("-", "−"))
        page.keyboard.press("Enter")
    wait_settled(page, rendered)


def _click(page, locator) -> None:
    rendered = render_number(page)
    locator.click()
    wait_settled(page, rendered)


def _question(page) -> str:
    asked = page.locator(ASKED)
    return asked.inner_text() if asked.count() and asked.is_visible() else ""


def _choose(page, card) -> bool:
    """Click a card, then its signs until one is not refused (asked, or laid); False (and
    Back) when both signs break ±10."""
    _click(page, card)
    if _question(page):
        return True
    signs = page.locator(".mc-choices .mc-choice:enabled:not(:has-text('Back'))")
    for i in range(signs.count()):
        _click(page, signs.nth(i))
        if not page.locator(".mc-near-hand").count():
            return True
    _click(page, page.locator(".mc-choices .mc-choice:has-text('Back')"))
    return False


def play_at_i_count(page, *, pad: bool, wrong_once: bool) -> int:
    """Play to the end, answering every question (one wrong answer first, if asked);
    returns the number of questions answered."""
    answered = 0
    refused: set[tuple[str | None, str]] = set()  # (move, card) whose signs both break ±10
    for _ in range(400):
        wait_settled(page)
        if page.locator(".mc-status:has-text('Game over')").count():
            return answered
        prompt = _question(page)
        if prompt:
            right = answer_of(prompt)
            deck, value = numbers_of(prompt)
            if wrong_once and "Joker" not in prompt and abs(value) >= 3:
                _give(page, deck - value, pad=pad)  # the sign slip: the card's sign lost
                feedback = page.locator(".mc-ask-feedback").inner_text()
                assert "not quite" in feedback.lower() and str(abs(right)) not in feedback
                assert _question(page) == prompt  # asked again, nothing laid
                wrong_once = False
            _give(page, right, pad=pad)
            answered += 1
            continue
        nxt = page.locator(".mathcards button:has-text('Next round'):enabled")
        if nxt.count():
            _click(page, nxt.first)
            continue
        move = page.locator(".mc-header [data-move]").first.get_attribute("data-move")
        cards = [c for c in page.locator(".mc-hand .mc-cardbtn:enabled").all()
                 if (move, c.inner_text()) not in refused]
        if cards:
            name = cards[0].inner_text()
            if not _choose(page, cards[0]):  # both ways break ±10: another card
                refused.add((move, name))
            continue
        others = page.locator(".mc-choices .mc-choice:enabled")
        if others.count():
            _click(page, others.first)  # End turn, Pass
    raise AssertionError("the game did not end")


def test_a_short_game_at_i_count_typed_then_on_the_pad_and_the_dashboard(voila_server, page):
    from mathcards import keys

    seed, card, out, legal = _first_move_with_a_sign_out_of_bound()
    code = deal_code(make_game("suns_to_moons", **SHORT), seed)
    url = (voila_server.page("play_suns_to_moons.ipynb")
           + f"?deal={code}&delay=0.05&seats=human,random&student=counter")
    page.set_viewport_size({"width": 1280, "height": 900})
    open_table(page, url)
    assert page.locator(".mc-levels button.mod-active").inner_text() == "I count"
    # the card's signs show the card only: no "→", no result
    _click(page, page.locator(".mc-hand .mc-cardbtn", has_text=card))
    signs = page.locator(".mc-choices .mc-choice:enabled").all_inner_texts()
    assert signs and not any("→" in s for s in signs), signs
    sign_text = f"{out:+d}".replace("-", "−")
    assert any(s.startswith(sign_text) for s in signs), signs  # not greyed in advance
    moves = page.locator(".mc-header [data-move]").first.get_attribute("data-move")
    _click(page, page.locator(".mc-choices .mc-choice", has_text=sign_text))
    refusal = page.locator(".mc-near-hand").inner_text()
    # the rule in a teacher's words, not the deck the card would make (issue 37 item 3)
    assert "between −10 and 10" in refusal and "Not allowed" in refusal
    assert "deck" in refusal and "would make" not in refusal
    assert page.locator(".mc-header [data-move]").first.get_attribute("data-move") == moves
    legal_text = f"{legal:+d}".replace("-", "−")
    _click(page, page.locator(".mc-choices .mc-choice", has_text=legal_text))
    assert _question(page)  # asked before it is laid
    assert page.locator(".mc-header [data-move]").first.get_attribute("data-move") == moves
    page.screenshot(path=f"{SCREENSHOTS}/suns_to_moons.png")  # the README's first picture
    page.screenshot(path=f"{SCREENSHOTS}/suns_to_moons_i_count_1280.png")
    answered = play_at_i_count(page, pad=False, wrong_once=True)
    assert answered >= 3

    # the same at 390 px on the number pad (a new game by the same link)
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, url)  # the finished game's save is gone: the same deal again
    cards = page.locator(".mc-hand .mc-cardbtn:enabled")
    _click(page, cards.first)
    if not _question(page):
        signs = page.locator(".mc-choices .mc-choice:enabled:not(:has-text('Back'))")
        for i in range(signs.count()):
            _click(page, signs.nth(i))
            if _question(page):
                break
    pad = page.locator(".mc-pad").bounding_box()
    assert pad and pad["x"] >= 0 and pad["x"] + pad["width"] <= 390
    assert pad["y"] + pad["height"] <= 844, pad  # on the first screen with the box
    page.screenshot(path=f"{SCREENSHOTS}/suns_to_moons_i_count_390.png")
    answered = play_at_i_count(page, pad=True, wrong_once=False)
    assert answered >= 3

    # the teacher's dashboard: this student's answers by skill, the slip named
    with servers_data(voila_server):
        key = keys.teacher_key()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_server.page(f"dashboard.ipynb?key={key}"))
    wait_for_rendered(page)
    wait_for_first_widget(page)
    skills = page.locator("table.mc-skills")
    skills.wait_for(state="visible")
    row = skills.locator("tr", has=page.locator("th", has_text="counter")).inner_text()
    assert "keep the deck within −10 and 10" in skills.locator("tr").first.inner_text()
    assert "sign slip" in row, row


BUSY_PAGE = """\
import time

import ipywidgets as W
from IPython.display import display

from mathcards.widgets import play

# a handler as slow as a busy kernel (a bot thinking, a slow save): the page's updates wait
busy = W.Button(description="Keep the kernel busy")
busy.on_click(lambda _b: time.sleep(2.5))
display(busy)
play("suns_to_moons")
"""


def _ask(page) -> str:
    """Choose moves until the table asks (a sign out of ±10 is refused: the other sign, or
    Back and another card); the question."""
    tried: set[str] = set()
    for _ in range(20):
        wait_settled(page)
        if _question(page):
            return _question(page)
        if not page.locator(".mc-hand .mc-cardbtn:enabled").count():
            # the bot's turn still being drawn on a loaded machine: the hand comes back
            page.locator(".mc-hand .mc-cardbtn:enabled").first.wait_for(timeout=60_000)
            continue
        cards = [c for c in page.locator(".mc-hand .mc-cardbtn:enabled").all()
                 if c.inner_text() not in tried]
        assert cards, "no card to choose"
        tried.add(cards[0].inner_text())
        _choose(page, cards[0])
    raise AssertionError("the table asked nothing")


def _graded(server, at_least: int = 0, timeout: float = 30.0) -> list[tuple[str, bool]]:
    """The answers graded so far, once there are ``at_least`` of them (the page shows its
    feedback as the kernel records the answer: on a loaded machine the file may lag)."""
    from mathcards.exercises.progress import ProgressStore

    db = server.state_dir / "mathcards_data" / "progress.sqlite3"
    deadline = time.monotonic() + timeout
    while True:
        graded: list[tuple[str, bool]] = []
        if db.exists():
            store = ProgressStore(db)
            try:
                # the answers typed in the box: not a move the rules refused, recorded too
                # (a refusal with its rule: a sign the ±10 bound refused, which _ask may
                # try first now that the signs keep one order, + before −)
                graded = [(a.given, a.right) for a in store.answers(student="boxer")
                          if not a.refusal]
            finally:
                store.close()
        if len(graded) >= at_least or time.monotonic() > deadline:
            return graded
        time.sleep(0.2)


def test_only_enter_ok_or_check_submit_and_a_busy_kernel_grades_the_whole_number(page,
                                                                                 tmp_path):
    """Typing then leaving the box grades nothing; typed while the kernel is busy, the
    whole number is graded (not its first digits); the pad's digits and ✓ OK answer."""
    import nbformat

    from tests.browser.server import VoilaServer

    root = tmp_path / "lessons"
    root.mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(BUSY_PAGE)]),
                   root / "busy.ipynb")
    server = VoilaServer(tmp_path / "state", root_dir=root).start()
    try:
        page.set_viewport_size({"width": 1280, "height": 900})
        open_table(page, server.page("busy.ipynb") + "?delay=0&seats=human,random"
                                                     "&student=boxer")
        box = page.locator(".mc-answer input")
        # 1. typed, then the box loses the focus (a click elsewhere): nothing is graded
        prompt = _ask(page)
        right = answer_of(prompt)
        box.click()
        page.keyboard.type(str(right + 10).replace("-", "−"))
        page.locator(".mc-ask-prompt").click()  # blur
        page.keyboard.press("Tab")
        page.wait_for_timeout(1500)
        assert _question(page) == prompt and not page.locator(".mc-ask-feedback").count()
        assert _graded(server) == []
        # 2. the kernel busy: a wrong two-digit answer typed and Enter, then the right one
        box.fill("")
        page.get_by_role("button", name="Keep the kernel busy").click()
        wrong = right + 10 if right >= 0 else right - 10  # two digits at least
        box.click()
        page.keyboard.type(str(wrong).replace("-", "−"), delay=30)
        page.keyboard.press("Enter")
        page.locator(".mc-ask-feedback").wait_for(state="visible", timeout=30_000)
        assert _graded(server, 1) == [(str(wrong), False)]  # the whole number, once
        page.get_by_role("button", name="Keep the kernel busy").click()
        box.click()
        page.keyboard.type(str(right).replace("-", "−"), delay=30)
        page.get_by_role("button", name="Check").click()
        page.wait_for_function("() => !document.querySelector('.mc-ask:not(.mc-hide)')",
                               timeout=30_000)
        assert _graded(server, 2) == [(str(wrong), False), (str(right), True)]
        # 3. the number pad's keys, then ✓ OK
        right = answer_of(_ask(page))
        keys = [*str(abs(right))] + (["−"] if right < 0 else []) + ["OK"]
        for key in keys:
            page.locator(f'.mc-pad button[data-key="{key}"]').click()
        page.wait_for_function("() => !document.querySelector('.mc-ask:not(.mc-hide)')",
                               timeout=30_000)
        assert _graded(server, 3)[-1] == (str(right), True)
        errors = [e for e in page.console_errors if "favicon" not in e]
        assert not errors, errors
    finally:
        server.stop()


def test_dice_stacks_cards_that_are_not_a_stack_are_refused_without_a_number_and_recorded(
        voila_server, page):
    """Issue 37 (c), at 1366x768: at "I count" a Dice Stacks selection that is not a stack
    is asked about like any stack (how do the cards make the dice total?), then refused
    with the rule alone: no number of its own (only the cards' own values and the dice);
    the wrong try is recorded in the student's progress file."""
    from mathcards.cards import Card
    from mathcards.exercises.progress import ProgressStore
    from mathcards.games.dice_stacks.rule import counts, counts_make

    page.set_viewport_size({"width": 1366, "height": 768})
    open_table(page, voila_server.page("play_dice_stacks.ipynb")
               + "?delay=0&seats=human,random&student=stacker")
    dice: tuple[int, int] | None = None
    for _ in range(12):  # roll, say the dice's total, draw: the stacks phase
        wait_settled(page)
        prompt = _question(page)
        if prompt:
            found = re.search(r"rolled (\d) and (\d)", prompt)
            assert found, prompt
            dice = (int(found.group(1)), int(found.group(2)))
            _give(page, sum(dice), pad=False)
            continue
        if (page.locator(".mc-hand .mc-cardbtn:enabled").count() and not
                page.locator(".mc-choices .mc-choice:has-text('Draw'):enabled").count()):
            break
        _click(page, page.locator(".mc-choices .mc-choice:enabled").first)
    assert dice is not None
    hand = [c.get_attribute("class") for c in page.locator(".mc-hand .mc-cardbtn").all()]
    cards = [Card(re.search(r"mc-s(\w+)", c).group(1), int(re.search(r"mc-r(\d+)", c).group(1)))
             for c in hand]  # the button's rank and suit (its text is the card's name)
    target = sum(dice)
    # the test picks cards that are not a stack (the page never says which are)
    pick = next(([i, j] for i in range(len(cards)) for j in range(i + 1, len(cards))
                 if 13 not in (cards[i].rank, cards[j].rank)
                 and not counts_make(counts([cards[i], cards[j]]), target)),
                next(([i] for i, c in enumerate(cards)
                      if c.rank != 13 and c.rank != target), None))
    assert pick is not None, (hand, dice)
    for i in pick:
        _click(page, page.locator(".mc-hand .mc-cardbtn").nth(i))
    _click(page, page.locator(".mc-choices .mc-choice:has-text('Lay down')"))
    if len(pick) == 2:  # asked how they make the total: by adding
        assert "how do they make the dice total" in _question(page)
        _click(page, page.locator(".mc-choices .mc-choice", has_text="adding"))
    refusal = page.locator(".mc-near-hand").inner_text()
    assert "not a stack" in refusal, refusal
    words = refusal
    for i in pick:
        words = words.replace(cards[i].symbol, "")
    allowed = {str(d) for d in dice}
    assert set(re.findall(r"\d+", words)) <= allowed, refusal  # no number of its own
    assert not _question(page)  # nothing waits, nothing laid
    db = voila_server.state_dir / "mathcards_data" / "progress.sqlite3"
    deadline = time.monotonic() + 30
    while True:
        store = ProgressStore(db)
        try:
            mine = [a for a in store.answers(student="stacker") if a.game == "dice_stacks"]
        finally:
            store.close()
        if any(a.skill.startswith("stack") for a in mine) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    tried = [a for a in mine if a.skill.startswith("stack")]
    assert len(tried) == 1 and not tried[0].right and tried[0].attempt == 1, mine
    assert not tried[0].refusal  # a wrong try of the stack being built, with its slip
    assert tried[0].slip
    errors = [e for e in page.console_errors if "favicon" not in e]
    assert not errors, errors
