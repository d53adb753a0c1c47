"""A day's deals: the first hands its committed seed deals, each played as
one hand from 0-0, as in duplicate.

Deal ``n`` of a day is the ``n``-th deal ``seeded_deals(seed)`` gives (the
dealer rotating clockwise from the first, as in a game from that seed), so a
day's deals are checked against its commitment exactly as a fair game's are.
Each is played as a game of its own that stops once that hand is scored: every
player, and the par, meets the same cards, dealer and score (0-0, no bags).

A deal's record names the day and the deal (``"challenge"``), never the day's
seed: its game seed, which seeds the bots, is a one-way hash of the day's seed
and the deal, so a record shown while the day is open gives away no other deal.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from spades.core import (
    CARDCOUCH,
    NS,
    Game,
    RecordError,
    Rule,
    Seat,
    commitment,
    game_to_record,
    seeded_deals,
    team_of,
)
from spades.core.seats import SEAT_NAMES

from .days import parse_day

RULES: Final = CARDCOUCH
"""Every challenge deal is played under the product's default rules."""
MARK: Final = "challenge"
"""The key of a deal record's challenge mark."""

Deal = tuple[Seat, tuple[int, int, int, int]]
"""A deal: its dealer and the four hands (N, E, S, W masks)."""


def day_deals(seed: int, count: int) -> list[Deal]:
    """The first ``count`` deals of ``seed``: a day's deals, in order."""
    return list(itertools.islice(seeded_deals(seed), count))


def deal_seed(seed: int, number: int) -> int:
    """The game seed of deal ``number`` (it seeds the bots): a 63-bit hash of
    the day's seed and the deal, from which the day's seed cannot be worked back.

    >>> deal_seed(7, 1) == deal_seed(7, 1) != deal_seed(7, 2)
    True
    """
    digest = hashlib.blake2b(f"challenge:{seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def deal_game(seed: int, number: int, players: Mapping[Seat, str]) -> Game:
    """A new one-hand game of deal ``number`` of the day whose seed is ``seed``."""
    dealt = day_deals(seed, number)[number - 1]
    return Game(RULES, seed=deal_seed(seed, number), preset_deals=[dealt], players=players)


def deal_over(game: Game) -> bool:
    """Whether the deal's one hand is over: scored, or the game forfeited."""
    return bool(game.history) or game.is_over


def north_south_score(game: Game) -> int:
    """North-South's score for the deal. A side that forfeited before the hand
    was scored counts the rules' floor (-200, where a game is lost) and the
    other side 0, as the arena's duplicate tables do."""
    if game.history:
        return game.history[0].scores[NS].delta
    assert game.forfeited_by is not None, "a deal ends scored or forfeited"
    floor = game.rules.floor if game.rules.floor is not None else -game.rules.target
    return floor if team_of(game.forfeited_by[0]) == NS else 0


def deal_record(game: Game, day: date, number: int, day_commitment: str) -> dict[str, Any]:
    """The record of a deal's game: its one hand (not the next one the engine
    has dealt already, which no one plays), marked with the day and the deal."""
    record = game_to_record(game)
    record["hands"] = record["hands"][:1]
    record[MARK] = {"day": day.isoformat(), "deal": number, "commitment": day_commitment}
    return record


@dataclass(frozen=True, slots=True)
class DealMark:
    """Where a deal record's hand comes from: deal ``deal`` of ``day``."""

    day: date
    deal: int
    commitment: str


def deal_mark(record: Mapping[str, Any]) -> DealMark | None:
    """The challenge mark of a record, if it has one; raises ``RecordError`` if malformed."""
    mark = record.get(MARK)
    if mark is None:
        return None
    if not isinstance(mark, Mapping):
        raise RecordError("the challenge mark is an object", where=MARK)
    number, digest, day = mark.get("deal"), mark.get("commitment"), mark.get("day")
    if type(number) is not int or number < 1:
        raise RecordError("the challenge mark's deal is a number from 1", where=MARK)
    if not isinstance(digest, str) or not isinstance(day, str):
        raise RecordError("the challenge mark names its day and commitment", where=MARK)
    try:
        return DealMark(parse_day(day), number, digest)
    except ValueError as error:
        raise RecordError(f"the challenge mark's day: {error}", where=MARK) from None


def verify_deal(dealt: Deal, number: int, *, seed: int, salt: str, digest: str) -> None:
    """Check that ``digest`` commits to ``seed`` (with ``salt``) and that ``dealt``
    is deal ``number`` of that seed. Raises ``RecordError`` (rule ``commitment``)
    naming the first thing that does not hold."""
    actual = commitment(seed, salt)
    if actual != digest:
        raise RecordError(
            f'the SHA-256 of "{seed}:{salt}" is {actual}, not the commitment {digest}',
            where="seeding",
            rule=Rule.COMMITMENT,
        )
    dealer, hands = dealt
    seeded_dealer, seeded_hands = day_deals(seed, number)[number - 1]
    where = f"deal {number}"
    if dealer != seeded_dealer:
        raise RecordError(
            f"not deal {number} of seed {seed}: that deal is {SEAT_NAMES[seeded_dealer]}'s, "
            f"not {SEAT_NAMES[dealer]}'s",
            where=where,
            rule=Rule.COMMITMENT,
        )
    for seat, (hand, seeded) in enumerate(zip(hands, seeded_hands, strict=True)):
        if hand != seeded:
            raise RecordError(
                f"not deal {number} of seed {seed}: {SEAT_NAMES[seat]}'s cards are not "
                "the ones the seed deals",
                where=where,
                rule=Rule.COMMITMENT,
            )


def verify_deal_record(
    game: Game, mark: DealMark, *, seed: int, salt: str, digest: str | None
) -> str:
    """Check a challenge deal record's hand against the day's revealed seed and
    the commitment shown (default: the one the record names); says what was verified."""
    digest = mark.commitment if digest is None else digest
    deals: Sequence[Deal] = game.deals()
    verify_deal(deals[0], mark.deal, seed=seed, salt=salt, digest=digest)
    return (
        f'deal verified: the SHA-256 of "{seed}:{salt}" is the commitment {digest}, and '
        f"the hand is deal {mark.deal} of the challenge of {mark.day.isoformat()} (seed {seed})"
    )
