"""Sums exercises: find a capture."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mathcards.cards import Card
from mathcards.exercises.fields import (
    FieldError,
    read_card,
    split_cards,
)
from mathcards.exercises.kinds.base import (
    AnswerError,
    FieldSpec,
    Kind,
    Position,
    Result,
    _card_field,
    _cards_field,
    fact,
    make_hint,
)
from mathcards.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from mathcards.explain.steps import Hint


class FindCapture(Kind):
    """Sums: which card of theirs can you capture, and with which card?"""

    name = "find_capture"
    game = "sums"
    wrong_slip = "wrong_capture"  # a capture claimed that is not one
    title = N_("Find the capture")
    question = N_("Find a capture.")
    answer_style = "capture"
    measure_names = ("solutions", "captures")
    fields = (
        FieldSpec("hand", _cards_field(1, 8), required=False,
                  help=N_("the cards you may play (or give one 'played' card)")),
        FieldSpec("played", _card_field, required=False, help=N_("the card you just played")),
        FieldSpec("own", _cards_field(1, 10), help=N_("your other face-up cards (the helpers)")),
        FieldSpec("opponent", _cards_field(1, 10), help=N_("their face-up cards")),
    )

    def playable(self, position: Position) -> tuple[Card, ...]:
        if position.get("played") is not None:
            return (position["played"],)
        return tuple(dict.fromkeys(position.get("hand") or ()))

    def prompt(self, position: Position) -> str:
        if position.get("played") is not None:
            return _("You play {card}. Which of their cards does it capture?").format(
                card=position["played"].symbol)
        return _("Which card from your hand captures one of theirs? Pick it, then their card.")

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
        return {"solutions": len(answers), "captures": len({t for _w, t in answers})}

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
        from mathcards.explain.steps import CaptureStep

        return CaptureStep(player=0, played=way.played, helper=way.helper, op=way.op,
                           target=way.target, target_owner=1, stage=stage, you=0)

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
            return Result(True, 1.0, _("Right: {card} captures {target}.").format(
                card=played.symbol, target=target.symbol), (self._step(way),))
        reason = su.why_no_capture(played, target, list(position["own"]))
        return Result(False, 0.0,
                      _("Not quite: {card} does not capture {target}.").format(
                          card=played.symbol, target=target.symbol),
                      (fact(reason),))

    def hint(self, position: Position, level: int) -> Hint:
        from mathcards.games import sums as su
        ways = self.ways(position)
        if level <= 1:
            return make_hint(1, _("a capture needs cards of one colour: played card plus or "
                                  "minus a helper of yours makes their card"))
        if not ways:
            return make_hint(level, _("no capture works here: no card you can play, with a "
                                      "helper of its colour, makes one of their cards (and "
                                      "an Ace falls only to a Queen, a King only to a 2)"))
        best = max(ways, key=lambda w: (su.card_points(w.target), w.target.rank))
        sentence = _("your {card} can capture").format(card=best.played.symbol)
        if position.get("played") is not None:
            sentence = _("try your helper {helper} with {card}").format(
                helper=best.helper.symbol, card=best.played.symbol)
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
        return Result(True, 1.0, ngettext("{n} capture works here:", "{n} captures work here:",
                                          n).format(n=n), tuple(steps))


# this game's exercise kinds (mathcards.games.parts finds them by this name)
KINDS = (FindCapture,)
