"""The play pages in a real browser: whole games by clicks and keys, against Voilà.

Each page is opened with a short deal (a deal code in the address) and a
short visible bot pause, played to its end, and photographed into
docs/screenshots/ (linked from the README).

Clicks wait for the table to settle: every redraw ends with a hidden
``.mc-sync`` marker (``data-render`` counts redraws, ``data-busy="1"`` while
a bot is about to move). A control read while a bot is moving may change
before the click lands, and the table rightly refuses such a stale click
("wait for the bot to move"), so the tests never click until the marker says
the redraw after their last click has arrived and no bot is pending.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mathcards.cards import standard_deck
from mathcards.games.registry import make_game
from mathcards.saves import deal_code

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PLAYABLE = ".mc-hand .mc-cardbtn:enabled, .mc-choices .mc-choice:enabled"
CARD_NAME = re.compile(
    r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(hearts|diamonds|spades|clubs)$")

GAMES = {
    # short games: target score 1; 8 small piles; (Dice Stacks: few cards)
    "suns_to_moons": {"num_players": 2, "target_score": 1},
    "sums": {"num_players": 2, "piles": 8},
    "dice_stacks": {"num_players": 2},
}
SEEDS = {"suns_to_moons": 11, "sums": 5, "dice_stacks": 3}


def page_url(server, game: str, delay: float = 0.05, student: str = "guest") -> str:
    """The game's page with its deal code at "Show me the sums" (these tests play by the
    moves' buttons; "I count" is tests/browser/test_asking.py), for ``student`` (by default
    the shared guest)."""
    code = deal_code(make_game(game, **GAMES[game]), SEEDS[game])
    return (server.page(f"play_{game}.ipynb")
            + f"?deal={code}&delay={delay}&student={student}&level=show")


def wait_visible(page, selector: str, timeout: float = 120_000) -> None:
    """Wait until any element matching ``selector`` is visible (not just the first)."""
    page.wait_for_function(
        "(sel) => [...document.querySelectorAll(sel)].some(e => e.checkVisibility())",
        arg=selector, timeout=timeout)


def open_table(page, url: str) -> None:
    """Open a play page and wait until the table can be played (a saved game is declined)."""
    page.goto(url, timeout=120_000)
    wait_visible(page, f"{PLAYABLE}, .mathcards button.mc-resume")
    resume = page.locator(".mathcards button:has-text('Start a new game')")
    if resume.is_visible():
        resume.click()
        wait_visible(page, PLAYABLE)


def move_number(page) -> int:
    return int(page.locator(".mc-header [data-move]").first.get_attribute("data-move"))


def render_number(page) -> int:
    """How many times the table has been redrawn (the hidden .mc-sync marker)."""
    return int(page.locator(".mc-sync").first.get_attribute("data-render"))


def wait_settled(page, after: int = -1, timeout: float = 30_000) -> None:
    """Wait until a redraw (or a refusal) later than ``after`` has arrived and no bot is
    about to move."""
    page.wait_for_function(
        """(after) => {
            const s = document.querySelector('.mc-sync');
            return !!s && Number(s.dataset.render) > after && s.dataset.busy === '0';
        }""", arg=after, timeout=timeout)


def wait_for_my_turn(page, timeout: float = 30.0) -> bool:
    """True when something can be played; False when the game is over."""
    wait_settled(page, timeout=timeout * 1000)
    if page.locator(".mc-status:has-text('Game over')").count():
        return False
    wait_visible(page, PLAYABLE, timeout=timeout * 1000)
    return True


def play_whole_game(page, seed: int, max_steps: int = 600) -> tuple[int, int]:
    """Click (or press Enter/Space on) playable controls until the game ends; returns
    the steps and how many of them were keys."""
    rng = random.Random(seed)
    steps = keys = 0
    while wait_for_my_turn(page):
        # the table is settled (no bot pending): these controls stay as read until we click
        controls = page.locator(PLAYABLE)
        labels = controls.all_inner_texts()
        choices = [i for i, text in enumerate(labels) if text.strip() != "Back"]
        assert choices, "a playable table with nothing to click"
        target = controls.nth(rng.choice(choices))
        rendered = render_number(page)
        try:
            if steps % 2:
                target.focus(timeout=5_000)  # keyboard: Enter or Space presses a button
                page.keyboard.press("Enter" if steps % 4 == 1 else " ")
                keys += 1
            else:
                target.click(timeout=5_000)
        except PlaywrightTimeout:
            raise AssertionError(f"{labels} changed on a settled table") from None
        wait_settled(page, rendered)
        steps += 1
        assert not page.locator(".mc-refused").count(), page.locator(".mc-refused").inner_text()
        assert steps < max_steps, "the game did not end"
    return steps, keys


@pytest.mark.parametrize("game", ["suns_to_moons", "sums", "dice_stacks"])
def test_whole_game_by_clicks_and_keys(voila_server, page, game):
    open_table(page, page_url(voila_server, game))
    if game == "dice_stacks":  # no cards are dealt: roll and draw first
        wait_for_my_turn(page)
        while not page.get_by_role("button", name=CARD_NAME).count():
            _click_and_settle(page, page.locator(".mc-choices .mc-choice:enabled").first)
    # every card is a button whose spoken name is the card's name
    names = page.get_by_role("button", name=CARD_NAME)
    assert names.count() >= (1 if game == "dice_stacks" else 3)
    assert page.locator(".mc-hand .mc-cardbtn").first.get_attribute("title")
    # the deal code fixes the start; the bots' cards are each table's secret, so a game
    # may end in a move or two: deal again until a few moves were played, by keys too
    steps, keys = play_whole_game(page, SEEDS[game])
    for again in range(8):
        if steps > 2 and keys:
            break
        rendered = render_number(page)
        page.get_by_role("button", name="New game", exact=True).first.click()
        wait_settled(page, rendered)
        more, more_keys = play_whole_game(page, SEEDS[game] + again + 1)
        steps, keys = steps + more, keys + more_keys
    assert steps > 2 and keys > 0
    status = page.locator(".mc-status").first.inner_text()
    assert ("Game over" in status and "wins" in status) or "tie" in status
    # the explainer shows equations and their text
    text = page.locator(".mc-explain").inner_text()
    assert "Moves so far" in text
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}_game_over.png"), full_page=True)
    assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


def test_explainer_equation_after_a_move_and_a_refusal_with_its_reason(voila_server, page):
    open_table(page, page_url(voila_server, "suns_to_moons", delay=0.3))
    # a refused move: a card the player does not hold, typed and sent with Enter
    hand = [page.locator(".mc-hand .mc-cardbtn:enabled").nth(i).get_attribute("title")
            for i in range(page.locator(".mc-hand .mc-cardbtn:enabled").count())]
    missing = next(c for c in ("7H", "8S", "9D", "QC", "2H", "KS")
                   if not any(_name(c) in (h or "") for h in hand))
    box = page.locator(".mc-move input")
    box.fill(f"{missing} +")
    box.press("Enter")
    refusal = page.locator(".mc-refused")
    refusal.wait_for(state="visible")
    assert "Not allowed" in refusal.inner_text() and "do not hold" in refusal.inner_text()
    # a move by clicks: a card, then its sign
    start = move_number(page)
    page.locator(".mc-hand .mc-cardbtn:enabled").first.click()
    page.wait_for_function(
        "() => document.querySelector('.mc-hand .mc-selected') || "
        "Number(document.querySelector('.mc-header [data-move]').dataset.move) > " + str(start))
    if move_number(page) == start:
        sign = page.locator(".mc-choices .mc-choice:enabled", has_text=re.compile("→"))
        sign.first.click()
    page.wait_for_function(
        "() => Number(document.querySelector('.mc-header [data-move]').dataset.move) > "
        + str(start))
    step = page.locator(".mc-explain .mc-step").first
    step.wait_for(state="visible")
    # the equation as typeset math and as plain text for screen readers
    page.wait_for_selector(".mc-explain mjx-container, .mc-explain .MathJax", timeout=30_000)
    assert "=" in page.locator(".mc-step-text").inner_text()
    assert page.locator(".mc-numberline svg").count() == 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # (suns_to_moons.png, the README's first picture, shows "I count": test_asking.py)
    page.screenshot(path=str(SCREENSHOTS / "suns_to_moons_show_me.png"))


def test_a_typed_move_sent_with_its_button_asks_its_question_and_nothing_else(voila_server,
                                                                              page):
    """Issue 36 item 13: a move typed in the box, then *Play typed move* clicked. The box
    sends its text as it loses the focus to the button (the move is chosen: at "I count"
    its question is asked), then the click arrives with the box emptied: the page must not
    say "type a move first" beside the question."""
    code = deal_code(make_game("suns_to_moons", num_players=2, target_score=3),
                     SEEDS["suns_to_moons"])
    open_table(page, voila_server.page("play_suns_to_moons.ipynb")
               + f"?deal={code}&delay=0.05&student=guest")  # "I count": a play page's level
    assert wait_for_my_turn(page)
    deck = int(page.locator("[data-deck-value]").first.get_attribute("data-deck-value"))
    names = page.locator(".mc-hand .mc-cardbtn:enabled").evaluate_all(
        "els => els.map(e => e.textContent.replace(' (selected)', '').trim())")
    by_name = {c.name: c for c in standard_deck(jokers=0)}
    card, sign = next((c, sign) for n in names if (c := by_name.get(n)) and c.rank != 1
                      for sign, value in (("+", deck + c.rank), ("-", deck - c.rank))
                      if abs(value) <= 10)
    page.locator(".mc-move input").fill(f"{card} {sign}")
    page.get_by_role("button", name="Play typed move").click()
    prompt = page.locator(".mc-ask:not(.mc-hide) .mc-ask-prompt")
    prompt.wait_for(state="visible")
    wait_settled(page)
    assert card.symbol in prompt.inner_text()  # the question about the move typed
    assert "type a move first" not in page.locator(".mathcards").first.inner_text()
    assert not page.locator(".mc-refused").count()


def _name(code: str) -> str:
    from mathcards.cards import parse_card

    return parse_card(code).name


@pytest.mark.parametrize("game", ["sums", "dice_stacks"])
def test_resume_after_reload(voila_server, page, game):
    # a student's own save slot, named in the address
    url = page_url(voila_server, game, delay=0.05, student=f"resume_{game}")
    open_table(page, url)
    assert f"Playing as resume_{game}" in page.locator(".mc-header").first.inner_text()
    page.locator(".mc-choices .mc-choice:enabled").first.click()  # draw / roll
    page.wait_for_function("() => Number(document.querySelector("
                           "'.mc-header [data-move]').dataset.move) >= 1")
    wait_for_my_turn(page)
    moves = move_number(page)
    if game == "sums":
        page.screenshot(path=str(SCREENSHOTS / "sums.png"))
    page.reload()
    resume = page.locator(".mathcards button:has-text('Resume my saved game')")
    resume.wait_for(state="visible", timeout=120_000)
    assert "saved" in page.locator(".mathcards").first.inner_text()
    resume.click()
    # the table shows as soon as the offer goes; the restored game's words come after
    page.locator(".mc-status", has_text="Welcome back").first.wait_for(state="visible")
    wait_settled(page)
    wait_visible(page, PLAYABLE)
    assert move_number(page) == moves
    # another student (or a guest) on the same server is not offered this game
    page.goto(page_url(voila_server, game, delay=0.05, student=f"someone_else_{game}"))
    wait_visible(page, PLAYABLE)
    assert not page.locator(".mathcards button:has-text('Resume my saved game')").is_visible()
    assert f"Playing as someone_else_{game}" in page.locator(".mc-header").first.inner_text()
    assert "Welcome back" not in page.locator(".mc-status").first.inner_text()


@pytest.mark.parametrize("game", ["sums", "dice_stacks"])
def test_tablet_width_layout(voila_server, browser, game):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_table(page, page_url(voila_server, game))
        main = page.locator(".mc-main").bounding_box()
        side = page.locator(".mc-side").bounding_box()
        assert side["y"] >= main["y"] + main["height"] - 1  # the explainer moves below
        assert main["width"] <= 768
        # nothing sticks out sideways
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 768 + 1
        page.screenshot(path=str(SCREENSHOTS / f"{game}_tablet.png"), full_page=True)
    finally:
        page.close(run_before_unload=True)
        context.close()


def _hand_cards(page):
    """The person's hand as Cards, read from the card buttons' spoken names."""
    from mathcards.cards import standard_deck

    by_name = {c.name: c for c in standard_deck(jokers=0)}
    names = page.locator(".mc-hand .mc-cardbtn:enabled").evaluate_all(
        "els => els.map(e => e.textContent.replace(' (selected)', '').trim())")
    return [by_name[n] for n in names]


def _click_and_settle(page, locator) -> None:
    rendered = render_number(page)
    locator.click()
    wait_settled(page, rendered)


def test_dice_stacks_a_stack_by_clicks_with_its_arithmetic(voila_server, page):
    """Select cards: the arithmetic shows live; a non-stack's "Lay down" is disabled and,
    forced, refused with the rule; a stack laid shows its equation in the explainer."""
    from mathcards.explain import stack_steps
    from mathcards.games.dice_stacks import best_stacks

    open_table(page, page_url(voila_server, "dice_stacks", delay=0.05))
    choices = page.locator(".mc-choices .mc-choice:enabled")
    for _ in range(80):
        assert wait_for_my_turn(page), "the game ended before a stack could be laid"
        end = choices.filter(has_text="End turn")
        if not end.count():  # roll, draw, the rest: the first offered move
            _click_and_settle(page, choices.first)
            continue
        dice = page.locator(".mc-dice").first.get_attribute("aria-label")
        a, b = (int(x) for x in re.findall(r"\d", dice))
        hand = _hand_cards(page)
        # a stack of two or more cards: its equation (a card alone is said in words)
        stacks = [s for s in best_stacks(hand, (a, b)) if len(s) > 1]
        wrong = next((i for i, c in enumerate(hand) if c.rank not in (a + b, 13)), None)
        if not stacks or wrong is None:
            _click_and_settle(page, end)
            continue
        cards = page.locator(".mc-hand .mc-cardbtn:enabled")
        # a selection that is not a stack: the reason live, "Lay down" disabled
        _click_and_settle(page, cards.nth(wrong))
        line = page.locator(".mc-selection").first.inner_text()
        assert "not a stack" in line and str(a + b) in line, line
        lay = page.locator(".mc-choices .mc-choice", has_text="Lay down")
        assert lay.is_disabled()
        # a visitor forcing the button: the table refuses with the rule
        lay.evaluate("el => { el.disabled = false; }")
        start = move_number(page)
        _click_and_settle(page, lay)
        refusal = page.locator(".mc-refused")
        assert "Not allowed" in refusal.inner_text() and f"{a + b}" in refusal.inner_text()
        assert move_number(page) == start  # nothing was played
        _click_and_settle(page, page.locator(".mc-choices .mc-choice", has_text="Clear"))
        # the best stack, card by card: its arithmetic with a tick
        used: set[int] = set()
        for card in stacks[0]:
            i = next(j for j, c in enumerate(hand) if c == card and j not in used)
            used.add(i)
            _click_and_settle(page, cards.nth(i))
        text = stack_steps(stacks[0], (a, b)).text
        line = page.locator(".mc-selection").first.inner_text()
        assert text in line and "✓" in line, line
        start = move_number(page)
        _click_and_settle(page, page.locator(".mc-choices .mc-choice:enabled",
                                             has_text="Lay down"))
        assert move_number(page) == start + 1
        page.wait_for_selector(".mc-explain mjx-container, .mc-explain .MathJax",
                               timeout=30_000)
        assert text.split(" = ")[0] in page.locator(".mc-step-text").inner_text()
        assert "Stacks this turn" in page.locator(".mc-chain").inner_text()
        assert page.locator(".mc-seat .mc-stack").count() >= 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # the clicks scrolled the page: back to the top for the photograph
        page.evaluate("() => { window.scrollTo(0, 0); document.querySelectorAll('*').forEach("
                      "e => { if (e.scrollTop && !e.closest('.mc-history')) e.scrollTop = 0; }); }")
        page.screenshot(path=str(SCREENSHOTS / "dice_stacks.png"))
        return
    pytest.fail("no stack to lay in 80 moves")


def _kernel_pids(kernel_id: str) -> list[int]:
    """The processes of one kernel: a kernel started the usual way names its connection
    file in its command line; a forked one (make play's fork server) has the fork server's
    command line, and is found by the ipc sockets it bound, whose paths name the kernel."""
    import os

    def processes():
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                yield int(entry)

    pids = []
    for pid in processes():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if f"kernel-{kernel_id}".encode() in cmd:
            pids.append(pid)
    if pids:
        return pids
    with open("/proc/net/unix") as f:  # Num RefCount Protocol Flags Type St Inode Path
        bound = {f"socket:[{parts[6]}]" for parts in (line.split() for line in f)
                 if len(parts) >= 8 and f"kernel-{kernel_id}-ipc" in parts[7]}
    for pid in processes():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in bound:
                    pids.append(pid)
                    break
            except OSError:
                continue
    return pids


@pytest.mark.parametrize("how", ["killed", "culled"])
def test_a_page_whose_kernel_stopped_says_so_and_reloads_to_resume(voila_server, page, how):
    """Item 14: a dead or culled kernel never leaves the page silent (issue 11)."""
    import os
    import signal
    import urllib.request

    url = page_url(voila_server, "sums", delay=0.05, student=f"lost_{how}")
    open_table(page, url)
    page.locator(".mc-choices .mc-choice:enabled").first.click()  # draw
    page.wait_for_function("() => Number(document.querySelector("
                           "'.mc-header [data-move]').dataset.move) >= 1")
    wait_for_my_turn(page)
    moves = move_number(page)
    html = page.content()
    kernel_id = re.search(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})', html)
    assert kernel_id, "the page names no kernel"
    kernel_id = kernel_id.group(1)
    assert not page.locator("#mc-lost").count()
    if how == "killed":
        pids = _kernel_pids(kernel_id)
        assert pids, "the kernel's process was not found"
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
    else:  # what the culler does: shut the kernel down through the server
        request = urllib.request.Request(
            voila_server.url(f"voila/api/shutdown/{kernel_id}"), method="POST",
            headers={"Cookie": "; ".join(f"{c['name']}={c['value']}"
                                         for c in page.context.cookies()),
                     "X-XSRFToken": next((c["value"] for c in page.context.cookies()
                                          if c["name"] == "_xsrf"), "")})
        urllib.request.urlopen(request, timeout=30).read()
    lost = page.locator("#mc-lost")
    lost.wait_for(state="visible", timeout=60_000)
    assert "lost its connection" in lost.inner_text()
    lost.get_by_role("button", name="Reload").click()
    resume = page.locator(".mathcards button:has-text('Resume my saved game')")
    resume.wait_for(state="visible", timeout=120_000)
    assert not page.locator("#mc-lost").count()
    resume.click()  # no move lost: the game goes on at the same move (issue 12)
    page.locator(".mc-status", has_text="Welcome back").first.wait_for(state="visible")
    wait_settled(page)
    assert move_number(page) == moves


def test_two_visitors_in_quick_succession_both_get_a_playable_table(voila_server, browser):
    """The second visitor right after the first (the pool's next kernel, or a fresh one)."""
    pages = []
    try:
        for who in ("first", "second"):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(page_url(voila_server, "sums", student=f"quick_{who}"),
                      wait_until="commit")
            pages.append(page)
        for who, page in zip(("first", "second"), pages, strict=True):
            wait_visible(page, f"{PLAYABLE}, .mathcards button.mc-resume")
            assert f"Playing as quick_{who}" in page.locator(".mc-header").first.inner_text()
            page.locator(".mc-choices .mc-choice:enabled").first.click()
            page.wait_for_function("() => Number(document.querySelector("
                                   "'.mc-header [data-move]').dataset.move) >= 1")
    finally:
        for page in pages:
            page.close(run_before_unload=True)
            page.context.close()
