"""The ipywidgets table every game shares: a view over a ``TableController``.

``mathcards.table.TableController`` holds what the table does (seats, turns,
bots, saves, the move menu, the explainer's text); this module builds the
widgets, sends them the clicks, and draws what the controller says after each
change. A click is mapped to one of ``state.legal_actions()`` by the
controller (never built from page text).

Safety in Voilà: a visitor can read and set every synced widget field. So
only the hand of the seat whose player is at this screen is ever put in a
widget (in hot-seat play only after that player clicks "I'm ready"), bots'
hands never; every click or typed move is checked against the legal actions
of the current state before use, and typed text is read with the card
parser only (never ``eval``/``sympify``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from mathcards.asking import SHOW
from mathcards.games.base import Game, State
from mathcards.i18n import _, ngettext
from mathcards.table import (
    MAX_SEATS,
    NEXT_ROUND,
    SEAT_KINDS,
    SEAT_LABELS,
    Explanation,
    GameView,
    Schedule,
    TableController,
    schedule_later,
)
from mathcards.table_snapshot import SeatSnapshot
from mathcards.widgets.asking import AskingPanel
from mathcards.widgets.cards import CardButton, HandButtons, esc, style_html, synced_states

__all__ = ["GameTable", "wait_for_bots"]

HISTORY_LINES = 40
# seconds within which a click on "Play typed move" after the box's text was sent (as the
# box lost the focus to the button) is the same submission, not a second one
SAME_SUBMISSION = 1.5


class GameTable(W.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """A playable table: seats (people or bots), the cards, the moves and the explainer."""

    def __init__(self, view: GameView, game: Game | None = None, *,
                 seats: Sequence[str] | None = None, seed: int | None = None,
                 bot_delay: float = 0.8, save: bool = True, resume: str = "ask",
                 slot: str = "", bot_seed: int | None = None, who: str = "",
                 schedule: Schedule = schedule_later, level: str = SHOW) -> None:
        super().__init__()
        self.view = view
        self.who = who  # "Playing as ana" (plain text; the save slot's owner)
        self._renders = 0  # counts redraws: the page's tests wait on it (data-render)
        # the game and move (deal code, moves) a first New game click asked about
        self._confirm_new: tuple[str, int] | None = None
        self._snap: SeatSnapshot | None = None  # the snapshot drawn last
        self._ready = False
        self._focus_armed = False  # redraws move no focus before this screen's first action
        self._had_controls = False  # the last redraw offered this screen something to press
        self._typed_last = False  # the last move was typed: the move box keeps the focus
        self._box_sent: tuple[str, float] = ("", float("-inf"))  # the box's last text sent
        self._build_widgets()
        self.add_class("mathcards")
        self.ctl = TableController(view, game, seats=seats, seed=seed, bot_delay=bot_delay,
                                   save=save, resume=resume, slot=slot, bot_seed=bot_seed,
                                   schedule=schedule, listener=self._on_change,
                                   pause_after_round=True, level=level)
        # the questions at "I count": answer box, number pad, level, following (by the hand)
        self.asking_panel = AskingPanel(self)
        # the choices first, then the question (prompt, answer box, number pad), the typed
        # move, and the help row (the level): a Sums draw or claim on the first screen
        main = list(self.w_main.children)
        if self.view.choices_above_hand:
            main.remove(self.w_choices)
            main.insert(main.index(self.w_board) + 1, self.w_choices)
        main.insert(main.index(self.w_choices) + 1, self.asking_panel.widget)
        main.insert(main.index(self.w_move_box) + 1, self.asking_panel.w_settings)
        self.w_main.children = tuple(main)
        self._ready = True
        self._setup_pickers(self.ctl.state.game)
        self._refresh()

    # ------------------------------------------------------------------ the controller's
    # (read-only views of what the controller holds: tests and pages read them here)
    @property
    def state(self) -> State:
        return self.ctl.state

    @property
    def seats(self) -> tuple[str, ...]:
        return self.ctl.seats

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.ctl.seat_names

    @property
    def viewer(self) -> int | None:
        return self.ctl.viewer

    @property
    def selected(self) -> tuple[int, ...]:
        return self.ctl.selected

    @property
    def picked(self) -> tuple[str, ...]:
        return self.ctl.picked

    @property
    def message(self) -> str:
        return self.ctl.message

    @property
    def refused(self) -> bool:
        return self.ctl.refused

    @property
    def explanation(self) -> Explanation:
        return self.ctl.explanation

    @property
    def history(self) -> list[str]:
        return self.ctl.history

    @property
    def deal_code(self) -> str:
        return self.ctl.deal_code

    @property
    def slot(self) -> str:
        return self.ctl.slot

    def play(self, action: Any) -> None:
        """Play ``action`` for the person to act (raises Refused with the reason)."""
        self.ctl.play(action)

    def new_game(self, game: Game | None = None, seats: Sequence[str] | None = None,
                 seed: int | None = None) -> None:
        self.ctl.new_game(game, seats, seed)

    def say(self, text: str, *, refused: bool = False) -> None:
        self.ctl.say(text, refused=refused)

    def _on_change(self, what: str) -> None:
        if not self._ready:
            return
        if what == "start":
            self._setup_pickers(self.ctl.state.game)
        elif what == "status":
            snap = self.ctl.snapshot()
            self._render_status(snap)
            self._mark_sync(snap)
            self._snap = snap
        else:
            self._refresh()

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

    def _shared_layout(self, name: str, **traits: Any) -> W.Layout:
        """One Layout with ``traits`` shared by the widgets that ask for ``name``."""
        shared = self.__dict__.setdefault("_shared_layouts", {})
        if name not in shared:
            shared[name] = W.Layout(**traits)
        return shared[name]

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
        self.w_resume = self._button(description=_("Resume my saved game"), button_style="primary")
        self.w_discard = self._button(description=_("Start a new game"))
        self.w_resume.add_class("mc-choice")
        self.w_resume.add_class("mc-resume")
        self.w_discard.add_class("mc-choice")
        self.w_resume.on_click(lambda _b: self._focus_next(self.ctl.accept_offer))
        self.w_discard.on_click(lambda _b: self._focus_next(self.ctl.decline_offer))
        self.w_resume_box = self._box(W.HBox, [self.w_resume, self.w_discard])
        self.w_resume_box.add_class("mc-hide")

        self.w_header = self._html("")
        # whose turn, in large type; a round or game won with its arithmetic (its own
        # buttons: "Next round" near the top, where a small screen shows it first)
        self.w_turn = self._html("")
        self.w_moment = self._html("")
        self.w_moment_choices = self._box(W.HBox, [])
        self.w_moment_choices.add_class("mc-row")
        self.w_moment_choices.add_class("mc-choices")
        self.w_moment_box = self._box(W.VBox, [self.w_moment, self.w_moment_choices])
        self.w_moment_box.add_class("mc-moment-box")
        self.w_moment_box.add_class("mc-hide")
        self.w_latest = self._html("")  # the last move, highlighted
        # a fresh page's game: short (short_setting) or full, chosen at the start
        self.w_length_text = self._html("")
        self.w_length = self._button(description="")
        self.w_length.add_class("mc-choice")
        self.w_length.on_click(lambda _b: self.ctl.attempt(self.ctl.switch_length))
        self.w_length_box = self._box(W.HBox, [self.w_length_text, self.w_length])
        self.w_length_box.add_class("mc-length")
        self.w_length_box.add_class("mc-hide")
        self.w_status = self._html("")
        self.w_board = self._html("")
        self.w_ready_text = self._html("")
        self.w_ready = self._button(description=_("I'm ready"), button_style="primary",
                                tooltip=_("show my hand (the others look away)"))
        self.w_ready.add_class("mc-choice")
        self.w_ready.on_click(lambda _b: self._focus_next(self.ctl.ready))
        self.w_ready_box = self._box(W.HBox, [self.w_ready_text, self.w_ready])
        self.w_ready_box.add_class("mc-hide")
        self.w_hand_title = self._html("")
        self.w_hand = self._box(W.HBox, [])
        self.w_hand.add_class("mc-row")
        self.w_hand.add_class("mc-hand")
        self.hand_buttons = HandButtons(self.w_hand, self._on_card_click, make=self._button)
        self.w_selection = self._html("")  # the selected cards' arithmetic, live
        # a refusal, said beside the hand where the student looks (the status line too)
        self.w_refusal = self._html("")
        # one button per choice key, never reused for another choice: a double or
        # replayed click names the choice it was made on, not what the redraw put there
        self._choice_buttons: dict[str, W.Button] = {}
        self.choice_pool: list[W.Button] = []  # the buttons shown, in order
        self.choice_keys: list[str | None] = []  # their keys (read-only copies)
        self.w_choices = self._box(W.HBox, [])
        self.w_choices.add_class("mc-row")
        self.w_choices.add_class("mc-choices")
        self.w_move = W.Text(placeholder=_("type a move"), continuous_update=False,
                             description=_("Move:"), layout=W.Layout(width="260px"),
                             style=self._shared(TextStyle))
        self.w_move_go = self._button(description=_("Play typed move"),
                                  tooltip=_("play the move typed in the box"))
        self.w_move_go.add_class("mc-choice")
        self.w_move.observe(self._on_move_text, names="value")
        self.w_move_go.on_click(lambda _b: self._on_move_button())
        self.w_move_box = self._box(W.HBox, [self.w_move, self.w_move_go])
        self.w_move_box.add_class("mc-move")

        # setup: seats, new game, deal code. A seat's picker is made the first time the
        # players count shows it (a 2-player table sends 2 of MAX_SEATS); the Dropdowns
        # share one style, the seat pickers one Layout (none changes its own)
        self.w_players = W.Dropdown(description=_("Players:"), layout=W.Layout(width="160px"),
                                    style=self._shared(DescriptionStyle))
        self.w_players.observe(lambda _c: self._sync_seat_pickers(), names="value")
        self.w_seat_pickers: list[W.Dropdown] = []
        # what each seat's picker holds, made or not (an unmade one: its first option)
        self._seat_kinds = [SEAT_KINDS[0]] * MAX_SEATS
        self.w_seats = self._box(W.Box, [],
                                 layout=self._shared_layout("wrap", flex_flow="row wrap"))
        self.w_new = self._button(description=_("New game"),
                                  tooltip=_("deal a new game with these seats"))
        self.w_new.add_class("mc-choice")
        self.w_new.on_click(lambda _b: self._on_new_game())
        self.w_code = W.Text(placeholder=_("deal code, e.g. {code}").format(
                                 code="SUMS-3P-7KQ2X"), continuous_update=False,
                             description=_("Deal code:"), layout=W.Layout(width="300px"),
                             style=self._shared(TextStyle))
        self.w_code_go = self._button(description=_("Deal this code"))
        self.w_code_go.add_class("mc-choice")
        self.w_code_go.on_click(lambda _b: self._on_deal_code(self.w_code.value))
        self.w_setup = self._box(W.VBox, [
            self._html('<div class="mc-zone-title">' + esc(_("New game")) + '</div>'),
            self._box(W.HBox, [self.w_players, self.w_new]),
            self.w_seats,
            self._box(W.HBox, [self.w_code, self.w_code_go]),
        ])

        # explainer panel
        self.w_step = W.HTMLMath("", layout=self._shared(W.Layout))
        self.w_step_text = self._html("")
        self.w_chain = self._html("")
        self.w_numberline = self._html("")
        self.w_hint_buttons = []
        for level, (label, tip) in enumerate(
            [(_("Hint: nudge"), _("is there a good move?")),
             (_("Hint: which card"), _("which card to use")),
             (_("Hint: full step"), _("the whole move and its sum"))], start=1):
            b = self._button(description=label, tooltip=tip)
            b.add_class("mc-choice")
            b.on_click(lambda _b, lv=level: self.ctl.ask_hint(lv))
            self.w_hint_buttons.append(b)
        self.w_hint = self._html("")
        self.w_history = self._html("")
        explainer = self._box(W.VBox, [
            self._html('<h3 class="mc-zone-title">' + esc(_("What the last move did")) + '</h3>'),
            self.w_step, self.w_step_text, self.w_chain, self.w_numberline,
            self._box(W.HBox, self.w_hint_buttons,
                      layout=self._shared_layout("wrap", flex_flow="row wrap")),
            self.w_hint,
            self._html('<h3 class="mc-zone-title">' + esc(_("Moves so far")) + '</h3>'),
            self.w_history,
        ])
        explainer.add_class("mc-explain")

        # drawn last on every redraw: when the page shows its data-render, the whole
        # table is up to date; data-busy="1" while a bot is about to move
        self.w_sync = self._html("")
        self.w_main = self._box(W.VBox, [
            self.w_turn, self.w_moment_box, self.w_header, self.w_length_box, self.w_status,
            self.w_latest, self.w_board, self.w_ready_box, self.w_hand_title,
            self.w_hand, self.w_refusal, self.w_selection, self.w_choices, self.w_move_box,
            self.w_setup, self.w_sync])
        self.w_main.add_class("mc-main")
        explainer.add_class("mc-side")
        self.w_body = self._box(W.Box, [self.w_main, explainer])
        self.w_body.add_class("mc-root")
        self.children = [self.w_style, self.w_banner, self.w_resume_box, self.w_body]

    # ------------------------------------------------------------------ the page's events
    def _setup_pickers(self, game: Game) -> None:
        cls = self.ctl.game_cls
        lo, hi = cls.min_players, min(cls.max_players, MAX_SEATS)
        self.w_players.options = list(range(lo, hi + 1))
        self.w_players.value = game.num_players
        for i, kind in enumerate(self.ctl.seats[:MAX_SEATS]):
            if kind in SEAT_KINDS:
                self._seat_kinds[i] = kind
                if i < len(self.w_seat_pickers):
                    self.w_seat_pickers[i].value = kind
        self._sync_seat_pickers()

    def _seat_picker(self, i: int) -> W.Dropdown:
        """Seat ``i``'s picker, made (with the seats before it) the first time it is shown."""
        while len(self.w_seat_pickers) <= i:
            j = len(self.w_seat_pickers)
            picker = W.Dropdown(options=[(_(SEAT_LABELS[k]), k) for k in SEAT_KINDS],
                                value=self._seat_kinds[j],
                                description=_("Player {n}:").format(n=j + 1),
                                layout=self._shared_layout("seat", width="220px"),
                                style=self._shared(DescriptionStyle))
            self.w_seat_pickers.append(picker)
            self.w_seats.children = (*self.w_seats.children, picker)
        return self.w_seat_pickers[i]

    def _seat_values(self) -> list[str]:
        """The seat kinds the New game panel holds (a picker's value, checked by its
        Dropdown against the offered kinds; an unmade picker's first option)."""
        made = [p.value for p in self.w_seat_pickers]
        return made + self._seat_kinds[len(made):]

    def _sync_seat_pickers(self) -> None:
        n = self.w_players.value or 0
        if n:
            self._seat_picker(min(n, MAX_SEATS) - 1)
        for i, picker in enumerate(self.w_seat_pickers):
            if i < n:
                picker.remove_class("mc-hide")
            else:
                picker.add_class("mc-hide")

    def _shown(self) -> SeatSnapshot:
        """The snapshot this screen shows (the one drawn last; a fresh one before any)."""
        return self._snap if self._snap is not None else self.ctl.snapshot()

    def _on_new_game(self) -> None:
        """A new game; a game in progress is thrown away only at a second click, on the
        same button now reading "Yes, end this game" (no browser dialog)."""
        ctl = self.ctl
        with ctl.lock:
            snap = self._shown()
            if snap.in_progress and self._confirm_new != (snap.deal_code, snap.moves):
                self._confirm_new = (snap.deal_code, snap.moves)
                ctl.say(_("This game is not finished: click “Yes, end this game” to deal "
                          "a new one, or play on."))
                self._render_new_game(snap)
                return
        self._confirm_new = None
        self._focus_next(ctl.new_game_from_setup, self.w_players.value, self._seat_values())

    def _render_new_game(self, snap: SeatSnapshot) -> None:
        """The New game button, or its second step while a click on it waits to be confirmed
        (any move since then, or a new game, puts it back)."""
        armed = self._confirm_new is not None and self._confirm_new == (snap.deal_code,
                                                                         snap.moves)
        if not armed:
            self._confirm_new = None
        label = _("Yes, end this game") if armed else _("New game")
        if self.w_new.description != label:
            self.w_new.description = label
            self.w_new.tooltip = (_("throw this game away and deal a new one") if armed
                                  else _("deal a new game with these seats"))
        if armed:
            self.w_new.add_class("mc-confirm")
        else:
            self.w_new.remove_class("mc-confirm")

    def _on_deal_code(self, code: str) -> None:
        self._focus_next(self.ctl.deal, code, self._seat_values())

    def _on_card_click(self, button: CardButton) -> None:
        with self.ctl.lock:
            if not self.hand_buttons.holds(button):
                return  # a click made on a card no longer in the hand: it names nothing now
            snap = self._shown()
            if button.key in snap.picked:
                return  # a second click on the card just chosen
            if snap.selecting:  # a card put in or out of a stack: the focus stays on it
                self.ctl.attempt(self.ctl.click_card, button.key)
            else:
                self._focus_next(self.ctl.attempt, self.ctl.click_card, button.key)

    def _on_choice_key(self, key: str, button: W.Button) -> None:
        with self.ctl.lock:
            if self._choice_buttons.get(key) is not button or key not in self.choice_keys:
                return  # made on a choice the table no longer offers (a double click)
            if button.disabled and not key.startswith("off:"):  # type: ignore[union-attr]  # is the held one
                return
            self._focus_next(self.ctl.attempt, self.ctl.click_choice, key)

    def _on_move_text(self, change: dict[str, Any]) -> None:
        if change.get("new"):
            self._on_typed(change["new"])
            # what the box holds now (emptied: played), when: a click on "Play typed move"
            # that follows at once is the same submission (the browser sends the text as
            # the box loses the focus to the button, then the click)
            self._box_sent = (self.w_move.value, time.monotonic())

    def _on_move_button(self) -> None:
        text, at = self._box_sent
        if self.w_move.value == text and time.monotonic() - at < SAME_SUBMISSION:
            return  # the text was just played (or refused) as the box lost the focus
        self._on_typed(self.w_move.value)

    def _on_typed(self, text: Any) -> None:
        if self.ctl.attempt(self.ctl.type_move, text):
            self._typed_last = True  # the visitor types: no redraw takes the focus away
            self.w_move.value = ""

    # ------------------------------------------------------------------ keyboard focus
    def _focus_next(self, action: Any = None, *args: Any) -> None:
        """Put the keyboard focus where this screen's player goes next.

        With ``action`` (this screen's own click): run it, then focus the first choice
        while a card is picked and choices are shown (Suns to Moons' signs), else the first
        enabled card of the hand, else the first primary choice (End turn, Next round...).
        A redraw (no ``action``) moves the focus only when this screen gets controls it did
        not have (its turn after the bots'), and only once its player has pressed something
        here (a page that just opened never jumps to its table), never after a typed move:
        the box keeps it.
        A redraw sends its updates first, so the focused button is already enabled.
        """
        if action is not None:
            self._focus_armed = False  # the redraws of the action itself move nothing
            try:
                if action(*args) is False:  # refused: the focus stays on what was pressed
                    return
            finally:
                self._focus_armed = True
            self._typed_last = False
        cards = [cb.button for cb in self.hand_buttons.pool if not cb.button.disabled]
        choices = [b for b in self.choice_pool if not b.disabled]
        fresh = bool(cards or choices) and not self._had_controls
        self._had_controls = bool(cards or choices)
        if action is None and (not fresh or self._typed_last or not self._focus_armed):
            return
        primary = [b for b in choices if "mc-primary" in b._dom_classes]
        snap = self._shown()
        targets: list[W.DOMWidget] = (
            [self.w_ready] if snap.waiting_for_ready is not None
            else [self.w_resume] if snap.saved_offer is not None
            else choices if snap.picked
            else cards + primary + choices)
        if not targets and snap.is_over and not snap.room_code:
            targets = [self.w_new]
        if targets:
            targets[0].focus()

    # ------------------------------------------------------------------ drawing
    # Every redraw draws one snapshot of what this screen's seat sees
    # (``TableController.snapshot``, a frozen ``mathcards.table_snapshot.SeatSnapshot``):
    # the drawing reads nothing else of the controller; the click handlers and the focus
    # read the snapshot drawn last (``_shown``).
    def _render_status(self, snap: SeatSnapshot) -> None:
        cls = "mc-status"
        if snap.refused:
            cls += " mc-refused"
            body = "<strong>" + esc(_("Not allowed:")) + f"</strong> {esc(snap.message)}"
        else:
            body = esc(snap.status)
        self.w_status.value = f'<div class="{cls}" role="status" aria-live="polite">{body}</div>'
        # the same refusal beside the hand (a status line at the top is easy to miss)
        refusal = ('<div class="mc-status mc-near-hand" role="alert">'
                   '<strong>' + esc(_("Not allowed:")) + f'</strong> {esc(snap.message)}</div>'
                   if snap.refused and snap.seat is not None else "")
        if self.w_refusal.value != refusal:
            self.w_refusal.value = refusal

    def _render_offer(self, snap: SeatSnapshot) -> None:
        saved = snap.saved_offer
        if saved is None:
            self.w_banner.value = ""
            self.w_resume_box.add_class("mc-hide")
            self.w_body.remove_class("mc-hide")
            return
        who = ", ".join(_(SEAT_LABELS[k]) for k in saved.seats)
        offer = ngettext("You have a saved {game} game ({n} move played; seats: {seats}). "
                         "Resume it, or start a new game?",
                         "You have a saved {game} game ({n} moves played; seats: {seats}). "
                         "Resume it, or start a new game?", saved.moves).format(
            game=saved.title, n=saved.moves, seats=who)
        self.w_banner.value = (
            f'<div class="mc-status mc-notice" role="status">{esc(offer)}</div>')
        self.w_resume_box.remove_class("mc-hide")
        self.w_body.add_class("mc-hide")

    def _refresh(self) -> None:
        ctl = self.ctl
        with ctl.lock, self.hold_sync():
            snap = ctl.snapshot()
            names = snap.seat_names
            p = snap.to_act
            self._render_offer(snap)
            # header
            items = []
            for i, s in enumerate(snap.scores):
                cls = ' class="mc-to-act"' if i == p else ""
                mark = " " + _("(to play)") if i == p else ""
                # where the score comes from (Sums: the cards in play count from the deal):
                # said beside this screen's own score; the others' in their tooltip and to a
                # screen reader (the header stays one line on a laptop)
                words = snap.score_words[i] if i < len(snap.score_words) else ""
                why = ""
                if words and i == snap.seat:
                    why = f' <span class="mc-score-why">({esc(words)})</span>'
                elif words:
                    why = f'<span class="mc-sr"> ({esc(words)})</span>'
                    cls += f' title="{esc(words)}"'
                items.append(f"<li{cls}>{esc(names[i])}: {s}{mark}{why}</li>")
            who = f'<div class="mc-who" role="note">{esc(self.who)}</div>' if self.who else ""
            scores_label, move_word = esc(_("scores")), esc(_("move"))
            # one wrapping line (the game, the scores, the code), the visitor's note under
            # it in small type: the hand below stays on a laptop's first screen
            self.w_header.value = (
                f'<div class="mc-header"><h2>{esc(snap.title)}</h2>'
                f'<ul class="mc-scores" aria-label="{scores_label}">{"".join(items)}</ul>'
                f'<div class="mc-code">{self._code_html(snap)} · '
                f'{move_word} <span data-move="{snap.moves}">{snap.moves}</span></div>'
                f'{who}</div>')
            if snap.room_code:  # a room's game: no new deals here, no deal code
                self.w_setup.add_class("mc-hide")
            else:
                self.w_setup.remove_class("mc-hide")
            self._render_status(snap)
            self._render_new_game(snap)
            board_value = (f'<div class="mc-board" data-move="{snap.moves}">'
                           f'{snap.board_html}</div>')
            if self.w_board.value != board_value:
                self.w_board.value = board_value
            self._render_moment(snap)
            # ready screen (hot seat; after the round's moment)
            waiting = snap.waiting_for_ready
            if waiting is not None and not snap.holding:
                said = _("{name}, it is your turn. Others look away, then click \"I'm "
                         "ready\" to see your hand.").format(name=names[waiting])
                self.w_ready_text.value = f'<div class="mc-status mc-notice">{esc(said)}</div>'
                self.w_ready.description = _("I'm ready ({name})").format(name=names[waiting])
                self.w_ready_box.remove_class("mc-hide")
            else:
                self.w_ready_box.add_class("mc-hide")
            self._render_hand(snap)
            self._render_choices(snap)
            asked = self.asking_panel.render(snap.question)
            self._render_explainer(snap)
            self._mark_sync(snap)
            self._snap = snap
        if asked:  # a new question: the answer box takes the focus (Enter answers)
            self.asking_panel.w_answer.focus()
        self._focus_next()

    def _render_moment(self, snap: SeatSnapshot) -> None:
        """The turn banner, the moment (a round or game won), the latest move, the length."""
        banner = snap.turn_banner
        turn = (f'<div class="mc-turn mc-turn-{snap.turn}" role="status" aria-live="polite">'
                f'{esc(banner)}</div>' if banner else "")
        if self.w_turn.value != turn:
            self.w_turn.value = turn
        moment = snap.moment
        if moment is None:
            panel = ""
            self.w_moment_box.add_class("mc-hide")
        else:
            lines = "".join(f"<li>{esc(line)}</li>" for line in moment.lines)
            mood = "mc-moment-win" if moment.win else "mc-moment-other"
            panel = (f'<div class="mc-moment {mood}" role="status" aria-live="polite" '
                     f'data-moment="{esc(moment.kind)}">'
                     f'<div class="mc-moment-title">{esc(moment.title)}</div>'
                     f'<div class="mc-moment-headline">{esc(moment.headline)}</div>'
                     f'<ul class="mc-moment-lines">{lines}</ul></div>')
            self.w_moment_box.remove_class("mc-hide")
        if self.w_moment.value != panel:
            self.w_moment.value = panel
        latest_label, latest_word = esc(_("the latest move")), esc(_("Latest:"))
        latest = (f'<div class="mc-latest{" mc-latest-bot" if snap.latest_by_bot else ""}" '
                  f'data-move="{snap.moves}" aria-label="{latest_label}">'
                  f'<strong>{latest_word}</strong> {esc(snap.latest)}</div>'
                  if snap.latest else "")
        if self.w_latest.value != latest:
            self.w_latest.value = latest
        length = snap.length_choice
        if length is None:
            self.w_length_box.add_class("mc-hide")
        else:
            now, other = length
            self.w_length_text.value = f'<div class="mc-length-now">{esc(now)}</div>'
            self.w_length.description = other
            self.w_length_box.remove_class("mc-hide")

    def _code_html(self, snap: SeatSnapshot) -> str:
        """The deal code (a solo table) or the room code (a room: the deal stays secret)."""
        if snap.room_code:
            room = esc(_("Room:"))
            return (f'{room} <code data-room="{esc(snap.room_code)}">'
                    f'{esc(snap.room_code)}</code>')
        if not snap.deal_code:  # a game whose code would show every hand: kept secret
            secret: str = esc(_("Deal: secret"))
            return secret
        deal = esc(_("Deal code:"))
        return f'{deal} <code data-deal="{esc(snap.deal_code)}">{esc(snap.deal_code)}</code>'

    def _mark_sync(self, snap: SeatSnapshot) -> None:
        """Count a redraw in the hidden marker the page's tests wait on (set last): its
        move number, whether a bot or classmate is to move, and the room's code (a room's
        game, not the page's own game before the room started)."""
        self._renders += 1
        self.w_sync.value = (f'<span class="mc-sync" data-render="{self._renders}" '
                             f'data-move="{snap.moves}" data-busy="{int(snap.busy)}" '
                             f'data-room="{esc(snap.room_code)}"></span>')

    def _render_hand(self, snap: SeatSnapshot) -> None:
        names = snap.seat_names
        if snap.holding:
            self.w_hand_title.value = ('<div class="mc-zone-title">' + esc(
                _("The next hand is dealt when you click Next round.")) + '</div>')
        elif snap.seat is None:
            self.w_hand_title.value = ('<div class="mc-zone-title">' + esc(
                _("Hands are hidden until a player is ready.")) + '</div>'
                if snap.hot_seat else "")
        else:
            n = len(snap.hand)
            if snap.hot_seat:
                title = ngettext("{name}'s hand ({n} card)", "{name}'s hand ({n} cards)",
                                 n).format(name=names[snap.seat], n=n)
            else:
                title = ngettext("Your hand ({n} card)", "Your hand ({n} cards)", n).format(n=n)
            # the view names its hint with N_: worded here, in the page's language
            extra = f" · {_(snap.selection_mode_hint)}" if snap.selecting else ""
            self.w_hand_title.value = f'<div class="mc-zone-title">{esc(title + extra)}</div>'
        summary = ""
        line = snap.selection_summary
        if line is not None and line[1]:
            ok, text = line
            cls = "mc-selection mc-ok" if ok else "mc-selection mc-not"
            named = _("Selected: {cards}").format(
                cards=" ".join(c.symbol for c in snap.selected_cards))
            # a summary that only names the cards ("selected: Q♥ 3♣") is not said twice
            said = named if text.lower() == named.lower() else f"{named} · {text}"
            summary = (f'<div class="{cls}" role="status" aria-live="polite">'
                       f'{esc(said)}</div>')
        elif line is not None and not snap.selected:
            summary = ('<div class="mc-selection">'
                       + esc(_("Select cards to make a stack.")) + '</div>')
        if self.w_selection.value != summary:
            self.w_selection.value = summary
        self.hand_buttons.draw(list(snap.hand))

    def _render_choices(self, snap: SeatSnapshot) -> None:
        wanted = snap.choices
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
        # the moment's own button (Next round) sits in its panel at the top
        in_moment = [b for b, c in zip(shown, wanted, strict=True)
                     if snap.moment is not None and c.key == NEXT_ROUND]
        rest = [b for b in shown if b not in in_moment]
        if list(self.w_moment_choices.children) != in_moment:
            self.w_moment_choices.children = in_moment
        if list(self.w_choices.children) != rest:
            self.w_choices.children = rest
        # the typed-move box and hints only for the person to act
        acting = snap.your_turn
        self.w_move.placeholder = _("type a move, e.g. {example}").format(
            example=snap.move_example)
        self.w_move.disabled = not acting
        self.w_move_go.disabled = not acting
        for b in self.w_hint_buttons:
            b.disabled = not acting

    def _render_explainer(self, snap: SeatSnapshot) -> None:
        ex = snap.explanation
        text_label, history_label = esc(_("explanation as text")), esc(_("moves so far"))
        self.w_step.value = f'<div class="mc-step">{ex.latex}</div>' if ex.latex else ""
        self.w_step_text.value = (
            f'<div class="mc-step-text" aria-label="{text_label}">'
            f'{esc(ex.text)}</div>'
            if ex.text else '<div class="mc-step-text">' + esc(_("No move yet.")) + '</div>')
        chain_label = esc(_("the deck so far"))
        self.w_chain.value = (f'<div class="mc-chain" aria-label="{chain_label}">'
                              f'{esc(ex.chain)}</div>' if ex.chain else "")
        self.w_numberline.value = (f'<div class="mc-numberline">{ex.svg}</div>'
                                   if ex.svg else "")
        hint = snap.hint
        self.w_hint.value = (f'<div class="mc-hint" role="status">{esc(hint)}</div>'
                             if hint else "")
        history = snap.history
        lines = history[-HISTORY_LINES:]
        start = len(history) - len(lines) + 1
        # the numbers sit left of the lines: room for the widest one ("123. "), so the
        # scrolling box never cuts them off
        digits = len(str(len(history)))
        self.w_history.value = (
            # tabindex: a long history scrolls, and a scrolled box must take the keyboard
            f'<ol class="mc-history" start="{start}" aria-label="{history_label}" '
            f'tabindex="0" '
            f'style="padding-left: {digits + 1.6}ch">'
            + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ol>")

    # ------------------------------------------------------------------ for tests
    def hidden_widget_states(self) -> list[dict[str, Any]]:
        """Every synced state of every widget in this table (what a visitor can read)."""
        states: list[dict[str, Any]] = synced_states(self)
        return states


def wait_for_bots(table: GameTable | TableController, timeout: float = 10.0) -> None:
    """Block until bots have moved (tables with a pause, outside a kernel loop), or a
    round's moment holds them until "Next round"."""
    ctl = table.ctl if isinstance(table, GameTable) else table
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        p = table.state.current_player
        if p is None or table.seats[p] == "human" or ctl.holding:
            return
        time.sleep(0.01)
    raise TimeoutError("bots did not move in time")
