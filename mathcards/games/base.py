"""The one game protocol all five games follow.

A ``Game`` holds validated settings and makes the first ``State`` of a deal
from a seed. A ``State`` is a value (a frozen dataclass): ``apply`` returns a
new state and never changes the old one, so undo is "keep the previous
state" and a seed plus the list of actions replays any game exactly (the
basis of saves, deal codes and "open this student's game").

Legal actions are the single source of truth: ``apply`` refuses anything not
in ``legal_actions()`` with an ``IllegalActionError`` that names the rule.
Chance (shuffles, dice) comes from ``rng()``, seeded by the game's seed and
the number of actions so far, so replay needs nothing but the action list.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import types
import typing
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from typing_extensions import Self, TypeVar

from mathcards.cards import Card, parse_card
from mathcards.errors import (
    CardParseError,
    IllegalActionError,
    MathCardsError,
    SaveFileError,
    SettingsError,
)
from mathcards.i18n import _

if TYPE_CHECKING:  # the type checker knows functools' version; both read the same
    from functools import cached_property

    cached = cached_property
else:
    class cached:
        """A value worked out on first use and kept on the instance (for states: the legal
        moves, the options of a turn). Like ``functools.cached_property`` without its lock
        (Python 3.11 takes one on every first use: about 5% of a bot playout); a state is
        a value, so two threads working one out at once get equal values."""

        def __init__(self, func):
            self.func = func
            self.attrname = func.__name__
            self.__doc__ = func.__doc__

        def __set_name__(self, owner, name):
            self.attrname = name

        def __get__(self, instance, owner=None):
            if instance is None:
                return self
            value = instance.__dict__[self.attrname] = self.func(instance)
            return value


SAVE_FORMAT = "mathcards-game"
# Version 2 names each action by its game's explicit, stable name ("play",
# "end-turn"); version 1 (the first release) named it by its Python class name.
# Both are read; version 2 is written.
SAVE_VERSION = 2
READ_VERSIONS = (1, 2)

# an action class -> its stable save name (filled by Game.__init_subclass__)
_SAVE_NAMES: dict[type, str] = {}


def number(n: int) -> str:
    """A number as printed for students, with a true minus sign: ``−14``."""
    return f"−{-n}" if n < 0 else str(n)


def plural(count: int, word: str, many: str = "") -> str:
    """``1 card``, ``2 cards`` (``many`` when the plural is not word + s)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``21st``: a place in words, in the
    page's language (Spanish ``1.º``, ``2.º``)."""
    suffix = 0 if 10 <= n % 100 <= 20 else n % 10
    if suffix == 1:
        return _("{n}st").format(n=n)
    if suffix == 2:
        return _("{n}nd").format(n=n)
    if suffix == 3:
        return _("{n}rd").format(n=n)
    return _("{n}th").format(n=n)


def seat_name(names: Sequence[str], seat: int | None) -> str:
    """What to call ``seat`` in a sentence: its name at the table, else "Player N";
    "nobody" for no seat (an event no player caused)."""
    if seat is None:
        return _("nobody")
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return _("Player {n}").format(n=seat + 1)


def possessive(names: Sequence[str], seat: int | None, *, start: bool = False) -> str:
    """Whose, in a sentence: ``Ana's``, ``Player 2's``; the seat of the person at this
    screen (named "... (you)") is ``your`` (``Your`` at the ``start`` of a sentence), and a
    label in brackets is left out ("Player 2 (bot)" is ``Player 2's``), never "(you)'s"."""
    name = seat_name(names, seat)
    if name.endswith("(you)"):
        return "Your" if start else "your"
    if name.endswith(")") and " (" in name:
        name = name[: name.rindex(" (")]
    return f"{name}'s"


class History:
    """A persistent list: ``push`` is O(1) and shares the older items.

    States keep their actions and events in one, so a long game does not copy
    its whole past on every move.
    """

    __slots__ = ("item", "length", "prev")

    def __init__(self, item: Any = None, prev: History | None = None) -> None:
        self.item = item
        self.prev = prev
        self.length: int = 0 if prev is None else prev.length + 1

    def push(self, item: Any) -> History:
        return History(item, self)

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[Any]:
        items: list[Any] = []
        node: History | None = self
        while node is not None and node.prev is not None:
            items.append(node.item)
            node = node.prev
        items.reverse()
        return iter(items)

    @property
    def last(self) -> Any:
        return self.item if self.prev is not None else None

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, History) or self.length != other.length:
            return False
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History(len={self.length})"


EMPTY = History()


@dataclass(frozen=True)
class Event:
    """Something that happened, for the explainer, the move list and the UI.

    Each game defines its own event classes; ``describe()`` gives one plain
    sentence for the move history.
    """

    player: int | None

    def describe(self, names: Sequence[str] = ()) -> str:
        """One plain sentence; ``names`` are the seats' names at the table (else
        "Player N", see ``seat_name``)."""
        return type(self).__name__

    def who(self, names: Sequence[str] = ()) -> str:
        """The name of the seat that acted, for ``describe`` (see ``seat_name``)."""
        return seat_name(names, self.player)


@dataclass(frozen=True)
class Game:
    """A game with its settings. Subclasses are frozen dataclasses whose fields
    are the settings; ``__post_init__`` validates them (``SettingsError``)."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    move_example: ClassVar[str] = ""  # a typed move in this game's notation ("7H -")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    # every action of the game under its stable save name ({"play": Play, ...});
    # renaming a class never changes a name here, so saves and deal codes keep working
    actions: ClassVar[Mapping[str, type]] = {}
    # the names version-1 saves used (the classes' names then) -> today's save names
    v1_actions: ClassVar[Mapping[str, str]] = {}
    action_types: ClassVar[tuple[type, ...]] = ()  # derived from ``actions``

    num_players: int = 2

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "actions" in vars(cls):
            cls.action_types = tuple(cls.actions.values())
            for name, action_cls in cls.actions.items():
                if not re.fullmatch(r"[a-z][a-z-]*", name):
                    raise TypeError(f"{cls.__name__}: action name {name!r} is not lower-case")
                _SAVE_NAMES[action_cls] = name
            unknown = set(cls.v1_actions.values()) - set(cls.actions)
            if unknown:
                raise TypeError(f"{cls.__name__}.v1_actions names unknown actions {unknown}")

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int):
            raise SettingsError(f"num_players must be a whole number, not {n!r}")
        if not self.min_players <= n <= self.max_players:
            raise SettingsError(
                f"{self.title or self.name} is for {self.min_players}-{self.max_players} "
                f"players, not {n}: choose a player count in that range"
            )

    def new_game(self, seed: int = 0, *, private_seed: int = 0,
                 known_seat: int | None = None) -> State:
        """The first state of a deal; the same seeds always give the same deal.

        ``seed`` alone decides the whole deal (lessons, tests, bug reports). A table
        that shows its seed as a deal code also passes a secret ``private_seed``:
        then the seed decides only what is public at the start (face-up cards, the
        first-player rolls) and the hand of ``known_seat`` (the one person at the
        table, or None), while every other hidden card (other hands, the stock,
        piles) and every later chance step (dice, reshuffles, new rounds) comes from
        the private seed. Knowing the code then reveals no hidden card, and a
        teacher's code still gives every student the same start and the same hand.
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SettingsError(f"seed must be a whole number 0 or more, not {seed!r}")
        if isinstance(private_seed, bool) or not isinstance(private_seed, int) or private_seed < 0:
            raise SettingsError(
                f"private_seed must be a whole number 0 or more, not {private_seed!r}")
        if known_seat is not None and (
                isinstance(known_seat, bool) or not isinstance(known_seat, int)
                or not 0 <= known_seat < self.num_players):
            raise SettingsError(
                f"known_seat must be a seat from 0 to {self.num_players - 1} or None, "
                f"not {known_seat!r}")
        state = self._new_game(seed)
        if not private_seed:
            return state
        rng = random.Random(f"mathcards-deal:{seed}:{private_seed}:{known_seat}")
        changes = self._private_deal(state, rng, known_seat)
        changes.update(private_seed=private_seed, known_seat=known_seat)
        return dataclasses.replace(state, **changes)

    def _new_game(self, seed: int) -> State:  # pragma: no cover - abstract
        raise NotImplementedError

    def _private_deal(self, state: State, rng: random.Random,
                      known_seat: int | None) -> dict[str, Any]:
        """The fields of ``state`` with every hidden card outside ``known_seat``'s hand
        shuffled by ``rng`` (zone sizes kept). Games with a table override this."""
        raise SettingsError(f"{self.title or self.name} has no private deals")

    def settings(self) -> dict[str, Any]:
        """The settings as plain JSON values (what saves and deal codes store)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def deck(self) -> tuple[Card, ...]:
        """Every card this game uses (what conservation checks count)."""
        raise NotImplementedError


def rng_for(seed: int, step: int) -> random.Random:
    """The random source of one chance step: step 0 is the deal, step k the k-th action."""
    return random.Random((seed << 24) + step)


def reshuffle(rng: random.Random, zones: Sequence[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """The cards of ``zones`` shuffled together and dealt back, each zone keeping its size."""
    pool = [card for zone in zones for card in zone]
    rng.shuffle(pool)
    out, start = [], 0
    for zone in zones:
        out.append(tuple(pool[start:start + len(zone)]))
        start += len(zone)
    return out


GameT = TypeVar("GameT", bound=Game, default=Game, covariant=True)
# a game's actions: the union of its action classes (``SumsAction = Draw | Play | ...``)
ActionT = TypeVar("ActionT", default=Any)


@dataclass(frozen=True)
class State(Generic[GameT, ActionT]):
    """A position of a game. Subclasses add their own fields (hands, piles...) and name
    their game's class and its actions: ``class SumsState(State[Sums, SumsAction])``, so
    ``state.game.piles`` is typed, ``legal_actions()`` gives ``SumsAction``s and
    ``apply`` takes only one (mypy refuses another game's action). What comes from outside
    (a page, a save) is checked at run time: ``is_legal`` and ``why_illegal`` take anything."""

    game: GameT
    seed: int
    history: History = field(default=EMPTY, repr=False)
    log: History = field(default=EMPTY, repr=False, compare=False)
    # a table's secret (see Game.new_game): never shown on a page, kept in saves
    private_seed: int = field(default=0, repr=False)
    known_seat: int | None = field(default=None, repr=False)

    # --- what subclasses provide ----------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _legal_actions(self) -> Collection[ActionT]:
        raise NotImplementedError

    def _apply(self, action: ActionT) -> tuple[dict[str, Any], Iterable[Event]]:
        """The changed fields and the events of a legal action."""
        raise NotImplementedError

    def observation(self, player: int) -> Any:
        """Only what ``player`` may see."""
        raise NotImplementedError

    def all_cards(self) -> Iterable[Card]:
        """Every card in every zone (hands, stock, piles, table...)."""
        raise NotImplementedError

    def why_illegal(self, action: Any) -> str:
        """The rule that refuses ``action`` here, in words. Games override this
        to name the rule; it is called only for actions that are not legal."""
        return _("it is not one of the moves allowed now")

    # --- the protocol ----------------------------------------------------
    @cached
    def _legal(self) -> Collection[ActionT]:
        if self.is_over:
            return ()
        return self._legal_actions()

    def legal_actions(self) -> Collection[ActionT]:
        """Every action allowed now (empty when the game is over)."""
        return self._legal

    def is_legal(self, action: Any) -> bool:
        try:
            return action in self._legal
        except TypeError:  # unhashable junk from outside
            return False

    def reason_refused(self, action: Any) -> str:
        """Why ``action``, not legal now, is refused: the game is over, it is not a move of
        this game, or the rule (``why_illegal``). The one wording of every refusal."""
        if self.is_over:
            return _("the game is over")
        if not isinstance(action, self.game.action_types):
            return _("it is not a {game} move").format(game=self.game.title)
        return self.why_illegal(action)

    def check_legal(self, action: Any) -> None:
        """Raise ``IllegalActionError`` with ``reason_refused`` unless ``action`` is legal now."""
        if not self.is_legal(action):
            reason = self.reason_refused(action)
            raise IllegalActionError(f"{describe_action(action)} is not allowed: {reason}", reason)

    def apply(self, action: ActionT) -> Self:
        """The state after ``action``; raises IllegalActionError (state unchanged)."""
        self.check_legal(action)
        changes, events = self._apply(action)
        changes["history"] = self.history.push(action)
        changes["log"] = self.log.push(tuple(events))
        return _replace_fields(self, changes)

    def rng(self) -> random.Random:
        """Random source for chance inside the action being applied now."""
        if self.private_seed:
            return random.Random(
                f"mathcards-chance:{self.seed}:{self.private_seed}:{len(self.history) + 1}")
        return rng_for(self.seed, len(self.history) + 1)

    @property
    def actions(self) -> tuple[ActionT, ...]:
        return tuple(self.history)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the deal, in order."""
        return tuple(e for group in self.log for e in group)

    @property
    def new_events(self) -> tuple[Event, ...]:
        """The events of the last action (or of the deal)."""
        last = self.log.last
        return last if last is not None else ()

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the top score once the game is over (ties share the win)."""
        if not self.is_over:
            return ()
        best = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == best)

    # --- saving ----------------------------------------------------------
    def to_json(self) -> str:
        """Seed + settings + actions: enough to replay this exact state."""
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.name,
            "settings": self.game.settings(),
            "seed": self.seed,
        }
        if self.private_seed:  # only tables' games have one; older saves have none
            data["private_seed"] = self.private_seed
            data["known_seat"] = self.known_seat
        data["actions"] = [encode_action(a) for a in self.history]
        return json.dumps(
            data,
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str | bytes) -> State:
        return load_state(text)


_FIELD_NAMES: dict[type, frozenset[str]] = {}


_S = TypeVar("_S", bound=State)


def _replace_fields(state: _S, changes: dict[str, Any]) -> _S:
    """``dataclasses.replace`` for the hot path: copies the field values only (never
    cached values such as the legal actions) without re-running ``__init__``; twice as
    fast, and apply() runs once per move of every game and every bot playout."""
    cls = type(state)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        if "__post_init__" in vars(cls):  # would be skipped: keep the plain way
            return dataclasses.replace(state, **changes)
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    if not changes.keys() <= names:
        unknown = ", ".join(sorted(changes.keys() - names))
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
    new = object.__new__(cls)
    old = state.__dict__
    fresh = new.__dict__
    for name in names:
        fresh[name] = old[name]
    fresh.update(changes)
    return new


def describe_action(action: Any) -> str:
    text = str(action) if dataclasses.is_dataclass(action) else repr(action)
    return text if len(text) <= 80 else text[:77] + "..."


# --- action codec --------------------------------------------------------
def _encode_value(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_encode_value(v) for v in value]
    return value


def action_name(action: Any) -> str:
    """The stable save name of ``action`` ("play", "end-turn"...)."""
    try:
        return _SAVE_NAMES[type(action)]
    except KeyError:
        raise TypeError(f"{type(action).__name__} is no game's action") from None


def encode_action(action: Any) -> dict[str, Any]:
    """An action as plain JSON: ``{"type": "play", "card": "7H", ...}``."""
    out: dict[str, Any] = {"type": action_name(action)}
    for f in dataclasses.fields(action):
        out[f.name] = _encode_value(getattr(action, f.name))
    return out


_HINTS: dict[type, dict[str, Any]] = {}
_PLAIN = {bool: "true/false", int: "a whole number", str: "text"}  # what a field expects


def _decode_value(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is Card:
        if not isinstance(value, str):
            raise SaveFileError(f"{where}: expected card text, found {value!r}")
        return parse_card(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            raise SaveFileError(f"{where}: expected a list, found {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode_value(args[0], v, where) for v in value)
        if len(args) != len(value):
            raise SaveFileError(f"{where}: expected {len(args)} items, found {len(value)}")
        return tuple(_decode_value(a, v, where) for a, v in zip(args, value, strict=True))
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _decode_value(arg, value, where)
            except (SaveFileError, CardParseError):
                continue
        raise SaveFileError(f"{where}: {value!r} does not fit {hint}")
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            raise SaveFileError(f"{where}: {value!r} is not one of {typing.get_args(hint)}")
        return value
    if hint in _PLAIN:
        # JSON's true and false are Python ints too: a whole number is an int, not a bool
        if not isinstance(value, hint) or (hint is int and isinstance(value, bool)):
            raise SaveFileError(f"{where}: expected {_PLAIN[hint]}, found {value!r}")
        return value
    if hint is type(None):
        if value is not None:
            raise SaveFileError(f"{where}: expected null, found {value!r}")
        return None
    raise SaveFileError(f"{where}: cannot read a value of type {hint}")  # pragma: no cover


def decode_action(game: Game, data: Any, where: str = "action", *,
                  version: int = SAVE_VERSION) -> Any:
    """The action a JSON dict describes (its legality is checked by ``apply``).

    ``version`` is the save format's: version 1 named actions by class name."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise SaveFileError(f"{where}: expected an object with a 'type', found {data!r}")
    name = data["type"]
    if version == 1:
        name = game.v1_actions.get(name, "")
    cls = game.actions.get(name) if name else None
    if cls is None:
        known = game.v1_actions if version == 1 else game.actions
        raise SaveFileError(
            f"{where}: {data['type']!r} is not a {game.title} move "
            f"(moves are {', '.join(sorted(known))})"
        )
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            raise SaveFileError(f"{where}: {data['type']} is missing its {f.name!r}")
        try:
            kwargs[f.name] = _decode_value(hints[f.name], data[f.name], where)
        except CardParseError as exc:
            raise SaveFileError(f"{where}: {exc}") from None
    extra = set(data) - {"type"} - set(kwargs)
    if extra:
        raise SaveFileError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
    try:
        return cls(**kwargs)
    except MathCardsError as exc:
        raise SaveFileError(f"{where}: {exc}") from None


def _no_games(name: Any) -> type[Game]:  # pragma: no cover - the package wires the registry
    raise SettingsError(f"unknown game {name!r}: no games are registered")


# A save's game name -> its Game class. The registry sits above this module (it knows the
# games); mathcards.games, which runs before any of its modules, passes its lookup in.
_game_class: Callable[[Any], type[Game]] = _no_games


def use_game_lookup(lookup: Callable[[Any], type[Game]]) -> None:
    """Tell ``load_state`` how to find a saved game's class by its name."""
    global _game_class
    _game_class = lookup


def load_state(text: str | bytes) -> State:
    """Replay a saved game; a damaged save raises SaveFileError and nothing else."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise SaveFileError(
            f"the saved game is not valid JSON ({exc}); start a new game or restore a backup"
        ) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("this is not a MathCards saved game (its 'format' is wrong)")
    version = data.get("version")
    if isinstance(version, bool) or version not in READ_VERSIONS:
        raise SaveFileError(
            f"saved game version {version!r} is not supported (this MathCards "
            f"reads versions {', '.join(map(str, READ_VERSIONS))}); update MathCards"
        )
    name, settings, seed, actions = (data.get(k) for k in ("game", "settings", "seed", "actions"))
    if not isinstance(settings, dict) or not isinstance(actions, list):
        raise SaveFileError("the saved game has no settings or no action list")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SaveFileError(f"the saved game's seed {seed!r} is not a whole number")
    try:
        cls = _game_class(name)
        game = cls(**settings)
        state = game.new_game(seed, private_seed=data.get("private_seed", 0),
                              known_seat=data.get("known_seat"))
    except (SettingsError, TypeError) as exc:
        raise SaveFileError(f"the saved game's settings are broken: {exc}") from None
    for i, raw in enumerate(actions, start=1):
        action = decode_action(game, raw, where=f"move {i}", version=version)
        try:
            state = state.apply(action)
        except IllegalActionError as exc:
            raise SaveFileError(
                f"move {i} of the saved game cannot be replayed ({exc}); the save is damaged"
            ) from None
    return state
