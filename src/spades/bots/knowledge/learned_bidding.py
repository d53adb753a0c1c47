"""Bidding learned from data: the bid worth most, given what the hand is
likely to take and how sure that is.

The model (``bidding_model``, fitted by ``tools/fit_bidding.py`` on simulated
hands) predicts the tricks a hand takes when its seat bids a number, with the
spread of that prediction, and the chance that a Nil on it holds. The bidder
then turns each legal bid into the outcomes it can lead to (the team's tricks
over or under its contract, a Nil made or broken), each with its probability,
and values every outcome by the team's chance of winning the game from the
score it leaves (``valuation.win_chance``: a set near -200 loses the game, a
made bid near 500 wins it, a bag near the limit costs a penalty). It bids what
is worth most on average.

A count of tricks alone bids the middle of the range and is set whenever the
hand falls short, which is about half the time; weighing the set against the
overtricks (and the overtricks as bags) bids lower on a hand that could go
either way and higher on a sure one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from spades.core import BLIND_NIL, NIL, PlayerView, Rules
from spades.core.scoring import is_nil
from spades.core.seats import team_of

from ..valuation import game_value
from . import bidding_model
from .features import BiddingContext, nil_features, trick_features

MIN_SPREAD: Final = 0.3
"""The smallest spread in tricks a prediction is given (no hand is certain)."""
OPPONENT_SHARE: Final = 0.6
"""Opponents are assumed to score this share of ten points a trick they bid."""
OPPONENT_PACE: Final = 35.0
"""... or this many points before they have bid."""

NIL_CAUTION: Final = 0.06
"""Taken off the learned chance of a Nil: the model learned it against our own
players' attack on Nils; opponents who hunt Nils harder break more of them.
Measured against the strangers (docs/strength.md), 0.06 gave the best worst case."""
COVER_CAUTION: Final = 0.5
"""Taken off the tricks expected of a seat whose partner bid Nil. The model
learned them from tables where our own players attack a Nil by ducking under
it, which hands the covering partner tricks; opponents who just play their
cards (measured against the strangers, docs/strength.md) leave that partner
about a trick short of the model, and set in a quarter to half of its contracts."""
NEGLIGIBLE: Final = 1e-5
"""Outcomes less likely than this are left out of a bid's value."""
BIDS_BELOW: Final = 3
BIDS_ABOVE: Final = 2
"""Numeric bids further than this below or above the predicted tricks are not
valued: the spread of a prediction is about a trick and a quarter."""

Outcome = tuple[float, int, int]
"""A possible result of the hand for the bidder's team: its probability, the
points the team scores and the bags it takes."""
OutcomeKey = tuple[int, int, int]
"""The points a team scores, the bags it takes and the opponents' points."""


@dataclass(frozen=True, slots=True)
class BiddingModel:
    """The fitted numbers (see ``tools/fit_bidding.py`` for how each is measured)."""

    TRICK_WEIGHTS: tuple[float, ...]
    """Tricks of a seat bidding a number: weights of ``trick_features``."""
    TRICK_SPREAD: tuple[float, float]
    """Its squared error: a + b * predicted tricks."""
    NIL_WEIGHTS: tuple[float, ...]
    """Log-odds that a Nil holds: weights of ``nil_features``."""
    PARTNER_TRICKS: tuple[float, float]
    """Tricks of a partner who bid k: a + b * k ..."""
    PARTNER_SPREAD: tuple[float, float]
    """... and their squared error: a + b * k."""
    LATER_PARTNER_BID: float
    """What a partner who bids after this seat bids, on average ..."""
    LATER_PARTNER_SURPLUS: tuple[float, float]
    """... and their tricks beyond it: mean and standard deviation."""
    PARTNER_CORRELATION: float
    """How the two partners' errors go together."""
    NIL_PARTNER_BID: float
    """What the partner of a Nil bidder bids after the Nil, on average ..."""
    NIL_PARTNER_MAKES: float
    """... and how often that partner makes it alone."""
    NIL_MADE_RATE: float
    """How often a Nil holds (a partner's Nil, whose hand is unseen)."""
    DOUBLE_NIL_MADE_RATE: float
    """How often a Nil holds beside the partner's Nil (neither is covered)."""

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> BiddingModel:
        """The model from ``values`` by name (a fitted dict, or a module's globals)."""
        arguments: dict[str, Any] = {}
        for field in fields(cls):
            value = values[field.name]
            arguments[field.name] = (
                tuple(float(v) for v in value) if isinstance(value, (tuple, list)) else float(value)
            )
        return cls(**arguments)


COMMITTED_MODEL: Final = BiddingModel.from_values(vars(bidding_model))
"""The model the bots play with: ``bidding_model``, as last fitted."""


def dot(weights: Sequence[float], features: Sequence[float]) -> float:
    return math.fsum(w * f for w, f in zip(weights, features, strict=True))


def expected_tricks(
    hand: int, context: BiddingContext, model: BiddingModel = COMMITTED_MODEL
) -> tuple[float, float]:
    """The tricks ``hand`` is expected to take bidding a number: mean and spread."""
    mean = dot(model.TRICK_WEIGHTS, trick_features(hand, context))
    if context.partner_bid is not None and is_nil(context.partner_bid):
        mean -= COVER_CAUTION
    mean = min(13.0, max(0.0, mean))
    variance = model.TRICK_SPREAD[0] + model.TRICK_SPREAD[1] * mean
    return mean, math.sqrt(max(MIN_SPREAD**2, variance))


def nil_chance(hand: int, context: BiddingContext, model: BiddingModel = COMMITTED_MODEL) -> float:
    """The chance that a Nil bid on ``hand`` takes no trick, against opponents
    who attack Nils harder than the ones the model learned from (NIL_CAUTION)."""
    score = dot(model.NIL_WEIGHTS, nil_features(hand, context))
    learned = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))
    return max(0.0, learned - NIL_CAUTION)


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def margin_outcomes(mean: float, spread: float, bid: int) -> list[Outcome]:
    """A team contract of ``bid`` whose tricks beyond it are about normally
    distributed (``mean``, ``spread``): set, or made with 0, 1, 2 ... overtricks."""
    outcomes: list[Outcome] = []
    set_chance = normal_cdf((-0.5 - mean) / spread)
    outcomes.append((set_chance, -10 * bid, 0))
    below = set_chance
    for over in range(0, 14 - min(bid, 13)):
        upper = 1.0 if over == 13 - bid else normal_cdf((over + 0.5 - mean) / spread)
        outcomes.append((upper - below, 10 * bid + over, over))
        below = upper
    return outcomes


def partner_tricks(bid: int, model: BiddingModel) -> tuple[float, float]:
    """The tricks a partner who bid ``bid`` is expected to take: mean and spread."""
    mean = model.PARTNER_TRICKS[0] + model.PARTNER_TRICKS[1] * bid
    variance = model.PARTNER_SPREAD[0] + model.PARTNER_SPREAD[1] * bid
    return mean, math.sqrt(max(MIN_SPREAD**2, variance))


def combined_spread(mine: float, theirs: float, model: BiddingModel) -> float:
    rho = model.PARTNER_CORRELATION
    return math.sqrt(max(MIN_SPREAD**2, mine * mine + theirs * theirs + 2 * rho * mine * theirs))


def numeric_outcomes(
    bid: int, tricks: tuple[float, float], context: BiddingContext, model: BiddingModel
) -> list[Outcome]:
    """What bidding ``bid`` can lead to for the team, on a hand expected to
    take ``tricks`` (mean, spread)."""
    mean, spread = tricks
    partner = context.partner_bid
    if partner is None:  # the partner bids later, on their own count
        partner_bid = model.LATER_PARTNER_BID
        surplus_mean, surplus_spread = model.LATER_PARTNER_SURPLUS
        team_bid = bid + round(partner_bid)
        margin = mean - bid + surplus_mean
        return margin_outcomes(margin, combined_spread(spread, surplus_spread, model), team_bid)
    if is_nil(partner):  # alone on this bid; the partner's Nil counts apart
        made = model.NIL_MADE_RATE
        bonus = nil_bonus(context.rules, partner)
        own = margin_outcomes(mean - bid, spread, bid)
        return [
            (p * chance, points + nil_points, bags + nil_bags)
            for p, points, bags in own
            for chance, nil_points, nil_bags in ((made, bonus, 0), (1 - made, -bonus, 1))
        ]
    partner_mean, partner_spread = partner_tricks(partner, model)
    margin = mean - bid + partner_mean - partner
    return margin_outcomes(margin, combined_spread(spread, partner_spread, model), bid + partner)


def nil_outcomes(hand: int, context: BiddingContext, model: BiddingModel) -> list[Outcome]:
    """What bidding Nil can lead to: the Nil made or broken, and the partner's
    own contract (or Nil) made or set."""
    made = nil_chance(hand, context, model)
    rules = context.rules
    bonus = rules.nil_bonus
    nil = ((made, bonus, 0), (1 - made, -bonus, 1))  # a broken Nil usually takes one trick
    partner = context.partner_bid
    if partner is not None and is_nil(partner):  # a double Nil: neither is covered
        other = model.DOUBLE_NIL_MADE_RATE
        if rules.double_nil_bonus is not None:  # scored as one: made only if both are
            both = rules.double_nil_bonus
            return [(made * other, both, 0), (1 - made * other, -both, 1)]
        theirs_bonus = nil_bonus(rules, partner)
        theirs: list[Outcome] = [(other, theirs_bonus, 0), (1 - other, -theirs_bonus, 1)]
    elif partner is None:
        bid = round(model.NIL_PARTNER_BID)
        makes = model.NIL_PARTNER_MAKES
        theirs = [(makes, 10 * bid + 1, 1), (1 - makes, -10 * bid, 0)]
    else:  # the partner bid a number and will have to cover this Nil
        partner_mean, partner_spread = partner_tricks(partner, model)
        theirs = margin_outcomes(partner_mean - COVER_CAUTION - partner, partner_spread, partner)
    return [(p * q, a + b, c + d) for p, a, c in nil for q, b, d in theirs]


def bid_values(view: PlayerView, model: BiddingModel = COMMITTED_MODEL) -> dict[int, float]:
    """Every legal bid's expected value to the team, in ``GAME_VALUE`` units
    (at 0-0 about one unit a point)."""
    context = BiddingContext.of(view)
    team = team_of(view.seat)
    opponents = [bid for seat, bid in view.bids if team_of(seat) != team]
    their_points = OPPONENT_SHARE * 10 * sum(opponents) if len(opponents) == 2 else OPPONENT_PACE
    tricks = expected_tricks(view.hand, context, model)
    # Bids far from the hand's count are never worth most: skip them (speed).
    nearby = range(math.floor(tricks[0]) - BIDS_BELOW, math.ceil(tricks[0]) + BIDS_ABOVE + 1)
    worth = outcome_values(view)
    theirs = round(their_points)

    def value_of(points: int, bags: int) -> float:
        key = (points, bags, theirs)
        value = worth.get(key)
        if value is None:
            value = worth[key] = outcome_value(view, points, bags, theirs)
        return value

    # Blind Nil is chosen before looking, never from a hand (see blind_nil.py).
    legal = [bid for bid in view.legal_bids() if bid != BLIND_NIL]
    # A house rule (a minimum team bid) may leave no bid near the count legal:
    # then every legal bid is weighed.
    considered = [bid for bid in legal if bid in (NIL, 1) or bid in nearby] or legal
    values = {}
    for bid in considered:
        if bid == NIL:
            outcomes = nil_outcomes(view.hand, context, model)
        else:
            outcomes = numeric_outcomes(bid, tricks, context, model)
        values[bid] = math.fsum(
            p * value_of(points, bags) for p, points, bags in outcomes if p > NEGLIGIBLE
        )
    return values


def nil_bonus(rules: Rules, bid: int) -> int:
    """What a Nil of this kind (Nil or blind Nil) wins or loses under ``rules``."""
    return rules.blind_nil_bonus if bid == BLIND_NIL else rules.nil_bonus


SCORES_REMEMBERED: Final = 128
"""Scores between hands whose outcome values are kept, the latest used first
(see ``outcome_values``): a bot process of a busy server bids for a hundred
tables at once, each at its own score, and forgetting them all at 64 made most
bids start cold, at half again the CPU of a bid searched warm. About 0.3 MB each."""
_outcome_values: dict[tuple[Rules, int, tuple[int, int], tuple[int, int]], dict[OutcomeKey, float]]
_outcome_values = {}


def outcome_values(view: PlayerView) -> dict[OutcomeKey, float]:
    """The outcome values already worked out for the viewer's team at this
    score (``outcome_value`` by points, bags taken and the opponents' points).

    They depend only on the score, never on the cards, so they are shared by
    every bid made from it: the search bids each of its sampled deals out from
    the same score, and the same few dozen outcomes recur in every one of them
    (this took the learned bidder from about 0.5 ms a bid to a fraction of it).
    """
    key = (view.rules, team_of(view.seat), view.totals, view.bags)
    table = _outcome_values.pop(key, None)  # put back last: the latest used
    if table is None:
        table = {}
        if len(_outcome_values) >= SCORES_REMEMBERED:
            del _outcome_values[next(iter(_outcome_values))]  # the one used longest ago
    _outcome_values[key] = table
    return table


def outcome_value(view: PlayerView, points: int, bags_taken: int, their_points: int) -> float:
    """What scoring ``points`` and taking ``bags_taken`` is worth to the team
    when the opponents score ``their_points``."""
    rules = view.rules
    team = team_of(view.seat)
    penalties, bags = rules.bag_penalties(view.bags[team] + bags_taken)
    points -= penalties * rules.bag_penalty
    totals = [0, 0]
    totals[team] = view.totals[team] + points
    totals[1 - team] = view.totals[1 - team] + their_points
    after = (totals[0], totals[1])
    all_bags = (bags, view.bags[1]) if team == 0 else (view.bags[0], bags)
    return game_value(after, all_bags, team, rules)


def choose_learned_bid(view: PlayerView, model: BiddingModel = COMMITTED_MODEL) -> int:
    """The legal bid worth most to the team (the lower one on a tie).

    >>> from spades.core import Game
    >>> game = Game(seed=1)
    >>> view = game.view(game.to_act)
    >>> choose_learned_bid(view) in view.legal_bids()
    True
    """
    values = bid_values(view, model)
    return max(sorted(values, key=lambda bid: (bid == NIL, bid)), key=values.__getitem__)


__all__ = [
    "COMMITTED_MODEL",
    "BiddingModel",
    "bid_values",
    "choose_learned_bid",
    "expected_tricks",
    "nil_chance",
]
