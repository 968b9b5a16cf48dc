"""The skills a table's or an exercise's question practises, and the slips a wrong answer
shows: the names the teacher's dashboard uses for every answer a student gives.

Each ``Question`` (``mathcards.asking``) names one skill; each wrong ``Answer`` names the
slip that explains it best (``classify_slip``), or ``"other"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mathcards.cards import parse_card, whole_number
from mathcards.errors import CardParseError
from mathcards.i18n import N_

if TYPE_CHECKING:
    from mathcards.asking import Question

# key -> the words the teacher's dashboard shows (the documented list: docs/skills.md)
SKILLS: dict[str, str] = {
    # Suns to Moons: the deck value after a signed card
    "add_positive": N_("add a positive number"),
    "subtract_positive": N_("subtract a positive number"),
    "cross_zero": N_("add or subtract across zero"),
    "subtract_negative": N_("take away a negative number (a Joker removing a minus card)"),
    "bound": N_("keep the deck within −10 and 10"),
    # Dice Stacks
    "dice_sum": N_("the sum of the dice"),
    "stack_sum": N_("a stack by adding"),
    "stack_difference": N_("a stack by subtracting"),
    "double": N_("doubling (a King)"),
    "halve": N_("halving (a King)"),
    # Sums
    "capture_sum": N_("a capture by a sum of two cards"),
    "capture_difference": N_("a capture by a difference of two cards"),
    "capture_spot": N_("a capture found or missed"),
    # Moons and Planets
    "planet_sum": N_("a planet: cards that sum to 15–18"),
    "moon_set": N_("a moon: a run of one colour, cards of one value, or an Ace"),
    # the practice page's exercises that are not a sum (mathcards.exercises.evidence)
    "stack_check": N_("whether cards make a stack (Dice Stacks)"),
    "prize_order": N_("which prize a card takes (Moons and Planets)"),
    "trick_winner": N_("who takes a trick (Shoot the Moon)"),
    "legal_play": N_("whether a play is allowed (Shoot the Moon)"),
}

# key -> the words the dashboard shows for the slip
SLIPS: dict[str, str] = {
    "sign": N_("sign slip"),
    "off_by_one": N_("off by one"),
    "off_by_two": N_("off by two"),
    "ace_14": N_("an Ace counted 14 instead of 1 (or 1 instead of 14)"),
    "face_value": N_("a face card's value (J 11, Q 12, K 13)"),
    "added_not_subtracted": N_("added instead of subtracted"),
    "subtracted_not_added": N_("subtracted instead of added"),
    "doubled_not_halved": N_("doubled instead of halved"),
    "halved_not_doubled": N_("halved instead of doubled"),
    "missed_capture": N_("a capture missed"),
    "wrong_capture": N_("a capture claimed that is not one"),
    "colour": N_("a card of the other colour in a capture"),
    "goal": N_("the goal typed, not the deck"),  # Suns to Moons (its questions.py)
    "other": N_("another slip"),
}

# key -> the dashboard's words for an answer that is not the student's own, whatever its
# number: recorded like a slip (not right), never made by the slip classifier
OUTCOMES: dict[str, str] = {
    "seen": N_("the result was shown before the answer"),  # mathcards.asking.session.SEEN
    "with_solution": N_("answered with the worked solution open"),  # exercises.with_solution
    # the goal typed again after typing it for a deck that was not the goal (GUESS)
    "goal_guess": N_("the goal typed as a guess"),
}

# every key an answer's ``slip`` may hold, with its words (the dashboard, the hub's check)
SLIP_WORDS: dict[str, str] = {**SLIPS, **OUTCOMES}


# --- the slip classifier ---------------------------------------------------------------------
# Which sum a skill's question asks about its ``numbers`` (the first rule that gives the
# question's expected answer is the one the student was asked to do):
#   "plus"      numbers[0] + numbers[1]    (Suns to Moons: the deck, the signed card value)
#   "minus"     numbers[0] - numbers[1]    (a Joker taking a card's value off the deck)
#   "sum"       the sum of every number    (dice, a stack by adding, a planet)
#   "diff"      the largest minus the rest (a stack by subtracting)
#   "pair_sum"  numbers[0] + numbers[1]    (Sums: the played card and the helper)
#   "pair_diff" |numbers[0] - numbers[1]|
_SUNS = ("plus", "minus", "sum")  # "sum": a chain of signed values (the deck's worth)
_SUNS_SKILLS = ("add_positive", "subtract_positive", "cross_zero", "subtract_negative",
                "bound")
_RULES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(_SUNS_SKILLS, _SUNS),
    "dice_sum": ("sum",), "stack_sum": ("sum",), "stack_difference": ("diff",),
    "capture_sum": ("pair_sum", "sum"), "capture_difference": ("pair_diff", "diff"),
    "capture_spot": ("pair_sum", "pair_diff"), "planet_sum": ("sum",),
}
# The rule a student who swapped the operation used instead, and the slip's name.
_SWAPPED: dict[str, tuple[str, str]] = {
    "sum": ("diff", "subtracted_not_added"), "diff": ("sum", "added_not_subtracted"),
    "pair_sum": ("pair_diff", "subtracted_not_added"),
    "pair_diff": ("pair_sum", "added_not_subtracted"),
}
_ACE_RANK, _FACE_RANKS = 1, (11, 12, 13)
# The values a face card is mistaken for: another face card's value, or 10 (a picture
# card counts 10 in Moons and Planets' planets and in many games the students know).
_FACE_VALUES = (10, 11, 12, 13)
_NONE_CLAIMS = ("", "none", "no", "no capture", "nothing")


def _apply(rule: str, numbers: tuple[int, ...]) -> int | None:
    if len(numbers) < 2 and rule != "sum":
        return None
    if rule in ("plus", "pair_sum"):
        return numbers[0] + numbers[1]
    if rule == "minus":
        return numbers[0] - numbers[1]
    if rule == "pair_diff":
        return abs(numbers[0] - numbers[1])
    if rule == "sum":
        return sum(numbers) if numbers else None
    if rule == "diff":
        return 2 * max(numbers) - sum(numbers)
    return None


def _card_rank(text: str) -> int | None:
    """The rank (1 Ace ... 13 King) of a standard card's text, else None."""
    if not text:
        return None
    try:
        card = parse_card(text)
    except CardParseError:
        return None
    return card.rank if card.is_standard else None


def _swapped_values(numbers: tuple[int, ...], cards: tuple[str, ...],
                    ranks: tuple[int, ...], values: tuple[int, ...],
                    ) -> list[tuple[int, ...]]:
    """``numbers`` with one card of a rank in ``ranks`` counted as one of ``values``
    instead (its sign kept)."""
    return [(*numbers[:i], (-1 if number < 0 else 1) * value, *numbers[i + 1:])
            for i, number in enumerate(numbers)
            if i < len(cards) and _card_rank(cards[i]) in ranks
            for value in values if value != abs(number)]


def _sign_flips(numbers: tuple[int, ...]) -> list[tuple[int, ...]]:
    """``numbers`` with the sign of one of them changed (the deck's or one card's); both of
    two changed is the answer's sign lost, tried first."""
    return [(*numbers[:i], -n, *numbers[i + 1:]) for i, n in enumerate(numbers) if n]


def _capture_slip(expected: str, given: str) -> str:
    """A capture claim's slip: one that was there and not claimed, or one that is not."""
    said = given.strip().casefold()
    if expected.strip().casefold() not in _NONE_CLAIMS and said in _NONE_CLAIMS:
        return "missed_capture"
    if said not in _NONE_CLAIMS and mixed_colours(given):
        return "colour"
    return "wrong_capture" if said not in _NONE_CLAIMS else "other"


def mixed_colours(claim: str) -> bool:
    """A capture claim ("Q♦ = 9♦ + 3♣ = 12") naming cards of both colours: in Sums every card
    of a capture has the played card's colour (red with red, black with black)."""
    from mathcards.cards import parse_card
    from mathcards.errors import MathCardsError

    parts = claim.split(" = ")[:2]
    words = [parts[0], *parts[1].split()[::2]] if len(parts) == 2 else []
    try:
        colours = {parse_card(w).colour for w in words}
    except (MathCardsError, ValueError):
        return False
    return len(colours) > 1


def classify_slip(question: Question, given: int | str) -> str:
    """The slip (a key of ``SLIPS``) that best explains ``given`` as a wrong answer to
    ``question``; ``"other"`` when none fits (or the answer is not a number at all).

    The goal the page shows (``question.goal``, Suns to Moons) typed for a deck that is
    not the goal is named first: the number is on the page. Then the plainest, then the
    most particular explanation wins: the answer's sign lost (−x for
    x), then an Ace counted 14 for 1 (or 1 for 14), then a face card's value (J 11, Q 12,
    K 13 mistaken for one another or for 10), then another sign slip (the deck's or the
    card's sign changed: 3 − 5 for 3 + 5), then the
    operation swapped (added instead of subtracted and the reverse; doubled instead of
    halved and the reverse), then off by one, then off by two.

    >>> from mathcards.asking import Question
    >>> q = Question("suns_to_moons", "cross_zero", "3, lay 5 upright", (3, -5), -2,
    ...              cards=("", "5C"))
    >>> classify_slip(q, "8"), classify_slip(q, -1), classify_slip(q, 20)
    ('sign', 'off_by_one', 'other')
    """
    if question.kind == "capture":
        return _capture_slip(str(question.expected), str(given))
    expected = question.expected
    answer = given if isinstance(given, int) and not isinstance(given, bool) else (
        whole_number(given, longest=12) if isinstance(given, str) else None)
    if not isinstance(expected, int) or isinstance(expected, bool) or answer is None:
        return "other"
    if answer == expected:
        return "other"  # not a wrong answer: nothing to explain
    if question.goal is not None and answer == question.goal:
        return "goal"  # the goal the page shows typed for a deck that is not the goal
    numbers, cards = tuple(question.numbers), tuple(question.cards)
    rule = next((r for r in _RULES.get(question.skill, ())
                 if _apply(r, numbers) == expected), None)
    if expected != 0 and answer == -expected:
        return "sign"  # the answer's sign lost: the plainest explanation of all
    if rule is not None:
        for slip, ranks, values in (("ace_14", (_ACE_RANK,), (1, 14)),
                                    ("face_value", _FACE_RANKS, _FACE_VALUES)):
            if any(_apply(rule, alt) == answer
                   for alt in _swapped_values(numbers, cards, ranks, values)):
                return slip
    if (question.skill in _SUNS_SKILLS and rule is not None
            and any(_apply(r, alt) == answer
                    for r in (("sum",) if rule == "sum" else ("plus", "minus"))
                    for alt in [numbers, *_sign_flips(numbers)])):
        return "sign"
    if rule in _SWAPPED and len(numbers) >= 2:
        other, slip = _SWAPPED[rule]
        if _apply(other, numbers) == answer:
            return slip
    if question.skill in ("double", "halve") and numbers and numbers[0] and expected:
        before = numbers[0]
        # doubling where halving was asked (or the reverse) by as many Kings
        if answer * expected == before * before and answer != expected:
            return "doubled_not_halved" if expected < abs(before) else "halved_not_doubled"
    if abs(answer - expected) == 1:
        return "off_by_one"
    if abs(answer - expected) == 2:
        return "off_by_two"
    return "other"
