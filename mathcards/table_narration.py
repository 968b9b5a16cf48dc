"""What a table says about its moves: the explainer's words, the move list, the latest move
and the moment (a round or the game won).

``Narration`` is one of the table's services (``TableController.narration``): after each
committed move the controller hands it the position before and after, and it owns what the
screen then says about that move. It never changes the game: an explainer's or a moment's
failure becomes a line of text (the explainer must never block play). The asking session
(``mathcards.asking.session``) holds what is shown back while a followed move waits for its
answer, through ``display`` and ``show``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mathcards.games.base import State
from mathcards.i18n import _
from mathcards.moments import Moment, moment_for

if TYPE_CHECKING:
    from mathcards.game_view import GameView


@dataclass
class Explanation:
    """What the explainer panel shows after a move."""

    latex: str = ""  # the step as LaTeX for HTMLMath
    text: str = ""  # the same in plain text (screen readers, tests)
    chain: str = ""  # the round's running chain, plain text
    svg: str = ""  # number line (Suns to Moons)


class Narration:
    """The explanation, the move history, the latest move and the moment of one table."""

    def __init__(self, view: GameView) -> None:
        self.view = view
        self.explanation = Explanation()
        self.parts: list[Explanation] = []  # a person's move and the bots' answers, shown together
        self.history: list[str] = []
        self.latest = ""  # the last move in words ("Player 2 (bot) plays 7♥ ...")
        self.latest_by_bot = False
        self.moment: Moment | None = None  # the last round or game won, while it is shown
        self.held = False  # the moment holds the table until "Next round"
        # the next round's deal (its explanation and move-history lines), said only when
        # "Next round" is clicked: until then the panel shows the round just finished
        self.next_round: tuple[Explanation, list[str]] | None = None

    def reset(self, state: State, names: Sequence[str]) -> None:
        """A new deal: nothing explained, the history of the given position's events."""
        self.explanation = Explanation()
        self.parts = []
        self.history = [h for e in state.events if (h := self.view.history_line(e, names))]
        self.moment, self.held = None, False
        self.next_round = None
        self.latest, self.latest_by_bot = "", False

    # --- one committed move
    def explain(self, before: State, after: State, names: Sequence[str], *,
                by_bot: bool) -> None:
        """The explainer's words for the move, with the moves shown beside it."""
        try:
            part = self._explain(before, after, names)
        except Exception as exc:  # noqa: BLE001 - the explainer must never block play
            part = Explanation(text=_("(no explanation: {reason})").format(reason=exc))
        # a person's move and the bots' answers are shown together until the next person moves
        self.parts = [*(self.parts if by_bot else [])[-5:], part]
        self._join_parts()

    def _join_parts(self) -> None:
        part = self.parts[-1]
        self.explanation = Explanation(
            latex="".join(p.latex for p in self.parts),
            text=" ".join(p.text for p in self.parts),
            chain=part.chain or next((p.chain for p in reversed(self.parts) if p.chain), ""),
            svg=part.svg or next((p.svg for p in reversed(self.parts) if p.svg), ""),
        )

    def record(self, after: State, names: Sequence[str], *, by_bot: bool) -> None:
        """The move list's sentences, and the move just made said on its own."""
        lines = []
        for e in after.new_events:
            line = self.view.history_line(e, names)
            if line:
                lines.append(line)
        self.history.extend(lines)
        # the move just made, said on its own (the first sentences of its events)
        self.latest, self.latest_by_bot = " ".join(lines[:2]), by_bot

    def find_moment(self, before: State, after: State, names: Sequence[str],
                    humans: Sequence[int], *, pauses: bool, by_bot: bool) -> None:
        """A round or the game won (``moment_for``), held while the person reads it when
        the table ``pauses``."""
        try:
            moment = moment_for(before, after, names, humans)
        except Exception:  # noqa: BLE001 - a moment must never block play
            moment = None
        if moment is not None:
            self.start_next_round()  # an earlier round's deal, if still held, is said first
            self.moment, self.held = moment, moment.is_round and pauses
            if self.held:
                self._hold_next_round(before, after, names)
        elif not by_bot:  # the person here moved on: the last moment has been seen
            self.start_next_round()

    def _hold_next_round(self, before: State, after: State, names: Sequence[str]) -> None:
        """The move that ended the round also dealt the next one: until "Next round" the
        panel, the move history and the latest move say the round just finished only."""
        events = list(after.new_events)
        start = self.view.next_round_start(events)
        if start is None or not self.parts:
            return
        try:
            finished = self._explain(before, after, names, events[:start])
            deal = self._explain_events(events[start:], after, names)
        except Exception:  # noqa: BLE001 - the explainer must never block play
            return
        lines = [h for e in events[:start] if (h := self.view.history_line(e, names))]
        later = [h for e in events[start:] if (h := self.view.history_line(e, names))]
        if later and self.history[-len(later):] == later:
            del self.history[-len(later):]
        self.parts[-1] = finished
        self._join_parts()
        self.latest = " ".join(lines[:2])
        self.next_round = (deal, later)

    def start_next_round(self) -> None:
        """"Next round" was clicked (or play went on): the moment goes, and the next round's
        deal held back is said (the panel explains it, the history lists it)."""
        self.moment, self.held = None, False
        if self.next_round is None:
            return
        deal, lines = self.next_round
        self.next_round = None
        self.parts = [deal]
        self.explanation = deal
        self.history.extend(lines)

    def _explain(self, before: State, after: State, names: Sequence[str],
                 events: Sequence[Any] | None = None) -> Explanation:
        """The explainer's steps for the last move (or for ``events``, the first of its
        events): HTML with LaTeX, text, chain, SVG."""
        from mathcards import explain as X

        if events is None:
            steps = X.explain_events(before, after, names)
        else:
            steps = X.explain_new_events(events, game=after.game.name, before=before,
                                         after=after, names=names)
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
        return Explanation(latex=html_steps, text=text, chain=self.view.chain(before, after),
                           svg=svg)

    @staticmethod
    def _explain_events(events: Sequence[Any], after: State,
                        names: Sequence[str]) -> Explanation:
        """The explainer's steps for a deal's events (no arithmetic to draw)."""
        from mathcards import explain as X

        steps = X.explain_new_events(events, game=after.game.name, names=names)
        return Explanation(latex="".join(s.html for s in steps), text=X.spoken(steps))

    def explain_with(self, steps: Sequence[Any]) -> None:
        """Show the asking module's own steps for the move just answered."""
        from mathcards import explain as X

        self.explanation = Explanation(latex="".join(s.html for s in steps),
                                       text=X.spoken(steps), chain=self.explanation.chain,
                                       svg=self.explanation.svg)

    # --- held back while a followed move waits for its answer (mathcards.asking.session)
    def display(self) -> tuple[Any, ...]:
        """What the table shows of the moves so far: explanation, its parts, history length,
        the latest move."""
        return (self.explanation, tuple(self.parts), len(self.history), self.latest,
                self.latest_by_bot)

    def show(self, display: tuple[Any, ...], lines: Sequence[str] = ()) -> None:
        """Show ``display`` again (from ``display``), with ``lines`` after its history."""
        self.explanation, parts, shown, self.latest, self.latest_by_bot = display
        self.parts = list(parts)
        del self.history[shown:]
        self.history.extend(lines)
