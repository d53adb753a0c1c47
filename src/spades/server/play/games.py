"""The web game's turns: load a game, apply South's intent, let the bots answer,
store the result.

The engine decides everything. After South acts, the bots play until it is
South's turn again or the game ends, and the public events of all of it are
returned for the page to animate.

Bots are rebuilt for every decision, seeded from the game seed, the seat and
the length of the game's event log (``session.decision_seed``). The stored
record fixes every past action, so nothing a bot remembers between moves is
needed to resume a game: the same record gives the same next moves, whether
the server ran on or restarted. The search levels' decisions are made by the
service's ``Decider``: by default a pool of processes on every core, so the
server's bots use the whole machine rather than queueing on one lock.

The intents are coroutines, run on the server's event loop. Work that thinks
(a search bot, the solver judging a claim) goes to a worker thread; the
engine and the quick bots take a fraction of a millisecond, less than the
hand-off to a thread and back, and stay on the loop (see docs/performance.md).
Every storage call goes to a worker thread: a database usually answers in a
fraction of a millisecond, but one held by another process (SQLite's write
lock) or across a socket (PostgreSQL) may not, and must not freeze every
other player while it waits (see docs/security.md).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final, TypeVar

from anyio import to_thread

from spades.bots import SEARCH_LEVELS, strongest_level
from spades.core import (
    CARDCOUCH,
    EAST,
    NORTH,
    SOUTH,
    WEST,
    BidProblem,
    BidReadError,
    BidSyntax,
    Event,
    Game,
    GameOverError,
    IllegalBidError,
    IllegalCardError,
    NotYourTurnError,
    Phase,
    Rule,
    Rules,
    Seeding,
    Undo,
    UndoError,
    parse_card,
    read_bid,
)
from spades.core.bids import MAX_BID
from spades.core.game import SEED_BITS
from spades.core.seats import SEAT_NAMES, TEAM_NAMES, Seat
from spades.core.seeding import SALT_HEX_DIGITS
from spades.session import Decider, InlineDecider, bot_move
from spades.storage import GameRepository, StoredGame

from ..http.limits import quote
from .claims import Verdict, judge_claim
from .hints import Hint, hint_level, suggest
from .levels import BadSettings, check_level, opponents_name, seat_levels
from .moments import Moment, after_claim, moments, state_now

HUMAN: Final = SOUTH
HUMAN_PLAYER: Final = "human"
MAX_BOT_TURNS: Final = 10_000
"""A guard only: a game is at most a few thousand moves."""


class GameNotFound(Exception):
    """No game with this id belongs to the caller."""


class GameInProgress(Exception):
    """No hand of the game is over: its record would hold nothing but hidden cards."""


def parse_bid_value(value: int | str) -> int:
    """A bid from the API: ``"nil"`` or a number; the engine checks the number's range.

    0 is refused here because the engine writes Nil as 0: Nil, a 100-point
    gamble, is only ever bid by name.
    """
    try:
        bid = read_bid(value, BidSyntax.JSON)
    except BidReadError as error:
        if error.problem is BidProblem.ZERO:
            raise IllegalBidError(
                '0 is not a bid: to promise to take no tricks, bid "nil"'
            ) from None
        # A quoted number too: the schema takes numbers as numbers, "3" is a typing slip to name.
        raise IllegalBidError(
            f'{quote(value)} is not a bid: send "nil" or a number from 1 to 13'
        ) from None
    # The engine says the same of a number over 13, but would repeat a 4,000-digit one;
    # and a negative number is no bid here, though the engine writes blind Nil as -1:
    # the API names it "blind_nil".
    if bid > MAX_BID or (type(value) is int and value < 0):
        raise IllegalBidError(f"A bid is Nil or a number from 1 to 13, not {quote(value)}")
    return bid


def parse_card_value(value: str) -> int:
    try:
        return parse_card(value)
    except ValueError as error:
        raise IllegalCardError(str(error), rule=Rule.CARD) from None


@dataclass(frozen=True, slots=True)
class IntentResult:
    """A game after an intent, with the events it caused."""

    stored: StoredGame
    events: list[Moment]


T = TypeVar("T")


async def run_off_loop_if(waits: bool, work: Callable[[], T]) -> T:
    """``work()``, in a worker thread when it ``waits`` (thinks, or waits on
    another server), else right here on the event loop."""
    return await to_thread.run_sync(work) if waits else work()


class GameService:
    """South's intents on stored games; every method takes the owner's key.

    The intents are coroutines for the server's event loop; see the module's
    docstring for what runs on it and what in a worker thread."""

    def __init__(
        self,
        repository: GameRepository,
        default_level: str | None = None,
        decider: Decider | None = None,
    ) -> None:
        self.repository = repository
        self.decider = decider or InlineDecider()
        """Where the bots' decisions are made (see ``spades.session.deciders``)."""
        self.default_level = check_level(default_level or strongest_level(), "new games")
        """The level bots play unless the player picks another: the strongest
        that answers within the decision budget, unless the server was told."""
        self.storage_waits = True
        """Whether reading or writing a game may wait: always, since even a
        local SQLite file waits while another process holds its write lock."""
        self.after_load: Callable[[], Awaitable[None]] | None = None
        """A test's hook (``server/http/held_requests.py``), awaited once a move's
        game is loaded and before the move is applied and saved: a test holds
        one request there to make another save the same game first."""

    @staticmethod
    def bots_think(levels: Iterable[str]) -> bool:
        """Whether any of these levels searches (tenths of a second a decision);
        the others decide in microseconds."""
        return any(level in SEARCH_LEVELS for level in levels)

    # ------------------------------------------------------------------ games

    async def new_game(
        self,
        owner: str,
        *,
        partner: str | None,
        opponents: str | None,
        seed: int | None,
        west: str | None = None,
        east: str | None = None,
        undo: bool = True,
        rules: Rules = CARDCOUCH,
    ) -> IntentResult:
        """A new game: North plays ``partner``, West and East ``opponents``
        unless ``west`` or ``east`` names another level for that seat."""
        both = check_level(opponents or self.default_level, "the opponents")
        levels = {
            NORTH: check_level(partner or self.default_level, "your partner"),
            WEST: check_level(west or both, "West"),
            EAST: check_level(east or both, "East"),
        }
        if seed is None:
            # A fair game: a secret seed, committed to now and revealed when it is over.
            seed = secrets.randbits(SEED_BITS)
            seeding = Seeding.commit(seed, secrets.token_hex(SALT_HEX_DIGITS // 2))
        else:
            seeding = Seeding.practice()  # the player knows the seed, so every hand
        game = Game(rules, seed=seed, players={**levels, HUMAN: HUMAN_PLAYER}, seeding=seeding)

        def deal() -> list[Moment]:
            return moments(state_now(game), game, game.log) + self.run_bots(game, levels)

        def store(events: list[Moment]) -> IntentResult:
            game_id = self.repository.create(
                owner,
                game,
                partner_level=levels[NORTH],
                opponent_level=opponents_name(west=levels[WEST], east=levels[EAST]),
                undo=undo,
            )
            stored = self.repository.load(owner, game_id)
            assert stored is not None
            return IntentResult(stored, events)

        if self.bots_think(levels.values()):
            return await to_thread.run_sync(lambda: store(deal()))
        events = deal()
        return await run_off_loop_if(self.storage_waits, lambda: store(events))

    async def load(self, owner: str, game_id: str) -> StoredGame:
        return await run_off_loop_if(self.storage_waits, lambda: self.load_now(owner, game_id))

    def load_now(self, owner: str, game_id: str) -> StoredGame:
        """``load`` for a caller already off the event loop (or sure it may block it)."""
        stored = self.repository.load(owner, game_id)
        if stored is None:
            raise GameNotFound(game_id)
        return stored

    async def latest(self, owner: str) -> StoredGame | None:
        """The game ``owner`` played most recently, if any."""
        return await run_off_loop_if(self.storage_waits, lambda: self.repository.latest(owner))

    # ---------------------------------------------------------------- intents

    async def bid(self, owner: str, game_id: str, value: int | str) -> IntentResult:
        stored = await self.load(owner, game_id)
        bid = parse_bid_value(value)
        return await self._act(owner, stored, lambda game: game.bid(HUMAN, bid))

    async def pass_cards(self, owner: str, game_id: str, values: list[str]) -> IntentResult:
        stored = await self.load(owner, game_id)
        cards = [parse_card_value(value) for value in values]
        return await self._act(owner, stored, lambda game: game.pass_cards(HUMAN, cards))

    async def play(self, owner: str, game_id: str, value: str) -> IntentResult:
        stored = await self.load(owner, game_id)
        card = parse_card_value(value)
        return await self._act(owner, stored, lambda game: game.play(HUMAN, card))

    async def undo(self, owner: str, game_id: str) -> tuple[IntentResult, Undo]:
        """Take back South's last bid or card of this hand and everything after it.

        Nothing is asked of the bots: they are rebuilt from the record at every
        turn and seeded by the position, so they know nothing of what was taken
        back, and should South make the same move again they answer as before."""
        stored = await self.load(owner, game_id)
        if not stored.undo:
            raise UndoError("Undo is off in this game (it was chosen when the game began)")
        undos: list[Undo] = []

        def undo(game: Game) -> list[Event]:
            undos.append(game.undo(HUMAN))
            return []

        return await self._act(owner, stored, undo), undos[0]

    async def claim(self, owner: str, game_id: str, tricks: int) -> tuple[IntentResult, Verdict]:
        """South claims ``tricks`` of the tricks left; see ``claims.judge_claim``."""
        stored = await self.load(owner, game_id)
        verdicts: list[Verdict] = []

        def claim(game: Game) -> list[Event]:
            before = state_now(game)
            verdicts.append(judge_claim(game, tricks))
            if verdicts[-1].event is not None:  # the hand's tricks are all taken at once
                verdicts[-1].event.after = after_claim(before, game)
            return verdicts[-1].events

        # The solver checks the claim against every defence: that is thinking.
        return await self._act(owner, stored, claim, thinks=True), verdicts[0]

    async def hint(self, owner: str, game_id: str) -> Hint:
        stored = await self.load(owner, game_id)
        game = stored.game
        verb = {Phase.BIDDING: "bid", Phase.PASSING: "pass cards"}.get(game.phase, "play")
        self._check_south_to_act(game, verb)
        view, seed = game.view(HUMAN), f"{game.seed}:hint:{len(game.log)}"
        # The hint asks the strongest level of the bots' decider (a search, in a
        # bot process); this thread only waits for it.
        return await to_thread.run_sync(lambda: suggest(view, seed=seed, decider=self.decider))

    async def _act(
        self,
        owner: str,
        stored: StoredGame,
        action: Callable[[Game], list[Event]],
        *,
        thinks: bool = False,
    ) -> IntentResult:
        """Apply ``action`` (South's intent; ``thinks`` when it searches), let
        the bots answer and store the game: the moves on the event loop when
        nothing thinks, else with the storing in one worker thread; the storing
        always in a worker thread."""
        if self.after_load is not None:
            await self.after_load()
        levels = seat_levels(stored.game, stored.partner_level, stored.opponent_level)

        def act() -> list[Moment]:
            game = stored.game
            before = state_now(game)
            events = moments(before, game, action(game))  # raises, changing nothing, when illegal
            return events + self.run_bots(game, levels)

        def store(events: list[Moment]) -> IntentResult:
            version = self.repository.save(owner, stored)
            return IntentResult(replace(stored, version=version), events)

        if thinks or self.bots_think(levels.values()):
            return await to_thread.run_sync(lambda: store(act()))
        events = act()
        return await run_off_loop_if(self.storage_waits, lambda: store(events))

    @staticmethod
    def _check_south_to_act(game: Game, verb: str) -> None:
        if game.outcome is not None:
            raise GameOverError(f"The game is over: {TEAM_NAMES[game.outcome.winner]} won")
        if game.to_act != HUMAN:
            assert game.to_act is not None
            raise NotYourTurnError(f"It is {SEAT_NAMES[game.to_act]}'s turn to {verb}")

    # ------------------------------------------------------------------- bots

    def run_bots(self, game: Game, levels: dict[Seat, str]) -> list[Moment]:
        """Let the bots act until it is South's turn or the game is over."""
        events: list[Moment] = []
        decide = self.decider.until(time.monotonic() + self.decider.budget)
        for _ in range(MAX_BOT_TURNS):
            before = state_now(game)
            made = bot_move(game, levels, decide)
            if made is None:
                return events
            events += moments(before, game, made)
        raise RuntimeError("the bots did not hand the turn back to South")


__all__ = [
    "BadSettings",
    "GameInProgress",
    "GameNotFound",
    "GameService",
    "IntentResult",
    "hint_level",
]
