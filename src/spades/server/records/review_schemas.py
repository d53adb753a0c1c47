"""The body of the post-hand review route."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from spades.core.seats import SeatLetter

from ..play.schemas import CardName


class DoubleDummyOpinion(BaseModel):
    """The same card judged with every hand visible."""

    mistake: bool
    tricks_lost: int = Field(description="Tricks lost against best play with all cards seen.")
    better: list[CardName] = Field(description="Cards that would have kept what was lost.")
    explanation: str


class ReviewedPlay(BaseModel):
    trick: int
    seat: SeatLetter
    card: CardName
    card_name: str = Field(description='The card in words: "Queen of hearts".')
    yours: bool = Field(description="Whether South (you) played it.")
    verdict: Literal["mistake", "double-dummy only"] = Field(
        description='"mistake": another card did clearly better over the deals its player '
        'could picture. "double-dummy only": it lost against the real layout, but nothing '
        "the player had seen made another card better on average."
    )
    lost: list[Literal["tricks", "contract", "nil"]] = Field(
        description="What the mistake cost on average (empty for a double-dummy-only play)."
    )
    tricks_lost: float = Field(description="Tricks lost on average over the sampled deals.")
    better: CardName | None = Field(description="The card that did best on average.")
    explanation: str = Field(description="The verdict in words.")
    deals: int = Field(description="Deals consistent with the player's view it was judged on.")
    double_dummy: DoubleDummyOpinion | None = Field(description="The second opinion.")


class HandReviewResponse(BaseModel):
    """A finished hand's plays judged by what each player could know."""

    hand: int
    status: Literal["ready", "analysing", "failed"] = Field(
        description='"analysing": the review is being computed in the background; ask again '
        "in a second or two."
    )
    plays: list[ReviewedPlay] = Field(
        description="The mistakes, then the plays only double dummy calls mistakes, by trick."
    )
    tricks_lost: dict[SeatLetter, float] = Field(
        description="Tricks each seat's mistakes cost its side on average."
    )
    judged: int = Field(description="Plays with a choice that were weighed.")
    unjudged: int = Field(
        description="Plays with a choice too costly to weigh by information (early tricks)."
    )
    deals: int = Field(description="Deals sampled for each play, at most.")
    seconds: float = Field(description="How long the review took.")
    detail: str = Field(default="", description="Why a review failed.")
