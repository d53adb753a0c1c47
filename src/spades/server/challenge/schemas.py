"""The daily challenge's requests and answers: every field the page reads."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spades.core.bids import BidJson

SeatLetter = Literal["N", "E", "S", "W"]


class NameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        max_length=200, description="Up to 24 letters, digits, spaces and . , ' & ( ) ! ? -"
    )


class NameAnswer(BaseModel):
    name: str = Field(description="The name as the leaderboard shows it (trimmed).")


class ChallengeBidRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bid: int | str = Field(description='"nil" or a whole number from 1 to 13.')


class ChallengePlayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card: str = Field(max_length=8, description='Rank then suit, like "QH" or "10D".')


class DealSummary(BaseModel):
    """One of your deals of the day."""

    deal: int
    finished: bool
    score: int | None = Field(description="North-South's score for the hand, once over.")
    bid: BidJson | None = Field(description="Your bid, once made.")
    tricks: int | None = Field(description="North-South's tricks, once over.")


class ChallengeDay(BaseModel):
    """A day of the challenge as you see it."""

    day: str = Field(description="The UTC date, YYYY-MM-DD.")
    today: str = Field(description="Today's UTC date on this server.")
    deals: int
    level: str = Field(description="The level of the bots at the other seats, and of the par.")
    opened: bool
    closed: bool
    closes_at: str = Field(description="When the day closes: the next midnight UTC (ISO 8601).")
    commitment: str = Field(description='SHA-256 of "SEED:SALT", fixed before the day began.')
    committed_at: str = Field(description="When the seed was drawn and committed to (ISO 8601).")
    seed: int | None = Field(description="Revealed once the day is closed.")
    salt: str | None = Field(description="Revealed once the day is closed.")
    next_day: str | None
    next_commitment: str | None = Field(description="Tomorrow's commitment, shown today.")
    name: str | None = Field(description="Your display name, if you chose one.")
    plays: list[DealSummary]
    next_deal: int | None = Field(description="The deal you are to play now, if any.")
    all_done: bool


class ChallengeSeat(BaseModel):
    seat: SeatLetter
    name: str
    player: str
    bid: BidJson | None
    tricks: int
    dealer: bool


class TrickCard(BaseModel):
    seat: SeatLetter
    card: str


class ChallengeTrick(BaseModel):
    leader: SeatLetter
    cards: list[TrickCard]
    winner: SeatLetter | None


class ChallengeTable(BaseModel):
    """Your deal as South sees it: your cards and the public facts only."""

    day: str
    deal: int
    deals: int
    phase: Literal["bidding", "playing", "over"]
    turn: SeatLetter | None
    your_turn: bool
    hand: list[str]
    legal_bids: list[BidJson]
    legal_cards: list[str]
    seats: list[ChallengeSeat]
    trick: ChallengeTrick
    last_trick: ChallengeTrick | None
    tricks_played: int
    spades_broken: bool
    result: DealSummary
    events: list[dict[str, Any]] = Field(
        description="The public events since your intent (bids, cards, tricks, the score)."
    )


class YourResult(BaseModel):
    score: int
    bid: BidJson | None
    tricks: int | None
    matchpoints: float
    top: int
    percent: float | None = Field(description="Your share of the top; null while you are alone.")


class ParResult(BaseModel):
    score: int
    bid: BidJson
    tricks: int
    versus: int | None = Field(description="Your score minus the par's.")


class ScoreCount(BaseModel):
    score: int
    count: int


class BidCount(BaseModel):
    bid: BidJson
    count: int


class FieldLine(BaseModel):
    name: str
    score: int
    bid: BidJson | None
    tricks: int | None
    matchpoints: float
    you: bool


class ChallengeResults(BaseModel):
    """How everyone did on a deal: shown once you have played it."""

    day: str
    deal: int
    players: int
    yours: YourResult | None
    par: ParResult | None = Field(description="null while the bots are still playing it.")
    spread: list[ScoreCount] = Field(description="Each score made, best first.")
    common_bid: BidCount | None = Field(description="South's most common bid.")
    field: list[FieldLine] = Field(description="The results, best first (at most 100).")


class BoardLine(BaseModel):
    rank: int
    name: str
    deals: int
    matchpoints: float
    top: int
    percent: float | None
    versus_par: int
    you: bool


class DayLeaderboard(BaseModel):
    day: str
    closed: bool
    lines: list[BoardLine]
    par_percent: float | None = Field(
        description="Where the par would stand: its percentage against the players."
    )


class WeekBoardLine(BaseModel):
    rank: int
    name: str
    days: int
    points: float = Field(description="The sum of the player's daily percentages.")
    you: bool


class WeekLeaderboard(BaseModel):
    first_day: str
    last_day: str
    counted: list[str] = Field(
        description="The days counted: closed ones, and today once you finished it."
    )
    lines: list[WeekBoardLine]


class HistoryLine(BaseModel):
    day: str
    deals: int
    finished: int
    percent: float | None
    versus_par: int
    rank: int | None
    players: int


class ChallengeHistory(BaseModel):
    days: list[HistoryLine]
