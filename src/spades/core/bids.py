"""Bids: a number of tricks, Nil or blind Nil, and how they are written.

The engine stores a bid as a small ``int`` (``NIL`` 0, ``BLIND_NIL`` -1, else
1..13) so the compiled hand, the scorer and the search handle machine integers.
``Bid`` is that ``int`` knowing what it means. Every surface (records, the web
API, the bot protocol, the terminal) reads bids with ``parse_bid`` and writes
them with ``bid_to_json`` / ``bid_name``, and every rule asks ``is_nil``: no
code outside this module compares a bid with 0 or spells ``"nil"`` itself.

>>> parse_bid("nil") == NIL, parse_bid(" Blind Nil ") == BLIND_NIL, parse_bid("4")
(True, True, 4)
>>> Bid(NIL), Bid(BLIND_NIL).name, Bid(7).to_json()
(Bid.NIL, 'blind Nil', 7)
>>> [bid_to_json(b) for b in (NIL, BLIND_NIL, 3, None)]
['nil', 'blind_nil', 3, None]
>>> parse_bid(0)
Traceback (most recent call last):
...
ValueError: 0 is not a bid: to promise to take no tricks, bid nil
"""

from __future__ import annotations

import json
from typing import Final, Literal

from .scoring import BLIND_NIL, MAX_BID, MIN_BID, NIL, NilKind

__all__ = [
    "BLIND_NIL",
    "MAX_BID",
    "MIN_BID",
    "NIL",
    "Bid",
    "BidJson",
    "bid_from_json",
    "bid_name",
    "bid_to_json",
    "is_nil",
    "is_number_bid",
    "nil_kind_name",
    "parse_bid",
]

BidJson = int | Literal["nil", "blind_nil"]
"""A bid as files and wires write it (``bid_to_json``)."""

_NIL_WORDS: Final = frozenset({"nil"})
_BLIND_NIL_WORDS: Final = frozenset({"blind nil", "blind_nil", "blind-nil", "blindnil"})
_SHOWN_LENGTH: Final = 40


def is_nil(bid: int | None) -> bool:
    """Whether ``bid`` promises no trick: Nil or blind Nil (``None``, no bid yet: no)."""
    return bid is not None and bid <= NIL


def is_number_bid(bid: int | None) -> bool:
    """Whether ``bid`` is a number of tricks (not a Nil, not a bid still to make)."""
    return bid is not None and bid > NIL


def parse_bid(value: object) -> int:
    """A bid as a person or a program writes it: ``"nil"``, ``"blind nil"``
    (any case; also ``blind_nil``, ``blind-nil``), or a whole number (an ``int``
    or its digits). The range of a number and whether blind Nil is allowed are
    the engine's to judge, so its refusal can name the rule.

    0 is refused: the engine stores Nil as 0, and Nil, a gamble worth a
    hundred points, is only ever bid by name.

    >>> parse_bid("three")
    Traceback (most recent call last):
    ...
    ValueError: "three" is not a bid: a bid is "nil" or a number from 1 to 13
    """
    if isinstance(value, str):
        word = " ".join(value.strip().lower().split())
        if word in _NIL_WORDS:
            return NIL
        if word in _BLIND_NIL_WORDS:
            return BLIND_NIL
        if word.isdigit():
            value = int(word)
    if isinstance(value, int) and not isinstance(value, bool):
        if value == NIL:
            raise ValueError("0 is not a bid: to promise to take no tricks, bid nil")
        return int(value)
    raise ValueError(f'{_shown(value)} is not a bid: a bid is "nil" or a number from 1 to 13')


def bid_from_json(value: object) -> int:
    """A bid as records, the web API and the bot protocol write it (see ``parse_bid``)."""
    return parse_bid(value)


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
