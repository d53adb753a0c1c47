"""Reviews of played hands against double-dummy best play (see ``review.py``)."""

from .review import HandReview, PlayReview, analyze_hand

__all__ = ["HandReview", "PlayReview", "analyze_hand"]
