"""The MathCards service of a hub (issue 26 item 9): it acts for the caller's login only.

The service's methods run here on real SQLite files, with every request and answer
through JSON as on the wire; tests/hub/ runs it under a real JupyterHub, reached with
the students' server tokens.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sqlite3

import pytest

from mathcards.exercises.progress import Attempt
from mathcards.games.base import encode_action
from mathcards.games.registry import make_game
from mathcards.hub import (
    HubAssignmentStore,
    HubProgressStore,
    HubRoomStore,
    Service,
    ServiceError,
)
from mathcards.rooms import RoomError, RoomLink
from mathcards.table import TableController
from tests.test_table_controller import _view


@pytest.fixture
def service(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "service"))
    monkeypatch.delenv("MATHCARDS_SECRET", raising=False)
    monkeypatch.delenv("MATHCARDS_ROOMS", raising=False)
    made = Service(tmp_path / "class")
    yield made
    made.close()


def as_(service: Service, login: str, teacher: bool = False):
    """A page's transport to the service, as ``login`` (in the hub's teachers' group when
    ``teacher``): JSON there and back."""
    def transport(method: str, **args):
        answer = service.handle(login, method, json.loads(json.dumps(args)), teacher=teacher)
        return json.loads(json.dumps(answer))
    return transport


def _page(service, login, code=None, game="sums"):
    store = HubRoomStore(transport=as_(service, login))
    if code is None:
        code = store.create(make_game(game, num_players=2), "me")
    ctl = TableController(_view(game), bot_delay=0, save=False, resume="never")
    holder = service.handle(login, "whoami", {})["holder"]
    return RoomLink(ctl, store, code, holder, name=login), code


def _started_room(service):
    ana, code = _page(service, "ana")
    ben, _ = _page(service, "ben", code)
    ana.start()
    for link in (ana, ben):
        link.poll(force=True)
    return ana, ben, code


def test_two_logins_make_join_and_play_a_room_through_the_service(service):
    ana, ben, _code = _started_room(service)
    rng = random.Random(4)
    for _ in range(12):
        link = ana if ana.ctl.state.current_player == ana.seat else ben
        action = rng.choice(link.ctl.state.legal_actions())
        assert link._publish(link.ctl.state, action)
        for each in (ana, ben):
            each.poll(force=True)
        if ana.ctl.state.is_over:
            break
    assert ana.ctl.state.history == ben.ctl.state.history
    assert len(ana.ctl.state.history) >= 2


def test_a_student_cannot_move_for_another_seat_or_play_an_illegal_move(service):
    ana, ben, code = _started_room(service)
    state = ana.ctl.state
    player = state.current_player
    mover, other = (ana, ben) if player == ana.seat else (ben, ana)
    legal = encode_action(state.legal_actions()[0])
    n = len(state.history) + 1
    # the page's holder is never sent: the service moves for the caller's login only
    with pytest.raises(RoomError, match="not your seat's turn"):
        other.store.append(code, n, state.legal_actions()[0], by=mover.holder)
    with pytest.raises(RoomError, match="not your seat's turn"):
        other.store.call("append", code=code, n=n, action=legal)
    with pytest.raises(ServiceError, match="append takes only action, code, n"):
        mover.store.call("append", code=code, n=n, seat=player, action=legal)
    with pytest.raises(RoomError, match="not allowed"):
        mover.store.call("append", code=code, n=n, action={"no": "move"})
    assert service.rooms.moves(code) == []
    # a third login, seated nowhere, reads neither the room (its deal) nor the moves
    zed = as_(service, "zed")
    with pytest.raises(RoomError, match="no seat"):
        zed("room", code=code)
    with pytest.raises(RoomError, match="no seat"):
        zed("moves", code=code, after=0)
    assert mover._publish(state, state.legal_actions()[0])


def test_a_seat_is_held_by_the_callers_login_whatever_the_page_says(service):
    _ana, code = _page(service, "ana")
    ben_holder = service.handle("ben", "whoami", {})["holder"]
    # ana's page naming ben's holder still joins as ana (the holder is not an argument)
    with pytest.raises(ServiceError, match="takes only"):
        service.handle("ana", "join", {"code": code, "holder": ben_holder})
    assert service.handle("ben", "holds_seat", {"code": code}) is False
    assert service.handle("ana", "holds_seat", {"code": code}) is True


def _attempt(student: str, **changes) -> Attempt:
    values = {"student": student, "set_id": "sums", "set_title": "Sums", "exercise": "e1",
              "number": 1, "kind": "sums_capture", "variant": "5H", "answer": "3",
              "correct": True, "score": 1.0, "hints_used": 0, "seconds": 4.0}
    values.update(changes)
    return Attempt.new(**values)


def _rows(path):
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT student, answer FROM attempts ORDER BY id").fetchall()
    finally:
        conn.close()


def test_a_student_records_only_their_own_progress(service, tmp_path):
    ana = HubProgressStore(transport=as_(service, "ana"))
    ana.record(_attempt("ana", answer="1"))
    ana.record(_attempt("ben", answer="2"))  # a page naming ben: recorded as ana's
    first = _attempt("ana", answer="3")
    ana.record(first)
    ana.record(Attempt(**{**first.__dict__, "answer": "rewritten", "correct": False}))
    assert _rows(tmp_path / "class" / "ana" / "progress.sqlite3") == [
        ("ana", "1"), ("ana", "2"), ("ana", "3")]  # nothing of ben's, nothing rewritten
    assert not (tmp_path / "class" / "ben").exists()
    found, _ = ana.attempts_after(0)
    assert [a.answer for a in found] == ["1", "2", "3"]
    assert HubProgressStore(transport=as_(service, "ben")).attempts() == []


def test_an_attempt_keeps_the_set_version_it_answered(service):
    ana = HubProgressStore(transport=as_(service, "ana"))
    ana.record(Attempt(**{**_attempt("ana", answer="1").__dict__, "set_version": 2}))
    older = {k: v for k, v in _attempt("ana", answer="2").__dict__.items()
             if k != "set_version"}  # a page from before set versions
    service.handle("ana", "record", {"attempt": older})
    assert [(a.answer, a.set_version) for a in ana.attempts()] == [("1", 2), ("2", 1)]


@pytest.mark.parametrize("bad, message", [
    ({"set_version": 0}, "set_version"), ({"set_version": "2"}, "set_version"),
    ({"score": 7.0}, "score"), ({"correct": "yes"}, "correct"), ({"answer": "x" * 5000},
                                                                  "answer"),
    ({"number": True}, "number"), ({"seconds": float("nan")}, "seconds"),
])
def test_an_attempt_with_a_bad_field_is_refused_in_one_line(service, tmp_path, bad, message):
    attempt = {**_attempt("ana").__dict__, **bad}
    with pytest.raises(ServiceError, match=message) as caught:
        service.handle("ana", "record", {"attempt": attempt})
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "class" / "ana" / "progress.sqlite3").exists() or _rows(
        tmp_path / "class" / "ana" / "progress.sqlite3") == []


def test_variants_are_drawn_only_for_the_caller(service):
    seed = service.handle("ana", "variant_seed",
                          {"set_id": "sums", "exercise": "e1", "student": "ana"})
    assert seed != service.handle("ben", "variant_seed",
                                  {"set_id": "sums", "exercise": "e1", "student": "ben"})
    with pytest.raises(ServiceError, match="own exercises"):
        service.handle("ana", "variant_seed",
                       {"set_id": "sums", "exercise": "e1", "student": "ben"})


@pytest.mark.parametrize("method, args", [
    ("sweep", {}), ("close", {}), ("__init__", {}), ("room", {"code": "ABCDE", "x": 1}),
    ("record", []),
])
def test_only_the_listed_methods_and_arguments_exist(service, method, args):
    with pytest.raises(ServiceError):
        service.handle("ana", method, args)


def _answer(student: str, **changes):
    from mathcards.asking import Answer

    made = Answer(student=student, game="suns_to_moons", skill="cross_zero",
                  prompt="The deck is 3. You lay 5♣ upright: what is the deck now?",
                  numbers=(3, -5), expected="-2", given="2", right=False, slip="sign",
                  seconds=4.5, level="count")
    return Answer(**{**made.__dict__, **changes})


def test_a_students_answers_at_the_tables_reach_their_own_file_only(service, tmp_path):
    """A table's answers on a hub go through the service (the student's server writes no
    file): kept under the caller's login whatever the page says; an exercise attempt's
    answer goes with its attempt."""
    from mathcards.exercises.progress import ProgressStore

    ana = HubProgressStore(transport=as_(service, "ana"))
    ana.record_answer(_answer("ana"))
    ana.record_answer(_answer("ben", given="-2", right=True, slip=""))  # a page naming ben
    attempt = _attempt("ana", answer="1")
    ana.record(attempt, _answer("ana", uid=attempt.uid, skill="add_positive"))
    assert not (tmp_path / "class" / "ben").exists()
    store = ProgressStore(tmp_path / "class" / "ana" / "progress.sqlite3")
    try:
        kept = store.answers()
    finally:
        store.close()
    assert sorted((a.student, a.skill, a.right, a.slip) for a in kept) == [
        ("ana", "add_positive", False, "sign"), ("ana", "cross_zero", False, "sign"),
        ("ana", "cross_zero", True, "")]


def test_a_seen_answer_reaches_the_students_file_through_the_service(service, tmp_path):
    """A "seen" answer at "I count" (its result shown before the answer, issue 37 item 1)
    goes through the hub's service like any answer (fails before: the service refused its
    slip, which is no slip of the classifier's, and the evidence was lost on a hub)."""
    from mathcards.asking.session import SEEN
    from mathcards.exercises.progress import ProgressStore

    HubProgressStore(transport=as_(service, "ana")).record_answer(
        _answer("ana", given="-2", slip=SEEN))
    store = ProgressStore(tmp_path / "class" / "ana" / "progress.sqlite3")
    try:
        assert [(a.right, a.slip) for a in store.answers()] == [(False, SEEN)]
    finally:
        store.close()


@pytest.mark.parametrize("bad, message", [
    ({"slip": "juggled"}, "own names"),
    ({"skill": "juggling"}, "own names"), ({"right": "yes"}, "right"),
    ({"numbers": ["3"]}, "number"), ({"level": "easy"}, "own names"),
])
def test_an_answer_with_a_bad_field_is_refused_in_one_line(service, tmp_path, bad, message):
    raw = json.loads(json.dumps(_answer("ana").__dict__)) | bad
    with pytest.raises(ServiceError, match=message) as caught:
        service.handle("ana", "record_answer", {"answer": raw})
    assert "\n" not in str(caught.value)


def test_a_worked_solution_opened_and_the_students_answers_go_through_the_service(
        service, tmp_path):
    """On a hub the practice page records an opened solution (the dashboard shows it) and
    reads the student's answers ("practise next") through the service: the caller's own."""
    from mathcards.exercises.progress import ProgressStore, SolutionOpened

    ana = HubProgressStore(transport=as_(service, "ana"))
    ana.record_solution(SolutionOpened.new(student="ben", set_id="sums", exercise="e1",
                                           number=1))  # a page naming ben: ana's
    ana.record_answer(_answer("ana"))
    HubProgressStore(transport=as_(service, "ben")).record_answer(_answer("ben"))
    assert [(a.student, a.numbers) for a in ana.answers()] == [("ana", (3, -5))]
    store = ProgressStore(tmp_path / "class" / "ana" / "progress.sqlite3")
    try:
        assert [(s.student, s.exercise) for s in store.solutions()] == [("ana", "e1")]
    finally:
        store.close()
    with pytest.raises(ServiceError, match="number"):
        service.handle("ana", "record_solution", {"opened": {
            **SolutionOpened.new(student="ana", set_id="s", exercise="e", number=1).__dict__,
            "number": "1"}})


def test_a_change_of_level_reaches_the_callers_own_file_only(service, tmp_path):
    """A step down to "Show me the sums" on a hub goes through the service, kept under the
    caller's login whatever the page says; a bad field is refused in one line."""
    from mathcards.asking import LevelChange
    from mathcards.exercises.progress import ProgressStore

    ana = HubProgressStore(transport=as_(service, "ana"))
    ana.record_level(LevelChange("ben", "suns_to_moons", "count", "show"))  # naming ben
    assert not (tmp_path / "class" / "ben").exists()
    store = ProgressStore(tmp_path / "class" / "ana" / "progress.sqlite3")
    try:
        assert [(c.student, c.before, c.after) for c in store.level_changes()] == [
            ("ana", "count", "show")]
    finally:
        store.close()
    raw = json.loads(json.dumps(LevelChange("ana", "sums", "count", "show").__dict__))
    for bad, message in (({"after": "easy"}, "own levels"), ({"game": 7}, "game"),
                         ({"uid": "u" * 65}, "uid")):
        with pytest.raises(ServiceError, match=message) as caught:
            service.handle("ana", "record_level", {"change": raw | bad})
        assert "\n" not in str(caught.value)
    with pytest.raises(ServiceError, match="fields"):
        service.handle("ana", "record_level", {"change": {**raw, "student": "ben",
                                                          "extra": 1}})


def test_a_finished_game_reaches_the_callers_own_file_only(service, tmp_path):
    """Issue 38: a game assignment counts finished games; on a hub they go through the
    service (the client had no record_game: nothing reached the class folder), kept under
    the caller's login whatever the page says; a bad field is refused in one line."""
    from mathcards.exercises.progress import FinishedGame, ProgressStore
    from mathcards.exercises.results import read_finished_games

    ana = HubProgressStore(transport=as_(service, "ana"))
    ana.record_game(FinishedGame.new(student="ben", game="sums", level="count", won=True))
    assert not (tmp_path / "class" / "ben").exists()
    games = read_finished_games(tmp_path / "class")
    assert [(g.student, g.game, g.level, g.won) for g in games] == [
        ("ana", "sums", "count", True)]
    store = ProgressStore(tmp_path / "class" / "ana" / "progress.sqlite3")
    try:
        assert store.finished_games() == games
    finally:
        store.close()
    raw = json.loads(json.dumps(FinishedGame.new(student="ana", game="sums", level="count",
                                                 won=False).__dict__))
    for bad, message in (({"level": "easy"}, "games and levels"), ({"game": "chess"},
                                                                   "games and levels"),
                         ({"won": "yes"}, "true or false"), ({"uid": "u" * 65}, "uid")):
        with pytest.raises(ServiceError, match=message) as caught:
            service.handle("ana", "record_game", {"game": raw | bad})
        assert "\n" not in str(caught.value)
    with pytest.raises(ServiceError, match="fields"):
        service.handle("ana", "record_game", {"game": {**raw, "extra": 1}})


def test_a_teachers_tournament_rooms_are_the_services_on_a_hub(service, monkeypatch,
                                                               tmp_path):
    """On a hub the teacher's page makes the rooms through the service, where the students'
    pages look for them (not in the teacher's own server's data folder)."""
    import mathcards.hub_client as hub
    from mathcards.hub_client import teacher_rooms

    service.rooms.version()  # the service's rooms file is open: the teacher's server has its own
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "teachers-server"))
    monkeypatch.setenv(hub.SERVICE_ENV, "http://hub.invalid/services/mathcards/")
    monkeypatch.setattr(hub, "HubRoomStore",
                        lambda: HubRoomStore(transport=as_(service, "teacher", True)))
    codes = teacher_rooms("sums", 2, 2, leave_after=120)
    for code in codes:
        room = service.rooms.room(code)
        assert room.host is None and room.replace_after == 120
    ben, _ = _page(service, "ben", codes[0])  # a student joins it through the service
    ben.poll(force=True)


def test_only_a_teacher_makes_rooms_with_no_host(service):
    """A room with no host counts against no student's hourly limit (a teacher's class
    rooms): a student's server asking for one is refused in one line and makes nothing,
    however many times it asks; the teachers' group makes them."""
    from mathcards.rooms import ROOMS_PER_VISITOR

    settings = make_game("sums", num_players=2).settings()
    args = {"game": "sums", "settings": settings, "host": False, "replace_after": None}
    def rooms() -> int:
        return int(service.rooms._read("SELECT count(*) FROM rooms")[0][0])

    before = rooms()
    for _ in range(ROOMS_PER_VISITOR + 2):
        with pytest.raises(RoomError, match="only a teacher") as caught:
            service.handle("ana", "create", args)
        assert "\n" not in str(caught.value)
    assert rooms() == before
    with pytest.raises(ServiceError, match="takes only"):  # the page cannot say it is one
        service.handle("ana", "create", {**args, "teacher": True})
    code = service.handle("teacher", "create", args, teacher=True)
    assert service.rooms.room(code).host is None and rooms() == before + 1
    # a student's own rooms still go to the student, within the student's limit
    own = service.handle("ana", "create", {**args, "host": True})
    assert service.rooms.room(own).host == service.holder_of("ana")


# --- issue 36 item 4: a student's hand-made token (/hub/token) is no way into rooms or
# results: a room answers its seated players only, guesses count, no one else's token shows
def _no_rooms(service, count: int) -> list[str]:
    from mathcards.rooms import CODE_LENGTH, CODE_LETTERS

    rng = random.Random(36)
    codes: list[str] = []
    while len(codes) < count:
        code = "".join(rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not service.rooms._read("SELECT 1 FROM rooms WHERE code=?", (code,)):
            codes.append(code)
    return codes


@pytest.mark.parametrize("method", ["room", "moves", "last_move_at", "start"])
def test_a_room_answers_only_its_seated_players_and_guesses_count(service, method):
    """Fails before: ``room`` gave any caller the room's seats, and every method said
    "there is no room X" for a code of no room, without counting it: 3,000 guesses, no
    wait. Now one line whether the room exists or not, and guesses count with the wrong
    room codes (past the limit, a wait, for joining too)."""
    from mathcards.rooms import WRONG_CODES

    _ana, code = _page(service, "ana")
    lines = []
    for each in [code, *_no_rooms(service, WRONG_CODES)]:
        with pytest.raises(RoomError) as caught:
            service.handle("mal", method, {"code": each})
        lines.append(str(caught.value).replace(each, "X"))
    assert set(lines) == {"you hold no seat in room X: join it with its code first"}
    for each in [code, *_no_rooms(service, 3)]:  # the limit: a wait, whatever the code
        with pytest.raises(RoomError, match="too many wrong room codes: wait"):
            service.handle("mal", method, {"code": each})
    with pytest.raises(RoomError, match="too many wrong room codes: wait"):
        service.handle("mal", "join", {"code": code, "name": "mal"})
    # the room's own players are not slowed by anyone's guesses
    assert service.handle("ana", "room", {"code": code})["code"] == code


def test_a_room_shows_no_other_players_token(service):
    """Fails before: ``room`` returned every seat's holder token (and the host's), with
    which a page could pass for another player. Each player sees their own only."""
    from mathcards.hub import OTHER

    ana, ben, code = _started_room(service)
    holders = {who: service.holder_of(who) for who in ("ana", "ben")}
    for who, other in (("ana", "ben"), ("ben", "ana")):
        shown = json.dumps(service.handle(who, "room", {"code": code}))
        assert holders[who] in shown and holders[other] not in shown
    seen_by_ben = service.handle("ben", "room", {"code": code})
    assert seen_by_ben["host"] == OTHER
    assert [s[2] for s in seen_by_ben["seats"]] == [OTHER, holders["ben"]]
    # the pages still know their own seat and the host's buttons
    assert ana.is_host and not ben.is_host and (ana.seat, ben.seat) == (0, 1)


def test_only_the_proof_of_the_logins_own_server_is_taken(service, tmp_path):
    """The hub gives each server ``server_proof(login)`` (a key only the hub and the service
    read); a token made by hand at /hub/token comes without it, or with another's."""
    from mathcards.hub import server_proof

    folder = tmp_path / "service"  # the service's data folder, as the hub's config names it
    ana = server_proof("ana", "t-ana", folder)
    assert service.own_server("ana", "t-ana", ana)
    assert not service.own_server("ben", "t-ana", ana)
    assert not service.own_server("ana", "made-at-hub-token", ana)  # another token of ana's
    for forged in ("", None, ana.upper(), ana[:-1], server_proof("Ana", "t-ana", folder), 7):
        assert not service.own_server("ana", "t-ana", forged)
    assert (folder / "server-key").stat().st_mode & 0o077 == 0  # owner-only


# --- issue 38: a teacher's assignments on a hub are the service's; a student reads only
# their own classes' (the To do of their landing page) and their own progress for them
TODAY = dt.date.today()
GAME_WORK = {"cls": "7b", "names": ["Ana", "Bo"], "kind": "game", "target": "sums",
             "level": "count", "games": 1, "opens": TODAY.isoformat(),
             "due": (TODAY + dt.timedelta(days=3)).isoformat()}


def test_a_teachers_assignments_on_a_hub_are_read_by_the_class_only(service):
    from mathcards.assignments import GAME, SET

    teacher = HubAssignmentStore(transport=as_(service, "teacher", True))
    game = teacher.add("7B", GAME, "sums", opens=TODAY, due=TODAY + dt.timedelta(days=3),
                       level="count", games=1, names=["Ana", "Bo"])
    work = teacher.add("7b", SET, "suns_to_moons", opens=TODAY, due=TODAY,
                       names=["Ana", "Bo"])
    other = teacher.add("8a", SET, "dice_stacks", opens=TODAY, due=TODAY, names=["Cy"])
    assert (game.class_id, game.level, game.games, game.opens) == ("7b", "count", 1, TODAY)
    assert {a.id for a in teacher.all()} == {game.id, work.id, other.id}
    assert teacher.get(other.id) == other
    ana = HubAssignmentStore(transport=as_(service, "ana"))
    assert {a.id for a in ana.all()} == {game.id, work.id}  # 7b's, not 8a's
    assert ana.for_class("7b") == teacher.for_class("7b")
    assert ana.for_class("8a") == [] and ana.get(other.id) is None
    assert ana.get(game.id) == game
    assert HubAssignmentStore(transport=as_(service, "zed")).all() == []  # on no list
    # a student's server asking to assign or remove is refused in one line, nothing changes
    for method, args in (("assign", GAME_WORK), ("unassign", {"id": game.id})):
        with pytest.raises(ServiceError, match="only a teacher") as caught:
            service.handle("ana", method, args)
        assert "\n" not in str(caught.value)
    with pytest.raises(ServiceError, match="takes only"):  # the page cannot say it is one
        service.handle("ana", "assign", {**GAME_WORK, "teacher": True})
    assert len(service.assignments.all()) == 3
    assert teacher.remove(other.id) and HubAssignmentStore(
        transport=as_(service, "cy")).all() == []


@pytest.mark.parametrize("bad", [
    {"cls": 7}, {"cls": "../7b"}, {"cls": "x" * 1000}, {"cls": None},
    {"names": "Ana"}, {"names": []}, {"names": [1]}, {"names": ["x" * 100]},
    {"names": ["Ana", "ana"]}, {"names": ["Ana\nBo"]}, {"names": ["<b>"]},
    {"names": [f"n{i}" for i in range(61)]}, {"names": {"Ana": 1}},
    {"kind": "exam"}, {"kind": None}, {"target": "x" * 1000}, {"target": 5},
    {"target": "no_such_game"}, {"level": "expert"}, {"level": ["count"]},
    {"games": True}, {"games": -1}, {"games": 10**9}, {"games": "3"}, {"games": 0},
    {"games": 2.5}, {"opens": "tomorrow"}, {"opens": 20261201}, {"due": "1999-01-01"},
    {"due": "x" * 1000}])
def test_an_assignment_with_a_bad_argument_is_refused_in_one_line(service, bad):
    from mathcards.errors import MathCardsError

    with pytest.raises(MathCardsError) as caught:
        service.handle("teacher", "assign", {**GAME_WORK, **bad}, teacher=True)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 400
    assert service.assignments.all() == [] and service.classes.classes() == []


@pytest.mark.parametrize(("method", "args"), [
    ("assignments", {"cls": 7}), ("assignments", {"cls": "x" * 1000}),
    ("assignments", {"cls": ["7b"]}), ("assignment", {"id": None}),
    ("assignment", {"id": {"a": 1}}), ("assignment", {"id": "x" * 1000}),
    ("unassign", {"id": 3}), ("solutions", {"set_id": 5}), ("finished_games", {"game": []}),
    ("assignments", {"class": "7b"})])
def test_reading_assignments_with_a_bad_argument_is_refused_in_one_line(service, method,
                                                                          args):
    for teacher in (False, True):
        with pytest.raises(ServiceError) as caught:
            service.handle("ana", method, args, teacher=teacher)
        assert "\n" not in str(caught.value)


def test_a_students_to_do_on_a_hub_comes_from_the_service(service, monkeypatch, tmp_path):
    """Fails before: a student's landing page on a hub read the assignments and the
    progress of its own server's files, where no teacher's assignment is: no To do."""
    import mathcards.hub_client as hub_client
    from mathcards import hub
    from mathcards.assignments import GAME, SET
    from mathcards.exercises import load_set
    from mathcards.exercises.progress import FinishedGame
    from mathcards.widgets.assignments import todo_html
    from mathcards.widgets.classes import landing
    from tests.widgets.test_todo import SAMPLES, text_of

    teacher = HubAssignmentStore(transport=as_(service, "teacher", True))
    teacher.add("7b", GAME, "sums", opens=TODAY, due=TODAY + dt.timedelta(days=3),
                level="count", games=1, names=["Ana", "Bo"])
    teacher.add("7b", SET, "suns_to_moons", opens=TODAY, due=TODAY + dt.timedelta(days=2),
                names=["Ana", "Bo"])
    teacher.add("8a", SET, "dice_stacks", opens=TODAY, due=TODAY, names=["Cy"])
    # ana finishes the game and answers one exercise of the set, through the service
    ana_progress = HubProgressStore(transport=as_(service, "ana"))
    ana_progress.record_game(FinishedGame.new(student="ana", game="sums", level="count",
                                              won=False))
    work = load_set(SAMPLES / "suns_to_moons.yaml")
    first = next(iter(work))
    ana_progress.record(_attempt("ana", set_id=work.id, set_title=work.title,
                                 exercise=first.id, number=first.number))
    # the student's own server: its own data folder, the service's address, the login
    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "students-server"))
    monkeypatch.setenv(hub.SERVICE_ENV, "http://hub.invalid/services/mathcards/")
    login = {"name": "ana"}
    monkeypatch.setattr(hub_client, "HubAssignmentStore",
                        lambda: HubAssignmentStore(transport=as_(service, login["name"])))
    monkeypatch.setattr(hub_client, "HubProgressStore",
                        lambda: HubProgressStore(transport=as_(service, login["name"])))
    ana = text_of(todo_html("", "ana", SAMPLES))
    assert re.search(r"To do\n.*Suns to Moons.*: started \(1 of \d+\), due .*\n"
                     r"Sums at “I count”, 1 game: done \(1 of 1\)", ana, re.S), ana
    assert "Dice Stacks" not in ana
    assert 'href="play_sums.ipynb?level=count&amp;class=7b"' in todo_html("7b", "ana", SAMPLES)
    assert todo_html("8a", "ana", SAMPLES) == ""  # another class's: nothing
    login["name"] = "bo"
    bo = text_of(todo_html("", "bo", SAMPLES))
    assert re.search(r"Suns to Moons.*: to do, .*\nSums at “I count”, 1 game: to do", bo,
                     re.S), bo
    # the landing page of bo's server (the hub's login names him) shows it
    monkeypatch.setenv("JUPYTERHUB_USER", "bo")
    monkeypatch.chdir(SAMPLES.parent)
    assert "Sums at “I count”, 1 game: to do" in text_of(landing("").w_hello.value)


def test_the_teachers_pages_on_a_hub_assign_and_list_through_the_service(
        service, monkeypatch, tmp_path):
    """*Assign work* and *Your classes* on a teacher's hub server: the assignment, and the
    class's list when it changes, go to the service (the teacher's own classes file keeps
    the class, as before, but no assignment)."""
    import mathcards.hub_client as hub_client
    from mathcards import hub
    from mathcards.assignments import AssignmentStore
    from mathcards.classes import ClassStore
    from mathcards.widgets.assignments import AssignmentPage, AssignPanel
    from mathcards.widgets.classes import ClassesPanel
    from tests.widgets.test_todo import SAMPLES, text_of

    monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / "teachers-server"))
    monkeypatch.setenv(hub.SERVICE_ENV, "http://hub.invalid/services/mathcards/")
    monkeypatch.setattr(hub_client, "HubAssignmentStore",
                        lambda: HubAssignmentStore(transport=as_(service, "teacher", True)))
    classes = ClassesPanel()
    assert classes.save("7b", "Ana\nBo")  # no assignment yet: the service keeps no list
    assert service.classes.get("7b") is None
    panel = AssignPanel(SAMPLES)
    panel.w_what.value = ("game", "sums")
    panel.w_level.value, panel.w_games.value = "count", 2
    made = panel.assign()
    assert made is not None and "Assigned to class 7b" in text_of(panel.w_line.value)
    assert [a.id for a in service.assignments.for_class("7b")] == [made.id]
    assert service.classes.get("7b").names == ["Ana", "Bo"]
    assert "Sums at “I count”, 2 games" in text_of(panel.w_list.value)
    with AssignmentStore() as own:  # the teacher's server's file: no assignment in it
        assert own.all() == []
    page = AssignmentPage(made.id, SAMPLES)
    assert "Class 7b" in text_of(page.w_out.value) and "Bo" in text_of(page.w_out.value)
    # Cy joins the class: the service's list follows, and Cy's page lists the work
    assert classes.save("7b", "Ana\nBo\nCy")
    assert service.classes.get("7b").names == ["Ana", "Bo", "Cy"]
    assert [a.id for a in HubAssignmentStore(transport=as_(service, "cy")).all()] == [made.id]
    with ClassStore() as own:
        assert own.get("7b").names == ["Ana", "Bo", "Cy"]
    # a student's server sending a class's list is refused, and nothing changes
    with pytest.raises(ServiceError, match="only a teacher"):
        service.handle("ana", "class_list", {"cls": "7b", "names": ["Ana"]})
    for bad in ({"cls": 7, "names": ["Ana"]}, {"cls": "7b", "names": "Ana"},
                {"cls": "7b", "names": ["Ana", "ANA"]}, {"cls": "7b", "names": [None]}):
        with pytest.raises(ServiceError):
            service.handle("teacher", "class_list", bad, teacher=True)
    assert service.classes.get("7b").names == ["Ana", "Bo", "Cy"]
