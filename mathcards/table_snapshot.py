"""What one seat's screen shows of a table, as one typed, frozen value.

``TableController.snapshot(seat)`` builds a ``SeatSnapshot``: the board as that seat may see
it, the seat's own hand (never another's: a seat's hidden cards reach only its own
snapshot), the choices offered, the status and turn lines, the hint, the explanation and
the move list, the question waiting for an answer, the refusal, the seats' names and
whether it is this seat's turn. The ipywidgets table (``mathcards.widgets.table.GameTable``)
draws one snapshot per redraw and reads nothing else of the controller while it draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mathcards.moments import Moment
from mathcards.table_narration import Explanation

if TYPE_CHECKING:
    from mathcards.asking.session import AskingSession
    from mathcards.cards import Card
    from mathcards.game_view import CardState, Choice, GameView
    from mathcards.games.base import State
    from mathcards.saves import SavedTable


@dataclass(frozen=True)
class SavedOffer:
    """The saved game a page offers to resume, as the offer describes it."""

    title: str
    moves: int
    seats: tuple[str, ...]  # seat kinds ("human", "strong"...)


@dataclass(frozen=True)
class QuestionShown:
    """The table's level of help and the question waiting for an answer, if any."""

    level: str
    follow: bool
    fixed: bool  # the teacher's link fixed the level
    asks: bool  # this game asks questions at all
    hints: bool  # hints are offered at this level
    counting: bool  # "I count": no hint names what a move makes
    prompt: str = ""  # "" while nothing is asked
    kind: str = ""  # the question's kind ("capture", ...)
    feedback: str = ""
    asked_at: float = 0.0  # when it was asked: tells one question from the next (0: none)


@dataclass(frozen=True)
class SeatSnapshot:
    """Everything one seat's screen shows now (see the module's docstring)."""

    seat: int | None  # the seat whose hand is shown (None: no hand, a hot seat between turns)
    title: str  # the game's title
    seat_names: tuple[str, ...]
    seat_kinds: tuple[str, ...]  # "human", "strong", "remote"...
    scores: tuple[int, ...]
    to_act: int | None  # the seat to move (None: the game is over)
    moves: int  # moves played so far
    is_over: bool
    in_progress: bool  # a person here has moved and the game goes on: New game asks first
    your_turn: bool  # this seat is to move and may move now
    busy: bool  # a bot is to move
    # the board (or the round just won, while its moment waits), drawn by the game's view
    # (a widgets/ module): drawing reads the whole state, and a snapshot holds no state, so
    # that it never holds another seat's hidden cards
    board_html: str
    hand: tuple[CardState, ...]  # this seat's own cards, each as a click offers it
    selecting: bool  # cards are selected into a set (Dice Stacks)
    selected: tuple[int, ...]
    selected_cards: tuple[Card, ...]
    selection_summary: tuple[bool, str] | None
    choices: tuple[Choice, ...]  # the buttons ("off:..." shown disabled with a reason)
    picked: tuple[str, ...]  # the steps of a move picked so far
    status: str  # the status line (a refusal's words when refused)
    refused: bool
    message: str  # the last message or refusal
    turn_banner: str
    turn: str  # whose the turn is, for the banner's look: "over", "you" or "other"
    hint: str
    explanation: Explanation
    history: tuple[str, ...]
    latest: str
    latest_by_bot: bool
    moment: Moment | None
    holding: bool  # a round's moment holds the table until "Next round"
    waiting_for_ready: int | None  # the hot-seat player who must click "I'm ready"
    hot_seat: bool
    saved_offer: SavedOffer | None
    length_choice: tuple[str, str] | None
    deal_code: str
    room_code: str
    move_example: str
    question: QuestionShown
    selection_mode_hint: str
    score_words: tuple[str, ...] = ()  # per seat, where its score comes from ("" for none)


class SnapshotSource(Protocol):
    """What a snapshot reads of its table: ``mathcards.table.TableController`` (which builds
    its snapshots here) has it all; this module does not import the table."""

    @property
    def state(self) -> State: ...
    @property
    def shown_state(self) -> State: ...
    @property
    def view(self) -> GameView: ...
    @property
    def asking(self) -> AskingSession: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def seat_names(self) -> tuple[str, ...]: ...
    @property
    def viewer(self) -> int | None: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def in_progress(self) -> bool: ...
    @property
    def busy(self) -> bool: ...
    @property
    def holding(self) -> bool: ...
    @property
    def hot_seat(self) -> bool: ...
    @property
    def selecting(self) -> bool: ...
    @property
    def selected(self) -> tuple[int, ...]: ...
    @property
    def picked(self) -> tuple[str, ...]: ...
    @property
    def refused(self) -> bool: ...
    @property
    def message(self) -> str: ...
    @property
    def explanation(self) -> Explanation: ...
    @property
    def history(self) -> list[str]: ...
    @property
    def latest(self) -> str: ...
    @property
    def latest_by_bot(self) -> bool: ...
    @property
    def moment(self) -> Moment | None: ...
    @property
    def waiting_for_ready(self) -> int | None: ...
    @property
    def saved_offer(self) -> SavedTable | None: ...
    @property
    def deal_code(self) -> str: ...
    @property
    def room_code(self) -> str: ...
    def public_observation(self) -> Any: ...
    def acting_human(self) -> bool: ...
    def card_states(self) -> list[CardState]: ...
    def selected_cards(self) -> tuple[Card, ...]: ...
    def selection_summary(self) -> tuple[bool, str] | None: ...
    def offered_choices(self) -> list[Choice]: ...
    def status_line(self) -> str: ...
    def turn_banner(self) -> str: ...
    def hint_text(self) -> str: ...
    def length_choice(self) -> tuple[str, str] | None: ...


def build_snapshot(ctl: SnapshotSource) -> SeatSnapshot:
    """The snapshot of the seat ``ctl`` shows now (``ctl.viewer``), under its lock."""
    state = ctl.state
    names = ctl.seat_names
    seat = ctl.viewer
    holding = ctl.holding
    p = state.current_player
    ctl.view.withheld = {i: n for i in range(len(ctl.seats))
                         if (n := ctl.asking.withheld_of(i))}
    board = ((holding and ctl.view.round_end_html(state, names))
             or ctl.view.board_html(ctl.shown_state, ctl.public_observation(), names,
                                    viewer=seat))
    offer = ctl.saved_offer
    asking = ctl.asking
    pending = asking.pending
    question = QuestionShown(
        level=asking.level, follow=asking.follow, fixed=asking.fixed,
        asks=asking.asker is not None, hints=asking.hints, counting=asking.counting,
        prompt=pending.question.prompt if pending is not None else "",
        kind=pending.question.kind if pending is not None else "",
        feedback=asking.feedback if pending is not None else "",
        asked_at=pending.asked_at if pending is not None else 0.0)
    selecting = ctl.selecting
    return SeatSnapshot(
        seat=seat, title=state.game.title, seat_names=tuple(names),
        seat_kinds=tuple(ctl.seats), scores=ctl.scores, to_act=p,
        moves=len(state.history), is_over=state.is_over, in_progress=ctl.in_progress,
        your_turn=ctl.acting_human(),
        busy=ctl.busy, board_html=board,
        hand=tuple(ctl.card_states()), selecting=selecting, selected=ctl.selected,
        selected_cards=ctl.selected_cards(), selection_summary=ctl.selection_summary(),
        choices=tuple(ctl.offered_choices()), picked=ctl.picked,
        status=ctl.status_line(), refused=ctl.refused, message=ctl.message,
        turn_banner=ctl.turn_banner(),
        turn=("over" if state.is_over or holding
              else "you" if p is not None and ctl.seats[p] == "human" else "other"),
        hint=ctl.hint_text(), explanation=ctl.explanation, history=tuple(ctl.history),
        latest=ctl.latest, latest_by_bot=ctl.latest_by_bot, moment=ctl.moment,
        holding=holding, waiting_for_ready=ctl.waiting_for_ready, hot_seat=ctl.hot_seat,
        saved_offer=(SavedOffer(offer.state.game.title, len(offer.state.history),
                                tuple(offer.seats)) if offer is not None else None),
        length_choice=ctl.length_choice(), deal_code=ctl.deal_code, room_code=ctl.room_code,
        move_example=state.game.move_example, question=question,
        selection_mode_hint=ctl.view.selection_mode_hint if selecting else "",
        score_words=tuple(ctl.view.score_words(ctl.shown_state, seat)))
