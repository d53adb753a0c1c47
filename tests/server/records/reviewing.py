"""What the review tests share: a finished hand to review, and the result the
review process would hand back for it."""

from __future__ import annotations

from typing import Any

from spades.core.hand import HandState
from spades.server.records import reviews
from tests.solver.hands import RUFF_ENDING, RUFF_TRICKS, hand_from_tricks


def finished_hand() -> HandState:
    return hand_from_tricks(RUFF_TRICKS + RUFF_ENDING)


def ready(number: int) -> dict[str, Any]:
    analysing = reviews._analysing(number, 16)
    return analysing.model_copy(update={"status": "ready", "judged": 13}).model_dump()
