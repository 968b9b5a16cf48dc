"""Moons and Planets exercises: planet or not, moon or not, which prize?"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mathcards.cards import Card
from mathcards.errors import MathCardsError
from mathcards.exercises.kinds.base import (
    AnswerError,
    FieldSpec,
    Kind,
    Position,
    Result,
    YesNoKind,
    _card_field,
    _cards_field,
    fact,
    make_hint,
)
from mathcards.games.base import ordinal
from mathcards.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from mathcards.explain.steps import Hint
    from mathcards.games.moons_and_planets import PrizeRanking


def _cards_in_suits(cards: int, suits: int) -> str:
    """How many cards in how many suits, in the page's language: "3 cards in 2 suits"."""
    return ngettext("{n} card in {suits}", "{n} cards in {suits}", cards).format(
        n=cards, suits=ngettext("{n} suit", "{n} suits", suits).format(n=suits))


class PlanetOrNot(YesNoKind):
    """Moons and Planets: are these cards a planet?"""

    name = "planet_or_not"
    game = "moons_and_planets"
    title = N_("Planet or not?")
    question = N_("Are these cards a planet?")
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
            return make_hint(1, _("a planet is 2 or more cards of one suit, no aces, adding "
                                  "to {low}-{high} (J, Q, K count 10); or the 5♣ alone").format(
                low=mp.PLANET_LOW, high=mp.PLANET_HIGH))
        total = sum(mp.planet_points(c) for c in cards)
        suits = _cards_in_suits(len(cards), len({c.suit for c in cards}))
        if level == 2:
            return make_hint(2, suits)
        return make_hint(3, _("{cards_in_suits}, adding to {total}").format(
            cards_in_suits=suits, total=total))


class MoonOrNot(YesNoKind):
    """Moons and Planets: are these cards one moon?"""

    name = "moon_or_not"
    game = "moons_and_planets"
    title = N_("Moon or not?")
    question = N_("Are these cards one moon?")
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
            return make_hint(1, _("a moon is a run of 3+ of one colour, 2-4 cards of one "
                                  "rank, or one ace"))
        n_colours, ranks = len({c.colour for c in cards}), len({c.rank for c in cards})
        colours = ngettext("{n} card, {colours}", "{n} cards, {colours}", len(cards)).format(
            n=len(cards), colours=ngettext("{n} colour", "{n} colours", n_colours).format(
                n=n_colours))
        if level == 2:
            return make_hint(2, colours)
        return make_hint(3, ngettext("{cards_colours}, {n} different rank",
                                     "{cards_colours}, {n} different ranks", ranks).format(
            cards_colours=colours, n=ranks))


class WhichPrize(Kind):
    """Moons and Planets: which prize does this card take?"""

    name = "which_prize"
    game = "moons_and_planets"
    title = N_("Which prize?")
    question = N_("Which prize does your card take?")
    answer_style = "choice"
    unique_cards = True
    asked_card = "yours"  # one of the trick's cards
    measure_names = ("place", "followers")
    fields = (
        FieldSpec("trick", _cards_field(2, 5), help="the cards in play order, led first"),
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
        return _("{led} was led. Which prize does {card} take? (1st prize goes to the "
                 "highest card)").format(led=trick[0].symbol, card=card.symbol)

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

    def measures(self, position: Position) -> dict[str, int]:
        trick = position["trick"]
        return {"place": self._ranking(position).place,
                "followers": sum(1 for c in trick if c.suit == trick[0].suit)}

    def choices(self, position: Position) -> list[str]:
        prizes = position.get("prizes")
        return [_("{nth} prize ({card})").format(nth=ordinal(k), card=prizes[k - 1].symbol)
                if prizes else _("{nth} prize").format(nth=ordinal(k))
                for k in range(1, len(position["trick"]) + 1)]

    def choice_answers(self, position: Position) -> list[Any]:
        return list(range(1, len(position["trick"]) + 1))  # the prize numbers, 1st = 1

    def read_answer(self, position: Position, answer: Any) -> int:
        n = len(position["trick"])
        if isinstance(answer, str):  # "3", "3rd" or "3rd prize", in the digits 0-9
            m = re.fullmatch(r"\s*([0-9]{1,2})\s*(?:st|nd|rd|th)?(?:\s+prize)?\s*", answer,
                             re.IGNORECASE)
            answer = int(m.group(1)) if m else None
        if isinstance(answer, bool) or not isinstance(answer, int) or not 1 <= answer <= n:
            raise AnswerError(_("answer with a prize number from 1 to {n}, in the digits "
                                "0-9").format(n=n))
        return answer

    def check(self, position: Position, answer: Any) -> Result:
        from mathcards.games.moons_and_planets import SUITS_HIGH_TO_LOW

        said = self.read_answer(position, answer)
        ranking = self._ranking(position)  # the engine's: whether it follows, its place
        card, place = ranking.card, ranking.place
        if said == place:
            return Result(True, 1.0, _("Right: {card} takes the {nth} prize.").format(
                card=card.symbol, nth=ordinal(place)), (fact(ranking.ranking),))
        why = (_("{card}: it follows the led suit: followers rank K high to 2 low, above "
                 "every discard") if ranking.follows else
               _("{card}: it is a discard: discards rank below every card that follows the "
                 "led suit, K high to 2 low, equal ranks by suit {order}")).format(
            card=card.symbol, order=SUITS_HIGH_TO_LOW)
        return Result(False, 0.0, _("Not quite: {card} does not take the {nth} prize.").format(
            card=card.symbol, nth=ordinal(said)), (fact(why),))

    def hint(self, position: Position, level: int) -> Hint:
        trick = position["trick"]
        if level <= 1:
            return make_hint(1, _("cards that follow the led suit rank above discards"))
        followers = sum(1 for c in trick if c.suit == trick[0].suit)
        if level == 2:
            return make_hint(2, ngettext("{n} card follows {card}'s suit",
                                         "{n} cards follow {card}'s suit", followers).format(
                n=followers, card=trick[0].symbol))
        return make_hint(3, self._ranking(position).ranking)

    def solution(self, position: Position) -> Result:
        ranking = self._ranking(position)  # the engine's, for your card
        return Result(True, 1.0, _("{card} takes the {nth} prize.").format(
            card=ranking.card.symbol, nth=ordinal(ranking.place)), (fact(ranking.ranking),))


# this game's exercise kinds (mathcards.games.parts finds them by this name)
KINDS = (PlanetOrNot, MoonOrNot, WhichPrize)
