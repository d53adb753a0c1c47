"""The bodies of the record and replay routes: a game laid out for the replay
viewer, and a record file sent to be opened.

A replay carries every card of a hand only when that hand is over (every card
of it has then been played in front of everyone, or a claim ended it) or the
whole game is; a hand still being played shows the cards of the viewer's own
seat at most. Undone moves are not in it: only the moves that stood.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictInt, StrictStr

from spades.core.seats import SeatLetter, TeamName

from ..play.schemas import BidValue, CardName, HandResult, Request, TrickState

MAX_RECORD_CHARS = 2_000_000
"""A whole game's record is some tens of kilobytes pretty-printed; a file of
many games from ``spades simulate`` can be opened after cutting one out."""
MAX_RECORD_BODY_BYTES = 4 * 1024 * 1024
"""The body cap of the route that opens a file (other routes take 64 KiB):
the text of MAX_RECORD_CHARS characters, with room for JSON's escapes."""


class OpenRecordRequest(Request):
    text: StrictStr = Field(
        max_length=MAX_RECORD_CHARS,
        description="The file's text: one spades-record/1 record (pretty-printed or not), "
        "a JSON list of records, or JSON lines.",
    )
    game: StrictInt = Field(default=1, ge=1, description="Which game of the file to open (from 1).")


class ReplayBid(BaseModel):
    seat: SeatLetter
    bid: BidValue


class ReplayClaim(BaseModel):
    """A claim that held and ended the hand where its tricks stop."""

    seat: SeatLetter = Field(description="Who claimed.")
    tricks: int = Field(description="The tricks claimed for the claimer's side.")
    left: int = Field(description="The tricks not finished when the claim was made.")
    awarded: dict[SeatLetter, int] = Field(
        description="Of the tricks left, those credited to each seat."
    )


class ReplayPass(BaseModel):
    """A Nil pass: ``seat`` gave ``cards`` to its partner ``to``."""

    seat: SeatLetter
    to: SeatLetter
    cards: list[CardName] | None = Field(
        description="null where the viewer may not see them (another seat's pass in a hand "
        "still being played)."
    )


class ReplayHand(BaseModel):
    number: int
    dealer: SeatLetter
    over: bool = Field(description="Whether the hand is over: 13 tricks played, or a claim held.")
    deal: dict[SeatLetter, list[CardName] | None] = Field(
        description="The 13 cards each seat was dealt, high to low by suit; null for a seat "
        "whose cards are hidden (a hand still being played)."
    )
    bids: list[ReplayBid] = Field(description="In bidding order.")
    passes: list[ReplayPass] = Field(
        default=[], description="The hand's Nil passes, in order (under rules that have them)."
    )
    tricks: list[TrickState] = Field(
        description="The cards that stood (not those taken back), in play order; the last "
        "may be unfinished, in the hand being played or where a claim ended the hand."
    )
    result: HandResult | None = Field(
        description="The score of a finished hand, its notes naming its claims and undos."
    )
    claim: ReplayClaim | None = Field(
        default=None, description="The claim that ended the hand, if one did."
    )


class Replay(BaseModel):
    """A game laid out for the replay viewer."""

    source: Literal["game", "file"]
    game_id: str | None = Field(description="The game's id when it is one of yours.")
    players: dict[SeatLetter, str]
    target: int
    hands: list[ReplayHand]
    finished: bool
    winner: TeamName | None
    final: dict[TeamName, int] = Field(description="Totals after the last finished hand.")
    ending: str | None = Field(description="How the game ended, in words.")
    games_in_file: int = Field(description="How many games the opened file holds (1 for yours).")
    game_index: int


class RecordFileError(BaseModel):
    detail: str = Field(description="What is wrong with the file, and where.")
    rule: str = Field(description="The rule the record breaks, or 'record' if malformed.")
    line: int | None = Field(description="The line of the file at fault, when known.")
