"""Save and resume a table, and deal codes a teacher hands to a class.

A table is saved after every move as the engine's own JSON (seed + settings
+ actions, replay-exact) plus who sits in each seat, in
``mathcards.storage.data_dir()/tables/<game>.json`` (``<game>-<student>.json``
for a named slot: one save per student per game). A save that cannot be
read is moved aside (``<game>.broken-<time>.json``, nothing deleted) and the
page starts a fresh game with a one-line message.

A deal code is game + settings + seed in short text: ``SUMS-3P-7KQ2X`` is
Sums for 3 players, deal ``7KQ2`` and a check letter ``X`` that catches
typing slips. Settings that differ from the defaults come between, e.g.
``STM-2P-TS1-04HKR`` (Suns to Moons, target score 1).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import secrets
import tempfile
import time
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mathcards import storage
from mathcards.errors import MathCardsError, SaveFileError, SettingsError
from mathcards.games.base import Game, State, load_state
from mathcards.games.registry import find_game, game_spec, game_specs, spec_by_code
from mathcards.i18n import _

TABLE_FORMAT = "mathcards-table"
TABLE_VERSION = 1
SEAT_KINDS = ("human", "random", "strong")

# Crockford's base 32: no I, L, O, U, so codes read aloud are not misheard.
_B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_B32_READ = {c: i for i, c in enumerate(_B32)} | {"O": 0, "I": 1, "L": 1}
SEED_DIGITS = 4
_EXAMPLE = "SUMS-3P-7KQ2X"


class DealCodeError(SaveFileError):
    """A deal code that cannot be read; the message says what one looks like."""


# --- deal codes ------------------------------------------------------------
def _b32(n: int, digits: int = SEED_DIGITS) -> str:
    out = ""
    while n:
        n, r = divmod(n, 32)
        out = _B32[r] + out
    return out.rjust(digits, "0")


def _check_letter(body: str) -> str:
    return _B32[zlib.crc32(body.encode("ascii")) % 32]


def _setting_abbreviations(game_cls: type) -> dict[str, str]:
    """Field name -> short letters (initials of its words), unique per game."""
    out: dict[str, str] = {}
    for f in dataclasses.fields(game_cls):
        if f.name == "num_players":
            continue
        words = [w for w in f.name.split("_") if w]
        abbr = "".join(w[0] for w in words).upper()
        if abbr in out.values():
            abbr = "".join(w[:3] for w in words).upper()
        out[f.name] = abbr
    return out


def _encode_value(value: Any) -> str:
    if isinstance(value, bool):
        return "Y" if value else "N"
    if isinstance(value, int) and value >= 0:
        return str(value)
    raise SettingsError(f"setting value {value!r} cannot go in a deal code")


def new_seed() -> int:
    """A fresh deal number that fits in the 4 letters of a deal code."""
    return secrets.randbelow(32**SEED_DIGITS)


def has_private_deal(game: Game) -> bool:
    """Whether ``game``'s hidden cards come from a table's secret (``new_private_seed``),
    not from its seed; the trick games have none: their seed decides every card."""
    return type(game)._private_deal is not Game._private_deal


def new_private_seed() -> int:
    """A table's secret: it shuffles every hidden card the deal code does not decide
    (other hands, the stock, dice). Kept in the save, never shown on a page."""
    return 1 + secrets.randbelow(2**62)


def deal_code(game: Game, seed: int) -> str:
    """The short text that deals ``game`` (its settings) from ``seed``."""
    name = game.name
    parts = [game_spec(name).code, f"{game.num_players}P"]
    abbrs = _setting_abbreviations(type(game))
    defaults = {f.name: f.default for f in dataclasses.fields(type(game))}
    for fname, abbr in abbrs.items():
        value = getattr(game, fname)
        if value != defaults.get(fname) and value is not None:
            parts.append(abbr + _encode_value(value))
    body = "-".join(parts) + "-" + _b32(seed)
    return body + _check_letter(body)


def _bad_code(code: str, why: str) -> DealCodeError:
    shown = code if len(code) <= 40 else code[:37] + "..."
    return DealCodeError(
        _("deal code {code!r} {why}; a deal code looks like {example}").format(
            code=shown, why=why, example=_EXAMPLE)
    )


def read_deal_code(code: Any) -> tuple[Game, int]:
    """The game (with settings) and seed of a deal code; DealCodeError if it is wrong."""
    if not isinstance(code, str):
        raise DealCodeError(_("a deal code is text like {example}, not {kind}").format(
            example=_EXAMPLE, kind=type(code).__name__))
    text = re.sub(r"\s+", "", code).upper()
    if not text:
        raise DealCodeError(_("the deal code is empty; type one like {example}").format(
            example=_EXAMPLE))
    if len(text) > 60 or not re.fullmatch(r"[A-Z0-9-]+", text):
        raise _bad_code(code, _("has characters a deal code never has (only letters, "
                                "digits, -)"))
    parts = text.split("-")
    if len(parts) < 3:
        raise _bad_code(code, _("is too short"))
    spec = spec_by_code(parts[0])
    if spec is None:
        raise _bad_code(code, _("starts with {start!r}, which is not a game ({games})").format(
            start=parts[0], games=", ".join(s.code for s in game_specs())))
    m = re.fullmatch(r"(\d{1,2})P", parts[1])
    if not m:
        raise _bad_code(code, _("has {part!r} where the players go (like 3P)").format(
            part=parts[1]))
    tail = parts[-1]
    if len(tail) < 2 or any(ch not in _B32_READ for ch in tail):
        raise _bad_code(code, _("does not end with a deal number and check letter"))
    digits = "".join(_B32[_B32_READ[ch]] for ch in tail[:-1])
    body = "-".join(parts[:-1]) + "-" + digits
    if _B32[_B32_READ[tail[-1]]] != _check_letter(body):
        raise _bad_code(code, _("has a typing slip (its check letter does not match)"))
    seed = 0
    for ch in digits:
        seed = seed * 32 + _B32_READ[ch]
    game_cls = spec.engine
    abbrs = {v: k for k, v in _setting_abbreviations(game_cls).items()}
    hints = {f.name: f.type for f in dataclasses.fields(game_cls)}
    settings: dict[str, Any] = {"num_players": int(m.group(1))}
    for seg in parts[2:-1]:
        sm = re.fullmatch(r"([A-Z]+?)(\d+|Y|N)", seg)
        if not sm or sm.group(1) not in abbrs:
            raise _bad_code(code, _("has a setting {setting!r} that {game} does not "
                                    "have").format(setting=seg, game=game_cls.title))
        fname, raw = abbrs[sm.group(1)], sm.group(2)
        if raw in ("Y", "N"):
            if "bool" not in str(hints[fname]):
                raise _bad_code(code, _("gives {setting} a yes/no value").format(setting=fname))
            settings[fname] = raw == "Y"
        else:
            settings[fname] = int(raw)
    try:
        game = game_cls(**settings)
    except (SettingsError, TypeError) as exc:
        raise _bad_code(code, _("has settings the rules do not allow ({reason})").format(
            reason=exc)) from None
    return game, seed


# --- the autosave ------------------------------------------------------------
@dataclass(frozen=True)
class SavedTable:
    """A saved table: the replayed state, who sits in each seat, and the points of moves
    played for a seat at "I count" (they do not count for it: kept across a reload, so a
    page reopened never turns them into points that count)."""

    state: State
    seats: tuple[str, ...]
    path: Path
    withheld: Mapping[int, int] = dataclasses.field(default_factory=dict)


def tables_dir() -> Path:
    path = storage.data_dir() / "tables"
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_path(game_name: str, slot: str = "") -> Path:
    if find_game(game_name) is None:
        raise SettingsError(f"unknown game {game_name!r}")
    # a student name (letters, digits, - and _, up to 40) is its own file; anything
    # else is stripped to those characters, so a slot never leaves the tables folder
    safe_slot = re.sub(r"[^a-z0-9_-]", "", slot.lower())[:40]
    return tables_dir() / (f"{game_name}-{safe_slot}.json" if safe_slot else f"{game_name}.json")


def save_table(state: State, seats: tuple[str, ...], slot: str = "",
               withheld: Mapping[int, int] | None = None) -> Path:
    """Write the table (atomically: a crash never leaves half a file); ``withheld``: each
    seat's points that do not count (``SavedTable.withheld``)."""
    path = save_path(state.game.name, slot)
    payload: dict[str, Any] = {
        "format": TABLE_FORMAT,
        "version": TABLE_VERSION,
        "seats": list(seats),
        "saved_at": time.strftime("%Y-%m-%d %H:%M"),
        "game": json.loads(state.to_json()),
    }
    held = {str(seat): n for seat, n in sorted((withheld or {}).items()) if n}
    if held:  # saves from before it have none: nothing held back
        payload["withheld"] = held
    data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    # a temp file of its own in the same folder (two tables saving one slot never
    # share one), flushed to disk, then renamed over the save in one step: a
    # reader sees the old save or the new one, never half of either
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    return path


def _parse(text: str, path: Path, game_name: str) -> SavedTable:
    try:
        data = json.loads(text)
    except ValueError:  # (Python's words on where the text broke help no student)
        raise SaveFileError(_("the saved table's text is damaged")) from None
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise SaveFileError(_("the saved table is not a MathCards table save"))
    seats = data.get("seats")
    game_data = data.get("game")
    if not isinstance(game_data, dict) or game_data.get("game") != game_name:
        raise SaveFileError(_("the saved table is not a {game} game").format(game=game_name))
    state = load_state(json.dumps(game_data))
    if (not isinstance(seats, list) or len(seats) != state.game.num_players
            or any(s not in SEAT_KINDS for s in seats)):
        raise SaveFileError(_("the saved table's seats are damaged"))
    held = data.get("withheld", {})
    players = state.game.num_players
    if not isinstance(held, dict) or any(
            not isinstance(k, str) or k not in {str(i) for i in range(players)}
            or type(v) is not int or not 0 <= v <= 10_000 for k, v in held.items()):
        raise SaveFileError(_("the saved table's held-back points are damaged"))
    return SavedTable(state, tuple(seats), path, {int(k): v for k, v in held.items()})


def load_table(
    game_name: str, slot: str = "", _retries: int = 3
) -> tuple[SavedTable | None, str]:
    """The saved table for a game, or (None, message) when there is none or it is broken.

    A broken save is renamed ``<game>.broken-<time>.json`` (kept, never
    deleted) and the message says so in one line.
    """
    path = save_path(game_name, slot)
    try:
        with open(path, "rb") as f:
            read_id = os.fstat(f.fileno()).st_ino
            raw = f.read()
    except FileNotFoundError:
        return None, ""
    except OSError as exc:
        return None, _("Your saved game could not be read ({reason}); a new game has "
                       "started.").format(reason=exc.strerror or _("unreadable"))
    try:
        return _parse(raw.decode("utf-8", errors="replace"), path, game_name), ""
    except (MathCardsError, RecursionError) as exc:
        kept = _set_aside(path, read_id)
        if kept is None and _retries:  # another table saved this slot meanwhile: read that
            return load_table(game_name, slot, _retries - 1)
        kept = kept or _("left in place")
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if len(first) > 140:
            first = first[:137] + "..."
        return None, _("Your saved game could not be opened ({reason}); it is {kept} and a "
                       "new game has started.").format(reason=first, kept=kept)


def _set_aside(path: Path, read_id: int) -> str | None:
    """Rename the broken save ``<slot>.broken-<time>.json``; the words for the message.

    Only the file that was read is moved: when another table has replaced it
    since (a good save), nothing is moved and None is returned.
    """
    with _slot_lock(path):
        try:
            if os.stat(path).st_ino != read_id:
                return None
        except FileNotFoundError:  # another page set it aside just now
            return _("kept aside")
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.stem}.broken-{stamp}.json")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.stem}.broken-{stamp}-{n}.json")
        try:
            os.replace(path, aside)
            return _("kept as {name}").format(name=aside.name)
        except OSError:
            return _("left in place")


@contextlib.contextmanager
def _slot_lock(path: Path) -> Iterator[None]:
    """Hold the slot's lock file while a broken save is set aside (POSIX; a no-op elsewhere)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path.with_name(f".{path.stem}.lock"), "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def clear_table(game_name: str, slot: str = "") -> None:
    """Forget the autosave (a finished game is not offered for resuming)."""
    path = save_path(game_name, slot)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
