"""The request and response bodies of games with friends: a table, its seats,
joining, reactions, and the update each seat is sent (over HTTP or the socket)."""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, Field, StrictInt, StrictStr

from spades.core.seats import SeatLetter

from ..play.schemas import MAX_LEVEL_LENGTH, MAX_RULES_LENGTH, GameEvent, GameState, Request

SeatChoice = Annotated[
    StrictStr,
    Field(
        max_length=MAX_LEVEL_LENGTH,
        description='"person" for a seat a friend takes, or a bot level (see /api/levels).',
    ),
]
MAX_NAME_LENGTH: Final = 64
"""The schema's bound on a display name's length; the table checks it against its own rule."""


class NewTableRequest(Request):
    """A table to play with friends: who sits where, the rules, how long to wait."""

    seats: dict[SeatLetter, SeatChoice] = Field(
        description='Each seat: "person" or a bot level; a seat left out is a person\'s.',
        examples=[{"N": "person", "E": "normal", "S": "person", "W": "normal"}],
    )
    host_seat: SeatLetter | None = Field(
        default=None, description="The person's seat you take yourself (leave out to only host)."
    )
    name: Annotated[StrictStr, Field(max_length=MAX_NAME_LENGTH)] | None = Field(
        default=None, description="Your display name, with host_seat: all that is kept of you."
    )
    rules: StrictStr = Field(
        default="cardcouch",
        max_length=MAX_RULES_LENGTH,
        description="House rules in the short syntax of --rules (docs/rules.md).",
    )
    stand_in: Annotated[StrictStr, Field(max_length=MAX_LEVEL_LENGTH)] | None = Field(
        default=None,
        description="The bot level that plays a person's seat while they are away, "
        "and the seats no one took (default: the server's level).",
    )
    away_seconds: StrictInt = Field(
        default=60,
        ge=5,
        le=900,
        description="How long an away person's seat waits before the stand-in plays it.",
    )
    turn_seconds: StrictInt | None = Field(
        default=None,
        ge=5,
        le=600,
        description="The turn timer: seconds a person has for a bid or a card before the "
        "stand-in makes it (leave out for none).",
    )


class JoinRequest(Request):
    seat: SeatLetter
    invite: Annotated[StrictStr, Field(max_length=64)] = Field(description="From the invite link.")
    name: Annotated[StrictStr, Field(max_length=MAX_NAME_LENGTH)] = Field(
        description="The name the others see: up to 24 letters, digits, spaces and . , ' & ( ) ! ? -"
    )


REACTIONS: Final = ("nice", "oops", "wow", "thanks", "hurry")
"""The quick reactions, all there is to say at a table: no chat."""


class ReactionRequest(Request):
    reaction: Literal["nice", "oops", "wow", "thanks", "hurry"]


class TableSeat(BaseModel):
    seat: SeatLetter
    kind: Literal["person", "bot"]
    name: str | None = Field(description="The person's display name, once someone took the seat.")
    level: str | None = Field(description="The bot's level, for a bot's seat.")
    connected: bool = Field(description="The person has the table open now.")
    away_seconds_left: float | None = Field(
        description="While the person is away: seconds before the stand-in plays for them "
        "(0: it does now)."
    )
    stood_in: bool = Field(description="A bot plays this person's seat for now.")


class TableInfo(BaseModel):
    """The table: its seats and who has joined. Names and levels only: no cards."""

    id: str
    started: bool
    host: bool = Field(description="You are the host.")
    you: SeatLetter | None = Field(description="Your seat, once you took one.")
    seats: list[TableSeat]
    invites: dict[SeatLetter, str] = Field(
        description="For the host: the invite link of each person's seat nobody took yet."
    )
    rules: str
    rules_summary: str
    stand_in: str
    away_seconds: int
    turn_seconds: int | None
    turn_seconds_left: float | None = Field(
        description="With a turn timer: seconds left for the seat to act."
    )
    played_by: list[dict[SeatLetter, list[str]]] = Field(
        description="Hand by hand, who made each seat's moves (a name, a level, "
        'or "level for name" while a bot stood in).'
    )


class TableUpdate(BaseModel):
    """What a seat is sent: its own view of the game, the public events it has
    not seen, and the table. The same over the WebSocket and the polling route."""

    type: Literal["update"] = "update"
    table: TableInfo
    game: GameState | None = Field(description="Your view of the game, once it has started.")
    events: list[GameEvent] = Field(description="The events since the one you saw last.")
    log: int = Field(description="How many events the game has had: send it back as since.")
    resync: bool = Field(
        default=False,
        description="Some events since yours were not kept (the server restarted): draw "
        "the game as it stands.",
    )


class ReactionMessage(BaseModel):
    type: Literal["reaction"] = "reaction"
    seat: SeatLetter
    name: str
    reaction: str
