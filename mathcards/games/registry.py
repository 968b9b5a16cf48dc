"""Every game by its short name: one ``GameSpec`` each, registered by the game itself.

A game's package ends with one call, as OpenSpiel's games end with
``register_game``::

    register_game(GameSpec(name="sums", engine=Sums, code="SUMS", ...))

and everything the rest of MathCards asks of a game by name (its engine, its
deal-code prefix, its bots, its landing card, its table's view) is read from that
one record. The parts next to the rules in the game's folder (its questions,
exercise kinds, moments and explainer) are found by their fixed module names
(``mathcards.games.parts``), and its view by a dotted path, so the rules never
import them: ``mathcards.games`` knows nothing of explanations or screens, and
nothing under ``mathcards/`` imports ipywidgets.

The built-in games are imported when first asked for (``BUILTIN_GAMES``: a Sums
page never imports the trick games for their registrations); a game outside
``mathcards`` (``examples/``) calls ``register_game`` itself, or is registered for a
while with ``registered``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mathcards.errors import SaveFileError, SettingsError
from mathcards.i18n import N_

if TYPE_CHECKING:
    from mathcards.games.base import Game

# The games MathCards ships, in the landing page's order: each is the package (or module)
# mathcards.games.<name>, which registers itself when imported. A new game adds one name.
BUILTIN_GAMES = ("suns_to_moons", "dice_stacks", "sums", "shoot_the_moon", "moons_and_planets")


@dataclass(frozen=True)
class LandingCard:
    """A game's card on the landing page: what it practises, a picture, where to go."""

    practises: str  # "sums and differences"
    blurb: str  # two sentences a student reads before choosing
    picture: str  # dotted path "module:function" of a function returning the card's HTML
    lesson: str  # the lesson notebook, relative to lessons/
    play: str = ""  # the play page's notebook ("" for none)
    play_text: str = N_("Play")


@dataclass(frozen=True)
class GameSpec:
    """Everything the app asks of one game, found by the game's short name.

    Dotted paths (``"package.module:Name"`` or a module) are imported only by the part
    that needs them: ``view`` by ``mathcards.widgets``, ``explainer`` by
    ``mathcards.explain``, and so on.
    """

    name: str  # "sums": saves, addresses and exercise files use it
    engine: type[Game]  # Game(num_players=..., **settings) deals and plays it
    code: str  # the deal code's first word, "SUMS" in SUMS-2P-04HKR
    strong_policy: Callable[..., Any]  # the "strong" bot: (observation, legal, rng) -> action
    parse_move: Callable[[Any, str], Any] | None = None  # typed text -> one legal action
    view: str = ""  # "mathcards.widgets.sums:SumsView": a table (play page, rooms) when set
    rooms: bool = True  # its table has a "Play with classmates" panel
    tournament_default: bool = False  # the teacher's "Rooms for a tournament" shows it first
    assignable: bool = False  # a class can be given its table at a level (its table asks)
    # the folder of its parts (questions.py, exercises.py, moments.py, explain.py, found by
    # those names: mathcards.games.parts); "" : the package of its engine
    package: str = ""
    short_game: tuple[str, int] | None = None  # (setting, value) a fresh play page deals
    card: LandingCard | None = None  # on the landing page when set
    deck: str = "standard"  # the cards its exercises draw: "standard" or "moon"
    jokers: bool = False  # whether its exercises may use Jokers
    conformance: str = ""  # the conformance hooks' module ("": tests.conformance.<name>)

    @property
    def title(self) -> str:
        return self.engine.title


_SPECS: dict[str, GameSpec] = {}

# a dotted path as GameSpec names its parts: "package.module" or "package.module:Name"
_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*)?")


def check_spec(spec: GameSpec) -> None:
    """Check a game's registration once, when it registers (its dotted paths by their form
    only: they are imported when first needed); SettingsError naming the game and the
    piece that is wrong."""
    from mathcards.games.base import Game

    name = spec.name if isinstance(spec.name, str) else repr(spec.name)
    if not isinstance(spec.name, str) or not spec.name.isidentifier():
        raise SettingsError(f"game {name}: its name must be a word like 'sums'")
    if not (isinstance(spec.engine, type) and issubclass(spec.engine, Game)):
        raise SettingsError(f"game {name!r}: engine must be a Game class, "
                            f"not {spec.engine!r}")
    if not isinstance(spec.code, str) or not spec.code.isalnum():
        raise SettingsError(f"game {name!r}: code must be letters or digits like 'SUMS'")
    if not callable(spec.strong_policy):
        raise SettingsError(f"game {name!r}: strong_policy must be a function "
                            "(observation, legal, rng) -> action")
    if spec.parse_move is not None and not callable(spec.parse_move):
        raise SettingsError(f"game {name!r}: parse_move must be a function or None")
    paths = {"view": spec.view, "conformance": spec.conformance, "package": spec.package}
    if spec.card is not None:
        paths["card.picture"] = spec.card.picture
    for piece, path in paths.items():
        if not isinstance(path, str) or (path and _PATH.fullmatch(path) is None):
            raise SettingsError(f"game {name!r}: {piece} must be a dotted path like "
                                f"'package.module:Name', not {path!r}")


def register_game(spec: GameSpec) -> GameSpec:
    """Make ``spec``'s game known by its name (once: a second, different game of the same
    name or deal-code prefix is refused; a registration missing a piece is refused,
    ``check_spec``)."""
    check_spec(spec)
    old = _SPECS.get(spec.name)
    if old is not None and old != spec:
        raise SettingsError(f"a game named {spec.name!r} is already registered")
    for other in _SPECS.values():
        if other.name != spec.name and other.code == spec.code:
            raise SettingsError(f"deal-code prefix {spec.code!r} is already {other.name}'s")
    _SPECS[spec.name] = spec
    return spec


def unregister_game(name: str) -> None:
    """Forget a game registered for a while (tests, examples)."""
    _SPECS.pop(name, None)


@contextmanager
def registered(spec: GameSpec) -> Iterator[GameSpec]:
    """``with registered(spec):`` the game is known inside the block only."""
    register_game(spec)
    try:
        yield spec
    finally:
        unregister_game(spec.name)


def _load_builtin(name: str) -> None:
    if name in BUILTIN_GAMES and name not in _SPECS:
        importlib.import_module(f"mathcards.games.{name}")  # it registers itself


def game_specs() -> tuple[GameSpec, ...]:
    """Every known game: the built-in ones in their order, then those registered later."""
    for name in BUILTIN_GAMES:
        _load_builtin(name)
    first = [_SPECS[n] for n in BUILTIN_GAMES if n in _SPECS]
    return (*first, *(s for n, s in _SPECS.items() if n not in BUILTIN_GAMES))


def game_spec(name: Any) -> GameSpec:
    """The game called ``name``; SettingsError naming the games there are."""
    if isinstance(name, str):
        _load_builtin(name)
        if name in _SPECS:
            return _SPECS[name]
    raise SettingsError(f"unknown game {name!r}: choose one of {', '.join(game_names())}")


def find_game(name: Any) -> GameSpec | None:
    """The game called ``name``, or None."""
    if not isinstance(name, str):
        return None
    _load_builtin(name)
    return _SPECS.get(name)


def spec_by_code(code: str) -> GameSpec | None:
    """The game whose deal codes start with ``code`` (loads the built-in games only when
    no game asked for so far has it)."""
    found = next((s for s in _SPECS.values() if s.code == code), None)
    if found is None:
        found = next((s for s in game_specs() if s.code == code), None)
    return found


def game_names() -> tuple[str, ...]:
    return tuple(s.name for s in game_specs())


def resolve(path: str) -> Any:
    """The object a dotted path names: ``"pkg.module:Name"``, or a module ``"pkg.module"``."""
    module, _, attr = path.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attr) if attr else found


def get_game_class(name: Any) -> type[Game]:
    return game_spec(name).engine


def make_game(name: str, **settings: Any) -> Game:
    """``make_game("sums", num_players=3)``: a Game with validated settings."""
    cls = get_game_class(name)
    try:
        return cls(**settings)
    except TypeError as exc:
        raise SettingsError(f"bad settings for {name}: {exc}") from None


__all__ = [
    "BUILTIN_GAMES", "GameSpec", "LandingCard", "SaveFileError", "check_spec", "find_game",
    "game_names", "game_spec", "game_specs", "get_game_class", "make_game", "register_game",
    "registered", "resolve", "spec_by_code", "unregister_game",
]
