"""Short questions a student answers by clicking, checked by the game engines.

Each check shows a question, a few buttons (or one choice per card and a
Check button) and a feedback line. The right answer is worked out by the
engine when the student answers; it never sits in a widget field, because a
Voilà visitor can read every synced field. Clicks arrive as button events
(no value from the page is trusted); the one kind of value the page sends, a
dropdown's index, is checked against the choices before use, and no text
from the page is ever evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ipywidgets as w
from mathcards.widgets.lesson import _esc, card_row, cards_of

from mathcards.cards import Card

RIGHT_MARK = "✔ Right"
WRONG_MARK = "✘ Not quite"


@dataclass(frozen=True)
class Verdict:
    """The engine's judgement of one answer."""

    right: bool
    explanation: str

    @property
    def text(self) -> str:
        return f"{RIGHT_MARK if self.right else WRONG_MARK}: {self.explanation}"


class Check:
    """A question with one button per answer; ``answer(i)`` is what a click does."""

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        judge: Callable[[int], Verdict],
        *,
        picture: str = "",
    ) -> None:
        if not options:
            raise ValueError("a check needs at least one answer to choose from")
        self._judge = judge
        self.options = tuple(options)
        self.attempts: list[Verdict] = []
        self.buttons = [
            w.Button(description=label, tooltip=label, layout=w.Layout(width="auto"))
            for label in self.options
        ]
        for index, button in enumerate(self.buttons):
            button.add_class("mc-check-option")
            button.on_click(lambda _button, index=index: self.answer(index))
        self.feedback = w.HTML(value="")
        self.feedback.add_class("mc-check-feedback")
        parts: list[w.Widget] = [w.HTML(value=f"<b>{_esc(question)}</b>")]
        if picture:
            parts.append(w.HTML(value=picture))
        parts += [w.HBox(self.buttons, layout=w.Layout(flex_flow="row wrap")), self.feedback]
        self.widget = w.VBox(parts)
        self.widget.add_class("mc-check")

    def answer(self, index: int) -> Verdict:
        """Judge answer ``index`` (0 = first button) and show the feedback."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"answer takes the number of a choice, not {index!r}")
        if not 0 <= index < len(self.options):
            raise ValueError(f"there are {len(self.options)} choices, so no choice {index + 1}")
        verdict = self._judge(index)
        self.attempts.append(verdict)
        colour = "#1b5e20" if verdict.right else "#b71c1c"
        self.feedback.value = (
            f'<div role="status" aria-live="polite" style="color:{colour};font-weight:600">'
            f"{_esc(verdict.text)}</div>"
        )
        for i, button in enumerate(self.buttons):
            button.button_style = ("success" if verdict.right else "danger") if i == index else ""
        return verdict

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def yes_no(question: str, truth: Callable[[], bool], why: Callable[[], str], **kw) -> Check:
    """A Yes/No check; ``truth`` and ``why`` ask the engine only when answered."""

    def judge(index: int) -> Verdict:
        said_yes = index == 0
        return Verdict(said_yes == truth(), why())

    return Check(question, ("Yes", "No"), judge, **kw)


# --- Shoot the Moon ---------------------------------------------------------------
def _moon_label(card: Card) -> str:
    return card.name if card.is_big_moon or card.is_little_moon else f"{card} ({card.name})"


def trick_winner_check(cards: str | Sequence[str | Card], question: str = "") -> Check:
    """"Who takes this trick?": one button per card, judged by ``trick_winner``."""
    from mathcards.games import shoot_the_moon as stm

    trick = cards_of(cards)
    stm.explain_trick(trick)  # a bad trick fails here, when the lesson is written
    labels = [
        f"{'led ' if i == 0 else ''}{_moon_label(card)}" for i, card in enumerate(trick)
    ]

    def judge(index: int) -> Verdict:
        winner, _rule, reason = stm.explain_trick(trick)
        if index == winner:
            return Verdict(True, f"{trick[winner]} takes it: {reason}.")
        return Verdict(False, f"{trick[index]} does not take it: {reason}.")

    return Check(
        question or "Who takes this trick? (the first card was led)",
        labels,
        judge,
        picture=card_row(trick),
    )


def may_play_check(hand: str | Sequence[str | Card], led: str | Card | None, card: str | Card):
    """"May you play R5 here?": judged by ``legal_cards``; the reason by ``follow_rule``."""
    from mathcards.games import shoot_the_moon as stm

    held = cards_of(hand)
    lead = None if led is None else cards_of(led)[0]
    play = cards_of(card)[0]
    if play not in held:
        raise ValueError(f"{play} is not in the hand {' '.join(map(str, held))}")
    led_text = "you lead" if lead is None else f"{lead} ({lead.name}) was led"
    question = f"Your hand: {' '.join(map(str, held))}. {led_text}. May you play {play}?"

    def truth() -> bool:
        return play in stm.legal_cards(held, lead)

    def why() -> str:
        allowed = "you may play it" if truth() else "you may not play it"
        return f"{allowed}: {stm.follow_rule(held, lead)}."

    picture = ("Led: " + card_row(lead) if lead is not None else "") + "Your hand: " + card_row(
        held
    )
    return yes_no(question, truth, why, picture=picture)


# --- Moons and Planets ------------------------------------------------------------
def planet_check(cards: str | Sequence[str | Card]) -> Check:
    """"Is 9♥ 8♥ a planet?": judged by ``is_planet``, explained by ``planet_reason``."""
    from mathcards.games import moons_and_planets as mp

    group = cards_of(cards)
    shown = " ".join(c.symbol for c in group)
    return yes_no(
        f"Is {shown} a planet?",
        lambda: mp.is_planet(group),
        lambda: mp.planet_reason(group) + ".",
        picture=card_row(group),
    )


def moon_check(cards: str | Sequence[str | Card]) -> Check:
    """"Is 5♠ 6♠ 7♣ a moon?": judged by ``is_moon``, explained by ``moon_reason``."""
    from mathcards.games import moons_and_planets as mp

    group = cards_of(cards)
    shown = " ".join(c.symbol for c in group)
    return yes_no(
        f"Is {shown} one moon?",
        lambda: mp.is_moon(group),
        lambda: mp.moon_reason(group) + ".",
        picture=card_row(group),
    )


class PrizeCheck:
    """"Which prize does each card take?": a choice per card, then Check.

    Judged by ``prize_order``; the feedback is the engine's ranking reasons.
    """

    def __init__(self, cards: str | Sequence[str | Card]) -> None:
        from mathcards.games import moons_and_planets as mp

        self.trick = cards_of(cards)
        mp.prize_order(self.trick)  # a bad trick fails when the lesson is written
        places = [(f"prize {k}", k) for k in range(1, len(self.trick) + 1)]
        self.choices = [
            w.Dropdown(
                options=[("choose…", 0), *places],
                value=0,
                description=f"{'led ' if i == 0 else ''}{card.symbol}",
                layout=w.Layout(width="auto"),
            )
            for i, card in enumerate(self.trick)
        ]
        self.check_button = w.Button(description="Check")
        self.check_button.add_class("mc-check-option")
        self.check_button.on_click(lambda _b: self.answer(self.chosen_places()))
        self.feedback = w.HTML(value="")
        self.feedback.add_class("mc-check-feedback")
        self.attempts: list[Verdict] = []
        shown = " ".join(c.symbol for c in self.trick)
        self.widget = w.VBox(
            [
                w.HTML(
                    value=f"<b>{_esc(shown)} were played in this order (the first card led). "
                    "Which prize does each card take?</b>"
                ),
                w.HTML(value=card_row(self.trick)),
                w.HBox(self.choices, layout=w.Layout(flex_flow="row wrap")),
                self.check_button,
                self.feedback,
            ]
        )
        self.widget.add_class("mc-check")

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

    def answer(self, places: Sequence[int]) -> Verdict:
        from mathcards.games import moons_and_planets as mp

        if len(places) != len(self.trick):
            raise ValueError(f"give one prize number for each of the {len(self.trick)} cards")
        if any(p == 0 for p in places):
            verdict = Verdict(False, "choose a prize for every card first.")
        else:
            order = mp.prize_order(self.trick)
            players = tuple(range(len(self.trick)))
            _order, reasons = mp.rank_trick(self.trick, players, self.trick)
            right_places = [order.index(i) + 1 for i in range(len(self.trick))]
            why = "; ".join(r.reason.split("; ")[0] + f" → prize {r.place}" for r in reasons)
            verdict = Verdict(list(places) == right_places, why + ".")
        self.attempts.append(verdict)
        colour = "#1b5e20" if verdict.right else "#b71c1c"
        self.feedback.value = (
            f'<div role="status" aria-live="polite" style="color:{colour};font-weight:600">'
            f"{_esc(verdict.text)}</div>"
        )
        return verdict

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
