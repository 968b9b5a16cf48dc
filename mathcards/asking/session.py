"""The questions of one table: its level of help, the question waiting for an answer, the
answers given (``TableController.asking``).

At ``SHOW`` nothing is asked. At ``COUNT`` and ``COUNT_NO_HINTS``:

- a move chosen by the person here is first a question when the game's asking module has
  one (``before_move``): right, the move is laid; a first wrong answer hears a nudge named
  by its slip; a second wrong answer shows the explainer's step and the move is played
  for the student: laid as chosen, but whatever it scores for them does not count
  (``withheld``, issue 37 item 2: a game cannot be won at "I count" by a script that never
  computes); the same for an answer recorded as seen;
- after a second wrong answer (or a seen one) the explainer's step stays on the page until
  the student clicks OK (``waiting == STEP``: the bots and the student's own moves wait);
  after a right answer about their own move, the bots wait for ``read_pause`` seconds (or
  the student's OK) before their next move, so the feedback can be read (item 7);
- a move the rules refuse is still an answer when the asking module says so
  (``refused_move``: Suns to Moons' ±10 bound), recorded wrong; the state is unchanged;
- following the others (``follow``), a move of another seat is a question
  (``after_move(..., follow=True)``): until it is answered the table shows the position
  before that move (board, explanation, history, latest move), and at a table of bots the
  bots wait; in a room nobody waits: the next move drops an unanswered question.

A question is answered once, by the student (issue 37): stepping down to ``SHOW`` while a
question waits records it as seen (not right, the slip ``SEEN``) and lays the move as at
``SHOW``; a move chosen at a position whose results were on the page at ``SHOW`` (the level
went to or from ``SHOW`` while the person here was to move) is asked, and its answer is
recorded as seen, never right. A move laid at "I count" ends that: the level may change
between moves.

Every answer becomes an ``Answer`` given to ``on_answer`` (the page connects the progress
store); a change of level is a ``LevelChange`` given to ``on_level``.

A question's ``expected`` value and the explanation of a move not yet laid stay in the
kernel: this module never puts them in a message before the student has answered.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from mathcards.asking import COUNT, LEVELS, SHOW, Answer, LevelChange, Question
from mathcards.asking.registry import Asker, asker_for
from mathcards.errors import MathCardsError
from mathcards.i18n import N_, _, pgettext

if TYPE_CHECKING:
    from mathcards.game_view import GameView
    from mathcards.games.base import State


class _Timers(Protocol):
    def _schedule(self, delay: float, fn: Callable[[], None]) -> None: ...


class AskingTable(Protocol):
    """What the questions read of their table and ask it to do: ``mathcards.table.
    TableController`` (which makes its ``AskingSession``) has it all; this module does not
    import the table."""

    hint_level: int
    message: str
    refused: bool
    latest: str

    @property
    def state(self) -> State: ...
    @property
    def view(self) -> GameView: ...
    @property
    def game_name(self) -> str: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def humans(self) -> tuple[int, ...]: ...
    @property
    def history(self) -> list[str]: ...
    @property
    def lock(self) -> threading.RLock: ...
    @property
    def bot_delay(self) -> float: ...
    @property
    def bot_scheduler(self) -> _Timers: ...
    @property
    def publish(self) -> Callable[[State, Any], bool] | None: ...
    @property
    def room_code(self) -> str: ...
    def acting_human(self) -> bool: ...
    def final_words(self) -> str: ...
    def say(self, text: str, *, refused: bool = False) -> None: ...
    def schedule_bot(self) -> None: ...
    def _notify(self, what: str) -> None: ...
    def _lay(self, action: Any) -> None: ...
    def _display(self) -> tuple[Any, ...]: ...
    def _show(self, display: tuple[Any, ...], lines: Sequence[str] = ()) -> None: ...
    def _explain_with(self, steps: Sequence[Any]) -> None: ...


@dataclass
class Pending:
    """A question waiting for its answer."""

    question: Question
    before: State  # the state the move is laid on (own move) or was laid on (following)
    action: Any = None  # the chosen move not yet laid (own move), else None
    held: Any = None  # following: the table's display after the move, shown once answered
    asked_at: float = 0.0
    tries: int = 0
    given: Any = None  # the last answer given
    picks: tuple[str, ...] = ()  # the answer's buttons clicked so far (Sums' claim)
    seen: bool = False  # its result was shown here before the answer (a lower level, a hint)
    shown_by: str = ""  # how, when a hint showed it ("the hint said your 7♥ can reach ...")
    qid: str = ""  # the question's id: its tries are recorded under it
    hints: int = 0  # the hints taken before it was asked


SEEN = "seen"  # the recorded slip of an answer whose result the student was shown
GUESS = "goal_guess"  # the recorded slip of the goal typed again after the slip "goal"

# what the table waits for after an answer (``AskingSession.waiting``, issue 37 item 7)
STEP = "step"  # the explainer's step after a second wrong answer: until the student's OK
READ = "read"  # the feedback of a right answer: the bots wait for the pause or the OK
READ_PAUSE = 3.0  # seconds the bots wait after the feedback, at a table whose bots pause
MAX_PAUSE = 30.0  # the longest pause a teacher's link may set (``?pause=``)
OK_KEY = "ok"  # the choice key of the OK button
STEP_FIRST = N_("first read the step under \"What the last move did\", then click OK")


def _points(state: Any) -> tuple[int, ...]:
    """What each seat has scored so far by moves (Dice Stacks: stacks and run-outs, not yet
    the cards left in hand; other games: their scores)."""
    points = getattr(state, "points", None)
    if isinstance(points, tuple) and all(isinstance(p, int) for p in points):
        return points
    return tuple(state.scores)


class AskingSession:
    """The level of help at one table and the question it waits for."""

    def __init__(self, ctl: AskingTable, level: str = SHOW) -> None:
        self.ctl = ctl
        self._level = SHOW
        self.fixed = False  # the teacher's link fixed the level: no picker, no change
        self.follow = False  # ask about the other players' moves too
        self.student = ""  # the name the answers are recorded under
        self.pending: Pending | None = None
        self.feedback = ""  # the words after the last answer ("Right!", a nudge...)
        self.answers: list[Answer] = []  # this page's answers (kept in the kernel)
        self.on_answer: Callable[[Answer], None] | None = None
        self.on_level: Callable[[LevelChange], None] | None = None
        self._asker: Asker | bool | None = False  # False: not looked up yet
        # the level was "Show me the sums" at this position while the person here was to
        # move: the results of its moves were on the page (issue 37 item 1)
        self.peeked = False
        # after an answer: "" (nothing), STEP or READ (see the module's docstring)
        self.waiting = ""
        self._wait_token = 0
        # the bots' pause after the feedback of a right answer: None is the table's own
        # (READ_PAUSE when its bots pause, 0 at a fast table), "ok" waits for the OK
        self.read_pause: float | str | None = None
        # points of moves played for the student (after two wrong answers, or seen), per
        # seat, that do not count; ``_shown`` is the last such move: (seat, its points
        # before it): what the seat gains until its next own move is that move's
        self.withheld: dict[int, int] = {}
        self._shown: tuple[int, int, bool] | None = None  # (seat, points, others moved since)
        # the question being built at a position (its log's length), its id and tries so far
        self._open: tuple[int, str, int] | None = None
        # the highest hint level shown at a position (its log's length): a hint that named
        # what a move makes (``Asker.hint_shows``) makes its answer seen
        self._hinted: tuple[int, int] = (-1, 0)
        # the goal typed for a deck that was not the goal (the slip "goal"), and no deck
        # worked out right at the first try since: a goal typed now is a guess (GUESS)
        self.guessing = False
        self.level = level

    # ------------------------------------------------------------------ level
    @property
    def level(self) -> str:
        return self._level

    @level.setter
    def level(self, level: str) -> None:
        if level not in LEVELS:
            raise MathCardsError(_("level {level!r}: choose one of {levels}").format(
                level=level, levels=", ".join(LEVELS)))
        self._level = level
        self.ctl.view.counting = self.counting

    @property
    def counting(self) -> bool:
        """The student does the sums (no result is shown before they give it)."""
        return self._level != SHOW

    @property
    def hints(self) -> bool:
        return self._level in (SHOW, COUNT)

    @property
    def asker(self) -> Asker | None:
        if self._asker is False:
            self._asker = asker_for(self.ctl.game_name)
        return self._asker if isinstance(self._asker, Asker) else None

    def set_level(self, level: Any) -> None:
        """The student (or the page) changes the level; a change is recorded."""
        if not isinstance(level, str) or level not in LEVELS:
            raise MathCardsError(_("choose a level from the list"))
        if level == self._level:
            return
        if self.fixed:
            raise MathCardsError(_("your teacher set this table to \"{level}\"").format(
                level=_(LEVELS[self._level])))
        before = self._level
        p = self.pending
        if level == SHOW and p is not None:  # its result is shown now: recorded as seen,
            p.tries += 1
            self._record(p.question, "", right=False, slip=SEEN, asked_at=p.asked_at,
                         pending=p)
        if SHOW in (before, level) and (self.ctl.acting_human() or p is not None):
            self.peeked = True  # this position's results are (or were) on the page
        self.level = level
        self._report(self.on_level, LevelChange(student=self.student, game=self.ctl.game_name,
                                                before=before, after=level))
        if not self.counting:
            self._release()
        self.ctl._notify("table")

    # ------------------------------------------------------------------ asking
    def _seat(self) -> int | None:
        """The seat of the person at this screen (one person here), else None."""
        humans = self.ctl.humans
        return humans[0] if len(humans) == 1 else None

    def blocking(self) -> bool:
        """A question holds this screen's moves (a following question in a room does not:
        the student's own move drops it)."""
        if self.waiting == STEP:  # the explainer's step waits for the student's OK
            return True
        p = self.pending
        if p is None:
            return False
        return p.action is not None or not self.in_room

    @property
    def in_room(self) -> bool:
        return self.ctl.publish is not None or bool(self.ctl.room_code)

    def holds_bots(self) -> bool:
        """The bots wait for the answer, or for the student to read what it said (a solo
        table; a room never waits)."""
        return (self.pending is not None or bool(self.waiting)) and not self.in_room

    # ------------------------------------------------------------------ reading the feedback
    def pause(self) -> float | None:
        """Seconds the bots wait after the feedback of a right answer (None: until OK)."""
        if self.read_pause == "ok":
            return None
        if isinstance(self.read_pause, int | float) and not isinstance(self.read_pause, bool):
            return max(0.0, min(float(self.read_pause), MAX_PAUSE))
        return READ_PAUSE if self.ctl.bot_delay > 0 else 0.0

    def set_pause(self, value: Any) -> None:
        """The teacher's link sets the pause: seconds (0 to 30) or "ok" (until OK)."""
        if value == "ok":
            self.read_pause = "ok"
            return
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not 0 <= value <= MAX_PAUSE:
            raise MathCardsError(_("the pause is 0 to {most} seconds, or ok").format(
                most=f"{MAX_PAUSE:.0f}"))
        self.read_pause = float(value)

    def _wait(self, what: str) -> None:
        """Hold the bots (and, for STEP, the student's moves) until OK or the pause."""
        self._wait_token += 1
        if what == READ:
            p = self.ctl.state.current_player
            if p is None or self.ctl.seats[p] == "human" or self.in_room:
                return  # the student moves on (or nobody is held): nothing to wait for
            pause = self.pause()
            if pause is not None and pause <= 0:
                return
            self.waiting = READ
            if pause is not None:
                token = self._wait_token
                self.ctl.bot_scheduler._schedule(pause, lambda: self._waited(token))
            return
        self.waiting = what

    def _waited(self, token: int) -> None:
        with self.ctl.lock:
            if token == self._wait_token and self.waiting == READ:
                self.acknowledge()

    def acknowledge(self) -> None:
        """The student's OK: the step or the feedback has been read; play goes on."""
        if not self.waiting:
            raise MathCardsError(_("there is nothing to confirm now"))
        self.waiting = ""
        self._wait_token += 1
        self.ctl._notify("table")
        self.ctl.schedule_bot()

    # ------------------------------------------------------------------ moves played for you
    def _settle(self) -> None:
        """The seat of the last move played for it moves again: that move's gain is kept."""
        if self._shown is not None:
            seat = self._shown[0]
            self.withheld[seat] = self.withheld_of(seat)
            self._shown = None

    def withheld_of(self, seat: int) -> int:
        """The points of ``seat`` that came from moves played for it: they do not count."""
        out = self.withheld.get(seat, 0)
        if self._shown is not None and self._shown[0] == seat:
            out += max(0, _points(self.ctl.state)[seat] - self._shown[1])
        return out

    def count_refusal(self, action: Any, rule: str) -> None:
        """A move the rules refuse (``rule``: the words the student read): recorded as a
        refusal with its rule and its skill (the ±10 bound, a planet's total, a moon; none
        for a move refused by another rule), not as a question; at every level of a table
        that asks."""
        seat = self.ctl.state.current_player
        if self.asker is None or seat is None:
            return
        question = self.asker.refused_move(self.ctl.state, action, seat)
        if question is not None and self.counting and question.kind == "stack":
            # the cards are the answer (Dice Stacks: a card that is not a stack by itself):
            # a wrong try of the stack being built, not a refusal
            qid, tries = self._building(question)
            p = Pending(question, self.ctl.state, qid=qid, tries=tries + 1,
                        hints=self.ctl.hint_level)
            self._record(question, "adding", right=False, asked_at=None, pending=p)
            self._open = (len(self.ctl.state.log), qid, tries + 1)
            return
        if question is None:  # refused by another rule (not the time, not a card held...)
            question = Question(game=self.ctl.game_name, skill="", prompt=rule, numbers=(),
                                expected="", seat=seat)
        given = getattr(action, "contribution", action)
        self._record(question, f"{given:+d}" if isinstance(given, int) else str(given),
                     right=False, slip="other", asked_at=None, rule=rule or "refused")

    def _building(self, question: Question) -> tuple[str, int]:
        """The id of the question a student builds an answer to here, and its tries so far:
        after cards that were not a stack, the next cards are the same question's next try
        (Dice Stacks: the stack being built); else a new question."""
        if (self._open is not None and question.kind == "stack"
                and self._open[0] == len(self.ctl.state.log)):
            return self._open[1], self._open[2]
        return uuid.uuid4().hex, 0

    def hint_shown(self, level: int) -> None:
        """A hint of ``level`` is on the page at the position to play."""
        here = len(self.ctl.state.log)
        before = self._hinted[1] if self._hinted[0] == here else 0
        self._hinted = (here, max(before, level))

    def hinted_here(self) -> int:
        """The highest hint level shown at the position to play (0: none)."""
        return self._hinted[1] if self._hinted[0] == len(self.ctl.state.log) else 0

    def ask_before(self, action: Any) -> bool:
        """Ask about a move chosen here before it is laid (True: asked, not laid): a legal
        move, or one the rules refuse when the game asks about those too (Dice Stacks'
        cards: the answer says, then the table judges)."""
        self.waiting = ""
        seat = self.ctl.state.current_player
        if not self.counting or self.asker is None or seat is None:
            self._settle()
            return False
        question = self.asker.before_move(self.ctl.state, action, seat)
        # a new question, or a move after the others moved: the last move played for the
        # student is over (a move that only completes it, e.g. Sums' choice of the capture
        # it makes, is still part of it)
        if question is not None or (self._shown is not None and self._shown[2]):
            self._settle()
        if question is None:  # nothing to ask; a move that is a right answer is recorded
            accepted = (self.asker.accepted_move(self.ctl.state, action, seat)
                        if self.ctl.state.is_legal(action) else None)
            if accepted is not None:
                qid, tries = self._building(accepted)  # seen: its result was on the page
                self._record(accepted, str(action), right=not self.peeked,
                             slip=SEEN if self.peeked else "", asked_at=None,
                             pending=Pending(accepted, self.ctl.state, qid=qid,
                                             tries=tries + 1, hints=self.ctl.hint_level))
            return False
        qid, tries = self._building(question)
        shown_by = self.asker.hint_shows(self.ctl.state, action, self.hinted_here())
        self.pending = Pending(question, self.ctl.state, action=action,
                               asked_at=time.monotonic(), seen=self.peeked or bool(shown_by),
                               shown_by=shown_by, qid=qid, tries=tries,
                               hints=max(self.ctl.hint_level, self.hinted_here()))
        self.feedback = ""
        self.ctl.hint_level = 0
        self.ctl.message, self.ctl.refused = "", False
        self.ctl._notify("table")
        return True

    def after_commit(self, before: State, after: State, by_bot: bool,
                     shown: tuple[Any, ...]) -> None:
        """A move was laid: drop a question it makes stale; follow another seat's move.

        ``shown`` is the table's display before the move (``TableController._display``)."""
        if self._shown is not None and before.current_player != self._shown[0]:
            self._shown = (*self._shown[:2], True)  # another seat moved since
        if self.counting:  # a move laid at "I count": the new position's results were
            self.peeked = False  # not on the page (the level changes between moves)
        if not by_bot and self.counting and self.asker is not None:
            self._ask_after_own(before, after, shown)
            return
        if not by_bot or not (self.counting and self.follow) or self.asker is None:
            return
        seat = self._seat()
        if seat is None or self.ctl.seats[seat] != "human" or after.is_over:
            return
        question = self.asker.after_move(before, after, seat, follow=True)
        if question is None or question.seat == seat:
            return
        held = (self.ctl._display(), tuple(self.ctl.history[shown[2]:]))
        self.ctl._show(shown)
        self.pending = Pending(question, before, held=held, asked_at=time.monotonic(),
                               qid=uuid.uuid4().hex)
        self.feedback = ""

    def _ask_after_own(self, before: State, after: State, shown: tuple[Any, ...]) -> None:
        """About the move just made here (Dice Stacks' roll: what must the stacks make?):
        the board shows the move, its explanation waits for the answer."""
        assert self.asker is not None
        mover = before.current_player
        if mover is None or after.is_over:
            return
        question = self.asker.after_move(before, after, mover, follow=False)
        if question is None:
            return
        # the history keeps the move's lines while the question waits: what is shown back
        # once it is answered adds none again ("rolled 2 and 3." said once)
        held = (self.ctl._display(), ())
        self.ctl._show(shown, self.ctl.history[shown[2]:])  # the lines, not the explanation
        self.ctl.latest = held[0][3]
        self.pending = Pending(question, after, held=held, asked_at=time.monotonic(),
                               qid=uuid.uuid4().hex)
        self.feedback = ""

    def shown_state(self) -> State | None:
        """The state the board shows while following a move not yet answered."""
        p = self.pending
        return p.before if p is not None and p.action is None else None

    def prompt(self) -> str:
        return self.pending.question.prompt if self.pending is not None else ""

    # ------------------------------------------------------------------ answering
    def answer_choices(self) -> list[tuple[str, str, str, bool]]:
        """The buttons that build the pending answer (key, label, tooltip, picked)."""
        p = self.pending
        if p is None or self.asker is None:
            return []
        return self.asker.answer_choices(p.question, p.before, p.picks)

    def pick(self, key: Any) -> None:
        """A click on one of the answer's buttons: checked against those offered."""
        p = self.pending
        if p is None or self.asker is None:
            raise MathCardsError(_("there is no question to answer now"))
        if key not in {k for k, *_ in self.answer_choices()}:
            raise MathCardsError(_("that is not one of the answer's buttons: click one of "
                                   "them"))
        picks, text = self.asker.pick(p.question, p.picks, key)
        p.picks = picks
        if text is not None:
            self.answer(text)
            return
        self.ctl.message, self.ctl.refused = "", False
        self.ctl._notify("table")

    def answer(self, text: Any) -> None:
        """The student's answer to the pending question (raises MathCardsError on text that
        is not an answer: nothing changes)."""
        p = self.pending
        if p is None or self.asker is None:
            raise MathCardsError(_("there is no question to answer now"))
        question = p.question
        text = self.asker.compose(question, p.picks, text)
        given = self.asker.read_answer(question, text)
        right = self.asker.check(question, given)
        p.tries += 1
        p.given = given
        if p.action is not None and not p.before.is_legal(p.action):
            self._not_a_move(p, given)  # cards that are not a stack: a wrong try
            return
        if p.seen:  # its result was on the page: recorded once, as seen, never right
            self._record(question, given, right=False, slip=SEEN, asked_at=p.asked_at,
                         pending=p)
            how = p.shown_by or _("you saw it at \"Show me the sums\"")
            self.feedback = _("It is {value}: {how}, so it counts as seen and what the move "
                              "scores does not count for you.").format(
                value=self._said(question.expected), how=how)
            self._finish(explain=True)
            return
        goal = question.goal
        if right and goal is not None and given == goal and self.guessing:
            # the goal typed again after typing it for a deck that was not the goal: a
            # guess copied from the page, never the student's own
            self._record(question, given, right=False, slip=GUESS, asked_at=p.asked_at,
                         pending=p)
            self.feedback = _("It is {value}, the goal. But you typed the goal before when "
                              "the deck was not the goal, so this counts as a guess: what "
                              "the move scores does not count for you. Work out the deck "
                              "each time and your goals count again.").format(
                value=self._said(given))
            self._finish(explain=True)
            return
        slip = "" if right else self._slip(question, given)
        if goal is not None:
            if slip == "goal":
                self.guessing = True
            elif right and p.tries == 1 and given != goal:
                self.guessing = False  # a deck worked out at the first try
        self._record(question, given, right=right, slip=slip, asked_at=p.asked_at, pending=p)
        if right:
            self.feedback = _("Right: {value}.").format(value=self._said(given))
            self._finish(explain=False)
        elif p.tries < 2:
            self.feedback = self.asker.nudge(question, given, slip)
            p.asked_at = time.monotonic()
            self.ctl.say(self.feedback)
        else:
            self.feedback = _("Not quite: it is {value}. The step is shown under \"What the "
                              "last move did\".").format(value=self._said(question.expected))
            if slip == "goal":
                self.feedback += " " + _("You typed the goal: a goal you type next counts "
                                         "only after a deck you get right the first time.")
            self._finish(explain=True)

    def _not_a_move(self, p: Pending, given: Any) -> None:
        """The answer to a move the rules refuse (Dice Stacks: cards that are not a stack):
        recorded as a wrong try with its slip, the rule said in words (nothing the cards
        make), nothing laid; the next cards are the same question's next try."""
        self._record(p.question, given, right=False, slip=SEEN if p.seen else "",
                     asked_at=p.asked_at, pending=p)
        self.pending = None
        self._open = (len(self.ctl.state.log), p.qid, p.tries)
        self.feedback = ""
        words = self.ctl.view.why_not(self.ctl.state, p.action)
        self.ctl.say(words, refused=True)  # under "Not allowed:" on the page
        self.ctl._notify("table")

    @staticmethod
    def _said(value: Any) -> str:
        from mathcards.games.base import number

        if value == "none":  # Sums' claim that a card captures nothing, in the page's words
            return pgettext("an answer: no capture", "none")
        # a canonical answer in words (Dice Stacks' "adding, Kings halve") in the page's
        if isinstance(value, int):
            return number(value)
        return _(value) if isinstance(value, str) and value.strip() else str(value)

    def _finish(self, *, explain: bool) -> None:
        p = self.pending
        assert p is not None
        self.pending = None
        feedback = self.feedback
        if p.action is not None:  # the move is laid as chosen (the bots may answer it)
            after = p.before.apply(p.action)
            seat = p.before.current_player
            if explain and seat is not None:  # played for the student: it scores nothing
                self._settle()
                self._shown = (seat, _points(p.before)[seat], False)
            self.ctl._lay(p.action)
            if self.asker is not None:  # the move the answer chose too (Sums' capture)
                then = self.asker.after_answer(p.question, p.given, self.ctl.state)
                if then is not None and self.ctl.state.is_legal(then):
                    self.ctl._lay(then)
        else:
            after = self.ctl.state
            self.ctl._show(*p.held)
        if explain and self.asker is not None:
            steps = self.asker.explain(p.question, p.before, after)
            if steps:
                self.ctl._explain_with(steps)
        if self.ctl.state.is_over:
            feedback = f"{feedback} {self.ctl.final_words()}"
        else:
            self._wait(STEP if explain else READ)
        self.ctl.say(feedback)
        self.ctl._notify("table")
        if p.action is None:
            self.ctl.schedule_bot()

    def _release(self) -> None:
        """Stop asking (the level went to SHOW): a chosen move is laid, a followed move
        shown."""
        p = self.pending
        if p is None:
            return
        self.pending = None
        self.feedback = ""
        if p.action is not None and p.before.is_legal(p.action):
            self.ctl._lay(p.action)
        elif p.action is None:
            self.ctl._show(*p.held)
            self.ctl.schedule_bot()

    def drop(self) -> None:
        """A move is laid: an unanswered question about an earlier position goes (not
        recorded): in a room the next move arrived, or the turn timer played."""
        p = self.pending
        if p is None:
            return
        self.pending = None
        self.feedback = ""
        if p.held is not None:
            self.ctl._show(*p.held)

    def reset(self) -> None:
        """A new game: no question waits."""
        self.pending = None
        self.peeked = False
        self._open = None
        self._hinted = (-1, 0)
        self.guessing = False
        self.feedback = ""
        self.waiting = ""
        self._wait_token += 1
        self.withheld, self._shown = {}, None

    # ------------------------------------------------------------------ evidence
    def _slip(self, question: Question, given: int | str) -> str:
        if self.asker is not None:
            try:
                own = self.asker.slip(question, given)
            except Exception:  # noqa: BLE001 - a slip's name must never break the table
                own = "other"
            if own:
                return own
        try:
            from mathcards.skills import classify_slip
        except ImportError:  # pragma: no cover - the classifier is the evidence branch's
            return ""
        try:
            return str(classify_slip(question, given))
        except Exception:  # noqa: BLE001 - a slip's name must never break the table
            return "other"

    def _record(self, question: Question, given: Any, *, right: bool, slip: str = "",
                asked_at: float | None, pending: Pending | None = None, rule: str = ""
                ) -> Answer:
        """An answer: try ``pending.tries`` of the pending question (else a question of
        one try), or with ``rule`` a move the rules refused."""
        if not right and not slip:
            slip = self._slip(question, given)
        answer = Answer.of(question, given, right=right, slip=slip, student=self.student,
                           asked_at=asked_at, level=self._level,
                           qid=pending.qid if pending is not None else "",
                           attempt=max(1, pending.tries) if pending is not None else 1,
                           hints=pending.hints if pending is not None else 0, rule=rule)
        skill = self.asker.answer_skill(question, given) if self.asker is not None else ""
        if skill and skill != answer.skill:  # Sums: a capture missed is a capture not spotted
            answer = replace(answer, skill=skill)
        if rule:  # a refusal: the rule the student read, no question they were asked
            answer = replace(answer, prompt=rule, expected="")
        self.answers.append(answer)
        self._report(self.on_answer, answer)
        return answer

    def _report(self, hook: Callable[[Any], None] | None, record: Any) -> None:
        if hook is None:
            return
        try:
            hook(record)
        except (OSError, MathCardsError) as exc:  # the store: never block play
            self.ctl.say(_("Could not keep your answer ({reason}); play goes on.").format(
                reason=exc), refused=True)


__all__ = ["GUESS", "OK_KEY", "READ", "READ_PAUSE", "SEEN", "STEP", "STEP_FIRST", "AskingSession",
           "Pending"]
