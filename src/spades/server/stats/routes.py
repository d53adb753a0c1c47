"""The statistics route: a plain ``def``, run in FastAPI's thread pool, as it
reads every stored game of the player's."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..deps import Games, player_key
from ..errors import STORE_FAILED
from .schemas import Statistics
from .statistics import player_statistics

router = APIRouter(tags=["statistics"])


@router.get("/api/statistics", responses=STORE_FAILED)
def statistics(games: Games, request: Request) -> Statistics:
    """Your games in numbers: results by level, points, contracts, Nils, bags, undos."""
    owner = player_key(request)
    records = [] if owner is None else games.repository.records(owner)
    return player_statistics(records)
