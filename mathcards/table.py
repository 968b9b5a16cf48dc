"""The table controller: one game at one table, with no widget in sight.

A ``TableController`` holds everything a table *does*: the seats (people or
bots), the state, whose hand this screen shows, the resume offer of a saved
game, deal codes, the move menu (a move picked as a card, then a sign...),
typed moves, hints, the bots' turns, saving, the explainer's text and the move
history. It never imports ipywidgets: tests drive it directly, and the
ipywidgets table (``mathcards.widgets.table.GameTable``) is a view that sends
it clicks and draws what it says.

Every click or typed move becomes one of ``state.legal_actions()`` or a
refusal with the rule's reason (``Refused``); the controller changes nothing
else when it refuses. Each game says how its moves split into choices and how
its board looks in a small ``GameView`` (pure Python too: HTML strings).

Listeners (``listen``) hear "table" after a change the view must redraw,
"status" after a new message only, and "start" after a new deal.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mathcards import saves
from mathcards.asking import SHOW
from mathcards.asking.session import OK_KEY, STEP, STEP_FIRST, AskingSession
from mathcards.bots import BOT_KINDS, Bot
from mathcards.cards import Card, whole_number
from mathcards.errors import IllegalActionError, MathCardsError, SettingsError
from mathcards.game_view import CardState as CardState  # importable from here too
from mathcards.game_view import Choice as Choice
from mathcards.game_view import GameView as GameView
from mathcards.game_view import Refused as Refused
from mathcards.games.base import Game, State
from mathcards.games.registry import game_spec, get_game_class
from mathcards.i18n import N_, _
from mathcards.moments import Moment
from mathcards.table_bots import BotScheduler
from mathcards.table_bots import Schedule as Schedule  # importable from here too
from mathcards.table_bots import schedule_later as schedule_later
from mathcards.table_narration import Explanation as Explanation  # importable from here too
from mathcards.table_narration import Narration
from mathcards.table_room import RoomSync
from mathcards.table_saving import TableSaving
from mathcards.table_value import NEXT_ROUND as NEXT_ROUND
from mathcards.table_value import REMOTE as REMOTE
from mathcards.table_value import ROUND_OVER as ROUND_OVER
from mathcards.table_value import (
    choice_refusal,
    completed,
    hand_states,
    names_of_seats,
    not_your_turn_words,
    selection_choices,
)
from mathcards.table_value import stage as stage_of

if TYPE_CHECKING:
    from mathcards.table_snapshot import SeatSnapshot

SEAT_KINDS = saves.SEAT_KINDS
SEAT_LABELS = {"human": N_("person"), "random": N_("bot (random)"),
               "strong": N_("bot (strong)"), REMOTE: N_("classmate")}
MAX_SEATS = 8  # the most any game's engine allows
OFFER_FIRST = N_("first answer the offer above: resume your saved game or start a new one")
# a room's table deals nothing else and resumes nothing (mathcards.rooms.RoomLink): the
# room's game is the only game here until the player leaves the room
ROOM_TABLE = N_("this table plays a room's game: leave the room first to start another game")
SCREEN = "screen"  # TableController.snapshot's default: the seat this screen shows
ANSWER_FIRST = "first answer the question: type the number and press Enter"


def short_setting(game_name: str) -> tuple[str, int] | None:
    """(setting, value) of a game's shorter game to begin with (its ``GameSpec.short_game``),
    or None. The play pages deal it unless a deal code or a save says otherwise, and the
    class link builder puts it in a deal code."""
    return game_spec(game_name).short_game


def short_game(game: Game) -> Game | None:
    """``game`` as its short game (``short_setting``), or None for a game that has none."""
    short = short_setting(game.name)
    if short is None:
        return None
    field, value = short
    return type(game)(**(game.settings() | {field: value}))


def full_game(game: Game) -> Game | None:
    """``game`` with its full length (the rule text's target), or None for a game without one."""
    short = short_setting(game.name)
    if short is None:
        return None
    field, _value = short
    settings = game.settings()
    settings.pop(field, None)  # the game's own default: the rule text's length
    return type(game)(**settings)


class TableController:
    """One game at one table: seats, turns, bots, saves, the move menu and the explainer."""

    def __init__(self, view: GameView, game: Game | None = None, *,
                 seats: Sequence[str] | None = None, seed: int | None = None,
                 bot_delay: float = 0.8, save: bool = True, resume: str = "ask",
                 slot: str = "", bot_seed: int | None = None,
                 schedule: Schedule = schedule_later,
                 listener: Callable[[str], None] | None = None,
                 state: State | None = None, pause_after_round: bool = False,
                 level: str = SHOW) -> None:
        self.view = view
        self.game_name = view.game_name
        self.game_cls = get_game_class(self.game_name)
        # saving: the slot, the saved game on offer, the save after each move
        self.saving = TableSaving(self.game_name, slot, save)
        # narration: the explanation, the move list, the latest move, the moment
        self.narration = Narration(view)
        self.lock = threading.RLock()
        self._listeners: list[Callable[[str], None]] = [listener] if listener else []
        # told of a game played to its end here (the page records it for assignments)
        self.on_game_over: Callable[[State], None] | None = None
        # the bots' turns: the one owner of timers, threads and the page's loop
        self.bot_scheduler = BotScheduler(self, bot_delay, schedule)
        self._bot_seed = bot_seed
        # a round's moment holds the bots until "Next round" (a person here, bots with a
        # pause, not a room); GameTable asks for it, and so do the lessons' guided hands
        # ("Play the next hand" is their "Next round")
        self.pause_after_round = pause_after_round
        self._person_moved = False  # a person here has moved in this game
        self.length_offer = False  # the page offers the short and the full game at the start
        self.message = ""  # last status/refusal, plain text
        self.refused = False
        self.hint_level = 0
        self.picked: tuple[str, ...] = ()
        self.selected: tuple[int, ...] = ()  # indices into the viewer's hand
        self.viewer: int | None = None
        self.seats: tuple[str, ...] = ()
        self.deal_code = ""
        # room sync: the solo table's until a room joins it (mathcards.rooms.RoomLink gives
        # the room's: its code, the seats' names, who moves the bots, where moves are stored)
        self.room = RoomSync()
        # the level of help and the question waiting for an answer (mathcards.asking)
        self.asking = AskingSession(self, level)

        if state is not None:  # a given position (a lesson's deal): no saves involved
            game, seed, resume = state.game, state.seed, "never"
        game = game or self.game_cls(num_players=max(2, self.game_cls.min_players))
        seats = tuple(seats) if seats else ("human",) + ("strong",) * (game.num_players - 1)
        saved, problem = self.saving.load() if resume != "never" else (None, "")
        if saved is not None and resume == "always":
            self.resume(saved)
            return
        # nothing moves (no bot, no save) until the player answers the offer
        self.saved_offer = saved
        self.start(game, seats, seed, state=state)
        if problem:
            self.say(problem)

    # ------------------------------------------------------------------ listeners
    def listen(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def _notify(self, what: str) -> None:
        for listener in self._listeners:
            listener(what)

    @property
    def in_progress(self) -> bool:
        """A person here has moved in this game and it is not over: a new game would
        throw it away (the table asks first)."""
        return self._person_moved and not self.state.is_over

    def say(self, text: str, *, refused: bool = False) -> None:
        self.message, self.refused = text, refused
        self._notify("status")

    # ------------------------------------------------------------------ seats
    @property
    def seat_names(self) -> tuple[str, ...]:
        if len(self.seat_labels) == len(self.seats):
            return self.seat_labels
        return names_of_seats(self.seats)

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
            if kind not in SEAT_KINDS and kind != REMOTE:
                raise SettingsError(f"seat kind {kind!r} is not one of {', '.join(SEAT_KINDS)}")
        return seats

    # ------------------------------------------------------------------ game life
    def start(self, game: Game, seats: Sequence[str], seed: int | None,
              state: State | None = None) -> None:
        with self.lock:
            self.seats = self._check_seats(game, seats)
            self.asking.reset()
            # the trick games show a deal code only when dealt from one (a teacher's)
            private = saves.has_private_deal(game)
            shown = private or (state is None and seed is not None)
            if seed is None:
                seed = saves.new_seed() if private else secrets.randbelow(2**31)
            if state is None and not private:
                state = game.new_game(seed)
            elif state is None:
                # the deal code shows `seed`: it decides the public cards and, when one
                # person sits here, their hand; every other hidden card comes from a
                # secret of this table only (a code never reveals a hand)
                humans = [i for i, kind in enumerate(self.seats) if kind == "human"]
                state = game.new_game(seed, private_seed=saves.new_private_seed(),
                                      known_seat=humans[0] if len(humans) == 1 else None)
            self.state = state
            self.bot_scheduler.new_game()
            base = ((self.state.seed ^ self.state.private_seed) % 2**32
                    if self._bot_seed is None else self._bot_seed)
            self.bots = {i: Bot(self.game_name, kind, seed=base * 31 + i)
                         for i, kind in enumerate(self.seats) if kind in BOT_KINDS}
            self.viewer = self.humans[0] if len(self.humans) == 1 else None
            self.picked, self.selected = (), ()
            self.hint_level = 0
            self.narration.reset(self.state, self.seat_names)
            self._person_moved = False
            self.message, self.refused = "", False
            self.deal_code = saves.deal_code(self.state.game, self.state.seed) if shown else ""
            self._notify("start")
            self._notify("table")
            self._after_change()

    def new_game(self, game: Game | None = None, seats: Sequence[str] | None = None,
                 seed: int | None = None) -> None:
        """Deal a new game (same settings and seats unless given)."""
        if self.room_code:
            raise Refused(_(ROOM_TABLE))
        game = game or self.state.game
        seats = seats or self.seats
        if len(seats) != game.num_players:
            seats = tuple(seats[:game.num_players]) + ("strong",) * (
                game.num_players - len(seats))
        self.saved_offer = None
        self.start(game, seats, seed)

    def resume(self, saved: saves.SavedTable) -> None:
        if self.room_code:
            raise Refused(_(ROOM_TABLE))
        self.saved_offer = None
        self.length_offer = False  # a saved game keeps its own length
        self.start(saved.state.game, saved.seats, saved.state.seed, state=saved.state)
        # points of moves played for a seat stay held back after a reload (issue 37)
        self.asking.withheld = dict(saved.withheld)
        self._notify("table")
        self.say(_("Welcome back: your saved game is restored at move {n}.").format(
            n=len(self.state.history)))

    def accept_offer(self) -> None:
        """Resume the saved game on offer (nothing when none is)."""
        if self.room_code:
            self.saved_offer = None
            self.say(_(ROOM_TABLE), refused=True)
        elif self.saved_offer is not None:
            self.resume(self.saved_offer)

    def decline_offer(self) -> None:
        """Keep the new game dealt under the offer; bots may move now."""
        if self.saved_offer is None:
            return
        self.saved_offer = None
        self._notify("table")
        self.schedule_bot()

    def new_game_from_setup(self, players: Any, kinds: Sequence[Any]) -> None:
        """A new game from the setup panel's values (what the page sent: checked here)."""
        if self.room_code:  # the panel is hidden, yet a page can still send its clicks
            self.say(_(ROOM_TABLE), refused=True)
            return
        if self.saved_offer is not None:
            self.say(_(OFFER_FIRST), refused=True)
            return
        n = players if type(players) is int else whole_number(players, longest=2)
        if n is None or not 0 < n <= min(len(kinds), MAX_SEATS):
            self.say(_("Cannot start that game: choose the number of players from the list"),
                     refused=True)
            return
        try:
            settings = self.state.game.settings() | {"num_players": n}
            game = self.game_cls(**settings)
            self.new_game(game, tuple(kinds[:n]))
        except MathCardsError as exc:
            self.say(_("Cannot start that game: {reason}").format(reason=exc), refused=True)
        except (TypeError, ValueError):  # never Python's own words on the page
            self.say(_("Cannot start that game with these settings: choose them again from "
                       "the lists"), refused=True)

    def deal(self, code: Any, kinds: Sequence[str]) -> None:
        """Deal a deal code; ``kinds`` are the seat kinds shown (seats the code adds are bots)."""
        if self.room_code:
            self.say(_(ROOM_TABLE), refused=True)
            return
        if self.saved_offer is not None:
            self.say(_(OFFER_FIRST), refused=True)
            return
        try:
            game, seed = saves.read_deal_code(code)
            if game.name != self.game_name:
                raise saves.DealCodeError(
                    _("that deal code is for {game}; this table plays {this}").format(
                        game=game.title, this=self.game_cls.title))
        except MathCardsError as exc:
            self.say(str(exc), refused=True)
            return
        n = game.num_players
        kinds = tuple(kinds[:min(n, len(self.seats))])
        if "human" not in kinds:
            kinds = ("human", *kinds[1:])
        kinds = kinds + ("strong",) * (n - len(kinds))
        self.length_offer = False  # a deal code keeps its own settings
        self.new_game(game, kinds, seed)
        self.say(_("Dealt {code}.").format(code=self.deal_code))

    # ------------------------------------------------------------------ turns
    def acting_human(self) -> bool:
        p = self.state.current_player
        return p is not None and self.seats[p] == "human" and self.viewer == p

    @property
    def busy(self) -> bool:
        """A bot is to move (the page's tests wait while this is so)."""
        p = self.state.current_player
        return (p is not None and self.seats[p] != "human" and self.saved_offer is None
                and not self.holding and not self.asking.holds_bots())

    # ------------------------------------------------------------------ moments
    def _pauses(self) -> bool:
        """Whether a round's moment holds the table until "Next round": a person at this
        screen, bots with a pause (``bot_delay=0`` is a fast table: tests, demos), and
        not a room (classmates at other screens are never held by this one)."""
        return (self.pause_after_round and self.bot_delay > 0 and bool(self.humans)
                and self.publish is None and not self.room_code)

    @property
    def holding(self) -> bool:
        """A round's moment is shown and nobody moves until "Next round" is clicked."""
        narration = self.narration
        return narration.held and narration.moment is not None and not self.state.is_over

    def next_round(self) -> None:
        """The person here starts the next round: the moment goes, bots may move."""
        with self.lock:
            if not self.holding:
                raise Refused(_("no round is waiting to start"))
            self.narration.start_next_round()  # the deal held back is said now
            self.message, self.refused = "", False
            self._notify("table")
            self._after_change()

    def turn_banner(self) -> str:
        """Whose turn it is, in a few words for the big banner at the top of the table."""
        if self.saved_offer is not None:
            return ""
        if self.state.is_over:
            return _("Game over")
        if self.holding:
            return _("Round over: click Next round")
        p = self.state.current_player
        if p is None:
            return ""
        name = self.seat_names[p]
        if self.seats[p] == "human":
            return _("Your turn") if len(self.humans) == 1 else _("{name}'s turn").format(
                name=name)
        return _("{name} is playing…").format(name=name)

    # ------------------------------------------------------------------ game length
    def length_choice(self) -> tuple[str, str] | None:
        """(this game's length, the other length's button) while the start of a fresh
        page's game offers both (no deal code, no save, nobody here has moved yet)."""
        if (not self.length_offer or self._person_moved or self.room_code
                or self.saved_offer is not None or self.state.is_over):
            return None
        game = self.state.game
        short, full = short_game(game), full_game(game)
        if short is None or full is None:
            return None
        field, _value = short_setting(game.name) or ("", 0)
        now, short_to, full_to = (getattr(g, field) for g in (game, short, full))
        if game == short:  # as switch_length tells them apart
            return (_("Short game: first to {n}").format(n=now),
                    _("Play a full game instead (first to {n})").format(n=full_to))
        return (_("Full game: first to {n}").format(n=now),
                _("Play a short game instead (first to {n})").format(n=short_to))

    def switch_length(self) -> None:
        """Deal the other length (short or full) with the same seats."""
        with self.lock:
            if self.length_choice() is None:
                raise Refused(_("the game has started: choose its length with New game"))
            game = self.state.game
            short = short_game(game)
            other = full_game(game) if game == short else short
            assert other is not None
            self.new_game(other)

    @property
    def waiting_for_ready(self) -> int | None:
        """The hot-seat player whose hand stays hidden until they click "I'm ready"."""
        p = self.state.current_player
        if p is not None and self.hot_seat and self.seats[p] == "human" and self.viewer != p:
            return p
        return None

    def _after_change(self) -> None:
        """Hand over the screen in hot-seat play and let bots move."""
        if self.waiting_for_ready is not None:
            self.viewer = None  # hide the last hand until the next player is ready
            self._notify("table")
        self.schedule_bot()

    def set_seat(self, seat: int, kind: str) -> None:
        """A room's seat changed hands (a classmate who left, replaced by a bot)."""
        with self.lock:
            seats = list(self.seats)
            seats[seat] = kind
            self.seats = self._check_seats(self.state.game, seats)
            if kind in BOT_KINDS and seat not in self.bots:
                self.bots[seat] = Bot(self.game_name, kind, seed=self.state.seed * 31 + seat)
            self._notify("table")
            self.schedule_bot()

    # --- the bots' turns (mathcards.table_bots.BotScheduler)
    @property
    def bot_delay(self) -> float:
        return self.bot_scheduler.delay

    @property
    def _generation(self) -> int:
        return self.bot_scheduler.generation

    def _bot_due(self) -> bool:
        return self.bot_scheduler.due()

    def schedule_bot(self) -> None:
        self.bot_scheduler.schedule()

    def _bot_move(self, generation: int) -> None:
        self.bot_scheduler.move(generation)

    def apply_remote(self, action: Any) -> None:
        """A move made at another screen of this room (already stored there)."""
        with self.lock:
            self._commit(action, by_bot=True)

    # ------------------------------------------------------------------ moves
    def _commit(self, action: Any, *, by_bot: bool = False) -> None:
        """Play a legal action, one named step after another: apply it, explain it, record
        it in the move list, work out its moment, save, tell the listeners, let bots move."""
        before = self.state
        shown = self._apply_step(action)
        after, names = self.state, self.seat_names
        self._explain_step(before, after, names, by_bot=by_bot)
        self._record_step(after, names, by_bot=by_bot)
        self._moment_step(before, after, names, by_bot=by_bot)
        self._save_step(after)
        self._notify_step(before, after, shown, by_bot=by_bot)
        self._bot_step(by_bot=by_bot)

    def _apply_step(self, action: Any) -> tuple[Any, ...]:
        """The new state; the pick, the selection and the hint start again. Returns what the
        table showed before (a followed move's question may hold it back)."""
        self.asking.drop()  # a question about an earlier position goes unanswered
        shown = self.narration.display()
        self.state = self.state.apply(action)  # the caller checked legality; apply re-checks
        self.picked, self.selected = (), ()
        self.hint_level = 0
        return shown

    def _explain_step(self, before: State, after: State, names: Sequence[str], *,
                      by_bot: bool) -> None:
        """The explainer's words for the move, with the moves shown beside it (narration)."""
        self.narration.explain(before, after, names, by_bot=by_bot)

    def _record_step(self, after: State, names: Sequence[str], *, by_bot: bool) -> None:
        """The move list's sentences, and the move just made said on its own (narration)."""
        self.narration.record(after, names, by_bot=by_bot)
        if not by_bot:
            self._person_moved = True

    def _moment_step(self, before: State, after: State, names: Sequence[str], *,
                     by_bot: bool) -> None:
        """A round or the game won, held while the person reads it (narration)."""
        self.narration.find_moment(before, after, names, self.humans, pauses=self._pauses(),
                                   by_bot=by_bot)
        moment = self.narration.moment
        if moment is not None and any(self.asking.withheld_of(i)
                                      for i in range(len(self.seats))):
            self.narration.moment = self._counted_moment(moment, before, after)

    def _counted_moment(self, moment: Moment, before: State, after: State) -> Moment:
        """A round or game moment told with the scores that count: a round won by a move
        played for the student is no win of theirs; the game's winners are ``winners``."""
        from dataclasses import replace

        from mathcards.moments import _headline

        names = self.seat_names
        lines = moment.lines
        if moment.kind == "game":
            winners = self.winners
            headline, win = _headline(winners, names, self.humans, "game")
            scores = " · ".join(f"{names[i]} {s}" for i, s in enumerate(self.scores))
            return replace(moment, headline=headline, win=win, winners=winners,
                           lines=(*lines, self.withheld_words(),
                                  _("Scores that count: {scores}").format(scores=scores)))
        mover = before.current_player
        if mover is not None and mover in moment.winners and self.asking._shown is not None \
                and self.asking._shown[0] == mover and not self.asking._shown[2]:
            return replace(moment, win=False,
                           headline=_("The round was won with a move worked out for you: "
                                      "its point does not count for you"),
                           lines=(*lines, self.withheld_words()))
        return moment

    def _save_step(self, after: State) -> None:
        """Save the table (saving); the message after the move."""
        withheld = {i: self.asking.withheld_of(i) for i in range(len(self.seats))}
        self.message = self.saving.after_commit(after, self.seats, withheld)
        self.refused = False
        if after.is_over:
            self.message = self.final_words()
            if self.on_game_over is not None:
                self.on_game_over(after)

    def _notify_step(self, before: State, after: State, shown: tuple[Any, ...], *,
                     by_bot: bool) -> None:
        """The question about the move (at "I count"), then the listeners redraw."""
        self.asking.after_commit(before, after, by_bot, shown)
        self._notify("table")

    def _bot_step(self, *, by_bot: bool) -> None:
        """After a person's move, bots move (and a hot seat hides the hand); after a bot's,
        a hot seat waiting for its player keeps the hand hidden."""
        if not by_bot:
            self._after_change()
        elif self.waiting_for_ready is not None:
            self.viewer = None
            self._notify("table")

    # --- the scores that count: a move played for the student (after two wrong answers at
    # "I count", or an answer seen) scores nothing for them (mathcards.asking.session)
    @property
    def scores(self) -> tuple[int, ...]:
        """The scores that count: the engine's, minus the points of moves played for a
        student; as the board shows them (before a followed move whose question waits: its
        captures are the question's answer)."""
        return tuple(s - self.asking.withheld_of(i)
                     for i, s in enumerate(self.shown_state.scores))

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners by the scores that count, once the game is over; a tie goes to those
        who worked out all their own moves (the engine's winners when nothing was withheld)."""
        if not self.state.is_over:
            return ()
        scores = self.scores
        best = max(scores)
        top = tuple(i for i, s in enumerate(scores) if s == best)
        own = tuple(i for i in top if not self.asking.withheld_of(i))
        return own or top

    def withheld_words(self) -> str:
        """One sentence about the points that do not count ("" when none)."""
        lost = [(i, self.asking.withheld_of(i)) for i in range(len(self.seats))]
        lost = [(i, n) for i, n in lost if n > 0]
        if not lost:
            return ""
        names = self.seat_names
        who = ", ".join(f"{names[i]} {n}" for i, n in lost)
        return _("Points from moves worked out for you (after two tries, a result seen or "
                 "the goal guessed) do not count ({who}).").format(who=who)

    def final_words(self) -> str:
        names = self.seat_names
        winners = self.winners
        scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(self.scores))
        lost = self.withheld_words()
        lost = f" {lost}" if lost else ""
        if len(winners) == 1:
            return _("Game over: {name} wins! Scores: {scores}.").format(
                name=names[winners[0]], scores=scores) + lost
        return _("Game over: a tie between {names}. Scores: {scores}.").format(
            names=", ".join(names[i] for i in winners), scores=scores) + lost

    def play(self, action: Any) -> None:
        """Play ``action`` for the person to act (raises Refused with the reason)."""
        with self.lock:
            if self.saved_offer is not None:
                raise Refused(_(OFFER_FIRST))
            if self.holding:
                raise Refused(_(ROUND_OVER))
            if self.asking.waiting == STEP:
                raise Refused(_(STEP_FIRST))
            if self.asking.blocking():
                raise Refused(ANSWER_FIRST)
            if not self.acting_human():  # the game is over, a bot's or another's turn
                raise Refused(self.not_your_turn())
            if not self.state.is_legal(action):
                if isinstance(action, self.state.game.action_types):
                    if self.asking.ask_before(action):  # refused once answered (Dice Stacks)
                        return
                    reason = self.view.why_not(self.state, action)
                    self.asking.count_refusal(action, reason)
                else:
                    reason = "that is not a move of this game"
                raise Refused(reason)
            if self.asking.ask_before(action):
                return  # laid once the student has said what it makes
            self._lay(action)

    def _lay(self, action: Any) -> None:
        """Lay a legal move of the person here (stored in the room first, if any), and the
        move that follows it by itself (``GameView.follow_up``: Dice Stacks' turn ends when
        the hand is empty)."""
        if self.publish is not None and not self.publish(self.state, action):
            raise Refused(_("another move for this turn reached the room first; the "
                            "table now shows it"))
        self._commit(action)
        follow = self.view.follow_up(self.state)
        if (follow is not None and self.acting_human() and not self.holding
                and self.state.is_legal(follow)
                and (self.publish is None or self.publish(self.state, follow))):
            self._commit(follow, by_bot=True)  # shown with the move it follows

    # --- the level of help and its questions (mathcards.asking.session)
    def answer(self, text: Any) -> None:
        """The student's answer to the question the table asks (raises on bad text)."""
        with self.lock:
            self.asking.answer(text)

    def set_level(self, level: Any) -> None:
        with self.lock:
            self.asking.set_level(level)

    def set_follow(self, on: Any) -> None:
        """Ask about the other players' moves too (a checkbox: True or False only)."""
        with self.lock:
            if type(on) is not bool:
                raise Refused(_("follow the others: tick the box or not"))
            self.asking.follow = on
            self._notify("table")

    @property
    def shown_state(self) -> State:
        """The position the board shows: before a followed move not yet answered."""
        return self.asking.shown_state() or self.state

    def _display(self) -> tuple[Any, ...]:
        """What the table shows of the moves so far (held back while a followed move waits
        for its answer): ``Narration.display``."""
        return self.narration.display()

    def _show(self, display: tuple[Any, ...], lines: Sequence[str] = ()) -> None:
        self.narration.show(display, lines)

    def _explain_with(self, steps: Sequence[Any]) -> None:
        """Show the asking module's own steps for the move just answered."""
        self.narration.explain_with(steps)

    # --- room sync (mathcards.table_room)
    def join_room(self, room: RoomSync) -> None:
        """This table plays a room's game now: its code, names, bots' page and store."""
        self.room = room

    def leave_room(self) -> None:
        """Back to a solo table (no code, the table's own names, its own bots)."""
        self.room = RoomSync()

    @property
    def room_code(self) -> str:
        return self.room.code

    @room_code.setter
    def room_code(self, code: str) -> None:
        self.room.code = code

    @property
    def seat_labels(self) -> tuple[str, ...]:
        return self.room.seat_labels

    @seat_labels.setter
    def seat_labels(self, labels: tuple[str, ...]) -> None:
        self.room.seat_labels = labels

    @property
    def publish(self) -> Callable[[State, Any], bool] | None:
        return self.room.publish

    @publish.setter
    def publish(self, hook: Callable[[State, Any], bool] | None) -> None:
        self.room.publish = hook

    def runs_bots(self) -> bool:
        """This page moves the bots (a room's first page still here; a solo table's own)."""
        return self.room.runs_bots()

    # --- the services' state, read and set as the table's own (tests, rooms, the widget)
    @property
    def save_enabled(self) -> bool:
        return self.saving.enabled

    @save_enabled.setter
    def save_enabled(self, on: bool) -> None:
        self.saving.enabled = on

    @property
    def slot(self) -> str:
        return self.saving.slot

    @property
    def saved_offer(self) -> saves.SavedTable | None:
        """The saved game offered to resume: nothing moves until it is answered."""
        return self.saving.offer

    @saved_offer.setter
    def saved_offer(self, offer: saves.SavedTable | None) -> None:
        self.saving.offer = offer

    @property
    def explanation(self) -> Explanation:
        return self.narration.explanation

    @property
    def history(self) -> list[str]:
        return self.narration.history

    @property
    def latest(self) -> str:
        return self.narration.latest

    @latest.setter
    def latest(self, text: str) -> None:
        self.narration.latest = text

    @property
    def latest_by_bot(self) -> bool:
        return self.narration.latest_by_bot

    @property
    def moment(self) -> Moment | None:
        return self.narration.moment

    def attempt(self, fn: Callable[..., None], *args: Any) -> bool:
        """Run one of the player's requests; a refusal becomes the message. True if done."""
        try:
            fn(*args)
        except IllegalActionError as exc:
            self.say(exc.reason, refused=True)
        except MathCardsError as exc:  # Refused, bad card text, bad deal code...
            self.say(str(exc), refused=True)
        else:
            return True
        return False

    # --- the move menu
    def hand(self) -> tuple[Card, ...]:
        """The hand this screen shows (empty while no player's hand may be seen, and while
        a round's moment waits: the next round's hand is dealt at "Next round")."""
        if self.viewer is None or self.holding:
            return ()
        return tuple(getattr(self.state.observation(self.viewer), "hand", ()))

    def public_observation(self) -> Any:
        """The observation used to draw the table: the viewer's, else a seat's minus its hand."""
        seat = self.viewer if self.viewer is not None else 0
        return self.shown_state.observation(seat)

    @property
    def selecting(self) -> bool:
        return self.acting_human() and self.view.selection_mode(self.state)

    def stage(self) -> tuple[list[tuple[Any, tuple[Choice, ...]]], dict[str, Choice]]:
        """The legal actions matching the picks so far, and the next stage's choices."""
        return stage_of(self.view, self.state, self.picked)

    def click_card(self, key: str | None) -> None:
        """A click on a card of the hand (its key: "card:7H", or "h3" when selecting)."""
        with self.lock:
            if self.holding:
                raise Refused(_(ROUND_OVER))
            if key is None or not self.acting_human():
                raise Refused(self.not_your_turn())
            hand = self.hand()
            if self.view.selection_mode(self.state):
                i = whole_number(key[1:], longest=3) if key.startswith("h") else None
                i = -1 if i is None else i
                if not 0 <= i < len(hand):
                    raise Refused(_("that card is not in your hand"))
                sel = list(self.selected)
                if i in sel:
                    sel.remove(i)
                else:
                    sel.append(i)
                self.selected = tuple(sel)
                self.message, self.refused = "", False
                self._notify("table")
                return
            self._choose(key)

    def click_choice(self, key: str | None) -> None:
        """A click on a choice button (its key)."""
        with self.lock:
            if key == NEXT_ROUND:
                self.next_round()
                return
            if key == OK_KEY:  # the step or the feedback has been read: play goes on
                try:
                    self.asking.acknowledge()
                except MathCardsError as exc:
                    raise Refused(str(exc)) from None
                return
            if isinstance(key, str) and key.startswith("ans:"):  # a button of the answer
                try:
                    self.asking.pick(key)
                except MathCardsError as exc:
                    raise Refused(str(exc)) from None
                return
            if key is None or not self.acting_human():
                raise Refused(self.not_your_turn())
            if key == "back":
                self.picked = self.picked[:-1]
                self.message, self.refused = "", False
                self._notify("table")
                return
            if key in ("lay", "off:lay"):  # a disabled "Lay down" clicked anyway: say why
                self._lay_selection()
                return
            if key == "clear":
                self.selected = ()
                self.message, self.refused = "", False
                self._notify("table")
                return
            self._choose(key)

    def _first_choices(self) -> dict[str, Choice]:
        """The choices a move starts with (its card), whatever is picked now."""
        return stage_of(self.view, self.state, ())[1]

    def _choose(self, key: str) -> None:
        matching, choices = self.stage()
        if key not in choices:
            raise Refused(choice_refusal(self.view, self.state, self.picked, key, self.hand()))
        picked = (*self.picked, key)
        action = completed(matching, picked)
        if action is not None:
            self.play(action)
            return
        self.picked = picked
        self.message, self.refused = "", False
        self._notify("table")

    def selected_cards(self) -> tuple[Card, ...]:
        hand = self.hand()
        return tuple(hand[i] for i in self.selected if 0 <= i < len(hand))

    def _lay_selection(self) -> None:
        cards = self.selected_cards()
        if not cards:
            raise Refused(_("select cards from your hand first"))
        self.play(self.view.selection_action(self.state, cards))

    def not_your_turn(self) -> str:
        return not_your_turn_words(self.state, self.seats, self.seat_names)

    def type_move(self, text: Any) -> None:
        """A typed move ("7H -"): read by the game's move parser, then played."""
        with self.lock:
            if self.holding:
                raise Refused(_(ROUND_OVER))
            if not isinstance(text, str) or not text.strip():
                raise Refused(_("type a move first, e.g. {example}").format(
                    example=self.state.game.move_example))
            if len(text) > 80:
                raise Refused(_("that is too long to be a move"))
            if not self.acting_human():
                raise Refused(self.not_your_turn())
            self.play(self.view.parse_move(self.state, text))

    def ready(self) -> None:
        """The hot-seat player to act shows their hand."""
        with self.lock:
            p = self.state.current_player
            if p is None or self.seats[p] != "human" or self.holding:
                return
            self.viewer = p
            self.message, self.refused = "", False
            self._notify("table")

    def ask_hint(self, level: int) -> None:
        with self.lock:
            if not self.acting_human():
                self.say(self.not_your_turn(), refused=True)
                return
            if not self.asking.hints or (self.asking.counting and level not in (1, 2)):
                # "I count": a hint names a card, never what it makes
                self.say(_("no hints at this level") if not self.asking.hints
                         else _("at \"I count\" the hints are the nudge and which card"),
                         refused=True)
                return
            self.hint_level = level
            self.asking.hint_shown(level)
            if self.refused:  # a refused hint level before: its words go
                self.message, self.refused = "", False
            self._notify("table")

    # --- what the view draws
    def snapshot(self, seat: int | str | None = SCREEN) -> SeatSnapshot:
        """Everything the screen of ``seat`` shows now, as one frozen value
        (``mathcards.table_snapshot``): by default the seat this screen shows (``viewer``).
        Another seat's snapshot is built as its own screen would show it, with nothing
        picked or selected yet; a seat sees its own hand only."""
        from mathcards.table_snapshot import build_snapshot

        with self.lock:
            if seat == SCREEN or seat == self.viewer:
                return build_snapshot(self)
            if seat is not None and not (type(seat) is int and 0 <= seat < len(self.seats)):
                raise Refused(_("there is no seat {seat!r} at this table").format(seat=seat))
            kept = self.viewer, self.picked, self.selected, self.hint_level
            self.viewer, self.picked, self.selected, self.hint_level = (
                seat if isinstance(seat, int) else None, (), (), 0)
            try:
                return build_snapshot(self)
            finally:
                self.viewer, self.picked, self.selected, self.hint_level = kept

    def status_line(self) -> str:
        if self.holding and not self.message:
            return _("The round is over: click Next round to deal the next one.")
        return self.message or self.view.status(self.shown_state, self.seat_names)

    def hint_text(self) -> str:
        if not (self.hint_level and self.acting_human()) or self.asking.pending is not None:
            return ""
        try:
            from mathcards import explain as X

            asker = self.asking.asker if self.asking.counting else None
            own = asker.hint(self.state, self.hint_level) if asker is not None else None
            if own is not None:  # "I count": the game's hint names no answer
                return own
            return str(X.hint(self.state, self.hint_level).spoken)
        except MathCardsError as exc:  # a hint must never break the table
            return _("(no hint: {reason})").format(reason=exc)
        except Exception:  # noqa: BLE001 - nor a bug of the hint's
            return "(no hint now)"

    def selection_summary(self) -> tuple[bool, str] | None:
        """While selecting: (legal?, one line) for the cards chosen so far; else None."""
        if not self.selecting:
            return None
        return self.view.selection_summary(self.state, self.selected_cards())

    def card_states(self) -> list[CardState]:
        """Each card of the shown hand: what a click names, enabled, selected, tooltip."""
        acting = self.acting_human() and not self.holding and not self.asking.blocking()
        return hand_states(self.view, self.state, self.hand(), self.picked, self.selected,
                           acting=acting)

    def offered_choices(self) -> list[Choice]:
        """The choice buttons to show now (keys "off:..." are shown disabled with a reason)."""
        wanted: list[Choice] = []
        if self.holding:
            return [Choice(NEXT_ROUND, _("Next round"), tooltip=_("start the next round"),
                           primary=True)]
        if self.asking.waiting:  # the step or the feedback to read first: OK goes on
            wanted.append(Choice(OK_KEY, _("OK, go on"), primary=True,
                                 tooltip=_("I have read it: play goes on")))
        if self.asking.pending is not None:  # the buttons that build the answer, if any
            wanted = [Choice(key, label, tooltip=tip, primary=picked)
                      for key, label, tip, picked in self.asking.answer_choices()]
        if self.acting_human() and not self.asking.blocking():
            if self.view.selection_mode(self.state):
                wanted += self._selection_choices()
            else:
                _matching, choices = self.stage()
                wanted += [c for c in choices.values() if c.card is None]
                wanted += self.view.refused_choices(self.state, self.picked)
                if self.picked:
                    wanted.append(Choice("back", _("Back"), tooltip=_("choose again")))
        return list({c.key: c for c in wanted}.values())  # a key is one button

    def _selection_choices(self) -> list[Choice]:
        """Buttons in selection mode: lay down the selected cards, clear, other moves."""
        return selection_choices(self.view, self.state, self.selected_cards())

