"""Short questions a student answers by clicking, judged by the exercise kinds.

Each check builds the position of an exercise kind (``mathcards.exercises``)
and asks the kind: ``check`` judges a click, ``hint`` and ``solution`` answer
the Hint and Show-the-answer buttons, and the kind's ``Result`` is what the
feedback line shows. Nothing here knows a rule. The right answer is worked out
when the student answers; it never sits in a widget field, because a Voilà
visitor can read every synced field. Clicks arrive as button events (no value
from the page is trusted); the one kind of value the page sends, a dropdown's
index, is checked against the choices before use, and no text from the page
is ever evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from mathcards.cards import Card, cards_shown
from mathcards.exercises import Exercise, Result, Variant
from mathcards.exercises.kinds import fact
from mathcards.i18n import _, ngettext
from mathcards.widgets.cards import esc
from mathcards.widgets.exercises import EXTRA_CSS, hint_html, refusal_html
from mathcards.widgets.lesson import card_row, dice_svg

__all__ = ["Check", "PrizeCheck", "capture_check", "deck_value_check", "judged",
           "may_play_check", "moon_check", "planet_check", "stack_choice_check",
           "trick_winner_check"]


def judged(right: bool, why: str) -> Result:
    """A lesson's own question judged by an engine function: its verdict as a ``Result``."""
    return Result(right, 1.0 if right else 0.0, _("Right.") if right else _("Not quite."),
                  (fact(why),))


def _position(kind: str, **fields: Any) -> Variant:
    """The kind's position from the lesson's fields; a bad one fails when the lesson is written."""
    exercise = Exercise(kind, **fields)
    problems = exercise.problems()
    if problems:
        raise ValueError(problems[0].message)
    return exercise.variant()


class _Feedback:
    """The attempts, the feedback line, and the Hint and Show-the-answer buttons of a check."""

    def __init__(self, hint: Callable[[int], Any] | None, solution: Callable[[], Result] | None,
                 *, hint_levels: int = 3) -> None:
        self.attempts: list[Result] = []
        self._hint, self._solution = hint, solution
        self._hint_levels = hint_levels
        self.hints_shown = 0
        self.feedback = w.HTMLMath(value="")
        self.feedback.add_class("mc-check-feedback")
        self.hint_box = w.HTMLMath(value="")
        self.hint_button = w.Button(description=_("Hint"), tooltip=_("a hint: nudge, card, step"))
        self.hint_button.on_click(lambda _b: self.show_hint())
        self.solution_button = w.Button(description=_("Show the answer"), disabled=True,
                                        tooltip=_("opens after your first answer"))
        self.solution_button.on_click(lambda _b: self.show_solution())
        self.help_row = w.HBox([b for b, f in ((self.hint_button, hint),
                                               (self.solution_button, solution)) if f])

    def show(self, result: Result) -> Result:
        self.attempts.append(result)
        self.feedback.value = result.html
        self.solution_button.disabled = False
        return result

    def refuse(self, text: str) -> None:
        """An answer that cannot be judged yet: one line, no attempt recorded."""
        self.feedback.value = refusal_html(text)

    def show_hint(self) -> Any:
        if self._hint is None:
            return None
        self.hints_shown = min(self.hints_shown + 1, self._hint_levels)
        hint = self._hint(self.hints_shown)
        self.hint_box.value = hint_html(hint, self._hint_levels)
        return hint

    def show_solution(self) -> Result | None:
        if self._solution is None or self.solution_button.disabled:
            return None
        result = self._solution()
        said = esc(_("The answer: {answer}")).format(answer=result.html)
        self.hint_box.value = f'<div class="mc-hint-box">{said}</div>'
        return result

    def box(self, question: str, picture: str, answer_row: Sequence[w.Widget]) -> w.VBox:
        parts: list[w.Widget] = [w.HTML(value=f"{EXTRA_CSS}<b>{esc(question)}</b>")]
        if picture:
            parts.append(w.HTML(value=picture))
        parts += [*answer_row, self.feedback, self.help_row, self.hint_box]
        box = w.VBox(parts)
        box.add_class("mathcards")
        box.add_class("mc-check")
        return box


class Check(_Feedback):
    """A question with one button per answer; ``answer(i)`` is what a click does."""

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        judge: Callable[[int], Result],
        *,
        picture: str = "",
        hint: Callable[[int], Any] | None = None,
        solution: Callable[[], Result] | None = None,
        hint_levels: int = 3,
    ) -> None:
        if not options:
            raise ValueError("a check needs at least one answer to choose from")
        super().__init__(hint, solution, hint_levels=hint_levels)
        self._judge = judge
        self.options = tuple(options)
        self.buttons = [
            w.Button(description=label, tooltip=label, layout=w.Layout(width="auto"))
            for label in self.options
        ]
        for index, button in enumerate(self.buttons):
            button.add_class("mc-check-option")
            button.on_click(lambda _button, index=index: self.answer(index))
        self.widget = self.box(question, picture,
                               [w.HBox(self.buttons, layout=w.Layout(flex_flow="row wrap"))])

    @classmethod
    def of(cls, variant: Variant, *, question: str = "", picture: str = "",
           options: Sequence[str] = (), answers: Sequence[Any] = ()) -> Check:
        """A check of one exercise position: each button answers the kind's ``check``."""
        position = variant.position
        labels = list(options) or variant.kind.choices(position)
        said = list(answers) or variant.kind.choice_answers(position)
        return cls(question or variant.prompt(), labels, lambda i: variant.check(said[i]),
                   picture=picture, hint=variant.hint, solution=variant.solution)

    def answer(self, index: int) -> Result:
        """Judge answer ``index`` (0 = first button) and show the feedback."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"answer takes the number of a choice, not {index!r}")
        if not 0 <= index < len(self.options):
            raise ValueError(f"there are {len(self.options)} choices, so no choice {index + 1}")
        result = self.show(self._judge(index))
        for i, button in enumerate(self.buttons):
            button.button_style = ("success" if result.correct else "danger") if i == index else ""
        return result

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --- Shoot the Moon ---------------------------------------------------------------
def trick_winner_check(cards: str | Sequence[str | Card], question: str = "") -> Check:
    """"Who takes this trick?": one button per card (the kind ``who_takes_trick``)."""
    variant = _position("who_takes_trick", trick=cards)
    return Check.of(variant, question=question, picture=card_row(variant.position["trick"]))


def may_play_check(hand: str | Sequence[str | Card], led: str | Card | None,
                   card: str | Card) -> Check:
    """"May you play ▲5 here?": Yes or No (the kind ``is_play_legal``)."""
    variant = _position("is_play_legal", hand=hand, led=led, card=card)
    held, lead = variant.position["hand"], variant.position["led"]
    picture = ((esc(_("Led:")) + " " + card_row(lead) if lead is not None else "")
               + esc(_("Your hand:")) + " " + card_row(held))
    question = _("Your hand: {cards}. {question}").format(cards=cards_shown(held),
                                                          question=variant.prompt())
    return Check.of(variant, question=question, picture=picture)


# --- Moons and Planets ------------------------------------------------------------
def planet_check(cards: str | Sequence[str | Card]) -> Check:
    """"Is 9♥ 8♥ a planet?": Yes or No (the kind ``planet_or_not``)."""
    variant = _position("planet_or_not", cards=cards)
    return Check.of(variant, picture=card_row(variant.position["cards"]))


def moon_check(cards: str | Sequence[str | Card]) -> Check:
    """"Is 5♠ 6♠ 7♣ a moon?": Yes or No (the kind ``moon_or_not``)."""
    variant = _position("moon_or_not", cards=cards)
    return Check.of(variant, picture=card_row(variant.position["cards"]))


class PrizeCheck(_Feedback):
    """"Which prize does each card take?": a choice per card, then Check.

    Each card's place is judged by the kind ``which_prize`` for that card; the
    feedback is every card's ``Result``.
    """

    def __init__(self, cards: str | Sequence[str | Card]) -> None:
        first = _position("which_prize", trick=cards)
        self.trick: tuple[Card, ...] = tuple(first.position["trick"])
        self.cards = [_position("which_prize", trick=cards, yours=card) for card in self.trick]
        super().__init__(first.hint, self._solution_of_all, hint_levels=2)
        labels = first.kind.choices(first.position)
        self.choices = [
            w.Dropdown(
                options=[(_("choose…"), 0), *((label, k) for k, label in enumerate(labels, 1))],
                value=0,
                description=_("led {card}").format(card=card.symbol) if i == 0 else card.symbol,
                layout=w.Layout(width="auto"),
            )
            for i, card in enumerate(self.trick)
        ]
        self.check_button = w.Button(description=_("Check"))
        self.check_button.add_class("mc-check-option")
        self.check_button.on_click(lambda _b: self.answer(self.chosen_places()))
        shown = " ".join(c.symbol for c in self.trick)
        self.widget = self.box(
            _("{cards} were played in this order (the first card led). Which prize does each "
              "card take?").format(cards=shown),
            card_row(self.trick),
            [w.HBox(self.choices, layout=w.Layout(flex_flow="row wrap")), self.check_button])

    def chosen_places(self) -> list[int]:
        """The place picked for each card (0 = not chosen), validated."""
        places = []
        for choice in self.choices:
            index = choice.index
            if isinstance(index, bool) or not isinstance(index, int):
                index = 0
            if not 0 <= index <= len(self.trick):
                index = 0
            places.append(index)  # option k is "prize k"; option 0 is "choose…"
        return places

    @staticmethod
    def _together(results: Sequence[Result], headline: str) -> Result:
        steps = tuple(step for r in results for step in (fact(r.headline), *r.steps))
        return Result(all(r.correct for r in results),
                      sum(r.score for r in results) / len(results), headline, steps)

    def answer(self, places: Sequence[int]) -> Result | None:
        if len(places) != len(self.trick):
            raise ValueError(f"give one prize number for each of the {len(self.trick)} cards")
        if any(p == 0 for p in places):
            self.refuse(_("Choose a prize for every card first."))
            return None
        results = [variant.check(place) for variant, place in zip(self.cards, places,
                                                                   strict=True)]
        right = sum(r.correct for r in results)
        headline = (_("Right: every card takes the prize you chose.") if right == len(results)
                    else ngettext("Not quite: {right} of {n} card takes the prize you chose.",
                                  "Not quite: {right} of {n} cards take the prize you chose.",
                                  len(results)).format(right=right, n=len(results)))
        return self.show(self._together(results, headline))

    def _solution_of_all(self) -> Result:
        return self._together([v.solution() for v in self.cards], _("The prizes:"))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --- the arithmetic games -----------------------------------------------------------
def deck_value_check(deck: str, play: str, options: Sequence[int]) -> Check:
    """Suns to Moons: "what is the deck value now?" (the kind ``deck_value``).

    ``deck`` is the deck so far, centre card first (``"7H -10S"``); the student
    plays ``play`` (``"+6H"`` across, ``"-QS"`` upright, ``"JK"``). Each button
    answers a number of ``options``.
    """
    from mathcards.games import suns_to_moons as stm

    before = _position("deck_value", deck=deck)
    variant = _position("deck_value", deck=f"{deck} {play}")
    played = variant.position["deck"][-1]
    value = before.kind.measures(before.position)["deck value"]
    if played.card.is_joker:
        move, turned = _("the Joker"), (False,)
    else:
        across = stm.lies_across(played.sign)
        move = (_("{card} across (adds)") if across else _("{card} upright (subtracts)")).format(
            card=played.card.symbol)
        turned = (across,)
    question = _("The deck is worth {value}. You play {move}. {question}").format(
        value=stm.number(value), move=move, question=variant.prompt())
    return Check.of(variant, question=question, options=[stm.number(n) for n in options],
                    answers=options, picture=card_row([played.card], turned=turned))


def stack_choice_check(dice: tuple[int, int], groups: Sequence[str]) -> Check:
    """Dice Stacks: "which of these make the dice total?" (the kind ``is_stack`` per group)."""
    stacks = [_position("is_stack", dice=dice, cards=group) for group in groups]
    target = sum(dice)
    labels = [" ".join(c.symbol for c in s.position["cards"]) for s in stacks]

    def judge(index: int) -> Result:
        result = stacks[index].check(True)  # "this one is a stack"
        verdict = (_("Right: {cards} is a stack of {n}.") if result.correct
                   else _("Not quite: {cards} is not a stack of {n}.")).format(
                       cards=labels[index], n=target)
        return Result(result.correct, result.score, verdict, result.steps)

    def solution() -> Result:
        results = [s.solution() for s in stacks]
        steps = tuple(step for r in results for step in r.steps)
        made = [label for label, s in zip(labels, stacks, strict=True) if s.check(True).correct]
        return Result(True, 1.0, _("Stacks of {n}: {cards}.").format(
            n=target, cards=", ".join(made) or _("none")), steps)

    return Check(
        _("You rolled {a} and {b}, so you are making {n}s. Which of these is a stack of "
          "{n}?").format(a=dice[0], b=dice[1], n=target),
        labels, judge, picture=dice_svg(dice[0]) + " " + dice_svg(dice[1]),
        hint=stacks[0].hint, solution=solution, hint_levels=1,
    )


def capture_check(played: str | Card, own: str, opponent: str) -> Check:
    """Sums: "which card can you capture?" (the kind ``find_capture``), or none of them."""
    exercise = Exercise("find_capture", played=played, own=own, opponent=opponent)
    variant = exercise.variant()
    card = variant.position["played"]
    theirs = variant.position["opponent"]
    answers: list[Any] = [(card, target) for target in theirs]

    def judge(index: int) -> Result:
        if index < len(theirs):
            return variant.check(answers[index])
        problems = exercise.problems()  # the kind says when no card captures here
        if problems:
            return Result(True, 1.0, _("Right: none of them can be captured."),
                          (fact(problems[0].message),))
        # a nudge only: the capture's sum waits for the last hint or "Show the answer"
        return Result(False, 0.0, _("Not quite: a capture works here."),
                      (fact(variant.hint(1).sentence),))

    picture = (esc(_("You play")) + " " + card_row([card]) + esc(_("Your side:")) + " "
               + card_row(variant.position["own"]) + esc(_("Opponent's side:")) + " "
               + card_row(theirs))
    hint = None if exercise.problems() else variant.hint  # no hint when nothing captures
    return Check(variant.prompt(), [c.symbol for c in theirs] + [_("none of them")], judge,
                 picture=picture, hint=hint, solution=variant.solution)
