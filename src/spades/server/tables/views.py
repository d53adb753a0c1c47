"""What a seat of a table is sent: the table as it may see it, and its own
view of the game with the public events it has not seen."""

from __future__ import annotations

from typing import Any

from spades.core import rules_name
from spades.core.seats import SEAT_LETTERS, SEATS
from spades.storage import StoredGame

from ..play.views import ScoreSheets, game_state
from .live import LiveTables
from .schemas import TableInfo, TableSeat, TableUpdate
from .service import Caller, Seating, TableService


def table_info(
    stored: StoredGame, caller: Caller, live: LiveTables, tables: TableService
) -> TableInfo:
    """The table as ``caller`` may see it: names, levels, presence; invites for the host."""
    assert stored.seating is not None
    seating = Seating(stored.seating)
    game = stored.game
    seats = []
    for seat in SEATS:
        person = seating.is_person(seat)
        taken = person and seating.seat(seat).get("key") is not None
        away = (
            live.away_left(stored.id, seat, seating.away_seconds)
            if taken and seating.started
            else None
        )
        seats.append(
            TableSeat(
                seat=SEAT_LETTERS[seat],
                kind="person" if person else "bot",
                name=seating.name(seat),
                level=seating.bot_level(seat) or (None if taken else seating.stand_in),
                connected=taken and live.connected(stored.id, seat),
                away_seconds_left=away,
                stood_in=person and seating.started and (not taken or away == 0),
            )
        )
    turn_left = None
    to_act = game.to_act
    if (
        seating.started
        and seating.turn_seconds
        and to_act is not None
        and seating.is_person(to_act)
    ):
        began = live.turn_started(stored.id, len(game.log), to_act)
        turn_left = max(0.0, began + seating.turn_seconds - live.clock())
    return TableInfo(
        id=stored.id,
        started=seating.started,
        host=caller.host,
        you=None if caller.seat is None else SEAT_LETTERS[caller.seat],
        seats=seats,
        invites=tables.invites(stored, caller.token) if caller.host and caller.token else {},  # type: ignore[arg-type]
        rules=rules_name(game.rules),
        rules_summary=game.rules.describe(),
        stand_in=seating.stand_in,
        away_seconds=seating.away_seconds,
        turn_seconds=seating.turn_seconds,
        turn_seconds_left=turn_left,
        played_by=stored.seating.get("played_by", []),
    )


def table_update(
    stored: StoredGame,
    caller: Caller,
    since: int | None,
    *,
    tables: TableService,
    live: LiveTables,
    sheets: ScoreSheets,
) -> TableUpdate:
    """What ``caller`` is sent: their seat's view, and the events after ``since``
    (none when ``since`` is None: the game as it stands)."""
    assert stored.seating is not None
    seating = Seating(stored.seating)
    game = stored.game
    length = len(game.log)
    view = None
    events: list[dict[str, Any]] | None = []
    if seating.started and caller.seat is not None:
        view = game_state(
            game,
            game_id=stored.id,
            version=stored.version,
            partner_level="table",
            opponent_level="table",
            undo_enabled=False,
            sheets=sheets,
            viewer=caller.seat,
            players=seating.player_names(),
        )
        events = [] if since is None else live.events_since(stored.id, since, length)
    return TableUpdate.model_validate(
        {
            "table": table_info(stored, caller, live, tables),
            "game": view,
            "events": events or [],
            "log": length,
            "resync": events is None,
        }
    )
