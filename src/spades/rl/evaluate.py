"""Duplicate evaluation of an agent against a bot level on a deal set.

Each deal of the set is played twice, as the arena's duplicate matches play it
(``spades.arena``: ``play_hand`` from 0-0, scored by ``table_scores`` with
``bag_adjusted``): the agent's partnership at North-South at the first table and
at East-West at the second, the bot level's at the other seats. The luck of the
cards cancels; what is left is the agent's play. A deal's figure is the agent's
mean bag-adjusted hand score over its two tables (each bag charged its share of
the penalty to come: 10 points under the default rules), and the report gives
the mean over the deals with its 95% interval, and the same for the margin over
the opponents.

An agent is any ``spades.bots.Bot``: ``PolicyBot`` wraps a function from an
observation and its mask to an action (a trained network, see
``spades.rl.baseline``).

>>> from spades.bots import make_bot
>>> report = evaluate_duplicate(lambda seed: make_bot("random", seed=seed), "random", "test-v1", deals=4)
>>> report.deals, report.opponent, round(report.margin.value, 6) == round(report.points.value - report.opponent_points.value, 6)
(4, 'random', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from spades.arena.match import bag_adjusted, derive_seed, table_scores
from spades.arena.players import make_player, parse_player
from spades.arena.referee import play_hand
from spades.arena.stats import Estimate, mean_interval
from spades.bots import Bot
from spades.core import CARDCOUCH, EW, NS, SEATS, Card, PlayerView, Rules, team_of

from .deal_sets import DealSet, load_deal_set
from .encoding import FloatArray, Int8Array, action_bid, action_card, action_mask, encode_view

Policy = Callable[[FloatArray, Int8Array], int]
"""Chooses an action from an observation and its action mask."""


class PolicyBot(Bot):
    """A ``Bot`` that asks ``policy`` for every bid and card, showing it the
    observation ``encode_view`` makes of the seat's view and its legal actions."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int | str | None = None, name: str = "policy") -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name

    def _act(self, view: PlayerView) -> int:
        mask = action_mask(view)
        action = int(self.policy(encode_view(view), mask))
        if not 0 <= action < mask.size or not mask[action]:
            raise ValueError(f"the policy chose action {action}, which the mask does not allow")
        return action

    def bid(self, view: PlayerView) -> int:
        bid = action_bid(self._act(view))
        assert bid is not None  # the mask offers only bids while bidding
        return bid

    def play(self, view: PlayerView) -> Card:
        card = action_card(self._act(view))
        assert card is not None
        return card


@dataclass(frozen=True, slots=True)
class DuplicateReport:
    agent: str
    opponent: str
    deal_set: str
    deals: int
    points: Estimate
    """The agent's mean bag-adjusted hand score a deal (the mean of its two tables)."""
    opponent_points: Estimate
    margin: Estimate
    """``points`` minus the opponents' bag-adjusted score, deal by deal."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "opponent": self.opponent,
            "deal_set": self.deal_set,
            "deals": self.deals,
            "points": self.points.to_dict(),
            "opponent_points": self.opponent_points.to_dict(),
            "margin": self.margin.to_dict(),
        }


def evaluate_duplicate(
    make_agent: Callable[[int], Bot],
    opponent: str,
    deal_set: DealSet | str | Path = "test-v1",
    *,
    deals: int | None = None,
    rules: Rules = CARDCOUCH,
    agent_name: str = "agent",
) -> DuplicateReport:
    """Play the agent (``make_agent(seed)`` makes one seat's bot) against
    ``opponent`` (an arena player spec: ``random``, ``easy``, ``normal``, ...) on
    the first ``deals`` deals of ``deal_set`` (all by default), both ways round.

    Seeds as the arena's duplicate match with the set's master seed: a deal's
    seed is ``derive_seed(seed, "deal", index)`` and each seat's bot is seeded
    ``derive_seed(deal_seed, "seat", seat)`` at both tables."""
    chosen = deal_set if isinstance(deal_set, DealSet) else load_deal_set(deal_set)
    spec = parse_player(opponent)
    played = chosen.deals if deals is None else chosen.deals[:deals]
    if not played:
        raise ValueError(f"the deal set {chosen.name!r} has no deals to play")
    ours: list[float] = []
    theirs: list[float] = []
    for deal in played:
        seed = derive_seed(chosen.seed, "deal", deal.index)
        tables = []
        for agent_team in (NS, EW):
            bots: dict[int, Bot] = {}
            for seat in SEATS:
                seat_seed = derive_seed(seed, "seat", seat)
                is_agent = team_of(seat) == agent_team
                bots[seat] = make_agent(seat_seed) if is_agent else make_player(spec, seat_seed)
            try:
                game = play_hand(bots, dealer=deal.dealer, deal=deal.hands, rules=rules, seed=seed)
            finally:
                for bot in bots.values():
                    bot.close()
            tables.append(table_scores(game, agent_team, bag_adjusted))
        ours.append(float(np.mean([table[0] for table in tables])))
        theirs.append(float(np.mean([table[1] for table in tables])))
    margins = [a - b for a, b in zip(ours, theirs, strict=True)]
    return DuplicateReport(
        agent=agent_name,
        opponent=opponent,
        deal_set=chosen.name,
        deals=len(played),
        points=mean_interval(ours),
        opponent_points=mean_interval(theirs),
        margin=mean_interval(margins),
    )
