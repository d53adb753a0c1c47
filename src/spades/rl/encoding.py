"""Observations and actions as numbers: pure functions of a seat's ``PlayerView``.

Every observation is built from one seat's view and nothing else, so it can
never hold another seat's unplayed cards. Seats inside an observation are
*relative* to the observer, so one policy can play any chair:

=====  ===========================================
0      the observer
1      the seat to its left (the next to act after it)
2      its partner
3      the seat to its right
=====  ===========================================

Teams are likewise "us" (index 0) then "them" (index 1).

One ``Discrete(66)`` action space serves the whole game: actions 0..51 are the
engine's cards (``suit * 13 + rank``), 52..65 the bids, ``52 + bid`` (52 is Nil,
53..65 bid 1..13). Rules with blind Nil add two actions (``Discrete(68)``): 66
bids blind Nil and 67 looks at the cards, the two choices of a seat offered
blind Nil, which is shown its view without its cards until it looks.

>>> from spades.core import NIL, Game, parse_card
>>> card_action(parse_card("AS")), bid_action(NIL), bid_action(4)
(51, 52, 56)
>>> [describe_action(a) for a in (0, 51, 52, 56)]
['2C', 'AS', 'bid Nil', 'bid 4']
>>> view = Game(seed=7).view(0)
>>> observation = encode_view(view)
>>> observation.shape, observation.dtype, int(observation[HAND_OFFSET:HAND_OFFSET + 52].sum())
((549,), dtype('float32'), 13)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from spades.core import (
    BLIND_NIL,
    Card,
    Phase,
    PlayerView,
    Rules,
    Seat,
    bid_name,
    card_name,
    cards_in,
    is_nil,
)

FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]

# ------------------------------------------------------------------- actions

CARD_ACTIONS: Final = 52
BID_OFFSET: Final = 52
"""Action ``BID_OFFSET + bid`` is the bid ``bid``: 52 is Nil, 53..65 are 1..13."""
ACTION_COUNT: Final = 66
"""The actions under rules without blind Nil."""
BLIND_NIL_ACTION: Final = 66
"""Bid blind Nil: offered, with ``LOOK_ACTION``, to a seat that has not seen its cards."""
LOOK_ACTION: Final = 67
"""Decline blind Nil and look at the cards (the same seat then bids as usual)."""
BLIND_NIL_ACTION_COUNT: Final = 68


def action_count(rules: Rules) -> int:
    """How many actions there are under ``rules``: 66, or 68 with blind Nil.

    >>> from spades.core import CARDCOUCH, parse_rules
    >>> action_count(CARDCOUCH), action_count(parse_rules("cardcouch,blind_nil=on"))
    (66, 68)
    """
    return BLIND_NIL_ACTION_COUNT if rules.blind_nil else ACTION_COUNT


def card_action(card: Card) -> int:
    """The action that plays ``card``: the card itself.

    >>> from spades.core import parse_card
    >>> card_action(parse_card("2C")), card_action(parse_card("TD"))
    (0, 21)
    """
    return card


def bid_action(bid: int) -> int:
    """The action that bids ``bid`` (``NIL`` is 0, so Nil is action 52).

    >>> from spades.core import BLIND_NIL, NIL
    >>> bid_action(NIL), bid_action(13), bid_action(BLIND_NIL)
    (52, 65, 66)
    """
    return BLIND_NIL_ACTION if bid == BLIND_NIL else BID_OFFSET + bid


def action_card(action: int) -> Card | None:
    """The card ``action`` plays, or ``None`` when it is a bid.

    >>> action_card(51), action_card(52)
    (51, None)
    """
    return action if 0 <= action < CARD_ACTIONS else None


def action_bid(action: int) -> int | None:
    """The bid ``action`` makes (``NIL`` is 0, ``BLIND_NIL`` -1), or ``None``
    when it is a card or the look at the cards.

    >>> from spades.core import NIL
    >>> action_bid(52) == NIL, action_bid(65), action_bid(66), action_bid(3), action_bid(67)
    (True, 13, -1, None, None)
    """
    if action == BLIND_NIL_ACTION:
        return BLIND_NIL
    return action - BID_OFFSET if BID_OFFSET <= action < ACTION_COUNT else None


def describe_action(action: int) -> str:
    """A short human name for ``action``.

    >>> describe_action(39), describe_action(53), describe_action(66), describe_action(67)
    ('2S', 'bid 1', 'bid blind Nil', 'look at the cards')
    >>> describe_action(68)
    'not an action (68)'
    """
    if action == LOOK_ACTION:
        return "look at the cards"
    card = action_card(action)
    if card is not None:
        return card_name(card)
    bid = action_bid(action)
    if bid is not None:
        return f"bid {bid_name(bid)}"
    return f"not an action ({action})"


def relative_seat(observer: Seat, seat: Seat) -> int:
    """Where ``seat`` sits seen from ``observer``: 0 self, 1 left, 2 partner, 3 right.

    >>> from spades.core import EAST, NORTH, SOUTH, WEST
    >>> [relative_seat(SOUTH, seat) for seat in (SOUTH, WEST, NORTH, EAST)]
    [0, 1, 2, 3]
    """
    return (seat - observer) & 3


def absolute_seat(observer: Seat, relative: int) -> Seat:
    """The seat at ``relative`` position from ``observer`` (inverse of ``relative_seat``).

    >>> from spades.core import SOUTH, WEST
    >>> absolute_seat(SOUTH, 1) == WEST
    True
    """
    return (observer + relative) & 3


def action_mask(view: PlayerView, chosen: int = 0) -> Int8Array:
    """1 for every action ``view``'s seat may take now, else 0 (all 0 when it is
    not this seat's turn). During a Nil pass (a rule option) the actions are the
    cards still to choose, one a step: ``chosen`` masks those chosen already. A
    view without the cards (``view.without_cards()``, a seat offered blind Nil)
    allows blind Nil and the look at the cards. The mask is as long as the
    rules have actions (``action_count``).

    >>> from spades.core import Game
    >>> game = Game(seed=7)
    >>> mask = action_mask(game.view(game.to_act))
    >>> mask.dtype, int(mask[:52].sum()), int(mask[52:].sum())
    (dtype('int8'), 0, 14)
    >>> int(action_mask(game.view((game.to_act + 1) % 4)).sum())
    0
    """
    actions = action_count(view.rules)
    if view.is_my_turn and view.phase is Phase.PLAYING:
        return card_action_mask(view.legal_mask(), actions)
    if view.is_my_turn and view.phase is Phase.PASSING and view.pass_count:
        return card_action_mask(view.hand & ~chosen, actions)
    mask = np.zeros(actions, dtype=np.int8)
    if view.is_my_turn and view.phase is Phase.BIDDING:
        mask.put([bid_action(bid) for bid in view.legal_bids()], 1)
        if not view.sees_cards:
            mask[LOOK_ACTION] = 1
    return mask


_BYTE_BITS: Final = tuple(bytes((value >> bit) & 1 for bit in range(8)) for value in range(256))
"""``_BYTE_BITS[b]``: the eight bits of the byte ``b``, lowest first, a byte each."""


def card_action_mask(cards: int, actions: int) -> Int8Array:
    """An action mask (``actions`` long) allowing exactly the cards of ``cards``
    (a mask of cards; card ``c`` is action ``c``).

    Spelled out a byte of the mask at a time from a table, then handed to numpy
    whole: three times cheaper than setting the cards one by one, and the AEC
    environment builds one at every card.

    >>> from spades.core import parse_card
    >>> mask = card_action_mask(1 << parse_card("2C") | 1 << parse_card("AS"), ACTION_COUNT)
    >>> mask.dtype, mask.shape, mask.nonzero()[0].tolist()
    (dtype('int8'), (66,), [0, 51])
    """
    bits = b"".join(map(_BYTE_BITS.__getitem__, cards.to_bytes(7, "little")))
    padded = bytearray(bits[:CARD_ACTIONS] + bytes(actions - CARD_ACTIONS))
    return np.frombuffer(padded, dtype=np.int8)


# --------------------------------------------------------------- observation


@dataclass(frozen=True, slots=True)
class Part:
    """One named block of the flat observation vector."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        size = 1
        for length in self.shape:
            size *= length
        return size

    @property
    def stop(self) -> int:
        return self.offset + self.size


def _layout(*parts: tuple[str, tuple[int, ...], str]) -> tuple[Part, ...]:
    result: list[Part] = []
    offset = 0
    for name, shape, meaning in parts:
        part = Part(name, offset, shape, meaning)
        result.append(part)
        offset = part.stop
    return tuple(result)


BID_SLOTS: Final = 15
"""Per seat: index 0 "no bid yet", 1 Nil, 2..14 the bids 1..13 (index ``1 + bid``)."""

OBSERVATION_PARTS: Final = _layout(
    ("hand", (52,), "1 for each card the observer holds"),
    ("bids", (4, BID_SLOTS), "per relative seat, one-hot: no bid yet, Nil (blind or not), 1..13"),
    ("trick", (4, 52), "per relative seat, the card it played to the trick in progress"),
    ("played", (4, 52), "per relative seat, every card it played this hand (trick in progress included)"),
    ("tricks_won", (4,), "per relative seat, tricks won this hand / 13"),
    ("spades_broken", (1,), "1 once a spade has been played this hand"),
    ("scores", (2,), "game points of our team, then theirs / 500"),
    ("bags", (2,), "bags of our team, then theirs / 10"),
    ("dealer", (4,), "the dealer, one-hot by relative seat"),
    ("phase", (2,), "bidding, playing (both 0 while cards are passed and once the hand is over)"),
    ("blind_nil", (4,), "per relative seat, 1 if its Nil is a blind Nil"),
    ("passing", (1,), "1 while Nil bidders and partners pass cards"),
    ("cards_hidden", (1,), "1 while the observer, offered blind Nil, has not looked at its cards"),
)  # fmt: skip
"""The flat observation, block by block, in order."""

PARTS: Final = {part.name: part for part in OBSERVATION_PARTS}
OBSERVATION_SIZE: Final = OBSERVATION_PARTS[-1].stop

HAND_OFFSET: Final = PARTS["hand"].offset
BIDS_OFFSET: Final = PARTS["bids"].offset
TRICK_OFFSET: Final = PARTS["trick"].offset
PLAYED_OFFSET: Final = PARTS["played"].offset
TRICKS_WON_OFFSET: Final = PARTS["tricks_won"].offset
SPADES_BROKEN_OFFSET: Final = PARTS["spades_broken"].offset
SCORES_OFFSET: Final = PARTS["scores"].offset
BAGS_OFFSET: Final = PARTS["bags"].offset
DEALER_OFFSET: Final = PARTS["dealer"].offset
PHASE_OFFSET: Final = PARTS["phase"].offset
BLIND_NIL_OFFSET: Final = PARTS["blind_nil"].offset
PASSING_OFFSET: Final = PARTS["passing"].offset
CARDS_HIDDEN_OFFSET: Final = PARTS["cards_hidden"].offset

assert SPADES_BROKEN_OFFSET == TRICKS_WON_OFFSET + 4 and SCORES_OFFSET == SPADES_BROKEN_OFFSET + 1
assert BAGS_OFFSET == SCORES_OFFSET + 2 and TRICK_OFFSET - PLAYED_OFFSET == -4 * 52

CARD_PARTS: Final = ("hand", "trick", "played")
"""The blocks indexed by card (each row is 52 wide, one column per card)."""

SCORE_SCALE: Final = 500.0
BAG_SCALE: Final = 10.0
TRICK_SCALE: Final = 13.0


def encode_view(view: PlayerView) -> FloatArray:
    """The flat observation (float32, ``OBSERVATION_SIZE`` long) of ``view``.

    >>> from spades.core import Game
    >>> game = Game(seed=3)
    >>> seat = game.to_act
    >>> _ = game.bid(seat, 4)
    >>> before = encode_view(game.view(seat))
    >>> bids = before[BIDS_OFFSET:BIDS_OFFSET + 4 * BID_SLOTS].reshape(4, BID_SLOTS)
    >>> int(bids[0].argmax()), [int(row.argmax()) for row in bids[1:]]   # I bid 4; no one else yet
    (5, [0, 0, 0])
    """
    me = view.seat
    ones: list[int] = [HAND_OFFSET + card for card in cards_in(view.hand)]
    by_seat = view.bids_by_seat()
    for relative in range(4):
        bid = by_seat[(me + relative) & 3]
        if bid is not None and is_nil(bid):
            ones.append(BIDS_OFFSET + relative * BID_SLOTS + 1)
            if bid == BLIND_NIL:
                ones.append(BLIND_NIL_OFFSET + relative)
        else:
            ones.append(BIDS_OFFSET + relative * BID_SLOTS + (0 if bid is None else 1 + bid))
    # Finished tricks are most of the cards: one precomputed row per position.
    for leader, cards, _ in view.tricks:
        rows = _PLAYED_ROWS[(leader - me) & 3]
        ones += (rows[0] + cards[0], rows[1] + cards[1], rows[2] + cards[2], rows[3] + cards[3])
    rows = _PLAYED_ROWS[(view.leader - me) & 3]
    for position, card in enumerate(view.trick):
        ones.append(rows[position] + card)
        ones.append(rows[position] + card + TRICK_OFFSET - PLAYED_OFFSET)
    ones.append(DEALER_OFFSET + ((view.dealer - me) & 3))
    if view.phase is Phase.BIDDING:
        ones.append(PHASE_OFFSET)
    elif view.phase is Phase.PLAYING:
        ones.append(PHASE_OFFSET + 1)
    elif view.phase is Phase.PASSING:
        ones.append(PASSING_OFFSET)
    if not view.sees_cards:
        ones.append(CARDS_HIDDEN_OFFSET)

    observation = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    observation.put(ones, 1.0)
    won = view.tricks_won
    us, them = view.team, 1 - view.team
    low, high = _limits(view.rules)
    # tricks_won, spades_broken, scores and bags are contiguous: one assignment.
    observation[TRICKS_WON_OFFSET : BAGS_OFFSET + 2] = (
        won[me] / TRICK_SCALE,
        won[(me + 1) & 3] / TRICK_SCALE,
        won[(me + 2) & 3] / TRICK_SCALE,
        won[(me + 3) & 3] / TRICK_SCALE,
        1.0 if view.spades_broken else 0.0,
        min(max(view.totals[us], low), high) / SCORE_SCALE,
        min(max(view.totals[them], low), high) / SCORE_SCALE,
        view.bags[us] / BAG_SCALE,
        view.bags[them] / BAG_SCALE,
    )
    return observation


_PLAYED_ROWS: Final = tuple(
    tuple(PLAYED_OFFSET + ((first + position) & 3) * 52 for position in range(4))
    for first in range(4)
)
"""``_PLAYED_ROWS[r][i]``: where the ``played`` row starts for the ``i``-th card of a
trick led by the seat at relative position ``r``."""


def split_observation(observation: FloatArray) -> dict[str, FloatArray]:
    """The blocks of a flat observation by name, shaped as in ``OBSERVATION_PARTS``
    (copies: changing one leaves the flat vector alone).

    >>> from spades.core import Game
    >>> parts = split_observation(encode_view(Game(seed=7).view(2)))
    >>> list(parts)[:4], parts["bids"].shape, int(parts["hand"].sum())
    (['hand', 'bids', 'trick', 'played'], (4, 15), 13)
    """
    return {
        part.name: observation[part.offset : part.stop].reshape(part.shape).copy()
        for part in OBSERVATION_PARTS
    }


def max_hand_swing(rules: Rules) -> int:
    """More points than one hand can add or take away under ``rules``: a bid of
    13, two Nils and the bag penalties the most bags one hand can bring.

    >>> from spades.core import CARDCOUCH
    >>> max_hand_swing(CARDCOUCH)
    630
    """
    limit = rules.bag_limit
    penalties = 0 if limit is None else (limit - 1 + 13) // limit + 1
    nil_bonus = max(rules.nil_bonus, rules.blind_nil_bonus if rules.blind_nil else 0)
    nils = max(2 * nil_bonus, rules.double_nil_bonus or 0)
    return 10 * 13 + nils + penalties * rules.bag_penalty


NO_FLOOR_BOUND: Final = -10_000
NO_BAG_LIMIT_BOUND: Final = 100
"""Bags kept without a bag limit: the bound shown (a long game's worth)."""


@functools.cache  # every observation asks; Rules are frozen, and few
def score_limits(rules: Rules) -> tuple[int, int]:
    """The range a game total is shown within.

    Totals stay between the floor and the target until the last hand, which
    moves them by less than ``max_hand_swing``. (Only a tie beyond the target or
    the floor, which plays on, could go further, and is shown at the limit.)

    >>> from spades.core import CARDCOUCH
    >>> score_limits(CARDCOUCH)
    (-830, 1130)
    """
    swing = max_hand_swing(rules)
    # Without a floor a total could in principle sink without end; the bound is
    # the lowest floor a rule set may name, far below any game seen.
    floor = rules.floor if rules.floor is not None else NO_FLOOR_BOUND
    return floor - swing, rules.target + swing


_last_limits: list[tuple[Rules, tuple[int, int]]] = []


def _limits(rules: Rules) -> tuple[int, int]:
    """``score_limits(rules)``, asked at every observation: the last answer is
    kept by identity (hashing a ``Rules`` costs more than the rest)."""
    if _last_limits and _last_limits[0][0] is rules:
        return _last_limits[0][1]
    limits = score_limits(rules)
    _last_limits[:] = [(rules, limits)]
    return limits


def observation_bounds(rules: Rules) -> tuple[FloatArray, FloatArray]:
    """The lowest and highest value of each entry of the flat observation.

    >>> from spades.core import CARDCOUCH
    >>> low, high = observation_bounds(CARDCOUCH)
    >>> [round(float(x), 2) for x in (low[SCORES_OFFSET], high[SCORES_OFFSET], high[BAGS_OFFSET])]
    [-1.66, 2.26, 1.0]
    """
    low = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    lowest, highest = score_limits(rules)
    low[SCORES_OFFSET : SCORES_OFFSET + 2] = lowest / SCORE_SCALE
    high[SCORES_OFFSET : SCORES_OFFSET + 2] = highest / SCORE_SCALE
    bag_limit = rules.bag_limit if rules.bag_limit is not None else NO_BAG_LIMIT_BOUND
    high[BAGS_OFFSET : BAGS_OFFSET + 2] = max(1.0, bag_limit / BAG_SCALE)
    return low, high


def layout_table() -> str:
    """The observation layout as a Markdown table (the one in docs/rl.md)."""
    rows = [
        "| offset | size | name | shape | meaning |",
        "|---:|---:|---|---|---|",
    ]
    for part in OBSERVATION_PARTS:
        shape = " x ".join(str(length) for length in part.shape)
        rows.append(f"| {part.offset} | {part.size} | `{part.name}` | {shape} | {part.meaning} |")
    rows.append(f"| {OBSERVATION_SIZE} | | | | total size |")
    return "\n".join(rows)
