"""The kinds of exercise: what a position holds, how an answer is judged, hints and solutions.

Every kind asks the game engine (``mathcards.games.<game>``) and the explainer
(``mathcards.explain``) for the truth; nothing here re-derives a rule. A kind
turns a *position* (a dict of field values: cards, numbers, dice) into:

- ``check(position, answer)``: a ``Result`` (right or wrong, a score from 0 to 1
  for partial credit, and the explainer's steps);
- ``hint(position, level)``: the explainer's ``Hint`` at level 1 (nudge),
  2 (which card) or 3 (the full step);
- ``solution(position)``: a worked solution (shown after N attempts);
- ``measures(position)``: numbers the constraints of a template talk about
  (``solutions``, ``best stacks``, ``plays needed`` ...);
- ``problems(position)``: why a position cannot be asked ("no play reaches the
  goal 4 from this hand").

Answers come from Python (``Exercise.check``) or from a click in the browser;
``read_answer`` validates either before anything is judged.
"""

from __future__ import annotations

import html as _html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from mathcards.cards import Card, whole_number
from mathcards.errors import MathCardsError
from mathcards.exercises.fields import (
    CardsTemplate,
    DeckPlay,
    FieldError,
    read_card,
    read_cards,
    read_deck,
    read_dice,
    read_int,
    read_one_card,
    shown,
    split_cards,
)

if TYPE_CHECKING:
    from mathcards.explain.steps import Fact, Hint
    from mathcards.games.moons_and_planets import PrizeRanking

MINUS = "\u2212"

Position = dict[str, Any]
"""A position: each field's name to its read value (cards, numbers, dice, plays)."""


class AnswerError(MathCardsError):
    """An answer that cannot be judged (not a card of the position, wrong shape)."""


# --- the work a position may take ------------------------------------------------------
MAX_WORK = 100_000  # positions a solver may search for one variant: about half a second


class WorkLimitError(MathCardsError):
    """A position (or a template's tries) that would keep the solver busy too long.

    ``advice`` says what the teacher can change, in the kind's own words.
    """

    def __init__(self, message: str, advice: str) -> None:
        super().__init__(message)
        self.advice = advice


@dataclass
class _Budget:
    limit: int
    left: int


_budget: ContextVar[_Budget | None] = ContextVar("mathcards_work_budget", default=None)


@contextmanager
def work_budget(limit: int = MAX_WORK) -> Iterator[_Budget]:
    """One budget of solver work shared by everything checked inside (an outer one wins).

    A template's variant search opens one for all its tries, so a hard constraint is
    refused after a bounded amount of work, at check time and when a page opens alike.
    """
    outer = _budget.get()
    if outer is not None:
        yield outer
        return
    budget = _Budget(limit, limit)
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


def spend(budget: _Budget, kind: Kind, positions: int = 1) -> None:
    """Count ``positions`` searched; over the budget, a one-line ``WorkLimitError``."""
    budget.left -= positions
    if budget.left < 0:
        raise WorkLimitError(f"this position takes too much work to check (over "
                             f"{budget.limit:,} positions searched): {kind.work_advice}",
                             kind.work_advice)


# --- results ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """The judgement of one answer: right or wrong, the credit, and the steps that show why."""

    correct: bool
    score: float
    headline: str
    steps: tuple[Any, ...] = ()

    @property
    def lines(self) -> list[str]:
        return [self.headline] + [_step_text(s) for s in self.steps]

    @property
    def text(self) -> str:
        """Plain text: the verdict, then one line per step (screen readers, logs, tests)."""
        return "\n".join(line for line in self.lines if line)

    @property
    def html(self) -> str:
        """HTML for ``HTMLMath``: the verdict, then each step as the explainer draws it."""
        mark = "mc-right" if self.correct else ("mc-partial" if self.score > 0 else "mc-wrong")
        body = "".join(_step_html(s) for s in self.steps)
        return (f'<div class="mc-result {mark}" role="status" aria-live="polite">'
                f"<b>{_html.escape(self.headline)}</b>{body}</div>")


def _step_text(step: Any) -> str:
    return step.spoken if hasattr(step, "spoken") else str(step)


def _step_html(step: Any) -> str:
    if hasattr(step, "html"):
        try:
            return str(step.html)
        except Exception:  # noqa: BLE001 - LaTeX needs sympy; fall back to words
            pass
    return f'<div class="mc-step">{_html.escape(_step_text(step))}</div>'


def fact(sentence: str) -> Fact:
    from mathcards.explain.steps import Fact

    return Fact(sentence=sentence)


def make_hint(level: int, sentence: str, shown: Sequence[Any] = ()) -> Hint:
    from mathcards.explain.steps import Hint

    return Hint(level=level, sentence=sentence, shown=tuple(shown))


def _num(n: int) -> str:
    return f"{MINUS}{-n}" if n < 0 else str(n)


def _signed(n: int) -> str:
    return f"{MINUS}{-n}" if n < 0 else f"+{n}"


def _cards_words(cards: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in cards)


# --- field specs ------------------------------------------------------------------------
FieldReader = Callable[[Any, str], Any]
"""Reads a field's given value for a game: the value, or a template to draw it from."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a kind: how to read it, whether it must be given, its default."""

    name: str
    read: FieldReader
    required: bool = True
    default: Any = None
    help: str = ""

    @property
    def one_card(self) -> bool:
        return self.read in (_card_field, _card_or_none_field)


def _cards_field(low: int = 1, high: int = 20) -> FieldReader:
    return lambda value, game: read_cards(value, game, low=low, high=high)


def _card_field(value: Any, game: str) -> Card | CardsTemplate | None:
    return read_one_card(value, game)


def _card_or_none_field(value: Any, game: str) -> Card | CardsTemplate | None:
    return read_one_card(value, game, allow_none=True)


def _int_field(low: int | None = None, high: int | None = None,
               what: str = "a whole number") -> FieldReader:
    return lambda value, game: read_int(value, low=low, high=high, what=what)


# --- the kind protocol ------------------------------------------------------------------
class Kind:
    """What every kind of exercise offers (see the module docstring)."""

    name: ClassVar[str]
    game: ClassVar[str]
    title: ClassVar[str]
    question: ClassVar[str]
    fields: ClassVar[tuple[FieldSpec, ...]]
    answer_style: ClassVar[str]  # choice, yesno, plays, stacks, number, capture
    measure_names: ClassVar[tuple[str, ...]] = ()
    must_be_solvable: ClassVar[bool] = False
    unique_cards: ClassVar[bool] = False  # one deck: no card twice in a position
    work_advice: ClassVar[str] = "use fewer cards or loosen 'require'"

    def problems(self, position: Position) -> list[str]:
        return []

    def measures(self, position: Position) -> dict[str, int]:
        return {}

    def pool_filter(self, field_name: str, card: Card) -> bool:
        """Whether a template of this field may draw ``card`` (a rule, not a choice)."""
        return True

    def prompt(self, position: Position) -> str:
        return self.question

    def choices(self, position: Position) -> list[str]:
        """The labels of the answer buttons (choice and yes/no kinds)."""
        return []

    def choice_answers(self, position: Position) -> list[Any]:
        """What each button of ``choices`` answers: the value ``read_answer`` takes for it."""
        return []

    def read_answer(self, position: Position, answer: Any) -> Any:
        raise NotImplementedError

    def answer_text(self, answer: Any) -> str:
        return str(answer)

    def describe_answer(self, position: Position, answer: Any) -> str:
        """The answer as the results show it to a teacher (cards, not button numbers)."""
        return self.answer_text(answer)

    def check(self, position: Position, answer: Any) -> Result:
        raise NotImplementedError

    def hint(self, position: Position, level: int) -> Hint:
        raise NotImplementedError

    def solution(self, position: Position) -> Result:
        raise NotImplementedError

    def all_cards(self, position: Position) -> list[Card]:
        out: list[Card] = []
        for spec in self.fields:
            value = position.get(spec.name)
            if isinstance(value, Card):
                out.append(value)
            elif isinstance(value, tuple):
                for v in value:
                    if isinstance(v, Card):
                        out.append(v)
                    elif isinstance(v, DeckPlay):
                        out.append(v.card)
        return out


# --- yes/no kinds share their answer handling -------------------------------------------
_YES = {"yes", "y", "true"}
_NO = {"no", "n", "false"}


class YesNoKind(Kind):
    answer_style = "yesno"
    measure_names: ClassVar[tuple[str, ...]] = ("answer",)

    def truth(self, position: Position) -> bool:
        raise NotImplementedError

    def reason(self, position: Position) -> list[Any]:
        raise NotImplementedError

    def choices(self, position: Position) -> list[str]:
        return ["Yes", "No"]

    def choice_answers(self, position: Position) -> list[Any]:
        return [True, False]

    def read_answer(self, position: Position, answer: Any) -> bool:
        """Yes or no: True/False or the words (yes, y, true; no, n, false), never a number."""
        if isinstance(answer, bool):
            return answer
        if isinstance(answer, str) and answer.strip().lower() in _YES | _NO:
            return answer.strip().lower() in _YES
        raise AnswerError(f"answer yes or no (or True/False), not {shown(answer)}")

    def answer_text(self, answer: Any) -> str:
        return "yes" if answer else "no"

    def measures(self, position: Position) -> dict[str, int]:
        return {"answer": int(self.truth(position))}

    def check(self, position: Position, answer: Any) -> Result:
        said = self.read_answer(position, answer)
        truth = self.truth(position)
        word = "Yes" if truth else "No"
        if said == truth:
            return Result(True, 1.0, f"Right: {word.lower()}.", tuple(self.reason(position)))
        return Result(False, 0.0, f"Not quite: the answer is {word.lower()}.",
                      tuple(self.reason(position)))

    def solution(self, position: Position) -> Result:
        word = "yes" if self.truth(position) else "no"
        return Result(True, 1.0, f"The answer is {word}.", tuple(self.reason(position)))


# ========================================================================================
# Suns to Moons
# ========================================================================================
def _deck_field(value: Any, game: str) -> Any:
    return read_deck(value)


def _counted_field(value: Any, game: str) -> tuple[Any, ...]:
    items = value if isinstance(value, list) else split_cards(value)
    if not items:
        raise FieldError("counted lists the signed values still counted, like [11, -4, -2]")
    return tuple(read_int(v, low=-14, high=14, what="a counted value") for v in items)


def position_state(position: Position) -> Any:
    """The engine's state of a Suns to Moons position (``SunsToMoons.position``)."""
    from mathcards.games.suns_to_moons import SunsToMoons

    return SunsToMoons.position(position.get("hand") or (), deck=position.get("deck") or None,
                                counted=position.get("counted") or (),
                                goal=position.get("goal") or 0)


def start_deck(position: Position) -> tuple[list[int], list[Card | None], int]:
    """(counted values, the cards behind them, deck size) of a Suns to Moons position."""
    state = position_state(position)
    return list(state.counted), list(state.counted_cards), state.deck_size


def _sm_moves(state: Any) -> dict[Any, Any]:
    """The plays allowed next, each with the state it leads to.

    After a Joker that may end the turn alone, the next card may also start a
    new turn (the exercise's one player plays on): the engine's end of turn
    is applied first."""
    from mathcards.games.suns_to_moons import END_TURN, Play

    out = {a: state for a in state.legal_actions() if isinstance(a, Play)}
    if state.is_legal(END_TURN):
        ended = state.apply(END_TURN)
        for a in ended.legal_actions():
            if isinstance(a, Play) and a not in out:
                out[a] = ended
    return out


def _sm_apply(state: Any, play: Any) -> Any:
    return _sm_moves(state)[play].apply(play)


def _sm_won(state: Any) -> bool:
    """The exercise's goal was reached with 3 or more cards (the engine ended its game)."""
    return bool(state.is_over)


def _sm_steps(after: Any) -> list[Any]:
    from mathcards.explain.suns_to_moons import play_steps

    return play_steps(after.new_events)


def _refuse_play(state: Any, play: Any) -> str:
    """Why a play is not allowed here, in words a student can act on."""
    from mathcards.games.suns_to_moons import BOUND, within_bound

    if play.card not in state.hands[state.turn]:
        return f"you have no {play.card.symbol} left in your hand"
    after = state.deck_value + play.contribution
    if state.after_joker and not play.card.is_joker:
        if not within_bound(after):
            return (f"{play.card.symbol} as {_signed(play.contribution)} would make "
                    f"{_num(after)}: you must stay within ±{BOUND} while another play can")
        return "after a Joker only one more card may follow in the same turn"
    if play.card.is_joker:
        return (f"the Joker would leave the deck outside ±{BOUND} while another play keeps it "
                "inside")
    if not within_bound(after):
        return (f"{play.card.symbol} as {_signed(play.contribution)} would make {_num(after)}: "
                f"you must stay within ±{BOUND} while another play can")
    return f"the Joker must be played first: without it every play leaves ±{BOUND}"


def read_plays(answer: Any) -> tuple[Any, ...]:
    """Plays from ``"+7H -10S JK +AS=14"`` or a list of such texts or engine Plays."""
    from mathcards.games.suns_to_moons import JOKER_PLAY, MoveTextError, Play, parse_move

    items = split_cards(answer) if isinstance(answer, str) else list(answer)
    plays = []
    for item in items:
        if isinstance(item, Play):
            plays.append(item)
            continue
        if isinstance(item, (tuple, list)) and len(item) in (2, 3):
            try:
                card = read_card(item[0], "suns_to_moons")
            except FieldError as exc:
                raise AnswerError(str(exc)) from None
            numbers = list(item[1:])
            if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) \
                    or numbers[0] not in (1, -1):
                raise AnswerError("a play is (card, sign) or (card, sign, value) with the sign "
                                  "1 or -1, like ('7H', -1) or ('AS', 1, 14)")
            value = numbers[1] if len(numbers) == 2 else (card.rank or 0)
            plays.append(JOKER_PLAY if card.is_joker else Play(card, numbers[0], value))
            continue
        if not isinstance(item, (str, Card)):
            raise AnswerError(f"{shown(item)} is not a play: write +7H, -10S, JK or +AS=14")
        try:
            play = parse_move(None, str(item))
        except MoveTextError as exc:
            raise AnswerError(str(exc)) from None
        if not isinstance(play, Play):
            raise AnswerError(f"{item!r} is not a play: write +7H, -10S, JK or +AS=14")
        plays.append(play)
    return tuple(plays)


def play_text(play: Any) -> str:
    from mathcards.games.suns_to_moons import move_text

    return move_text(play)


class ReachGoal(Kind):
    """Suns to Moons: play cards from the hand until the deck equals the goal."""

    name = "reach_goal"
    game = "suns_to_moons"
    title = "Reach the goal"
    question = "Make the deck equal the goal."
    answer_style = "plays"
    must_be_solvable = True
    measure_names = ("solutions", "plays needed", "deck value", "cards")
    work_advice = ("lower most_plays, give fewer cards in the hand, or loosen 'require' "
                   "(exactly one solution is costly to prove)")
    fields = (
        FieldSpec("deck", _deck_field, required=False,
                  help="the deck so far, centre card first: 7H -10S +6D JK"),
        FieldSpec("counted", _counted_field, required=False,
                  help="or the signed values still counted: [7, -10, 6]"),
        FieldSpec("hand", _cards_field(1, 10), help="the cards you may play"),
        FieldSpec("goal", _int_field(-10, 10, "the goal"), required=False, default=0),
        FieldSpec("most_plays", _int_field(1, 6, "most plays"), required=False, default=1,
                  help="how many cards the student may play at most"),
    )

    def start(self, position: Position) -> Any:
        return position_state(position)

    def prompt(self, position: Position) -> str:
        n = position["most_plays"]
        plays = "one card" if n == 1 else f"at most {n} cards"
        return (f"The deck is {_num(sum(start_deck(position)[0]))}. Play {plays} from your hand "
                f"to make it {_num(position['goal'])}.")

    def solutions(self, position: Position, limit: int = 2000) -> list[tuple[Any, ...]]:
        """Every play sequence that reaches the goal within the most plays (first goal hit)."""
        most = position["most_plays"]
        found: list[tuple[Any, ...]] = []

        def search(state: Any, path: tuple[Any, ...], budget: _Budget) -> None:
            if len(found) >= limit or len(path) >= most:
                return
            moves = _sm_moves(state)
            spend(budget, self, len(moves))
            for play, before in moves.items():
                after = before.apply(play)
                if _sm_won(after):
                    found.append((*path, play))
                else:
                    search(after, (*path, play), budget)

        with work_budget() as budget:
            search(self.start(position), (), budget)
        return found

    @staticmethod
    def _solution_key(plays: Sequence[Any]) -> tuple[tuple[bool, int], ...]:
        # a Joker sorts apart from the numbers (a str beside ints cannot be sorted)
        return tuple(sorted((p.card.is_joker, p.contribution) for p in plays))

    def measures(self, position: Position) -> dict[str, int]:
        sols = self.solutions(position)
        counted, _, size = start_deck(position)
        return {
            "solutions": len({self._solution_key(s) for s in sols}),
            "plays needed": min((len(s) for s in sols), default=0),
            "deck value": sum(counted),
            "cards": size,
        }

    def problems(self, position: Position) -> list[str]:
        if position.get("deck") is None and position.get("counted") is None:
            return ["give the deck (7H -10S +6D) or the counted values ([7, -10, 6])"]
        if position.get("deck") is not None and position.get("counted") is not None:
            return ["give the deck or the counted values, not both"]
        start = self.start(position)
        from mathcards.games.suns_to_moons import MIN_DECK_FOR_GOAL

        if start.deck_value == position["goal"] and start.deck_size >= MIN_DECK_FOR_GOAL:
            return [f"the deck is already on the goal {_num(position['goal'])}"]
        if not self.solutions(position, limit=1):
            n = position["most_plays"]
            within = "" if n == 1 else f" within {n} plays"
            return [f"no play reaches the goal {_num(position['goal'])} from this hand{within}"]
        return []

    def read_answer(self, position: Position, answer: Any) -> tuple[Any, ...]:
        plays = read_plays(answer)
        if not plays:
            raise AnswerError("play at least one card")
        return plays

    def answer_text(self, answer: Any) -> str:
        return " ".join(play_text(p) for p in answer)

    def check(self, position: Position, answer: Any) -> Result:
        plays = self.read_answer(position, answer)
        goal, most = position["goal"], position["most_plays"]
        state = self.start(position)
        steps: list[Any] = []
        for i, play in enumerate(plays):
            if i >= most:
                return Result(False, 0.0, f"Not quite: you may play at most {most} "
                              f"card{'s' if most != 1 else ''}.", tuple(steps))
            if play not in _sm_moves(state):
                from mathcards.explain.steps import Refusal

                steps.append(Refusal(action=str(play), reason=_refuse_play(state, play)))
                return Result(False, 0.0, f"Not allowed: {play!s} breaks a rule.",
                              tuple(steps))
            state = _sm_apply(state, play)
            steps.extend(_sm_steps(state))
            if _sm_won(state):
                extra = len(plays) - i - 1
                if extra:
                    steps.append(fact(f"the goal was reached after {i + 1} "
                                      f"play{'s' if i else ''}; the round ends there"))
                return Result(True, 1.0, f"Right: the deck is {_num(goal)}, the goal.",
                              tuple(steps))
        value = state.deck_value
        if value == goal:
            head = (f"Not quite: the deck is {_num(goal)}, but it needs 3 or more cards "
                    "to count.")
        else:
            head = f"Not quite: the deck is {_num(value)}, not the goal {_num(goal)}."
        return Result(False, 0.0, head, tuple(steps))

    def _best(self, position: Position) -> tuple[Any, ...]:
        sols = self.solutions(position)
        return min(sols, key=len) if sols else ()

    def hint(self, position: Position, level: int) -> Hint:
        best = self._best(position)
        goal = _num(position["goal"])
        if level <= 1:
            n = len(best)
            return make_hint(1, f"there is a way to reach {goal} with {n} "
                                f"card{'s' if n != 1 else ''}: compare the goal with the "
                                f"deck now")
        first = best[0]
        words = "the Joker" if first.card.is_joker else \
            f"{first.card.symbol} as {_signed(first.contribution)}"
        if level == 2:
            return make_hint(2, f"start with {words}")
        state = self.start(position)
        return make_hint(3, f"start with {words}", _sm_steps(_sm_apply(state, first)))

    def solution(self, position: Position) -> Result:
        from mathcards.explain import chain_steps

        best = self._best(position)
        state = self.start(position)
        steps: list[Any] = []
        for play in best:
            state = _sm_apply(state, play)
            steps.extend(_sm_steps(state))
        steps.append(chain_steps(state.counted, goal=position["goal"]))
        words = ", then ".join(str(p).replace("play ", "") for p in best)
        return Result(True, 1.0, f"One way: {words}.", tuple(steps))


class DeckValue(Kind):
    """Suns to Moons: what is the deck worth now?"""

    name = "deck_value"
    game = "suns_to_moons"
    title = "What is the deck value now?"
    question = "What is the deck value now?"
    answer_style = "number"
    measure_names = ("deck value", "cards", "jokers")
    fields = (
        FieldSpec("deck", _deck_field, help="the deck, centre card first: 7H -10S +6D JK"),
    )

    def counted(self, position: Position) -> list[int]:
        return list(position_state(position).counted)

    def measures(self, position: Position) -> dict[str, int]:
        deck = position["deck"]
        return {"deck value": sum(self.counted(position)), "cards": len(deck),
                "jokers": sum(1 for p in deck if p.card.is_joker)}

    def read_answer(self, position: Position, answer: Any) -> int:
        if isinstance(answer, bool):
            raise AnswerError("answer with a whole number, like -3")
        if isinstance(answer, int):
            return answer
        value = whole_number(answer)
        if value is not None:
            return value
        raise AnswerError(f"{shown(answer)} is not a whole number: type one with the digits "
                          "0-9, like -3 or 7")

    def _chain(self, position: Position) -> Any:
        from mathcards.explain import chain_steps
        from mathcards.explain.suns_to_moons import seed_record

        plays = [(p.value, 0 if p.card.is_joker else p.sign) for p in position["deck"]]
        return chain_steps(self.counted(position), record=seed_record(plays))

    def _question_terms(self, position: Position) -> str:
        from mathcards.explain.terms import Num, Sum, text_of

        counted = self.counted(position) or [0]
        return text_of(Sum(tuple(Num(t) for t in counted))) + " = ?"

    def check(self, position: Position, answer: Any) -> Result:
        said = self.read_answer(position, answer)
        value = sum(self.counted(position))
        if said == value:
            return Result(True, 1.0, f"Right: the deck is {_num(value)}.",
                          (self._chain(position),))
        steps = [fact(f"{_num(said)} is not the deck value")]
        deck = position["deck"]
        ignoring = sum(p.contribution for p in deck if not p.card.is_joker)
        if any(p.card.is_joker for p in deck) and said == ignoring:
            steps.append(fact("a Joker takes away the card counted just before it: leave "
                              "that card out"))
        if any(p.card.rank == 1 and not p.card.is_joker for p in deck):
            steps.append(fact("an Ace counts the value it was played as: =14 means 14, "
                              "otherwise 1"))
        steps.append(fact(f"add the counted cards in order: {self._question_terms(position)}"))
        return Result(False, 0.0, f"Not quite: the deck is not {_num(said)}.", tuple(steps))

    def hint(self, position: Position, level: int) -> Hint:
        if level <= 1:
            text = "add the cards in the order they were played; across adds, upright subtracts"
            if any(p.card.is_joker for p in position["deck"]):
                text += "; a Joker removes the card before it"
            return make_hint(1, text)
        if level == 2:
            return make_hint(2, f"the counted values: {self._question_terms(position)}")
        counted = self.counted(position)
        running = []
        total = 0
        for i, term in enumerate(counted[:-1]):
            total += term
            running.append(f"{_num(total)}" if i == 0 else f"{_signed(term)} → {_num(total)}")
        last = _signed(counted[-1]) if counted else "0"
        text = f"step by step: {', '.join(running) or 'start at 0'}, then {last} → ?"
        return make_hint(3, text)

    def solution(self, position: Position) -> Result:
        value = sum(self.counted(position))
        return Result(True, 1.0, f"The deck is {_num(value)}.", (self._chain(position),))


# ========================================================================================
# Dice Stacks
# ========================================================================================
def _dice_field(value: Any, game: str) -> tuple[Any, Any]:
    return read_dice(value)


def _stack_step(cards: Sequence[Card], dice: tuple[int, int]) -> Any:
    """The explainer's step for cards laid as a stack (its expression, or why it is not one)."""
    from mathcards.explain import NotAStackError, stack_steps

    try:
        return stack_steps(list(cards), dice)  # the rule's shape and points
    except NotAStackError as exc:
        return fact(exc.reason if getattr(exc, "reason", "") else str(exc))


def _not_stack_reason(cards: Sequence[Card], dice: tuple[int, int]) -> str:
    from mathcards.explain import NotAStackError, stack_steps

    try:
        stack_steps(list(cards), dice)
    except NotAStackError as exc:
        return str(exc)
    return f"{_cards_words(cards)} is not a stack of {sum(dice)}"


class MakeStacks(Kind):
    """Dice Stacks: lay as many points of stacks as the hand allows."""

    name = "make_stacks"
    game = "dice_stacks"
    title = "Make stacks"
    question = "Make stacks of the dice total. The best stacks score the most points."
    answer_style = "stacks"
    must_be_solvable = True
    measure_names = ("best stacks", "best points")
    fields = (
        FieldSpec("dice", _dice_field, help="two dice: [3, 5] or random"),
        FieldSpec("hand", _cards_field(1, 14), help="the cards in hand"),
    )

    def prompt(self, position: Position) -> str:
        d1, d2 = position["dice"]
        return (f"The dice show {d1} and {d2}: make stacks of {d1 + d2}. "
                "Full marks for the most points these cards can make.")

    def best(self, position: Position) -> tuple[list[tuple[Card, ...]], int]:
        from mathcards.games import dice_stacks as ds
        dice = tuple(position["dice"])
        stacks = [tuple(s) for s in ds.best_stacks(list(position["hand"]), dice)]
        return stacks, sum(ds.stack_points(list(s), dice) for s in stacks)

    def measures(self, position: Position) -> dict[str, int]:
        stacks, points = self.best(position)
        return {"best stacks": len(stacks), "best points": points}

    def problems(self, position: Position) -> list[str]:
        if not self.best(position)[0]:
            d1, d2 = position["dice"]
            return [f"these cards make no stack of {d1 + d2}: add cards or change the dice"]
        return []

    def read_answer(self, position: Position, answer: Any) -> tuple[tuple[Card, ...], ...]:
        if isinstance(answer, str):
            groups = [g for g in answer.split("|") if g.strip()]
        elif isinstance(answer, (list, tuple)):
            groups = list(answer)  # each stack: text, or a list or tuple of cards
        else:
            raise AnswerError("give stacks like '8C | 6H 2S' or a list of stacks of cards")
        stacks = []
        for group in groups:
            try:
                cards = tuple(read_card(c, "dice_stacks") for c in split_cards(group))
            except FieldError as exc:
                raise AnswerError(str(exc)) from None
            if cards:
                stacks.append(cards)
        return tuple(stacks)

    def answer_text(self, answer: Any) -> str:
        return " | ".join(" ".join(str(c) for c in s) for s in answer) or "(no stacks)"

    def state(self, position: Position) -> Any:
        """The position as a real engine state: you to lay stacks with this hand."""
        from mathcards.games import dice_stacks as ds
        return ds.DiceStacks(num_players=2).position(position["hand"], position["dice"])

    def check(self, position: Position, answer: Any) -> Result:
        from mathcards.games import dice_stacks as ds
        stacks = self.read_answer(position, answer)
        dice = tuple(position["dice"])
        _, best = self.best(position)
        state = self.state(position)
        steps: list[Any] = []
        points = 0
        refused = 0
        from mathcards.explain.dice_stacks import step_of
        from mathcards.explain.steps import Refusal

        for stack in stacks:  # each stack laid on the real state, in turn
            action = ds.LayStack(stack)
            if not state.is_legal(action):
                refused += 1
                need, left = Counter(stack), Counter(state.hands[0])
                missing = [c for c in need if need[c] > left[c]]
                reason = (f"{_cards_words(missing)} is not in your hand (or is already in "
                          "another stack)" if missing else _not_stack_reason(stack, dice))
                steps.append(Refusal(action=_cards_words(stack), reason=reason))
                continue
            state = state.apply(action)
            laid = next(e for e in state.new_events if isinstance(e, ds.StackLaid))
            points += laid.points
            # a legal stack always has the engine's shape; the explainer's own step otherwise
            steps.append(step_of(laid.shape, laid.dice) if laid.shape is not None
                         else _stack_step(stack, dice))
        score = points / best if best else 0.0
        if refused:
            score = min(score, (best - 1) / best if best else 0.0)
        if not refused and points >= best:
            return Result(True, 1.0, f"Right: {points} point{'s' if points != 1 else ''}, the "
                          "most these cards can make.", tuple(steps))
        word = "point" if points == 1 else "points"
        if not stacks:
            head = f"Not quite: no stacks yet; these cards can make {best} points."
        elif refused:
            head = (f"Not quite: {refused} of your stacks {'is' if refused == 1 else 'are'} "
                    f"not allowed; the rest score {points} {word} of {best}.")
        else:
            head = (f"Partly right: your stacks score {points} {word}; these cards can "
                    f"make {best}.")
        return Result(False, score, head, tuple(steps))

    def hint(self, position: Position, level: int) -> Hint:
        stacks, points = self.best(position)
        target = sum(position["dice"])
        made = f"{len(stacks)} stack{'s' if len(stacks) != 1 else ''} of {target}"
        if points != len(stacks):
            made += f" ({points} points)"
        if level <= 1:
            return make_hint(1, f"these cards make {made}")
        first = stacks[0]
        sentence = f"these cards make {made}; here is one: {' and '.join(c.symbol for c in first)}"
        if level == 2:
            return make_hint(2, sentence)
        return make_hint(3, sentence, [_stack_step(first, tuple(position["dice"]))])

    def solution(self, position: Position) -> Result:
        stacks, points = self.best(position)
        dice = tuple(position["dice"])
        steps = [_stack_step(s, dice) for s in stacks]
        return Result(True, 1.0, f"The best stacks score {points} points:", tuple(steps))


class IsStack(YesNoKind):
    """Dice Stacks: do these cards make a stack of the dice total?"""

    name = "is_stack"
    game = "dice_stacks"
    title = "Is this a stack?"
    question = "Is this a stack?"
    measure_names = ("answer", "points")
    fields = (
        FieldSpec("dice", _dice_field, help="two dice: [3, 5] or random"),
        FieldSpec("cards", _cards_field(1, 8), help="the cards of the stack, Kings last"),
    )

    def prompt(self, position: Position) -> str:
        d1, d2 = position["dice"]
        return f"The dice show {d1} and {d2}. Do these cards make a stack of {d1 + d2}?"

    def truth(self, position: Position) -> bool:
        from mathcards.games import dice_stacks as ds
        return ds.stack_points(list(position["cards"]), tuple(position["dice"])) > 0

    def measures(self, position: Position) -> dict[str, int]:
        from mathcards.games import dice_stacks as ds
        points = ds.stack_points(list(position["cards"]), tuple(position["dice"]))
        return {"answer": int(points > 0), "points": points}

    def reason(self, position: Position) -> list[Any]:
        return [_stack_step(position["cards"], tuple(position["dice"]))]

    def hint(self, position: Position, level: int) -> Hint:
        target = sum(position["dice"])
        cards = position["cards"]
        if level <= 1:
            return make_hint(1, "a stack adds all its number cards, or takes the largest minus "
                                "the others; Kings double or halve at the end")
        values = ", ".join("K" if c.rank == 13 else str(c.rank) for c in cards)
        if level == 2:
            return make_hint(2, f"the values are {values}; the stack must make {target}")
        from mathcards.games.dice_stacks_rule import KING, why_not

        numbers = [c.rank for c in cards if c.rank != KING]
        kings = len(cards) - len(numbers)
        parts = []
        for attempt in why_not(numbers, kings, target).attempts if numbers else ():
            how = "the largest minus the others makes" if attempt.subtracts else "added they make"
            parts.append(f"{how} {attempt.base}")
        if kings:
            parts.append(f"then {kings} King{'s' if kings > 1 else ''} double or halve")
        return make_hint(3, f"{'; '.join(parts)}; is one of these {target}?")


# ========================================================================================
# Sums
# ========================================================================================
_YOUR_CAPTURE: list[type] = []


def _your_capture() -> type:
    """The explainer's capture step, said to the student: "you capture their 7♥"."""
    if not _YOUR_CAPTURE:
        from mathcards.explain.steps import CaptureStep

        @dataclass(frozen=True, kw_only=True)
        class YourCapture(CaptureStep):
            @property
            def notes(self) -> tuple[str, ...]:
                return tuple(
                    n.replace("Player 1 captures Player 2's", "you capture their")
                    .replace("Player 1's", "your").replace("Player 2's", "their")
                    for n in super().notes)

        _YOUR_CAPTURE.append(YourCapture)
    return _YOUR_CAPTURE[0]


class FindCapture(Kind):
    """Sums: which card of theirs can you capture, and with which card?"""

    name = "find_capture"
    game = "sums"
    title = "Find the capture"
    question = "Find a capture."
    answer_style = "capture"
    must_be_solvable = True
    measure_names = ("solutions", "captures")
    fields = (
        FieldSpec("hand", _cards_field(1, 8), required=False,
                  help="the cards you may play (or give one 'played' card)"),
        FieldSpec("played", _card_field, required=False, help="the card you just played"),
        FieldSpec("own", _cards_field(1, 10), help="your other face-up cards (the helpers)"),
        FieldSpec("opponent", _cards_field(1, 10), help="their face-up cards"),
    )

    def playable(self, position: Position) -> tuple[Card, ...]:
        if position.get("played") is not None:
            return (position["played"],)
        return tuple(dict.fromkeys(position.get("hand") or ()))

    def prompt(self, position: Position) -> str:
        if position.get("played") is not None:
            return (f"You play {position['played'].symbol}. Which of their cards does it "
                    "capture?")
        return "Which card from your hand captures one of theirs? Pick it, then their card."

    def ways(self, position: Position) -> list[Any]:
        from mathcards.games import sums as su
        out = []
        for card in self.playable(position):
            out.extend(su.capture_ways(card, position["own"], position["opponent"]))
        return out

    def answers(self, position: Position) -> set[tuple[Card, Card]]:
        return {(w.played, w.target) for w in self.ways(position)}

    def measures(self, position: Position) -> dict[str, int]:
        answers = self.answers(position)
        return {"solutions": len(answers), "captures": len({t for _, t in answers})}

    def problems(self, position: Position) -> list[str]:
        if position.get("hand") is None and position.get("played") is None:
            return ["give the card played ('played: 9S') or the hand to choose from"]
        if position.get("hand") is not None and position.get("played") is not None:
            return ["give the card played or a hand to choose from, not both"]
        if not self.answers(position):
            return [("no card captures here: check colours, helpers and the Ace/Queen, "
                    "King/2 rule")]
        return []

    def read_answer(self, position: Position, answer: Any) -> tuple[Card, Card]:
        if isinstance(answer, str):
            parts = list(split_cards(answer.replace("takes", " ").replace("→", " ")))
        else:
            parts = list(answer) if isinstance(answer, (list, tuple)) else [answer]
        try:
            cards = [read_card(p, "sums") for p in parts]
        except FieldError as exc:
            raise AnswerError(str(exc)) from None
        if len(cards) == 1 and position.get("played") is not None:
            cards = [position["played"], cards[0]]
        if len(cards) != 2:
            raise AnswerError("answer with the card you play and the card it captures: 9S 6S")
        played, target = cards
        if played not in self.playable(position):
            raise AnswerError(f"{played.symbol} is not a card you can play here")
        if target not in position["opponent"]:
            raise AnswerError(f"{target.symbol} is not one of their face-up cards")
        return played, target

    def answer_text(self, answer: Any) -> str:
        return f"{answer[0]} takes {answer[1]}"

    def _step(self, way: Any, stage: str = "capture") -> Any:
        return _your_capture()(player=0, played=way.played, helper=way.helper, op=way.op,
                               target=way.target, target_owner=1, stage=stage)

    def captured(self, position: Position, played: Card, target: Card) -> Any:
        """What if: ``played`` played on a real engine state; the capture's way of
        ``target`` (the engine's), or None when it is not captured."""
        from mathcards.games import sums as su
        start = su.Sums(num_players=2).position((played,), position["own"],
                                                position["opponent"])
        state = start.apply(su.Play(played))
        choose = su.Capture(target, 1)
        if state.is_legal(choose):
            state = state.apply(choose)
        for ev in state.new_events:
            if isinstance(ev, su.Captured) and ev.card == target:
                return ev.way
        return None

    def check(self, position: Position, answer: Any) -> Result:
        from mathcards.games import sums as su
        played, target = self.read_answer(position, answer)
        way = self.captured(position, played, target)
        if way is not None:
            return Result(True, 1.0, f"Right: {played.symbol} captures {target.symbol}.",
                          (self._step(way),))
        reason = su.why_no_capture(played, target, list(position["own"]))
        return Result(False, 0.0,
                      f"Not quite: {played.symbol} does not capture {target.symbol}.",
                      (fact(reason),))

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import sums as su
        ways = self.ways(position)
        if level <= 1:
            return make_hint(1, "a capture needs cards of one colour: played card plus or "
                                "minus a helper of yours makes their card")
        if not ways:
            return make_hint(level, "no capture works here: no card you can play, with a "
                                    "helper of its colour, makes one of their cards (and an "
                                    "Ace falls only to a Queen, a King only to a 2)")
        best = max(ways, key=lambda w: (su.card_points(w.target), w.target.rank))
        sentence = f"your {best.played.symbol} can capture"
        if position.get("played") is not None:
            sentence = f"try your helper {best.helper.symbol} with {best.played.symbol}"
        if level == 2:
            return make_hint(2, sentence)
        return make_hint(3, sentence, [self._step(best, "threat")])

    def solution(self, position: Position) -> Result:
        ways = self.ways(position)
        seen = set()
        steps = []
        for way in ways:
            if (way.played, way.target) not in seen:
                seen.add((way.played, way.target))
                steps.append(self._step(way))
        n = len(seen)
        return Result(True, 1.0, f"{n} capture{'s' if n != 1 else ''} work here:", tuple(steps))


# ========================================================================================
# Shoot the Moon
# ========================================================================================
def _stm() -> ModuleType:
    """The Shoot the Moon engine, imported when first asked for (tests/exercises uses it)."""
    from mathcards.games import shoot_the_moon

    return shoot_the_moon


class WhoTakesTrick(Kind):
    """Shoot the Moon: which card wins this trick?"""

    name = "who_takes_trick"
    game = "shoot_the_moon"
    title = "Who takes this trick?"
    question = "Which card takes this trick? The first card was led."
    answer_style = "choice"
    unique_cards = True
    measure_names = ("winner position",)
    fields = (FieldSpec("trick", _cards_field(2, 6), help="the cards in play order, led first"),)

    def problems(self, position: Position) -> list[str]:
        from mathcards.games import shoot_the_moon as stm
        try:
            stm.explain_trick(position["trick"])
        except MathCardsError as exc:
            return [str(exc)]
        return []

    def measures(self, position: Position) -> dict[str, int]:
        from mathcards.games import shoot_the_moon as stm
        return {"winner position": stm.trick_winner(position["trick"]) + 1}

    def choices(self, position: Position) -> list[str]:
        return [f"{'led ' if i == 0 else ''}{c.symbol}" for i, c in enumerate(position["trick"])]

    def choice_answers(self, position: Position) -> list[Any]:
        # the card's place in the trick, not the card: a trick may hold two Big Moons
        return list(range(len(position["trick"])))

    def read_answer(self, position: Position, answer: Any) -> int:
        trick: tuple[Card, ...] = position["trick"]
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < len(trick):
                return answer
            raise AnswerError(f"choose one of the {len(trick)} cards (0 is the card led)")
        try:
            card = read_card(answer, "shoot_the_moon")
        except FieldError as exc:
            raise AnswerError(str(exc)) from None
        if card not in trick:
            raise AnswerError(f"{card} is not in this trick")
        return trick.index(card)

    def answer_text(self, answer: Any) -> str:
        return str(answer)

    def describe_answer(self, position: Position, answer: Any) -> str:
        return str(position["trick"][answer])

    def check(self, position: Position, answer: Any) -> Result:
        from mathcards.games import shoot_the_moon as stm
        index = self.read_answer(position, answer)
        trick = position["trick"]
        winner, rule, sentence = stm.explain_trick(trick)
        if index == winner:
            return Result(True, 1.0, f"Right: {trick[index]} takes it.", (fact(sentence),))
        card = trick[index]
        why = [fact(stm.RULE_WORDS[rule])]
        if card.is_little_moon:
            why.append(fact("a Little Moon never wins a trick"))
        elif rule in ("red_trumps", "highest_red") and card.suit != "R":
            why.append(fact(f"{card} is not red"))
        elif rule == "led_colour" and card.suit != trick[0].suit:
            why.append(fact(f"{card} is not the led colour"))
        return Result(False, 0.0, f"Not quite: {card} does not take this trick.", tuple(why))

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import shoot_the_moon as stm
        if level <= 1:
            return make_hint(1, "check in order: a Big Moon? a Little Moon led? any red? "
                                "else the led colour")
        _winner, rule, sentence = stm.explain_trick(position["trick"])
        if level == 2:
            return make_hint(2, stm.RULE_WORDS[rule])
        return make_hint(3, sentence)

    def solution(self, position: Position) -> Result:
        from mathcards.games import shoot_the_moon as stm
        trick = position["trick"]
        winner, _rule, sentence = stm.explain_trick(trick)
        return Result(True, 1.0, f"{trick[winner]} takes the trick.", (fact(sentence),))


class IsPlayLegal(YesNoKind):
    """Shoot the Moon: may this card be played to this trick?"""

    name = "is_play_legal"
    game = "shoot_the_moon"
    title = "Is this play legal?"
    question = "May you play this card?"
    unique_cards = True
    fields = (
        FieldSpec("hand", _cards_field(1, 5), help="your hand"),
        FieldSpec("led", _card_or_none_field, required=False, default=None,
                  help="the card led (none when you lead)"),
        FieldSpec("card", _card_field, help="the card you want to play (from your hand)"),
    )

    def prompt(self, position: Position) -> str:
        led = position.get("led")
        where = f"{led} was led" if led is not None else "You lead"
        return f"{where}. May you play {position['card']}?"

    def problems(self, position: Position) -> list[str]:
        if position["card"] not in position["hand"]:
            return [f"the card {position['card']} must be one of the hand's cards"]
        return []

    def truth(self, position: Position) -> bool:
        # asked of the engine: the hand's seat plays next, after the led card
        from mathcards.games import shoot_the_moon as stm
        led = position.get("led")
        table = stm.position(["", position["hand"], ""], trick=() if led is None else (led,),
                             to_play=1)
        return table.is_legal(stm.Play(position["card"]))

    def reason(self, position: Position) -> list[Any]:
        from mathcards.games import shoot_the_moon as stm
        rule = stm.follow_rule(list(position["hand"]), position.get("led"))
        verdict = "may" if self.truth(position) else "may not"
        return [fact(rule), fact(f"so you {verdict} play {position['card']}")]

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import shoot_the_moon as stm
        led = position.get("led")
        if level <= 1:
            return make_hint(1, "follow the led colour if you can; a Big or Little Moon may "
                                "always be played")
        if level == 2:
            if led is None:
                return make_hint(2, "nobody has led yet")
            return make_hint(2, f"the led card is {led}: do you hold its colour?")
        return make_hint(3, stm.follow_rule(list(position["hand"]), led))


# ========================================================================================
# Moons and Planets
# ========================================================================================
def _mp() -> ModuleType:
    """The Moons and Planets engine, imported when first asked for (tests/exercises uses it)."""
    from mathcards.games import moons_and_planets

    return moons_and_planets


class PlanetOrNot(YesNoKind):
    """Moons and Planets: are these cards a planet?"""

    name = "planet_or_not"
    game = "moons_and_planets"
    title = "Planet or not?"
    question = "Are these cards a planet?"
    unique_cards = True
    measure_names = ("answer", "total")
    fields = (FieldSpec("cards", _cards_field(1, 8), help="the cards put down together"),)

    def truth(self, position: Position) -> bool:
        from mathcards.games import moons_and_planets as mp
        return mp.is_planet(position["cards"])

    def measures(self, position: Position) -> dict[str, int]:
        from mathcards.games import moons_and_planets as mp
        total = sum(mp.planet_points(c) for c in position["cards"])
        return {"answer": int(self.truth(position)), "total": total}

    def reason(self, position: Position) -> list[Any]:
        from mathcards.games import moons_and_planets as mp
        return [fact(mp.planet_reason(position["cards"]))]

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import moons_and_planets as mp
        cards = position["cards"]
        if level <= 1:
            return make_hint(1, "a planet is 2 or more cards of one suit, no aces, adding to "
                                "15-18 (J, Q, K count 10); or the 5♣ alone")
        total = sum(mp.planet_points(c) for c in cards)
        suits = len({c.suit for c in cards})
        if level == 2:
            return make_hint(2, f"{len(cards)} card{'s' if len(cards) != 1 else ''} in "
                                f"{suits} suit{'s' if suits != 1 else ''}")
        return make_hint(3, f"{len(cards)} card{'s' if len(cards) != 1 else ''} in {suits} "
                            f"suit{'s' if suits != 1 else ''}, adding to {total}")


class MoonOrNot(YesNoKind):
    """Moons and Planets: are these cards one moon?"""

    name = "moon_or_not"
    game = "moons_and_planets"
    title = "Moon or not?"
    question = "Are these cards one moon?"
    unique_cards = True
    fields = (FieldSpec("cards", _cards_field(1, 8), help="the cards put down together"),)

    def truth(self, position: Position) -> bool:
        from mathcards.games import moons_and_planets as mp
        return mp.is_moon(position["cards"])

    def reason(self, position: Position) -> list[Any]:
        from mathcards.games import moons_and_planets as mp
        return [fact(mp.moon_reason(position["cards"]))]

    def hint(self, position: Position, level: int) -> Hint:
        cards = position["cards"]
        if level <= 1:
            return make_hint(1, "a moon is a run of 3+ of one colour, 2-4 cards of one rank, "
                                "or one ace")
        colours = len({c.colour for c in cards})
        ranks = len({c.rank for c in cards})
        if level == 2:
            return make_hint(2, f"{len(cards)} cards, {colours} colour{'s' if colours > 1 else ''}")
        return make_hint(3, f"{len(cards)} cards, {colours} colour{'s' if colours > 1 else ''}, "
                            f"{ranks} different rank{'s' if ranks > 1 else ''}")


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _trick_cards_field(value: Any, game: str) -> tuple[Card, ...] | CardsTemplate:
    return read_cards(value, game, low=2, high=5)


class WhichPrize(Kind):
    """Moons and Planets: which prize does this card take?"""

    name = "which_prize"
    game = "moons_and_planets"
    title = "Which prize?"
    question = "Which prize does your card take?"
    answer_style = "choice"
    unique_cards = True
    measure_names = ("place", "followers")
    fields = (
        FieldSpec("trick", _trick_cards_field, help="the cards in play order, led first"),
        FieldSpec("yours", _card_field, required=False, default=None,
                  help="the card you ask about (the last card when not given)"),
        FieldSpec("prizes", _cards_field(1, 5), required=False, default=None,
                  help="the prize cards, first prize first"),
    )

    def pool_filter(self, field_name: str, card: Card) -> bool:
        return card.rank != 1 and card != Card("C", 5)  # never played to a trick

    def mine(self, position: Position) -> int:
        yours = position.get("yours")
        trick = position["trick"]
        return trick.index(yours) if yours in trick else len(trick) - 1

    def prompt(self, position: Position) -> str:
        trick = position["trick"]
        card = trick[self.mine(position)]
        return (f"{trick[0].symbol} was led. Which prize does {card.symbol} take? "
                "(1st prize goes to the highest card)")

    def problems(self, position: Position) -> list[str]:
        from mathcards.games import moons_and_planets as mp
        trick = position["trick"]
        try:
            mp.prize_order(trick)
        except MathCardsError as exc:
            return [str(exc)]
        yours = position.get("yours")
        if yours is not None and yours not in trick:
            return [f"'yours: {yours}' must be one of the trick's cards"]
        prizes = position.get("prizes")
        if prizes is not None and len(prizes) != len(trick):
            return [f"give one prize per card: {len(trick)} prizes for {len(trick)} cards"]
        return []

    def _ranking(self, position: Position) -> PrizeRanking:
        """The engine's ranking of your card, from the trick played on a real table."""
        from mathcards.games import moons_and_planets as mp
        award = mp.play_trick(position["trick"], position.get("prizes") or ())
        mine = self.mine(position)
        return next(r for r in award.ranking_reasons if r.player == mine)

    def place(self, position: Position) -> int:
        return self._ranking(position).place

    def measures(self, position: Position) -> dict[str, int]:
        trick = position["trick"]
        return {"place": self.place(position),
                "followers": sum(1 for c in trick if c.suit == trick[0].suit)}

    def choices(self, position: Position) -> list[str]:
        prizes = position.get("prizes")
        out = []
        for k in range(1, len(position["trick"]) + 1):
            label = f"{_ordinal(k)} prize"
            if prizes:
                label += f" ({prizes[k - 1].symbol})"
            out.append(label)
        return out

    def choice_answers(self, position: Position) -> list[Any]:
        return list(range(1, len(position["trick"]) + 1))  # the prize numbers, 1st = 1

    def read_answer(self, position: Position, answer: Any) -> int:
        n = len(position["trick"])
        if isinstance(answer, str):  # "3", "3rd" or "3rd prize", in the digits 0-9
            m = re.fullmatch(r"\s*([0-9]{1,2})\s*(?:st|nd|rd|th)?(?:\s+prize)?\s*", answer,
                             re.IGNORECASE)
            answer = int(m.group(1)) if m else None
        if isinstance(answer, bool) or not isinstance(answer, int) or not 1 <= answer <= n:
            raise AnswerError(f"answer with a prize number from 1 to {n}, in the digits 0-9")
        return answer

    def _reason(self, position: Position) -> str:
        return self._ranking(position).ranking

    def check(self, position: Position, answer: Any) -> Result:
        said = self.read_answer(position, answer)
        place = self.place(position)
        trick = position["trick"]
        card = trick[self.mine(position)]
        if said == place:
            return Result(True, 1.0, f"Right: {card.symbol} takes the {_ordinal(place)} prize.",
                          (fact(self._reason(position)),))
        led = trick[0]
        follows = card.suit == led.suit
        why = ("it follows the led suit: followers rank K high to 2 low, above every discard"
               if follows else
               "it is a discard: discards rank below every card that follows the led suit, "
               "K high to 2 low, equal ranks by suit ♦ > ♣ > ♠ > ♥")
        return Result(False, 0.0, f"Not quite: {card.symbol} does not take the "
                      f"{_ordinal(said)} prize.", (fact(f"{card.symbol}: {why}"),))

    def hint(self, position: Position, level: int) -> Hint:
        trick = position["trick"]
        if level <= 1:
            return make_hint(1, "cards that follow the led suit rank above discards")
        followers = sum(1 for c in trick if c.suit == trick[0].suit)
        if level == 2:
            return make_hint(2, f"{followers} card{'s' if followers != 1 else ''} follow "
                                f"{trick[0].symbol}'s suit")
        return make_hint(3, self._reason(position))

    def solution(self, position: Position) -> Result:
        place = self.place(position)
        card = position["trick"][self.mine(position)]
        return Result(True, 1.0, f"{card.symbol} takes the {_ordinal(place)} prize.",
                      (fact(self._reason(position)),))


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (ReachGoal(), DeckValue(), MakeStacks(), IsStack(), FindCapture(),
                 WhoTakesTrick(), IsPlayLegal(), PlanetOrNot(), MoonOrNot(), WhichPrize())
}
"""Every kind of exercise by its name in the YAML file."""

__all__ = ["KINDS", "AnswerError", "FieldSpec", "Kind", "Result"]
