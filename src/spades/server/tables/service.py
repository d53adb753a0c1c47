"""Games with friends: a table whose seats are people or bots.

The host picks who sits where (a person, or a bot level) and the house rules,
and gets an invite link for each person's seat. Whoever opens a link and gives
a display name takes the seat. Each person is known by a secret in an
HttpOnly cookie scoped to the table's API; the database keeps its hash only,
beside the name, in the game row's ``seating``:

    {"host": <hash>, "started": false, "stand_in": "normal",
     "away_seconds": 60, "turn_seconds": null,
     "seats": {"N": {"bot": "normal"},
               "S": {"person": true, "name": "Ann", "key": <hash>}, ...},
     "played_by": [{"N": ["normal"], "S": ["Ann", "normal for Ann"], ...}, ...]}

An invite is an HMAC of the seat under the host's secret: only the host (who
holds the secret) can show the links, the row keeps each invite's hash to check
it, and a seat's invite is spent once someone has taken it: it then opens
nothing, as a wrong one.

Every view a seat is sent is built from that seat's ``PlayerView``; the events
are the public ones. While a person is away a bot (the table's stand-in
level) plays their seat once the wait is over, and the person takes it back by
coming back; ``played_by`` keeps, hand by hand, who made each seat's moves.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from spades.core import (
    CARDCOUCH,
    Event,
    Game,
    GameOverError,
    HandScored,
    NotYourTurnError,
    Phase,
    Rules,
    Seeding,
)
from spades.core.game import SEED_BITS
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES, SEATS, TEAM_NAMES, Seat, parse_seat
from spades.core.seeding import SALT_HEX_DIGITS
from spades.session import bot_move
from spades.storage import StoredGame, owner_key

from ..play.games import (
    MAX_BOT_TURNS,
    GameNotFound,
    GameService,
    parse_bid_value,
    parse_card_value,
    run_off_loop_if,
)
from ..play.levels import check_level
from ..play.moments import Moment, moments, state_now

TABLE_OWNER: Final = "table"
"""The owner column of a game with friends: no cookie hashes to it, so the
single-player routes never reach such a game."""
INVITE_CHARS: Final = 22
NAME_PATTERN: Final = re.compile(r"[\w .,'&()!?-]{1,24}")
MAX_NAME: Final = 24
PERSON: Final = "person"


class TableError(Exception):
    """A request about a table that cannot be granted: ``status`` and ``rule``
    say how the API answers it."""

    def __init__(self, status: int, message: str, rule: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule


def check_name(name: str) -> str:
    """A display name as it will be shown: trimmed, letters, digits, spaces and
    a little punctuation, at most 24 characters."""
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not name:
        raise TableError(422, "Give a name the others will see (up to 24 characters).", "name")
    if len(name) > MAX_NAME or NAME_PATTERN.fullmatch(name) is None:
        raise TableError(
            422,
            "A name is up to 24 letters, digits, spaces and simple punctuation "
            "(. , ' & ( ) ! ? -).",
            "name",
        )
    return name


def invite_for(host_token: str, nonce: str, seat: Seat, round_: int = 0) -> str:
    """The invite of ``seat`` at the table ``nonce`` names: only the host's secret
    makes it. Each time the host frees the seat its invite is a new one (``round_``),
    so the link of the person who left opens nothing."""
    message = f"{nonce}:{SEAT_LETTERS[seat]}" + (f":{round_}" if round_ else "")
    digest = hmac.new(host_token.encode(), message.encode(), hashlib.sha256).hexdigest()
    return digest[:INVITE_CHARS]


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks about a table: the host, a seated person, both or neither."""

    host: bool
    seat: Seat | None
    token: str | None


@dataclass(frozen=True, slots=True)
class Seating:
    """The ``seating`` of a stored game, read."""

    data: dict[str, Any]

    @property
    def started(self) -> bool:
        return bool(self.data.get("started"))

    @property
    def stand_in(self) -> str:
        return str(self.data["stand_in"])

    @property
    def away_seconds(self) -> int:
        return int(self.data["away_seconds"])

    @property
    def turn_seconds(self) -> int | None:
        value = self.data.get("turn_seconds")
        return None if value is None else int(value)

    def seat(self, seat: Seat) -> dict[str, Any]:
        return self.data["seats"][SEAT_LETTERS[seat]]  # type: ignore[no-any-return]

    def is_person(self, seat: Seat) -> bool:
        return bool(self.seat(seat).get(PERSON))

    def name(self, seat: Seat) -> str | None:
        name = self.seat(seat).get("name")
        return None if name is None else str(name)

    def bot_level(self, seat: Seat) -> str | None:
        level = self.seat(seat).get("bot")
        return None if level is None else str(level)

    def invite_round(self, seat: Seat) -> int:
        """How many times the host has freed ``seat`` (its invite is remade each time)."""
        return int(self.data.get("invite_rounds", {}).get(SEAT_LETTERS[seat], 0))

    def people(self) -> list[Seat]:
        return [seat for seat in SEATS if self.is_person(seat)]

    def caller(self, token: str | None) -> Caller:
        if token is None:
            return Caller(False, None, None)
        key = owner_key(token)
        host = hmac.compare_digest(key, self.data["host"])
        seat = next(
            (s for s in SEATS if hmac.compare_digest(str(self.seat(s).get("key") or ""), key)),
            None,
        )
        return Caller(host, seat, token)

    def player_names(self) -> dict[Seat, str]:
        """Who plays each seat, as a view names them: the person, else the level."""
        names: dict[Seat, str] = {}
        for seat in SEATS:
            level = self.bot_level(seat)
            names[seat] = level if level is not None else (self.name(seat) or "open seat")
        return names


def new_seating(
    *,
    host_token: str,
    seats: dict[Seat, str],
    stand_in: str,
    away_seconds: int,
    turn_seconds: int | None,
) -> dict[str, Any]:
    """The seating of a new table: ``seats`` names a bot level or ``"person"`` for each seat."""
    nonce = secrets.token_hex(8)
    return {
        "host": owner_key(host_token),
        "nonce": nonce,
        "invites": {
            SEAT_LETTERS[seat]: owner_key(invite_for(host_token, nonce, seat))
            for seat, who in seats.items()
            if who == PERSON
        },
        "started": False,
        "stand_in": stand_in,
        "away_seconds": away_seconds,
        "turn_seconds": turn_seconds,
        "seats": {
            SEAT_LETTERS[seat]: {PERSON: True, "name": None, "key": None}
            if who == PERSON
            else {"bot": who}
            for seat, who in seats.items()
        },
        "played_by": [],
    }


class TableService:
    """Tables on the game store: create, join, start, and each seat's moves.

    ``stood_in(game_id, seat, away_seconds)`` (from the live hub) says whether
    a bot plays a person's seat for now: the person has been away longer than
    the table's wait."""

    def __init__(self, games: GameService, stood_in: Callable[[str, Seat, int], bool]) -> None:
        self.games = games
        self.repository = games.repository
        self.stood_in = stood_in

    # ---------------------------------------------------------------- setting up

    async def create(
        self,
        host_token: str,
        *,
        seats: dict[str, str],
        rules: Rules = CARDCOUCH,
        host_seat: str | None,
        name: str | None,
        stand_in: str | None,
        away_seconds: int,
        turn_seconds: int | None,
        owner: str | None = None,
    ) -> StoredGame:
        """A new table; the host takes ``host_seat`` as ``name`` when given one
        (and ``owner``, the host's owner key, counts the game from it)."""
        chosen: dict[Seat, str] = {}
        for letter in ("N", "E", "S", "W"):
            who = seats.get(letter, PERSON)
            seat = parse_seat(letter)
            chosen[seat] = who if who == PERSON else check_level(who, SEAT_NAMES[seat])
        level = check_level(stand_in or self.games.default_level, "the stand-in")
        seating = new_seating(
            host_token=host_token,
            seats=chosen,
            stand_in=level,
            away_seconds=away_seconds,
            turn_seconds=turn_seconds,
        )
        if host_seat is not None:
            seat = parse_seat(host_seat)
            if chosen[seat] != PERSON:
                raise TableError(
                    422, f"{SEAT_NAMES[seat]} is a bot's seat: sit in a person's seat.", "seat"
                )
            if name is None:
                raise TableError(422, "Give your name to take your seat.", "name")
            seating["seats"][SEAT_LETTERS[seat]].update(
                name=check_name(name), key=owner_key(host_token)
            )
        seed = secrets.randbits(SEED_BITS)
        seeding = Seeding.commit(seed, secrets.token_hex(SALT_HEX_DIGITS // 2))
        game = Game(rules, seed=seed, seeding=seeding, players=Seating(seating).player_names())

        def store() -> StoredGame:
            game_id = self.repository.create(
                TABLE_OWNER,
                game,
                partner_level="table",
                opponent_level="table",
                undo=False,
                seating=seating,
            )
            stored = self.repository.load(TABLE_OWNER, game_id)
            assert stored is not None
            if owner is not None and host_seat is not None:
                self.repository.link_seat(owner, game_id, SEAT_LETTERS[parse_seat(host_seat)])
            return stored

        return await run_off_loop_if(self.games.storage_waits, store)

    async def load(self, game_id: str) -> StoredGame:
        stored = await run_off_loop_if(
            self.games.storage_waits, lambda: self.repository.load(TABLE_OWNER, game_id)
        )
        if stored is None or stored.seating is None:
            raise GameNotFound(game_id)
        return stored

    async def join(
        self,
        game_id: str,
        *,
        seat_letter: str,
        invite: str,
        name: str,
        token: str,
        owner: str | None = None,
    ) -> StoredGame:
        """Take the seat ``invite`` opens, as ``name``; ``token`` becomes its secret,
        and ``owner`` (the player's owner key) counts the game from the seat."""
        stored = await self.load(game_id)
        assert stored.seating is not None
        seating = Seating(stored.seating)
        seat = parse_seat(seat_letter)
        taken = seating.seat(seat)
        key = taken.get("key")
        if (
            taken.get(PERSON)
            and key is not None
            and hmac.compare_digest(str(key), owner_key(token))
        ):
            # This browser has the seat already: joining again changes nothing
            # (but links the seat, should an earlier join have stopped short of it).
            await self._link(owner, game_id, seat)
            return stored
        if not taken.get(PERSON) or not self.invite_opens(stored, seat, invite):
            # A wrong invite, or one spent already, learns nothing about the table.
            raise GameNotFound(game_id)
        if seating.caller(token).seat is not None:
            raise TableError(409, "You already have a seat at this table.", "seated")
        data = _copy(stored.seating)
        data["seats"][SEAT_LETTERS[seat]].update(name=check_name(name), key=owner_key(token))
        if seating.started:  # a seat nobody had taken: the bot keeping it steps aside
            stored.game.players[seat] = str(data["seats"][SEAT_LETTERS[seat]]["name"])
        saved = await self._save(replace(stored, seating=data))
        await self._link(owner, game_id, seat)
        return saved

    async def _link(self, owner: str | None, game_id: str, seat: Seat) -> None:
        if owner is not None:
            await run_off_loop_if(
                self.games.storage_waits,
                lambda: self.repository.link_seat(owner, game_id, SEAT_LETTERS[seat]),
            )

    def invite_opens(self, stored: StoredGame, seat: Seat, invite: str) -> bool:
        """Whether ``invite`` is ``seat``'s and unspent: its hash is kept when
        the host makes the table's invites (``invites``), checked in constant
        time; once someone has taken the seat it opens nothing (not the
        table's names, presence or ``played_by``, nor the seat)."""
        assert stored.seating is not None
        if Seating(stored.seating).seat(seat).get("key") is not None:
            return False  # spent: the link may have been passed on, or overheard
        kept = stored.seating.get("invites", {}).get(SEAT_LETTERS[seat])
        return kept is not None and hmac.compare_digest(kept, owner_key(invite))

    def invites(self, stored: StoredGame, host_token: str) -> dict[str, str]:
        """The invites of the person seats nobody has taken (for the host)."""
        assert stored.seating is not None
        seating = Seating(stored.seating)
        return {
            SEAT_LETTERS[seat]: invite_for(
                host_token, str(stored.seating["nonce"]), seat, seating.invite_round(seat)
            )
            for seat in seating.people()
            if seating.seat(seat).get("key") is None
        }

    async def free_seat(self, game_id: str, caller: Caller, seat_letter: str) -> StoredGame:
        """The host gives back the seat of a person who left for good: the stand-in
        plays it, and it has a new invite for someone else (the old link, and the
        cookie of the person who left, open nothing)."""
        stored = await self.load(game_id)
        assert stored.seating is not None
        if not caller.host or caller.token is None:
            raise TableError(403, "Only the host frees a seat.", "host")
        seating = Seating(stored.seating)
        seat = parse_seat(seat_letter)
        name = SEAT_NAMES[seat]
        if not seating.is_person(seat):
            raise TableError(409, f"{name} is a bot's seat: there is nobody to free it of.", "seat")
        if seating.seat(seat).get("key") is None:
            raise TableError(409, f"{name} is open already: send its invite link.", "seat")
        if caller.seat == seat:
            raise TableError(409, "That is your own seat: the host keeps theirs.", "seat")
        data = _copy(stored.seating)
        letter = SEAT_LETTERS[seat]
        round_ = seating.invite_round(seat) + 1
        data["invite_rounds"] = {**data.get("invite_rounds", {}), letter: round_}
        invite = invite_for(caller.token, str(data["nonce"]), seat, round_)
        data["invites"][letter] = owner_key(invite)
        data["seats"][letter].update(name=None, key=None)
        if seating.started:  # the stand-in keeps it until someone joins
            stored.game.players[seat] = Seating(data).player_names()[seat]
        saved = await self._save(replace(stored, seating=data))
        # The one who left no longer counts the game; whoever takes the seat will.
        await run_off_loop_if(
            self.games.storage_waits, lambda: self.repository.unlink_seat(game_id, letter)
        )
        return saved

    async def start(self, game_id: str, caller: Caller) -> list[Moment]:
        """The host deals: bots play the seats that are theirs, and hold a
        person's seat nobody has taken until someone does."""
        stored = await self.load(game_id)
        assert stored.seating is not None
        if not caller.host:
            raise TableError(403, "Only the host starts the game.", "host")
        if Seating(stored.seating).started:
            raise TableError(409, "The game has started already.", "started")
        data = _copy(stored.seating)
        data["started"] = True
        game = stored.game
        game.players.update(Seating(data).player_names())
        events = moments(state_now(game), game, game.log)  # the first deal
        _note_players(data, game, game.log)
        return await self._advance(replace(stored, seating=data), events)

    # ------------------------------------------------------------------- moves

    async def bid(self, game_id: str, caller: Caller, value: int | str) -> list[Moment]:
        bid = parse_bid_value(value)
        return await self._act(game_id, caller, lambda game, seat: game.bid(seat, bid))

    async def pass_cards(self, game_id: str, caller: Caller, values: list[str]) -> list[Moment]:
        cards = [parse_card_value(value) for value in values]
        return await self._act(game_id, caller, lambda game, seat: game.pass_cards(seat, cards))

    async def play(self, game_id: str, caller: Caller, value: str) -> list[Moment]:
        card = parse_card_value(value)
        return await self._act(game_id, caller, lambda game, seat: game.play(seat, card))

    async def step_in(self, game_id: str, *, timed_out: Seat | None = None) -> list[Moment]:
        """Let the bots play every seat that is theirs now (a person away past
        the wait); with ``timed_out``, the stand-in also makes that seat's one
        move whose timer ran out. Nothing happens if no bot is to act."""
        stored = await self.load(game_id)
        assert stored.seating is not None
        if not Seating(stored.seating).started:
            return []
        data = _copy(stored.seating)
        events: list[Moment] = []
        game = stored.game
        if timed_out is not None and game.to_act == timed_out and not game.is_over:
            level = Seating(data).stand_in
            events += self._bot_moves(game, data, {timed_out: level}, once=True)
        return await self._advance(replace(stored, seating=data), events)

    async def _act(
        self, game_id: str, caller: Caller, action: Callable[[Game, Seat], list[Event]]
    ) -> list[Moment]:
        stored = await self.load(game_id)
        assert stored.seating is not None
        if caller.seat is None:
            raise GameNotFound(game_id)
        if not Seating(stored.seating).started:
            raise TableError(409, "The host has not started the game yet.", "not-started")
        game = stored.game
        if game.is_over:
            raise GameOverError(f"The game is over: {TEAM_NAMES[game.outcome.winner]} won")  # type: ignore[union-attr]
        if game.to_act != caller.seat:
            turn = "no one's" if game.to_act is None else f"{SEAT_NAMES[game.to_act]}'s"
            raise NotYourTurnError(f"It is {turn} turn, not yours")
        data = _copy(stored.seating)
        before = state_now(game)
        made = action(game, caller.seat)  # raises, changing nothing, when illegal
        _note_players(data, game, made, who={caller.seat: Seating(data).name(caller.seat) or "?"})
        return await self._advance(replace(stored, seating=data), moments(before, game, made))

    async def _advance(self, stored: StoredGame, events: list[Moment]) -> list[Moment]:
        """Let the bots answer, then store the game with its seating."""
        assert stored.seating is not None
        seating = Seating(stored.seating)
        bots = {seat: level for seat in SEATS if (level := self._bot_for(stored, seating, seat))}

        def advance_and_store() -> list[Moment]:
            assert stored.seating is not None
            events.extend(self._bot_moves(stored.game, stored.seating, bots))
            self.repository.save(TABLE_OWNER, stored)
            return events

        waits = self.games.storage_waits or self.games.bots_think(bots.values())
        return await run_off_loop_if(waits, advance_and_store)

    def _bot_for(self, stored: StoredGame, seating: Seating, seat: Seat) -> str | None:
        """The level playing ``seat`` now, if a bot does."""
        level = seating.bot_level(seat)
        if level is not None:
            return level
        away = self.stood_in(stored.id, seat, seating.away_seconds)
        if seating.seat(seat).get("key") is None or away:
            return seating.stand_in  # nobody took the seat, or its person is away
        return None

    def _bot_moves(
        self, game: Game, data: dict[str, Any], bots: dict[Seat, str], *, once: bool = False
    ) -> list[Moment]:
        """The bots' moves while it is a bot's turn (or just one, ``once``)."""
        seating = Seating(data)
        events: list[Moment] = []
        decider = self.games.decider
        decide = decider.until(time.monotonic() + decider.budget)
        for _ in range(MAX_BOT_TURNS):
            seat, before = game.to_act, state_now(game)
            made = bot_move(game, bots, decide)
            if made is None or seat is None:
                break
            level = bots[seat]
            person = seating.name(seat) if seating.bot_level(seat) is None else None
            label = level if person is None else f"{level} for {person}"
            _note_players(data, game, made, who={seat: label})
            events += moments(before, game, made)
            if once:
                break
        return events

    async def _save(self, stored: StoredGame) -> StoredGame:
        def save() -> StoredGame:
            version = self.repository.save(TABLE_OWNER, stored)
            return replace(stored, version=version)

        return await run_off_loop_if(self.games.storage_waits, save)


def _copy(seating: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a seating (plain JSON), so a refused move changes nothing kept."""
    return {
        **seating,
        "seats": {letter: dict(seat) for letter, seat in seating["seats"].items()},
        "played_by": [
            {letter: list(names) for letter, names in hand.items()}
            for hand in seating.get("played_by", [])
        ],
        "invites": dict(seating.get("invites", {})),
    }


def _note_players(
    data: dict[str, Any], game: Game, events: list[Event], who: dict[Seat, str] | None = None
) -> None:
    """Write into ``played_by`` who made a move for a seat in the hand it was made in."""
    hands: list[dict[str, list[str]]] = data.setdefault("played_by", [])
    number = game.hand_number
    # A move that ends a hand belongs to that hand, though the next one is dealt already.
    scored = any(isinstance(event, HandScored) for event in events)
    hand = number - 1 if scored and game.phase is Phase.BIDDING and not game.is_over else number
    while len(hands) < max(hand, 1):
        hands.append({})
    for seat, name in (who or {}).items():
        names = hands[hand - 1].setdefault(SEAT_LETTERS[seat], [])
        if name not in names:
            names.append(name)
