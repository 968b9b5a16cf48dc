"""Errors of the explainer: each a ``MathCardsError`` (so a ``ValueError``) that says why."""

from __future__ import annotations

from mathcards.errors import MathCardsError


class ExplainError(MathCardsError):
    """Input the explainer cannot explain (bad dice, a card no game uses...)."""


class NotAStackError(ExplainError):
    """Cards that are not a Dice Stacks stack for these dice; the message says why.

    ``reason`` holds the reason alone ("10 + 5 − 4 mixes adding and subtracting").
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message
