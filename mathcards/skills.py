"""The skills a table's or an exercise's question practises, and the slips a wrong answer
shows: the names the teacher's dashboard uses for every answer a student gives.

Each ``Question`` (``mathcards.asking``) names one skill; each wrong ``Answer`` names the
slip that explains it best (``classify_slip``), or ``"other"``.
"""

from __future__ import annotations

# key -> the words the teacher's dashboard shows (the documented list: docs/skills.md)
SKILLS: dict[str, str] = {
    # Suns to Moons: the deck value after a signed card
    "add_positive": "add a positive number",
    "subtract_positive": "subtract a positive number",
    "cross_zero": "add or subtract across zero",
    "subtract_negative": "take away a negative number (a Joker removing a minus card)",
    "bound": "keep the deck within −10 and 10",
    # Dice Stacks
    "dice_sum": "the sum of the dice",
    "stack_sum": "a stack by adding",
    "stack_difference": "a stack by subtracting",
    "double": "doubling (a King)",
    "halve": "halving (a King)",
    # Sums
    "capture_sum": "a capture by a sum of two cards",
    "capture_difference": "a capture by a difference of two cards",
    "capture_spot": "a capture found or missed",
    # Moons and Planets
    "planet_sum": "a planet: cards that sum to 15–18",
    "moon_set": "a moon: cards of one rank",
}

# key -> the words the dashboard shows for the slip
SLIPS: dict[str, str] = {
    "sign": "sign slip",
    "off_by_one": "off by one",
    "off_by_two": "off by two",
    "ace_14": "an Ace counted 14 instead of 1 (or 1 instead of 14)",
    "face_value": "a face card's value (J 11, Q 12, K 13)",
    "added_not_subtracted": "added instead of subtracted",
    "subtracted_not_added": "subtracted instead of added",
    "doubled_not_halved": "doubled instead of halved",
    "halved_not_doubled": "halved instead of doubled",
    "missed_capture": "a capture missed",
    "wrong_capture": "a capture claimed that is not one",
    "other": "another slip",
}
