"""Rooms: classmates at their own screens play one game (no browser here).

Each "page" is a table controller (or a whole ipywidgets GameTable) with its own
RoomStore connection to one SQLite file, as separate kernels have.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time

import pytest

from mathcards import storage
from mathcards.games.base import encode_action
from mathcards.rooms import (
    CODE_LETTERS,
    KEEP_FOR,
    ROOMS_PER_ADDRESS,
    ROOMS_PER_VISITOR,
    WRONG_CODES,
    WRONG_CODES_PER_ADDRESS,
    WRONG_CODES_WINDOW,
    RoomError,
    RoomLink,
    RoomStore,
    normal_code,
)
from mathcards.table import REMOTE, Refused, TableController
from tests.registered import card_tables
from tests.test_table_controller import _view

GAMES = tuple(card_tables())  # the tables that deal privately (not the trick tables)
TRICKS = (("shoot_the_moon", 3), ("shoot_the_moon", 4), ("moons_and_planets", 2),
          ("moons_and_planets", 4))


def _page(game: str, db, code: str, holder: str, *, widget: bool = False):
    store = RoomStore(db)
    if widget:
        from mathcards.widgets.table import GameTable

        table = GameTable(_view(game), bot_delay=0, save=False, resume="never")
        ctl = table.ctl
    else:
        table = None
        ctl = TableController(_view(game), bot_delay=0, save=False, resume="never")
    return RoomLink(ctl, store, code, holder, name=holder.title()), table


def _make_room(db, game: str, players: int, host: str = "ana", **settings) -> str:
    from mathcards.games.registry import make_game

    return RoomStore(db).create(make_game(game, num_players=players, **settings), host)


def _sync(links):
    for link in links:
        link.poll()


def _play_out(links, rng, limit=20000):
    """Whoever's turn it is clicks one of the moves their page offers; others poll."""
    steps = 0
    while not links[0].ctl.state.is_over:
        _sync(links)
        states = {len(link.ctl.state.history) for link in links}
        assert len(states) == 1, f"pages disagree on the move number: {states}"
        acting = [link for link in links if link.ctl.acting_human()]
        if not acting:  # a bot's turn: the bot-running page moves it on its poll
            assert any(link.ctl._bot_due() for link in links) or links[0].ctl.state.is_over
            for link in links:
                link.ctl.schedule_bot()
            steps += 1
            assert steps < limit
            continue
        assert len(acting) == 1, "two pages think it is their turn"
        ctl = acting[0].ctl
        cards = [c.key for c in ctl.card_states() if c.enabled]
        choices = [c.key for c in ctl.offered_choices()
                   if not c.key.startswith("off:") and c.key not in ("back", "clear")]
        options = [(ctl.click_card, k) for k in cards] + [(ctl.click_choice, k) for k in choices]
        fn, key = rng.choice(options)
        assert ctl.attempt(fn, key), ctl.message
        steps += 1
        assert steps < limit, "the game did not end"
    _sync(links)
    return steps


@pytest.mark.parametrize("game, players",
                         [(g, n) for g in GAMES for n in (2, 4)] + list(TRICKS))
def test_classmates_play_a_whole_game_each_on_their_own_page(tmp_path, game, players):
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, game, players)
    names = ["ana", "ben", "cy", "dee"][:players]
    links = [_page(game, db, code, name)[0] for name in names]
    assert [link.seat for link in links] == list(range(players))
    _sync(links)
    assert not links[0].playing and "start the game" in links[0].lobby_line()
    assert "waiting for the host" in links[-1].lobby_line()
    with pytest.raises(RoomError, match="only the player who made"):
        links[1].start()
    links[0].start()
    _sync(links)
    assert all(link.playing for link in links)
    for i, link in enumerate(links):  # each page: its seat is the person, the others remote
        assert link.ctl.seats == tuple("human" if j == i else REMOTE for j in range(players))
        assert link.ctl.viewer == i and link.ctl.room_code == code and not link.ctl.deal_code
    steps = _play_out(links, random.Random(players))
    assert steps > 0
    finals = {link.ctl.state.to_json() for link in links}
    assert len(finals) == 1 and links[0].ctl.state.is_over
    assert all(link.ctl.message.startswith("Game over") for link in links)


@pytest.mark.parametrize("game", GAMES)
def test_a_room_with_bots_is_played_to_the_end_and_one_page_moves_the_bots(tmp_path, game):
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, game, 3)
    ana, ben = _page(game, db, code, "ana")[0], _page(game, db, code, "ben")[0]
    ana.fill_with_bots("random")
    ana.start()
    _sync([ana, ben])
    assert ana.ctl.seats == ("human", REMOTE, "random")
    assert ana._runs_bots() and not ben._runs_bots()
    _play_out([ana, ben], random.Random(5))
    assert ana.ctl.state.to_json() == ben.ctl.state.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_each_page_holds_only_its_own_hand_in_synced_fields(tmp_path, game):
    """The tree walk of the safety tests, on both pages after every move of a game."""
    from tests.widgets.test_safety import _assert_no_leak, _public_between, _seen

    db = tmp_path / "rooms.sqlite3"
    # one round of Suns to Moons: its cards played face up return to hands at the next
    # round's deal within one move, which this check could not tell from a leak
    code = _make_room(db, game, 2, **({"target_score": 1} if game == "suns_to_moons" else {}))
    (ana, ana_table), (ben, ben_table) = (_page(game, db, code, n, widget=True)
                                          for n in ("ana", "ben"))
    ana.start()
    _sync([ana, ben])
    rng = random.Random(2)
    checked = 0
    known: dict[int, set] = {0: set(), 1: set()}  # what each screen has been shown
    while not ana.ctl.state.is_over and checked < 400:
        for seat, table in enumerate((ana_table, ben_table)):
            assert table.viewer == seat
            known[seat] |= _seen(table)
            checked += _assert_no_leak(table, known[seat]) > 0
        before = ana.ctl.state
        _play_out_one([ana, ben], rng)
        for seat in known:
            known[seat] |= _public_between(before, ana.ctl.state)
    assert checked > 3  # hands were there to leak, on several moves


def _click_something(ctl, rng) -> None:
    """One click of the person at ``ctl``: an enabled card or an offered choice."""
    options = ([(ctl.click_card, c.key) for c in ctl.card_states() if c.enabled]
               + [(ctl.click_choice, c.key) for c in ctl.offered_choices()
                  if not c.key.startswith("off:") and c.key not in ("back", "clear")])
    fn, key = rng.choice(options)
    assert ctl.attempt(fn, key), ctl.message


def _play_out_one(links, rng):
    _sync(links)
    acting = [link for link in links if link.ctl.acting_human()]
    if acting:
        _click_something(acting[0].ctl, rng)
    _sync(links)


def test_two_moves_sent_at_once_for_one_turn_one_is_applied(tmp_path):
    """The same seat in two tabs (one browser): both play at the same moment."""
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "suns_to_moons", 2)
    tab1 = _page("suns_to_moons", db, code, "ana")[0]
    tab2 = _page("suns_to_moons", db, code, "ana")[0]  # a second tab: same seat back
    ben = _page("suns_to_moons", db, code, "ben")[0]
    assert tab1.seat == tab2.seat == 0 and ben.seat == 1
    tab1.start()
    _sync([tab1, tab2, ben])
    rng = random.Random(1)
    while not tab1.ctl.acting_human():  # Ben plays until it is Ana's turn
        _play_out_one([tab1, tab2, ben], rng)
    before = len(tab1.ctl.state.history)
    legal = list(tab1.ctl.state.legal_actions())
    moves = [legal[0], legal[-1]]
    barrier = threading.Barrier(2)
    done = []

    def go(link, action):
        barrier.wait()
        done.append(link.ctl.attempt(link.ctl.play, action))

    threads = [threading.Thread(target=go, args=(link, m))
               for link, m in zip((tab1, tab2), moves, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    stored = RoomStore(db).moves(code)
    assert len(stored) == before + 1, "exactly one move stored for the turn"
    assert sorted(done) == [False, True]
    _sync([tab1, tab2, ben])
    assert tab1.ctl.state.to_json() == tab2.ctl.state.to_json() == ben.ctl.state.to_json()
    assert len(tab1.ctl.state.history) == before + 1
    refused = [link for link in (tab1, tab2) if link.ctl.refused]
    assert len(refused) == 1 and "reached the room first" in refused[0].ctl.message


class Clock:
    """The rooms' time in a test: it moves only when the test says."""

    def __init__(self) -> None:
        self.now = time.time()  # near the files' other times (a sweep compares them)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.mark.parametrize("game, humans, bots, seed", [
    ("sums", 2, 0, 2), ("sums", 2, 1, 3), ("sums", 3, 1, 1), ("dice_stacks", 2, 1, 4)])
def test_pages_that_poll_at_any_moment_never_both_offer_a_turn(tmp_path, game, humans, bots,
                                                                 seed):
    """Each page polls at its own moments (moves arrive between polls), bots move on the
    timer of the first page still present, a page reloads or is gone for a while and
    comes back: every page's game is the room's first moves, and no two pages offer a
    move at the same moment. (Sums passes the turn to a threatened card's owner and
    back: the counters are in these games.)"""
    from mathcards.games.registry import make_game

    rng = random.Random(seed)
    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    settings = {"piles": 8} if game == "sums" else {}
    code = RoomStore(db, clock=clock).create(
        make_game(game, num_players=humans + bots, **settings), "p0", seeds=(seed, seed + 1))
    timers: list[tuple[list[RoomLink], object]] = []  # (page, bot move) as a kernel's loop holds

    def open_page(holder: str) -> RoomLink:
        page: list[RoomLink] = []
        ctl = TableController(_view(game), bot_delay=0.5, save=False, resume="never",
                              schedule=lambda _delay, fn: timers.append((page, fn)))
        page.append(RoomLink(ctl, RoomStore(db, clock=clock), code, holder))
        return page[0]

    pages = [open_page(f"p{i}") for i in range(humans)]
    if bots:
        pages[0].fill_with_bots("random")
    pages[0].start()
    store = RoomStore(db, clock=clock)
    counters = reloads = gone = 0
    for _step in range(6000):
        live = [p for p in pages if not p.closed]
        stored = [raw for _n, _seat, raw in store.moves(code)]
        for page in live:
            if page.playing:
                mine = [json.loads(json.dumps(encode_action(a))) for a in page.ctl.state.history]
                assert mine == stored[:len(mine)], "a page's game is not the room's"
        acting = [p for p in live if p.playing and p.ctl.acting_human()]
        assert len(acting) <= 1, "two pages offer a move at once"
        if live and all(p.playing and p.ctl.state.is_over for p in live) and \
                len(live) == len(pages):
            break
        counters += any(p.playing and getattr(p.ctl.state, "phase", "") == "counter"
                        for p in acting)
        clock.advance(rng.choice((0.05, 0.15, 0.6)))
        roll = rng.random()
        if roll < 0.4 and live:
            rng.choice(live).poll()
        elif roll < 0.55 and timers:
            page, move = timers.pop(rng.randrange(len(timers)))
            if not page[0].closed:  # a closed page's kernel is gone, and its timers
                move()
        elif roll < 0.57:
            i = rng.randrange(len(pages))
            if pages[i].closed or rng.random() < 0.5:  # a reload (or back after a while)
                pages[i].close()
                pages[i] = open_page(pages[i].holder)
                reloads += 1
            elif len(live) > 1:  # the tab is closed: the others see it gone after 15 s
                pages[i].close()
                clock.advance(20)
                gone += 1
        elif acting:
            _click_something(acting[0].ctl, rng)
    else:
        pytest.fail("the game did not end")
    assert len({p.ctl.state.to_json() for p in pages}) == 1
    assert reloads and gone, "no reload or no page gone a while: choose another seed"
    if game == "sums":
        assert counters, "no threatened card's owner had the turn: choose another seed"


def test_a_reload_gets_the_same_seat_and_hand_back(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 2)
    ana, ben = _page("sums", db, code, "ana")[0], _page("sums", db, code, "ben")[0]
    ana.start()
    rng = random.Random(3)
    for _ in range(6):
        _play_out_one([ana, ben], rng)
    hand = ben.ctl.hand()
    moves = len(ben.ctl.state.history)
    ben.close()  # the tab closes; the kernel is gone
    again = _page("sums", db, code, "ben")[0]  # the same browser opens the page again
    assert again.seat == 1 and again.playing
    assert again.ctl.hand() == hand and len(again.ctl.state.history) == moves
    # a classmate with the code but another browser cannot take a held seat
    with pytest.raises(RoomError, match="full"):
        _page("sums", db, code, "eve")


def test_a_classmate_who_leaves_for_good_is_replaced_by_a_bot(tmp_path):
    from mathcards.games.registry import make_game

    db = tmp_path / "rooms.sqlite3"
    code = RoomStore(db).create(make_game("dice_stacks", num_players=2), "ana",
                                replace_after=60.0)
    ana, ben = _page("dice_stacks", db, code, "ana")[0], _page("dice_stacks", db, code, "ben")[0]
    ana.start()
    _sync([ana, ben])
    store = RoomStore(db)
    seen = store.room(code).seats[1].seen
    assert not store.replace_gone(code, 1, now=seen + 30)  # not gone long enough
    assert store.replace_gone(code, 1, now=seen + 61)
    ben.close()
    ana.poll(force=True)
    assert ana.ctl.seats == ("human", "strong")
    _play_out([ana], random.Random(9))
    assert ana.ctl.state.is_over


def test_a_page_whose_seat_went_to_a_bot_stops_playing_it(tmp_path):
    """A page that stalled longer than the room's time (its kernel busy, no sign of life)
    comes back: its seat is a bot's now, so that page offers no move for it (else the
    bot and the page would both play the seat, and two screens show "your turn")."""
    from mathcards.games.registry import make_game

    db = tmp_path / "rooms.sqlite3"
    code = RoomStore(db).create(make_game("sums", num_players=2), "ana", replace_after=60.0)
    ana, ben = _page("sums", db, code, "ana")[0], _page("sums", db, code, "ben")[0]
    ana.start()
    _sync([ana, ben])
    rng = random.Random(1)
    while not ben.ctl.acting_human():
        _play_out_one([ana, ben], rng)
    store = RoomStore(db)
    seen = store.room(code).seats[1].seen
    assert store.replace_gone(code, 1, now=seen + 61)
    ben.poll(force=True)  # Ben's page wakes up
    assert ben.ctl.seats[1] == "strong" and not ben.ctl.acting_human()
    assert "a bot plays your seat" in ben.ctl.message
    assert ben.ctl.seat_names[1] == "Player 2 (bot)"
    assert not ben._runs_bots()  # Ana's page moves the bots
    moves = len(store.moves(code))
    _play_out([ana, ben], rng)  # Ana's page moves the bot for seat 2; Ben's never acts
    assert any(seat == 1 for _n, seat, _a in store.moves(code)[moves:])
    assert ana.ctl.state.to_json() == ben.ctl.state.to_json()


@pytest.mark.parametrize("text, ok", [("k7p2m", "K7P2M"), (" K7P 2M ", "K7P2M"),
                                      ("K7P2", None), ("K7P2I", None), (None, None),
                                      ("x" * 200, None), ("", None)])
def test_room_codes_are_read_or_refused_in_one_line(text, ok):
    if ok:
        assert normal_code(text) == ok
    else:
        with pytest.raises(RoomError) as info:
            normal_code(text)
        assert "\n" not in str(info.value) and len(str(info.value)) < 160


def test_a_wrong_code_and_a_full_room_say_what_to_do(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    with pytest.raises(RoomError, match="there is no room K7P2M"):
        RoomStore(db).join("K7P2M", "ana")
    code = _make_room(db, "sums", 2)
    RoomStore(db).join(code, "ana")
    RoomStore(db).join(code, "ben")
    with pytest.raises(RoomError, match="full"):
        RoomStore(db).join(code, "cy")
    with pytest.raises(RoomError, match=r"still open|only the player"):
        RoomStore(db).start(code, "ben")


def _codes_of_no_room(count: int, room: str) -> list[str]:
    codes = ("".join(random.Random(i).choices(CODE_LETTERS, k=5)) for i in range(count + 1))
    return [c for c in codes if c != room][:count]


def test_wrong_room_codes_are_limited_per_visitor_who_is_told_to_wait(tmp_path):
    """Guessing codes to get into a stranger's room: a visitor who typed WRONG_CODES codes
    of no room within WRONG_CODES_WINDOW seconds waits; others and the visitor's own seats
    are not held up, and after the wait the right code works."""
    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)
    code = _make_room(db, "sums", 3)
    store.join(code, "ana")
    wrong = _codes_of_no_room(WRONG_CODES, code)
    for guess in ["ZZZZ", "K7P2I"] * 3:  # not room codes at all: not counted
        with pytest.raises(RoomError, match="not a room code"):
            store.join(guess, "eve")
    first = clock()
    for guess in wrong:
        with pytest.raises(RoomError, match="there is no room"):
            store.join(guess, "eve")
        clock.advance(5)
    # the next try is refused, even with the right code, and says how long to wait
    with pytest.raises(RoomError) as info:
        RoomStore(db, clock=clock).join(code, "eve")  # another page of Eve's browser too
    wait = round(first + WRONG_CODES_WINDOW - clock())
    assert str(info.value) == (f"too many wrong room codes: wait {wait} seconds, then type "
                               "the code again")
    assert store.room(code).open_seats == 2  # Eve took no seat
    with pytest.raises(RoomError, match="too many wrong room codes"):
        store.join(wrong[0], "eve")  # a code of no room: the same answer
    assert store.join(code, "ben") == 1  # a classmate with the right code is not held up
    for guess in wrong:  # Ana typed wrong codes too, then reloads her page
        with pytest.raises(RoomError, match="there is no room"):
            store.join(guess, "ana")
    assert store.join(code, "ana") == 0  # her own seat is never held up
    clock.advance(wait - 1)
    with pytest.raises(RoomError, match="wait 1 second, then"):
        store.join(code, "eve")
    clock.advance(1)  # the wait is over
    assert store.join(code, "eve") == 2


def test_the_panel_says_in_one_line_to_wait_after_many_wrong_codes(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    from mathcards.widgets import play

    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 2)
    page = play("sums", query="student=Eve&delay=0", save=False)
    page.rooms._holder = lambda: "token-eve"
    page.rooms._store = lambda: RoomStore(db, clock=clock)
    for guess in _codes_of_no_room(WRONG_CODES, code):
        page.rooms.w_code.value = guess
        assert page.refused and "there is no room" in page.message
        assert page.rooms.link is None
    page.rooms.w_code.value = code  # typed right, too late
    assert page.refused and page.rooms.link is None
    assert "\n" not in page.message and len(page.message) < 100
    assert "too many wrong room codes: wait 120 seconds" in page.message
    assert page.rooms.w_code.value == code  # kept in the box for the student
    clock.advance(WRONG_CODES_WINDOW)  # the student waits, then clicks Join room
    page.rooms.w_join.click()
    assert page.rooms.link is not None and page.rooms.link.seat == 0 and not page.refused
    page.rooms.link.close()


DAY = 86400.0


def test_finished_and_long_idle_rooms_are_swept_and_rooms_in_play_are_kept(tmp_path):
    """One real rooms file along a week of a test clock; the sweep at the end keeps every
    room a page still shows or that moved within KEEP_FOR (a week) and deletes the rest."""
    from mathcards.games.registry import make_game

    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)  # the first store of this file: swept (nothing) now
    t0 = clock()
    end = t0 + KEEP_FOR + 60

    def room_with_a_page(name: str) -> RoomLink:  # a student and a bot, started
        code = store.create(make_game("sums", num_players=2), name, seats=("open", "random"))
        ctl = TableController(_view("sums"), bot_delay=0, save=False, resume="never")
        page = RoomLink(ctl, RoomStore(db, clock=clock), code, name)
        page.start()
        return page

    teachers_old = store.create(make_game("sums", num_players=2), None)  # nobody ever came
    idle = room_with_a_page("ida")  # played at t0, then the tab closed for good
    resumed, alive, finished, watched = (room_with_a_page(n) for n in ("cy", "al", "fi", "wa"))
    clock.advance(DAY)
    teachers_new = store.create(make_game("sums", num_players=2), None)  # for next week
    clock.advance(60)
    resumed.poll()  # Cy's page, a day later: a sign of life, then the tab closed
    clock.now = end - 3660
    for page in (finished, watched):  # played to the end an hour and a minute ago
        _play_out([page], random.Random(1))
        assert page.ctl.state.is_over
    clock.now = end - 60
    _play_out_one([alive], random.Random(2))  # still playing: a move a minute ago
    clock.now = end - 1
    watched.poll()  # the game is over but a page still shows it
    assert not alive.ctl.state.is_over
    gone = store.sweep()
    assert sorted(gone) == sorted([teachers_old, idle.code, finished.code])
    kept = [c for (c,) in store._read("SELECT code FROM rooms")]
    assert sorted(kept) == sorted([teachers_new, resumed.code, alive.code, watched.code])
    for table in ("moves", "seats"):  # nothing of a swept room stays in the file
        codes = {c for (c,) in store._read(f"SELECT DISTINCT code FROM {table}")}
        assert not codes & set(gone)
    assert store.moves(alive.code) and store.room(alive.code).started
    _play_out([alive], random.Random(3))  # the room in play goes on
    assert alive.ctl.state.is_over


def test_the_file_is_swept_by_whoever_opens_it_at_most_once_an_hour(tmp_path, monkeypatch):
    from mathcards.games.registry import make_game

    monkeypatch.setenv("MATHCARDS_ROOMS_KEEP_DAYS", "2")
    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)
    assert store.keep_for == 2 * DAY
    swept_at = clock()

    def made_days_ago(days: float) -> str:  # a room nobody touched since
        now = clock.now
        clock.now -= days * DAY
        code = store.create(make_game("dice_stacks", num_players=2), None)
        clock.now = now
        return code

    def left() -> set[str]:
        return {c for (c,) in RoomStore(db, clock=clock)._read("SELECT code FROM rooms")}

    old, young = made_days_ago(2.1), made_days_ago(1.9)
    clock.now = swept_at + 1800
    assert {old, young} <= left()  # half an hour after this process's sweep: none
    clock.now = swept_at + 3601
    assert left() == {young}  # an hour after: a page opening the file sweeps it
    older = made_days_ago(3)
    clock.advance(1800)
    assert older in left()
    monkeypatch.setenv("MATHCARDS_ROOMS_KEEP_DAYS", "soon")  # not a number: a week
    assert RoomStore(db, clock=clock).keep_for == KEEP_FOR


def test_the_page_panel_makes_a_room_others_join_and_the_host_starts(tmp_path, monkeypatch):
    """The "Play with classmates" panel of two play pages, by its buttons."""
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    from mathcards.widgets import play

    ana = play("sums", query="student=Ana&delay=0", save=False)
    ben = play("sums", query="student=Ben&delay=0", save=False)
    ana.rooms._holder = lambda: "token-ana"  # two browsers (a page's kernel learns its own)
    ben.rooms._holder = lambda: "token-ben"
    ana.rooms.w_make.click()
    code = ana.rooms.link.code
    assert code in ana.rooms.w_line.value and not ana.refused
    assert ana.rooms.w_start.layout.display == ""
    ben.rooms.w_code.value = code.lower()  # typed, as a classmate reads it out
    assert ben.rooms.link is not None and ben.rooms.link.seat == 1
    assert ben.rooms.w_start.layout.display == "none"  # only the host starts
    ana.rooms.link.poll()
    assert "Ben" in ana.rooms.w_line.value
    ana.rooms.w_start.click()
    ben.rooms.link.poll()
    assert ana.ctl.room_code == ben.ctl.room_code == code
    assert ana.seat_names == ("Ana (you)", "Ben") and ben.seat_names == ("Ana", "Ben (you)")
    header = ana.w_header.value
    assert f'data-room="{code}"' in header and "data-deal" not in header
    # neither page ever shows the room's secret deal
    room = RoomStore(tmp_path / "rooms.sqlite3").room(code)
    for table in (ana, ben):
        text = repr(table.hidden_widget_states())
        assert str(room.seed) not in text and str(room.private_seed) not in text
    # a bad code in the box: one line, nothing changes
    cy = play("sums", query="student=Cy&delay=0", save=False)
    cy.rooms._holder = lambda: "token-cy"
    cy.rooms.w_code.value = "ZZZZ"
    assert cy.refused and "not a room code" in cy.message and cy.rooms.link is None
    cy.rooms.w_code.value = code
    assert cy.refused and "full" in cy.message and cy.rooms.link is None
    # leaving: back to a game of one's own, with a deal code again
    ben.rooms.w_leave.click()
    assert ben.rooms.link is None and not ben.ctl.room_code and ben.deal_code
    for page in (ana, ben, cy):
        if page.rooms.link is not None:
            page.rooms.link.close()


def test_a_reopened_page_goes_back_to_its_room_by_itself(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    from mathcards import visitors
    from mathcards.widgets import play

    store = RoomStore(tmp_path / "rooms.sqlite3")
    code = _make_room(tmp_path / "rooms.sqlite3", "sums", 2, host=visitors.page_visitor(0))
    assert store.held_room(visitors.page_visitor(0), "sums") is None  # not started yet
    store.join(code, visitors.page_visitor(0))
    store.join(code, "token-ben")
    store.start(code, visitors.page_visitor(0))
    page = play("sums", query="student=Ana&delay=0", save=False)  # this kernel's token
    assert page.rooms.link is not None and page.ctl.room_code == code
    assert "Welcome back to room" in page.message
    other = play("dice_stacks", query="student=Ana&delay=0", save=False)
    assert other.rooms.link is None  # a room of another game is not this page's
    page.rooms.link.close()


def test_a_teacher_makes_room_codes_for_a_tournament(tmp_path, monkeypatch, capsys):
    from mathcards.__main__ import main

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    assert main(["rooms", "sums", "2", "3", "--url", "http://class:8866/",
                 "--leave-after", "90"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    store = RoomStore(tmp_path / "rooms.sqlite3")
    for line in lines:
        code, link = line.split()
        assert link == f"http://class:8866/voila/render/play_sums.ipynb?room={code}"
        room = store.room(code)
        assert room.host is None and room.replace_after == 90 and room.open_seats == 2
    # the first student in a teacher's room may start it
    first = lines[0].split()[0]
    store.join(first, "token-ana")
    store.join(first, "token-ben")
    store.start(first, "token-ana")
    assert store.room(first).started
    for bad in (["rooms", "chess", "2", "3"], ["rooms", "sums", "2"],
                ["rooms", "sums", "2", "3", "--leave-after", "1"]):
        assert main(bad) == 2
        assert "rooms takes a game" in capsys.readouterr().err
    assert main(["rooms", "sums", "9", "1"]) == 1  # Sums is for 2-4 players
    assert "cannot make the rooms" in capsys.readouterr().err


def test_the_rooms_file_can_be_a_shared_place(tmp_path, monkeypatch):
    """On a JupyterHub each student's server has its own data folder: MATHCARDS_ROOMS
    names the one file the class shares."""
    shared = tmp_path / "class" / "rooms.sqlite3"
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "ana-home"))
    monkeypatch.setenv("MATHCARDS_ROOMS", str(shared))
    code = _make_room(None, "sums", 2)
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "ben-home"))
    assert RoomStore().join(code, "token-ben") == 0
    assert shared.exists() and not (tmp_path / "ana-home" / "rooms.sqlite3").exists()


def test_the_hosts_turn_timer_plays_a_bots_move_for_a_player_out_of_time(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 2)
    ana, ben = _page("sums", db, code, "ana")[0], _page("sums", db, code, "ben")[0]
    store = RoomStore(db)
    with pytest.raises(RoomError, match="only the player who made"):
        store.set_turn_timer(code, "ben", 30)
    with pytest.raises(RoomError, match="10 to 600 seconds"):
        store.set_turn_timer(code, "ana", 5)
    store.set_turn_timer(code, "ana", 30)
    ana.start()
    _sync([ana, ben])
    assert ana.room.turn_seconds == 30 and ana._runs_bots()
    began = store.room(code).started_at
    p = ana.ctl.state.current_player
    assert not ana.check_timer(began + 20)  # still in time
    assert ana.check_timer(began + 31)  # out of time: a move is played for seat p
    _sync([ana, ben])
    assert len(ana.ctl.state.history) == len(ben.ctl.state.history) == 1
    assert store.moves(code)[0][1] == p
    assert "a bot played for them" in ana.ctl.message
    assert not ben.check_timer(began + 999)  # only the page that moves the bots keeps time


def test_the_turn_timer_is_chosen_from_the_panels_list(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    from mathcards.widgets import play

    page = play("sums", query="student=Ana&delay=0", save=False)
    page.rooms._holder = lambda: "token-ana"
    page.rooms.w_make.click()
    page.rooms.w_timer.value = 60
    assert page.rooms.link.room.turn_seconds == 60
    with pytest.raises(RoomError):  # what a tampered page could send
        page.rooms.set_timer(7)
    assert RoomStore(tmp_path / "rooms.sqlite3").room(page.rooms.link.code).turn_seconds == 60
    page.rooms._try(page.rooms.set_timer, 7)
    assert page.refused and "from the list" in page.message
    page.rooms.link.close()


def test_a_damaged_rooms_file_is_one_line_and_the_table_still_plays(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    (tmp_path / "rooms.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(RoomError, match=r"rooms file rooms\.sqlite3 cannot be used") as info:
        RoomStore()
    assert "\n" not in str(info.value) and str(tmp_path) not in str(info.value)
    from mathcards.widgets import play

    page = play("sums", query="student=Ana&delay=0", save=False)
    assert page.refused and "rooms file" in page.message and str(tmp_path) not in page.message
    before = page.state
    page.rooms.w_make.click()  # refused in one line; the table is as it was
    assert page.refused and "rooms file" in page.message and page.rooms.link is None
    assert page.state is before
    assert (tmp_path / "rooms.sqlite3").read_bytes().startswith(b"this is not")  # kept


def test_an_unexpected_error_while_polling_is_said_and_polling_goes_on(tmp_path, caplog):
    """Not only a database error: any failure of one poll (a bug) is logged, said in one
    line, and the page keeps polling, so a classmate's moves still arrive after it."""
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 2)
    ana, ben = (_page("sums", db, code, name)[0] for name in ("ana", "ben"))
    _sync([ana, ben])
    ana.start()
    _sync([ana, ben])
    queued: list = []
    ben.start_polling(lambda _delay, fn: queued.append(fn))
    real_poll, failures = ben.poll, [RuntimeError("a bug")]

    def poll_once_broken(**kwargs):
        if failures:
            raise failures.pop()
        return real_poll(**kwargs)

    ben.poll = poll_once_broken  # one poll fails as a bug would
    queued.pop()()
    assert ben.ctl.refused and "The room could not be read" in ben.ctl.message
    assert "\n" not in ben.ctl.message and "RuntimeError" not in ben.ctl.message
    assert "room " + code in caplog.text and "a bug" in caplog.text
    assert len(queued) == 1  # the next poll is scheduled
    mover = ana.ctl
    action = next(iter(mover.state.legal_actions()))
    mover.play(action)
    queued.pop()()  # the next poll brings Ana's move
    assert ben.ctl.state.to_json() == mover.state.to_json()


@pytest.mark.parametrize("game, players", [*((g, 2) for g in GAMES), *TRICKS])
def test_a_room_and_a_table_agree_on_which_games_deal_hidden_cards_privately(
        tmp_path, game, players):
    """A room keeps a private seed, and a fresh table shows its deal code, for the same
    games: those with private deals (the trick games' seed decides every card)."""
    from mathcards.games.registry import make_game
    from mathcards.saves import has_private_deal

    made = make_game(game, num_players=players)
    room = RoomStore(tmp_path / "rooms.sqlite3").room(_make_room(tmp_path / "rooms.sqlite3",
                                                                 game, players))
    ctl = TableController(_view(game), made, seats=("human",) + ("random",) * (players - 1),
                          bot_delay=0, save=False, resume="never")
    private = has_private_deal(made)
    assert private == (game in GAMES)
    assert (room.private_seed != 0) == (ctl.deal_code != "") == private


# --- issue 26: a room stores only its own seats' legal moves (items 1 and 2) -------------
def _started(db, game: str, players: int, names=("ana", "bo"), **kwargs):
    code = _make_room(db, game, players, **kwargs)
    links = [_page(game, db, code, name)[0] for name in names]
    if len(names) < players:
        links[0].fill_with_bots("strong")
    links[0].start()
    _sync(links)
    return code, links


def test_the_room_stores_only_the_next_legal_move_of_the_senders_own_seat(tmp_path):
    """RoomStore.append checks a move against the room's own game replayed from its deal,
    whatever the sender's page holds: another seat's move, an illegal one, a move number
    ahead are refused in one line; nothing stored."""
    db = tmp_path / "rooms.sqlite3"
    code, _links = _started(db, "sums", 2)
    store = RoomStore(db)
    state = store.room_state(code)
    legal = state.legal_actions()[0]
    with pytest.raises(RoomError, match=f"it is not your seat's turn in room {code}: only "
                                        "seat 1's player moves now"):
        store.append(code, 1, legal, by="bo")
    from mathcards.games.sums import Play

    other = Play(state.hands[1][0])  # Bo's card, sent as Ana's move
    assert not state.is_legal(other)
    from mathcards.explain import refusal_words

    with pytest.raises(RoomError) as refused:  # the rule's words, as the table says them
        store.append(code, 1, other, by="ana")
    assert str(refused.value) == (f"that move is not allowed now in room {code}: "
                                  f"{refusal_words(state, other)}")
    assert refusal_words(state, other)
    with pytest.raises(RoomError, match="not the next move"):
        store.append(code, 3, legal, by="ana")
    assert store.moves(code) == []
    assert store.append(code, 1, legal, by="ana")
    assert not store.append(code, 1, legal, by="ana")  # another page was first: False
    assert [(n, seat) for n, seat, _ in store.moves(code)] == [(1, 0)]


def test_only_the_page_that_moves_the_bots_stores_a_bots_move(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    code, (ana, bo) = _started(db, "sums", 3)
    store = RoomStore(db)
    while store.room_state(code).current_player != 2:  # the two people play to the bot
        link = ana if store.room_state(code).current_player == 0 else bo
        _sync([ana, bo])
        assert link.ctl.attempt(link.ctl.play, link.ctl.state.legal_actions()[0])
    n = len(store.room_state(code).history) + 1
    bot_move = store.room_state(code).legal_actions()[0]
    with pytest.raises(RoomError, match="not your seat's turn"):
        store.append(code, n, bot_move, by="bo")  # Ana's page is here: hers moves the bots
    assert store.append(code, n, bot_move, by="ana")


def test_a_room_table_refuses_new_games_deals_and_saved_games_and_stays_as_it_was(tmp_path):
    """The New game panel is only hidden on a room's page: its clicks still reach the
    controller, which refuses them (item 1); a saved solo game is never resumed over the
    room (item 2)."""
    db = tmp_path / "rooms.sqlite3"
    code, (_ana, bo) = _started(db, "sums", 2)
    ctl = bo.ctl
    before = (ctl.state.to_json(), ctl.seats, ctl.viewer)
    ctl.new_game_from_setup(2, ["human", "human"])
    assert ctl.refused and "this table plays a room's game" in ctl.message
    ctl.deal("SUMS-2P-P8-0005J", ["human", "human"])
    assert ctl.refused and "leave the room first" in ctl.message
    with pytest.raises(Refused, match="room's game"):
        ctl.new_game()
    ctl.ready()
    ctl.accept_offer()
    assert (ctl.state.to_json(), ctl.seats, ctl.viewer) == before
    with pytest.raises(RoomError, match="not your seat's turn"):  # the room, whatever the page
        RoomStore(db).append(code, 1, ctl.state.legal_actions()[0], by="bo")
    assert RoomStore(db).moves(code) == []


def test_a_move_of_another_game_is_never_published_into_the_room(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    code, (ana, _bo) = _started(db, "sums", 2)
    solo = ana.ctl.state.game.new_game(11)
    with pytest.raises(RoomError, match=r"not room .*'s: reload"):
        ana._publish(solo, solo.legal_actions()[0])
    assert RoomStore(db).moves(code) == []


def test_a_saved_solo_game_is_withdrawn_when_the_table_joins_a_room(tmp_path, monkeypatch):
    """Item 2: a student with a saved solo game joins a room; the offer goes when the room
    starts, accepting it is refused, and the room's moves go on from the room's game."""
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    solo = TableController(_view("sums"), bot_delay=0, save=True, resume="never")
    for _ in range(8):  # a solo game of 8 moves or so, saved
        if solo.acting_human():
            solo.play(solo.state.legal_actions()[0])
    assert len(solo.state.history) >= 3
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 2)
    ana = RoomLink(TableController(_view("sums"), bot_delay=0, save=False, resume="never"),
                   RoomStore(db), code, "ana")
    ctl = TableController(_view("sums"), bot_delay=0, save=True)  # offers the saved game
    assert ctl.saved_offer is not None
    bo = RoomLink(ctl, RoomStore(db), code, "bo")
    ana.start()
    _sync([ana, bo])
    assert ctl.saved_offer is None and ctl.room_code == code
    ctl.accept_offer()
    assert ctl.refused and len(ctl.state.history) == 0
    ana.ctl.play(ana.ctl.state.legal_actions()[0])
    _sync([ana, bo])
    assert [n for n, _s, _a in RoomStore(db).moves(code)] == [1]
    assert bo.ctl.state.to_json() == ana.ctl.state.to_json() and not bo.ctl.refused


def test_a_stored_illegal_move_is_set_aside_with_a_note_naming_no_hand(tmp_path):
    """A rooms file from before moves were checked: an illegal move (a card the player does
    not hold) and a move after it are set aside; every page says so once, shows nobody's
    hand and plays on."""
    db = tmp_path / "rooms.sqlite3"
    code, links = _started(db, "shoot_the_moon", 3)  # Ana, Bo and a bot
    store = RoomStore(db)
    state = store.room_state(code)
    p = state.current_player
    other_hand = state.hands[(p + 1) % 3]
    with sqlite3.connect(db) as raw:  # stored as the old file stored any action
        for n, card in ((1, other_hand[0]), (2, other_hand[1])):
            raw.execute("INSERT INTO moves VALUES (?,?,?,?,?)",
                        (code, n, p, json.dumps({"type": "play", "card": str(card)}),
                         time.time()))
    fresh = _page("shoot_the_moon", db, code, "bo")[0]  # a reload: the room is read anew
    links[1].close()  # the reloaded page is gone
    links = [links[0], fresh]
    _sync(links)
    hidden = {c.symbol for c in other_hand}
    for link in links:
        assert "could not be read" not in link.ctl.message
        assert not any(sym in link.ctl.message for sym in hidden), link.ctl.message
    notes = [link.ctl.message for link in links if "set aside" in link.ctl.message]
    assert notes and "Move 1 stored in room" in notes[0]
    assert RoomStore(db).moves(code) == []
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT n FROM set_aside WHERE code=?", (code,)).fetchall() == [
            (1,), (2,)]
    _play_out(links, random.Random(3))


# --- issue 26 item 6: wrong codes per address ---------------------------------------------
def test_wrong_codes_count_per_address_with_room_for_a_class(tmp_path):
    """A script that drops its cookie is a new visitor at every page: its wrong codes count
    per address too, where a class behind one school address gets a larger allowance."""
    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)
    code = _make_room(db, "sums", 3)
    assert store.join(code, "student0", address="school") == 0
    wrong = _codes_of_no_room(WRONG_CODES_PER_ADDRESS, code)
    for i, guess in enumerate(wrong):  # 30 visitors behind the school's address, one slip each
        with pytest.raises(RoomError, match="there is no room"):
            store.join(guess, f"student{i}", address="school")
    with pytest.raises(RoomError, match="too many wrong room codes: wait"):
        store.join(code, "newcomer", address="school")  # the 31st guess from there waits
    assert store.join(code, "elsewhere", address="home") == 1  # another address does not
    assert store.join(code, "student0", address="school") == 0  # nor a seat's holder, back
    clock.advance(WRONG_CODES_WINDOW)
    assert store.join(code, "newcomer", address="school") == 2


# --- issue 26 item 7: rooms per visitor, the seat-holder index, the sweep in batches -----
def test_a_visitor_making_rooms_again_and_again_keeps_one_waiting_room(tmp_path):
    from mathcards.games.registry import make_game

    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)
    game = make_game("sums", num_players=2)
    first = store.create(game, "eve", address="home")
    for _ in range(5):  # "Make a room", "Leave", again: each replaces the last
        latest = store.create(game, "eve", address="home")
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT code FROM rooms").fetchall() == [(latest,)]
    with pytest.raises(RoomError, match="there is no room"):
        store.room(first)
    joined = store.create(game, "ana", address="home")
    store.join(joined, "bo")  # a classmate joined Ana's room: kept when she makes another
    store.create(game, "ana", address="home")
    assert store.room(joined).seat_of("bo") == 0


def test_rooms_made_per_hour_are_limited_per_visitor_and_per_address(tmp_path):
    from mathcards.games.registry import make_game

    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)
    game = make_game("sums", num_players=2)
    for _ in range(ROOMS_PER_VISITOR):  # rooms started (with bots): none is replaced
        code = store.create(game, "eve")
        store.fill_with_bots(code, "eve")
        store.start(code, "eve")
    with pytest.raises(RoomError, match=f"you have made {ROOMS_PER_VISITOR} rooms in the "
                                        "last hour"):
        store.create(game, "eve")
    for i in range(ROOMS_PER_ADDRESS):  # a script without its cookie: a visitor a room
        store.create(game, f"script{i}", address="there")
    with pytest.raises(RoomError, match="too many rooms in the last hour"):
        store.create(game, "script-next", address="there")
    store.create(game, "classmate", address="school")  # another address: no wait
    assert store.create(game, None)  # a teacher's rooms (python -m mathcards rooms): none
    clock.advance(3600)
    store.create(game, "eve")


def test_the_seat_holder_lookup_uses_an_index_and_the_sweep_deletes_in_batches(tmp_path):
    from mathcards.games.registry import make_game
    from mathcards.rooms import SWEEP_BATCH

    clock = Clock()
    db = tmp_path / "rooms.sqlite3"
    store = RoomStore(db, clock=clock)
    game = make_game("sums", num_players=2)
    made = [store.create(game, None) for _ in range(2 * SWEEP_BATCH + 5)]
    with sqlite3.connect(db) as raw:
        plan = " ".join(str(row) for row in raw.execute(
            "EXPLAIN QUERY PLAN SELECT rooms.code FROM rooms JOIN seats ON seats.code = "
            "rooms.code WHERE seats.holder=? AND rooms.game=?", ("ana", "sums")))
    assert "seats_by_holder" in plan
    batches = []
    real = storage.write_transaction

    def counted(db_, lock):
        batches.append(1)
        return real(db_, lock)

    clock.advance(KEEP_FOR + 1)
    kept = store.create(game, None)  # made now: kept
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(storage, "write_transaction", counted)
        swept = store.sweep()
    assert sorted(swept) == sorted(made)
    assert len(batches) >= 3  # a write per batch (and one for the wrong codes)
    assert store.room(kept).code == kept


def test_the_server_tells_a_pages_kernel_its_visitor_and_a_token_of_its_address(
        tmp_path, monkeypatch):
    """What widgets/server.py records per kernel: the visitor's token, then a token of the
    request's client address (never the address itself); a file without it reads as before."""
    from mathcards import visitors

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path))
    kernel = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
    monkeypatch.setattr(visitors, "this_kernel_id", lambda: kernel)
    visitors.record(kernel, "voila:ana", "10.1.2.3")
    assert "10.1.2.3" not in (tmp_path / visitors.VISITORS / kernel).read_text()
    assert visitors.page_visitor(0) == visitors.token_for("voila:ana")
    assert visitors.page_address() == visitors.token_for("address:10.1.2.3")
    visitors.record(kernel, "voila:bo")  # no address known (an older server)
    assert visitors.page_visitor(0) == visitors.token_for("voila:bo")
    assert visitors.page_address() is None


def test_a_page_late_to_set_a_move_aside_never_removes_the_legal_move_stored_since(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    code, (ana, _bo) = _started(db, "sums", 2)
    bad = {"type": "draw", "pile": 99}
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO moves VALUES (?,?,?,?,?)",
                    (code, 1, 0, json.dumps(bad), time.time()))
    late = RoomStore(db)  # read the bad move too, and is slow to act on it
    assert len(RoomStore(db).room_state(code).history) == 0  # another page set it aside
    ana.poll(force=True)
    assert ana.ctl.attempt(ana.ctl.play, ana.ctl.state.legal_actions()[0])
    late._set_aside(code, 1, bad, None)
    assert [n for n, _s, _a in late.moves(code)] == [1]
    assert len(late.room_state(code).history) == 1


def test_a_page_polls_often_only_while_another_screens_move_is_awaited(tmp_path):
    """The time a classmate's move takes to reach this screen is mostly the wait for this
    page's next poll: a page polls every ``waiting_interval`` seconds while the room's game
    waits for another page's move (a classmate's, or a bot's another page moves), and every
    ``interval`` seconds in the lobby, on its own turn and at the game's end."""
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 3)
    bot_moves: list = []  # ana's page moves the bots: held here until the test lets one go
    ana = RoomLink(TableController(_view("sums"), bot_delay=1, save=False, resume="never",
                                   schedule=lambda _delay, fn: bot_moves.append(fn)),
                   RoomStore(db), code, "ana")
    ben = _page("sums", db, code, "ben")[0]
    waits: dict[str, list[float]] = {"ana": [], "ben": []}
    queued: dict[str, list] = {"ana": [], "ben": []}
    for name, link in (("ana", ana), ("ben", ben)):
        link.start_polling(lambda delay, fn, name=name: (waits[name].append(delay),
                                                          queued[name].append(fn)))
    assert (ana.interval, ana.waiting_interval) == (0.15, 0.05)

    def tick(name):
        queued[name].pop()()
        return waits[name][-1]

    assert tick("ana") == tick("ben") == 0.15  # the lobby
    ana.fill_with_bots("strong")
    ana.start()
    _sync([ana, ben])
    seen = set()
    while not ana.ctl.state.is_over:  # a whole game: who waits for whom, move by move
        p = ana.ctl.state.current_player
        assert ben.ctl.state.current_player == p
        expected = {"ana": 0.15 if p in (0, 2) else 0.05,  # ana's page moves the bot (seat 3)
                    "ben": 0.15 if p == 1 else 0.05}
        assert (tick("ana"), tick("ben")) == (expected["ana"], expected["ben"]), p
        seen.add(p)
        if p == 2:
            bot_moves.pop()()
        else:
            link = (ana, ben)[p]
            assert link.ctl.attempt(link.ctl.play, next(iter(link.ctl.state.legal_actions())))
        _sync([ana, ben])
    assert seen == {0, 1, 2}
    assert tick("ana") == tick("ben") == 0.15  # the game is over: nothing to wait for
    ana.close()
    queued["ana"].pop()()  # a closed page schedules nothing more
    assert queued["ana"] == []


@pytest.mark.parametrize("lang", ["es", "qps"])
def test_a_room_s_lines_and_refusals_are_in_the_page_s_language(tmp_path, lang):
    """Issue 41 item 1: the lobby's line and what a room refuses (a real rooms file), with
    no English word left but names, codes, game titles and bot kinds."""
    import re

    from mathcards.i18n import using

    db = tmp_path / "rooms.sqlite3"

    def said() -> list[str]:
        code = _make_room(db, "suns_to_moons", 3)
        host, _t = _page("suns_to_moons", db, code, "ana")
        ben, _t = _page("suns_to_moons", db, code, "ben")
        store = RoomStore(db)
        out = [host.lobby_line(), ben.lobby_line()]
        for bad in (lambda: normal_code(""), lambda: normal_code("12"),
                    lambda: store.join("KKKKKK", "cat"), lambda: store.start(code, "ben"),
                    lambda: store.start(code, "ana"), lambda: store.fill_with_bots(code, "ana",
                                                                                "clever")):
            with pytest.raises(RoomError) as raised:
                bad()
            out.append(str(raised.value))
        store.fill_with_bots(code, "ana")
        out.append(host.lobby_line())
        store.start(code, "ana")
        out.append(host.lobby_line())
        return out

    english = said()
    with using(lang):
        shown = said()
    assert any("You are seat" in e for e in english)
    kept = r"'[^']*'|\b[A-Z0-9]{5,6}\b|K7P2M|\b\d+\b|Suns to Moons|\b(strong|random|easy|bots?)\b"
    for en, text in zip(english, shown, strict=True):
        plain = re.sub(kept, "", text)
        if lang == "qps":
            assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, text)
        else:
            assert not re.search(r"\b(room|seats?|classmates?|game|the|code|only|open|"
                                 r"waiting|start|type|there|is|are)\b", plain, re.I), (en, text)


@pytest.mark.parametrize("lang", ["es", "qps"])
def test_the_play_page_s_rooms_panel_is_in_the_page_s_language(tmp_path, lang):
    """Issue 41 item 1: the "Play with classmates" panel of a real play table over a real
    rooms file: its buttons, boxes, timer choices, lines and what it says, in the page's
    language; no English word left but names, codes, game titles and bot kinds."""
    import re

    from mathcards.i18n import using
    from mathcards.widgets.rooms import RoomPanel
    from mathcards.widgets.table import GameTable

    db = tmp_path / "rooms.sqlite3"

    def said() -> list[str]:
        table = GameTable(_view("suns_to_moons"), bot_delay=0, save=False, resume="never")
        panel = RoomPanel(table, name="Ana", holder=lambda: "ana",
                          store=lambda: RoomStore(db))
        out = [panel.w_title.value, panel.w_make.description, panel.w_make.tooltip,
               panel.w_code.placeholder, panel.w_code.description, panel.w_join.description,
               panel.w_line.value]
        panel._try(panel.fill_with_bots)
        out.append(table.ctl.message)
        panel._try(panel.make)
        out += [table.ctl.message, panel.w_line.value, panel.w_bots.description,
                panel.w_start.description, panel.w_leave.description,
                panel.w_timer.description, *(label for label, _v in panel.w_timer.options)]
        panel._try(panel.set_timer, 7)
        out.append(table.ctl.message)
        panel._try(panel.make)
        out.append(table.ctl.message)
        panel._try(panel.fill_with_bots)
        panel._try(panel.start)
        out.append(table.ctl.message)
        panel._try(panel.leave)
        out.append(table.ctl.message)
        for link in [panel.link]:
            if link is not None:
                link.close()
        return out

    english = said()
    with using(lang):
        shown = said()
    assert "Play with classmates" in english[0] and "You left room" in english[-1]
    kept = (r"<[^>]+>|'[^']*'|\b[A-Z0-9]{5,6}\b|\b\d+\b|Suns to Moons|Ana|\bmin\b|\bs\b|"
            r"\b(strong|random|easy|bots?)\b")
    for en, text in zip(english, shown, strict=True):
        plain = re.sub(kept, "", text)
        if lang == "qps":
            assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, text)
        else:
            assert not re.search(r"\b(room|seats?|classmates?|game|the|code|open|join|"
                                 r"make|leave|start|timer|turn|none|left|first)\b", plain,
                                 re.I), (en, text)
