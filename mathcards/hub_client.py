"""The MathCards service of a JupyterHub as a page's kernel sees it, and this place's stores.

A page asks here where the class's shared things are: on a hub whose MathCards service is
named by ``MATHCARDS_HUB_SERVICE_URL`` (``service_url``), the service (``call``,
``holder``, ``variant_seed``, ``HubRoomStore``, ``HubProgressStore``); elsewhere the
local SQLite files (``room_store``, ``progress_store``). The service itself (what runs in
the hub, ``Service``, ``serve``) is ``mathcards.hub``, which re-exports every name here.

This module sits below the modules that ask it (the keys, the visitors, the exercises,
the rooms' teacher's rooms) and imports none of them.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from mathcards.errors import MathCardsError

SERVICE_ENV = "MATHCARDS_HUB_SERVICE_URL"
TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
# the proof that a call comes from the caller's own server (``server_proof``): put in each
# server's environment by the hub, sent in this header, checked by the service
PROOF_ENV = "MATHCARDS_HUB_SERVER_PROOF"
PROOF_HEADER = "X-MathCards-Server"
TIMEOUT = 15.0


class ServiceError(MathCardsError):
    """The service refused a request, or cannot be reached (the message says why)."""


def service_url() -> str | None:
    """The MathCards service's address on this hub, or None (local files)."""
    url = os.environ.get(SERVICE_ENV, "").strip()
    return url.rstrip("/") + "/" if url else None


# --- the client: a page's kernel -------------------------------------------------------------
def call(method: str, **args: Any) -> Any:
    """Call ``method`` of the service as this server's hub user; its result (JSON)."""
    from mathcards.exercises.progress import ProgressError
    from mathcards.rooms import RoomError

    url = service_url()
    if url is None:
        raise ServiceError(f"{SERVICE_ENV} is not set: there is no MathCards service here")
    body = json.dumps(args).encode("utf-8")
    request = urllib.request.Request(
        f"{url}rpc/{method}", data=body, method="POST",
        headers={"Content-Type": "application/json",
                 "Authorization": f"token {os.environ.get(TOKEN_ENV, '')}",
                 PROOF_HEADER: os.environ.get(PROOF_ENV, "")})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return json.loads(response.read())["result"]
    except urllib.error.HTTPError as exc:
        try:
            answer = json.loads(exc.read())
            message, kind = str(answer["error"]), str(answer.get("kind", ""))
        except (ValueError, KeyError, TypeError):
            message, kind = f"the MathCards service answered {exc.code}", ""
        error = {"room": RoomError, "progress": ProgressError}.get(kind, ServiceError)
        raise error(message) from None
    except (OSError, ValueError, KeyError) as exc:  # refused, timed out, not JSON
        raise ServiceError(f"the MathCards service cannot be reached ({exc}): try again in "
                           "a minute, or ask the hub's admin") from None


_HOLDER: dict[str, str] = {}


def whoami() -> dict[str, str]:
    """This server's user as the service knows them: ``holder`` (a room seat's token) and
    ``student`` (the progress and variant id)."""
    url = service_url() or ""
    if url not in _HOLDER:
        answer = call("whoami")
        _HOLDER[url] = json.dumps(answer)
    return dict(json.loads(_HOLDER[url]))


def holder() -> str:
    return whoami()["holder"]


def variant_seed(set_id: str, exercise_id: str, student: str) -> int:
    return int(call("variant_seed", set_id=set_id, exercise=exercise_id, student=student))


class HubRoomStore:
    """``RoomStore``'s methods that pages use, answered by the service."""

    def __init__(self, clock: Callable[[], float] = time.time,
                 transport: Callable[..., Any] | None = None) -> None:
        self.clock = clock
        self.call = transport or call  # tests pass the service itself
        self.notes: dict[str, str] = {}  # RoomStore's: the service sets no move aside here

    def close(self) -> None:
        pass

    def version(self) -> int:
        return int(self.call("version"))

    def create(self, game: Any, host: str | None, *, replace_after: float | None = None,
               seats: Sequence[str] = (), seeds: tuple[int, int] | None = None,
               address: str | None = None) -> str:
        from mathcards.rooms import RoomError

        if seats or seeds:
            raise RoomError("on a hub, rooms with set seats or a known deal are made by the "
                            "service's own command")
        return str(self.call("create", game=game.name, settings=game.settings(),
                        host=host is not None, replace_after=replace_after))

    def room(self, code: Any) -> Any:
        from mathcards.games.registry import get_game_class
        from mathcards.rooms import Room, Seat

        raw = self.call("room", code=code)
        game = get_game_class(raw["game"])(**raw["settings"])
        return Room(raw["code"], game, raw["seed"], raw["private_seed"], raw["host"],
                    raw["started"], tuple(Seat(*s) for s in raw["seats"]),
                    raw["replace_after"], raw["turn_seconds"], raw["started_at"])

    def join(self, code: Any, holder: str, name: str = "", address: str | None = None) -> int:
        return int(self.call("join", code=code, name=name))

    def holds_seat(self, code: Any, holder: str) -> bool:
        return bool(self.call("holds_seat", code=code))

    def held_room(self, holder: str, game_name: str, within: float = 12 * 3600.0
                  ) -> str | None:
        code = self.call("held_room", game=game_name)
        return None if code is None else str(code)

    def fill_with_bots(self, code: Any, holder: str, kind: str = "strong") -> None:
        self.call("fill_with_bots", code=code, kind=kind)

    def set_turn_timer(self, code: Any, holder: str, seconds: float | None) -> None:
        self.call("set_turn_timer", code=code, seconds=seconds)

    def start(self, code: Any, holder: str) -> None:
        self.call("start", code=code)

    def moves(self, code: str, after: int = 0) -> list[tuple[int, int | None, dict[str, Any]]]:
        return [(int(n), seat, action) for n, seat, action in
                self.call("moves", code=code, after=after)]

    def append(self, code: str, n: int, action: Any, *, by: str) -> bool:
        """``RoomStore.append`` through the service (which moves for the caller's own
        login only: ``by`` is not sent)."""
        from mathcards.games.base import encode_action

        return bool(self.call("append", code=code, n=n, action=encode_action(action)))

    def room_state(self, code: str, room: Any = None) -> Any:
        """The room's game after its stored moves (each stored by the service's
        ``RoomStore.append``, so legal), replayed from the room's deal."""
        from mathcards.rooms import replay

        room = self.room(code) if room is None else room
        return replay(room, self.moves(room.code))

    def last_move_at(self, code: str) -> float | None:
        at = self.call("last_move_at", code=code)
        return None if at is None else float(at)

    def touch(self, code: str, seat: int, holder: str) -> None:
        self.call("touch", code=code, seat=seat)

    def replace_gone(self, code: str, seat: int, *, now: float | None = None) -> bool:
        return bool(self.call("replace_gone", code=code, seat=seat))


class HubProgressStore:
    """``ProgressStore``'s methods that a student's pages use, answered by the service."""

    def __init__(self, transport: Callable[..., Any] | None = None) -> None:
        self.call = transport or call

    def record(self, attempt: Any, answer: Any = None) -> Any:
        """An exercise attempt (and the same answer as evidence, ``ProgressStore.record``)."""
        extra = {} if answer is None else {"answer": asdict(answer)}
        self.call("record", attempt=asdict(attempt), **extra)
        return attempt

    def record_answer(self, answer: Any) -> Any:
        """An answer given at a table (``ProgressStore.record_answer``)."""
        self.call("record_answer", answer=asdict(answer))
        return answer

    def record_level(self, change: Any) -> Any:
        """A change of the level of help at a table (``ProgressStore.record_level``)."""
        self.call("record_level", change=asdict(change))
        return change

    def record_game(self, game: Any) -> Any:
        """A game the student finished at a table (``ProgressStore.record_game``)."""
        self.call("record_game", game=asdict(game))
        return game

    def record_solution(self, opened: Any) -> Any:
        """A worked solution opened (``ProgressStore.record_solution``)."""
        self.call("record_solution", opened=asdict(opened))
        return opened

    def answers(self, student: str | None = None, game: str | None = None,
                skill: str | None = None) -> list[Any]:
        """This student's answers (``ProgressStore.answers``; never another student's)."""
        from mathcards.asking import Answer

        return [Answer(**{**a, "numbers": tuple(a["numbers"])})
                for a in self.call("answers", game=game, skill=skill)]

    def attempts_after(self, row: int, *, student: str | None = None,
                       set_id: str | None = None) -> tuple[list[Any], int]:
        from mathcards.exercises.progress import Attempt

        raw, last = self.call("attempts_after", row=row, set_id=set_id)
        return [Attempt(**a) for a in raw], int(last)

    def attempts(self, *, student: str | None = None, set_id: str | None = None,
                 exercise: str | None = None) -> list[Any]:
        found, _ = self.attempts_after(0, set_id=set_id)
        return [a for a in found if exercise is None or a.exercise == exercise]

    def count(self) -> int:
        return len(self.attempts())

    def solutions(self, *, student: str | None = None,
                  set_id: str | None = None) -> list[Any]:
        """This student's opened worked solutions (``ProgressStore.solutions``)."""
        from mathcards.exercises.progress import SolutionOpened

        return [SolutionOpened(**s) for s in self.call("solutions", set_id=set_id)]

    def finished_games(self, student: str | None = None,
                       game: str | None = None) -> list[Any]:
        """This student's finished games (``ProgressStore.finished_games``)."""
        from mathcards.exercises.progress import FinishedGame

        return [FinishedGame(**g) for g in self.call("finished_games", game=game)]

    def close(self) -> None:
        pass


def _assignment_dict(assignment: Any) -> dict[str, Any]:
    return {**asdict(assignment), "opens": assignment.opens.isoformat(),
            "due": assignment.due.isoformat()}


def _assignment_of(raw: dict[str, Any]) -> Any:
    import datetime as dt

    from mathcards.assignments import Assignment

    return Assignment(**{**raw, "opens": dt.date.fromisoformat(raw["opens"]),
                         "due": dt.date.fromisoformat(raw["due"])})


class HubAssignmentStore:
    """``AssignmentStore``'s methods that pages use, answered by the service (issue 38):
    the teacher's assignments are kept there, where every student's server reads its own
    class's. A teacher writes; a student reads only the classes whose list has them."""

    def __init__(self, transport: Callable[..., Any] | None = None) -> None:
        self.call = transport or call

    def close(self) -> None:
        pass

    def __enter__(self) -> HubAssignmentStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        pass

    def add(self, cid: object, kind: str, target: str, *, opens: object, due: object,
            level: str = "", games: int = 0, now: float | None = None,
            names: Sequence[str] | None = None) -> Any:
        """Assign as ``AssignmentStore.add``; the class's names (by default from this
        server's *Your classes*) go with it: the service shows it to those students."""
        import datetime as dt

        from mathcards.assignments import AssignmentError
        from mathcards.classes import find_class

        if names is None:
            found = find_class(cid)
            if found is None:
                raise AssignmentError(f"there is no class {str(cid)[:20]!r}: make it on "
                                      "Your classes first")
            cid, names = found.id, found.names
        day = {k: v.isoformat() if isinstance(v, dt.date) else str(v)[:20]
               for k, v in (("opens", opens), ("due", due))}
        return _assignment_of(self.call("assign", cls=cid, names=list(names), kind=kind,
                                        target=target, level=level, games=games, **day))

    def get(self, aid: object) -> Any:
        raw = self.call("assignment", id=str(aid)[:20])
        return None if raw is None else _assignment_of(raw)

    def for_class(self, cid: object) -> list[Any]:
        return [_assignment_of(a) for a in self.call("assignments", cls=str(cid)[:40])]

    def all(self) -> list[Any]:
        """Every assignment the caller may see: a teacher's all, a student's own classes'."""
        return [_assignment_of(a) for a in self.call("assignments", cls=None)]

    def remove(self, aid: object) -> bool:
        return bool(self.call("unassign", id=str(aid)[:20]))

    def class_list(self, cid: str, names: Sequence[str]) -> bool:
        """A class's list, saved again on the teacher's page, to the service (which shows
        the class's work to those on it); False when the class has no assignment there."""
        return bool(self.call("class_list", cls=cid, names=list(names)))


def assignment_store() -> Any:
    """The assignments: the service's on a hub that has one, else the classes' file."""
    if service_url():
        return HubAssignmentStore()
    from mathcards.assignments import AssignmentStore

    return AssignmentStore()


def room_store() -> Any:
    """The rooms of this place: the service's on a hub that has one, else the local file."""
    if service_url():
        return HubRoomStore()
    from mathcards.rooms import RoomStore

    return RoomStore()


def progress_store() -> Any:
    """Where this student's attempts go: the service on a hub that has one, else SQLite."""
    if service_url():
        return HubProgressStore()
    from mathcards.exercises.progress import ProgressStore

    return ProgressStore()


# --- the service: what it does for one caller ------------------------------------------------


def teacher_rooms(game_name: str, players: int, count: int, *,
                  leave_after: float | None = None,
                  store: Any = None) -> list[str]:
    """``count`` rooms of ``game_name`` for ``players`` each, made ahead by a teacher (no
    host: the first student in a room starts it; counted against no visitor's limit); a
    seat whose student left for ``leave_after`` seconds (10-3600) goes to a bot. Their
    codes, in ``store`` (by default this place's rooms: a hub's service, else the local
    file). Bad values raise a ``MathCardsError`` whose one line says what is accepted."""
    from mathcards.games.registry import find_game, game_specs, make_game
    from mathcards.rooms import TEACHER_ROOMS_MAX, RoomError

    spec = find_game(game_name)
    if spec is None or not spec.rooms:
        names = ", ".join(s.name for s in game_specs() if s.rooms)
        raise RoomError(f"unknown game {game_name!r}: choose one of {names}")
    if not 1 <= count <= TEACHER_ROOMS_MAX:
        raise RoomError(f"make 1 to {TEACHER_ROOMS_MAX} rooms at a time, not {count}")
    if leave_after is not None and not 10 <= leave_after <= 3600:
        raise RoomError("a seat goes to a bot after 10 to 3600 seconds of absence")
    game = make_game(game_name, num_players=players)
    rooms = store or room_store()
    return [str(rooms.create(game, None, replace_after=leave_after)) for _ in range(count)]
