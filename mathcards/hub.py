"""The MathCards service of a JupyterHub: rooms, variant seeds and progress, for the class.

On a district's hub a student's server holds no secret and no shared file
(``deploy/values.yaml``). What needs them goes through this service, which the hub
runs (``python -m mathcards hub-service``) in a place students cannot reach:

- **the rooms file** (classmates playing each other) and **the variant secret** (each
  student's own exercises), in the service's data folder (``MATHCARDS_DATA_DIR``);
- **the class's progress**: each student's attempts in
  ``$MATHCARDS_CLASS_PROGRESS/<student>/progress.sqlite3``, which the teacher's
  dashboard reads;
- **the teachers' assignments** (issue 38) and the lists of the classes they were given
  to, in ``classes.sqlite3`` of its data folder: a teacher writes them, a student's
  landing page reads its own classes' (*To do*).

A page's kernel calls it with its server's hub token (``JUPYTERHUB_API_TOKEN``); the
service asks the hub whose token it is, and acts for that login only: a seat is held,
a move stored, an attempt recorded and a variant drawn for the caller, whatever the
request says. Only the methods in ``METHODS`` exist, and each checks every argument.

A token names a login, not a server: a student can make one at ``/hub/token``. So the
hub also gives each server a proof that it is that login's own server
(``MATHCARDS_HUB_SERVER_PROOF``, ``server_proof``: a keyed digest of the login and the
server's token, with a key only the hub and the service read), sent with every call; a
call without it, or with another token, is refused (403). The student never sees it:
their server is Voilà alone, which runs no code of theirs. And in a room, a caller who
holds no seat gets one line whether the room exists or not, counted with their wrong
room codes; no caller sees another seat's holder token.

Pages use it when ``MATHCARDS_HUB_SERVICE_URL`` names it (``room_store``,
``progress_store``, ``assignment_store``, ``variant_seed``, ``holder``); elsewhere they
keep the local SQLite files as before.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mathcards.errors import MathCardsError

# the client half (a page's kernel), importable from here too
from mathcards.hub_client import PROOF_ENV as PROOF_ENV
from mathcards.hub_client import PROOF_HEADER as PROOF_HEADER
from mathcards.hub_client import SERVICE_ENV as SERVICE_ENV
from mathcards.hub_client import TIMEOUT as TIMEOUT
from mathcards.hub_client import TOKEN_ENV as TOKEN_ENV
from mathcards.hub_client import HubAssignmentStore as HubAssignmentStore
from mathcards.hub_client import HubProgressStore as HubProgressStore
from mathcards.hub_client import HubRoomStore as HubRoomStore
from mathcards.hub_client import ServiceError as ServiceError
from mathcards.hub_client import _assignment_dict as _assignment_dict
from mathcards.hub_client import assignment_store as assignment_store
from mathcards.hub_client import call as call
from mathcards.hub_client import holder as holder
from mathcards.hub_client import progress_store as progress_store
from mathcards.hub_client import room_store as room_store
from mathcards.hub_client import service_url as service_url
from mathcards.hub_client import variant_seed as variant_seed
from mathcards.hub_client import whoami as whoami

PROOF_FILE = "server-key"  # in the service's data folder: the hub and the service read it
NOT_OWN_SERVER = ("only the MathCards pages of your own hub server may do that: on the hub's "
                  "home page press Stop My Server, then Start My Server")
MAX_BODY = 64_000  # bytes of one request: an attempt or a move is far smaller
MAX_TEXT = 2_000
# The hub's group of teachers (deploy/values.yaml): only they make rooms without a host. The
# service reads its members from the hub (its role: read:groups!group=teachers).
TEACHERS_GROUP = os.environ.get("MATHCARDS_HUB_TEACHERS_GROUP", "teachers")
GROUP_CACHE_SECONDS = 30.0
OTHER = "another player"  # what a page is shown for another seat's (or the host's) holder


def _proof(key: str, login: str, token: str) -> str:
    said = b"\0".join((b"mathcards-server", login.encode("utf-8"), token.encode("utf-8")))
    return hmac.new(key.encode("utf-8"), said, hashlib.sha256).hexdigest()


def server_proof(login: str, token: str, folder: Path | str | None = None) -> str:
    """The proof that a call to the service comes from ``login``'s own server, whose hub
    token is ``token``: a digest of both keyed with ``server-key`` of ``folder`` (the
    service's data folder; made, owner-only, when missing). It is good with that token
    only (a new one at each start of the server). The hub's configuration puts it in each
    server's environment (a callable in ``Spawner.environment``, which the hub calls with
    the spawner, its token made): ``lambda spawner: server_proof(spawner.user.name,
    spawner.api_token, "<service data folder>")``."""
    from mathcards.keys import _from_file

    key = _from_file(PROOF_FILE, 32, None if folder is None else Path(folder))
    return _proof(key, login, token)


def _text(value: Any, what: str, limit: int = 200) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ServiceError(f"{what} must be text of at most {limit} characters")
    return value


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(f"{what} must be a whole number from {low} to {high}")
    return value


def _number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            math.isfinite(value) and low <= value <= high):
        raise ServiceError(f"{what} must be a number from {low:g} to {high:g}")
    return float(value)


def _optional(value: Any, check: Callable[[Any], Any]) -> Any:
    return None if value is None else check(value)


class Service:
    """The service's state (rooms, secret, progress, assignments) and its methods, for
    one caller each.

    ``handle(login, method, args)`` runs ``method`` for the hub user ``login`` (whom the
    hub named from the request's token); ``args`` come from the page and are checked."""

    def __init__(self, class_dir: Path | str | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        from mathcards.exercises.progress import class_progress_folder
        from mathcards.keys import _from_file, variant_secret
        from mathcards.rooms import RoomStore

        folder = Path(class_dir) if class_dir is not None else class_progress_folder()
        if folder is None:
            raise ServiceError("MATHCARDS_CLASS_PROGRESS is not set: the service keeps the "
                               "class's progress there")
        self.class_dir = folder
        self.secret = variant_secret()
        self._proof_key = _from_file(PROOF_FILE, 32)
        self.rooms = RoomStore(clock=clock)
        # the teachers' assignments and the lists of their classes (issue 38), in the
        # service's own folder: classes.sqlite3
        from mathcards.assignments import AssignmentStore
        from mathcards.classes import ClassStore

        self.assignments = AssignmentStore()
        self.classes = ClassStore(self.assignments.path)
        self._progress: dict[str, Any] = {}
        self._lock = threading.RLock()
        self._writes = 0

    def close(self) -> None:
        self.rooms.close()
        self.assignments.close()
        self.classes.close()
        for store in self._progress.values():
            store.close()

    # who the caller is
    def own_server(self, login: str, token: str, proof: Any) -> bool:
        """Whether ``proof`` is the one the hub gave ``login``'s own server with its hub
        ``token`` (``server_proof``): a token the student made by hand comes without it."""
        return isinstance(proof, str) and hmac.compare_digest(
            _proof(self._proof_key, login, token).encode(), proof.encode("utf-8", "replace"))

    def holder_of(self, login: str) -> str:
        """The seat holder of a hub login: as a hub's pages always had it (keyed with the
        variant secret, which only the service holds now)."""
        from mathcards.visitors import token_for

        return token_for("hub:" + login)

    @staticmethod
    def student_of(login: str) -> str:
        from mathcards.students import hub_student_id

        return hub_student_id(login)

    def _progress_of(self, student: str) -> Any:
        from mathcards.exercises.progress import FILE_NAME, ProgressStore
        from mathcards.students import save_slot

        if student not in self._progress:
            folder = self.class_dir / save_slot(student)
            self._progress[student] = ProgressStore(folder / FILE_NAME)
        return self._progress[student]

    def handle(self, login: str, method: str, args: Any, *, teacher: bool = False) -> Any:
        """Run ``method`` for ``login``; ``teacher``: the hub puts the login in the teachers'
        group (only a teacher makes rooms without a host, ``do_create``, assigns work,
        ``do_assign``, and reads every class's assignments)."""
        if method not in METHODS:
            raise ServiceError(f"the MathCards service has no method {method[:40]!r}")
        if not isinstance(args, dict) or set(args) - METHODS[method]:
            raise ServiceError(f"{method} takes only {', '.join(sorted(METHODS[method])) or 'no '}"
                               " arguments")
        with self._lock:
            if method in TEACHER_METHODS:
                args = {**args, "teacher": teacher}
            result = getattr(self, "do_" + method)(login, **args)
            if method in WRITES:
                self._writes += 1
            return result

    # --- who am I, variants ------------------------------------------------------------------
    def do_whoami(self, login: str) -> dict[str, str]:
        return {"holder": self.holder_of(login), "student": self.student_of(login)}

    def do_variant_seed(self, login: str, set_id: Any = None, exercise: Any = None,
                        student: Any = None) -> int:
        from mathcards.exercises.model import variant_seed

        if student != self.student_of(login):
            raise ServiceError("a student's page draws only that student's own exercises")
        return variant_seed(_text(set_id, "the set"), _text(exercise, "the exercise"),
                            self.student_of(login), self.secret)

    # --- progress ----------------------------------------------------------------------------
    def do_record(self, login: str, attempt: Any = None, answer: Any = None) -> bool:
        from mathcards.exercises.progress import COLUMNS, Attempt

        older = set(COLUMNS) - {"set_version"}  # a page from before set versions
        if not isinstance(attempt, dict) or set(attempt) not in (set(COLUMNS), older):
            raise ServiceError(f"an attempt has the fields {', '.join(COLUMNS)}")
        a = attempt
        if not isinstance(a["correct"], bool):
            raise ServiceError("correct must be true or false")
        record = Attempt(
            uid=_text(a["uid"], "uid", 64), at=_text(a["at"], "at", 40),
            student=self.student_of(login),  # the caller's, whatever was sent
            set_id=_text(a["set_id"], "set_id"), set_title=_text(a["set_title"], "set_title"),
            exercise=_text(a["exercise"], "exercise"),
            number=_int(a["number"], "number", 1, 10_000), kind=_text(a["kind"], "kind"),
            variant=_text(a["variant"], "variant", MAX_TEXT),
            answer=_text(a["answer"], "answer", MAX_TEXT), correct=a["correct"],
            score=_number(a["score"], "score", 0.0, 1.0),
            hints_used=_int(a["hints_used"], "hints_used", 0, 1_000),
            seconds=_number(a["seconds"], "seconds", 0.0, 10**7),
            set_version=_int(a.get("set_version", 1), "set_version", 1, 10**6))
        evidence = None if answer is None else self._answer(login, answer)
        # uid already there: kept as it was
        self._progress_of(record.student).record(record, evidence)
        return True

    def do_record_answer(self, login: str, answer: Any = None) -> bool:
        """An answer given at a table, kept as the caller's whatever the page says."""
        record = self._answer(login, answer)
        self._progress_of(record.student).record_answer(record)
        return True

    def do_record_level(self, login: str, change: Any = None) -> bool:
        """A change of level at a table, kept as the caller's whatever the page says."""
        from dataclasses import fields

        from mathcards.asking import LEVELS, LevelChange

        names = {f.name for f in fields(LevelChange)}
        if not isinstance(change, dict) or set(change) != names:
            raise ServiceError(f"a change of level has the fields {', '.join(sorted(names))}")
        before, after = (_text(change[k], k, 40) for k in ("before", "after"))
        if before not in LEVELS or after not in LEVELS:
            raise ServiceError("before and after must be MathCards' own levels")
        record = LevelChange(
            student=self.student_of(login), game=_text(change["game"], "game", 40),
            before=before, after=after, at=_text(change["at"], "at", 40),
            uid=_text(change["uid"], "uid", 64))
        self._progress_of(record.student).record_level(record)
        return True

    def do_record_game(self, login: str, game: Any = None) -> bool:
        """A game the caller finished at a table, kept as the caller's whatever the page
        says (a game and a level MathCards has)."""
        from dataclasses import fields

        from mathcards.asking import LEVELS
        from mathcards.exercises.progress import FinishedGame
        from mathcards.games.registry import game_names

        names = {f.name for f in fields(FinishedGame)}
        if not isinstance(game, dict) or set(game) != names:
            raise ServiceError(f"a finished game has the fields {', '.join(sorted(names))}")
        name, level = _text(game["game"], "game", 40), _text(game["level"], "level", 40)
        if name not in game_names() or level not in LEVELS:
            raise ServiceError("a finished game names one of MathCards' games and levels")
        if not isinstance(game["won"], bool):
            raise ServiceError("won must be true or false")
        record = FinishedGame(uid=_text(game["uid"], "uid", 64), at=_text(game["at"], "at", 40),
                              student=self.student_of(login), game=name, level=level,
                              won=game["won"])
        self._progress_of(record.student).record_game(record)
        return True

    def do_record_solution(self, login: str, opened: Any = None) -> bool:
        """A worked solution the caller opened, kept as the caller's whatever the page says."""
        from dataclasses import fields

        from mathcards.exercises.progress import SolutionOpened

        names = {f.name for f in fields(SolutionOpened)}
        if not isinstance(opened, dict) or set(opened) != names:
            raise ServiceError(f"an opened solution has the fields {', '.join(sorted(names))}")
        record = SolutionOpened(
            uid=_text(opened["uid"], "uid", 64), at=_text(opened["at"], "at", 40),
            student=self.student_of(login), set_id=_text(opened["set_id"], "set_id"),
            exercise=_text(opened["exercise"], "exercise"),
            number=_int(opened["number"], "number", 1, 10_000))
        self._progress_of(record.student).record_solution(record)
        return True

    def do_answers(self, login: str, game: Any = None, skill: Any = None
                   ) -> list[dict[str, Any]]:
        """The caller's own answers (the practice page's "practise next")."""
        student = self.student_of(login)
        found = self._progress_of(student).answers(
            student=student, game=_optional(game, lambda v: _text(v, "game", 40)),
            skill=_optional(skill, lambda v: _text(v, "skill", 40)))
        return [asdict(a) for a in found]

    def _answer(self, login: str, raw: Any) -> Any:
        """An ``Answer`` from a page, every field checked; the student is the caller's."""
        from dataclasses import fields

        from mathcards.asking import LEVELS, Answer
        from mathcards.skills import SKILLS, SLIP_WORDS

        names = {f.name for f in fields(Answer)}
        tries = {"question", "attempt", "hints", "rule"}  # a page from before tries: defaults
        if not isinstance(raw, dict) or not names - tries <= set(raw) <= names:
            raise ServiceError(f"an answer has the fields {', '.join(sorted(names))}")
        numbers = raw["numbers"]
        if not isinstance(numbers, list) or len(numbers) > 40:
            raise ServiceError("numbers must be a list of at most 40 whole numbers")
        if not isinstance(raw["right"], bool):
            raise ServiceError("right must be true or false")
        skill, slip, level = (_text(raw[k], k, 40) for k in ("skill", "slip", "level"))
        if ((skill and skill not in SKILLS) or (slip and slip not in SLIP_WORDS)
                or level not in LEVELS):
            raise ServiceError("skill, slip and level must be MathCards' own names")
        return Answer(
            student=self.student_of(login), game=_text(raw["game"], "game", 40),
            skill=skill, prompt=_text(raw["prompt"], "prompt", MAX_TEXT),
            numbers=tuple(_int(n, "a number", -10**6, 10**6) for n in numbers),
            expected=_text(raw["expected"], "expected", MAX_TEXT),
            given=_text(raw["given"], "given", MAX_TEXT), right=raw["right"], slip=slip,
            seconds=_number(raw["seconds"], "seconds", 0.0, 10**7), level=level,
            source=_text(raw["source"], "source", 20), uid=_text(raw["uid"], "uid", 64),
            at=_text(raw["at"], "at", 40), question=_text(raw.get("question", ""), "question", 64),
            attempt=_int(raw.get("attempt", 1), "attempt", 1, 1000),
            hints=_int(raw.get("hints", 0), "hints", 0, 1000),
            rule=_text(raw.get("rule", ""), "rule", MAX_TEXT))

    def do_attempts_after(self, login: str, row: Any = 0, set_id: Any = None
                          ) -> tuple[list[dict[str, Any]], int]:
        student = self.student_of(login)
        found, last = self._progress_of(student).attempts_after(
            _int(row, "row", 0, 2**62), student=student,
            set_id=_optional(set_id, lambda v: _text(v, "set_id")))
        return [asdict(a) for a in found], last

    def do_solutions(self, login: str, set_id: Any = None) -> list[dict[str, Any]]:
        """The worked solutions the caller opened (their To do's sets)."""
        student = self.student_of(login)
        return [asdict(s) for s in self._progress_of(student).solutions(
            student=student, set_id=_optional(set_id, lambda v: _text(v, "set_id")))]

    def do_finished_games(self, login: str, game: Any = None) -> list[dict[str, Any]]:
        """The games the caller finished (their To do's games)."""
        student = self.student_of(login)
        return [asdict(g) for g in self._progress_of(student).finished_games(
            student=student, game=_optional(game, lambda v: _text(v, "game", 40)))]

    # --- assignments (issue 38): a teacher writes, a student reads their own classes' -----
    @staticmethod
    def _class(value: Any) -> str:
        from mathcards.classes import ClassError, class_id

        try:
            return class_id(_text(value, "the class", 40))
        except ClassError as exc:
            raise ServiceError(str(exc)) from None

    def _classes_of(self, login: str) -> set[str]:
        """The classes whose list has the caller (a name of the list is a hub login)."""
        student = self.student_of(login)
        return {c.id for c in self.classes.classes()
                if student in {m.name.casefold() for m in c.members}}

    def do_assign(self, login: str, cls: Any = None, names: Any = None, kind: Any = None,
                  target: Any = None, level: Any = "", games: Any = 0, opens: Any = None,
                  due: Any = None, *, teacher: bool = False) -> dict[str, Any]:
        """A teacher's assignment to class ``cls``, whose list (``names``, the students'
        logins) comes with it: those students' pages then read it."""
        from mathcards.assignments import GAME, MAX_GAMES, SET
        if not teacher:
            raise ServiceError(f"only a teacher (the hub's {TEACHERS_GROUP!r} group) "
                               "assigns work to a class")
        cid, listed = self._class(cls), self._names(names)
        kind = _text(kind, "kind", 10)
        if kind not in (SET, GAME):
            raise ServiceError(f"kind must be {SET!r} or {GAME!r}")
        target = _text(target, "target", 80)
        level = _text(level, "level", 40)
        games = _int(games, "games", 0, MAX_GAMES)
        opens, due = _text(opens, "opens", 20), _text(due, "due", 20)
        made = self.assignments.add(cid, kind, target, opens=opens, due=due, level=level,
                                    games=games)
        self.classes.save(cid, listed)
        return _assignment_dict(made)

    @staticmethod
    def _names(names: Any) -> list[str]:
        """A class's list from a teacher's page, the whole of it checked, name by name."""
        from mathcards.classes import MAX_NAMES, ClassError, parse_names
        from mathcards.students import StudentNameError, clean_name

        if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES:
            raise ServiceError(f"names must be a list of 1 to {MAX_NAMES} names")
        try:
            return parse_names("\n".join(clean_name(_text(n, "a name", 60)) for n in names))
        except (ClassError, StudentNameError) as exc:
            raise ServiceError(str(exc)) from None

    def do_class_list(self, login: str, cls: Any = None, names: Any = None, *,
                      teacher: bool = False) -> bool:
        """A teacher saved a class's list on their page: the service's copy (which says
        whose landing page shows the class's work) follows it. False: the service has
        no assignment for that class, and keeps no list of it."""
        if not teacher:
            raise ServiceError(f"only a teacher (the hub's {TEACHERS_GROUP!r} group) "
                               "changes a class's list")
        cid, listed = self._class(cls), self._names(names)
        if self.classes.get(cid) is None:
            return False
        self.classes.save(cid, listed)
        return True

    def do_unassign(self, login: str, id: Any = None, *, teacher: bool = False) -> bool:
        if not teacher:
            raise ServiceError(f"only a teacher (the hub's {TEACHERS_GROUP!r} group) "
                               "removes a class's work")
        return self.assignments.remove(_text(id, "id", 20))

    def do_assignments(self, login: str, cls: Any = None, *, teacher: bool = False
                       ) -> list[dict[str, Any]]:
        """Class ``cls``'s assignments (None: every class's) for a teacher; for a student
        only those of their own classes (another class's: none)."""
        cid = _optional(cls, self._class)
        if teacher:
            found = self.assignments.all() if cid is None else self.assignments.for_class(cid)
        else:
            mine = self._classes_of(login)
            found = [a for a in self.assignments.all()
                     if a.class_id in mine and (cid is None or a.class_id == cid)]
        return [_assignment_dict(a) for a in found]

    def do_assignment(self, login: str, id: Any = None, *, teacher: bool = False
                      ) -> dict[str, Any] | None:
        """One assignment: a teacher's any, a student's only of their own classes."""
        found = self.assignments.get(_text(id, "id", 20))
        if found is None or not (teacher or found.class_id in self._classes_of(login)):
            return None
        return _assignment_dict(found)

    # --- rooms -------------------------------------------------------------------------------
    def do_version(self, login: str) -> int:
        return self._writes * 1_000_003 + self.rooms.version()

    def do_create(self, login: str, game: Any = None, settings: Any = None, host: Any = True,
                  replace_after: Any = None, *, teacher: bool = False) -> str:
        from mathcards.games.registry import find_game, get_game_class
        from mathcards.rooms import RoomError

        if find_game(game) is None:
            raise RoomError(f"there is no game {str(game)[:40]!r}")
        if not isinstance(settings, dict) or len(json.dumps(settings)) > 2_000:
            raise RoomError("a room's settings are a short list of the game's options")
        try:
            made = get_game_class(game)(**settings)
        except (TypeError, ValueError) as exc:
            raise RoomError(f"these settings do not make a {game} game ({exc})") from None
        after = _optional(replace_after, lambda v: _number(v, "replace_after", 10, 3600))
        # a room with no host is a teacher's: the first to join starts it. It is counted
        # against no student's hourly limit, so only the teachers' group may make one.
        if host is False and not teacher:
            raise RoomError(f"only a teacher (the hub's {TEACHERS_GROUP!r} group) makes rooms "
                            "for a class: make your own room, or join a classmate's")
        return self.rooms.create(made, None if host is False else self.holder_of(login),
                                 replace_after=after)

    def _seated(self, login: str, code: Any) -> Any:
        """The room ``code`` when the caller holds a seat in it. Else one line, the same
        whether the room exists or not, and a code of no room counts with the caller's
        wrong room codes (``RoomStore.try_code``: past the limit, a wait), as a join's does:
        asking a room's seats or moves is no way to guess codes."""
        from mathcards.rooms import RoomError, normal_code

        code = normal_code(code)
        holder = self.holder_of(login)
        if not self.rooms.holds_seat(code, holder):
            self.rooms.try_code(holder, None, lambda: bool(self.rooms._read(
                "SELECT 1 FROM rooms WHERE code=?", (code,))), what="room codes")
            raise RoomError(f"you hold no seat in room {code}: join it with its code first")
        return self.rooms.room(code)

    def do_room(self, login: str, code: Any = None) -> dict[str, Any]:
        """The room, to a caller seated in it: the caller's own holder token and no one
        else's (another seat's, or the host's, is ``OTHER``: a page only asks "is it me?")."""
        room = self._seated(login, code)
        me = self.holder_of(login)

        def shown(holder: str | None) -> str | None:
            return holder if holder is None or holder == me else OTHER

        return {"code": room.code, "game": room.game.name, "settings": room.game.settings(),
                "seed": room.seed, "private_seed": room.private_seed,
                "host": shown(room.host), "started": room.started,
                "seats": [[s.seat, s.kind, shown(s.holder), s.name, s.seen]
                          for s in room.seats],
                "replace_after": room.replace_after, "turn_seconds": room.turn_seconds,
                "started_at": room.started_at}

    def do_join(self, login: str, code: Any = None, name: Any = "") -> int:
        return self.rooms.join(code, self.holder_of(login), _text(name, "name", 40))

    def do_holds_seat(self, login: str, code: Any = None) -> bool:
        return self.rooms.holds_seat(code, self.holder_of(login))

    def do_held_room(self, login: str, game: Any = None) -> str | None:
        return self.rooms.held_room(self.holder_of(login), _text(game, "game", 40))

    def do_fill_with_bots(self, login: str, code: Any = None, kind: Any = "strong") -> None:
        room = self._seated(login, code)
        self.rooms.fill_with_bots(room.code, self.holder_of(login), _text(kind, "kind", 20))

    def do_set_turn_timer(self, login: str, code: Any = None, seconds: Any = None) -> None:
        room = self._seated(login, code)
        self.rooms.set_turn_timer(room.code, self.holder_of(login), _optional(
            seconds, lambda v: _number(v, "seconds", 0, 10_000)))

    def do_start(self, login: str, code: Any = None) -> None:
        self.rooms.start(self._seated(login, code).code, self.holder_of(login))

    def do_moves(self, login: str, code: Any = None, after: Any = 0) -> list[Any]:
        room = self._seated(login, code)
        return [list(m) for m in self.rooms.moves(room.code, _int(after, "after", 0, 10**6))]

    def do_last_move_at(self, login: str, code: Any = None) -> float | None:
        return self.rooms.last_move_at(self._seated(login, code).code)

    def do_touch(self, login: str, code: Any = None, seat: Any = None) -> None:
        room = self._seated(login, code)
        self.rooms.touch(room.code, _int(seat, "seat", 0, 16), self.holder_of(login))

    def do_replace_gone(self, login: str, code: Any = None, seat: Any = None) -> bool:
        room = self._seated(login, code)
        seat = _int(seat, "seat", 0, len(room.seats) - 1)
        return self.rooms.replace_gone(room.code, seat)

    def do_append(self, login: str, code: Any = None, n: Any = None,
                  action: Any = None) -> bool:
        """A move of the room, stored by ``RoomStore.append`` for the caller's login: only
        the room's next move, legal in the room's own game, for the caller's own seat (or a
        bot's, or a classmate's out of time, when the caller's page moves the bots)."""
        from mathcards.games.base import decode_action
        from mathcards.rooms import RoomError

        room = self._seated(login, code)
        n = _int(n, "n", 1, 10**6)
        try:
            move = decode_action(room.game, action, where=f"move {n}")
        except (MathCardsError, ValueError, TypeError, KeyError):
            raise RoomError("that move is not allowed at this table now") from None
        return self.rooms.append(room.code, n, move, by=self.holder_of(login))


# method -> the arguments it takes (every one checked by its do_ method)
METHODS: dict[str, set[str]] = {
    "whoami": set(), "variant_seed": {"set_id", "exercise", "student"},
    "record": {"attempt", "answer"}, "record_answer": {"answer"},
    "record_solution": {"opened"}, "record_level": {"change"}, "record_game": {"game"},
    "answers": {"game", "skill"},
    "attempts_after": {"row", "set_id"},
    "version": set(), "create": {"game", "settings", "host", "replace_after"},
    "room": {"code"}, "join": {"code", "name"}, "holds_seat": {"code"},
    "held_room": {"game"}, "fill_with_bots": {"code", "kind"},
    "set_turn_timer": {"code", "seconds"}, "start": {"code"}, "moves": {"code", "after"},
    "last_move_at": {"code"}, "touch": {"code", "seat"}, "replace_gone": {"code", "seat"},
    "append": {"code", "n", "action"},
    "solutions": {"set_id"}, "finished_games": {"game"},
    "assign": {"cls", "names", "kind", "target", "level", "games", "opens", "due"},
    "unassign": {"id"}, "assignments": {"cls"}, "assignment": {"id"},
    "class_list": {"cls", "names"},
}
# the methods told whether the caller is in the hub's teachers' group (``Service.handle``)
TEACHER_METHODS = {"create", "assign", "unassign", "assignments", "assignment", "class_list"}
WRITES = {"record", "record_answer", "record_solution", "record_level", "record_game",
          "create", "join",
          "fill_with_bots", "set_turn_timer", "start", "touch", "replace_gone", "append",
          "assign", "unassign", "class_list"}


# --- the service's web server (the hub starts it) --------------------------------------------
def serve(argv: Sequence[str] = ()) -> int:
    """Run the service as JupyterHub's managed service: on the address the hub gives it
    (``JUPYTERHUB_SERVICE_URL``; ``--ip=0.0.0.0`` to listen on every interface of a pod),
    under its prefix, with ``POST <prefix>rpc/<method>`` and a JSON body of arguments."""
    import asyncio
    import logging
    from urllib.parse import urlparse

    from jupyterhub.services.auth import HubAuth
    from tornado import web

    from mathcards.exercises.progress import ProgressError
    from mathcards.rooms import RoomError

    log = logging.getLogger("mathcards.hub")
    logging.basicConfig(level=logging.INFO, format="[mathcards service %(asctime)s] %(message)s")
    url = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/mathcards/")
    ip = next((a.split("=", 1)[1] for a in argv if a.startswith("--ip=")), url.hostname)
    service = Service()
    auth = HubAuth(cache_max_age=60)
    teachers: dict[str, Any] = {"at": -math.inf, "logins": frozenset()}

    async def teacher_logins() -> frozenset[str]:
        """The teachers' group's members, asked of the hub at most every 30 seconds; an
        answer the hub refuses (no role for the service) counts as no teacher."""
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError

        if time.monotonic() - teachers["at"] < GROUP_CACHE_SECONDS:
            return frozenset(teachers["logins"])
        try:
            answer = await AsyncHTTPClient().fetch(
                f"{auth.api_url.rstrip('/')}/groups/{TEACHERS_GROUP}",
                headers={"Authorization": f"token {auth.api_token}"}, request_timeout=10)
            teachers["logins"] = frozenset(json.loads(answer.body).get("users") or ())
        except (HTTPClientError, OSError, ValueError) as exc:
            log.warning("cannot read the hub's %r group (%s): no teacher until it can",
                        TEACHERS_GROUP, exc)
            teachers["logins"] = frozenset()
        teachers["at"] = time.monotonic()
        return frozenset(teachers["logins"])

    class Rpc(web.RequestHandler):
        def check_xsrf_cookie(self) -> None:  # token-authenticated calls from kernels only
            pass

        def _answer(self, status: int, body: dict[str, Any]) -> None:
            self.set_status(status)
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps(body))

        async def post(self, method: str) -> None:
            header = self.request.headers.get("Authorization", "")
            token = header.split(None, 1)[1] if header.lower().startswith("token ") else ""
            model = await auth.user_for_token(token, sync=False) if token else None
            if not model or model.get("kind", "user") != "user":
                self._answer(403, {"error": "the hub did not recognise this server's token"})
                return
            # a token the student made at /hub/token names them too: only their own
            # server, which the hub gave the proof, may call (issue 36 item 4)
            if not service.own_server(str(model["name"]), token,
                                      self.request.headers.get(PROOF_HEADER, "")):
                log.warning("%s for %s refused: not from the user's own server", method,
                            model["name"])
                self._answer(403, {"error": NOT_OWN_SERVER})
                return
            if len(self.request.body) > MAX_BODY:
                self._answer(413, {"error": "that request is too large"})
                return
            try:
                args = json.loads(self.request.body or b"{}")
            except ValueError:
                self._answer(400, {"error": "the request is not JSON"})
                return
            login = str(model["name"])
            teacher = method in TEACHER_METHODS and login in await teacher_logins()
            try:
                result = service.handle(login, method, args, teacher=teacher)
            except MathCardsError as exc:  # one line, said to the page
                kind = ("room" if isinstance(exc, RoomError) else
                        "progress" if isinstance(exc, ProgressError) else "")
                self._answer(400, {"error": str(exc), "kind": kind})
                return
            except Exception:  # a bug: logged here, one line for the page
                log.exception("%s for %s failed", method, model["name"])
                self._answer(500, {"error": "the MathCards service failed: try again"})
                return
            self._answer(200, {"result": result})

    async def run() -> None:
        app = web.Application([(prefix.rstrip("/") + r"/rpc/(\w+)", Rpc)])
        app.listen(url.port or 10101, ip or "127.0.0.1", max_body_size=MAX_BODY * 2)
        log.info("listening on %s:%s%s", ip, url.port, prefix)
        await asyncio.Event().wait()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    finally:
        service.close()
    return 0
