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
    """Your games in numbers: results by level, points, contracts, Nils, bags, undos;
    your finished games at tables with friends too, from the seat you took."""
    owner = player_key(request)
    played = [] if owner is None else games.repository.played_records(owner)
    return player_statistics(played)
