"""What a live table does besides answering requests: it pushes each seat its
update over the sockets this process holds, logs each change for the other
server processes and hears theirs (``table_feed.py``), and sets the table's
next wake-up, when the stand-in plays for a person away or out of time.

``TablePushes`` is made once by the app, on the table service, this process's
``LiveTables`` and the score sheets; the routes call it after each change, and
the timers and the feed call it on their own.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from spades.core.seats import SEAT_LETTERS, Seat
from spades.storage import StaleGameError, StoredGame
from spades.storage.table_changes import ALIVE, TableChange

from ..play.games import GameNotFound, run_off_loop_if
from ..play.moments import Moment
from ..play.views import ScoreSheets, public_events
from .live import LiveTables, Subscriber
from .schemas import TableUpdate
from .service import Caller, Seating, TableService
from .table_feed import TableFeed
from .views import table_update

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TablePushes:
    """The pushes, the change log and the wake-ups of every table this process serves."""

    tables: TableService
    live: LiveTables
    sheets: ScoreSheets

    def update(self, stored: StoredGame, caller: Caller, since: int | None) -> TableUpdate:
        """What ``caller`` is sent now (see ``views.table_update``)."""
        return table_update(
            stored, caller, since, tables=self.tables, live=self.live, sheets=self.sheets
        )

    async def publish(
        self, stored: StoredGame, made: list[Moment], *, skip: Subscriber | None = None
    ) -> None:
        """Keep ``made``, send every open socket of the table (but ``skip``) its
        seat's update, and log the change for the other server processes."""
        length = len(stored.game.log)
        events = [event.model_dump(mode="json") for event in public_events(made)]
        self.live.record(stored.id, length, events)
        self.schedule(stored)
        await self.push_here(stored, skip=skip)
        await self.announce(stored.id, length, events)

    async def announce(
        self, game_id: str, length: int, events: list[dict[str, Any]], reaction: str | None = None
    ) -> None:
        """Log a change of this process's for the others (``table_feed.py``): its
        events, the seats whose sockets are here, a reaction to pass on."""
        connected: list[str] = [SEAT_LETTERS[seat] for seat in self.live.connected_here(game_id)]

        def log_change() -> None:
            self.tables.repository.table_changes.add(
                game_id,
                origin=self.live.origin,
                log_length=length,
                events=events,
                connected=connected,
                reaction=None if reaction is None else json.loads(reaction),
            )

        try:
            await run_off_loop_if(self.tables.games.storage_waits, log_change)
        except Exception:  # the move itself is saved: the others will see it when they next ask
            log.warning("could not log a change of table %s for the other processes", game_id)

    async def hear(self, changes: list[TableChange]) -> None:
        """Changes made by other processes: keep their events and who is connected
        there, pass reactions on, and send the sockets here each table's update."""
        live = self.live
        moved: set[str] = set()
        for change in changes:
            live.alive_elsewhere(change.origin)
            if change.game_id == ALIVE:
                continue
            seats = {SEAT_LETTERS.index(letter) for letter in change.connected}
            live.connected_elsewhere(change.game_id, change.origin, seats)
            if live.table(change.game_id).subscribers:
                live.record(change.game_id, change.log_length, change.events)
            else:
                live.pass_over(change.game_id, change.log_length)
            if change.reaction is not None:
                await self.send_here(change.game_id, json.dumps(change.reaction))
            else:
                moved.add(change.game_id)
        for game_id in moved:
            if not live.table(game_id).subscribers:
                continue  # no socket of it here: nothing to send
            try:
                stored = await self.tables.load(game_id)
            except GameNotFound:
                continue
            if len(stored.game.log) > live.table(game_id).known_length:
                continue  # saved since, and its change is still to be heard: it will push then
            await self.push_here(stored)

    def feed(self) -> TableFeed:
        """This process's listener for the changes the other processes make to tables."""
        repository = self.tables.repository
        return TableFeed(repository.table_changes, repository.url, self.live.origin, self.hear)

    async def push_here(self, stored: StoredGame, *, skip: Subscriber | None = None) -> None:
        """Send each socket of the table this process holds (but ``skip``) its seat's update."""
        assert stored.seating is not None
        # Before the deal a seat is sent no events: it has seen none, and its first
        # update after the deal starts with the deal.
        length = len(stored.game.log) if Seating(stored.seating).started else 0
        subscribers = list(self.live.table(stored.id).subscribers)
        seating = Seating(stored.seating)
        for subscriber in subscribers:
            if subscriber is skip:
                continue
            if seating.caller(subscriber.token).seat != subscriber.seat:
                # The host freed this seat: its socket is no longer the seat's, and
                # must not be sent the cards of whoever takes it next.
                self.live.unsubscribe(stored.id, subscriber)
                with contextlib.suppress(Exception):
                    await subscriber.socket.close(code=4403, reason="The host freed your seat")
                continue
            caller = Caller(subscriber.host, subscriber.seat, subscriber.token)
            update = self.update(stored, caller, subscriber.seen)
            subscriber.seen = length
            try:
                await subscriber.socket.send_text(update.model_dump_json())
            except Exception:  # a socket closing as we write: its own handler tidies up
                log.debug("a table socket closed while being written to", exc_info=True)

    async def send_here(self, game_id: str, message: str) -> None:
        """Send ``message`` to every socket of the table this process holds."""
        for subscriber in list(self.live.table(game_id).subscribers):
            try:
                await subscriber.socket.send_text(message)
            except Exception:
                log.debug("a table socket closed while being written to", exc_info=True)

    def schedule(self, stored: StoredGame) -> None:
        """Set the table's next wake-up: when the person to act has been away for
        the table's wait, or their turn timer runs out."""
        live = self.live
        assert stored.seating is not None
        seating = Seating(stored.seating)
        game = stored.game
        seat = game.to_act
        if not seating.started or seat is None or seating.seat(seat).get("key") is None:
            live.wake_at(stored.id, None, _noop)
            return
        length = len(game.log)
        away = live.away_left(stored.id, seat, seating.away_seconds)
        if away is not None:
            live.wake_at(stored.id, away + 0.05, lambda: self._wake(stored.id, length, None))
        elif seating.turn_seconds:
            began = live.turn_started(stored.id, length, seat)
            delay = began + seating.turn_seconds - live.clock()
            live.wake_at(stored.id, delay, lambda: self._wake(stored.id, length, seat))
        else:
            live.wake_at(stored.id, None, _noop)

    async def _wake(self, game_id: str, length: int, timed_out: Seat | None) -> None:
        """A deadline passed: the stand-in plays what is now its to play."""
        tables = self.tables
        try:
            stored = await tables.load(game_id)
            if len(stored.game.log) != length:
                return  # someone moved meanwhile; that move set the next wake-up
            made = await tables.step_in(game_id, timed_out=timed_out)
            await self.publish(await tables.load(game_id), made)
        except (GameNotFound, StaleGameError):
            pass  # gone, or moved by another request at that very moment
        except Exception:
            log.exception("the stand-in could not play at table %s", game_id)


async def _noop() -> None:
    return None
