"""What a table needs of one game's view, below the table itself: the ``GameView`` base
(how a game's table looks and how its moves split into choices), the ``Choice`` and
``CardState`` values it offers, and ``Refused``.

``mathcards.table`` (the controller) and the modules that serve it (narration, the seat's
snapshot, the questions) read these from here; ``mathcards.table`` re-exports them, where
the views and the tests import them from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mathcards.cards import Card
from mathcards.errors import MathCardsError
from mathcards.games.base import Event, State
from mathcards.games.registry import game_spec
from mathcards.i18n import _


@dataclass(frozen=True)
class Choice:
    """One step of a move as the player picks it: a card, a sign, a pile..."""

    key: str  # stable within its stage, e.g. "card:7H", "sign:-1"
    label: str  # button text
    card: Card | None = None  # a card from the player's own hand (shown on the card)
    tooltip: str = ""
    primary: bool = False


@dataclass(frozen=True)
class CardState:
    """How one card of the viewer's hand is offered now."""

    card: Card
    key: str  # what a click on it names ("card:7H", or "h3" when selecting)
    enabled: bool
    selected: bool = False
    tooltip: str = ""


class Refused(MathCardsError):
    """A click or typed move that the table turns down (the message says why)."""


class GameView:
    """How one game's table looks and how its moves split into choices.

    Subclasses override what their game needs; the defaults give a plain
    table with one button per legal move.
    """

    game_name = ""
    selection_mode_hint = ""
    # the table's level of help asks for the sums (``AskingSession.counting``): the moves'
    # labels and tooltips show no result, and a move the rules refuse is not greyed in
    # advance when choosing it is an answer (Suns to Moons' ±10 bound)
    counting = False
    # the points of moves played for a student that do not count, per seat (the table sets
    # it before drawing: ``AskingSession.withheld_of``); a board that shows how a score is
    # made takes them off
    withheld: Mapping[int, int] = MappingProxyType({})
    # the choices (and the question under them) sit right under the board, above the hand:
    # Sums, whose draws and claims are made about the piles and the cards in play
    choices_above_hand = False

    # --- what is shown -------------------------------------------------
    def board_html(self, state: State, obs: Any, seat_names: Sequence[str], *,
                   viewer: int | None = None) -> str:
        """The public table (no hidden cards); ``obs`` is the viewer's observation and
        ``viewer`` the seat whose hand this screen shows below the table (None: no hand
        shown): that seat gets no card backs, only its count."""
        return ""

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        """One line about the position (goal, dice, phase)."""
        return ""

    def score_words(self, state: State, viewer: int | None) -> tuple[str, ...]:
        """Per seat, a few words saying where its score comes from, shown beside it ("" or
        none: the number alone); ``viewer`` is this screen's seat ("your" cards)."""
        return ()

    def round_end_html(self, state: State, seat_names: Sequence[str]) -> str:
        """The table as the round just won ended, shown while its moment waits for "Next
        round" (the engine has dealt the next round already); "" draws ``board_html``."""
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

    def follow_up(self, state: State) -> Any | None:
        """A move the table makes at once for the person who just moved, when the rules
        leave them nothing to decide (Dice Stacks: an emptied hand ends the turn), else None."""
        return None

    def selection_action(self, state: State, cards: tuple[Card, ...]) -> Any:
        raise NotImplementedError

    def selection_summary(self, state: State, cards: tuple[Card, ...]) -> tuple[bool, str]:
        """(is it a legal move, one line about it) for the cards selected so far: the line
        under the hand, and the reason a disabled "Lay down" gives."""
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
        return _("it cannot be played now")

    def parse_move(self, state: State, text: str) -> Any:
        """A typed move -> the action it names, read by the game's one move parser
        (``parse_move`` of its engine; the table checks the action's legality)."""
        parse = game_spec(self.game_name).parse_move
        if parse is None:
            raise Refused(_("this game has no typed moves: choose one with the buttons"))
        return parse(state, text)

    # --- explaining ------------------------------------------------------
    def chain(self, before: State, after: State) -> str:
        """The round's running chain in plain text (games that have one)."""
        return ""

    def history_line(self, event: Event, seat_names: Sequence[str]) -> str | None:
        """The move-history sentence of an event, or None to leave it out."""
        return event.describe(seat_names)

    def round_ends(self) -> tuple[type, ...]:
        """The events that end a round (games with rounds): what follows them among one
        move's events is the next round's deal."""
        return ()

    def next_round_start(self, events: Sequence[Event]) -> int | None:
        """Where the next round's deal starts among one move's events (None: the move deals
        no next round); the table says it only when "Next round" is clicked."""
        ends = [i for i, e in enumerate(events) if isinstance(e, self.round_ends())]
        if not ends or ends[-1] + 1 >= len(events):
            return None
        return ends[-1] + 1

    def why_not(self, state: State, action: Any) -> str:
        """The rule that refuses ``action``, with the explainer's arithmetic when it has some
        (``mathcards.explain.refusal_words``, the one wording of a refusal)."""
        from mathcards.explain import refusal_words

        return refusal_words(state, action, counting=self.counting)
