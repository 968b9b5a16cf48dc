"""The card table every game shares: seats, turns, bots, saves and the explainer panel.

A ``GameTable`` is a thin view over one game state. A click is mapped to one
of ``state.legal_actions()`` (never built from page text), applied, saved,
explained, and the table is drawn again from the observation of the seat at
this screen. Each game supplies a small ``GameView`` saying how its table
looks and how its moves split into choices (a card, then a sign...).

Safety in Voilà: a visitor can read and set every synced widget field. So
only the hand of the seat whose player is at this screen is ever put in a
widget (in hot-seat play only after that player clicks "I'm ready"), bots'
hands never; every click or typed move is checked against the legal actions
of the current state before use, and typed text is read with the card
parser only (never ``eval``/``sympify``).
"""

from __future__ import annotations

import asyncio
import html
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_string import HTMLStyle

from mathcards.bots import Bot
from mathcards.cards import Card, whole_number
from mathcards.errors import IllegalActionError, MathCardsError, SettingsError
from mathcards.games.base import Event, Game, State
from mathcards.games.registry import get_game_class
from mathcards.widgets import saves
from mathcards.widgets.cards import CardButton, style_html

SEAT_KINDS = saves.SEAT_KINDS
SEAT_LABELS = {"human": "person", "random": "bot (random)", "strong": "bot (strong)"}
MAX_SEATS = 8  # the most any game's engine allows
HISTORY_LINES = 40


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


@dataclass(frozen=True)
class Choice:
    """One step of a move as the player picks it: a card, a sign, a pile..."""

    key: str  # stable within its stage, e.g. "card:7H", "sign:-1"
    label: str  # button text
    card: Card | None = None  # a card from the player's own hand (shown on the card)
    tooltip: str = ""
    primary: bool = False


@dataclass
class Explanation:
    """What the explainer panel shows after a move."""

    latex: str = ""  # the step as LaTeX for HTMLMath
    text: str = ""  # the same in plain text (screen readers, tests)
    chain: str = ""  # the round's running chain, plain text
    svg: str = ""  # number line (Suns to Moons)


class GameView:
    """How one game's table looks and how its moves split into choices.

    Subclasses override what their game needs; the defaults give a plain
    table with one button per legal move.
    """

    game_name = ""
    selection_mode_hint = ""

    # --- what is shown -------------------------------------------------
    def hand(self, obs: Any) -> tuple[Card, ...]:
        return tuple(getattr(obs, "hand", ()))

    def board_html(self, state: State, obs: Any, seat_names: Sequence[str]) -> str:
        """The public table (no hidden cards); ``obs`` is the viewer's observation."""
        return ""

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        """One line about the position (goal, dice, phase)."""
        return ""

    # --- moves -----------------------------------------------------------
    def listed_actions(self, state: State) -> Sequence[Any]:
        """The legal actions offered as choices (all of them by default)."""
        return tuple(state.legal_actions())

    def path(self, state: State, action: Any) -> tuple[Choice, ...]:
        return (Choice(f"a:{action}", str(action)),)

    def selection_mode(self, state: State) -> bool:
        """True when cards are selected into a set (Dice Stacks' stacks)."""
        return False

    def selection_action(self, state: State, cards: tuple[Card, ...]) -> Any:
        raise NotImplementedError

    def selection_summary(self, state: State, cards: tuple[Card, ...]) -> tuple[bool, str]:
        """(is it a legal move, one line about it) for the cards selected so far."""
        if not cards:
            return False, ""
        action = self.selection_action(state, cards)
        if state.is_legal(action):
            return True, str(action)
        return False, self.why_not(state, action)

    def refused_choices(self, state: State, picked: tuple[str, ...]) -> list[Choice]:
        """Choices shown disabled with the reason (key "off:..."), e.g. a sign that breaks ±10."""
        return []

    def card_refusal(self, state: State, card: Card) -> str:
        """Why a card in hand cannot be chosen now."""
        return "it cannot be played now"

    def parse_move(self, state: State, text: str) -> Any:
        """A typed move -> the action it names (checked for legality by the table).

        The default matches the words of a legal move ("draw from pile 1").
        Raise MathCardsError with a helpful message when nothing matches.
        """
        want = _norm(text)
        for action in self.listed_actions(state):
            if _norm(str(action)) == want:
                return action
        raise MathCardsError(f"{text.strip()!r} is not a move here; try one of the buttons")

    # --- explaining ------------------------------------------------------
    def explain(self, before: State, action: Any, after: State, seat_names: Sequence[str]
                ) -> Explanation:
        """The explainer's steps for the last action: HTML with LaTeX, text, chain, SVG."""
        from mathcards import explain as X

        steps = X.explain_events(before, after)
        html_steps = "".join(s.html for s in steps)
        text = X.spoken(steps)
        svg = ""
        for step in steps:
            for part in step.walk():
                drawing = getattr(part, "svg", None)  # SignedAddition.svg() draws the jump
                if callable(drawing):
                    drawing = drawing()
                if isinstance(drawing, str) and drawing:
                    svg = drawing
        return Explanation(latex=_names(html_steps, seat_names), text=_names(text, seat_names),
                           chain=self.chain(before, after), svg=svg)

    def chain(self, before: State, after: State) -> str:
        """The round's running chain in plain text (games that have one)."""
        return ""

    def history_line(self, event: Event, seat_names: Sequence[str]) -> str | None:
        """The move-history sentence of an event, or None to leave it out."""
        return _sentence(event, seat_names)

    def hint(self, state: State, level: int) -> str:
        from mathcards import explain as X

        return X.hint(state, level).spoken

    def why_not(self, state: State, action: Any) -> str:
        """The rule that refuses ``action``, with the explainer's arithmetic when it has some."""
        try:
            from mathcards import explain as X

            refusal = X.why_not(state, action)
        except Exception:  # the engine's own words are enough
            return state.why_illegal(action)
        extra = " ".join(c.spoken for c in refusal.detail)
        return f"{refusal.reason}{' (' + extra.rstrip('.') + ')' if extra else ''}"


def _names(text: str, seat_names: Sequence[str]) -> str:
    for i in range(len(seat_names) - 1, -1, -1):
        text = text.replace(f"Player {i + 1}", seat_names[i])
    return text


def _sentence(event: Event, seat_names: Sequence[str]) -> str:
    return _names(event.describe(), seat_names)


def _norm(text: str) -> str:
    out = text.lower().replace("−", "-").replace("♥", "h").replace("♦", "d")
    out = out.replace("♠", "s").replace("♣", "c")
    return " ".join(out.split())


OFFER_FIRST = "first answer the offer above: resume your saved game or start a new one"


class Refused(Exception):
    """A click or typed move that the table turns down (the message says why)."""


class GameTable(W.VBox):
    """A playable table: seats (people or bots), the cards, the moves and the explainer."""

    def __init__(self, view: GameView, game: Game | None = None, *,
                 seats: Sequence[str] | None = None, seed: int | None = None,
                 bot_delay: float = 0.8, save: bool = True, resume: str = "ask",
                 slot: str = "", bot_seed: int | None = None, who: str = "") -> None:
        super().__init__()
        self.view = view
        self.game_name = view.game_name
        self.game_cls = get_game_class(self.game_name)
        self.bot_delay = max(0.0, float(bot_delay))
        self.save_enabled = save
        self.slot = slot
        self.who = who  # "Playing as ana" (plain text; the save slot's owner)
        self._renders = 0  # counts redraws: the page's tests wait on it (data-render)
        self._lock = threading.RLock()
        self._generation = 0  # bumps on every new game, so stale bot timers do nothing
        self._bot_pending = False
        self._bot_seed = bot_seed
        self.message = ""  # last status/refusal, plain text (tests read it)
        self.refused = False
        self.explanation = Explanation()
        self.history: list[str] = []
        self.hint_level = 0
        self.picked: tuple[str, ...] = ()
        self.selected: tuple[int, ...] = ()  # indices into the viewer's hand
        self.viewer: int | None = None
        self._build_widgets()
        self.add_class("mathcards")

        game = game or self.game_cls()
        seats = tuple(seats) if seats else ("human",) + ("strong",) * (game.num_players - 1)
        saved, problem = (None, "")
        self._saved_offer: saves.SavedTable | None = None
        if save and resume != "never":
            saved, problem = saves.load_table(self.game_name, slot)
            if saved is not None and saved.state.is_over:
                saved = None
        if saved is not None and resume == "always":
            self._start(saved.state.game, saved.seats, saved.state.seed, state=saved.state)
            self._say(f"Welcome back: your saved game is restored at move "
                      f"{len(self.state.history)}.", notice=True)
            return
        if saved is not None:
            # nothing moves (no bot, no save) until the player answers the offer
            self._saved_offer = saved
        self._start(game, seats, seed)
        if problem:
            self._say(problem, notice=True)
        if saved is not None:
            self._offer_resume(saved)

    # ------------------------------------------------------------------ widgets
    # A table's plain widgets share one Layout and one style of each kind (none of
    # them ever changes its own: looks come from CSS classes). Each widget model is
    # a message from the kernel through the server to the page, so a table of ~90
    # models instead of ~160 costs a class arriving at once less CPU.
    def _shared(self, kind: type) -> Any:
        shared = self.__dict__.setdefault("_shared_models", {})
        if kind not in shared:
            shared[kind] = kind()
        return shared[kind]

    def _html(self, *args: Any, **kwargs: Any) -> W.HTML:
        kwargs.setdefault("layout", self._shared(W.Layout))
        kwargs.setdefault("style", self._shared(HTMLStyle))
        return W.HTML(*args, **kwargs)

    def _button(self, *args: Any, **kwargs: Any) -> W.Button:
        kwargs.setdefault("layout", self._shared(W.Layout))
        kwargs.setdefault("style", self._shared(W.ButtonStyle))
        return W.Button(*args, **kwargs)

    def _box(self, kind: type, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("layout", self._shared(W.Layout))
        return kind(*args, **kwargs)

    def _build_widgets(self) -> None:
        self.w_style = self._html(style_html())
        self.w_banner = self._html("")
        self.w_resume = self._button(description="Resume my saved game", button_style="primary")
        self.w_discard = self._button(description="Start a new game")
        self.w_resume.add_class("mc-choice")
        self.w_resume.add_class("mc-resume")
        self.w_discard.add_class("mc-choice")
        self.w_resume.on_click(lambda _b: self._on_resume())
        self.w_discard.on_click(lambda _b: self._on_discard())
        self.w_resume_box = self._box(W.HBox, [self.w_resume, self.w_discard])
        self.w_resume_box.add_class("mc-hide")

        self.w_header = self._html("")
        self.w_status = self._html("")
        self.w_board = self._html("")
        self.w_ready_text = self._html("")
        self.w_ready = self._button(description="I'm ready", button_style="primary",
                                tooltip="show my hand (the others look away)")
        self.w_ready.add_class("mc-choice")
        self.w_ready.on_click(lambda _b: self._on_ready())
        self.w_ready_box = self._box(W.HBox, [self.w_ready_text, self.w_ready])
        self.w_ready_box.add_class("mc-hide")
        self.w_hand_title = self._html("")
        # one button per card in the hand ("7H#1": the first 7H), never reused for
        # another card, so a click always names the card it was made on
        self._card_buttons: dict[str, CardButton] = {}
        self.card_pool: list[CardButton] = []  # the hand's buttons, in hand order
        self.w_hand = self._box(W.HBox, [])
        self.w_hand.add_class("mc-row")
        self.w_hand.add_class("mc-hand")
        self.w_selection = self._html("")  # the selected cards' arithmetic, live
        # one button per choice key, never reused for another choice: a double or
        # replayed click names the choice it was made on, not what the redraw put there
        self._choice_buttons: dict[str, W.Button] = {}
        self.choice_pool: list[W.Button] = []  # the buttons shown, in order
        self.choice_keys: list[str | None] = []  # their keys (read-only copies)
        self.w_choices = self._box(W.HBox, [])
        self.w_choices.add_class("mc-row")
        self.w_choices.add_class("mc-choices")
        self.w_move = W.Text(placeholder="type a move, e.g. 7H -", continuous_update=False,
                             description="Move:", layout=W.Layout(width="260px"))
        self.w_move_go = self._button(description="Play typed move",
                                  tooltip="play the move typed in the box")
        self.w_move_go.add_class("mc-choice")
        self.w_move.observe(self._on_move_text, names="value")
        self.w_move_go.on_click(lambda _b: self._on_typed(self.w_move.value))
        self.w_move_box = self._box(W.HBox, [self.w_move, self.w_move_go])
        self.w_move_box.add_class("mc-move")

        # setup: seats, new game, deal code
        self.w_players = W.Dropdown(description="Players:", layout=W.Layout(width="160px"))
        self.w_players.observe(lambda _c: self._sync_seat_pickers(), names="value")
        self.w_seat_pickers = [
            W.Dropdown(options=[(SEAT_LABELS[k], k) for k in SEAT_KINDS],
                       description=f"Player {i + 1}:", layout=W.Layout(width="220px"))
            for i in range(MAX_SEATS)
        ]
        self.w_new = self._button(description="New game",
                                  tooltip="deal a new game with these seats")
        self.w_new.add_class("mc-choice")
        self.w_new.on_click(lambda _b: self._on_new_game())
        self.w_code = W.Text(placeholder="deal code, e.g. SUMS-3P-7KQ2X", continuous_update=False,
                             description="Deal code:", layout=W.Layout(width="300px"))
        self.w_code_go = self._button(description="Deal this code")
        self.w_code_go.add_class("mc-choice")
        self.w_code_go.on_click(lambda _b: self._on_deal_code(self.w_code.value))
        self.w_setup = self._box(W.VBox, [
            self._html('<div class="mc-zone-title">New game</div>'),
            self._box(W.HBox, [self.w_players, self.w_new]),
            self._box(W.Box, self.w_seat_pickers, layout=W.Layout(flex_flow="row wrap")),
            self._box(W.HBox, [self.w_code, self.w_code_go]),
        ])

        # explainer panel
        self.w_step = W.HTMLMath("")
        self.w_step_text = self._html("")
        self.w_chain = self._html("")
        self.w_numberline = self._html("")
        self.w_hint_buttons = []
        for level, (label, tip) in enumerate(
            [("Hint: nudge", "is there a good move?"), ("Hint: which card", "which card to use"),
             ("Hint: full step", "the whole move and its sum")], start=1):
            b = self._button(description=label, tooltip=tip)
            b.add_class("mc-choice")
            b.on_click(lambda _b, lv=level: self._on_hint(lv))
            self.w_hint_buttons.append(b)
        self.w_hint = self._html("")
        self.w_history = self._html("")
        explainer = self._box(W.VBox, [
            self._html('<h3 class="mc-zone-title">What the last move did</h3>'),
            self.w_step, self.w_step_text, self.w_chain, self.w_numberline,
            self._box(W.HBox, self.w_hint_buttons, layout=W.Layout(flex_flow="row wrap")),
            self.w_hint,
            self._html('<h3 class="mc-zone-title">Moves so far</h3>'),
            self.w_history,
        ])
        explainer.add_class("mc-explain")

        # drawn last on every redraw: when the page shows its data-render, the whole
        # table is up to date; data-busy="1" while a bot is about to move
        self.w_sync = self._html("")
        self.w_main = self._box(W.VBox, [
            self.w_header, self.w_status, self.w_board, self.w_ready_box, self.w_hand_title,
            self.w_hand, self.w_selection, self.w_choices, self.w_move_box, self.w_setup,
            self.w_sync])
        self.w_main.add_class("mc-main")
        explainer.add_class("mc-side")
        self.w_body = self._box(W.Box, [self.w_main, explainer])
        self.w_body.add_class("mc-root")
        self.children = [self.w_style, self.w_banner, self.w_resume_box, self.w_body]

    # ------------------------------------------------------------------ game life
    @property
    def seat_names(self) -> tuple[str, ...]:
        names = []
        humans = sum(1 for k in self.seats if k == "human")
        for i, kind in enumerate(self.seats):
            if kind == "human":
                names.append(f"Player {i + 1} (you)" if humans == 1 else f"Player {i + 1}")
            else:
                names.append(f"Player {i + 1} (bot)")
        return tuple(names)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, k in enumerate(self.seats) if k == "human")

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    def _check_seats(self, game: Game, seats: Sequence[str]) -> tuple[str, ...]:
        seats = tuple(seats)
        if len(seats) != game.num_players:
            raise SettingsError(f"{len(seats)} seat kinds given for {game.num_players} players")
        for kind in seats:
            if kind not in SEAT_KINDS:
                raise SettingsError(f"seat kind {kind!r} is not one of {', '.join(SEAT_KINDS)}")
        return seats

    def _start(self, game: Game, seats: Sequence[str], seed: int | None,
               state: State | None = None) -> None:
        with self._lock:
            self.seats = self._check_seats(game, seats)
            if seed is None:
                seed = saves.new_seed()
            if state is None:
                # the deal code shows `seed`: it decides the public cards and, when one
                # person sits here, their hand; every other hidden card comes from a
                # secret of this table only (issue 11: a code never reveals a hand)
                humans = [i for i, kind in enumerate(self.seats) if kind == "human"]
                state = game.new_game(seed, private_seed=saves.new_private_seed(),
                                      known_seat=humans[0] if len(humans) == 1 else None)
            self.state = state
            self._generation += 1
            self._bot_pending = False
            base = ((self.state.seed ^ self.state.private_seed) % 2**32
                    if self._bot_seed is None else self._bot_seed)
            self.bots = {i: Bot(self.game_name, kind, seed=base * 31 + i)
                         for i, kind in enumerate(self.seats) if kind != "human"}
            self.viewer = self.humans[0] if len(self.humans) == 1 else None
            self.picked, self.selected = (), ()
            self.hint_level = 0
            self.explanation = Explanation()
            self._parts: list[Explanation] = []
            self.history = [h for e in self.state.events
                            if (h := self.view.history_line(e, self.seat_names))]
            self.message, self.refused = "", False
            self.deal_code = saves.deal_code(self.state.game, self.state.seed)
            self._setup_pickers(self.state.game)
            self._refresh()
            self._after_change()

    def new_game(self, game: Game | None = None, seats: Sequence[str] | None = None,
                 seed: int | None = None) -> None:
        """Deal a new game (same settings and seats unless given)."""
        game = game or self.state.game
        seats = seats or self.seats
        if len(seats) != game.num_players:
            seats = tuple(seats[:game.num_players]) + ("strong",) * (
                game.num_players - len(seats))
        self._hide_resume()
        self._start(game, seats, seed)

    def resume(self, saved: saves.SavedTable) -> None:
        self._hide_resume()
        self._start(saved.state.game, saved.seats, saved.state.seed, state=saved.state)
        self._say(f"Welcome back: your saved game is restored at move {len(self.state.history)}.",
                  notice=True)

    def _offer_resume(self, saved: saves.SavedTable) -> None:
        self._saved_offer = saved
        moves = len(saved.state.history)
        who = ", ".join(SEAT_LABELS[k] for k in saved.seats)
        self.w_banner.value = (
            f'<div class="mc-status mc-notice" role="status">You have a saved '
            f'{esc(saved.state.game.title)} game ({moves} moves played; seats: {esc(who)}). '
            f'Resume it, or start a new game?</div>')
        self.w_resume_box.remove_class("mc-hide")
        self.w_body.add_class("mc-hide")

    def _hide_resume(self) -> None:
        self._saved_offer = None
        self.w_banner.value = ""
        self.w_resume_box.add_class("mc-hide")
        self.w_body.remove_class("mc-hide")

    def _on_resume(self) -> None:
        saved = getattr(self, "_saved_offer", None)
        if saved is None:
            return
        self.resume(saved)

    def _on_discard(self) -> None:
        if getattr(self, "_saved_offer", None) is None:
            return
        self._hide_resume()
        self._refresh()
        self._schedule_bot()

    # ------------------------------------------------------------------ setup panel
    def _setup_pickers(self, game: Game) -> None:
        lo, hi = self.game_cls.min_players, min(self.game_cls.max_players, MAX_SEATS)
        self.w_players.options = list(range(lo, hi + 1))
        self.w_players.value = game.num_players
        for i, picker in enumerate(self.w_seat_pickers):
            if i < len(self.seats):
                picker.value = self.seats[i]
        self._sync_seat_pickers()

    def _sync_seat_pickers(self) -> None:
        n = self.w_players.value or 0
        for i, picker in enumerate(self.w_seat_pickers):
            if i < n:
                picker.remove_class("mc-hide")
            else:
                picker.add_class("mc-hide")

    def _on_new_game(self) -> None:
        if self._saved_offer is not None:
            self._say(OFFER_FIRST, refused=True)
            return
        value = self.w_players.value  # what the page sent: perhaps nothing, perhaps junk
        n = value if type(value) is int else whole_number(value, longest=2)
        if n is None or not 0 < n <= len(self.w_seat_pickers):
            self._say("Cannot start that game: choose the number of players from the list",
                      refused=True)
            return
        try:
            kinds = tuple(self.w_seat_pickers[i].value for i in range(n))
            settings = self.state.game.settings() | {"num_players": n}
            game = self.game_cls(**settings)
            self.new_game(game, kinds)
        except MathCardsError as exc:
            self._say(f"Cannot start that game: {exc}", refused=True)
        except (TypeError, ValueError):  # never Python's own words on the page
            self._say("Cannot start that game with these settings: choose them again from "
                      "the lists", refused=True)

    def _on_deal_code(self, code: str) -> None:
        if self._saved_offer is not None:
            self._say(OFFER_FIRST, refused=True)
            return
        try:
            game, seed = saves.read_deal_code(code)
            if game.name != self.game_name:
                raise saves.DealCodeError(
                    f"that deal code is for {game.title}; this table plays "
                    f"{self.game_cls.title}")
        except MathCardsError as exc:
            self._say(str(exc), refused=True)
            return
        n = game.num_players
        # the seats shown keep their kinds; seats the code adds are bots
        kinds = tuple(self.w_seat_pickers[i].value for i in range(min(n, len(self.seats))))
        if "human" not in kinds:
            kinds = ("human",) + kinds[1:]
        kinds = kinds + ("strong",) * (n - len(kinds))
        self.new_game(game, kinds, seed)
        self._say(f"Dealt {self.deal_code}.", notice=True)

    # ------------------------------------------------------------------ turns
    def _acting_human(self) -> bool:
        p = self.state.current_player
        return p is not None and self.seats[p] == "human" and self.viewer == p

    def _after_change(self) -> None:
        """Hand over the screen in hot-seat play and let bots move."""
        p = self.state.current_player
        if p is not None and self.hot_seat and self.seats[p] == "human" and self.viewer != p:
            self.viewer = None  # hide the last hand until the next player is ready
            self._refresh()
        self._schedule_bot()

    def _schedule_bot(self) -> None:
        p = self.state.current_player
        if (p is None or self.seats[p] == "human" or self._bot_pending
                or self._saved_offer is not None):
            return
        if self.bot_delay <= 0:
            # tests and "fast" tables: bots move at once, one after another
            guard = 0
            while (p := self.state.current_player) is not None and self.seats[p] != "human":
                self._bot_move(self._generation)
                guard += 1
                if guard > 100_000:  # pragma: no cover - a game that never ends
                    raise RuntimeError("bots did not finish")
            return
        self._bot_pending = True
        generation = self._generation
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            # the kernel's own loop: comm messages (clicks) keep flowing during the pause
            loop.call_later(self.bot_delay, self._bot_timer, generation)
        else:
            timer = threading.Timer(self.bot_delay, self._bot_timer, args=(generation,))
            timer.daemon = True
            timer.start()

    def _bot_timer(self, generation: int) -> None:
        with self._lock:
            self._bot_pending = False
            if generation != self._generation:
                return
            try:
                self._bot_move(generation)
            except Exception as exc:  # never let a timer die silently, nor show Python's words
                why = exc if isinstance(exc, MathCardsError) else "please reload the page"
                self._say(f"A bot could not move: {why}", refused=True)
                return
            self._schedule_bot()

    def _bot_move(self, generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                return
            p = self.state.current_player
            if p is None or self.seats[p] == "human":
                return
            action = self.bots[p].choose(self.state)
            self._commit(action, by_bot=True)

    # ------------------------------------------------------------------ moves
    def _commit(self, action: Any, *, by_bot: bool = False) -> None:
        """Apply a legal action, save, explain, redraw."""
        before = self.state
        after = before.apply(action)  # legality was checked by the caller; apply re-checks
        self.state = after
        self.picked, self.selected = (), ()
        self.hint_level = 0
        names = self.seat_names
        try:
            part = self.view.explain(before, action, after, names)
        except Exception as exc:  # the explainer must never block play
            part = Explanation(text=f"(no explanation: {exc})")
        # a person's move and the bots' answers are shown together until the next person moves
        self._parts = (self._parts if by_bot else [])[-5:] + [part]
        self.explanation = Explanation(
            latex="".join(p.latex for p in self._parts),
            text=" ".join(p.text for p in self._parts),
            chain=part.chain or next((p.chain for p in reversed(self._parts) if p.chain), ""),
            svg=part.svg or next((p.svg for p in reversed(self._parts) if p.svg), ""),
        )
        for e in after.new_events:
            line = self.view.history_line(e, names)
            if line:
                self.history.append(line)
        self.message, self.refused = "", False
        if self.save_enabled:
            try:
                if after.is_over:
                    saves.clear_table(self.game_name, self.slot)
                else:
                    saves.save_table(after, self.seats, self.slot)
            except OSError as exc:  # the reason, never the server's path
                why = exc.strerror or type(exc).__name__
                self.message = f"Could not save the game ({why}); play goes on."
        if after.is_over:
            self.message = self._final_words()
        self._refresh()
        if not by_bot:
            self._after_change()
        else:
            p = after.current_player
            if p is not None and self.hot_seat and self.seats[p] == "human" and self.viewer != p:
                self.viewer = None
                self._refresh()

    def _final_words(self) -> str:
        names = self.seat_names
        winners = self.state.winners
        scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(self.state.scores))
        if len(winners) == 1:
            return f"Game over: {names[winners[0]]} wins! Scores: {scores}."
        return f"Game over: a tie between {', '.join(names[i] for i in winners)}. Scores: {scores}."

    def play(self, action: Any) -> None:
        """Play ``action`` for the person to act (raises Refused with the reason)."""
        with self._lock:
            if self._saved_offer is not None:
                raise Refused(OFFER_FIRST)
            if self.state.is_over:
                raise Refused("the game is over: start a new game")
            p = self.state.current_player
            if self.seats[p] != "human":
                raise Refused(f"it is {self.seat_names[p]}'s turn; wait for the bot to move")
            if self.viewer != p:
                raise Refused(f"it is {self.seat_names[p]}'s turn: click \"I'm ready\" first")
            if not self.state.is_legal(action):
                if isinstance(action, self.state.game.action_types):
                    reason = self.view.why_not(self.state, action)
                else:
                    reason = "that is not a move of this game"
                raise Refused(reason)
            self._commit(action)

    def _try(self, fn, *args) -> None:
        try:
            fn(*args)
        except Refused as exc:
            self._say(str(exc), refused=True)
        except IllegalActionError as exc:
            self._say(exc.reason, refused=True)
        except MathCardsError as exc:
            self._say(str(exc), refused=True)

    # --- clicks
    def _stage(self) -> tuple[list[Any], dict[str, Choice]]:
        """The legal actions matching the picks so far, and the next stage's choices."""
        depth = len(self.picked)
        matching = []
        choices: dict[str, Choice] = {}
        for action in self.view.listed_actions(self.state):
            steps = self.view.path(self.state, action)
            if tuple(c.key for c in steps[:depth]) != self.picked:
                continue
            matching.append((action, steps))
            if len(steps) > depth:
                choices.setdefault(steps[depth].key, steps[depth])
        return matching, choices

    def _on_card_click(self, button: CardButton) -> None:
        with self._lock:
            ident = getattr(button, "ident", None)
            if self._card_buttons.get(ident) is not button or button not in self.card_pool:
                return  # a click made on a card no longer in the hand: it names nothing now
            if button.key in self.picked:
                return  # a second click on the card just chosen
            self._try(self._card_click, button.key)

    def _card_click(self, key: str | None) -> None:
        with self._lock:
            if key is None or not self._acting_human():
                raise Refused(self._not_your_turn())
            hand = self.view.hand(self.state.observation(self.viewer))
            if self.view.selection_mode(self.state):
                i = whole_number(key[1:], longest=3) if key.startswith("h") else None
                i = -1 if i is None else i
                if not 0 <= i < len(hand):
                    raise Refused("that card is not in your hand")
                sel = list(self.selected)
                if i in sel:
                    sel.remove(i)
                else:
                    sel.append(i)
                self.selected = tuple(sel)
                self.message, self.refused = "", False
                self._refresh()
                return
            self._choose(key)

    def _on_choice_key(self, key: str, button: W.Button) -> None:
        with self._lock:
            if self._choice_buttons.get(key) is not button or key not in self.choice_keys:
                return  # made on a choice the table no longer offers (a double click)
            if button.disabled and not key.startswith("off:"):
                return
            self._try(self._choice_click, key)

    def _choice_click(self, key: str | None) -> None:
        with self._lock:
            if key is None or not self._acting_human():
                raise Refused(self._not_your_turn())
            if key == "back":
                self.picked = self.picked[:-1]
                self.message, self.refused = "", False
                self._refresh()
                return
            if key in ("lay", "off:lay"):  # a disabled "Lay down" clicked anyway: say why
                self._lay_selection()
                return
            if key == "clear":
                self.selected = ()
                self.message, self.refused = "", False
                self._refresh()
                return
            self._choose(key)

    def _choose(self, key: str) -> None:
        matching, choices = self._stage()
        if key not in choices:
            reason = "that choice is not one of the moves allowed now"
            for off in self.view.refused_choices(self.state, self.picked):
                if off.key == key:
                    reason = off.tooltip
            if key.startswith("card:"):
                hand = self.view.hand(self.state.observation(self.viewer))
                card = next((c for c in hand if f"card:{c}" == key), None)
                if card is not None:
                    reason = f"{card.symbol}: {self.view.card_refusal(self.state, card)}"
            raise Refused(reason)
        picked = self.picked + (key,)
        done = [a for a, steps in matching
                if len(steps) == len(picked) and tuple(c.key for c in steps) == picked]
        longer = [a for a, steps in matching if len(steps) > len(picked)
                  and tuple(c.key for c in steps[:len(picked)]) == picked]
        if len(done) == 1 and not longer:
            self.play(done[0])
            return
        self.picked = picked
        self.message, self.refused = "", False
        self._refresh()

    def _lay_selection(self) -> None:
        hand = self.view.hand(self.state.observation(self.viewer))
        cards = tuple(hand[i] for i in self.selected if 0 <= i < len(hand))
        if not cards:
            raise Refused("select cards from your hand first")
        action = self.view.selection_action(self.state, cards)
        self.play(action)

    def _not_your_turn(self) -> str:
        p = self.state.current_player
        if p is None:
            return "the game is over: start a new game"
        if self.seats[p] != "human":
            return f"it is {self.seat_names[p]}'s turn; wait for the bot to move"
        return f"it is {self.seat_names[p]}'s turn: click \"I'm ready\" first"

    # --- typed moves
    def _on_move_text(self, change: dict) -> None:
        if change.get("new"):
            self._on_typed(change["new"])

    def _on_typed(self, text: Any) -> None:
        self._try(self._typed, text)

    def _typed(self, text: Any) -> None:
        with self._lock:
            if not isinstance(text, str) or not text.strip():
                raise Refused("type a move first, e.g. 7H -")
            if len(text) > 80:
                raise Refused("that is too long to be a move")
            if not self._acting_human():
                raise Refused(self._not_your_turn())
            action = self.view.parse_move(self.state, text)
            self.play(action)
            self.w_move.value = ""

    def _on_ready(self) -> None:
        with self._lock:
            p = self.state.current_player
            if p is None or self.seats[p] != "human":
                return
            self.viewer = p
            self.message, self.refused = "", False
            self._refresh()

    def _on_hint(self, level: int) -> None:
        with self._lock:
            if not self._acting_human():
                self._say(self._not_your_turn(), refused=True)
                return
            self.hint_level = level
            self._refresh()

    def _say(self, text: str, *, refused: bool = False, notice: bool = False) -> None:
        self.message, self.refused = text, refused
        self._render_status()
        if hasattr(self, "state"):
            self._mark_sync()

    # ------------------------------------------------------------------ drawing
    def _render_status(self) -> None:
        cls = "mc-status"
        if self.refused:
            cls += " mc-refused"
            body = f"<strong>Not allowed:</strong> {esc(self.message)}"
        else:
            body = esc(self.message) if self.message else esc(
                self.view.status(self.state, self.seat_names))
        self.w_status.value = f'<div class="{cls}" role="status" aria-live="polite">{body}</div>'

    def _public_obs(self) -> Any:
        """The observation used to draw the table: the viewer's, else a seat's minus its hand."""
        seat = self.viewer if self.viewer is not None else 0
        return self.state.observation(seat)

    def _refresh(self) -> None:
        with self._lock, self.hold_sync():
            st = self.state
            names = self.seat_names
            p = st.current_player
            # header
            items = []
            for i, s in enumerate(st.scores):
                cls = ' class="mc-to-act"' if i == p else ""
                mark = " (to play)" if i == p else ""
                items.append(f"<li{cls}>{esc(names[i])}: {s}{mark}</li>")
            who = f'<div class="mc-who" role="note">{esc(self.who)}</div>' if self.who else ""
            self.w_header.value = (
                f'<div class="mc-header"><h2>{esc(st.game.title)}</h2>{who}'
                f'<ul class="mc-scores" aria-label="scores">{"".join(items)}</ul>'
                f'<div>Deal code: <code data-deal="{esc(self.deal_code)}">'
                f'{esc(self.deal_code)}</code> · '
                f'move <span data-move="{len(st.history)}">{len(st.history)}</span></div></div>')
            self._render_status()
            obs = self._public_obs()
            board = self.view.board_html(st, obs, names)
            # hands of other seats: counts only
            if self.viewer is None:
                hand_cards: tuple[Card, ...] = ()
            else:
                hand_cards = self.view.hand(obs)
            board_value = f'<div class="mc-board" data-move="{len(st.history)}">{board}</div>'
            if self.w_board.value != board_value:
                self.w_board.value = board_value
            # ready screen (hot seat)
            show_ready = (p is not None and self.hot_seat and self.seats[p] == "human"
                          and self.viewer != p)
            if show_ready:
                self.w_ready_text.value = (
                    f'<div class="mc-status mc-notice">{esc(names[p])}, it is your turn. Others '
                    f'look away, then click "I\'m ready" to see your hand.</div>')
                self.w_ready.description = f"I'm ready ({names[p]})"
                self.w_ready_box.remove_class("mc-hide")
            else:
                self.w_ready_box.add_class("mc-hide")
            self._render_hand(hand_cards, obs)
            self._render_choices()
            self._render_explainer()
            self._mark_sync()

    def _mark_sync(self) -> None:
        """Count a redraw in the hidden marker the page's tests wait on (set last)."""
        st = self.state
        p = st.current_player
        self._renders += 1
        busy = int(p is not None and self.seats[p] != "human" and self._saved_offer is None)
        self.w_sync.value = (f'<span class="mc-sync" data-render="{self._renders}" '
                             f'data-move="{len(st.history)}" data-busy="{busy}"></span>')

    def _render_hand(self, hand: tuple[Card, ...], obs: Any) -> None:
        acting = self._acting_human()
        names = self.seat_names
        if self.viewer is None:
            self.w_hand_title.value = (
                '<div class="mc-zone-title">Hands are hidden until a player is ready.</div>'
                if self.hot_seat else "")
        else:
            title = "Your hand" if not self.hot_seat else f"{names[self.viewer]}'s hand"
            extra = ""
            if acting and self.view.selection_mode(self.state):
                extra = f" · {self.view.selection_mode_hint}"
            self.w_hand_title.value = (f'<div class="mc-zone-title">{esc(title)} '
                                       f'({len(hand)} cards){esc(extra)}</div>')
        selection = acting and self.view.selection_mode(self.state)
        summary = ""
        if selection and self.selected:
            cards = tuple(hand[i] for i in self.selected if 0 <= i < len(hand))
            ok, line = self.view.selection_summary(self.state, cards)
            if line:
                cls = "mc-selection mc-ok" if ok else "mc-selection mc-not"
                summary = (f'<div class="{cls}" role="status" aria-live="polite">'
                           f'Selected: {esc(" ".join(c.symbol for c in cards))} · {esc(line)}'
                           f'</div>')
        elif selection:
            summary = '<div class="mc-selection">Select cards to make a stack.</div>'
        if self.w_selection.value != summary:
            self.w_selection.value = summary
        pool: list[CardButton] = []
        copies: dict[Card, int] = {}
        for card in hand:
            copies[card] = copies.get(card, 0) + 1
            ident = f"{card}#{copies[card]}"
            cb = self._card_buttons.get(ident)
            if cb is None:
                cb = self._card_buttons[ident] = CardButton(self._on_card_click, make=self._button)
                cb.ident = ident  # type: ignore[attr-defined]
            pool.append(cb)
        self.card_pool = pool
        children = [cb.button for cb in pool]
        if list(self.w_hand.children) != children:
            self.w_hand.children = children
        crowded = len(self._card_buttons) > 4 * len(pool) + 24
        for ident, cb in list(self._card_buttons.items()):
            if cb not in pool:
                cb.hide()  # no card of a hand stays in a synced field once off the table
                if crowded:  # cards long gone: close their buttons
                    cb.button.close()
                    del self._card_buttons[ident]
        choices: dict[str, Choice] = {}
        if acting and not selection:
            _, choices = self._stage()
        picked_cards = {k for k in self.picked if k.startswith("card:")}
        for i, cb in enumerate(self.card_pool):
            card = hand[i]
            key = f"card:{card}"
            if selection:
                cb.show(card, key=f"h{i}", enabled=True, selected=i in self.selected,
                        tooltip="click to put in or take out of the stack")
            elif acting and key in choices:
                cb.show(card, key=key, enabled=True, tooltip=choices[key].tooltip or "play it")
            elif acting and key in picked_cards:
                cb.show(card, key=key, enabled=False, selected=True, tooltip="chosen")
            elif acting:
                cb.show(card, key=key, enabled=False,
                        tooltip="cannot be played now: " + self.view.card_refusal(self.state, card))
            else:
                cb.show(card, key=key, enabled=False)

    def _render_choices(self) -> None:
        wanted: list[Choice] = []
        if self._acting_human():
            if self.view.selection_mode(self.state):
                wanted = self.view_selection_choices()
            else:
                _, choices = self._stage()
                wanted = [c for c in choices.values() if c.card is None]
                wanted += self.view.refused_choices(self.state, self.picked)
                if self.picked:
                    wanted.append(Choice("back", "Back", tooltip="choose again"))
        elif self.state.is_over:
            wanted = []
        wanted = list({c.key: c for c in wanted}.values())  # a key is one button
        shown: list[W.Button] = []
        for c in wanted:
            b = self._choice_buttons.get(c.key)
            if b is None:
                b = self._choice_buttons[c.key] = self._button(description="")
                b.on_click(lambda button, k=c.key: self._on_choice_key(k, button))
            enabled = not c.key.startswith("off:")
            classes = ["mc-choice"] + (["mc-primary"] if c.primary else [])
            if b.description != c.label:
                b.description = c.label
            if (b.tooltip or "") != c.tooltip:
                b.tooltip = c.tooltip
            b.disabled = not enabled
            if list(b._dom_classes) != classes:
                b._dom_classes = classes
            shown.append(b)
        for key, b in list(self._choice_buttons.items()):
            if b not in shown:
                b.disabled = True  # hidden: a click already on its way names nothing
                if len(self._choice_buttons) > 64:  # keys long gone: close them
                    b.close()
                    del self._choice_buttons[key]
        self.choice_pool = shown
        self.choice_keys = [c.key for c in wanted]
        if list(self.w_choices.children) != shown:
            self.w_choices.children = shown
        # the typed-move box and hints only for the person to act
        acting = self._acting_human()
        self.w_move.disabled = not acting
        self.w_move_go.disabled = not acting
        for b in self.w_hint_buttons:
            b.disabled = not acting

    def view_selection_choices(self) -> list[Choice]:
        """Buttons in selection mode: lay down the selected cards, clear, other moves."""
        hand = self.view.hand(self.state.observation(self.viewer))
        cards = tuple(hand[i] for i in self.selected if 0 <= i < len(hand))
        out: list[Choice] = []
        if cards:
            action = self.view.selection_action(self.state, cards)
            names = " ".join(c.symbol for c in cards)
            if self.state.is_legal(action):
                out.append(Choice("lay", f"Lay down {names}", tooltip=str(action), primary=True))
            else:  # only legal moves are enabled; the reason shows under the hand
                out.append(Choice("off:lay", f"Lay down {names}",
                                  tooltip="not a stack: " + self.view.why_not(self.state, action)))
            out.append(Choice("clear", "Clear selection"))
        for action in self.view.listed_actions(self.state):
            for step in self.view.path(self.state, action)[:1]:
                out.append(step)
        return out

    def _render_explainer(self) -> None:
        ex = self.explanation
        self.w_step.value = f'<div class="mc-step">{ex.latex}</div>' if ex.latex else ""
        self.w_step_text.value = (
            f'<div class="mc-step-text" aria-label="explanation as text">{esc(ex.text)}</div>'
            if ex.text else '<div class="mc-step-text">No move yet.</div>')
        self.w_chain.value = (f'<div class="mc-chain" aria-label="the round so far">'
                              f'{esc(ex.chain)}</div>' if ex.chain else "")
        self.w_numberline.value = (f'<div class="mc-numberline">{ex.svg}</div>'
                                   if ex.svg else "")
        hint = ""
        if self.hint_level and self._acting_human():
            try:
                hint = self.view.hint(self.state, self.hint_level)
            except Exception as exc:  # a hint must never break the table
                hint = f"(no hint: {exc})" if isinstance(exc, MathCardsError) else "(no hint now)"
        self.w_hint.value = (f'<div class="mc-hint" role="status">{esc(hint)}</div>'
                             if hint else "")
        lines = self.history[-HISTORY_LINES:]
        start = len(self.history) - len(lines) + 1
        self.w_history.value = (
            f'<ol class="mc-history" start="{start}" aria-label="moves so far">'
            + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ol>")

    # ------------------------------------------------------------------ for tests
    def hidden_widget_states(self) -> list[dict]:
        """Every synced state of every widget in this table (what a visitor can read)."""
        out = []
        seen: set[int] = set()

        def walk(w: W.Widget) -> None:
            if id(w) in seen:
                return
            seen.add(id(w))
            out.append(w.get_state())
            for name in w.keys:
                value = getattr(w, name, None)
                items = value if isinstance(value, list | tuple) else [value]
                for item in items:
                    if isinstance(item, W.Widget):
                        walk(item)

        walk(self)
        return out


def wait_for_bots(table: GameTable, timeout: float = 10.0) -> None:
    """Block until bots have moved (tables with a pause, outside a kernel loop)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        p = table.state.current_player
        if p is None or table.seats[p] == "human":
            return
        time.sleep(0.01)
    raise TimeoutError("bots did not move in time")
