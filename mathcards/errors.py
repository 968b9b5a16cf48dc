"""One small hierarchy of errors, each a ValueError whose message a student or
teacher can act on: it quotes the input and says what would be accepted."""

from __future__ import annotations


class MathCardsError(ValueError):
    """Base of every error MathCards raises on purpose."""


class CardParseError(MathCardsError):
    """Text that is not a card in the notation of the rulings."""


class SettingsError(MathCardsError):
    """Game settings that the rules do not allow (player count, decks...)."""


class IllegalActionError(MathCardsError):
    """An action that is not among the state's legal actions.

    ``reason`` holds the rule that refuses it, in words, without the action's
    own text, so views can show it on its own.
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class SaveFileError(MathCardsError):
    """A saved game (or deal code) that cannot be read or does not replay."""
