"""Shoot the Moon exercises: who takes this trick, and may this card be played?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mathcards.cards import Card
from mathcards.errors import MathCardsError
from mathcards.exercises.fields import (
    FieldError,
    read_card,
)
from mathcards.exercises.kinds.base import (
    AnswerError,
    FieldSpec,
    Kind,
    Position,
    Result,
    YesNoKind,
    _card_field,
    _card_or_none_field,
    _cards_field,
    fact,
    make_hint,
)
from mathcards.i18n import N_, _

if TYPE_CHECKING:
    from mathcards.explain.steps import Hint


class WhoTakesTrick(Kind):
    """Shoot the Moon: which card wins this trick?"""

    name = "who_takes_trick"
    game = "shoot_the_moon"
    title = N_("Who takes this trick?")
    question = N_("Which card takes this trick? The first card was led.")
    answer_style = "choice"
    unique_cards = True
    measure_names = ("winner position",)
    fields = (FieldSpec("trick", _cards_field(2, 6),
                        help=N_("the cards in play order, led first")),)

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
        """One label per card: "led ▲12", "★5"; a card twice in the trick (two Big Moons)
        says which one it is, "Big Moon, 2nd played", so no two buttons read the same."""
        from mathcards.games.base import ordinal

        trick: tuple[Card, ...] = position["trick"]
        labels = []
        for i, c in enumerate(trick):
            label = _("led {card}").format(card=c.symbol) if i == 0 else c.symbol
            if trick.count(c) > 1:
                label = _("{card}, {nth} played").format(card=label, nth=ordinal(i + 1))
            labels.append(label)
        return labels

    def choice_answers(self, position: Position) -> list[Any]:
        # the card's place in the trick, not the card: a trick may hold two Big Moons
        return list(range(len(position["trick"])))

    def read_answer(self, position: Position, answer: Any) -> int:
        trick: tuple[Card, ...] = position["trick"]
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < len(trick):
                return answer
            raise AnswerError(_("choose one of the {count} cards (0 is the card led)").format(
                count=len(trick)))
        try:
            card = read_card(answer, "shoot_the_moon")
        except FieldError as exc:
            raise AnswerError(str(exc)) from None
        if card not in trick:
            raise AnswerError(f"{card.symbol} is not in this trick")
        return trick.index(card)

    def describe_answer(self, position: Position, answer: Any) -> str:
        return str(position["trick"][answer])

    def check(self, position: Position, answer: Any) -> Result:
        from mathcards.games import shoot_the_moon as stm
        index = self.read_answer(position, answer)
        trick = position["trick"]
        winner, rule, sentence = stm.explain_trick(trick)
        if index == winner:
            return Result(True, 1.0, _("Right: {card} takes it.").format(
                card=trick[index].symbol), (fact(sentence),))
        # the rule that decides this trick, in the engine's words (not which card it picks)
        return Result(False, 0.0, _("Not quite: {card} does not take this trick.").format(
            card=trick[index].symbol), (fact(_(stm.RULE_WORDS[rule])),))

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import shoot_the_moon as stm
        if level <= 1:
            return make_hint(1, _("check in order: a Big Moon? a Little Moon led? any red? "
                                  "else the led colour"))
        _winner, rule, sentence = stm.explain_trick(position["trick"])
        if level == 2:
            return make_hint(2, _(stm.RULE_WORDS[rule]))
        return make_hint(3, sentence)

    def solution(self, position: Position) -> Result:
        from mathcards.games import shoot_the_moon as stm
        trick = position["trick"]
        winner, _rule, sentence = stm.explain_trick(trick)
        return Result(True, 1.0, _("{card} takes the trick.").format(card=trick[winner].symbol),
                      (fact(sentence),))


class IsPlayLegal(YesNoKind):
    """Shoot the Moon: may this card be played to this trick?"""

    name = "is_play_legal"
    game = "shoot_the_moon"
    title = N_("Is this play legal?")
    question = N_("May you play this card?")
    unique_cards = True
    asked_card = "card"  # one of the hand's cards
    fields = (
        FieldSpec("hand", _cards_field(1, 5), help=N_("your hand")),
        FieldSpec("led", _card_or_none_field, required=False, default=None,
                  help=N_("the card led (none when you lead)")),
        FieldSpec("card", _card_field, help=N_("the card you want to play (from your hand)")),
    )

    def prompt(self, position: Position) -> str:
        led = position.get("led")
        card = position["card"].symbol
        return (_("{led} was led. May you play {card}?").format(led=led.symbol, card=card)
                if led is not None else _("You lead. May you play {card}?").format(card=card))

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
        card = position["card"].symbol
        return [fact(rule), fact(_("so you may play {card}").format(card=card)
                                 if self.truth(position) else
                                 _("so you may not play {card}").format(card=card))]

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import shoot_the_moon as stm
        led = position.get("led")
        if level <= 1:
            return make_hint(1, _("follow the led colour if you can; a Big or Little Moon "
                                  "may always be played"))
        if level == 2:
            if led is None:
                return make_hint(2, _("nobody has led yet"))
            return make_hint(2, _("the led card is {card}: do you hold its colour?").format(
                card=led.symbol))
        return make_hint(3, stm.follow_rule(list(position["hand"]), led))


# this game's exercise kinds (mathcards.games.parts finds them by this name)
KINDS = (WhoTakesTrick, IsPlayLegal)
