"""Bids: a number of tricks, Nil or blind Nil, and how they are written.

The engine stores a bid as a small ``int`` (``NIL`` 0, ``BLIND_NIL`` -1, else
1..13) so the compiled hand, the scorer and the search handle machine integers.
``Bid`` is that ``int`` knowing what it means. Every surface (records, the web
API, the bot protocol, the terminal) reads bids with ``read_bid``, as strictly
as its ``BidSyntax`` says, and writes them with ``bid_to_json`` / ``bid_name``;
every rule asks ``is_nil``: no code outside this module compares a bid with 0
or spells ``"nil"`` itself.

>>> parse_bid("nil") == NIL, parse_bid(" Blind Nil ") == BLIND_NIL, parse_bid("4")
(True, True, 4)
>>> Bid(NIL), Bid(BLIND_NIL).name, Bid(7).to_json()
(Bid.NIL, 'blind Nil', 7)
>>> [bid_to_json(b) for b in (NIL, BLIND_NIL, 3, None)]
['nil', 'blind_nil', 3, None]
>>> parse_bid(0)
Traceback (most recent call last):
...
spades.core.bids.BidReadError: 0 is not a bid: to promise to take no tricks, bid nil
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Final, Literal

# is_nil and is_number_bid live with the scoring, which mypyc compiles: the
# search asks them at every card of every playout.
from .scoring import BLIND_NIL, MAX_BID, MIN_BID, NIL, NilKind, is_nil, is_number_bid

__all__ = [
    "BLIND_NIL",
    "MAX_BID",
    "MIN_BID",
    "NIL",
    "Bid",
    "BidJson",
    "BidProblem",
    "BidReadError",
    "BidSyntax",
    "bid_name",
    "bid_to_json",
    "is_nil",
    "is_number_bid",
    "nil_kind_name",
    "parse_bid",
    "read_bid",
]

BidJson = int | Literal["nil", "blind_nil"]
"""A bid as files and wires write it (``bid_to_json``)."""

_NIL_WORDS: Final = frozenset({"nil"})
_BLIND_NIL_WORDS: Final = frozenset({"blind nil", "blind_nil", "blind-nil", "blindnil"})
_SHOWN_LENGTH: Final = 40


class BidSyntax(Enum):
    """How strictly a bid is read: who wrote it decides. Every reader of bids
    (records, the web API, the bot protocol, the terminal) is ``read_bid`` with
    one of these."""

    TEXT = "text"
    """Files and people naming a bid: ``"nil"``, ``"blind nil"`` (any case;
    also ``blind_nil``, ``blind-nil``), a whole number or its digits."""
    JSON = "json"
    """A JSON value on a wire (the web API, the bot protocol): a number is a
    JSON number, never digits in quotes; Nil and blind Nil go by name."""
    TYPED = "typed"
    """A person at the terminal's prompt: ``nil`` or digits, nothing else (a
    blind Nil is asked for apart, before the cards are shown)."""


class BidProblem(Enum):
    """Why a value is not a bid, for a surface that words the refusal itself."""

    NOT_A_BID = "not_a_bid"
    ZERO = "zero"
    """0: the engine stores Nil as 0, but Nil is only ever bid by name."""
    QUOTED_NUMBER = "quoted_number"
    """Digits in a JSON string, where a number must be a JSON number."""
    OUT_OF_RANGE = "out_of_range"
    """A number outside 1..13 (asked only with ``in_range=True``)."""


class BidReadError(ValueError):
    """A value that is not a bid, with the ``problem`` a surface may word its own way."""

    def __init__(self, message: str, problem: BidProblem) -> None:
        super().__init__(message)
        self.problem = problem


def read_bid(value: object, syntax: BidSyntax, *, in_range: bool = False) -> int:
    """The one reading of a bid: ``NIL``, ``BLIND_NIL`` or the number, as
    strictly as ``syntax`` says. The range of a number is the engine's to judge
    (its refusal names the rule) unless ``in_range`` asks for it here.

    >>> text, wire = BidSyntax.TEXT, BidSyntax.JSON
    >>> read_bid("Blind Nil", text), read_bid("4", text), read_bid(14, wire)
    (-1, 4, 14)
    >>> read_bid("4", wire)
    Traceback (most recent call last):
    ...
    spades.core.bids.BidReadError: "4" is not a bid: a bid is "nil" or a number from 1 to 13
    >>> read_bid("blind nil", BidSyntax.TYPED)
    Traceback (most recent call last):
    ...
    spades.core.bids.BidReadError: "blind nil" is not a bid: a bid is "nil" or a number from 1 to 13
    """
    bid = _read(value, syntax)
    if in_range and not (bid in (NIL, BLIND_NIL) or MIN_BID <= bid <= MAX_BID):
        raise BidReadError(
            f"{_shown(value)} is not a bid: a bid is Nil, blind Nil or 1 to 13",
            BidProblem.OUT_OF_RANGE,
        )
    return bid


def _read(value: object, syntax: BidSyntax) -> int:
    if isinstance(value, str):
        word = " ".join(value.strip().lower().split())
        if word in _NIL_WORDS:
            return NIL
        if word in _BLIND_NIL_WORDS and syntax is not BidSyntax.TYPED:
            return BLIND_NIL
        if word.isdigit():
            if syntax is BidSyntax.JSON:
                raise _not_a_bid(value, BidProblem.QUOTED_NUMBER)
            value = int(word)
    elif syntax is BidSyntax.TYPED:
        raise _not_a_bid(value, BidProblem.NOT_A_BID)
    if isinstance(value, int) and not isinstance(value, bool):
        if value == NIL:
            raise BidReadError(
                "0 is not a bid: to promise to take no tricks, bid nil", BidProblem.ZERO
            )
        return int(value)
    raise _not_a_bid(value, BidProblem.NOT_A_BID)


def _not_a_bid(value: object, problem: BidProblem) -> BidReadError:
    return BidReadError(
        f'{_shown(value)} is not a bid: a bid is "nil" or a number from 1 to 13', problem
    )


def parse_bid(value: object) -> int:
    """A bid as a person or a file writes it: ``read_bid`` with ``BidSyntax.TEXT``.

    0 is refused: the engine stores Nil as 0, and Nil, a gamble worth a
    hundred points, is only ever bid by name.

    >>> parse_bid("three")
    Traceback (most recent call last):
    ...
    spades.core.bids.BidReadError: "three" is not a bid: a bid is "nil" or a number from 1 to 13
    """
    return read_bid(value, BidSyntax.TEXT)


def bid_to_json(bid: int | None) -> BidJson | None:
    """How files and wires write a bid: ``"nil"``, ``"blind_nil"`` or the number
    (``None``, a bid not made yet, stays ``None``)."""
    if bid is None:
        return None
    if bid == NIL:
        return "nil"
    if bid == BLIND_NIL:
        return "blind_nil"
    return int(bid)


def bid_name(bid: int) -> str:
    """How a sentence says a bid: ``"Nil"``, ``"blind Nil"`` or the number.

    >>> bid_name(NIL), bid_name(BLIND_NIL), bid_name(4)
    ('Nil', 'blind Nil', '4')
    """
    if bid == NIL:
        return "Nil"
    if bid == BLIND_NIL:
        return "blind Nil"
    return str(int(bid))


def nil_kind_name(kind: NilKind) -> str:
    """How a sentence names what a Nil was scored as.

    >>> [nil_kind_name(kind) for kind in NilKind]
    ['Nil', 'blind Nil', 'double Nil']
    """
    if kind is NilKind.BLIND_NIL:
        return bid_name(BLIND_NIL)
    if kind is NilKind.DOUBLE_NIL:
        return "double Nil"
    return bid_name(NIL)


class Bid(int):
    """A bid that knows what it means: ``Bid(NIL).is_nil``, ``Bid(4).name``.

    Being an ``int``, it goes anywhere the engine takes a bid.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Bid:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{value!r} is not a bid")
        if not (value in (NIL, BLIND_NIL) or MIN_BID <= value <= MAX_BID):
            raise ValueError(f"{value!r} is not a bid: a bid is Nil, blind Nil or 1 to 13")
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, value: object) -> Bid:
        """``parse_bid``, then the range checked."""
        return cls(parse_bid(value))

    @property
    def is_nil(self) -> bool:
        """Nil or blind Nil: a promise to take no trick."""
        return is_nil(self)

    @property
    def is_blind(self) -> bool:
        return self == BLIND_NIL

    @property
    def tricks(self) -> int:
        """The tricks promised: 0 for either Nil."""
        return 0 if is_nil(self) else int(self)

    @property
    def name(self) -> str:
        return bid_name(self)

    def to_json(self) -> BidJson:
        written = bid_to_json(self)
        assert written is not None
        return written

    def __repr__(self) -> str:
        if self == NIL:
            return "Bid.NIL"
        if self == BLIND_NIL:
            return "Bid.BLIND_NIL"
        return f"Bid({int(self)})"


def _shown(value: object) -> str:
    """``value`` as JSON for an error message, cut to a readable length."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN_LENGTH else text[: _SHOWN_LENGTH - 3] + "..."
