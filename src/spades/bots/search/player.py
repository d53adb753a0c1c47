"""The search player (levels ``hard`` and ``expert``).

For each decision it samples deals of the hidden cards consistent with its
view (exactly uniform, see ``sampler``), weighs them by how well they explain
the bids (``inference``), and plays every candidate out in every sampled deal
with the knowledge-based player at all four seats. The candidate whose outcomes
are worth most to the team wins: hand points including Nil bonuses, the future
cost of bags, and near the end of the game whether the game is won or lost.

It only ever sees its own seat's view: the deals it searches are guesses.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from spades.core import NIL, HandState, PlayerView, Rules, game_outcome, score_hand, state_from_view
from spades.core.cards import Card, cards_in
from spades.core.hand import Phase
from spades.core.seats import partner_of, team_of

from ..base import Bot
from ..knowledge import KnowledgeBot
from ..knowledge.bidding import BidStyle, choose_bid, nil_danger
from ..knowledge.memory import Memory, cards_below
from ..knowledge.play import choose_card
from .inference import deal_weight
from .sampler import HiddenHands

GAME_SWING = 600.0
"""What winning (or losing) the game is worth in points, against points in hand."""
PRIOR_BONUS = 3.0
"""A small preference for the knowledge-based choice: it breaks near-ties the
samples cannot tell apart."""


class SearchBot(Bot):
    """Determinized search with knowledge-based playouts."""

    name = "hard"
    think = 0.12
    """Seconds to think per decision (at least ``min_worlds`` deals are searched)."""
    min_worlds = 6
    max_worlds = 24
    bid_think = 0.3
    """Bidding fixes the whole hand's contract: it gets more time and deals."""
    min_bid_worlds = 16
    max_bid_worlds = 40

    def __init__(self, seed: int | str | None = None, think: float | None = None) -> None:
        super().__init__(seed)
        if think is not None:
            self.set_think(think)
        self.prior = KnowledgeBot(seed)

    def set_think(self, seconds: float) -> None:
        """Think for ``seconds`` a card (bids get more: they fix the contract). The
        deal counts scale with the time, so more time always means more search."""
        if seconds <= 0:
            raise ValueError(f"think time must be positive, got {seconds}")
        scale = seconds / self.think
        self.think = seconds
        self.bid_think *= scale
        self.max_worlds = max(self.min_worlds, round(self.max_worlds * scale))
        self.max_bid_worlds = max(self.min_bid_worlds, round(self.max_bid_worlds * scale))

    # ------------------------------------------------------------------ play

    def play(self, view: PlayerView) -> Card:
        candidates = distinct_cards(view.legal_mask(), view)
        preferred = self.prior.play(view)
        if len(candidates) == 1:
            return preferred  # every legal card is equivalent

        def outcome(state: HandState, card: Card) -> HandState:
            trial = state.clone()
            trial.apply_play(card)
            return playout(trial, view)

        budget = Budget(self.think, self.min_worlds, self.max_worlds)
        values = self.search(view, candidates, outcome, budget)
        best = max(
            candidates,
            key=lambda c: values[c] + (PRIOR_BONUS if same_group(c, preferred, view) else 0.0),
        )
        return preferred if same_group(best, preferred, view) else best

    # ------------------------------------------------------------------- bid

    def bid(self, view: PlayerView) -> int:
        base = choose_bid(view, BidStyle())
        candidates = {max(1, base - 1), max(1, base), min(13, max(1, base) + 1)}
        partner_bid = view.bid_of(partner_of(view.seat))
        if base == NIL or (partner_bid != NIL and nil_danger(view.hand) <= 1.2):
            candidates.add(NIL)

        def outcome(state: HandState, bid: int) -> HandState:
            trial = state.clone()
            trial.apply_bid(bid)
            finish_bidding(trial, view)
            return playout(trial, view)

        budget = Budget(self.bid_think, self.min_bid_worlds, self.max_bid_worlds)
        values = self.search(view, sorted(candidates), outcome, budget)
        return max(values, key=lambda b: values[b] + (PRIOR_BONUS if b == base else 0.0))

    # ---------------------------------------------------------------- search

    def search(
        self,
        view: PlayerView,
        options: list[int],
        outcome: Callable[[HandState, int], HandState],
        budget: Budget,
    ) -> dict[int, float]:
        """The weighted mean value of each option over sampled deals: every option
        is tried in the same deals, so their differences are not luck of the sample."""
        hidden = HiddenHands(view)
        values = dict.fromkeys(options, 0.0)
        total_weight = 0.0
        deadline = time.perf_counter() + budget.seconds
        worlds = 0
        while worlds < budget.max_worlds and (
            worlds < budget.min_worlds or time.perf_counter() < deadline
        ):
            hands = hidden.sample(self.rng)
            weight = deal_weight(view, hands)
            state = state_from_view(view, hands)
            for option in options:
                values[option] += weight * hand_value(outcome(state, option), view)
            total_weight += weight
            worlds += 1
        return {option: value / total_weight for option, value in values.items()}


@dataclass(frozen=True)
class Budget:
    """How long to search: at least ``min_worlds`` deals, then until ``seconds``
    have passed or ``max_worlds`` deals are done."""

    seconds: float
    min_worlds: int
    max_worlds: int


class ExpertBot(SearchBot):
    """More deals searched, more time: the strongest level."""

    name = "expert"
    think = 0.35
    min_worlds = 12
    max_worlds = 64
    bid_think = 0.8
    min_bid_worlds = 32
    max_bid_worlds = 96


# --------------------------------------------------------------- the pieces


def distinct_cards(legal: int, view: PlayerView) -> list[Card]:
    """The legal cards with equals merged: two cards of a suit with no unseen
    card between them win and lose the same tricks, so search one of them."""
    unseen = view.unseen
    result: list[Card] = []
    for card in cards_in(legal):
        if result and same_run(result[-1], card, unseen, legal):
            continue
        result.append(card)
    return result


def same_run(lower: Card, higher: Card, unseen: int, legal: int) -> bool:
    if lower // 13 != higher // 13:
        return False
    between = cards_below(higher) & ~cards_below(lower) & ~(1 << lower)
    return not between & unseen


def same_group(a: Card, b: Card, view: PlayerView) -> bool:
    low, high = min(a, b), max(a, b)
    return a == b or same_run(low, high, view.unseen, view.hand)


def finish_bidding(state: HandState, view: PlayerView) -> None:
    """The seats after this one bid as the knowledge-based bidder would."""
    while state.phase is Phase.BIDDING:
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_bid(choose_bid(seat_view, BidStyle()))


def playout(state: HandState, view: PlayerView) -> HandState:
    """Play the hand to its end with the knowledge-based player at every seat."""
    while state.phase is Phase.PLAYING:
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_play(choose_card(Memory(seat_view)))
    return state


def hand_value(state: HandState, view: PlayerView) -> float:
    """What the finished hand is worth to the viewer's team, minus the opponents'."""
    rules: Rules = view.rules
    bids = [NIL if bid is None else bid for bid in state.bids]
    scores = score_hand(bids, state.tricks_won, view.bags, rules)
    team = team_of(view.seat)
    bag_cost = rules.bag_penalty / rules.bag_limit

    def worth(side: int) -> float:
        # A bag is worth -bag_cost in the long run: the penalty it brings closer.
        return scores[side].delta - bag_cost * (scores[side].bags - view.bags[side])

    value = worth(team) - worth(1 - team)
    totals = (view.totals[0] + scores[0].delta, view.totals[1] + scores[1].delta)
    outcome = game_outcome(totals, rules)
    if outcome is not None:
        value += GAME_SWING if outcome.winner == team else -GAME_SWING
    return value
