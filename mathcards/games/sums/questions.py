"""The questions a Sums table asks: which capture a card makes, or that it makes none.

Having chosen a card to play, the student claims a capture before it is laid: the
opponent's card, the helper card on their side, + or −, and the number the sum or
difference makes (``"Q♦ = 7♣ + 5♥ = 12"``, ``"4♠ = 7♠ − 3♠ = 4"``), or says there is
none (``"none"``). The number is part of the claim: the right cards with a wrong number
are a wrong answer. At the table the claim is built with buttons (``answer_choices``,
``pick``: the opponents' cards of the played card's colour, the student's own face-up
cards, + and −, "No capture") and the number box (``compose``).
Countering, they claim how their card captures the threatening one. Following the
others, the same question about another player's play or counter.

The engine judges the claim: the expected capture is the one the engine makes when
the card is laid (its ``CaptureThreatened``, ``Captured`` or ``Countered`` event, or
the captures it offers to choose from), and every way the one capture rule finds
(``capture_ways``) is a right claim. The rules stay the rules: a capture the student
missed still happens when the move is laid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mathcards.asking import Question
from mathcards.asking.registry import AnswerError, read_number
from mathcards.cards import Card, parse_card
from mathcards.errors import CardParseError, MathCardsError
from mathcards.explain.steps import CaptureStep, Fact
from mathcards.games.base import seat_name
from mathcards.games.sums import (
    CHOOSE,
    Capture,
    Captured,
    CaptureThreatened,
    CaptureWay,
    Counter,
    Countered,
    Play,
    capture_ways,
    why_no_capture,
)
from mathcards.games.sums.explain import NO_CAPTURE_NOW
from mathcards.i18n import _

GAME = "sums"
NONE = "none"
NONE_WORDS = {"none", "no", "no capture", "nothing", "-", "—",
              "ninguna", "nada", "no captura nada"}  # the Spanish page says "ninguna"
_OPS = {"+": "+", "-": "−", "−": "−", "–": "−"}


@dataclass(frozen=True)
class SumsQuestion(Question):
    """A capture question: the card played, every right claim, the engine's capture."""

    played: Card | None = None
    ways: tuple[str, ...] = ()  # every right claim, canonical ("none" when there is none)
    way: CaptureWay | None = None  # the capture the engine makes (None: none)
    owner: int | None = None  # whose card the engine's capture takes
    counter: bool = False  # a counter (the target is the threatening card)


def claim_text(target: Card, first: Card, op: str, second: Card, played: Card | None,
               result: int) -> str:
    """The canonical words of a claim: ``"Q♦ = 7♣ + 5♥ = 12"`` (the played card first), a
    difference the larger card first (``"4♠ = 7♠ − 3♠ = 4"``); ``result`` is the number
    the student says the sum or difference makes."""
    sign = _OPS.get(op)
    if sign is None:
        raise MathCardsError(f"{op!r} is not + or −: a capture is a sum or a difference")
    if sign == "+" and second == played and first != played:
        first, second = second, first
    if sign == "−" and first.rank < second.rank:
        first, second = second, first
    shown = f"−{-result}" if result < 0 else str(result)
    return f"{target.symbol} = {first.symbol} {sign} {second.symbol} = {shown}"


def way_text(way: CaptureWay) -> str:
    """A way of the engine in the canonical words of a claim."""
    return claim_text(way.target, way.played, way.op, way.helper, way.played, way.result)


_CLAIM = re.compile(r"^\s*(\S+)\s*=\s*(\S+?)\s*([+\-−–])\s*(\S+?)\s*(?:=\s*(.*?))?\s*$")


def read_claim(text: object, played: Card | None = None) -> str:
    """A typed or clicked claim -> its canonical words, or ``"none"`` (raises
    ``AnswerError``, one line, on text that is not a claim with its number)."""
    if not isinstance(text, str) or not text.strip():
        raise AnswerError(_('claim a capture ("Q♦ = 7♣ + 5♥ = 12") or say "none"'))
    if len(text) > 40:
        raise AnswerError(_("that is too long to be a capture: write it like "
                            "Q♦ = 7♣ + 5♥ = 12"))
    if text.strip().lower() in NONE_WORDS:
        return NONE
    match = _CLAIM.match(text)
    if match is None:
        raise AnswerError(_("{text!r} is not a capture: write it like Q♦ = 7♣ + 5♥ = 12, "
                            "or say none").format(text=text.strip()[:20]))
    try:
        target, first, second = (parse_card(match.group(i)) for i in (1, 2, 4))
    except CardParseError as exc:
        raise AnswerError(_("{reason}: write a capture like Q♦ = 7♣ + 5♥ = 12").format(
            reason=exc)) from None
    if not match.group(5):
        raise AnswerError(_("say what the sum or difference makes too: Q♦ = 7♣ + 5♥ = 12"))
    try:
        result = read_number(match.group(5))
    except AnswerError:
        raise AnswerError(_("{text!r} is not a whole number: end the claim with what it "
                            "makes, e.g. = 12").format(text=match.group(5)[:12])) from None
    return claim_text(target, first, match.group(3), second, played, result)


def _prompt(seat: int, played: Card, follow: bool, counter: bool, attacked: Card | None
            ) -> str:
    if counter and attacked is None:
        if follow:
            return _("{who} counters with {card}: how does it capture the threatening card? "
                     "(the helper, + or −, and what they make)").format(
                who=seat_name((), seat), card=played.symbol)
        return _("You counter with {card}: how does it capture the threatening card? (the "
                 "helper, + or −, and what they make)").format(card=played.symbol)
    target = attacked.symbol if attacked is not None else ""
    if counter:
        if follow:
            return _("{who} counters with {card}: how does it capture {target}? (the helper, "
                     "+ or −, and what they make)").format(
                who=seat_name((), seat), card=played.symbol, target=target)
        return _("You counter with {card}: how does it capture {target}? (the helper, + or −, "
                 "and what they make)").format(card=played.symbol, target=target)
    if follow:
        return _("{who} played {card}: what does it capture, with which helper, and what do "
                 "they make? (or no capture)").format(who=seat_name((), seat),
                                                      card=played.symbol)
    return _("You play {card}: what does it capture, with which of your cards, and what do "
             "they make? (or no capture)").format(card=played.symbol)


def _question(state: Any, after: Any, seat: int, played: Card, *, follow: bool,
              counter: bool) -> Question:
    """The claim question about ``seat`` laying ``played`` (``state`` -> ``after``)."""
    way: CaptureWay | None = None
    owner: int | None = None
    for event in after.new_events:
        if isinstance(event, Countered | CaptureThreatened) and event.player == seat:
            way, owner = event.way, event.target_owner
            break
        if isinstance(event, Captured) and event.player == seat:
            way, owner = event.way, event.from_player
            break
    if way is None and getattr(after, "phase", None) == CHOOSE and after.pending:
        owner, way = after.pending[0]  # several captures: the engine offers the choice
    helpers = state.sides[seat]  # the player's other cards, before this one
    if counter:
        attacked = state.threat.played if state.threat is not None else None
        targets = (attacked,) if attacked is not None else ()
        all_ways = capture_ways(played, helpers, targets)
    else:
        attacked = None
        all_ways = [w for other, side in enumerate(state.sides) if other != seat
                    for w in capture_ways(played, helpers, side)]
    texts = tuple(dict.fromkeys(way_text(w) for w in all_ways)) or (NONE,)
    numbers: tuple[int, ...]
    if way is None:
        skill, expected, numbers = "capture_spot", NONE, (played.rank,)
    else:
        skill = "capture_sum" if way.op == "+" else "capture_difference"
        expected, numbers = way_text(way), (way.played.rank, way.helper.rank, way.target.rank)
    return SumsQuestion(game=GAME, skill=skill, kind="capture",
                        prompt=_prompt(seat, played, follow, counter, attacked),
                        numbers=numbers, expected=expected, seat=seat, follow=follow,
                        played=played, ways=texts, way=way, owner=owner, counter=counter)


def before_move(state: Any, action: Any, seat: int) -> Question | None:
    """Playing or countering with a card: which capture does it make? (asked before the
    card is laid; the engine's events of the move say what it captures)."""
    if not isinstance(action, Play | Counter) or not state.is_legal(action):
        return None
    after = state.apply(action)
    return _question(state, after, seat, action.card, follow=False,
                     counter=isinstance(action, Counter))


def after_move(before: Any, after: Any, seat: int, *, follow: bool) -> Question | None:
    """Following the others: another player's play or counter, what does it capture?
    (a player's own play was asked before it was laid; ``seat`` is the one asked)."""
    mover = before.current_player  # ``seat`` is the one asked, following the mover
    if not follow or mover is None:
        return None
    action = after.history.last
    if isinstance(action, Play | Counter):
        return _question(before, after, mover, action.card, follow=True,
                         counter=isinstance(action, Counter))
    return None


def after_answer(question: Question, given: int | str, state: Any) -> Any | None:
    """The move a right claim already chose: the claimed capture when the engine asks
    which card to capture (several can be), else None."""
    return capture_choice(question, given, state)


def read_answer(question: Question, text: str) -> str:
    """The student's claim in canonical words, or ``"none"``."""
    played = question.played if isinstance(question, SumsQuestion) else None
    return read_claim(text, played)


def check(question: Question, given: int | str) -> bool:
    """A right claim is any way the capture rule finds (or "none" when there is none)."""
    if not isinstance(given, str):
        return False
    if isinstance(question, SumsQuestion):
        return given in question.ways
    return given == question.expected


def _number_of(claim: str) -> int | None:
    """The number at the end of a canonical claim (``"... = 12"``), else None."""
    if claim == NONE or " = " not in claim:
        return None
    tail = claim.rsplit(" = ", 1)[1]
    return read_number(tail)


def _cards_of(claim: str) -> str:
    """A canonical claim without its number: the cards and the operation."""
    return claim.rsplit(" = ", 1)[0] if claim != NONE else NONE


def slip(question: Question, given: int | str) -> str:
    """The slip of a wrong claim: a capture missed ("none" said); a card of the other colour
    named (``colour``: every card of a capture has the played card's colour); the right cards and
    operation with a wrong number: the number's slip (a face card's value, off by one...:
    ``mathcards.skills.classify_slip`` of the sum alone); else a claim that is not one."""
    if given == NONE:
        return "missed_capture"
    from mathcards.skills import mixed_colours

    if isinstance(given, str) and mixed_colours(given):
        return "colour"
    if isinstance(question, SumsQuestion) and isinstance(given, str):
        said = _number_of(given)
        for way_said in question.ways:
            if way_said != NONE and _cards_of(way_said) == _cards_of(given):
                right = _number_of(way_said)
                if said is None or right is None or said == right:
                    break
                from mathcards.skills import classify_slip

                _target, rest = _cards_of(way_said).split(" = ")
                first, op, second = rest.split(" ")
                cards = (parse_card(first), parse_card(second))
                number = Question(game=GAME, skill="stack_sum" if op == "+" else
                                  "stack_difference", prompt="", kind="number",
                                  numbers=tuple(c.rank for c in cards), expected=right,
                                  cards=tuple(str(c) for c in cards))
                found = classify_slip(number, said)
                return found if found != "other" else "wrong_capture"
    return "wrong_capture"


def nudge(question: Question, given: int | str, slip_name: str) -> str:
    """The words after a first wrong claim (never the capture itself)."""
    if slip_name == "missed_capture":
        return _("Look again: is there an opponent's card of its colour that it and one of "
                 "your cards make, by + or −?")
    if slip_name == "colour":
        return _("Not quite: a capture uses cards of your card's colour only, red with red "
                 "and black with black.")
    if slip_name == "wrong_capture":
        return _("Not quite: check the cards and the sign, then what they make.")
    if slip_name == "face_value":  # not "Q 12": a face card's value is the claim's number
        return _("Not quite: check what the face cards count (look at the rules).")
    from mathcards.asking.registry import NUDGE, NUDGES

    return _(NUDGES.get(slip_name, NUDGE))


# --- the claim at the table: buttons for the cards and the sign, the number box ----------
NONE_KEY = "ans:none"
_ROLES = ("t", "h", "op")


def answer_choices(question: Question, state: Any, picks: tuple[str, ...]
                   ) -> list[tuple[str, str, str, bool]]:
    """The claim's buttons (key, label, tooltip, picked): the opponents' face-up cards of
    the played card's colour (the card captured; countering, the threatening card), the
    mover's own face-up cards (the helper), + and −, and "No capture". Every card of a
    kind is offered alike: no button says which claim is right."""
    if not isinstance(question, SumsQuestion) or question.played is None:
        return []
    seat = question.seat
    played = question.played
    out: list[tuple[str, str, str, bool]] = []
    threat = state.threat if question.counter else None
    for other, side in enumerate(state.sides):
        if other == seat:
            continue
        for card in side:
            if threat is not None and (other, card) != (threat.attacker, threat.played):
                continue  # a counter captures the threatening card (the prompt names it)
            if card.colour == played.colour:
                key = f"ans:t:{card}"
                out.append((key, _("captures {card}").format(card=card.symbol),
                            _("{who}'s {card}: the card captured").format(
                                who=seat_name((), other), card=card.name),
                            key in picks))
    for card in state.sides[seat] if seat is not None else ():
        key = f"ans:h:{card}"
        out.append((key, _("with {card}").format(card=card.symbol),
                    _("your {card}: the helper").format(card=card.name), key in picks))
    for op, label in (("+", "+"), ("-", "−")):
        key = f"ans:op:{op}"
        out.append((key, label, _("adding") if op == "+" else _("subtracting"),
                    key in picks))
    out.append((NONE_KEY, _("No capture"),
                _("{card} captures nothing").format(card=played.symbol), False))
    return list(dict.fromkeys(out))


def pick(question: Question, picks: tuple[str, ...], key: str
         ) -> tuple[tuple[str, ...], str | None]:
    """A claim button clicked (``key`` is one ``answer_choices`` offers: the table checked
    it): the picks after it (one card captured, one helper, one sign; a second click
    takes a pick back), and the answer it gives at once ("none" for "No capture")."""
    if key == NONE_KEY:
        return (), NONE
    role = key.split(":")[1]
    if key in picks:
        return tuple(k for k in picks if k != key), None
    return (*(k for k in picks if k.split(":")[1] != role), key), None


def compose(question: Question, picks: tuple[str, ...], text: Any) -> Any:
    """The claim of the buttons picked and the number typed (``"12"`` ->
    ``"Q♦ = 7♣ + 5♥ = 12"``); a typed whole claim or "none" is read as it is."""
    if not isinstance(text, str) or not isinstance(question, SumsQuestion):
        return text
    stripped = text.strip()
    if "=" in stripped or stripped.lower() in NONE_WORDS:
        return text
    if not stripped:
        raise AnswerError(_("pick the cards and + or −, then type what they make"))
    number = read_number(text)
    chosen = {k.split(":")[1]: k.split(":", 2)[2] for k in picks}
    if "t" not in chosen:
        raise AnswerError(_("pick the card it captures first (the buttons \"captures …\"), "
                            "or No capture"))
    if "h" not in chosen:
        raise AnswerError(_("pick your helper card first (the buttons \"with …\")"))
    if "op" not in chosen:
        raise AnswerError(_("pick + or − first"))
    target, helper = parse_card(chosen["t"]), parse_card(chosen["h"])
    played = question.played
    assert played is not None
    return claim_text(target, played, chosen["op"], helper, played, number)


def hint(state: Any, level: int) -> str:
    """The hints at "I count": the nudge, and which card (level 2) without what it
    captures, with which helper or what it makes (the student's claim to find)."""
    from mathcards import explain as X

    found = X.hint(state, min(level, 2))
    sentence = str(found.sentence)
    if sentence == _(NO_CAPTURE_NOW):  # "no card captures" would answer every claim
        return _("a card captures when it and one of your face-up cards of its colour "
                 "make an opponent's card of that colour, by + or −")
    if level >= 2:
        sentence = sentence.split(":")[0]  # "play your 7♣: it can capture" -> the card
    return sentence


def answer_skill(question: Question, given: int | str) -> str:
    """The skill an answer shows: a capture missed is a capture not spotted."""
    if given == NONE and question.expected != NONE:
        return "capture_spot"
    return question.skill


def capture_choice(question: Question, given: int | str, state: Any) -> Any | None:
    """After a right claim, the capture to choose when the engine asks which card
    (``Capture`` of the claimed card), else None."""
    if (not isinstance(question, SumsQuestion) or getattr(state, "phase", None) != CHOOSE
            or not check(question, given)):
        return None
    target = str(given).split(" = ")[0]
    for owner, way in state.pending or ():
        if way.target.symbol == target:
            return Capture(way.target, owner)
    return None


def explain(question: Question, before: Any = None, after: Any = None
            ) -> list[Any]:
    """The explainer's step: the engine's capture as its sum or difference
    (``7 + 5 = 12 = Q♦``), or why the card captures nothing."""
    assert isinstance(question, SumsQuestion)
    way = question.way
    if way is None:
        played = question.played
        assert played is not None
        sentence = _("{card} captures nothing").format(card=played.symbol)
        if before is not None and question.seat is not None:
            helpers = before.sides[question.seat]
            why = [why_no_capture(played, t, helpers)
                   for other, side in enumerate(before.sides) if other != question.seat
                   for t in side]
            if why:
                sentence = _("{card} captures nothing: for example, {why}").format(
                    card=played.symbol, why=why[0])
        return [Fact(player=question.seat, sentence=sentence)]
    return [CaptureStep(player=question.seat, played=way.played, helper=way.helper, op=way.op,
                       target=way.target, target_owner=question.owner,
                       stage="counter" if question.counter else "threat", result=way.result)]


__all__ = [
    "NONE", "NONE_KEY", "SumsQuestion", "after_answer", "after_move", "answer_choices",
    "answer_skill", "before_move", "capture_choice", "check", "claim_text", "compose",
    "explain", "hint", "nudge", "pick", "read_answer", "read_claim", "slip", "way_text",
]
