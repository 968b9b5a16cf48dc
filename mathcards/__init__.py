"""MathCards: five card games as math practice.

The core is pure Python: rules engines (`mathcards.games`), the step
explainer (`mathcards.explain`) and teacher exercises
(`mathcards.exercises`). Views live in `mathcards.widgets`.
"""

from mathcards.cards import Card, parse_card, parse_cards
from mathcards.errors import (
    CardParseError,
    IllegalActionError,
    MathCardsError,
    SaveFileError,
    SettingsError,
)

__all__ = [
    "Card",
    "CardParseError",
    "IllegalActionError",
    "MathCardsError",
    "SaveFileError",
    "SettingsError",
    "parse_card",
    "parse_cards",
]
__version__ = "0.1.0"
