"""Reviews of played hands: against double-dummy best play (``review.py``) and
by what each player could know (``information.py``)."""

from .information import (
    InformedPlay,
    InformedReview,
    equivalent_choices,
    judge_play,
    review_by_information,
)
from .review import HandReview, PlayReview, analyze_hand

__all__ = [
    "HandReview",
    "InformedPlay",
    "InformedReview",
    "PlayReview",
    "analyze_hand",
    "equivalent_choices",
    "judge_play",
    "review_by_information",
]
