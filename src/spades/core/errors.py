"""Errors raised by the checked entry points.

Every error says, in words a player understands, which rule an action breaks,
and carries a short machine-readable ``rule`` code for programs (the web page,
the record checker). An action that raises changes nothing.
"""

from __future__ import annotations

from enum import StrEnum


class Rule(StrEnum):
    """The codes an error carries in ``rule``: the rule broken, or what is wrong.

    A ``StrEnum``, so a code is written in JSON (the web API's ``rule`` field,
    ``spades replay`` output) as its plain string, and compares equal to it.
    """

    RULES = "rules"
    """Any rule, when none more precise applies."""
    TURN = "turn"
    """Acting out of turn, or in the wrong phase."""
    BID = "bid"
    """A bid outside 1..13 or Nil."""
    BLIND_NIL = "blind-nil"
    """Blind Nil where the rules do not allow it now."""
    DOUBLE_NIL = "double-nil"
    """A second Nil in a partnership whose rules allow one."""
    MIN_TEAM_BID = "min-team-bid"
    """A partnership's bids adding up to less than the rules' minimum."""
    NIL_PASS = "nil-pass"
    """Cards passed between a Nil bidder and partner: how many, by whom, which."""
    PLAY = "play"
    CARD = "card"
    """Something that is not a card."""
    HOLD_CARD = "hold-card"
    FOLLOW_SUIT = "follow-suit"
    FIRST_LEAD = "first-lead"
    SPADES_BROKEN = "spades-broken"
    GAME_OVER = "game-over"
    CLAIM = "claim"
    CLAIM_AGAIN = "claim-again"
    CLAIM_TOO_EARLY = "claim-too-early"
    UNDO = "undo"
    ACTION = "action"
    """An RL action index that means nothing."""
    RECORD = "record"
    """A record that is malformed (not a rule of play)."""
    DEAL = "deal"
    DEALER = "dealer"
    TRICKS = "tricks"
    TRICK_WINNER = "trick-winner"
    TRICKS_WON = "tricks-won"
    SCORE = "score"
    WINNER = "winner"
    COMMITMENT = "commitment"
    """Deals that are not the ones a committed seed gives."""
    RULE_SET = "rule-set"
    """Rule options that are unknown, mistyped or contradict each other."""


class SpadesError(ValueError):
    """Base class of every error the engine raises on bad input."""

    rule: str = Rule.RULES

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

    rule = Rule.TURN


class IllegalBidError(IllegalActionError):
    """A bid outside 1..13 or Nil."""

    rule = Rule.BID


class IllegalCardError(IllegalActionError):
    """A card the player does not hold, or may not play now."""

    rule = Rule.PLAY


class GameOverError(IllegalActionError):
    """An action after the game has ended."""

    rule = Rule.GAME_OVER


class IllegalClaimError(IllegalActionError):
    """A claim the engine cannot settle: outside the play, more tricks than are
    left, or one that cannot say who takes the tricks (a Nil in play)."""

    rule = Rule.CLAIM


class UndoError(IllegalActionError):
    """Nothing to take back: the seat has not acted in the hand in progress."""

    rule = Rule.UNDO


class RecordError(SpadesError):
    """A game record that is malformed or breaks a rule.

    ``where`` names the place at fault ("game 2, hand 3, trick 5"); the message
    starts with it. ``path`` is the same place as JSON keys and indexes into the
    record (``("hands", 2, "tricks", 4)``), so a reader of a pretty-printed file
    can name the line at fault (``record_line``); the importer fills it in as
    the error passes out of each part of the record.
    """

    rule = Rule.RECORD

    def __init__(
        self,
        message: str,
        *,
        where: str = "",
        rule: str | None = None,
        path: tuple[str | int, ...] = (),
    ) -> None:
        super().__init__(f"{where}: {message}" if where else message, rule=rule)
        self.where = where
        self.reason = message
        self.path = path
