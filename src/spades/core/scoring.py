"""Scoring a hand and deciding the game: pure functions of bids and tricks.

>>> bids = [4, 3, 3, 5]          # N, E, S, W: NS bid 7, EW bid 8
>>> tricks = [5, 3, 3, 2]        # NS take 8, EW take 5
>>> ns, ew = score_hand(bids, tricks, bags_before=(0, 0))
>>> ns.delta, ns.bags, ew.delta, ew.bags
(71, 1, -80, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .rules import CARDCOUCH, Rules
from .seats import Seat, Team

# The engine's encoding of bids (``spades.core.bids`` reads, writes and names
# them): kept here, in the compiled scorer, so the hot path compares machine ints.
NIL: Final = 0
"""The Nil bid: a promise to take no trick. Numeric bids are 1..13."""
BLIND_NIL: Final = -1
"""Blind Nil: Nil bid before looking at one's cards (a rule option)."""

MIN_BID: Final = 1
MAX_BID: Final = 13


def is_nil(bid: int | None) -> bool:
    """Whether ``bid`` promises no trick: Nil or blind Nil (``None``, no bid yet: no)."""
    return bid is not None and bid <= NIL


def is_number_bid(bid: int | None) -> bool:
    """Whether ``bid`` is a number of tricks (not a Nil, not a bid still to make)."""
    return bid is not None and bid > NIL


class NilKind(Enum):
    """What a Nil was scored as."""

    NIL = "nil"
    """A Nil bid after looking at the cards: ``Rules.nil_bonus``."""
    BLIND_NIL = "blind_nil"
    """A Nil bid before looking at the cards: ``Rules.blind_nil_bonus``."""
    DOUBLE_NIL = "double_nil"
    """Both partners' Nils scored as one contract (``Rules.double_nil_bonus``):
    made only if neither takes a trick."""


# Not frozen: mypyc compiles a plain dataclass to a native class, whose
# construction is several times cheaper; nothing mutates these results.
@dataclass(slots=True)
class NilResult:
    """How one Nil bid went: what it was scored as and what it earned.

    Every Nil bidder has one. A double Nil scored as one contract gives both
    partners a result of kind ``DOUBLE_NIL`` carrying the same ``points`` and
    ``contract_tricks``, the contract's: ``TeamHandScore.nil_contracts`` lists
    each contract once, for whoever words the score.
    """

    seat: Seat
    tricks: int
    """Tricks this bidder took (each one a bag)."""
    kind: NilKind
    points: int
    """What the Nil contract earned: plus its bonus when made, minus it when failed."""
    contract_tricks: int
    """Tricks counted against the contract: the bidder's, or both partners' for a double Nil."""

    @property
    def made(self) -> bool:
        """Whether this bidder took no trick."""
        return self.tricks == 0

    @property
    def contract_made(self) -> bool:
        """Whether the Nil contract was made (for a double Nil: neither partner took a trick)."""
        return self.contract_tricks == 0


@dataclass(slots=True)
class TeamHandScore:
    """One partnership's result for a hand, with the parts that make it up."""

    team: Team
    bid: int | None
    """The partners' combined numeric bid; ``None`` when both bid Nil."""
    tricks: int
    """Tricks taken by the partners who bid a number (a Nil bidder's never count)."""
    nils: tuple[NilResult, ...]
    """Each Nil bidder's result, by seat."""
    bid_points: int
    """+10 per trick bid when made, -10 per trick bid when set."""
    overtricks: int
    """Tricks beyond the numeric bid: +1 point and one bag each."""
    nil_points: int
    bags_taken: int
    """Overtricks plus every trick a Nil bidder took."""
    bag_penalties: int
    """How many times the bag limit was reached this hand."""
    bag_penalty_points: int
    delta: int
    """The points this hand adds to the team's total."""
    bags: int
    """The team's bag count after this hand."""

    @property
    def made(self) -> bool | None:
        """Whether the numeric bid was made; ``None`` without a numeric bid."""
        return None if self.bid is None else self.tricks >= self.bid

    @property
    def nil_contracts(self) -> tuple[NilResult, ...]:
        """Each Nil contract once: a double Nil scored as one is listed by its first seat."""
        if len(self.nils) == 2 and self.nils[0].kind == NilKind.DOUBLE_NIL:
            return self.nils[:1]
        return self.nils


@dataclass(slots=True)
class TeamContract:
    """A partnership's contract as the bids and tricks so far stand: whose
    tricks count against which bid, and what is left to make.

    The partners who bid a number make the contract together; a Nil bidder's
    tricks never count toward it (they are bags, and sink the Nil).
    """

    team: Team
    bid: int | None
    """The partners' combined numeric bid once both have bid; ``None`` before,
    or when both bid Nil (there is no number to make)."""
    promised: int
    """The numbers bid so far (the whole ``bid`` once both have bid)."""
    bidders: int
    """How many partners bid a number so far (0, 1 or 2)."""
    tricks: int
    """Tricks taken by the partners who bid a number: they count against the bid."""
    taken: int
    """Every trick the partnership took, a Nil bidder's included."""
    nil_seats: tuple[Seat, ...]
    """The partners who bid Nil or blind Nil."""

    @property
    def need(self) -> int:
        """Tricks still to take to make the numbers bid (negative: overtricks)."""
        return self.promised - self.tricks

    @property
    def left(self) -> int:
        """Tricks still to take to make the numbers bid, 0 once made (or with no number)."""
        need = self.promised - self.tricks
        return need if need > 0 else 0


def team_contract(
    team: Team, bids: Sequence[int | None], tricks_won: Sequence[int]
) -> TeamContract:
    """``team``'s contract from each seat's bid (``None`` not yet made) and tricks.

    >>> contract = team_contract(0, [4, 3, NIL, None], [2, 1, 1, 0])
    >>> contract.bid, contract.tricks, contract.taken, contract.nil_seats, contract.left
    (4, 2, 3, (2,), 2)
    >>> team_contract(1, [4, 3, NIL, None], [2, 1, 1, 0]).bid is None   # West has not bid
    True
    """
    promised, bidders, tricks = _numeric_part(team, bids, tricks_won)
    first, second = bids[team], bids[team + 2]
    nil_seats = tuple(
        seat for seat, bid in ((team, first), (team + 2, second)) if bid is not None and bid <= NIL
    )
    return TeamContract(
        team=team,
        bid=None if first is None or second is None or not bidders else promised,
        promised=promised,
        bidders=bidders,
        tricks=tricks,
        taken=tricks_won[team] + tricks_won[team + 2],
        nil_seats=nil_seats,
    )


def _numeric_part(
    team: Team, bids: Sequence[int | None], tricks_won: Sequence[int]
) -> tuple[int, int, int]:
    """The rule of the contract: the partners who bid a number (not Nil, not yet
    to bid) add their bids and their tricks; a Nil bidder's tricks never count.
    Returns the numbers bid, how many partners bid one, and their tricks (an
    unboxed tuple: the scorer runs at the end of every playout)."""
    promised = 0
    bidders = 0
    tricks = 0
    for seat in (team, team + 2):
        bid = bids[seat]
        if bid is not None and bid > NIL:
            bidders += 1
            promised += bid
            tricks += tricks_won[seat]
    return promised, bidders, tricks


def score_team(
    team: Team,
    bids: Sequence[int],
    tricks_won: Sequence[int],
    bags_before: int = 0,
    rules: Rules = CARDCOUCH,
) -> TeamHandScore:
    """Score ``team`` for a finished hand; ``bids`` and ``tricks_won`` are by seat."""
    numeric_bid, bidders, numeric_tricks = _numeric_part(team, bids, tricks_won)
    nil_points = 0
    nil_tricks = 0
    nils: list[NilResult] = []
    for seat in (team, team + 2):
        if bids[seat] > NIL:
            continue
        tricks = tricks_won[seat]
        if bids[seat] == BLIND_NIL:
            kind = NilKind.BLIND_NIL
            bonus = rules.blind_nil_bonus
        else:
            kind = NilKind.NIL
            bonus = rules.nil_bonus
        points = bonus if tricks == 0 else -bonus
        nils.append(NilResult(seat, tricks, kind, points, tricks))
        nil_points += points
        nil_tricks += tricks
    double_nil_bonus = rules.double_nil_bonus
    if len(nils) == 2 and double_nil_bonus is not None:
        # A double Nil scored as one contract: made only if neither partner takes a trick.
        nil_points = double_nil_bonus if nil_tricks == 0 else -double_nil_bonus
        nils = [
            NilResult(nil.seat, nil.tricks, NilKind.DOUBLE_NIL, nil_points, nil_tricks)
            for nil in nils
        ]

    bid_points = overtricks = 0
    if bidders:
        if numeric_tricks >= numeric_bid:
            bid_points = 10 * numeric_bid
            overtricks = numeric_tricks - numeric_bid
        else:
            bid_points = -10 * numeric_bid
    bags_taken = overtricks + nil_tricks

    bags = bags_before + bags_taken
    penalties = 0
    bag_limit = rules.bag_limit
    if bag_limit is not None:  # None: bags are counted but never cost anything
        while bags >= bag_limit:
            bags -= bag_limit
            penalties += 1
    penalty_points = penalties * rules.bag_penalty
    return TeamHandScore(
        team=team,
        bid=numeric_bid if bidders else None,
        tricks=numeric_tricks,
        nils=tuple(nils),
        bid_points=bid_points,
        overtricks=overtricks,
        nil_points=nil_points,
        bags_taken=bags_taken,
        bag_penalties=penalties,
        bag_penalty_points=penalty_points,
        delta=bid_points + overtricks + nil_points - penalty_points,
        bags=bags,
    )


def score_hand(
    bids: Sequence[int],
    tricks_won: Sequence[int],
    bags_before: Sequence[int] = (0, 0),
    rules: Rules = CARDCOUCH,
) -> tuple[TeamHandScore, TeamHandScore]:
    """Score both partnerships (NS, EW) for a finished hand.

    ``bids`` and ``tricks_won`` are indexed by seat (N, E, S, W); ``bags_before``
    by team. Nil is ``NIL`` (0), blind Nil ``BLIND_NIL`` (-1).
    """
    if len(bids) != 4 or len(tricks_won) != 4:
        raise ValueError("score_hand needs a bid and a trick count for each of the 4 seats")
    if sum(tricks_won) != 13:
        raise ValueError(f"a hand has 13 tricks, got {sum(tricks_won)}")
    ns = score_team(0, bids, tricks_won, bags_before[0], rules)
    ew = score_team(1, bids, tricks_won, bags_before[1], rules)
    return ns, ew


class Termination(Enum):
    """Why a game ended."""

    TARGET = "target"
    """A team reached the target (500 by default) with the higher total."""
    FLOOR = "floor"
    """A team sank to the floor (-200 by default)."""
    FORFEIT = "forfeit"
    """A player (a program) failed to act: its team lost the game."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: who won and why."""

    winner: Team
    termination: Termination


def game_outcome(totals: Sequence[int], rules: Rules = CARDCOUCH) -> Outcome | None:
    """The result after a hand is scored, or ``None`` when play goes on.

    A team at the floor or below loses on the spot (if both are, the higher
    total wins); otherwise a team at the target or above wins (if both are, the
    higher total wins). Equal totals in either case decide nothing.

    >>> game_outcome([510, 480])
    Outcome(winner=0, termination=<Termination.TARGET: 'target'>)
    >>> game_outcome([520, 530]).winner, game_outcome([520, 520])
    (1, None)
    >>> game_outcome([-200, 600]).termination
    <Termination.FLOOR: 'floor'>
    """
    ns, ew = totals[0], totals[1]
    floor = rules.floor
    below = (False, False) if floor is None else (ns <= floor, ew <= floor)
    for limit_reached, termination in (
        (below, Termination.FLOOR),
        ((ns >= rules.target, ew >= rules.target), Termination.TARGET),
    ):
        if not any(limit_reached):
            continue
        if all(limit_reached):
            if ns == ew:
                return None
            return Outcome(0 if ns > ew else 1, termination)
        if termination is Termination.FLOOR:
            return Outcome(1 if limit_reached[0] else 0, termination)
        return Outcome(0 if limit_reached[0] else 1, termination)
    return None
