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

from mathcards.cards import Card
from mathcards.widgets.lesson import _esc, card_row, cards_of

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


# --- the arithmetic games -----------------------------------------------------------
def deck_value_check(counted: Sequence[int], card: str | Card, sign: int,
                     options: Sequence[int], *, ace_value: int | None = None) -> Check:
    """Suns to Moons: "what is the deck value now?", judged by the engine's ``legal_turns``.

    ``counted`` are the signed values still counted on the deck (centre card
    first); the student plays ``card`` with ``sign`` (+1 across, −1 upright).
    """
    from mathcards.games import suns_to_moons as stm

    played = cards_of(card)[0]
    value = ace_value if ace_value is not None else stm.card_values(played)[0]
    play = stm.Play(played, sign, value)
    counted = tuple(counted)
    deck = sum(counted)
    way = "across (adds)" if stm.lies_across(sign) else "upright (subtracts)"
    question = (
        f"The deck is worth {stm.number(deck)}. You play {played.symbol} {way}. "
        "What is the deck value now?"
    )
    labels = [stm.number(n) for n in options]

    def judge(index: int) -> Verdict:
        # The engine's options for a hand of just this card: the turn made of this play
        # gives the value after (bound or not, a lone card's turns are all listed).
        turns = [t for t in stm.legal_turns([played], counted) if t.plays == (play,)]
        after = turns[0].value_after if turns else deck + play.contribution
        said = options[index]
        sum_text = f"{stm.number(deck)} {'+' if sign > 0 else '−'} {value} = {stm.number(after)}"
        if said == after:
            return Verdict(True, sum_text + ".")
        return Verdict(False, f"{sum_text}, not {stm.number(said)}.")

    return Check(question, labels, judge,
                 picture=card_row([played], turned=(stm.lies_across(sign),)))


def stack_choice_check(dice: tuple[int, int], groups: Sequence[str]) -> Check:
    """Dice Stacks: "which of these make the dice total?", judged by ``stack_steps``."""
    from mathcards.explain import NotAStackError, stack_steps

    target = sum(dice)
    options = [" ".join(c.symbol for c in cards_of(g)) for g in groups]

    def judge(index: int) -> Verdict:
        try:
            step = stack_steps(groups[index], dice)
        except NotAStackError as exc:
            return Verdict(False, str(exc) + ".")
        return Verdict(True, f"{step.text}: a stack of {target}.")

    picture = dice_pair(dice)
    return Check(
        f"You rolled {dice[0]} and {dice[1]}, so you are making {target}s. "
        f"Which of these is a stack of {target}?",
        options, judge, picture=picture,
    )


def dice_pair(dice: tuple[int, int]) -> str:
    from mathcards.widgets.lesson import dice_svg

    return dice_svg(dice[0]) + " " + dice_svg(dice[1])


def capture_check(played: str | Card, own: str, opponent: str) -> Check:
    """Sums: "which card can you capture?", judged by ``capture_targets``."""
    from mathcards.games import sums

    card = cards_of(played)[0]
    own_cards, their_cards = cards_of(own), cards_of(opponent)
    labels = [c.symbol for c in their_cards] + ["none of them"]

    def judge(index: int) -> Verdict:
        targets = sums.capture_targets(card, own_cards, their_cards)
        ways = sums.capture_ways(card, own_cards, their_cards)
        if index == len(their_cards):
            if not targets:
                return Verdict(True, "no sum or difference of two of your cards of one "
                               "colour makes an opponent's card.")
            return Verdict(False, f"{ways[0].equation}, so {ways[0].target.symbol} can be "
                           "captured.")
        target = their_cards[index]
        if target in targets:
            way = next(w for w in ways if w.target == target)
            return Verdict(True, f"{way.equation}: {card.symbol} with your "
                           f"{way.helper.symbol} captures {target.symbol}.")
        return Verdict(False, sums.why_no_capture(card, target, own_cards) + ".")

    picture = ("You play " + card_row([card]) + "Your side: " + card_row(own_cards)
               + "Opponent's side: " + card_row(their_cards))
    return Check(
        f"You play {card.symbol}. Which of your opponent's cards can you capture?",
        labels, judge, picture=picture,
    )
