"""The statistics view: a player's stored games in numbers."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LevelRecord(BaseModel):
    opponents: str = Field(description="West's and East's level, \"west/east\" when they differ.")
    played: int = Field(description="Finished games against this level.")
    won: int
    lost: int


class HandPoint(BaseModel):
    points: int = Field(description="What the hand added to your side's score.")
    bags: int = Field(description="Bags your side took in the hand.")


class Statistics(BaseModel):
    """Your games in numbers: every game this browser played, finished or not."""

    games: int = Field(description="Games started.")
    finished: int
    won: int
    lost: int
    by_level: list[LevelRecord] = Field(description="Finished games by the opponents' level.")
    hands: int = Field(description="Hands scored.")
    points_per_hand: float | None = Field(description="Your side's average points a hand.")
    bags_per_hand: float | None = Field(description="Your side's average bags a hand.")
    contracts_made: int = Field(description="Your side's numeric bids made.")
    contracts_set: int = Field(description="Your side's numeric bids set.")
    nil_tried: int = Field(description="Your own Nil bids.")
    nil_made: int
    undos: int = Field(description="Bids and cards you took back.")
    games_with_undos: int
    claims: int = Field(description="Claims you made.")
    claims_held: int
    recent: list[HandPoint] = Field(
        description="Your side's last hands (at most 40), oldest first."
    )
