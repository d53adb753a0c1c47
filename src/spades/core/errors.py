"""Errors raised by the checked entry points.

Every error says, in words a player understands, which rule an action breaks,
and carries a short machine-readable ``rule`` code for programs (the web page,
the record checker). An action that raises changes nothing.
"""

from __future__ import annotations


class SpadesError(ValueError):
    """Base class of every error the engine raises on bad input."""

    rule: str = "rules"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            self.rule = rule

    @property
    def message(self) -> str:
        """The explanation, without any location prefix."""
        return str(self.args[0])


class IllegalActionError(SpadesError):
    """A bid or a card that the rules do not allow now."""


class NotYourTurnError(IllegalActionError):
    """Someone acted out of turn, or the hand is in another phase."""

    rule = "turn"


class IllegalBidError(IllegalActionError):
    """A bid outside 1..13 or Nil."""

    rule = "bid"


class IllegalCardError(IllegalActionError):
    """A card the player does not hold, or may not play now."""

    rule = "play"


class GameOverError(IllegalActionError):
    """An action after the game has ended."""

    rule = "game-over"


class IllegalClaimError(IllegalActionError):
    """A claim the engine cannot settle: outside the play, more tricks than are
    left, or one that cannot say who takes the tricks (a Nil in play)."""

    rule = "claim"


class UndoError(IllegalActionError):
    """Nothing to take back: the seat has not acted in the hand in progress."""

    rule = "undo"


class RecordError(SpadesError):
    """A game record that is malformed or breaks a rule.

    ``where`` names the place at fault ("game 2, hand 3, trick 5"); the message
    starts with it.
    """

    rule = "record"

    def __init__(self, message: str, *, where: str = "", rule: str | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message, rule=rule)
        self.where = where
        self.reason = message
