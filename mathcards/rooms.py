"""Rooms: classmates at their own screens play one game.

A room lives in the project's SQLite file in the data folder (the same folder as
saves and progress, so it works wherever the pages' kernels share that folder: one
server, or a JupyterHub whose users share a volume). It holds the game and its
settings, the deal's seeds (secret: never shown on a page), the seats and the
moves, numbered from 1.

- **A seat is held by a page's visitor**, not by a name: the holder is the token
  of the browser (or hub login) behind the page (``mathcards.visitors``). A reload
  from the same browser gets the same seat back; knowing a room code lets a
  classmate take an empty seat, never a held one.
- **Every page keeps its own engine state** and replays the room's moves through
  ``apply``: hidden cards never leave the kernel of their seat's page.
- **Exactly one move per turn, by its own seat**: ``RoomStore.append`` stores a
  move only if it is the room's next move, legal in the room's own game (replayed
  from the stored deal, never the page's), and the sender's seat's (a bot's, or a
  player's out of time, only from the page that moves the bots); anything else is
  refused in one line that names no card. ``(room, move number)`` is the table's
  primary key, so of two moves sent at once for one turn one is stored and the other
  page catches up. A stored move that is not legal (a file from before these checks)
  is set aside with the moves after it, with a note, never replayed.
- **Codes are not guessed**: a visitor who types ``WRONG_CODES`` codes of no room
  within ``WRONG_CODES_WINDOW`` seconds waits before joining, and so does everyone
  behind an address that typed ``WRONG_CODES_PER_ADDRESS`` (a class behind one school
  address shares it). A class's student codes count in the same limit (``try_code``).
- **One visitor cannot fill the file**: making a room replaces the maker's own room
  nobody joined yet, and a visitor (``ROOMS_PER_VISITOR``) or an address
  (``ROOMS_PER_ADDRESS``) makes only so many rooms an hour.
- **The file cleans itself**: ``RoomStore`` sweeps finished and long-idle rooms, at
  most once an hour per process (``KEEP_FOR``), never a room a page still shows, a few
  hundred rooms per write so pages never wait long for the file.
"""

from __future__ import annotations

import json
import logging
import math
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mathcards import saves, storage
from mathcards.bots import BOT_KINDS, Bot
from mathcards.errors import MathCardsError
from mathcards.games.base import Game, State, decode_action, encode_action
from mathcards.games.registry import get_game_class
from mathcards.i18n import N_, _
from mathcards.table_room import RoomSync

ROOMS_ENV = "MATHCARDS_ROOMS"  # the rooms file, when classmates' servers share another place
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I, L, O, 0, 1: read aloud easily
CODE_LENGTH = 5
LEAVE_AFTER = 180.0  # a student's room: a seat whose page is gone this long becomes a bot
# Room codes are not guessable in practice only if guessing is slow: a visitor (a browser,
# a hub login, else a kernel) who has typed WRONG_CODES codes of no room within the last
# WRONG_CODES_WINDOW seconds waits before joining any room it does not hold a seat in
# (about 5 guesses a minute at most: years to find one of a class's rooms among 28 million).
WRONG_CODES = 6
WRONG_CODES_WINDOW = 120.0
# Without its cookie a script is a new visitor at every page load, so wrong codes count per
# client address too, with room for a class behind one school address (30 students who each
# mistype a code or two); a script alone there gets 15 guesses a minute at most.
WRONG_CODES_PER_ADDRESS = 30
# Rooms one visitor (a browser, a hub login) or one address makes in an hour: a class behind
# one address makes 10 to 30 rooms in a lesson, a student a few in a row.
ROOMS_PER_VISITOR = 20
ROOMS_PER_ADDRESS = 120
ROOMS_WINDOW = 3600.0
HERE_WITHIN = 15.0  # a seat whose page touched it this recently is still at its screen
SWEEP_BATCH = 200  # rooms deleted per write transaction by the sweep
# The rooms file is swept by the code that opens it (RoomStore), at most once an hour per
# process: a finished room goes an hour after its last sign of life, any other room after
# KEEP_FOR with none (no move, no page polling it: an open page touches its seat every
# 5 s, so a room a page shows is never swept). A week keeps a teacher's codes made for
# next week's lesson; MATHCARDS_ROOMS_KEEP_DAYS sets another age.
KEEP_FOR = 7 * 86400.0
KEEP_ENV = "MATHCARDS_ROOMS_KEEP_DAYS"
KEEP_FINISHED = 3600.0
SWEEP_EVERY = 3600.0
_SWEPT: dict[str, float] = {}  # rooms file -> when this process last swept it
_SWEPT_LOCK = threading.Lock()

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    private_seed INTEGER NOT NULL,
    host TEXT,
    started REAL,
    created REAL NOT NULL,
    replace_after REAL,
    turn_seconds REAL,            -- the host's turn timer (None: no timer)
    finished REAL,                -- when the game's last move was stored
    address TEXT                  -- the maker's address token (rooms per address)
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- 'open', 'human', 'strong', 'random'
    holder TEXT,                 -- the visitor token of a human seat
    name TEXT NOT NULL DEFAULT '',
    seen REAL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, n)
);
CREATE TABLE IF NOT EXISTS wrong_codes (
    holder TEXT NOT NULL,        -- the visitor token that typed a code of no room
    at REAL NOT NULL,
    address TEXT                 -- its address token (None: not known)
);
CREATE TABLE IF NOT EXISTS set_aside (  -- stored moves that were not legal (old files)
    code TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS wrong_codes_by_holder ON wrong_codes (holder, at);
CREATE INDEX IF NOT EXISTS seats_by_holder ON seats (holder);
"""
# indexes on columns a file from before them gets by ALTER TABLE first
_LATER_INDEXES = """
CREATE INDEX IF NOT EXISTS wrong_codes_by_address ON wrong_codes (address, at);
CREATE INDEX IF NOT EXISTS rooms_by_host ON rooms (host, created);
CREATE INDEX IF NOT EXISTS rooms_by_address ON rooms (address, created);
"""
# the rooms to sweep: a room's last sign of life is its making, its start, its last move
# or the last time a page touched one of its seats
_SWEPT_ROOMS = """
SELECT code FROM (
    SELECT r.code AS code, r.finished AS finished, MAX(
        r.created, COALESCE(r.started, 0),
        COALESCE((SELECT MAX(m.at) FROM moves m WHERE m.code = r.code), 0),
        COALESCE((SELECT MAX(s.seen) FROM seats s WHERE s.code = r.code), 0)) AS life
    FROM rooms r{where})
WHERE life < CASE WHEN finished IS NULL THEN ? ELSE ? END
"""


def _keep_for() -> float:
    """KEEP_FOR, or the days that MATHCARDS_ROOMS_KEEP_DAYS says (a bad value: KEEP_FOR)."""
    try:
        days = float(os.environ.get(KEEP_ENV, ""))
    except ValueError:
        return KEEP_FOR
    return days * 86400.0 if days > 0 else KEEP_FOR


class RoomError(MathCardsError):
    """A room request that cannot be done (the message says why and what to do)."""


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str  # 'open', 'human' or a bot kind
    holder: str | None
    name: str
    seen: float | None


@dataclass(frozen=True)
class Room:
    """What the store knows of a room (seeds included: never put them on a page)."""

    code: str
    game: Game
    seed: int
    private_seed: int
    host: str | None
    started: bool
    seats: tuple[Seat, ...]
    replace_after: float | None
    turn_seconds: float | None = None
    started_at: float | None = None

    def seat_of(self, holder: str) -> int | None:
        return next((s.seat for s in self.seats if s.holder == holder), None)

    def moves_bots(self, holder: str, now: float) -> bool:
        """Whether the page of ``holder`` moves the bots: the lowest seat still here (its
        own page, or one seen within ``HERE_WITHIN`` seconds), so one page, not all."""
        here = [s.seat for s in self.seats if s.kind == "human" and (
            s.holder == holder or (s.seen is not None and now - s.seen < HERE_WITHIN))]
        return bool(here) and self.seat_of(holder) == min(here)

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    def first_state(self) -> State:
        return self.game.new_game(self.seed, private_seed=self.private_seed)


def too_many_codes(wait: int, what: str = "codes") -> str:
    """The one line of a visitor who typed too many wrong codes: how long to wait."""
    return (f"too many wrong {what}: wait {wait} second{'' if wait == 1 else 's'}, "
            "then type the code again")


def normal_code(code: Any) -> str:
    """A room code as typed ("ab c2d") -> "ABC2D"; RoomError when it cannot be one."""
    if not isinstance(code, str):
        raise RoomError(_("type the room code your classmate or teacher gave you"))
    text = "".join(code.split()).upper().replace("-", "")
    if not text:
        raise RoomError(_("type the room code your classmate or teacher gave you"))
    if len(text) != CODE_LENGTH or any(c not in CODE_LETTERS for c in text):
        shown = text if len(text) <= 12 else text[:9] + "..."
        raise RoomError(_("{typed} is not a room code: a room code is {n} letters and "
                          "digits, like K7P2M").format(typed=repr(shown), n=CODE_LENGTH))
    return text


class RoomStore:
    """The rooms of one data folder (one SQLite file; safe for many processes)."""

    def __init__(self, path: Path | str | None = None, *,
                 clock: Callable[[], float] = time.time, keep_for: float | None = None) -> None:
        """The rooms file: ``path``, else ``$MATHCARDS_ROOMS`` (on a JupyterHub, a file on
        the volume the class shares), else ``rooms.sqlite3`` in the data folder.
        ``clock`` tells the time (seconds; tests pass their own); ``keep_for`` is how long
        a room with no sign of life is kept (default: ``KEEP_FOR`` or the environment's)."""
        self.clock = clock
        self.keep_for = _keep_for() if keep_for is None else keep_for
        if path is None:
            configured = os.environ.get(ROOMS_ENV)
            path = Path(configured) if configured else storage.data_dir() / "rooms.sqlite3"
        self.path = Path(path)
        # one connection per page, used by its loop and (outside a kernel) timer threads
        self._lock = threading.RLock()
        self._states: dict[str, State] = {}  # room code -> its game replayed so far
        self.notes: dict[str, str] = {}  # room code -> moves set aside, to say once
        try:
            self._db = storage.open_database(self.path, timeout=10.0)
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._read("PRAGMA table_info(rooms)")}
            if "turn_seconds" not in columns:  # a rooms file from before the turn timer
                self._db.execute("ALTER TABLE rooms ADD COLUMN turn_seconds REAL")
            if "finished" not in columns:  # from before the sweep
                self._db.execute("ALTER TABLE rooms ADD COLUMN finished REAL")
            if "address" not in columns:  # from before rooms per address
                self._db.execute("ALTER TABLE rooms ADD COLUMN address TEXT")
            if "address" not in {row[1] for row in self._read("PRAGMA table_info(wrong_codes)")}:
                self._db.execute("ALTER TABLE wrong_codes ADD COLUMN address TEXT")
            self._db.executescript(_LATER_INDEXES)
        except (sqlite3.Error, OSError) as exc:  # the file's name, never the server's path
            raise RoomError(
                _("the rooms file {name} cannot be used ({problem}); ask your teacher to "
                  "move it aside (a new one is made)").format(name=self.path.name,
                                                               problem=exc)) from None
        self._sweep_now_and_then()

    def _sweep_now_and_then(self) -> None:
        """``sweep``, if this process has not swept this file within ``SWEEP_EVERY`` (pages
        open the file often; a sweep reads every room)."""
        key = str(self.path.resolve())
        now = self.clock()
        with _SWEPT_LOCK:
            last = _SWEPT.get(key)
            if last is not None and now - last < SWEEP_EVERY:
                return
            _SWEPT[key] = now
        with suppress(sqlite3.Error):  # the file busy for 10 s: the next sweep will do it
            self.sweep(now)

    def sweep(self, now: float | None = None) -> list[str]:
        """Delete the rooms that are over and idle (see ``KEEP_FOR``), their seats and
        moves, and wrong codes too old to count; returns the deleted rooms' codes."""
        now = self.clock() if now is None else now
        ages = (now - self.keep_for, now - KEEP_FINISHED)
        # read without the write lock (readers never wait), then delete a batch per write,
        # each batch checked again under the lock (a page may have touched a room meanwhile)
        found = [str(code) for (code,) in self._read(_SWEPT_ROOMS.format(where=""), ages)]
        codes: list[str] = []
        for start in range(0, len(found), SWEEP_BATCH):
            batch = found[start:start + SWEEP_BATCH]
            where = f" WHERE r.code IN ({','.join('?' * len(batch))})"
            with storage.write_transaction(self._db, self._lock) as db:
                gone = [(str(code),) for (code,) in self._read(
                    _SWEPT_ROOMS.format(where=where), (*batch, *ages))]
                for table in ("moves", "seats", "set_aside", "rooms"):
                    db.executemany(f"DELETE FROM {table} WHERE code=?", gone)
            codes += [code for (code,) in gone]
        with storage.write_transaction(self._db, self._lock) as db:
            db.execute("DELETE FROM wrong_codes WHERE at<?", (now - WRONG_CODES_WINDOW,))
        return codes

    def close(self) -> None:
        self._db.close()

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def version(self) -> int:
        """Changes whenever another connection commits (cheap: for polling)."""
        return int(self._read("PRAGMA data_version")[0][0])

    # --- making and joining ------------------------------------------------------
    def create(self, game: Game, host: str | None, *, replace_after: float | None = None,
               seats: Sequence[str] = (), seeds: tuple[int, int] | None = None,
               address: str | None = None) -> str:
        """A new room for ``game``; ``host`` (a visitor token, or None for a room a
        teacher makes) may fill empty seats with bots and start. Returns the code.
        ``seeds`` (the deal's seed and private seed) replays a known deal; by default
        both are new secrets. A host's earlier room that has not started and that no
        classmate joined is replaced; a host makes at most ``ROOMS_PER_VISITOR`` rooms an
        hour and its ``address`` (a token, None: not known) ``ROOMS_PER_ADDRESS``."""
        seed, private_seed = seeds or (secrets.randbelow(2**31), saves.new_private_seed())
        if not saves.has_private_deal(game):  # the trick games: the seed itself is the secret
            private_seed = 0
        kinds = list(seats) or ["open"] * game.num_players
        if len(kinds) != game.num_players or any(
                k not in ("open", *BOT_KINDS) for k in kinds):
            raise RoomError(_("a {game} room has {n} seats, each open or a bot").format(
                game=game.title, n=game.num_players))
        now = self.clock()
        with storage.write_transaction(self._db, self._lock) as db:
            if host is not None:
                self._limit_rooms(db, host, address, now)
            for _try in range(50):
                code = "".join(secrets.choice(CODE_LETTERS) for _i in range(CODE_LENGTH))
                if not self._read("SELECT 1 FROM rooms WHERE code=?", (code,)):
                    break
            else:  # pragma: no cover - 28 million codes
                raise RoomError(_("no free room code: ask your teacher to clear old rooms"))
            db.execute("INSERT INTO rooms (code, game, settings, seed, private_seed, host, "
                       "started, created, replace_after, address) VALUES (?,?,?,?,?,?,?,?,?,?)",
                       (code, game.name, json.dumps(game.settings()), seed, private_seed,
                        host, None, now, replace_after, address))
            db.executemany("INSERT INTO seats (code, seat, kind) VALUES (?,?,?)",
                           [(code, i, k) for i, k in enumerate(kinds)])
        return code

    def _limit_rooms(self, db: sqlite3.Connection, host: str, address: str | None,
                     now: float) -> None:
        """Before ``host`` makes a room (in its write transaction): replace its waiting
        rooms nobody joined, refuse past the hourly limits (see ``create``)."""
        waiting = [(str(code),) for (code,) in self._read(
            "SELECT code FROM rooms r WHERE host=? AND started IS NULL AND NOT EXISTS ("
            "SELECT 1 FROM seats s WHERE s.code = r.code AND s.kind='human' "
            "AND s.holder IS NOT ?)", (host, host))]
        for table in ("seats", "rooms"):
            db.executemany(f"DELETE FROM {table} WHERE code=?", waiting)
        since = now - ROOMS_WINDOW
        made = self._read("SELECT count(*) FROM rooms WHERE host=? AND created>?",
                          (host, since))[0][0]
        if made >= ROOMS_PER_VISITOR:
            raise RoomError(_("you have made {n} rooms in the last hour: play in one of "
                              "them, or join a classmate's room with its code").format(n=made))
        if address is not None and self._read(
                "SELECT count(*) FROM rooms WHERE address=? AND created>?",
                (address, since))[0][0] >= ROOMS_PER_ADDRESS:
            raise RoomError(_("this school has made too many rooms in the last hour: join a "
                              "classmate's room with its code, or ask your teacher for one"))

    def room(self, code: Any) -> Room:
        code = normal_code(code)
        rows = self._read(
            "SELECT game, settings, seed, private_seed, host, started, replace_after, "
            "turn_seconds FROM rooms WHERE code=?", (code,))
        if not rows:
            raise RoomError(_("there is no room {code}: check the code with whoever gave "
                              "it").format(code=code))
        name, settings, seed, private_seed, host, started, replace_after, turn = rows[0]
        game = get_game_class(name)(**json.loads(settings))
        seats = tuple(Seat(*r) for r in self._read(
            "SELECT seat, kind, holder, name, seen FROM seats WHERE code=? ORDER BY seat",
            (code,)))
        return Room(code, game, seed, private_seed, host, started is not None, seats,
                    replace_after, turn, started)

    def join(self, code: Any, holder: str, name: str = "", address: str | None = None) -> int:
        """The seat of ``holder`` in the room: the one it holds (a reload), else the
        first open one. RoomError when the room is full or does not exist, or when
        ``holder`` has typed too many codes of no room lately (``WRONG_CODES``), or its
        ``address`` (a token; None: not known) ``WRONG_CODES_PER_ADDRESS``."""
        code = normal_code(code)
        now = self.clock()
        seat: int | None = None
        with storage.write_transaction(self._db, self._lock) as db:
            held = self.holds_seat(code, holder)
            wait = None if held else self._wrong_codes_wait(holder, now, address)
            if wait is not None:  # the same answer whether the room exists or not
                raise RoomError(too_many_codes(wait, "room codes"))
            if self._read("SELECT 1 FROM rooms WHERE code=?", (code,)):
                room = self.room(code)
                seat = room.seat_of(holder)
                if seat is None:
                    seat = next((s.seat for s in room.seats if s.kind == "open"), None)
                if seat is None:
                    raise RoomError(_("room {code} is full: ask for another room code").format(
                    code=code))
                db.execute("UPDATE seats SET kind='human', holder=?, name=?, seen=? "
                           "WHERE code=? AND seat=?", (holder, name[:40], now, code, seat))
                if room.host is None:  # a teacher's room: the first to join may start it
                    db.execute("UPDATE rooms SET host=? WHERE code=?", (holder, code))
            else:  # counted (committed) before the refusal below
                db.execute("INSERT INTO wrong_codes (holder, at, address) VALUES (?, ?, ?)",
                           (holder, now, address))
        if seat is None:
            raise RoomError(_("there is no room {code}: check the code with whoever gave "
                              "it").format(code=code))
        return seat

    def try_code(self, holder: str, address: str | None, right: Callable[[], bool], *,
                 what: str = "codes") -> bool:
        """Whether a code typed somewhere else (a class's student code) is right, counted
        with the wrong room codes: one limit for every code a visitor or an address types.
        RoomError when ``holder`` or its ``address`` typed too many wrong codes lately,
        before ``right()`` is asked (the refusal tells nothing about the code); a wrong
        code (``right()`` False) is counted before False is returned."""
        now = self.clock()
        with storage.write_transaction(self._db, self._lock) as db:
            wait = self._wrong_codes_wait(holder, now, address)
            if wait is not None:
                raise RoomError(too_many_codes(wait, what))
            ok = bool(right())
            if not ok:
                db.execute("INSERT INTO wrong_codes (holder, at, address) VALUES (?, ?, ?)",
                           (holder, now, address))
        return ok

    def holds_seat(self, code: Any, holder: str) -> bool:
        """Whether ``holder`` holds a seat in room ``code`` (False, too, when there is no
        such room: this tells a visitor nothing about other people's codes)."""
        return bool(self._read("SELECT 1 FROM seats WHERE code=? AND holder=?",
                               (normal_code(code), holder)))

    def _wrong_codes_wait(self, holder: str, now: float, address: str | None = None
                          ) -> int | None:
        """Seconds ``holder`` (at ``address``) must wait before trying a code again (None:
        no wait): ``WRONG_CODES`` of its own, or ``WRONG_CODES_PER_ADDRESS`` from its
        address, within ``WRONG_CODES_WINDOW``."""
        waits = []
        for column, who, limit in (("holder", holder, WRONG_CODES),
                                   ("address", address, WRONG_CODES_PER_ADDRESS)):
            if who is None:
                continue
            rows = self._read(f"SELECT at FROM wrong_codes WHERE {column}=? AND at>? "
                              "ORDER BY at DESC LIMIT ?", (who, now - WRONG_CODES_WINDOW, limit))
            if len(rows) >= limit:
                waits.append(max(1, math.ceil(float(rows[-1][0]) + WRONG_CODES_WINDOW - now)))
        return max(waits) if waits else None

    def held_room(self, holder: str, game_name: str, within: float = 12 * 3600.0
                  ) -> str | None:
        """The latest started room of ``game_name`` where ``holder`` holds a seat and whose
        game is not over (a page reopened by the same browser goes back to it)."""
        rows = self._read(
            "SELECT rooms.code FROM rooms JOIN seats ON seats.code = rooms.code "
            "WHERE seats.holder=? AND rooms.game=? AND rooms.started IS NOT NULL "
            "AND rooms.created>? ORDER BY rooms.created DESC LIMIT 3",
            (holder, game_name, self.clock() - within))
        for (code,) in rows:
            room = self.room(code)
            if not replay(room, self.moves(code)).is_over:
                return str(code)
        return None

    def fill_with_bots(self, code: Any, holder: str, kind: str = "strong") -> None:
        if kind not in BOT_KINDS:
            raise RoomError(_("bots are {kinds}, not {kind}").format(
                kinds=_(" or ").join(BOT_KINDS), kind=repr(kind)))
        code = normal_code(code)
        with storage.write_transaction(self._db, self._lock) as db:
            room = self._host_only(code, holder, N_(
                "only the player who made room {code} can fill seats with bots"))
            if room.started:
                raise RoomError(_("the game has started: seats are filled"))
            db.execute("UPDATE seats SET kind=? WHERE code=? AND kind='open'", (kind, code))

    def set_turn_timer(self, code: Any, holder: str, seconds: float | None) -> None:
        """The host's turn timer: a player who has not moved ``seconds`` after their
        turn began gets a bot's move played for them (None: no timer)."""
        if seconds is not None and not 10 <= seconds <= 600:
            raise RoomError(_("a turn timer is 10 to 600 seconds, or off"))
        code = normal_code(code)
        with storage.write_transaction(self._db, self._lock) as db:
            room = self._host_only(code, holder, N_(
                "only the player who made room {code} can set the turn timer"))
            if room.started:
                raise RoomError(_("the game has started: set the timer before starting"))
            db.execute("UPDATE rooms SET turn_seconds=? WHERE code=?", (seconds, code))

    def last_move_at(self, code: str) -> float | None:
        rows = self._read("SELECT MAX(at) FROM moves WHERE code=?", (code,))
        return rows[0][0] if rows and rows[0][0] is not None else None

    def start(self, code: Any, holder: str) -> None:
        code = normal_code(code)
        with storage.write_transaction(self._db, self._lock) as db:
            room = self._host_only(code, holder, N_(
                "only the player who made room {code} can start the game"))
            if room.open_seats:
                raise RoomError(_("{n} seat(s) are still open: wait for classmates or fill "
                                  "them with bots").format(n=room.open_seats))
            if not room.started:
                db.execute("UPDATE rooms SET started=? WHERE code=?", (self.clock(), code))

    def _host_only(self, code: str, holder: str, refused: str) -> Room:
        """The room, when ``holder`` made it; else ``refused`` (a marked sentence with
        {code}) in the page's language."""
        room = self.room(code)
        if room.host != holder:
            raise RoomError(_(refused).format(code=code))
        return room

    # --- moves ----------------------------------------------------------------------
    def moves(self, code: str, after: int = 0) -> list[tuple[int, int | None, dict[str, Any]]]:
        """The room's moves numbered above ``after``: (number, seat, action as JSON)."""
        return [(n, seat, json.loads(action)) for n, seat, action in self._read(
            "SELECT n, seat, action FROM moves WHERE code=? AND n>? ORDER BY n",
            (code, after))]

    def append(self, code: str, n: int, action: Any, *, by: str) -> bool:
        """Store ``action`` as move ``n`` of the room, sent by the page of ``by`` (a
        visitor token); False when move ``n`` is already stored (another page was first).
        RoomError (one line, naming no card) unless ``n`` is the room's next move and
        ``action`` is legal in the room's own game and the seat to move is ``by``'s own,
        or a bot's (or a player's out of time) and ``by``'s page moves the bots."""
        now = self.clock()
        try:  # a refusal commits too: a move set aside while replaying stays aside
            with storage.write_transaction(self._db, self._lock) as db:
                room = self.room(code)
                state = self._replayed(room, db)
                problem = self._refusal(room, state, n, action, by, now)
                if problem is None and n > len(state.history):
                    after = state.apply(action)
                    db.execute("INSERT INTO moves VALUES (?,?,?,?,?)",
                               (room.code, n, state.current_player,
                                json.dumps(encode_action(action)), now))
                    if after.is_over:  # swept an hour after its last sign of life
                        db.execute("UPDATE rooms SET finished=? WHERE code=?", (now, room.code))
                    self._states[room.code] = after
        except sqlite3.IntegrityError:
            return False
        if problem is not None:
            raise RoomError(problem)
        return n > len(state.history)

    def _refusal(self, room: Room, state: State, n: int, action: Any, by: str,
                 now: float) -> str | None:
        """Why ``append`` refuses (None: it stores, or move ``n`` is already there)."""
        if not room.started:
            return f"room {room.code} has not started: no move is stored"
        if n <= len(state.history):
            return None  # another page was first
        p = state.current_player
        if n != len(state.history) + 1 or p is None:
            where = "its game is over" if p is None else f"it is at move {len(state.history)}"
            return (f"that is not the next move of room {room.code} ({where}): the table "
                    "shows the room's game again")
        seat = room.seats[p]
        mine = seat.kind == "human" and seat.holder == by
        for_others = room.moves_bots(by, now) and (
            seat.kind in BOT_KINDS or self._out_of_time(room, now))
        if not (mine or for_others):
            return (f"it is not your seat's turn in room {room.code}: only seat {p + 1}'s "
                    "player moves now")
        if not state.is_legal(action):
            from mathcards.explain import refusal_words

            return (f"that move is not allowed now in room {room.code}: "
                    f"{refusal_words(state, action)}")
        return None

    def _out_of_time(self, room: Room, now: float) -> bool:
        """The player to move has had the room's turn timer's time and more."""
        if not room.turn_seconds:
            return False
        began = self.last_move_at(room.code) or room.started_at or now
        return now - began >= room.turn_seconds

    def room_state(self, code: str, room: Room | None = None) -> State:
        """The room's game after its stored moves, replayed from the room's deal (each
        store keeps it: only new moves are applied; ``room``: just read). A stored move
        that is not legal is set aside with every move after it (``notes`` says so)."""
        return self._replayed(self.room(code) if room is None else room, None)

    def _replayed(self, room: Room, db: sqlite3.Connection | None) -> State:
        """``room_state`` (``db``: inside the caller's write transaction)."""
        state = self._states.get(room.code)
        if state is None or (state.seed, state.private_seed, state.game) != (
                room.seed, room.private_seed, room.game) or len(state.history) > (
                self._read("SELECT COALESCE(MAX(n), 0) FROM moves WHERE code=?",
                           (room.code,))[0][0]):
            state = room.first_state()
        bad: tuple[int, Any] | None = None
        for n, _seat, raw in self.moves(room.code, len(state.history)):
            try:
                if n != len(state.history) + 1:
                    raise RoomError("a move is missing")
                state = state.apply(decode_action(room.game, raw, where=f"move {n}"))
            except MathCardsError:  # never its words: they may name a hand
                bad = (n, raw)
                break
        if bad is not None:
            self._set_aside(room.code, *bad, db)
        self._states[room.code] = state
        return state

    def _set_aside(self, code: str, n: int, raw: Any, db: sqlite3.Connection | None) -> None:
        """Move ``n`` of room ``code`` (``raw``, not legal) and the moves after it out of the
        game (unless another page did it first and a legal move ``n`` is stored now)."""
        def move(db: sqlite3.Connection) -> None:
            now = db.execute("SELECT action FROM moves WHERE code=? AND n=?", (code, n))
            if [json.loads(a) for (a,) in now.fetchall()] != [raw]:
                return
            db.execute("INSERT INTO set_aside SELECT code, n, seat, action, at FROM moves "
                       "WHERE code=? AND n>=?", (code, n))
            db.execute("DELETE FROM moves WHERE code=? AND n>=?", (code, n))
        if db is not None:
            move(db)
        else:
            with storage.write_transaction(self._db, self._lock) as tx:
                move(tx)
        logging.getLogger(__name__).warning("room %s: move %d was not legal; set aside", code, n)
        self.notes[code] = (f"Move {n} stored in room {code} was not a legal move, so it was "
                            f"set aside: the game goes on after move {n - 1}.")

    def touch(self, code: str, seat: int, holder: str) -> None:
        """A sign of life from the page holding ``seat``."""
        with storage.write_transaction(self._db, self._lock) as db:
            db.execute("UPDATE seats SET seen=? WHERE code=? AND seat=? AND holder=?",
                       (self.clock(), code, seat, holder))

    def replace_gone(self, code: str, seat: int, *, now: float | None = None) -> bool:
        """Hand a seat whose page has been gone longer than the room's time to a bot."""
        now = self.clock() if now is None else now
        with storage.write_transaction(self._db, self._lock) as db:
            room = self.room(code)
            limit = room.replace_after
            s = room.seats[seat]
            if limit is None or s.kind != "human" or s.seen is None or now - s.seen < limit:
                return False
            db.execute("UPDATE seats SET kind='strong', holder=NULL WHERE code=? AND seat=?",
                       (code, seat))
        return True


def replay(room: Room, moves: Sequence[tuple[int, int | None, dict[str, Any]]],
           state: State | None = None) -> State:
    """``state`` (default: the deal) with ``moves`` applied in order, up to the first
    that is not the next legal move (``RoomStore.room_state`` sets such a move aside)."""
    state = room.first_state() if state is None else state
    for n, _seat, raw in moves:
        if n <= len(state.history):
            continue  # already applied
        if n != len(state.history) + 1:
            break
        try:
            state = state.apply(decode_action(room.game, raw, where=f"move {n}"))
        except MathCardsError:
            break
    return state


class RoomLink:
    """A table controller playing one seat of a room.

    ``join`` takes this page's seat (or gets it back after a reload); once the room
    has started, the controller is dealt the room's game with this seat as its
    person, classmates as remote seats and bots as bots. ``poll`` (called on the
    page's loop, see ``start_polling``) brings the other screens' moves: a cheap check
    of the file's version (about 8 microseconds), then only the new moves. It runs every
    ``waiting_interval`` seconds while the game waits for another screen's move (the
    time a move takes to reach this screen is mostly this wait), every ``interval``
    seconds otherwise (the lobby, this page's own turn, a game over). This page's own
    moves are stored in the room before they are shown.
    """

    def __init__(self, ctl: Any, store: RoomStore, code: Any, holder: str, *,
                 name: str = "", interval: float = 0.15, waiting_interval: float = 0.05,
                 address: str | None = None) -> None:
        self.ctl = ctl
        self.store = store
        self.holder = holder
        self.interval = interval
        self.waiting_interval = min(waiting_interval, interval)
        self.code = normal_code(code)
        self.seat = store.join(self.code, holder, name, address)
        self.room = store.room(self.code)
        self._version = -1
        self._seen = 0.0
        self.closed = False
        self.playing = False
        self._sync_room()

    # --- the lobby ---------------------------------------------------------------
    @property
    def is_host(self) -> bool:
        return self.room.host == self.holder

    def lobby_line(self) -> str:
        taken = sum(1 for s in self.room.seats if s.kind == "human")
        open_ = self.room.open_seats
        you = _("You are seat {seat} of room {code}.").format(seat=self.seat + 1,
                                                              code=self.code)
        if self.room.started:
            return you + " " + _("The game has started.")
        if open_:
            here = _("{here} classmate(s) here, {open} seat(s) open.").format(here=taken,
                                                                               open=open_)
            wait = (_("Fill the open seats with bots, or wait for classmates to join with "
                      "the code {code}.") if self.is_host else
                    _("Waiting for classmates to join with the code {code}."))
            return f"{you} {here} {wait.format(code=self.code)}"
        return you + " " + (_("Every seat is taken: start the game.") if self.is_host
                            else _("Every seat is taken: waiting for the host to start."))

    def fill_with_bots(self, kind: str = "strong") -> None:
        self.store.fill_with_bots(self.code, self.holder, kind)
        self._sync_room()

    def start(self) -> None:
        self.store.start(self.code, self.holder)
        self._sync_room()

    # --- playing -------------------------------------------------------------------
    def _mine(self, s: Seat) -> bool:
        """This page's seat, still held by its visitor (not handed to a bot)."""
        return s.seat == self.seat and s.holder == self.holder

    def _names(self) -> tuple[str, ...]:
        out = []
        for s in self.room.seats:
            if self._mine(s):
                out.append(f"{s.name or f'Player {s.seat + 1}'} (you)")
            elif s.kind == "human":
                out.append(s.name or f"Player {s.seat + 1}")
            else:
                out.append(f"Player {s.seat + 1} (bot)")
        return tuple(out)

    def _kinds(self) -> tuple[str, ...]:
        from mathcards.table import REMOTE

        return tuple("human" if self._mine(s) else
                     REMOTE if s.kind == "human" else s.kind for s in self.room.seats)

    def _begin(self) -> None:
        """The room has started: deal its game to the controller, replaying its moves."""
        state = self.store.room_state(self.code, self.room)
        ctl = self.ctl
        ctl.saved_offer = None  # a saved solo game is not resumed over a room's table
        ctl.save_enabled = False
        ctl.join_room(RoomSync(self.code, self._names(), self._runs_bots, self._publish))
        ctl.start(state.game, self._kinds(), state.seed, state=state)
        ctl.deal_code = ""
        self.playing = True

    def _runs_bots(self) -> bool:
        """The page of the first seat still here moves the bots (one page, not all)."""
        return self.room.moves_bots(self.holder, self.store.clock())

    def _publish(self, state: State, action: Any) -> bool:
        """Store this table's move in the room first (RoomError: refused, in one line)."""
        room = self.room
        if (state.seed, state.private_seed, state.game) != (
                room.seed, room.private_seed, room.game):  # never a move of another game
            raise RoomError(f"this table's game is not room {self.code}'s: reload the page "
                            "to get your seat back")
        try:
            stored = self.store.append(self.code, len(state.history) + 1, action,
                                       by=self.holder)
        except RoomError:
            if state.current_player == self.seat:
                raise  # this page's player's own move: they read why
            stored = False  # a bot's move another page moves now: it comes by the room
        if stored:
            return True
        self.poll(force=True)
        return False

    def _sync_room(self) -> None:
        self.room = self.store.room(self.code)
        if self.room.started and not self.playing:
            self._begin()
        elif self.playing:
            kinds = self._kinds()
            lost = self.ctl.seats[self.seat] == "human" and kinds[self.seat] != "human"
            self.ctl.room.seat_labels = self._names()
            for i, kind in enumerate(kinds):
                if self.ctl.seats[i] != kind:
                    self.ctl.set_seat(i, kind)
            if lost:  # this page was gone too long (its kernel stalled): a bot has the seat
                self.ctl.say("This page was away too long, so a bot plays your seat now: make "
                             "or join another room to play again.")

    def poll(self, *, force: bool = False) -> bool:
        """Bring the room's news (seats, moves) to this page; True when something came."""
        if self.closed:
            return False
        now = self.store.clock()
        if now - self._seen > 5.0:  # a sign of life for the others (and for reloads)
            self._seen = now
            self.store.touch(self.code, self.seat, self.holder)
            self._replace_gone(now)
        if self.playing and self.room.turn_seconds:
            self.check_timer(now)
        version = self.store.version()
        if version == self._version and not force:
            return False
        self._version = version
        with self.ctl.lock:
            self._sync_room()
            if not self.playing:
                self.ctl._notify("table")
                return True
            room_state = self.store.room_state(self.code, self.room)
            note = self.store.notes.pop(self.code, "")
            done = len(self.ctl.state.history)
            if done > len(room_state.history):  # moves set aside this table had shown
                self.playing = False
                self._begin()
                came = True
            else:
                came = False
                for action in room_state.actions[done:]:  # legal: the room replayed them
                    self.ctl.apply_remote(action)
                    came = True
            if note:
                self.ctl.say(note)
            self.ctl.schedule_bot()
        return came

    def check_timer(self, now: float) -> bool:
        """The turn timer (the page that moves the bots keeps it): a player whose turn has
        lasted longer than the room's timer gets a strong bot's move played for them."""
        limit = self.room.turn_seconds
        state = self.ctl.state
        p = state.current_player
        if not limit or p is None or not self._runs_bots() or self.ctl.seats[p] in BOT_KINDS:
            return False
        began = self.store.last_move_at(self.code) or self.room.started_at or now
        if now - began < limit:
            return False
        action = Bot(self.room.game.name, "strong", seed=len(state.history)).choose(state)
        try:
            stored = self.store.append(self.code, len(state.history) + 1, action,
                                       by=self.holder)
        except RoomError:  # the player moved meanwhile, or another page keeps the timer
            stored = False
        self.poll(force=True)
        if stored:
            self.ctl.say(f"Time was up for {self.ctl.seat_names[p]}: a bot played for them.")
        return True

    def _replace_gone(self, now: float) -> None:
        if not self.playing or self.room.replace_after is None:
            return
        p = self.ctl.state.current_player
        if p is not None and p != self.seat and self.store.replace_gone(self.code, p, now=now):
            self._version = -1  # the seat is a bot now: read it on this poll

    def waiting_for_another_screen(self) -> bool:
        """The room's game waits for a move that another page stores (a classmate's, or
        a bot's that another page moves): the moment to poll often."""
        if not self.playing:
            return False
        p = self.ctl.state.current_player
        if p is None or p == self.seat:
            return False
        from mathcards.table import REMOTE

        kind = self.ctl.seats[p] if p < len(self.ctl.seats) else REMOTE
        return kind == REMOTE or not self._runs_bots()

    def next_interval(self) -> float:
        return self.waiting_interval if self.waiting_for_another_screen() else self.interval

    def start_polling(self, schedule: Any = None) -> None:
        """Poll on the page's loop until ``close``: every ``waiting_interval`` seconds while
        another screen's move is awaited, every ``interval`` seconds otherwise."""
        from mathcards.table import schedule_later

        later = schedule or schedule_later

        def tick() -> None:
            if self.closed:
                return
            wait = self.interval  # after a failed poll: the usual pace
            try:
                self.poll()
                wait = self.next_interval()
            except (sqlite3.Error, RoomError) as exc:
                self.ctl.say(f"The room could not be read ({exc}); retrying.", refused=True)
            except MathCardsError:  # never an engine's words: they may name a seat's hand
                logging.getLogger(__name__).exception("room %s: reading it failed", self.code)
                self.ctl.say("The room could not be read; retrying. If this stays, reload the "
                             "page: your seat and hand come back.", refused=True)
            except Exception:  # a bug must not stop this page's room for good, unsaid
                logging.getLogger(__name__).exception("room %s: reading it failed", self.code)
                self.ctl.say("The room could not be read; retrying. If this stays, reload the "
                             "page: your seat and hand come back.", refused=True)
            later(wait, tick)

        later(self.interval, tick)

    def close(self) -> None:
        self.closed = True


TEACHER_ROOMS_MAX = 100
