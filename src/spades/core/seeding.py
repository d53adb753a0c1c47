"""Provably fair deals: a game's seed, committed to before the first card.

Every deal of a game comes from its seed, so whoever knows the seed knows every
hand. A fair game therefore deals from a secret seed and publishes, with the
first deal, a *commitment*: the SHA-256 of the text ``"<seed>:<salt>"``, where
the salt is 32 random hex digits. The commitment fixes the seed (and so every
deal) without giving it away: the salt makes guessing seeds and hashing them
hopeless. When the game is over the seed and salt are revealed, and anyone can
check both the hash and that every hand was dealt from that seed (``spades
replay --seed S --salt X --commitment H``), so no deal can have been changed
once the game began.

A game dealt from a seed the player chose is a *practice* game: it is marked
as such, since anyone who knows that seed can work out every hand.

>>> fair = Seeding.commit(42, "00112233445566778899aabbccddeeff")
>>> fair.commitment == commitment(42, "00112233445566778899aabbccddeeff")
True
>>> fair.to_dict()["kind"], Seeding.practice().to_dict()
('committed', {'kind': 'practice'})
>>> dealer, hands = next(seeded_deals(42))
>>> sum(hand.bit_count() for hand in hands)
52
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .errors import RecordError, Rule
from .hand import deal
from .seats import SEAT_NAMES, Seat

SALT_HEX_DIGITS: Final = 32
"""128 random bits: a salt no one can guess, so the commitment hides the seed."""
_HEX: Final = re.compile(r"[0-9a-f]+")


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (lower-case hex) of ``"<seed>:<salt>"``, the seed in decimal.

    The same as ``printf '%s' "<seed>:<salt>" | sha256sum`` in a shell.

    >>> commitment(7, "ab")
    'ad6ba0f9c42b016a6bf14509247fa77d122ac655b087f9af890354cdeeaeced4'
    """
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def seeded_deals(seed: int) -> Iterator[tuple[Seat, tuple[int, int, int, int]]]:
    """Every deal a game with ``seed`` deals, in order: each hand's dealer and
    the four hands (N, E, S, W masks).

    The same draws as ``Game``: the first dealer, then one shuffle a hand; the
    deal rotates clockwise. (tests/core/test_seeding.py checks they agree.)
    """
    rng = random.Random(seed)
    first_dealer = rng.randrange(4)
    for number in itertools.count(1):
        yield (first_dealer + number - 1) & 3, deal(rng)


@dataclass(frozen=True, slots=True)
class Seeding:
    """How a game's seed was chosen: committed to in secret, or by the player."""

    kind: Literal["committed", "practice"]
    commitment: str | None = None
    """For a committed seed: SHA-256 of ``"<seed>:<salt>"``."""
    salt: str | None = None

    @classmethod
    def commit(cls, seed: int, salt: str) -> Seeding:
        """A secret ``seed``, committed to with ``salt`` (hex digits)."""
        return cls("committed", commitment(seed, salt), salt)

    @classmethod
    def practice(cls) -> Seeding:
        """A seed the player chose: the deals are no secret from them."""
        return cls("practice")

    @property
    def is_practice(self) -> bool:
        return self.kind == "practice"

    def to_dict(self) -> dict[str, str]:
        if self.kind == "practice":
            return {"kind": "practice"}
        assert self.commitment is not None and self.salt is not None
        return {"kind": "committed", "commitment": self.commitment, "salt": self.salt}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seeding:
        """Read ``to_dict``'s form; raises ``ValueError`` saying what is wrong."""
        kind = data.get("kind")
        if kind == "practice":
            return cls.practice()
        if kind != "committed":
            raise ValueError(f"kind must be 'committed' or 'practice', got {kind!r}")
        digest, salt = data.get("commitment"), data.get("salt")
        if not isinstance(digest, str) or len(digest) != 64 or not _HEX.fullmatch(digest):
            raise ValueError("commitment must be 64 lower-case hex digits (a SHA-256)")
        if not isinstance(salt, str) or not _HEX.fullmatch(salt):
            raise ValueError("salt must be lower-case hex digits")
        return cls("committed", digest, salt)


def verify_commitment(
    deals: Sequence[tuple[Seat, Sequence[int]]], *, seed: int, salt: str, digest: str
) -> None:
    """Check that ``digest`` commits to ``seed`` (with ``salt``) and that every one
    of ``deals`` (each hand's dealer and four hands) is the one ``seed`` deals.

    Raises ``RecordError`` (rule ``commitment``) naming the first thing that
    does not hold.
    """
    actual = commitment(seed, salt)
    if actual != digest:
        raise RecordError(
            f'the SHA-256 of "{seed}:{salt}" is {actual}, not the commitment {digest}',
            where="seeding",
            rule=Rule.COMMITMENT,
        )
    for number, ((dealer, hands), (seeded_dealer, seeded_hands)) in enumerate(
        zip(deals, seeded_deals(seed), strict=False),
        start=1,  # the seed deals on forever
    ):
        where = f"hand {number}, deal"
        if dealer != seeded_dealer:
            raise RecordError(
                f"not dealt from seed {seed}: the seed gives the deal to "
                f"{SEAT_NAMES[seeded_dealer]}, not {SEAT_NAMES[dealer]}",
                where=where,
                rule=Rule.COMMITMENT,
            )
        for seat, (hand, seeded) in enumerate(zip(hands, seeded_hands, strict=True)):
            if hand != seeded:
                raise RecordError(
                    f"not dealt from seed {seed}: {SEAT_NAMES[seat]}'s cards are not the "
                    "ones the seed deals",
                    where=where,
                    rule=Rule.COMMITMENT,
                )
