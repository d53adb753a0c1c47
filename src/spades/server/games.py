"""The web game's turns: load a game, apply South's intent, let the bots answer,
store the result.

The engine decides everything. After South acts, the bots play until it is
South's turn again or the game ends, and the public events of all of it are
returned for the page to animate.

Bots are rebuilt for every decision, seeded from the game seed, the seat and
the length of the game's event log. The stored record fixes every past action,
so nothing a bot remembers between moves is needed to resume a game: the same
record gives the same next moves, whether the server ran on or restarted.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from spades.bots import BotFailure, interactive_processes, make_bot, strongest_level
from spades.core import (
    EAST,
    NIL,
    NORTH,
    SOUTH,
    WEST,
    Event,
    Game,
    GameOverError,
    IllegalActionError,
    IllegalBidError,
    IllegalCardError,
    NotYourTurnError,
    Phase,
    Seeding,
    Undo,
    UndoError,
    parse_card,
)
from spades.core.game import SEED_BITS
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES, TEAM_NAMES, Seat
from spades.core.seeding import SALT_HEX_DIGITS
from spades.storage import GameRepository, StoredGame

from .claims import Verdict, judge_claim
from .hints import Hint, hint_level, suggest
from .levels import BadSettings, check_level, opponents_name, seat_levels
from .limits import quote

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
    if isinstance(value, str):
        if value.strip().lower() == "nil":
            return NIL
        raise IllegalBidError(f'{quote(value)} is not a bid: send "nil" or a number from 1 to 13')
    if value == NIL:
        raise IllegalBidError('0 is not a bid: to promise to take no tricks, bid "nil"')
    if not 1 <= value <= 13:  # the engine says the same, but would repeat a 4,000-digit number
        raise IllegalBidError(f"A bid is Nil or a number from 1 to 13, not {quote(value)}")
    return value


def parse_card_value(value: str) -> int:
    try:
        return parse_card(value)
    except ValueError as error:
        raise IllegalCardError(str(error), rule="card") from None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A game after an intent, with the events it caused."""

    stored: StoredGame
    events: list[Event]


class GameService:
    """South's intents on stored games; every method takes the owner's key."""

    def __init__(self, repository: GameRepository, default_level: str | None = None) -> None:
        self.repository = repository
        self.default_level = check_level(default_level or strongest_level(), "new games")
        """The level bots play unless the player picks another: the strongest
        that answers within the decision budget, unless the server was told."""

    # ------------------------------------------------------------------ games

    def new_game(
        self,
        owner: str,
        *,
        partner: str | None,
        opponents: str | None,
        seed: int | None,
        west: str | None = None,
        east: str | None = None,
        undo: bool = True,
    ) -> Outcome:
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
        game = Game(seed=seed, players={**levels, HUMAN: HUMAN_PLAYER}, seeding=seeding)
        events = list(game.log)  # the first deal
        events += self.run_bots(game, levels)
        game_id = self.repository.create(
            owner,
            game,
            partner_level=levels[NORTH],
            opponent_level=opponents_name(west=levels[WEST], east=levels[EAST]),
            undo=undo,
        )
        stored = self.repository.load(owner, game_id)
        assert stored is not None
        return Outcome(stored, events)

    def load(self, owner: str, game_id: str) -> StoredGame:
        stored = self.repository.load(owner, game_id)
        if stored is None:
            raise GameNotFound(game_id)
        return stored

    # ---------------------------------------------------------------- intents

    def bid(self, owner: str, game_id: str, value: int | str) -> Outcome:
        stored = self.load(owner, game_id)
        bid = parse_bid_value(value)
        return self._act(owner, stored, lambda game: game.bid(HUMAN, bid))

    def play(self, owner: str, game_id: str, value: str) -> Outcome:
        stored = self.load(owner, game_id)
        card = parse_card_value(value)
        return self._act(owner, stored, lambda game: game.play(HUMAN, card))

    def undo(self, owner: str, game_id: str) -> tuple[Outcome, Undo]:
        """Take back South's last bid or card of this hand and everything after it.

        Nothing is asked of the bots: they are rebuilt from the record at every
        turn and seeded by the position, so they know nothing of what was taken
        back, and should South make the same move again they answer as before."""
        stored = self.load(owner, game_id)
        if not stored.undo:
            raise UndoError("Undo is off in this game (it was chosen when the game began)")
        undos: list[Undo] = []

        def undo(game: Game) -> list[Event]:
            undos.append(game.undo(HUMAN))
            return []

        return self._act(owner, stored, undo), undos[0]

    def claim(self, owner: str, game_id: str, tricks: int) -> tuple[Outcome, Verdict]:
        """South claims ``tricks`` of the tricks left; see ``claims.judge_claim``."""
        stored = self.load(owner, game_id)
        verdicts: list[Verdict] = []

        def claim(game: Game) -> list[Event]:
            verdicts.append(judge_claim(game, tricks))
            return verdicts[-1].events

        return self._act(owner, stored, claim), verdicts[0]

    def hint(self, owner: str, game_id: str) -> Hint:
        stored = self.load(owner, game_id)
        game = stored.game
        self._check_south_to_act(game, "bid" if game.phase is Phase.BIDDING else "play")
        return suggest(game.view(HUMAN), seed=f"{game.seed}:hint:{len(game.log)}")

    def _act(
        self, owner: str, stored: StoredGame, action: Callable[[Game], list[Event]]
    ) -> Outcome:
        game = stored.game
        events = action(game)  # raises, changing nothing, when illegal
        events += self.run_bots(
            game, seat_levels(game, stored.partner_level, stored.opponent_level)
        )
        version = self.repository.save(owner, stored)
        return Outcome(replace(stored, version=version), events)

    @staticmethod
    def _check_south_to_act(game: Game, verb: str) -> None:
        if game.outcome is not None:
            raise GameOverError(f"The game is over: {TEAM_NAMES[game.outcome.winner]} won")
        if game.to_act != HUMAN:
            assert game.to_act is not None
            raise NotYourTurnError(f"It is {SEAT_NAMES[game.to_act]}'s turn to {verb}")

    # ------------------------------------------------------------------- bots

    @staticmethod
    def run_bots(game: Game, levels: dict[Seat, str]) -> list[Event]:
        """Let the bots act until it is South's turn or the game is over."""
        events: list[Event] = []
        for _ in range(MAX_BOT_TURNS):
            seat = game.to_act
            if seat is None or seat == HUMAN:
                return events
            bot = make_bot(
                levels[seat],
                seed=f"{game.seed}:{SEAT_LETTERS[seat]}:{len(game.log)}",
                processes=interactive_processes(),
            )
            bot.start_game(seat, game.rules)
            view = game.view(seat)  # a bot is only ever told what its seat may know
            try:
                if game.phase is Phase.BIDDING:
                    events += game.bid(seat, bot.bid(view))
                else:
                    events += game.play(seat, bot.play(view))
            except IllegalActionError as error:
                events += game.forfeit(seat, f"{SEAT_NAMES[seat]} made an illegal move: {error}")
            except BotFailure as failure:
                events += game.forfeit(seat, f"{SEAT_NAMES[seat]} forfeits: {failure}")
            finally:
                bot.close()
        raise RuntimeError("the bots did not hand the turn back to South")


__all__ = [
    "BadSettings",
    "GameInProgress",
    "GameNotFound",
    "GameService",
    "Outcome",
    "hint_level",
]
