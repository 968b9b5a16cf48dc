"""Suns to Moons exercises: reach the goal, and what the deck is worth now."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mathcards.asking import Question
from mathcards.cards import Card, whole_number
from mathcards.exercises.fields import (
    FieldError,
    read_deck,
    read_int,
    shown,
    split_cards,
)
from mathcards.exercises.kinds.base import (
    AnswerError,
    FieldSpec,
    Kind,
    Position,
    Result,
    _Budget,
    _cards_field,
    _int_field,
    fact,
    make_hint,
    spend,
    work_budget,
)
from mathcards.games.suns_to_moons import (
    BOUND,
    END_TURN,
    MIN_DECK_FOR_GOAL,
    MoveTextError,
    Play,
    SunsToMoons,
    card_values,
    count_deck,
    deck_terms,
    move_text,
    number,
    parse_move,
    signed,
    within_bound,
)
from mathcards.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from mathcards.explain.steps import Hint


def _deck_field(value: Any, game: str) -> Any:
    return read_deck(value)


def _counted_field(value: Any, game: str) -> tuple[Any, ...]:
    items = value if isinstance(value, list) else split_cards(value)
    if not items:
        raise FieldError(_("counted lists the signed values still counted, like [11, -4, -2]"))
    return tuple(read_int(v, low=-14, high=14, what=N_("a counted value")) for v in items)


def position_state(position: Position) -> Any:
    """The engine's state of a Suns to Moons position (``SunsToMoons.position``)."""
    return SunsToMoons.position(position.get("hand") or (), deck=position.get("deck") or None,
                                counted=position.get("counted") or (),
                                goal=position.get("goal") or 0)


def bound_problems(position: Position) -> list[str]:
    """The first play of the position's deck (or counted values) after which the deck is
    outside ±10 (``within_bound``, ruling 3), with how to fix it; [] when none is.

    The centre card is not a play (a King starts at 13), and a Joker only brings back a
    value the deck had before, so the values after the other plays are the ones checked."""
    deck = position.get("deck")
    if deck:
        terms = deck_terms(deck)
        plays: list[Any] = list(deck)
    else:
        terms = list(position.get("counted") or ())
        plays = [None] * len(terms)
    running = count_deck(terms).running
    for place in range(1, len(terms)):
        term, value = terms[place], running[place]
        if term is None or within_bound(value):
            continue
        play = plays[place]
        if play is None:
            where = f"after the counted value {signed(term)} (value {place + 1} of 'counted')"
            fix = f"change that value so the deck stays within ±{BOUND}"
        else:
            where = f"after {move_text(play)} (card {place + 1} of the deck)"
            before = value - term
            other = [Play(play.card, sign, v) for v in card_values(play.card) for sign in (1, -1)
                     if sign * v != term and within_bound(before + sign * v)]
            fix = (f"play {move_text(other[0])} instead (the deck would be "
                   f"{number(before + other[0].contribution)})" if other else
                   f"choose another card, one that keeps the deck within ±{BOUND}")
        rule = f"a play must keep the deck from −{BOUND} to {BOUND} while another play can"
        return [f"the deck reaches {number(value)} {where}, outside ±{BOUND}: {rule}; {fix}"]
    return []


def _sm_moves(state: Any) -> dict[Any, Any]:
    """The plays allowed next, each with the state it leads to.

    After a Joker that may end the turn alone, the next card may also start a
    new turn (the exercise's one player plays on): the engine's end of turn
    is applied first."""
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
    from mathcards.games.suns_to_moons.explain import play_steps

    return play_steps(after.new_events)


def read_plays(answer: Any) -> tuple[Any, ...]:
    """Plays from ``"+7H -10S JK +AS=14"`` or a list of such texts or engine Plays."""
    items = split_cards(answer) if isinstance(answer, str) else list(answer)
    plays = []
    for item in items:
        if isinstance(item, Play):
            plays.append(item)
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


# --- the evidence of an attempt (mathcards.exercises.evidence) -------------------------
def suns_skill(start: int, steps: Sequence[int], *, joker_took_negative: bool = False) -> str:
    """The skill of a chain: the deck ``start`` changed by ``steps`` in turn.

    >>> suns_skill(7, [-10]), suns_skill(3, [4]), suns_skill(11, [-4, -2]), suns_skill(1, [4],
    ...                                                                   joker_took_negative=True)
    ('cross_zero', 'add_positive', 'subtract_positive', 'subtract_negative')
    """
    value, crossed = start, False
    for step in steps:
        after = value + step
        crossed = crossed or (value > 0 > after) or (value < 0 < after)
        value = after
    if crossed:
        return "cross_zero"
    if joker_took_negative:
        return "subtract_negative"
    return "subtract_positive" if any(s < 0 for s in steps) else "add_positive"


def _counted_plays(deck: Sequence[Any]) -> list[Any]:
    """The plays of a deck still counted after its Jokers (ruling 4), centre card first."""
    from mathcards.games.suns_to_moons.rules import after_joker

    counted: tuple[Any, ...] = ()
    for play in deck:
        counted = after_joker(counted) if play.card.is_joker else (*counted, play)
    return list(counted)


def _deck_value_question(kind: Kind, position: Position) -> Question:
    counted = tuple(kind.counted(position))  # type: ignore[attr-defined]
    plays = _counted_plays(position["deck"])
    cards = tuple(str(p.card) for p in plays) if len(plays) == len(counted) else ()
    joker_took_negative = False
    seen: list[Any] = []
    for play in position["deck"]:
        if play.card.is_joker:
            joker_took_negative = joker_took_negative or bool(seen and seen[-1].contribution < 0)
            seen = seen[:-1]
        else:
            seen.append(play)
    skill = suns_skill(counted[0] if counted else 0, counted[1:],
                       joker_took_negative=joker_took_negative)
    return Question(kind.game, skill, kind.prompt(position), counted, sum(counted),
                    cards=cards)


def _reach_goal_question(kind: Kind, position: Position, plays: Sequence[Any]) -> Question:
    """What the student's plays make, asked as a sum: the deck, then each play's change.
    The student meant them to make the goal, so the goal is read as their answer."""
    state = position_state(position)
    start = value = state.deck_value
    steps: list[int] = []
    cards: list[str] = [""]
    joker_took_negative = False
    for play in plays:
        if play not in _sm_moves(state):
            break  # refused by the rules: what came before is what was worked
        state = _sm_apply(state, play)
        step = state.deck_value - value
        joker_took_negative = joker_took_negative or (play.card.is_joker and step > 0)
        steps.append(step)
        cards.append(str(play.card))
        value = state.deck_value
    if not steps:
        skill = "bound"  # no play the rules allow: the ±10 bound, most often
    else:
        skill = suns_skill(start, steps, joker_took_negative=joker_took_negative)
    return Question(kind.game, skill, kind.prompt(position), (start, *steps), value,
                    cards=tuple(cards))


class ReachGoal(Kind):
    """Suns to Moons: play cards from the hand until the deck equals the goal."""

    name = "reach_goal"
    game = "suns_to_moons"
    title = N_("Reach the goal")
    question = N_("Make the deck equal the goal.")
    answer_style = "plays"
    measure_names = ("solutions", "plays needed", "deck value", "cards")
    work_advice = ("lower most_plays, give fewer cards in the hand, or loosen 'require' "
                   "(exactly one solution is costly to prove)")
    fields = (
        FieldSpec("deck", _deck_field, required=False,
                  help=N_("the deck so far, centre card first: 7H -10S +6D JK")),
        FieldSpec("counted", _counted_field, required=False,
                  help=N_("or the signed values still counted: [7, -10, 6]")),
        FieldSpec("hand", _cards_field(1, 10), help=N_("the cards you may play")),
        FieldSpec("goal", _int_field(-10, 10, N_("the goal")), required=False, default=0),
        FieldSpec("most_plays", _int_field(1, 6, N_("most plays")), required=False, default=1,
                  help=N_("how many cards the student may play at most")),
    )

    def prompt(self, position: Position) -> str:
        n = position["most_plays"]
        deck, goal = number(position_state(position).deck_value), number(position["goal"])
        return (_("The deck is {deck}. Play one card from your hand to make it {goal}.")
                if n == 1 else
                _("The deck is {deck}. Play at most {n} cards from your hand to make it "
                  "{goal}.")).format(deck=deck, goal=goal, n=n)

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
            search(position_state(position), (), budget)
        return found

    @staticmethod
    def _solution_key(plays: Sequence[Any]) -> tuple[tuple[bool, int], ...]:
        # a Joker sorts apart from the numbers (a str beside ints cannot be sorted)
        return tuple(sorted((p.card.is_joker, p.contribution) for p in plays))

    def measures(self, position: Position) -> dict[str, int]:
        sols = self.solutions(position)
        start = position_state(position)
        return {
            "solutions": len({self._solution_key(s) for s in sols}),
            "plays needed": min((len(s) for s in sols), default=0),
            "deck value": start.deck_value,
            "cards": start.deck_size,
        }

    def problems(self, position: Position) -> list[str]:
        if position.get("deck") is None and position.get("counted") is None:
            return ["give the deck (7H -10S +6D) or the counted values ([7, -10, 6])"]
        if position.get("deck") is not None and position.get("counted") is not None:
            return ["give the deck or the counted values, not both"]
        bound = bound_problems(position)
        if bound:
            return bound
        start = position_state(position)
        if start.deck_value == position["goal"] and start.deck_size >= MIN_DECK_FOR_GOAL:
            return [f"the deck is already on the goal {number(position['goal'])}"]
        if not self.solutions(position, limit=1):
            n = position["most_plays"]
            within = "" if n == 1 else f" within {n} plays"
            return [f"no play reaches the goal {number(position['goal'])} from this hand{within}"]
        return []

    def read_answer(self, position: Position, answer: Any) -> tuple[Any, ...]:
        plays = read_plays(answer)
        if not plays:
            raise AnswerError(_("play at least one card"))
        return plays

    def answer_text(self, answer: Any) -> str:
        return " ".join(move_text(p) for p in answer)

    def worked_sum(self, position: Position, answer: Any) -> tuple[Question, Any] | None:
        """The sum the plays make, read against the goal the student meant them to make."""
        return _reach_goal_question(self, position, answer), position["goal"]

    def check(self, position: Position, answer: Any) -> Result:
        plays = self.read_answer(position, answer)
        goal, most = position["goal"], position["most_plays"]
        state = position_state(position)
        steps: list[Any] = []
        for i, play in enumerate(plays):
            if i >= most:
                return Result(False, 0.0, ngettext(
                    "Not quite: you may play at most {n} card.",
                    "Not quite: you may play at most {n} cards.", most).format(n=most),
                    tuple(steps))
            if play not in _sm_moves(state):
                from mathcards.explain import why_not

                # the engine's reason, asked where the exercise would play it: a new turn
                # when the Joker may end this one (``_sm_moves``)
                steps.append(why_not(state.apply(END_TURN) if state.is_legal(END_TURN)
                                     else state, play))
                return Result(False, 0.0, _("Not allowed: {play} breaks a rule.").format(
                    play=play), tuple(steps))
            state = _sm_apply(state, play)
            steps.extend(_sm_steps(state))
            if _sm_won(state):
                extra = len(plays) - i - 1
                if extra:
                    steps.append(fact(ngettext(
                        "the goal was reached after {n} play; the round ends there",
                        "the goal was reached after {n} plays; the round ends there",
                        i + 1).format(n=i + 1)))
                return Result(True, 1.0, _("Right: the deck is {goal}, the goal.").format(
                    goal=number(goal)), tuple(steps))
        value = state.deck_value
        if value == goal:
            head = _("Not quite: the deck is {goal}, but it needs {n} or more cards to "
                     "count.").format(goal=number(goal), n=MIN_DECK_FOR_GOAL)
        else:
            head = _("Not quite: the deck is {value}, not the goal {goal}.").format(
                value=number(value), goal=number(goal))
        return Result(False, 0.0, head, tuple(steps))

    def _best(self, position: Position) -> tuple[Any, ...]:
        sols = self.solutions(position)
        return min(sols, key=len) if sols else ()

    def hint(self, position: Position, level: int) -> Hint:
        best = self._best(position)
        goal = number(position["goal"])
        if level <= 1:
            n = len(best)
            return make_hint(1, ngettext(
                "there is a way to reach {goal} with {n} card: compare the goal with the "
                "deck now", "there is a way to reach {goal} with {n} cards: compare the goal "
                "with the deck now", n).format(goal=goal, n=n))
        first = best[0]
        start = (_("start with the Joker") if first.card.is_joker else
                 _("start with {card} as {value}").format(card=first.card.symbol,
                                                          value=signed(first.contribution)))
        if level == 2:
            return make_hint(2, start)
        state = position_state(position)
        return make_hint(3, start, _sm_steps(_sm_apply(state, first)))

    def solution(self, position: Position) -> Result:
        from mathcards.explain import chain_steps

        best = self._best(position)
        state = position_state(position)
        steps: list[Any] = []
        for play in best:
            state = _sm_apply(state, play)
            steps.extend(_sm_steps(state))
        steps.append(chain_steps(state.counted, goal=position["goal"]))
        words = _(", then ").join(
            _("the Joker") if p.card.is_joker else _("{card} as {value}").format(
                card=p.card.symbol, value=signed(p.contribution)) for p in best)
        return Result(True, 1.0, _("One way: {plays}.").format(plays=words), tuple(steps))


class DeckValue(Kind):
    """Suns to Moons: what is the deck worth now?"""

    name = "deck_value"
    game = "suns_to_moons"
    title = N_("What is the deck value now?")
    question = N_("What is the deck value now?")
    answer_style = "number"
    measure_names = ("deck value", "cards", "jokers")
    fields = (
        FieldSpec("deck", _deck_field, help=N_("the deck, centre card first: 7H -10S +6D JK")),
    )

    def counted(self, position: Position) -> list[int]:
        return list(position_state(position).counted)

    def problems(self, position: Position) -> list[str]:
        return bound_problems(position)

    def measures(self, position: Position) -> dict[str, int]:
        deck = position["deck"]
        return {"deck value": sum(self.counted(position)), "cards": len(deck),
                "jokers": sum(1 for p in deck if p.card.is_joker)}

    def read_answer(self, position: Position, answer: Any) -> int:
        if isinstance(answer, bool):
            raise AnswerError(_("answer with a whole number, like -3"))
        if isinstance(answer, int):
            return answer
        value = whole_number(answer)
        if value is not None:
            return value
        raise AnswerError(_("{text} is not a whole number: type one with the digits 0-9, "
                            "like -3 or 7").format(text=shown(answer)))

    def _chain(self, position: Position) -> Any:
        from mathcards.explain import chain_steps
        from mathcards.games.suns_to_moons.explain import played_words

        return chain_steps(self.counted(position), played=played_words(position["deck"]))

    def _question_terms(self, position: Position) -> str:
        from mathcards.explain.terms import Num, Sum, text_of

        counted = self.counted(position) or [0]
        return text_of(Sum(tuple(Num(t) for t in counted))) + " = ?"

    def worked_sum(self, position: Position, answer: Any) -> tuple[Question, Any] | None:
        """The deck's sum, read against the value the student gave."""
        return _deck_value_question(self, position), answer

    def check(self, position: Position, answer: Any) -> Result:
        said = self.read_answer(position, answer)
        value = sum(self.counted(position))
        if said == value:
            return Result(True, 1.0, _("Right: the deck is {value}.").format(
                value=number(value)), (self._chain(position),))
        steps = [fact(_("{said} is not the deck value").format(said=number(said)))]
        deck = position["deck"]
        ignoring = sum(p.contribution for p in deck if not p.card.is_joker)
        if any(p.card.is_joker for p in deck) and said == ignoring:
            steps.append(fact(_("a Joker takes away the card counted just before it: leave "
                                "that card out")))
        if any(p.card.rank == 1 and not p.card.is_joker for p in deck):
            steps.append(fact(_("an Ace counts the value it was played as: =14 means 14, "
                                "otherwise 1")))
        steps.append(fact(_("add the counted cards in order: {terms}").format(
            terms=self._question_terms(position))))
        return Result(False, 0.0, _("Not quite: the deck is not {said}.").format(
            said=number(said)), tuple(steps))

    def hint(self, position: Position, level: int) -> Hint:
        if level <= 1:
            text = (_("add the cards in the order they were played; across adds, upright "
                      "subtracts; a Joker removes the card before it")
                    if any(p.card.is_joker for p in position["deck"]) else
                    _("add the cards in the order they were played; across adds, upright "
                      "subtracts"))
            return make_hint(1, text)
        if level == 2:
            return make_hint(2, _("the counted values: {terms}").format(
                terms=self._question_terms(position)))
        counted = self.counted(position)
        running = []
        total = 0
        for i, term in enumerate(counted[:-1]):
            total += term
            running.append(f"{number(total)}" if i == 0 else f"{signed(term)} → {number(total)}")
        last = signed(counted[-1]) if counted else "0"
        text = _("step by step: {steps}, then {last} → ?").format(
            steps=", ".join(running) or _("start at 0"), last=last)
        return make_hint(3, text)

    def solution(self, position: Position) -> Result:
        value = sum(self.counted(position))
        return Result(True, 1.0, _("The deck is {value}.").format(value=number(value)),
                      (self._chain(position),))


# this game's exercise kinds (mathcards.games.parts finds them by this name)
KINDS = (ReachGoal, DeckValue)
